"""A whole Dice Derby party in Chromium: one big screen and three phones (360 px wide)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with background_server(create_app(tmp_path / "party.sqlite")) as url:
        assert url.startswith("http://127.0.0.1:")
        yield url


def click_and_wait(page: Any, button: Any) -> None:
    """Click, then wait until the phone's action panel is redrawn by the server's answer."""
    before = page.locator("section.action").inner_html()
    button.click()
    page.wait_for_function("b => document.querySelector('section.action').innerHTML !== b",
                           arg=before, timeout=30_000)  # a hang guard only


def phone_step(page: Any, amount: int) -> bool:
    """Do whatever this phone can do now; True if it did something."""
    bid = page.locator("#bid")
    if bid.count() and not page.locator(".sealed").count():
        bid.fill(str(amount))
        click_and_wait(page, page.get_by_role("button", name="Seal bid"))
        return True
    stake = page.locator("#stake")
    if stake.count():
        if not page.locator(".tickets li").count():
            stake.fill("500")
            click_and_wait(page, page.get_by_role("button", name="Buy ticket"))
        click_and_wait(page, page.get_by_role("button", name="Done betting"))
        return True
    return False


def test_a_whole_party_on_a_big_screen_and_three_phones(chromium: Any, base: str,
                                                        tmp_path: Path) -> None:
    pages: dict[str, Any] = {}
    errors: list[str] = []
    try:
        host = chromium.new_context(viewport=TV, locale="en-GB").new_page()
        host.on("pageerror", lambda e: errors.append(f"host: {e}"))
        pages["host"] = host
        host.goto(base)
        host.get_by_role("button", name="Create room").click()
        host.wait_for_url("**/host/*")
        code = host.url.rsplit("/", 1)[1]
        host.goto(f"{base}host/{code}?speed=0")  # no animation pauses in the test
        host.locator(".big-code").wait_for()
        assert host.locator(".big-code").inner_text() == code
        host.wait_for_function(  # the QR code loads (a hang guard only, not a sleep)
            "() => { const i = document.querySelector('img.qr');"
            " return i && i.complete && i.naturalWidth > 0; }")
        phones = []
        for name in ("Aki", "Ben", "Chie"):
            page = chromium.new_context(viewport=PHONE, locale="en-GB").new_page()
            page.on("pageerror", lambda e, n=name: errors.append(f"{n}: {e}"))
            pages[name] = page
            page.goto(f"{base}play/{code}")
            page.locator("#name").fill(name)
            page.keyboard.press("Enter")  # the form works from the keyboard
            page.get_by_text(f"You are {name}").wait_for()
            phones.append(page)
        host.get_by_text("Players (3 of 12)").wait_for()
        host.locator("#computers").fill("1")
        host.get_by_role("button", name="Start the evening").click()
        # a phone that reloads keeps its seat (token in its storage)
        phones[1].reload()
        phones[1].get_by_text("You are Ben").wait_for()
        deadline = time.monotonic() + 240
        steps = 0
        while host.locator("body[data-phase=finished]").count() == 0:
            assert time.monotonic() < deadline and steps < 2000, "the party did not finish"
            acted = False
            for k, page in enumerate(phones):
                if phone_step(page, [2000, 1500, 0][k]):
                    acted = True
                    steps += 1
            if not acted:
                time.sleep(0.1)
        host.get_by_text("Final standings").wait_for()
        assert host.locator(".standings tbody tr").count() == 4
        # the finale: a podium, and the awards of the evening's facts
        host.locator(".finale .podium li").first.wait_for()
        assert "Biggest payout" in host.locator(".finale .awards").inner_text() or \
            host.locator(".finale .awards").count() == 0
        for page in phones:
            page.get_by_role("heading", name="The evening is over").wait_for()
        # the big screen never showed anyone's tickets
        assert host.locator(".tickets").count() == 0
        # Japanese from the toggle, words from the message table
        host.get_by_role("button", name="Switch to Japanese").click()
        host.get_by_text("最終順位").wait_for()
        assert not errors, errors
    except BaseException:
        shots = tmp_path / "screenshots"
        shots.mkdir(exist_ok=True)
        for name, page in pages.items():
            page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        print(f"screenshots in {shots}")
        raise
