"""The key hint in the title bar names only keys that do something at the open prompt: the
arrows and Tab choose where the prompt lists choices; a free answer (a bid, a name) is typed
and sent with Enter."""

from __future__ import annotations

import asyncio

from textual.widgets import Static

from raceday.terminal.surface import Choice, Prompt, Surface
from raceday.terminal.tui import GameApp
from raceday.terminal.tui.testing import answer, wait_for_prompt


def key_hint(app: GameApp) -> str:
    return str(app.query_one("#keys", Static).render())


def test_the_key_hint_offers_choosing_only_where_there_are_choices() -> None:
    def main(surface: Surface) -> int:
        surface.board("board")
        surface.ask(Prompt("your bid?", secret=True))
        surface.ask(Prompt("move?", choices=[Choice("a"), Choice("b")]))
        return 0

    app = GameApp(main, title="Keys")
    hints: list[str] = []

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_prompt(pilot, app)
            hints.append(key_hint(app))
            assert app.answer_input.cursor_blink is False  # headless: a steady picture
            await answer(pilot, app, "300")
            hints.append(key_hint(app))
            await answer(pilot, app, "a")

    asyncio.run(run())
    assert hints[0].startswith("Enter answer") and "choose" not in hints[0]
    assert hints[1].startswith("↑↓ Tab choose")
