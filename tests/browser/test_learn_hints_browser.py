"""A lesson's first game in a real browser, on a phone (390×844): Hairpin's last step says
hints are on and opens a room against the easiest computer; once started, the host screen
(playing Red) shows the hint panel — "Hint:" and the move in words, a button that plays it —
and marks the hinted move's button in words and its squares on the board."""

from __future__ import annotations

from typing import Any

from tests.browser.shots import keep_shot

from raceday.core.lesson import load_lesson

PHONE = {"width": 390, "height": 844}
LAST_STEP = len(load_lesson("hairpin").steps)


def test_the_first_game_step_opens_a_room_that_shows_a_hint(open_page: Any,
                                                             base: str) -> None:
    page = open_page(PHONE, f"{base}learn/hairpin",
                     storage={"raceday.learn.hairpin": str(LAST_STEP)})
    page.wait_for_selector("#learn-hints-on")
    assert "Hints are on" in page.locator("#learn-hints-on").inner_text()
    page.click("#learn-play")
    page.wait_for_url("**/host/*")
    page.click("#start")
    panel = page.locator("#hint-panel")
    panel.wait_for()
    text = panel.inner_text()
    assert "Hint:" in text  # in words, not a colour alone
    button = panel.locator("button.hint-play")
    assert button.inner_text() == "Play the hint"
    # the hinted move's own button says so, and the board outlines its squares
    marked = page.locator("button.hp-move.is-hint-move")
    assert marked.count() == 1
    assert "hint" in marked.inner_text()
    assert marked.get_attribute("data-action") == button.get_attribute("data-action")
    assert page.locator(".hp-square.is-hint").count() == 2  # where it starts and ends
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_shot(page, "learn/hairpin-hint-phone.png")
    # reachable by keyboard: a button, focused and pressed with Enter, plays the hint
    ply = int(page.get_attribute(".hp-board", "data-ply"))
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(ply) => Number(document.querySelector('.hp-board')?.dataset.ply) > ply", arg=ply)
    assert page.js_errors == []
