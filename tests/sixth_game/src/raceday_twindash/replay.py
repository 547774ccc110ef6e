"""Face: a finished room's replay draws the board after each step, in the browser
(``room_frame``, drawn by ``static/frame.js``) and in the terminal (``room_boards``, for
``raceday replay --room``).

The kit rebuilds each logged step's state by the game's own rules; this says what board a
state shows: its frame, the same data the room's screens draw (a sealed bet is not in it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from raceday_twindash.board import board
from raceday_twindash.rules import TwinDashState


def room_frame(logic: Any, state: TwinDashState) -> dict[str, Any]:
    """The board the room's screens draw for ``state``."""
    return state.frame()


def room_boards(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
                lang: str = "en") -> list[Any]:
    """The terminal's board after each logged row of a room (None before the start): the
    states the game's own rules make again from the log, drawn as play and watch draw
    them."""
    from raceday.present.replay import rebuild_states
    from raceday.rooms import logic_class

    logic: Any = logic_class("twindash").from_json(snapshot)
    states = rebuild_states(logic.new_state, rows, logic.event_json)
    return [None if state is None else board(state.frame(), lang) for state in states]
