"""Twin Dice Dash: a two-player dice race with sealed side bets on who moves further each
round. A game outside raceday, installed as its own distribution (the test of issue #31)."""

from raceday.core.registry import register
from raceday_twindash.game import GAME, TwinDashGame, TwinDashOptions
from raceday_twindash.rules import Course, TwinDashState

register(GAME)

__all__ = ["GAME", "Course", "TwinDashGame", "TwinDashOptions", "TwinDashState"]
