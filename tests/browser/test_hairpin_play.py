"""Hairpin Racers in real browsers (Debian's Chromium through Playwright): a whole game of
two contexts, the host screen at TV size playing Black and a phone at 360 px playing Red,
by tapping racers and squares and by the move buttons; the landing page's card against the
computer with undo; and screenshot checks at both widths (no sideways scrolling)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.browser.shots import keep_shot

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}
TIMEOUT = 30_000
# Red to move, one lap from winning the short game: a whole game in a few dozen plies.
LATE = "..bbbb/r...b./r..rrr r 2-0 0-0 0-0 0 40"

HANG_GUARD = 300.0  # seconds for the whole game; it takes a few


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(tmp_path / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def no_sideways_scroll(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def ply(page: Any) -> int:
    return int(page.get_attribute(".hp-board", "data-ply"))


def play_one(page: Any, by_tap: bool) -> None:
    """Play a move on ``page`` (whose turn it is): tap a racer and a target square, or
    press the last move button; then wait for the board to move on."""
    before = ply(page)
    if by_tap:
        page.locator(".hp-square.is-origin").last.click()
        page.locator(".hp-square.is-target").first.click()
    else:
        buttons = page.locator("button.hp-move")
        buttons.nth(buttons.count() - 1).click()
    page.wait_for_function(
        f"() => Number(document.querySelector('.hp-board')?.dataset.ply) > {before}")


def test_a_whole_game_on_two_browsers(open_page: Any, server: str, tmp_path: Path) -> None:
    r = httpx.post(f"{server}api/rooms", json={"game": "hairpin", "options": {
        "variant": "short", "red": "human", "black": "human", "position": LATE}}, timeout=10)
    room = r.json()
    code = room["code"]
    tv = open_page(TV, f"{server}host/{code}",
                   {f"raceday.host.{code}": room["host_token"]})
    phone = open_page(PHONE, f"{server}play/{code}")
    phone.fill("#name", "Aki")
    phone.keyboard.press("Enter")  # the join form works from the keyboard
    tv.get_by_text("Red — Aki").wait_for()
    tv.get_by_text("1 human place not taken by a phone").wait_for()  # one place: singular
    tv.click("#start")
    phone.locator(".hp-turn.yours").wait_for()
    assert "Red — Aki" in phone.inner_text(".hp-turn")
    tv.get_by_text("Waiting for Red — Aki").wait_for()
    moves = 0
    deadline = time.monotonic() + HANG_GUARD
    while not phone.locator(".hp-result").count():
        ready = [p for p in (phone, tv) if p.locator(".hp-turn.yours").count()]
        if not ready:  # the last move's update is still on its way to the screen to move:
            phone.wait_for_timeout(50)  # look at both again (waiting on one could miss it)
            assert time.monotonic() < deadline, "neither screen was given its turn"
            continue
        play_one(ready[0], by_tap=moves < 4)
        moves += 1
        assert moves < 150
    # each screen says who won from its own seat: the winner's phone, the loser's screen
    # (the TV plays Black), and a spectator who plays neither
    watcher = open_page(TV, f"{server}host/{code}")
    for page, head in ((phone, "You won! (Red — Aki)"), (tv, "You lost — Red — Aki won"),
                       (watcher, "Red — Aki wins!")):
        page.locator(".hp-result-head").wait_for()
        assert page.inner_text(".hp-result-head") == head
        assert "this screen" not in page.inner_text(".hp-result")
        assert "Red completed 3 laps first." in page.inner_text(".hp-why")
        assert not page.locator("button.hp-move").count()
        assert page.js_errors == []
    keep_shot(tv, "hairpin-end-1920.png")
    keep_shot(phone, "hairpin-end-360.png", full_page=True)
    no_sideways_scroll(phone, PHONE["width"])
    no_sideways_scroll(tv, TV["width"])


@pytest.mark.parametrize("viewport", [PHONE, TV], ids=["360", "1920"])
def test_against_the_computer_from_the_landing_page_with_undo(
        open_page: Any, server: str, viewport: dict[str, int], tmp_path: Path) -> None:
    page = open_page(viewport, server)
    page.select_option("#hp-red", "human")
    page.select_option("#hp-black", "medium")
    page.check("#hairpin-create input[name=short]")
    page.click("#hairpin-create button[type=submit]")
    page.wait_for_url("**/host/*")
    page.click("#start")
    page.locator(".hp-turn.yours").wait_for()
    # the direction of travel and the pit rules are on the board and beside it
    assert page.locator(".hp-dir").count() == 6 and page.locator(".hp-finish").count() == 2
    assert "pit 0" in page.inner_text(".hp-counters")
    page.click(".hp-rules summary")
    assert "must re-enter first" in page.inner_text(".hp-rules")
    # tapping a racer highlights its legal moves only
    page.locator(".hp-square[data-square=b1]").click()
    assert page.locator(".hp-square.is-target").count() == 2
    assert page.inner_text(".hp-moves h3") == "Moves from b1"
    assert [b.inner_text() for b in page.locator("button.hp-move").all()] == \
        ["b1 cruise c1", "b1 charge d1"]
    keep_shot(page, f"hairpin-select-{viewport['width']}.png", full_page=True)
    no_sideways_scroll(page, viewport["width"])
    first = page.get_attribute(".hp-board", "aria-label")
    page.locator("button.hp-move").first.click()
    page.wait_for_function("() => Number(document.querySelector('.hp-board').dataset.ply) == 2")
    assert len(page.locator(".hp-recent li").all()) == 2  # the computer answered
    page.click(".hp-undo")
    page.wait_for_function("() => Number(document.querySelector('.hp-board').dataset.ply) == 0")
    assert page.get_attribute(".hp-board", "aria-label") == first
    assert not page.locator(".hp-undo").count()
    # keyboard: Tab reaches a racer, Enter selects it, and a move button plays
    page.locator(".hp-square.is-origin").first.focus()
    page.keyboard.press("Enter")
    assert page.locator(".hp-square.is-target").count() >= 1
    assert page.js_errors == []


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "your 5th bump: you would be disqualified and lose"),
    ("ja", "5回目のバンプ：失格となり負けます"),
])
def test_a_decisive_bump_is_marked_in_the_pages_language(open_page: Any, server: str,
                                                         lang: str, words: str) -> None:
    r = httpx.post(f"{server}api/rooms", json={"game": "hairpin", "options": {
        "red": "human", "black": "human",
        "position": "..bbb./..bb.r2/rrr... r 0-0 4-0 0-0"}}, timeout=10)
    room = r.json()
    page = open_page(TV, f"{server}host/{room['code']}",
                     {f"raceday.host.{room['code']}": room["host_token"], "raceday.lang": lang})
    page.click("#start")
    button = page.locator("button.hp-move.decides-loses")
    button.wait_for()
    assert button.count() == 1 and words in button.inner_text()
    assert page.js_errors == []
    page.context.close()
