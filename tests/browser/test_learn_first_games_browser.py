"""The last lesson step in a real browser for Dice Derby and WielerSIM (#48): Derby's makes
a room from the lesson's options and opens its host page with the start form set to one
computer (the cautious one); WielerSIM's links to the game's watch page and says it is not
the lesson's route; both say what hints there are and where."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from raceday.core.lesson import load_lesson

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    app = create_app(tmp_path_factory.mktemp("learnplay") / "party.sqlite", burst=1000,
                     rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def at_last_step(open_page: Any, server: str, game: str) -> Any:
    last = len(load_lesson(game).steps)
    page = open_page(PHONE, f"{server}learn/{game}", storage={f"raceday.learn.{game}": str(last)})
    page.wait_for_selector(".learn-card.is-play")
    return page


def test_derby_first_evening_opens_a_room_with_one_computer(open_page: Any,
                                                            server: str) -> None:
    page = at_last_step(open_page, server, "derby")
    assert "cautious" in page.locator("#learn-room-note").inner_text()
    assert "gives no hints" in page.locator(".learn-card").inner_text()
    assert "raceday learn derby" in page.locator(".learn-card").inner_text()
    page.click("#learn-play")
    page.wait_for_url("**/host/*?computers=1")
    computers = page.locator("#computers")
    computers.wait_for()
    assert computers.input_value() == "1"
    code = page.url.split("/host/")[1].split("?")[0]
    info = page.request.get(f"{server}api/rooms/{code}").json()
    assert info["game"] == "derby"
    assert page.js_errors == []


def test_wielersim_first_race_links_to_the_watch_page(open_page: Any, server: str) -> None:
    page = at_last_step(open_page, server, "wielersim")
    link = page.locator("#learn-watch")
    assert link.get_attribute("href") == "/wielersim"
    assert "not this lesson's short one" in page.locator(".learn-card").inner_text()
    assert page.locator("#learn-play").count() == 0
    link.click()
    page.wait_for_url("**/wielersim")
    assert page.js_errors == []
