"""The full-screen log keeps whole lines when it changes width.

RichLog wraps a line once, at the width it has when the line arrives; at 80x24 the choice
list opens beside the log after a computer's turn, so a line written while the log was wide
used to be cropped. The kit's log writes what it holds again at its new width."""

from __future__ import annotations

import asyncio
import threading

from raceday.terminal.surface import Choice, Prompt, Surface
from raceday.terminal.tui import GameApp
from raceday.terminal.tui.testing import wait_for, wait_for_prompt

SENTENCE = ("The computer rides rider seven from lane two to lane four and takes the lead "
            "of the race by three whole squares before the bell")


def shown_words(app: GameApp) -> list[str]:
    """The log's words as far as they fit its width (a longer line is cut at the edge)."""
    log = app.log_widget
    width = log.scrollable_content_region.width
    return " ".join(strip.text.rstrip()[:width] for strip in log.lines).split()


def test_a_line_written_while_the_log_was_wide_is_rewrapped_when_the_choices_open() -> None:
    laid_out = threading.Event()

    def main(surface: Surface) -> int:
        surface.board("board")
        surface.say(SENTENCE)  # no prompt open: the log has the whole strip's width
        laid_out.wait(60)  # hang guard only: the test sets it once the line is drawn
        surface.ask(Prompt("move?", choices=[Choice("a", "first move"),
                                             Choice("b", "second move")]))
        return 0

    app = GameApp(main, title="Log")
    seen: dict[str, object] = {}

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: len(app.log_widget.lines) > 0, "the line drawn")
            seen["wide"] = app.log_widget.size.width
            laid_out.set()
            await wait_for_prompt(pilot, app)
            await pilot.pause()
            seen["choices"] = app.choice_list.display
            seen["width"] = app.log_widget.size.width
            seen["words"] = shown_words(app)

    asyncio.run(run())
    assert seen["choices"] is True
    assert isinstance(seen["width"], int) and isinstance(seen["wide"], int)
    assert seen["width"] < seen["wide"]  # the log did narrow when the choices opened
    # every word of the sentence is on screen, in order: none cropped at the old width
    assert seen["words"] == SENTENCE.split()


