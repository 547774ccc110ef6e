"""The pages a guest meets on a phone or by a wrong code: a phone never calls the host
screen's own seat "this screen", and unknown room codes get whole pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(tmp_path_factory.mktemp("pages") / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def started_room(server: str, open_page: Any, game: str,
                 options: dict[str, Any]) -> tuple[Any, Any]:
    """A room of ``game`` with one phone (Aki) and one place the host screen plays, started."""
    room = httpx.post(f"{server}api/rooms", json={"game": game, "options": options},
                      timeout=10).json()
    code = room["code"]
    tv = open_page(TV, f"{server}host/{code}", {f"raceday.host.{code}": room["host_token"]})
    phone = open_page(PHONE, f"{server}play/{code}")
    phone.fill("#name", "Aki")
    phone.keyboard.press("Enter")
    tv.get_by_text("Aki").first.wait_for()
    tv.click("#start")
    return tv, phone


@pytest.mark.parametrize(("game", "options", "tv_name", "phone_name"), [
    ("hairpin", {"variant": "short", "red": "human", "black": "human"},
     "Black — this screen", "Black — the big screen"),
    ("pistard", {"variant": "scratch", "riders_per_player": 1, "track": "short",
                 "players": ["human", "human"]}, None, "P2 (the big screen)"),
])
def test_a_phone_calls_the_host_seat_the_big_screen(
        open_page: Any, server: str, game: str, options: dict[str, Any],
        tv_name: str | None, phone_name: str) -> None:
    tv, phone = started_room(server, open_page, game, options)
    if game == "pistard":  # the phone places its rider first; then it waits for P2
        phone.locator(".pi-place-grid button").first.click()
    phone.get_by_text(phone_name).first.wait_for()
    if tv_name:  # the host screen still calls its own seat so
        tv.get_by_text(tv_name).first.wait_for()
    assert "this screen" not in phone.inner_text("body")
    assert phone.js_errors == [] and tv.js_errors == []


def test_the_derby_lobby_at_1440_shows_start_with_seven_players(open_page: Any,
                                                                 server: str) -> None:
    room = httpx.post(f"{server}api/rooms", json={"game": "derby", "options": {}},
                      timeout=10).json()
    code = room["code"]
    for i in range(7):
        httpx.post(f"{server}api/rooms/{code}/join", json={"name": f"Player {i} Longname"},
                   timeout=10)
    tv = open_page({"width": 1440, "height": 900}, f"{server}host/{code}",
                   {f"raceday.host.{code}": room["host_token"]})
    tv.get_by_text("Player 6 Longname").wait_for()
    seats = tv.locator(".dd-lobby .seats").bounding_box()
    assert seats["width"] > 400  # the players' names are not squeezed into a strip
    start = tv.get_by_role("button", name="Start the evening").bounding_box()
    assert start["y"] + start["height"] <= 900
    assert tv.evaluate("document.scrollingElement.scrollTop") == 0


def test_pistards_points_standings_fit_1440(open_page: Any, server: str) -> None:
    room = httpx.post(f"{server}api/rooms", json={"game": "pistard", "options": {
        "variant": "points", "riders_per_player": 2,
        "players": ["human", "medium", "medium", "medium", "medium"]}}, timeout=10).json()
    code = room["code"]
    tv = open_page({"width": 1440, "height": 900}, f"{server}host/{code}",
                   {f"raceday.host.{code}": room["host_token"]})
    tv.click("#start")
    tv.locator(".pi-standings tbody tr").nth(9).wait_for()
    table = tv.locator(".pi-standings").bounding_box()
    card = tv.locator(".pi-standings").locator("xpath=..").bounding_box()
    assert table["x"] + table["width"] <= card["x"] + card["width"]
    assert tv.evaluate("document.documentElement.scrollWidth") <= 1440
