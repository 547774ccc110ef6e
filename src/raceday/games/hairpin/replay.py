"""Replaying Hairpin Racers: a room's board after each step is the state the game's own
rules make again from the room's log (:func:`raceday.present.replay.rebuild_states`),
drawn by the game's ``static/frame.js`` as the room draws it live; a saved game replays
from its final position (the default)."""

from __future__ import annotations

from typing import Any

from raceday.games.hairpin.rules import HairpinState


def room_frame(logic: Any, state: HairpinState) -> dict[str, Any]:
    """The board the room's screens draw for ``state`` (its frame)."""
    return state.frame()
