"""Chromium's view of the printed sheets and the Print pages: every text of every sheet,
in English and Japanese, lies on the sheet as the browser sets it (PISTARD's assembly
heading inside the margins); the pages follow the reader's language and its button."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from raceday.printing.catalog import games
from raceday.printing.page import MARGIN
from tests.browser.shots import keep_shot
from tests.printing.conftest import pages_of, parse

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and os.environ.get("CI", "").lower() != "true",
    reason="Debian Chromium is not installed (under CI this fails instead)")

# Each text's box on the sheet, in mm from the sheet's left edge (the SVG's user units).
BOXES = """() => {
  const svg = document.querySelector("svg");
  const sheet = svg.getBoundingClientRect();
  const mm = sheet.width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, cls: t.getAttribute("class") || "",
            left: (r.left - sheet.left) / mm, right: (r.right - sheet.left) / mm,
            top: (r.top - sheet.top) / mm, bottom: (r.bottom - sheet.top) / mm};
  });
}"""


@pytest.fixture
def sheet_page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 900, "height": 1200})
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_text_lies_on_its_sheet(sheet_page: Any, lang: str) -> None:
    checked = 0
    for game in sorted(games()):
        for number, document in enumerate(pages_of(game, lang=lang), start=1):
            root = parse(document)
            width = float(root.get("viewBox", "0 0 0 0").split()[2])
            height = float(root.get("viewBox", "0 0 0 0").split()[3])
            sheet_page.set_content(f"<!doctype html><html><body>{document}</body></html>")
            for box in sheet_page.evaluate(BOXES):
                if not box["text"].strip():
                    continue
                where = f"{game} page {number} ({lang}): {box['text']!r}"
                assert box["left"] >= -0.5 and box["right"] <= width + 0.5, where
                assert box["top"] >= -0.5 and box["bottom"] <= height + 0.5, where
                checked += 1
    assert checked > 1000  # every sheet's texts were measured, not none


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_pistard_assembly_heading_fits_inside_the_margins(sheet_page: Any,
                                                             lang: str) -> None:
    document = pages_of("pistard", "track", lang=lang)[0]
    width = float(parse(document).get("viewBox", "0 0 0 0").split()[2])
    sheet_page.set_content(f"<!doctype html><html><body>{document}</body></html>")
    boxes = sheet_page.evaluate(BOXES)
    heading = [b for b in boxes if "assembly-heading" in b["cls"]]
    assert heading, "the assembly map has its heading"
    for box in heading:
        assert box["left"] >= MARGIN - 0.5 and box["right"] <= width - MARGIN + 0.5, box
    map_top = sheet_page.evaluate("""() => {
      const svg = document.querySelector("svg");
      const mm = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const top = document.querySelector(".assembly-map").getBoundingClientRect().top;
      return (top - svg.getBoundingClientRect().top) / mm;
    }""")
    words = [b for b in boxes if b["cls"].startswith("assembly-")]
    assert max(b["bottom"] for b in words) < map_top  # the steps end above the map
    keep_shot(sheet_page, f"print-pistard-assembly-{lang}.png")


def test_the_pages_follow_the_readers_language(tmp_path: Path, chromium: Any) -> None:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        context = chromium.new_context(viewport={"width": 1440, "height": 900})
        try:
            page = context.new_page()
            page.goto(f"{base}print")
            page.evaluate("localStorage.setItem('raceday.lang', 'ja')")
            page.goto(f"{base}print")  # a Japanese reader: the page asks for Japanese
            page.wait_for_url(re.compile(r"lang=ja"))
            page.wait_for_function("document.body.dataset.lang === 'ja'")
            assert page.locator("h1").inner_text() == "印刷して遊ぶ"
            form = page.locator('form[action="/print/pistard"]')
            form.locator('select[name="part"]').select_option("counters")
            form.locator('button[type="submit"]').click()
            page.wait_for_url(re.compile(r"/print/pistard\?.*lang=ja"))
            assert page.locator("h1").inner_text() == "PISTARD：1ページ"
            assert "プレイヤー1" in (page.locator(".sheet svg").text_content() or "")
            page.locator(".toolbar .lang").click()  # the language button: the sheets too
            page.wait_for_url(re.compile(r"lang=en"))
            page.wait_for_function("document.body.dataset.lang === 'en'")
            assert page.locator("h1").inner_text() == "PISTARD: 1 page"
            assert "Player 1" in (page.locator(".sheet svg").text_content() or "")
            query = page.url.split("?", 1)[1]  # the PDF is these pages, in this language
            assert page.locator("a[href*='.pdf']").get_attribute("href") == (
                f"/print/pistard.pdf?{query}")
        finally:
            context.close()
