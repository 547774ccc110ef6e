"""KEIRIN by Anki Toner: 6–9 track riders sprint after the derny leaves."""

# The package's names are loaded on first use, not on import: `raceday keirin odds` imports
# the odds module alone and must not pay for the rules engine, pydantic and the registry.
# The registry finds GAME through this module's attributes (raceday.core.registry.load_all).
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from raceday.games.keirin.game import GAME, KeirinGame
    from raceday.games.keirin.rules import KeirinOptions, KeirinState, new_race

__all__ = ["GAME", "KeirinGame", "KeirinOptions", "KeirinState", "new_race"]

_HOMES = {"GAME": "game", "KeirinGame": "game", "KeirinOptions": "rules",
          "KeirinState": "rules", "new_race": "rules"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    if name == "GAME":
        from raceday.core.registry import register

        register(value)
    globals()[name] = value
    return value
