"""Hairpin Racers by Phil Leduc (2004/2024): a diceless two-player race on a 3x6 double
hairpin. Programmed for this project"s study; the designer reserves the right to program
or sell the game (see docs/rules/hairpin.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from raceday.core.lazy import lazy_exports

if TYPE_CHECKING:
    from raceday.games.hairpin.game import GAME, HairpinGame, HairpinOptions, new_game
    from raceday.games.hairpin.rules import HairpinState, Position, Rules

__all__ = ["GAME", "HairpinGame", "HairpinOptions", "HairpinState", "Position", "Rules", "new_game"]

# The registry takes GAME when it loads the games (raceday.core.registry.load_all); the
# package itself stays light, so a quick command needs none of the rules.
__getattr__ = lazy_exports(__name__, {
    "GAME": "game", "HairpinGame": "game", "HairpinOptions": "game", "new_game": "game",
    "HairpinState": "rules", "Position": "rules", "Rules": "rules"
})
