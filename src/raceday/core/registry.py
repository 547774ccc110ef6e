"""The list of games: each game package registers a :class:`GameSpec` when imported."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from raceday.core.errors import OptionsError
from raceday.core.protocol import State


@dataclass(frozen=True)
class GameSpec:
    """How to make, restore and check one game.

    ``new_initial_state(options)`` builds a state from a dict of options (raising
    :class:`OptionsError` on bad ones); ``state_from_json`` restores a saved state;
    ``max_steps`` bounds the number of steps of any game with ``harness_configs`` options
    (for games with unbounded chance such as re-rolls, a bound that is exceeded with
    vanishing probability, stated in the rules page); ``harness_configs`` lists the option
    sets the invariant harness plays; ``harness_games`` how many random games per set.
    """

    name: str
    title: str
    designer: str
    new_initial_state: Callable[[Mapping[str, Any]], State]
    state_from_json: Callable[[Mapping[str, Any]], State]
    max_steps: int
    harness_configs: tuple[Mapping[str, Any], ...] = field(default_factory=lambda: ({},))
    harness_games: int = 200


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    _GAMES[spec.name] = spec
    return spec


def load_all() -> None:
    """Import every package under ``raceday.games`` so that each registers itself."""
    import raceday.games as games_pkg

    for info in pkgutil.iter_modules(games_pkg.__path__):
        if info.ispkg:
            importlib.import_module(f"raceday.games.{info.name}")


def all_games() -> list[GameSpec]:
    load_all()
    return [_GAMES[name] for name in sorted(_GAMES)]


def get_game(name: str) -> GameSpec:
    load_all()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise OptionsError(f"unknown game {name!r}; known games: {known}") from None
