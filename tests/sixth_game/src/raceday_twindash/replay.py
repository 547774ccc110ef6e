"""Face: a finished room's replay draws the board (``static/frame.js``) after each step.

The kit rebuilds each logged step's state by the game's own rules; this says what board a
state shows: its frame, the same data the room's screens draw (a sealed bet is not in it).
"""

from __future__ import annotations

from typing import Any

from raceday_twindash.rules import TwinDashState


def room_frame(logic: Any, state: TwinDashState) -> dict[str, Any]:
    """The board the room's screens draw for ``state``."""
    return state.frame()
