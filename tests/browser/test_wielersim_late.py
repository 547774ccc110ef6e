"""WielerSIM's watch room on a phone: /watch/CODE is laid out for the phone at every phase,
and a phone that comes after the start goes straight to watching the race."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect
from tests.browser.shots import keep_shot

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}



def test_watch_on_a_phone_and_a_late_phone(open_page: Callable[..., Any], base: str) -> None:
    tv = open_page(TV, f"{base}wielersim?route=ardennes&peloton=small&seed=2")
    tv.locator("#race-form button[type=submit]").click()
    tv.wait_for_url("**/host/*")
    tv.wait_for_selector(".wv-lobby")
    code = tv.url.rsplit("/", 1)[1]
    tv.locator("#wv-start").click()
    late = open_page(PHONE, f"{base}play/{code}")  # no seat: the race is on, it watches
    late.wait_for_url(f"**/watch/{code}")
    expect(late.locator(".film-where")).to_contain_text("Turn", timeout=30_000)
    assert late.locator("#name").count() == 0
    assert late.locator(".wv-room.wv-phone").count() == 1  # the phone's layout
    keep_shot(late, "wielersim-watch-racing-390.png", full_page=True)
    tv.locator("#wv-skip").click()
    late.wait_for_selector(".wv-finished")
    late.evaluate("document.fonts.ready")
    assert late.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_shot(late, "wielersim-watch-finished-390.png", full_page=True)
    assert tv.locator(".wv-room.wv-tv").count() == 1  # the TV keeps its own
    assert late.js_errors == []
