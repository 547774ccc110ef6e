"""Engine core shared by all games: protocol, dice, events, agents, the play loop.

Names are imported on first use, so that light users (the CLI's ``--help``, error
classes) do not pay for numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from raceday.core.lazy import lazy_exports

_EXPORTS = {
    "Agent": "agents",
    "MCTSAgent": "agents",
    "RandomAgent": "agents",
    "Dist": "dice",
    "IllegalActionError": "errors",
    "InputFileError": "errors",
    "OptionsError": "errors",
    "RacedayError": "errors",
    "SaveFormatError": "errors",
    "Event": "events",
    "event_log_text": "events",
    "PlayRecord": "play",
    "play_game": "play",
    "CHANCE": "protocol",
    "TERMINAL": "protocol",
    "Action": "protocol",
    "ChanceDraw": "protocol",
    "Outcome": "protocol",
    "State": "protocol",
}

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Agent",
    "ChanceDraw",
    "Dist",
    "Event",
    "IllegalActionError",
    "InputFileError",
    "MCTSAgent",
    "OptionsError",
    "Outcome",
    "PlayRecord",
    "RacedayError",
    "RandomAgent",
    "SaveFormatError",
    "State",
    "event_log_text",
    "play_game",
]

if TYPE_CHECKING:
    from raceday.core.agents import Agent, MCTSAgent, RandomAgent
    from raceday.core.dice import Dist
    from raceday.core.errors import (
        IllegalActionError,
        InputFileError,
        OptionsError,
        RacedayError,
        SaveFormatError,
    )
    from raceday.core.events import Event, event_log_text
    from raceday.core.play import PlayRecord, play_game
    from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, Outcome, State


__getattr__ = lazy_exports(__name__, _EXPORTS)
