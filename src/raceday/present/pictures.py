"""A state drawn as plain text by its game's ``picture`` face, found without the rules
importing it: the replays, the research adapters and the interop faces show a board this
way, and the rules stay free of how a board is drawn."""

from __future__ import annotations

from raceday.core.discovery import face
from raceday.core.protocol import State


def text_picture(state: State) -> str:
    """``state`` as plain text: its game's ``picture.text_picture(state)`` where the game
    has that face, else ``str(state)``."""
    draw = getattr(face(state.game_name, "picture"), "text_picture", None)
    return str(state) if draw is None else str(draw(state))
