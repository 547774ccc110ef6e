"""The host gives a seat whose phone left to a computer on the big screen, with the
keyboard, and hands it back once the phone is back (Dice Derby)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import assert_accessible
from tv_text import small_tv_text

from raceday.web.app import create_app
from raceday.web.hub import Hub
from raceday.web.server import background_server

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(Hub, "presence_grace", 0.2)  # a phone counts as gone at once
    with background_server(create_app(tmp_path / "party.sqlite")) as url:
        yield url


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def test_the_host_gives_a_left_seat_to_a_computer_and_hands_it_back(
        open_page: Callable[..., Any], base: str) -> None:
    room = post(f"{base}api/rooms", {"game": "derby"})
    code = room["code"]
    tokens = [post(f"{base}api/rooms/{code}/join", {"name": n})["token"] for n in ("Aki", "Bo")]
    phones = [open_page(PHONE, f"{base}play/{code}", {f"raceday.seat.{code}": t})
              for t in tokens]
    tv = open_page(TV, f"{base}host/{code}", {f"raceday.host.{code}": room["host_token"]})
    tv.locator("#computers").fill("0")
    tv.get_by_role("button", name="Start the evening").click()
    phones[1].context.close()  # Bo's phone leaves
    panel = tv.get_by_role("group", name="Players who left")
    panel.get_by_text("Bo has left").wait_for()
    assert panel.get_by_label("Computer level for Bo").input_value() == "cautious"
    assert_accessible(tv, "the host with a player who left")
    assert small_tv_text(tv) == []  # the box reads from the sofa like the rest of the TV
    give = panel.get_by_role("button", name="Give to a computer")
    give.focus()
    tv.keyboard.press("Enter")
    panel.get_by_text("Bo (computer: cautious)").wait_for()
    assert panel.get_by_role("button", name="Hand back").count() == 0  # Bo is still away
    back = open_page(PHONE, f"{base}play/{code}", {f"raceday.seat.{code}": tokens[1]})
    hand_back = panel.get_by_role("button", name="Hand back")
    hand_back.focus()
    tv.keyboard.press("Enter")
    panel.wait_for(state="detached")  # nobody is away any more
    box = tv.locator(".dd-tv").bounding_box()
    assert box is not None and box["height"] <= TV["height"]
    assert tv.js_errors == [] and back.js_errors == [] and phones[0].js_errors == []
