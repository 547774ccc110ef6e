"""The shared pages fit their screens in Chromium: the landing, Numbers, Print (its index,
a game's sheets, a refused request) and not-found pages never scroll sideways on a 390 px
phone nor on a 1920 px TV; on the phone every printed sheet is scaled to the screen's width
(its whole page visible, with a note that it prints at full size) while a wide screen shows
it at its true size; the not-found page fits a TV without scrolling, in TV-sized text; the
Print pages are worded in the reader's language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import wait_for_style_sheets

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
PAGES = ["", "numbers", "print", "print/hairpin", "print/derby?part=board", "print/keirin",
         "print/hairpin?nosuch=1", "nosuchpage"]
MM = 96 / 25.4  # CSS pixels in a millimetre


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("screens") / "party.sqlite"
    with background_server(create_app(db)) as url:
        yield url


def settled(page: Any) -> None:
    """The page's module has run: its language button is in the header or toolbar."""
    page.locator("button.lang").first.wait_for()


@pytest.mark.parametrize("viewport", [PHONE, TV], ids=["phone", "tv"])
@pytest.mark.parametrize("path", PAGES)
def test_no_shared_page_scrolls_sideways(open_page: Any, base: str, path: str,
                                         viewport: dict[str, int]) -> None:
    page = open_page(viewport, base + path)
    settled(page)
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{path or '/'} is {width[0]} px wide at {width[1]}"
    assert page.js_errors == []


def sheets(page: Any) -> list[dict[str, float]]:
    return list(page.evaluate("""() => [...document.querySelectorAll('.sheet svg')].map((s) => {
        const b = s.getBoundingClientRect(); return {left: b.left, right: b.right,
        width: b.width, height: b.height}; })"""))


def test_a_phone_sees_each_printed_sheet_whole(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}print/hairpin")
    settled(page)
    shown = sheets(page)
    assert len(shown) == 2
    for sheet in shown:
        assert sheet["left"] >= 0 and sheet["right"] <= PHONE["width"]
        assert sheet["width"] >= PHONE["width"] * 0.9  # as large as the screen allows
        assert abs(sheet["height"] / sheet["width"] - 297 / 210) < 0.01  # still A4
    assert page.locator(".toolbar .scaled").is_visible()


def test_a_wide_screen_shows_sheets_at_their_true_size(open_page: Any, base: str) -> None:
    page = open_page(TV, f"{base}print/hairpin?paper=letter")
    settled(page)
    for sheet in sheets(page):
        assert abs(sheet["width"] - 215.9 * MM) < 2  # Letter: 8.5 in wide
    assert not page.locator(".toolbar .scaled").is_visible()


def test_the_not_found_page_fits_a_tv_in_tv_sized_text(open_page: Any, base: str) -> None:
    page = open_page(TV, f"{base}nosuchpage")
    settled(page)
    wait_for_style_sheets(page)
    fits = page.evaluate("document.documentElement.scrollHeight <= innerHeight")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('main p'))"
                         ".fontSize)")
    assert fits and size >= 28


def test_the_print_pages_speak_the_readers_language(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}print/hairpin", {"raceday.lang": "ja"})
    settled(page)
    page.locator(".toolbar h1", has_text="ヘアピンレーサーズ：2ページ").wait_for()
    assert page.locator("#print-button").inner_text() == "印刷"
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert "盤" in (page.locator(".sheet svg").first.text_content() or "")  # the sheets too
    english = open_page(PHONE, f"{base}print/hairpin")
    settled(english)
    assert english.locator(".toolbar h1").inner_text() == "Hairpin Racers: 2 pages"
    english.locator(".toolbar button.lang").click()
    english.locator(".toolbar h1", has_text="ヘアピンレーサーズ：2ページ").wait_for()
    assert "lang=ja" in english.url
    refused = open_page(PHONE, f"{base}print/hairpin?nosuch=1", {"raceday.lang": "ja"})
    settled(refused)
    refused.locator("p.error", has_text="知らないオプションがあります：nosuch").wait_for()
    index = open_page(PHONE, f"{base}print", {"raceday.lang": "ja"})
    settled(index)
    assert index.locator("h1").inner_text() == "印刷して遊ぶ"
    assert index.locator("button[type=submit]").first.inner_text() == "ページを表示"


def test_the_numbers_header_links_each_game_page_by_name(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}numbers")
    settled(page)
    nav = page.locator("header nav.links")
    nav.get_by_role("link", name="WielerSIM").wait_for()
    assert "http" not in nav.inner_text()  # a link, never its address printed as text
