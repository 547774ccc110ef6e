"""A PISTARD race in real browsers (Debian's Chromium through Playwright): the big screen
at 1920 px creates the race on the landing page, two phones at 360 px join, a computer
rider takes the third place, and the phones place their riders and play their dice to the
result; screenshot checks at both widths (no sideways scrolling)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.shots import keep_shot

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}
TIMEOUT = 30_000
CHOICE = ".pi-choices button, .pi-place-grid button"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(tmp_path / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def open_page(browser: Any, viewport: dict[str, int], url: str) -> Any:
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda d: d.accept())
    page.js_errors = errors
    page.goto(url)
    return page


def choose(page: Any) -> None:
    """Press the choice that goes furthest (the last button that is not standing still),
    then wait until the server's answer has been drawn."""
    buttons = page.locator(".pi-choices button:not(.pi-stay)")
    n = buttons.count()
    target = buttons.nth(n - 1) if n else page.locator(".pi-choices button.pi-stay")
    if page.locator(".pi-place-grid button").count():  # the start line: the front row
        target = page.locator(".pi-place-grid button").first
    drawn = page.get_attribute(".pi-stage", "data-updates") or "0"
    target.click()
    page.wait_for_function(
        f"() => Number(document.querySelector('.pi-stage').dataset.updates || 0) > {drawn}")


def test_a_whole_race_of_three_browsers_and_a_computer(chromium: Any, server: str,
                                                       tmp_path: Path) -> None:
    tv = open_page(chromium, TV, server)
    tv.select_option("#pi-variant", "scratch")
    tv.select_option("#pi-count", "3")
    tv.select_option("#pi-p0", "human")
    tv.select_option("#pi-p1", "human")
    tv.select_option("#pi-p2", "medium")
    tv.select_option("#pi-riders", "1")
    tv.select_option("#pi-trackname", "short")
    tv.click("#pistard-create button[type=submit]")
    tv.wait_for_url("**/host/*")
    code = tv.url.rstrip("/").split("/")[-1]
    phones = []
    for name in ("Aki", "Ben"):
        phone = open_page(chromium, PHONE, f"{server}play/{code}")
        phone.fill("#name", name)
        phone.click("form.join button[type=submit]")
        phone.get_by_text("Waiting for the host").wait_for()
        phones.append(phone)
    tv.get_by_text("P2 Ben").wait_for()
    assert "P3 computer (medium)" in tv.inner_text(".gp-places")
    assert tv.locator(".pi-track .pi-square").count() == 32 * 4
    assert tv.locator(".pi-lane-no").count() == 4
    keep_shot(tv, "pistard-lobby-1920.png")
    tv.click("#start")
    turns = waited = 0
    shot = False
    while not tv.locator(".pi-result").count():
        acting = [p for p in phones if p.locator(CHOICE).count()]
        if not acting:  # the answer is on its way to the other phone
            waited += 1
            assert waited < 600
            tv.wait_for_timeout(50)
            continue
        page = acting[0]
        if not shot and page.locator(".pi-dice").count():
            # a phone at its turn: its dice, its legal moves on the zoomed track and as
            # buttons; the big screen shows the same dice and the live standings
            assert page.locator(".pi-track.is-zoomed .pi-square.is-target").count() >= 1
            assert page.locator(".pi-die").count() == 4
            keep_shot(page, "pistard-move-360.png", full_page=True)
            keep_shot(tv, "pistard-race-1920.png")
            assert tv.locator(".pi-standings tbody tr").count() == 3
            shot = True
        choose(page)
        turns += 1
        assert turns < 120
    assert shot
    head = tv.inner_text(".pi-result-head")
    assert head.startswith("Rider ") and " wins — P" in head
    winner = head.split(" ")[1]
    for page in (tv, *phones):
        page.locator(".pi-result").wait_for()
        assert page.locator(".pi-result tr").count() == 3
        assert "this screen" not in page.inner_text(".pi-result")
        assert page.js_errors == []
    # each phone says who won from its own seat; the TV, which plays no place, names him
    mine = [phone.locator(".pi-result tr.mine td:nth-child(2)").inner_text() for phone in phones]
    for phone, rider in zip(phones, mine, strict=True):
        said = phone.inner_text(".pi-result-head")
        if rider == winner:
            assert said == f"You won! Rider {winner} wins"
        else:
            assert said.startswith(f"You lost — rider {winner} won ("), said
    assert phones[0].locator(".pi-result tr.mine").count() == 1
    assert tv.evaluate("document.documentElement.scrollWidth") <= TV["width"]
    for i, phone in enumerate(phones):
        keep_shot(phone, f"pistard-result-360-{i}.png", full_page=True)
        wide = phone.evaluate("[...document.querySelectorAll('body *')].filter((e) => "
                              "e.getBoundingClientRect().right > 361).map((e) => "
                              "e.tagName + '.' + e.className).slice(0, 5)")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    keep_shot(tv, "pistard-result-1920.png")
    # the big screen's commentary is the message table's, in the page's language
    # (which lines the last ones are depends on the race: any of them is in English and
    # names a rider; in Japanese none is left in English)
    said = tv.inner_text(".pi-recent")
    assert re.search(r"\b[Rr]ider \d+\b", said), said
    tv.evaluate("async () => (await import('/static/js/i18n.js')).setLanguage('ja')")
    tv.wait_for_function("() => /[\\u3040-\\u30ff\\u4e00-\\u9fff]/"
                         ".test(document.querySelector('.pi-recent').innerText)")
    said = tv.inner_text(".pi-recent")
    assert not re.search(r"\b[Rr]ider\b|\bplays\b|\bthrows\b|\blane\b", said), said
    assert "{" not in said and "event." not in said, said
