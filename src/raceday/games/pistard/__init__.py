"""PISTARD by Anki Toner: track cycling on a coloured four-lane velodrome, six race variants."""

from __future__ import annotations

from typing import TYPE_CHECKING

from raceday.core.lazy import lazy_exports

if TYPE_CHECKING:
    from raceday.games.pistard.game import GAME, PistardGame
    from raceday.games.pistard.options import PistardOptions
    from raceday.games.pistard.state import PistardState, new_race

__all__ = ["GAME", "PistardGame", "PistardOptions", "PistardState", "new_race"]

# The registry takes GAME when it loads the games (raceday.core.registry.load_all); the
# package itself stays light, so a quick command needs none of the rules.
__getattr__ = lazy_exports(__name__, {
    "GAME": "game", "PistardGame": "game", "PistardOptions": "options", "PistardState":
    "state", "new_race": "state"
})
