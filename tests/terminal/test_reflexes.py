"""A shell user's three reflexes at the first prompt of every game's full-screen view:
typing the word ``undo`` is one undo (no "ndo" left to answer with); ``?`` then Enter shows
the help and asks again, and an Enter on the empty line after it answers nothing (a bid or
a ticket is not passed, a stage not ridden); ctrl+c ends the view as line by line does
(the game's own interrupt, exit code 130)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from raceday.terminal.tui import GameApp
from raceday.terminal.tui.testing import wait_for, wait_for_prompt


def _hairpin(tmp_path: Path) -> GameApp:
    from tests.games.hairpin.test_terminal_full import game

    return game(tmp_path)[0]


def _keirin(tmp_path: Path) -> GameApp:
    from tests.games.keirin.test_terminal_screen import _play_app

    return _play_app(tmp_path / "k.sqlite")


def _pistard(tmp_path: Path) -> GameApp:
    from tests.games.pistard.test_terminal_tui import _app

    return _app(tmp_path / "p.sqlite")


def _derby(tmp_path: Path) -> GameApp:
    from tests.games.derby.terminal_party import party_app

    return party_app(tmp_path / "d.sqlite")


def _tour(tmp_path: Path) -> GameApp:
    from tests.games.wielersim.test_terminal_tui import tour_main

    return GameApp(tour_main(tmp_path)[0], title="WielerSIM")


GAMES: dict[str, Callable[[Path], GameApp]] = {
    "hairpin": _hairpin, "keirin": _keirin, "pistard": _pistard, "derby": _derby,
    "wielersim": _tour}


def _play(app: GameApp, scenario: Callable[[Pilot[int], GameApp], object]) -> GameApp:
    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await scenario(pilot, app)  # type: ignore[misc]

    asyncio.run(run())
    return app


@pytest.mark.parametrize("name", sorted(GAMES))
def test_typing_undo_is_one_undo_and_help_then_enter_answers_nothing(
        name: str, tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        prompt = await wait_for_prompt(pilot, app)
        assert prompt is not None
        app.answer_input.focus()
        opened = app.prompts_opened
        await pilot.press(*"undo")
        assert app.answer_input.value == "undo"  # every letter typed, none taken as a key
        assert app.prompts_opened == opened
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the prompt again")
        assert "'ndo'" not in app.log_text() and "› ndo" not in app.log_text()
        asked = app.waiting
        assert asked is not None and asked.text == prompt.text  # the same question again

        opened = app.prompts_opened
        await pilot.press("question_mark", "enter")
        await wait_for(pilot, lambda: app.prompts_opened > opened, "the prompt after help")
        assert app.waiting is not None and app.waiting.text == prompt.text
        opened, log = app.prompts_opened, app.log_text()
        await pilot.press("enter")  # right after the help: answers nothing
        await pilot.pause()
        await pilot.pause()
        assert app.prompts_opened == opened and app.waiting is not None
        assert app.waiting.text == prompt.text and app.log_text() == log

    _play(GAMES[name](tmp_path), scenario)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_ctrl_c_at_a_prompt_ends_the_view_as_an_interrupt(name: str, tmp_path: Path) -> None:
    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        await wait_for_prompt(pilot, app)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: app.return_code is not None or app.error is not None
                       or app.exit_code is not None, "the view to end")

    app = _play(GAMES[name](tmp_path), scenario)
    code = app.return_code if app.return_code is not None else app.exit_code
    assert code == 130 or isinstance(app.error, KeyboardInterrupt), (code, app.error)
