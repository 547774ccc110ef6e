"""Every game's research adapter, found from the game.

A game carries its adapter (a :class:`raceday.research.Adapter`) in its ``adapter`` face,
attribute ``ADAPTER``; :func:`adapters` collects them with :mod:`raceday.core.discovery`, so
no list of games lives here.
"""

from __future__ import annotations

import functools

from raceday.core.discovery import face, games_with
from raceday.core.errors import OptionsError
from raceday.research import Adapter, ParamValue, Shape

__all__ = ["Adapter", "ParamValue", "Shape", "adapter", "adapters", "games_with_players"]


@functools.cache
def adapters() -> dict[str, Adapter]:
    """Game name → its research adapter: each game's ``adapter`` face (its ``ADAPTER``)."""
    found: dict[str, Adapter] = {}
    for game in games_with("adapter"):
        module = face(game, "adapter")
        if module is not None:
            found[game] = module.ADAPTER
    return dict(sorted(found.items()))


def adapter(name: str) -> Adapter:
    """The adapter of a game by its raceday name; :class:`OptionsError` if unknown."""
    try:
        return adapters()[name]
    except KeyError:
        raise OptionsError(f"unknown game {name!r}; choose from "
                           f"{', '.join(adapters())}") from None


def games_with_players() -> tuple[str, ...]:
    """The games someone plays (an environment's games): every game whose adapter has
    players to act (a race of dice alone, with no one to decide, has none)."""
    return tuple(name for name, found in adapters().items() if found.player_range[1] > 0)
