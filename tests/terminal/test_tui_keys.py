"""The key hint in the title bar names only keys that do something at the open prompt: the
arrows and Tab choose where the prompt lists choices; a free answer (a bid, a name) is typed
and sent with Enter."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import Static

from raceday.terminal.surface import Choice, Prompt, Surface
from raceday.terminal.tui import GameApp
from raceday.terminal.tui.testing import answer, wait_for_prompt, wait_until_finished


def key_hint(app: GameApp) -> str:
    return str(app.query_one("#keys", Static).render())


def play(main: Callable[[Surface], int], scenario: Callable[[Pilot[int], GameApp],
                                                          Awaitable[None]]) -> None:
    """Run ``main`` full screen at 80x24 through ``scenario`` (started at its first prompt)."""
    app = GameApp(main, title="Keys")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_prompt(pilot, app)
            await scenario(pilot, app)

    asyncio.run(run())


def test_the_key_hint_offers_choosing_only_where_there_are_choices() -> None:
    def main(surface: Surface) -> int:
        surface.board("board")
        surface.ask(Prompt("your bid?", secret=True))
        surface.ask(Prompt("move?", choices=[Choice("a"), Choice("b")]))
        return 0

    hints: list[str] = []

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        hints.append(key_hint(app))
        assert app.answer_input.cursor_blink is False  # headless: a steady picture
        await answer(pilot, app, "300")
        hints.append(key_hint(app))
        await answer(pilot, app, "a")

    play(main, scenario)
    assert hints[0].startswith("Enter answer") and "choose" not in hints[0]
    assert hints[1].startswith("↑↓ Tab choose")


def test_ctrl_z_is_offered_and_answers_only_where_something_can_be_taken_back() -> None:
    """A prompt with nothing to take back (most games have no undo) names no ^Z, and ctrl+z
    and the single key u there answer nothing; a prompt that takes back (``undo=True``)
    names it, and ctrl+z answers ``undo``."""
    answers: list[str] = []

    def main(surface: Surface) -> int:
        answers.append(surface.ask(Prompt("move?", choices=[Choice("a"), Choice("b")])))
        answers.append(surface.ask(Prompt("bid?", undo=True)))
        return 0

    hints: list[str] = []

    async def scenario(pilot: Pilot[int], app: GameApp) -> None:
        hints.append(key_hint(app))
        await pilot.press("ctrl+z")
        await pilot.press("tab")  # to the choice list, where single keys act
        await pilot.press("u")
        await pilot.pause()
        assert app.waiting is not None and app.waiting.text == "move?"  # still asked
        await answer(pilot, app, "a")  # (it waits for the next prompt)
        hints.append(key_hint(app))
        await pilot.press("ctrl+z")
        await wait_until_finished(pilot, app)

    play(main, scenario)
    assert "^Z" not in hints[0] and hints[0].endswith("^Q quit")
    assert "^Z undo" in hints[1]
    assert answers == ["a", "undo"]
