"""Sound in Chromium: off unless the reader turns it on with the header's toggle (on the big
screen and on a phone), remembered in this browser's storage; with sound off a cue plays
nothing, with it on a known cue plays, and the kit cues a game's start; the toggle's words
follow the language, as do the rest of the shared header's (Host, Connected, the room)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from a11y import assert_accessible

from raceday.web.app import create_app
from raceday.web.server import background_server

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
CUE = "async (name) => (await import('/static/js/sound.js')).cue(name)"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    db: Path = tmp_path_factory.mktemp("sound") / "party.sqlite"
    with background_server(create_app(db)) as url:
        made = httpx.post(f"{url}api/rooms", json={"game": "hairpin", "options": {}})
        assert made.status_code == 201, made.text
        yield url, made.json()


def test_sound_is_off_until_turned_on_and_remembered(open_page: Any,
                                                     room: tuple[str, dict[str, Any]]) -> None:
    base, made = room
    code = made["code"]
    page = open_page(TV, f"{base}host/{code}", {f"raceday.host.{code}": made["host_token"]})
    toggle = page.locator("header.bar button.sound")
    toggle.wait_for()
    assert toggle.inner_text() == "Sound: off"
    assert page.evaluate(CUE, "finish") is False  # off: nothing plays
    assert_accessible(page, "host lobby with the sound toggle")
    toggle.click()
    page.locator("header.bar button.sound", has_text="Sound: on").wait_for()
    assert page.evaluate("localStorage.getItem('raceday.sound')") == "on"
    assert page.evaluate(CUE, "finish") is True
    assert page.evaluate(CUE, "no-such-cue") is False
    page.reload()
    page.locator("header.bar button.sound", has_text="Sound: on").wait_for()
    page.locator("header.bar button.lang").click()
    page.locator("header.bar button.sound", has_text="音：オン").wait_for()
    # the rest of the shared header follows the switch too: the role and the connection
    assert page.locator("header.bar .role").inner_text() == "ホスト"
    assert page.locator("header.bar .status").inner_text() == "接続済み"
    assert page.locator("header.bar .room-code").get_attribute("aria-label") == f"部屋 {code}"
    page.locator("header.bar button.sound").click()
    page.locator("header.bar button.sound", has_text="音：オフ").wait_for()
    assert page.evaluate("localStorage.getItem('raceday.sound')") == "off"
    assert page.js_errors == []


def test_a_phone_has_the_toggle_too_and_starts_silent(open_page: Any,
                                                      room: tuple[str, dict[str, Any]]) -> None:
    base, made = room
    page = open_page(PHONE, f"{base}play/{made['code']}")
    toggle = page.locator("header.bar button.sound")
    toggle.wait_for()
    assert toggle.inner_text() == "Sound: off"
    assert page.evaluate(CUE, "start") is False
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert_accessible(page, "phone join form with the sound toggle")


def test_the_kit_cues_a_start_when_sound_is_on(open_page: Any,
                                               room: tuple[str, dict[str, Any]]) -> None:
    base, _ = room
    made = httpx.post(f"{base}api/rooms", json={"game": "hairpin", "options": {}}).json()
    code = made["code"]
    page = open_page(TV, f"{base}host/{code}", {f"raceday.host.{code}": made["host_token"],
                                                "raceday.sound": "on"})
    page.locator("header.bar button.sound", has_text="Sound: on").wait_for()
    page.locator("#start").click()
    page.locator("html[data-cue=start]").wait_for(state="attached")
    quiet = open_page(TV, f"{base}watch/{code}")  # sound off: the same moments play nothing
    quiet.locator("header.bar button.sound", has_text="Sound: off").wait_for()
    assert quiet.evaluate("document.documentElement.dataset.cue ?? null") is None
