"""Replays in the terminal: each step's words (a replay step, as the browser's replay has it)
and the game's BOARD as its terminal draws it, for ``raceday replay``.

A game's ``replay`` face module gives its terminal steps (each optional):

* ``terminal_steps(store, name, lang) -> list[TerminalStep]``: a saved session, one step for
  each step of ``steps(store, name)`` (the browser's), each with the board its terminal
  draws for the state rebuilt at that step by the game's own rules;
* ``terminal_final(state, lang) -> Board``: the board of a saved final position (a game
  whose saves keep only their position replays as that one step);
* ``room_boards(snapshot, rows, lang) -> list[Board | None]``: the board after each logged
  row of one of its rooms (as :func:`raceday.present.replay.rebuild_states` or the game's
  own ``room_frames`` rebuild them), None where there is none (the lobby).

A board is drawn lazily (:class:`LazyBoard`): only the steps shown are rebuilt.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, RenderableType

from raceday.core.errors import RacedayError

# A board: a Rich renderable, or a function of the space it gets (width, height) that draws
# one fitting it (the same shape as raceday.terminal.surface.Board).
Board = RenderableType | Callable[[int, int], RenderableType]

BOARD_WIDTH = 80  # columns of a board's plain text (--json), the smallest terminal's


class LazyBoard:
    """A board made only when it is first drawn (``make(width, height)``), then kept for
    that size: rebuilding a state by the rules costs time, and a replay shows one step at a
    time."""

    def __init__(self, make: Callable[[int, int], RenderableType | None]) -> None:
        self._make = make
        self._made: dict[tuple[int, int], RenderableType | None] = {}

    def __call__(self, width: int, height: int) -> RenderableType:
        key = (width, height)
        if key not in self._made:
            try:
                self._made[key] = self._make(width, height)
            except (RacedayError, KeyError, IndexError, TypeError, ValueError,
                    AssertionError):  # a save the rules cannot ride again: no board
                self._made[key] = None
        made = self._made[key]
        return "" if made is None else made

    def exists(self, width: int = BOARD_WIDTH, height: int = 24) -> bool:
        """Whether there is a board at this step (a rebuild may find none)."""
        self(width, height)
        return self._made[(width, height)] is not None


@dataclass
class TerminalStep:
    """One step of a terminal replay: ``step`` is the step as JSON (a session's
    :meth:`~raceday.present.replay.ReplayStep.to_json`, or a room's ``{"kind": "events",
    "events": [...], "who": ...}``), worded by :func:`~raceday.present.replay.step_text`;
    ``board`` the game's board at that step (None: none)."""

    step: Mapping[str, Any]
    board: Board | None = None
    facts: dict[str, Any] = field(default_factory=dict)

    def has_board(self) -> bool:
        if self.board is None:
            return False
        if isinstance(self.board, LazyBoard):
            return self.board.exists()
        return True


def draw(board: Board, width: int = BOARD_WIDTH, height: int = 24) -> RenderableType:
    """The board as a renderable for a space of ``width`` x ``height``."""
    return board(width, height) if callable(board) else board


def board_text(board: Board | None, width: int = BOARD_WIDTH, height: int = 24) -> str | None:
    """The board as plain text ``width`` columns wide (no colour), or None."""
    if board is None:
        return None
    console = Console(width=width, height=height, color_system=None, force_terminal=False,
                      record=True, file=io.StringIO(), highlight=False, emoji=False)
    console.print(draw(board, width, height))
    text = console.export_text(styles=False)
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) if lines else None

