"""KEIRIN's first night from its lesson in a real browser (#48): the last step says hints
are on and opens a room whose host page starts with one computer bettor (the cautious one);
a phone that joins is shown a "Hint" panel (the favourite, its fair odds against the
board's) that fills its slip, the computer buys its own ticket and is done, and the TV marks
it "(computer: cautious)". Kept as shots at 390×844 (the phone) and 1920×1080 (the TV)."""

from __future__ import annotations

from typing import Any

from tests.browser.shots import keep_shot

from raceday.core.lesson import load_lesson

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
LAST_STEP = len(load_lesson("keirin").steps)


def test_the_first_night_has_a_cautious_computer_and_a_hint_on_the_phone(
        open_page: Any, base: str) -> None:
    learn = open_page(TV, f"{base}learn/keirin",
                      storage={"raceday.learn.keirin": str(LAST_STEP)})
    learn.wait_for_selector("#learn-hints-on")
    assert "cautious" in learn.locator("#learn-room-note").inner_text()
    learn.click("#learn-play")
    learn.wait_for_url("**/host/*?computers=1")
    host = learn
    assert host.locator("#kr-computers").input_value() == "1"
    code = host.url.split("/host/")[1].split("?")[0]
    phone = open_page(PHONE, f"{base}play/{code}")
    phone.locator("#name").fill("Aki")
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("You are Aki").wait_for()
    host.get_by_text("Aki").first.wait_for()
    host.get_by_role("button", name="Start").click()
    # the computer bought its ticket and is done at once; the TV says whose chip it is
    chip = host.locator(".chips li", has_text="CPU 1")
    chip.wait_for()
    assert "(computer: cautious)" in chip.inner_text() and "✓" in chip.inner_text()
    assert "(computer: cautious)" in host.locator(".kr-standings").inner_text()
    keep_shot(host, "learn/keirin-first-night-tv.png")
    panel = phone.locator("#kr-hint")
    panel.wait_for()
    text = panel.inner_text()
    assert text.startswith("Hint") and "The favourite is Win" in text and "fair odds" in text
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_shot(phone, "learn/keirin-first-night-phone.png")
    # the hint fills the slip (the learner's stake stays theirs), then the ticket is bought
    favourite = text.split("The favourite is Win ")[1].split(":")[0]
    phone.locator("#kr-kind").select_option("exacta")
    phone.locator("#kr-hint-use").click()
    assert phone.locator("#kr-kind").input_value() == "win"
    assert phone.locator("#kr-rider-0").input_value() == favourite
    phone.get_by_role("button", name="Buy ticket").click()
    phone.locator(".kr-tickets li").first.wait_for()
    phone.get_by_role("button", name="Done betting").click()
    phone.locator("#kr-hint").wait_for(state="detached")  # done: nothing more to buy
    host.locator("body[data-phase=racing]").wait_for(state="attached")
    assert learn.js_errors == [] and phone.js_errors == []
