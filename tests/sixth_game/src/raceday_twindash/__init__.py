"""Twin Dice Dash: a dice race for two to four players with sealed side bets on who moves
furthest each round. A game outside raceday, installed as its own distribution."""

from raceday.core.registry import register
from raceday_twindash.game import GAME, TwinDashGame, TwinDashOptions
from raceday_twindash.rules import Course, TwinDashState

register(GAME)

__all__ = ["GAME", "Course", "TwinDashGame", "TwinDashOptions", "TwinDashState"]
