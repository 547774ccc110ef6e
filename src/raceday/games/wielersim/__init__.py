"""WielerSIM by Ludo Nauws: a solo road-cycling race simulation (classics, stage races)."""

from raceday.core.registry import register
from raceday.games.wielersim.game import GAME, WielersimGame, WielersimOptions, new_race
from raceday.games.wielersim.rules import WielersimState

register(GAME)

__all__ = ["GAME", "WielersimGame", "WielersimOptions", "WielersimState", "new_race"]
