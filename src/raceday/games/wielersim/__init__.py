"""WielerSIM by Ludo Nauws: a solo road-cycling race simulation (classics, stage races)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from raceday.core.lazy import lazy_exports

if TYPE_CHECKING:
    from raceday.games.wielersim.game import GAME, WielersimGame, WielersimOptions, new_race
    from raceday.games.wielersim.rules import WielersimState

__all__ = ["GAME", "WielersimGame", "WielersimOptions", "WielersimState", "new_race"]

# The registry takes GAME when it loads the games (raceday.core.registry.load_all); the
# package itself stays light, so a quick command needs none of the rules.
__getattr__ = lazy_exports(__name__, {
    "RECORD_GAMES": "prologue",
    "GAME": "game", "WielersimGame": "game", "WielersimOptions": "game", "new_race":
    "game", "WielersimState": "rules"
})
