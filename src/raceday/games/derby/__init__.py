"""Dice Derby by domi (2016): a party horse-race betting game with d4, d6, d8, d10, d12, d20."""

from raceday.core.registry import register
from raceday.games.derby.game import GAME, DerbyGame
from raceday.games.derby.rules import DerbyOptions, DerbyState, new_race

register(GAME)

__all__ = ["GAME", "DerbyGame", "DerbyOptions", "DerbyState", "new_race"]
