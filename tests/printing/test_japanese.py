"""The Print page, every game's options form and every part's sheets, asked for in
Japanese, show no English words beyond names, codes and units; the PDF of a Japanese sheet
is set in a Japanese font; a shipped choice that is the default is listed once."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from raceday.printing.catalog import games, read_options  # noqa: E402
from raceday.printing.output import JAPANESE_FONT, pdf_bytes  # noqa: E402
from raceday.web.app import create_app  # noqa: E402
from tests.printing.conftest import pages_of, parse  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
WORD = re.compile(r"[A-Za-z]{2,}")
# Words a Japanese page may show, each not a word of English prose: raceday's name and
# its command raceday print (named where a form's hint says what else the command takes),
# units and formats (mm, cm, km, MB, PDF, TOML, gpx, csv) and the climb category HC and
# sprint code Sp of WielerSIM's route schedule. Names taken from the games and their data (the
# games' names as credited, e.g. KEIRIN beside 競輪 and Hairpin Racers in its rights
# line; designers, riders, teams, places, routes) and the shipped choices' codes are added
# by :func:`allowed`.
KEPT = {"raceday", "print", "mm", "cm", "km", "MB", "PDF", "TOML", "gpx", "csv", "HC", "Sp"}


@cache
def allowed() -> frozenset[str]:
    """:data:`KEPT` and the words of every name the sheets print from the game's data."""
    from raceday.games.wielersim.peloton import peloton_from_spec, resolve_peloton
    from raceday.games.wielersim.printing import DEFAULT_PELOTON, DEFAULT_ROUTE
    from raceday.games.wielersim.route import compile_route, resolve_route

    names: list[str] = []
    for info in games().values():
        names += [info.credit.designer, info.credit.title]
        for schema in info.schema().values():
            names += [str(v) for v in schema.get("enum", ())]
    peloton = peloton_from_spec(resolve_peloton(DEFAULT_PELOTON))
    names += [r.name for r in peloton.riders] + list(peloton.teams)
    route = compile_route(resolve_route(DEFAULT_ROUTE))
    names += [route.name] + [s.name for s in route.sections] + [c.name for c in route.climbs]
    return frozenset(KEPT | {w for name in names for w in WORD.findall(name)})


def english(texts: list[str]) -> list[str]:
    """The words of ``texts`` that a Japanese page should not show."""
    return sorted({w for t in texts for w in WORD.findall(t)} - allowed())


class _Visible(HTMLParser):
    """A page's text as a reader meets it: its text, its fields' placeholders and hints, and
    its SVG text apart from the footer's command line (a command is code)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.texts += [v for k, v in found.items() if k in ("placeholder", "title") and v]
        self._skip.append(tag in ("script", "style", "title")
                          or "command" in (found.get("class") or "").split())

    def handle_endtag(self, tag: str) -> None:
        if self._skip:
            self._skip.pop()

    def handle_data(self, data: str) -> None:
        if not any(self._skip) and data.strip():
            self.texts.append(data)


def visible(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html)
    return parser.texts


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("print") / "party.sqlite")) as tc:
        yield tc


def test_the_index_and_every_form_in_japanese(client: TestClient) -> None:
    page = client.get("/print", params={"lang": "ja"})
    assert page.status_code == 200 and '<html lang="ja">' in page.text
    assert english(visible(page.text)) == []
    assert page.text.count('name="lang" value="ja"') == len(games())  # forms ask for ja
    assert "印刷して遊ぶ" in page.text and "既定（フランドル（石畳））" in page.text


@pytest.mark.parametrize("game", sorted(games()))
def test_every_sheet_of_every_game_in_japanese(client: TestClient, game: str) -> None:
    page = client.get(f"/print/{game}", params={"lang": "ja"})
    assert page.status_code == 200, page.text
    count = page.text.count('<section class="sheet">')
    assert count == len(pages_of(game))  # every part's every page
    assert english(visible(page.text)) == []
    assert "lang=ja" in page.text  # the PDF link keeps the language
    assert "--lang ja" in page.text  # the footer's command makes the same pages


def test_english_sheets_keep_their_words(client: TestClient) -> None:
    """The check above could pass by showing nothing: the same pages in English have
    English words for it to find."""
    page = client.get("/print/hairpin", params={"part": "board"})
    assert "Hairpin Racers: 1 page" in page.text and "page(s)" not in page.text
    assert {"Barriers", "Designed", "Options"} <= set(english(visible(page.text)))
    assert "Hairpin Racers: 2 pages" in client.get("/print/hairpin").text


def test_a_shipped_default_is_listed_once(client: TestClient) -> None:
    for lang, default in (("en", "default"), ("ja", "既定")):
        page = client.get("/print", params={"lang": lang}).text
        track = re.search(r'<select [^>]*name="track".*?</select>', page)
        assert track is not None
        choices = re.findall(r'<option value="([^"]*)">', track.group(0))
        assert choices == ["", "short"]  # the shipped track named default is the default
        assert default in track.group(0)
        route = re.search(r'<select [^>]*name="route".*?</select>', page)
        assert route is not None and route.group(0).count('"flanders"') == 0  # as the default
        shown = {"en": "Flanders (cobbles)", "ja": "フランドル（石畳）"}[lang]
        assert route.group(0).count(shown) == 1  # named in words, once


def test_refusals_in_the_pages_language(client: TestClient) -> None:
    page = client.get("/print/derby", params={"lang": "fr"})
    assert page.status_code == 400 and "unknown language" in page.text
    assert client.get("/print", params={"lang": "xx"}).status_code == 400
    page = client.get("/print/keirin", params={"part": "board", "lang": "ja"})
    assert page.status_code == 400 and "印刷する内容「board」はありません" in page.text
    page = client.get("/print/pistard", params={"track": "mine.toml", "lang": "ja"})
    assert page.status_code == 400 and "同梱のものだけです" in page.text
    page = client.get("/print/keirin", params={"part": "odds", "margin": "5", "lang": "ja"})
    assert page.status_code == 400 and "控除率（--margin）は0以上1未満です" in page.text


def test_a_japanese_pdf_names_a_japanese_font() -> None:
    info = games()["keirin"]
    from raceday.printing.catalog import build, command_line, render

    for lang, japanese in (("ja", True), ("en", False)):
        options = read_options(info, {}, lang=lang)
        documents = render(build("keirin", "slip", options), command_line("keirin", "slip",
                                                                          options))
        pdf = pdf_bytes(documents)
        assert (JAPANESE_FONT.encode() in pdf) is japanese


def test_the_command_line_prints_in_japanese(tmp_path: Path) -> None:
    from raceday.cli.main import run

    out = tmp_path / "slip.svg"
    assert run(["print", "keirin", "slip", "--lang", "ja", "--out", str(out)]) == 0
    words = [t.text or "" for t in parse(out.with_name("slip-01.svg").read_text(
        encoding="utf-8")).iter(f"{NS}text")]
    assert "競輪 投票用紙" in words and english(words[:-1]) == []  # the last: the command
