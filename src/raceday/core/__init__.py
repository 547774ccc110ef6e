"""Engine core shared by all games: protocol, dice, events, agents, the play loop."""

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
