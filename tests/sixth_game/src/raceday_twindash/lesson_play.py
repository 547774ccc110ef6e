"""The Twin-Dice Dash lesson's terminal face: a step's board in the learner's language
(the board of :mod:`raceday_twindash.board`, every word from the game's message tables)."""

from __future__ import annotations

import io

from rich.console import Console

from raceday_twindash.board import board
from raceday_twindash.rules import TwinDashState

WIDTH = 40  # columns the lesson's board is drawn in


def lesson_picture(state: TwinDashState, lang: str) -> str:
    """The round, each runner's lane, square and purse, as plain text in ``lang``."""
    out = io.StringIO()
    Console(file=out, width=WIDTH, color_system=None, force_terminal=False,
            highlight=False, emoji=False).print(board(state.frame(), lang)(WIDTH, 12))
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())
