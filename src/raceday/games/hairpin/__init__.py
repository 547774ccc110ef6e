"""Hairpin Racers by Phil Leduc (2004/2024): a diceless two-player race on a 3x6 double
hairpin. Programmed for this project's study; the designer reserves the right to program
or sell the game (see docs/rules/hairpin.md)."""

from raceday.core.registry import register
from raceday.games.hairpin.game import GAME, HairpinGame, HairpinOptions, new_game
from raceday.games.hairpin.rules import HairpinState, Position, Rules

register(GAME)

__all__ = ["GAME", "HairpinGame", "HairpinOptions", "HairpinState", "Position", "Rules",
           "new_game"]
