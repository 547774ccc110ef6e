"""Every part renders, for every shipped track, route, peloton and field size and for
user files; every page names the game, credits the designer and states its options."""

from __future__ import annotations

from pathlib import Path

import pytest

from raceday.games.wielersim.peloton import SHIPPED_PELOTONS, START_LISTS
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.printing.catalog import games
from tests.printing.conftest import pages_of, parse, texts, with_class

GAMES = games()  # every game whose package carries a printing face

CASES: list[tuple[str, str, dict[str, object]]] = [
    ("pistard", "track", {"track": "default"}),
    ("pistard", "track", {"track": "short"}),
    ("pistard", "counters", {}),
    *[("keirin", "track", {"length": n}) for n in (19, 50, 75, 100, 1000)],
    ("keirin", "counters", {}),
    *[("keirin", "slip", {"riders": r}) for r in (6, 7, 8, 9)],
    ("derby", "scores", {}), *[("derby", "scores", {"races": r}) for r in (4, 6)],
    ("derby", "auction", {"races": 6}), ("derby", "odds", {"fall_rate": "1/10"}),
    ("hairpin", "board", {}), ("hairpin", "tally", {}),
    *[("wielersim", "schedule", {"route": r}) for r in SHIPPED_ROUTES],
    *[("wielersim", "markers", {"route": r}) for r in SHIPPED_ROUTES],
    *[("wielersim", "riders", {"peloton": p}) for p in SHIPPED_PELOTONS + START_LISTS],
]


def _check_pages(game: str, documents: list[str], options_text: list[str]) -> None:
    credit = GAMES[game].credit
    assert documents
    for number, document in enumerate(documents, start=1):
        root = parse(document)
        words = texts(root)
        assert credit.title in words
        assert any(credit.designer in w and "Designed by" in w for w in words)
        header = " ".join(t for t in words)
        assert "Options:" in header and "paper" in header
        for fragment in options_text:
            assert fragment in header, fragment
        assert f"page {number} of {len(documents)}" in words
        assert root.get("width", "").endswith("mm")
        for word in words:  # the PDF's standard fonts show Windows-1252 text only
            word.encode("cp1252")
        assert "style=" not in document  # inline styles would break under the web page's CSP


@pytest.mark.parametrize(("game", "part", "options"), CASES,
                         ids=[f"{g}-{p}-{'-'.join(map(str, o.values()))}" for g, p, o in CASES])
def test_every_part_renders(game: str, part: str, options: dict[str, object]) -> None:
    documents = pages_of(game, part, **options)
    shown = [str(v) for v in options.values() if isinstance(v, str) and not v.startswith("1/")]
    _check_pages(game, documents, shown)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_prints_all_its_parts_on_both_papers(game: str, paper: str) -> None:
    documents = pages_of(game, None, paper=paper)
    parts = {parse(d).get("data-part") for d in documents}
    assert parts == {p.name for p in GAMES[game].parts}
    size = {"a4": "210mm", "letter": "215.9mm"}[paper]
    assert all(parse(d).get("width") == size for d in documents)
    _check_pages(game, documents, [f"paper {paper.upper() if paper == 'a4' else 'Letter'}"])


def test_user_track_file(user_track: Path) -> None:
    documents = pages_of("pistard", "track", track=str(user_track))
    _check_pages("pistard", documents, ["Garage track", "18 columns"])


def test_user_route_peloton_and_imported_track(tmp_path: Path) -> None:
    route = tmp_path / "my-route.toml"
    route.write_text('name = "Kermis"\nhierarchy = ["sprinter", "leader", "helper", "climber"]\n'
                     "sprints = [40]\n[[sections]]\nlength = 30\ncolour = \"helper\"\n"
                     "[[sections]]\nlength = 14\ncolour = \"climber\"\nroad = \"uphill\"\n"
                     "category = \"3\"\n[[sections]]\nlength = 36\ncolour = \"sprinter\"\n",
                     encoding="utf-8")
    for part in ("schedule", "markers"):
        _check_pages("wielersim", pages_of("wielersim", part, route=str(route)), ["Kermis"])
    peloton = tmp_path / "p.csv"
    peloton.write_text("team,number,name,type\nA,1,Ann,leader\nA,2,Bo,sprinter\nA,3,Cy,helper\n",
                       encoding="utf-8")
    riders = pages_of("wielersim", "riders", peloton=str(peloton))
    assert "Ann" in texts(parse(riders[0]))
    track = tmp_path / "ride.csv"
    rows = ["distance_km,elevation_m,surface"]
    for i in range(121):
        height = 20 + (8 * (i - 90) if 90 <= i <= 100 else (80 if i > 100 else 0))
        rows.append(f"{i + 5},{height},{'cobbles' if 40 <= i < 46 else 'paved'}")
    track.write_text("\n".join(rows) + "\n", encoding="utf-8")
    schedule = pages_of("wielersim", "schedule", route=str(track))
    cells = [t for d in schedule for t in texts(parse(d))]
    assert "Cobbles (start)" in cells
    assert "5" in cells and "125" in cells  # km 5 to 125 of the real track are filled in


def test_hairpin_pages_keep_the_designers_rights_note() -> None:
    for document in pages_of("hairpin"):
        words = " ".join(texts(parse(document)))
        assert "All rights to the game and its rule text belong to the designer" in words
        assert "permission or a licence" in words


def test_hairpin_board_has_the_double_hairpin_barriers() -> None:
    root = parse(pages_of("hairpin", "board")[0])
    walls = {e.get("data-between") for e in root.iter() if e.get("class") == "barrier"}
    assert walls == {"a1-a2", "b1-b2", "c1-c2", "d1-d2", "e1-e2",
                     "b2-b3", "c2-c3", "d2-d3", "e2-e3", "f2-f3"}


def test_keirin_finish_line_follows_the_length() -> None:
    def finishes(length: int) -> list[tuple[str, str]]:
        found = []
        for d in pages_of("keirin", "track", length=length):
            root = parse(d)
            for e in with_class(root, "finish", tag="text"):
                found.append((root.get("data-page", ""), e.get("data-square", "")))
        return found

    assert finishes(50) == [("2", "0")]  # the start of half B
    assert finishes(62) == [("2", "12")]
    assert finishes(100) == [("1", "0")]  # a full lap: back on the derny's square
    assert finishes(19) == [("1", "19")]
