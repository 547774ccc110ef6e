"""Helpers for pilot tests of a :class:`~raceday.terminal.tui.app.GameApp`.

They wait on conditions (the loop blocked in ``ask``, the loop finished), never on time; the
timeout is only a guard against a hang, far above what a test needs.

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_prompt(pilot, app)
        await answer(pilot, app, "2")
        await wait_until_finished(pilot, app)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot

from raceday.terminal.surface import Prompt
from raceday.terminal.tui.app import GameApp

HANG_GUARD = 60.0  # seconds; a test that waits this long has hung


class Hung(AssertionError):
    """A condition a pilot test waited for did not come within :data:`HANG_GUARD`."""


async def wait_for(pilot: Pilot[int], condition: Callable[[], bool], what: str,
                   guard: float = HANG_GUARD) -> None:
    """Let the app run until ``condition()`` holds (:class:`Hung` after ``guard`` s)."""
    end = time.monotonic() + guard
    while not condition():
        if time.monotonic() > end:
            raise Hung(f"waited {guard:g} s for {what}")
        await pilot.pause(0.01)
    await pilot.pause()  # let the screen catch up with what the condition saw


async def wait_for_prompt(pilot: Pilot[int], app: GameApp) -> Prompt | None:
    """Wait until the loop is blocked in ``ask`` (or has finished); the open prompt."""
    await wait_for(pilot, lambda: app.waiting is not None or app.finished,
                   "the loop to ask something")
    return app.waiting


async def answer(pilot: Pilot[int], app: GameApp, text: str) -> Prompt | None:
    """Type ``text`` on the answer line, press Enter, and wait for the next prompt or the
    end; the prompt open then (None at the end)."""
    await wait_for_prompt(pilot, app)
    if app.finished:
        raise AssertionError(f"the game ended before it could be answered {text!r}")
    opened = app.prompts_opened
    app.answer_input.focus()
    app.answer_input.value = text
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.finished or (app.waiting is not None
                                                   and app.prompts_opened > opened),
                   f"the loop to take {text!r}")
    return app.waiting


async def wait_until_finished(pilot: Pilot[int], app: GameApp) -> int:
    """Wait until the loop has ended; its exit code."""
    await wait_for(pilot, lambda: app.finished or app.exit_code is not None,
                   "the loop to end")
    return app.exit_code if app.exit_code is not None else 0
