"""One device per seat in Chromium: a phone's seat opened in a second browser (the same token
in its storage) stops the first one, which says so and does not reconnect; "Use it on this
device instead" takes the seat back, and then the second one says so. Screenshots of the
message at 390x844 go to pytest's temporary directory."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.browser.shots import keep_shot

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
TAKEN = "This seat was opened on another device"
USE_HERE = "Use it on this device instead"


@dataclass
class Party:
    url: str
    app: Any


@pytest.fixture
def party(tmp_path: Path) -> Iterator[Party]:
    app = create_app(tmp_path / "party.sqlite")
    with background_server(app) as url:
        yield Party(url, app)


def new_room(base: str) -> str:
    request = urllib.request.Request(f"{base}api/rooms", data=json.dumps({"game": "derby"})
                                     .encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return str(json.load(answer)["code"])


def seat_conns(app: Any, code: str) -> list[Any]:
    """The server's open connections of this room that hold a seat."""
    return [c for c in list(app.state.hub.conns.get(code, ())) if c.actor.kind == "seat"]


def sockets_opened(page: Any) -> list[str]:
    opened: list[str] = []
    page.on("websocket", lambda ws: opened.append(ws.url))
    return opened


def connected(page: Any) -> None:
    page.get_by_text("You are Aki").wait_for(timeout=30_000)
    page.locator("p.status[data-state=connected]").wait_for(timeout=30_000)


def stays_stopped(page: Any, other: Any, opened: list[str], app: Any, code: str) -> None:
    """For a few seconds (a bounded wait, nothing timed): the stopped page opens no socket
    and keeps its message, the other stays connected, the server holds one seat connection.
    (A reconnect would come within Live's first delay, half a second.)"""
    before = len(opened)
    until = time.monotonic() + 3
    while time.monotonic() < until:
        assert len(seat_conns(app, code)) == 1
        page.wait_for_timeout(250)
    assert len(opened) == before, opened[before:]
    assert page.get_by_text(TAKEN).is_visible()
    assert page.locator("p.status").get_attribute("data-state") == "disconnected"
    assert other.locator("p.status").get_attribute("data-state") == "connected"
    assert not other.get_by_text(TAKEN).count()


def test_a_second_device_takes_the_seat_and_the_first_can_take_it_back(
        chromium: Any, party: Party, tmp_path: Path) -> None:
    errors: list[str] = []
    code = new_room(party.url)
    contexts = [chromium.new_context(viewport=PHONE, locale="en-GB", device_scale_factor=2,
                                     is_mobile=True, has_touch=True) for _ in range(2)]
    try:
        first = contexts[0].new_page()
        first.on("pageerror", lambda e: errors.append(f"first: {e}"))
        first_opened = sockets_opened(first)
        first.goto(f"{party.url}play/{code}")
        first.locator("#name").fill("Aki")
        first.keyboard.press("Enter")
        connected(first)
        token = first.evaluate("c => localStorage.getItem(`raceday.seat.${c}`)", code)
        assert token
        assert len(seat_conns(party.app, code)) == 1

        # the same seat opened on another device: its storage holds the same token
        contexts[1].add_init_script(
            f"localStorage.setItem({json.dumps(f'raceday.seat.{code}')}, {json.dumps(token)})")
        second = contexts[1].new_page()
        second.on("pageerror", lambda e: errors.append(f"second: {e}"))
        second_opened = sockets_opened(second)
        second.goto(f"{party.url}play/{code}")
        connected(second)
        first.get_by_text(TAKEN).wait_for(timeout=30_000)
        first.get_by_role("button", name=USE_HERE).wait_for()
        stays_stopped(first, second, first_opened, party.app, code)
        keep_shot(first, "seat-taken-390.png")
        assert first.get_by_role("alert").filter(has_text=TAKEN).count() == 1

        # the first device takes the seat back; now the second one is told and stops
        first.get_by_role("button", name=USE_HERE).click()
        connected(first)
        second.get_by_text(TAKEN).wait_for(timeout=30_000)
        stays_stopped(second, first, second_opened, party.app, code)
        keep_shot(second, "seat-taken-again-390.png")
        # the seat is still Aki's, and only one seat was ever taken in the room
        with urllib.request.urlopen(f"{party.url}api/rooms/{code}", timeout=30) as answer:
            assert json.load(answer)["seats"] == ["Aki"]
        # the page fits the phone: nothing wider than the screen
        for page in (first, second):
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        for context in contexts:
            context.close()
    assert errors == []
