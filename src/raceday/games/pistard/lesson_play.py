"""The PISTARD lesson's terminal face: a step's board in the learner's language.

``raceday learn pistard`` draws each step's position with :func:`lesson_picture` (the
terminal game's own board and standings, every word from the message tables); its first
game is the generic one of :mod:`raceday.cli.learn`.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from raceday.games.pistard.state import PistardState

WIDTH, HEIGHT = 78, 30  # an 80-column terminal (the track fits itself to it)


def lesson_picture(state: PistardState, lang: str) -> str:
    """The lap, the race order and the tokens as plain text in ``lang``."""
    from rich.console import Console

    from raceday.games.pistard.render import board_text_view, standings_line

    out = io.StringIO()
    Console(file=out, width=WIDTH, color_system=None, force_terminal=False, highlight=False,
            emoji=False).print(standings_line(state, lang))
    board = board_text_view(state, WIDTH, HEIGHT, lang)
    return "\n".join(line.rstrip() for line in (board + out.getvalue()).splitlines())
