"""PISTARD by Anki Toner: track cycling on a coloured four-lane velodrome, six race variants."""

from raceday.core.registry import register
from raceday.games.pistard.game import GAME, PistardGame
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PistardState, new_race

register(GAME)

__all__ = ["GAME", "PistardGame", "PistardOptions", "PistardState", "new_race"]
