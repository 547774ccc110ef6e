"""The lesson page in a real browser, on a phone (390×844): the twin-dice plugin's lesson
(installed beside raceday) walked two steps, each with a wrong move (its hint) then the
right one (the reason, the board's answer in words), the step reached kept on the device,
and the landing page's card linking to the lesson."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PHONE = {"width": 390, "height": 844}



@pytest.fixture(scope="module")
def server(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    app = create_app(tmp_path_factory.mktemp("learn") / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def test_two_steps_a_wrong_then_a_right_move_on_a_phone(open_page: Any, server: str) -> None:
    page = open_page(PHONE, f"{server}learn/twindash")
    page.wait_for_selector("#learn-step-title:text-is('A sealed bet')")
    assert page.locator(".learn-progress").inner_text().startswith("Step 1 of 7")
    page.locator(".learn-board *").first.wait_for()  # the game's drawer is imported first
    assert page.locator(".learn-board svg, .learn-board *").count() > 0  # the game's drawing
    moves = page.locator(".learn-move")
    assert moves.count() == 7
    # a wrong move: the hint, in words and a mark, and the moves stay open
    moves.filter(has_text="pass").click()
    page.wait_for_selector(".learn-wrong")
    assert "Hint: Passing is allowed" in page.locator(".learn-feedback").inner_text()
    assert "✗" in moves.filter(has_text="pass").inner_text()
    # the right move: the reason and what happened
    page.keyboard.press("Tab")  # the buttons are reachable by keyboard
    moves.filter(has_text=re.compile(r"back Red for 1 chip(?!s)")).click()
    page.wait_for_selector(".learn-right")
    feedback = page.locator(".learn-feedback").inner_text()
    assert "Red rolled further than Blue" in feedback
    assert "Red backed Red for 1 and wins 1 chip (now 6)." in feedback
    assert page.locator(".learn-move:not([disabled])").count() == 0
    page.click("#learn-next")
    page.wait_for_selector("#learn-step-title:text-is('The slipstream')")
    assert page.locator(".learn-progress").inner_text().startswith("Step 2 of 7")
    page.locator(".learn-move", has_text=re.compile(r"back Blue for 1 chip(?!s)")).click()
    page.wait_for_selector(".learn-wrong")
    assert "your Red" in page.locator(".learn-feedback").inner_text()
    page.locator(".learn-move", has_text="back Red for 2 chips").click()
    page.wait_for_selector(".learn-right")
    assert "Red is behind: two dice, the higher counts." in \
        page.locator(".learn-feedback").inner_text()
    # the page fits the phone: nothing wider than the screen but the board's own scroller
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    # left and opened again on this device: the same step
    page.reload()
    page.wait_for_selector("#learn-step-title:text-is('The slipstream')")
    assert page.js_errors == []


def test_the_landing_card_offers_the_lesson(open_page: Any, server: str) -> None:
    page = open_page(PHONE, server)
    link = page.locator("#twindash-learn")
    link.wait_for()
    assert link.get_attribute("href") == "/learn/twindash"
    assert link.inner_text() == "New to this game? Learn to play"
    page.click(".lang")
    page.wait_for_selector("#twindash-learn:text-is('はじめて？遊び方を覚える')")
    assert page.js_errors == []


def test_the_lobby_offers_the_lesson(open_page: Any, server: str) -> None:
    import httpx

    room = httpx.post(f"{server}api/rooms", json={"game": "twindash", "options": {}}).json()
    page = open_page(PHONE, f"{server}play/{room['code']}")  # a phone joining the lobby
    link = page.locator(".lobby-learn a")
    link.wait_for()
    assert link.get_attribute("href") == "/learn/twindash"
    assert link.inner_text() == "New to this game? Learn to play"
    assert page.js_errors == []


TV = {"width": 1920, "height": 1080}
# each built-in lesson: its first step, and its last position step (for KEIRIN and Dice
# Derby a betting window, offered as its step's short list of tickets)
STEPS = [("hairpin", 1, 8), ("pistard", 1, 10), ("wielersim", 1, 9), ("keirin", 1, 9),
         ("derby", 1, 6)]


@pytest.mark.parametrize(("game", "first", "last"), STEPS)
def test_every_lesson_draws_its_board_and_a_short_menu(open_page: Any, server: str, game: str,
                                                       first: int, last: int) -> None:
    from raceday.core.lesson import load_lesson
    from raceday.present.lessons import learner_actions

    lesson = load_lesson(game)
    for number, viewport in ((first, PHONE), (last, TV)):
        step = lesson.step(number)
        offered = len(learner_actions(step, step.start()))
        page = open_page(viewport, f"{server}learn/{game}",
                         storage={f"raceday.learn.{game}": str(number)})
        page.wait_for_selector(".learn-move")
        board = page.locator(".learn-board")
        board.locator("> *").first.wait_for()  # the game's drawing
        assert board.bounding_box()["height"] > 100, f"{game} step {number}: no board"
        assert page.locator(".learn-move").count() == offered <= 21
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{game} step {number}: wider than the screen"
        assert page.js_errors == [], f"{game} step {number}: {page.js_errors}"
