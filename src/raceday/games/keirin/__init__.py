"""KEIRIN by Anki Toner: 6–9 track riders sprint after the derny leaves."""

from raceday.core.registry import register
from raceday.games.keirin.game import GAME, KeirinGame
from raceday.games.keirin.rules import KeirinOptions, KeirinState, new_race

register(GAME)

__all__ = ["GAME", "KeirinGame", "KeirinOptions", "KeirinState", "new_race"]
