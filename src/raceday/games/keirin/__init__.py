"""KEIRIN by Anki Toner: 6–9 track riders sprint after the derny leaves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from raceday.core.lazy import lazy_exports

if TYPE_CHECKING:
    from raceday.games.keirin.game import GAME, KeirinGame
    from raceday.games.keirin.rules import KeirinOptions, KeirinState, new_race

__all__ = ["GAME", "KeirinGame", "KeirinOptions", "KeirinState", "new_race"]

# The registry takes GAME when it loads the games (raceday.core.registry.load_all); the
# package itself stays light, so a quick command needs none of the rules.
__getattr__ = lazy_exports(__name__, {
    "GAME": "game", "KeirinGame": "game", "KeirinOptions": "rules", "KeirinState": "rules",
    "new_race": "rules", "RECORD_GAMES": "night"
})
