"""Dice Derby by domi (2016): a party horse-race betting game with d4, d6, d8, d10, d12, d20."""

from __future__ import annotations

from typing import TYPE_CHECKING

from raceday.core.lazy import lazy_exports

if TYPE_CHECKING:
    from raceday.games.derby.game import GAME, DerbyGame
    from raceday.games.derby.rules import DerbyOptions, DerbyState, new_race

__all__ = ["GAME", "DerbyGame", "DerbyOptions", "DerbyState", "new_race"]

# The registry takes GAME when it loads the games (raceday.core.registry.load_all); the
# package itself stays light, so a quick command needs none of the rules.
__getattr__ = lazy_exports(__name__, {
    "GAME": "game", "DerbyGame": "game", "DerbyOptions": "rules", "DerbyState": "rules",
    "new_race": "rules", "RECORD_GAMES": "evening"
})
