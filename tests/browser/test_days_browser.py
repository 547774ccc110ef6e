"""A PISTARD race played over days, in Chromium: the landing page of a phone that holds a
seat lists the game under "my games" with its code, opponent and whose turn it is, in words;
its link is reached with the keyboard and opens the seat; and the seat's own link (the key
after "#") opens the same seat on a device that never held it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.shots import keep_shot

from raceday.rooms import Actor
from raceday.web.app import create_app
from raceday.web.rooms import Rooms
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1920, "height": 1080}
RACE = {"variant": "scratch", "riders_per_player": 1, "track": "short",
        "players": ["human", "human"], "days": True}


@pytest.fixture
def days_race(tmp_path: Path) -> Iterator[tuple[str, str, dict[str, str], int]]:
    """A server holding a started PISTARD race over days of Aki and Ben: (base URL, code,
    each seat's token by name, the place whose turn it is)."""
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    try:
        room, _host = rooms.create("pistard", RACE)
        tokens = {name: rooms.join(room.code, name)[2] for name in ("Aki", "Ben")}
        rooms.apply(room, Actor.host(), {"type": "start"})
        to_act = room.logic.view(Actor.spectator())["to_act"]
        code = room.code
    finally:
        rooms.store.close()
    with background_server(create_app(db)) as url:
        yield url, code, tokens, int(to_act)


def test_my_games_lists_the_race_with_whose_turn_and_opens_the_seat(
        open_page: Any, days_race: tuple[str, str, dict[str, str], int]) -> None:
    url, code, tokens, to_act = days_race
    mover, waiter = ("Aki", "Ben") if to_act == 0 else ("Ben", "Aki")
    for viewport in (PHONE, SCREEN):
        page = open_page(viewport, url, {f"raceday.seat.{code}": tokens[waiter]})
        try:
            item = page.locator(f".mg-item[data-code={code}]")
            item.wait_for()
            text = item.inner_text()
            assert "PISTARD" in text and code in text and "Over days" in text
            assert f"{mover}'s turn" in text  # in words, not a colour only
            assert f"You play as {waiter}" in text and f"Against {mover}" in text
            assert item.get_attribute("data-state") == "waiting"
            keep_shot(page, f"days-my-games-{viewport['width']}.png")
            assert page.js_errors == []
        finally:
            page.context.close()
    page = open_page(PHONE, url, {f"raceday.seat.{code}": tokens[mover]})
    try:
        item = page.locator(f".mg-item[data-code={code}]")
        item.wait_for()
        assert "Your turn" in item.inner_text()
        assert item.get_attribute("data-state") == "turn"
        for _ in range(20):  # the keyboard reaches the room's link
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement?.classList.contains('mg-open')"):
                break
        focused = page.evaluate("() => document.activeElement?.getAttribute('aria-label')")
        assert focused == f"Open PISTARD room {code}"
        page.keyboard.press("Enter")
        page.wait_for_url(f"**/play/{code}")
        page.locator("#key-link-panel").wait_for()  # the seat itself, not the join form
        assert page.locator("form.join").count() == 0
        page.wait_for_function("() => document.querySelector('.pi-stage') !== null")
        assert page.js_errors == []
    finally:
        page.context.close()


def test_the_seats_own_link_opens_it_on_a_new_device(
        open_page: Any, days_race: tuple[str, str, dict[str, str], int]) -> None:
    url, code, tokens, _ = days_race
    phone = open_page(PHONE, f"{url}play/{code}", {f"raceday.seat.{code}": tokens["Aki"]})
    try:
        phone.locator("#key-link-panel summary").click()
        link = phone.locator("#key-link").input_value()
        assert link == f"{url}play/{code}#seat={tokens['Aki']}"
        keep_shot(phone, "days-seat-link-390.png", full_page=True)
        assert phone.js_errors == []
    finally:
        phone.context.close()
    other = open_page(SCREEN, link)  # a device that never held the seat
    try:
        other.locator("#key-link-panel").wait_for()
        assert other.locator("form.join").count() == 0
        assert other.evaluate("() => location.hash") == ""  # the key left the address bar
        held = other.evaluate(f"() => localStorage.getItem('raceday.seat.{code}')")
        assert held == tokens["Aki"]
        assert other.locator("#key-link").input_value() == link
        other.goto(url)  # the landing page now lists it too
        other.locator(f".mg-item[data-code={code}]").wait_for()
        assert other.js_errors == []
    finally:
        other.context.close()
