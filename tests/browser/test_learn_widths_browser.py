"""Every lesson page on a phone (390×844), in English and Japanese: at every step, before
and after its right move, neither the page nor the lesson's board scrolls sideways (each
one's scrollWidth is within its clientWidth). The five games' lessons and the twin-dice
plugin's (installed beside raceday, tests/sixth_game)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.sixth_game_install import GAME as PLUGIN

PHONE = {"width": 390, "height": 844}
GAMES = ["derby", "hairpin", "keirin", "pistard", "wielersim", PLUGIN]

# the widths of the page and of the board, or of the part of the board that scrolls
# furthest (a drawing that scrolls inside the board scrolls all the same), each against
# the room it has
WIDTHS = """() => {
  const page = document.documentElement;
  const parts = [...document.querySelectorAll('.learn-board, .learn-board *')]
    .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX));
  const worst = parts.reduce((w, e) =>
    (e.scrollWidth - e.clientWidth > w[0] - w[1] ? [e.scrollWidth, e.clientWidth] : w), [0, 0]);
  return {page: [page.scrollWidth, page.clientWidth], board: worst};
}"""



@pytest.fixture(scope="module")
def server(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    app = create_app(tmp_path_factory.mktemp("learn-widths") / "party.sqlite", burst=1000,
                     rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def right_move(game: str, number: int) -> str:
    """The name of a right move of step ``number``, as the page's button carries it."""
    from raceday.core.lesson import load_lesson
    from raceday.present.lessons import learner_actions

    step = load_lesson(game).step(number)
    return next(name for name, _ in learner_actions(step, step.start()) if step.is_right(name))


def fits(page: Any, where: str) -> None:
    widths = page.evaluate(WIDTHS)
    for part, (scroll, client) in widths.items():
        assert scroll <= client + 1, f"{where}: the {part} scrolls sideways ({scroll} > {client})"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", GAMES)
def test_no_lesson_step_scrolls_sideways_on_a_phone(open_page: Any, server: str, game: str,
                                                    lang: str) -> None:
    from raceday.core.lesson import load_lesson

    steps = load_lesson(game).steps
    page = open_page(PHONE, f"{server}learn/{game}",
                     storage={"raceday.lang": lang, f"raceday.learn.{game}": "1"})
    for number, step in enumerate(steps, start=1):
        if step.play is not None:
            break
        # the step is open once its right move is a button to press (the last step's
        # buttons are all pressed or closed)
        button = page.locator(f".learn-move[data-move={json.dumps(right_move(game, number))}]"
                              ":not([disabled])")
        button.wait_for()
        page.locator(".learn-board *").first.wait_for()
        fits(page, f"{game} {lang} step {number}")
        button.click()
        page.wait_for_selector(".learn-right")
        page.locator(".learn-board *").first.wait_for()
        fits(page, f"{game} {lang} step {number}, after the right move")
        page.click("#learn-next")
    assert not page.js_errors
