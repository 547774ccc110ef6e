"""Every HTML page comes from the one shell: each answers with its own module and style
sheets, all of which the server serves, under the app's Content-Security-Policy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from raceday.web.app import create_app
from raceday.web.pages import PageDeclarationError, game_page

LINKED = re.compile(r'(?:src|href)="([^"]+)"')
PAGES = {  # URL: (module, a style sheet of its own or None, body class)
    "/": ("/static/js/index.js", None, "landing"),
    "/host/ABCD": ("/static/js/host.js", None, "big"),
    "/watch/ABCD": ("/static/js/host.js", None, "big"),
    "/play/ABCD": ("/static/js/play.js", None, "phone"),
    "/numbers": ("/static/js/numbers.js", "/static/css/watch.css", "big watch-page"),
    "/replay": ("/static/js/replay.js", "/static/css/watch.css", "big watch-page"),
    "/wielersim": ("/games/wielersim/static/watch.js", "/games/wielersim/static/style.css",
                   "big watch-page"),
}


@pytest.mark.parametrize("url", sorted(PAGES))
def test_page_from_the_shell(tmp_path: Path, url: str) -> None:
    module, style, body = PAGES[url]
    client = TestClient(create_app(tmp_path / "rooms.db"))
    r = client.get(url)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["cache-control"] == "no-cache"
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert f'<script type="module" src="{module}"></script>' in r.text
    assert f'<body class="{body}">' in r.text
    assert '<link rel="stylesheet" href="/static/css/app.css">' in r.text
    if style is not None:
        assert f'<link rel="stylesheet" href="{style}">' in r.text
    assert "<script>" not in r.text and "style=" not in r.text  # nothing inline
    for linked in LINKED.findall(r.text):
        if linked.startswith("/") and not linked.startswith(("/replay", "/numbers")):
            assert client.get(linked).status_code == 200, linked


def test_the_replay_page_links_its_own_style_sheet_in_its_head(tmp_path: Path) -> None:
    """Loaded before the module draws (a sheet the module added came late on a busy
    machine: the first drawing was measured in the body's smaller type)."""
    text = TestClient(create_app(tmp_path / "rooms.db")).get("/replay/room/ABCD").text
    head = text.split("</head>")[0]
    assert '<link rel="stylesheet" href="/static/css/replay.css">' in head
    assert head.index("replay.css") < text.index('<script type="module"')


def test_landing_keeps_its_form(tmp_path: Path) -> None:
    text = TestClient(create_app(tmp_path / "rooms.db")).get("/").text
    assert '<form id="join">' in text and 'href="/replay"' in text and "{" not in text


def test_a_game_without_a_declaration_has_no_page(tmp_path: Path) -> None:
    assert game_page("nothing", tmp_path) is None


def test_a_broken_declaration_is_named(tmp_path: Path) -> None:
    (tmp_path / "page.json").write_text('{"title": "x"}', encoding="utf-8")
    with pytest.raises(PageDeclarationError, match=r"page\.json"):
        game_page("nothing", tmp_path)


def test_relative_and_absolute_names(tmp_path: Path) -> None:
    (tmp_path / "page.json").write_text(
        '{"module": "m.js", "styles": ["/static/css/x.css", "s.css"]}', encoding="utf-8")
    page = game_page("g", tmp_path)
    assert page is not None
    assert page.module == "/games/g/static/m.js"
    assert page.styles == ("/static/css/watch.css", "/static/css/x.css", "/games/g/static/s.css")
    assert page.title == "raceday"


def test_an_unknown_address_is_a_page_for_a_browser_and_json_for_a_program(
        tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rooms.db"))
    page = client.get("/nosuchpage", headers={"accept": "text/html,*/*"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/js/notfound.js"></script>' in page.text
    assert 'data-i18n="nf_title"' in page.text and 'href="/"' in page.text
    assert client.get("/static/js/notfound.js").status_code == 200
    for url, accept in (("/nosuchpage", "application/json"), ("/api/nosuch", "text/html"),
                        ("/static/nosuch.js", "text/html")):
        answer = client.get(url, headers={"accept": accept})
        assert answer.status_code == 404 and "error" in answer.json()


def test_the_landing_page_links_the_print_kit(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "rooms.db"))
    assert '<a href="/print" data-i18n="print_kit">' in client.get("/").text
    assert client.get("/print").status_code == 200
