"""The list of games: each game package registers its :class:`Game` when imported.

:func:`discover` names the games and their one-line summaries without importing them (for
a fast ``raceday --help``); :func:`all_games` and :func:`get_game` import and return them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ConfigDict

from raceday.core.discovery import discover, game_packages
from raceday.core.errors import OptionsError
from raceday.core.game import AnyGame, Game, GameOptions
from raceday.core.protocol import State

_GAMES: dict[str, AnyGame] = {}


def register(game: AnyGame | GameSpec) -> AnyGame:
    """Add ``game`` to the registry (called by each game package on import)."""
    if isinstance(game, GameSpec):
        game = _SpecGame(game)
    _GAMES[game.name] = game
    return game


def load_all() -> None:
    """Import every game package (built in, or named by a ``raceday.games`` entry point)
    and register its ``GAME``."""
    packages = game_packages()
    for name in discover():
        module = importlib.import_module(packages[name])
        game = getattr(module, "GAME", None) or getattr(module, "SPEC", None)
        if game is not None and name not in _GAMES:
            register(game)


def all_games() -> list[AnyGame]:
    load_all()
    return [_GAMES[name] for name in sorted(_GAMES)]


def get_game(name: str) -> AnyGame:
    if name not in _GAMES:
        load_all()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise OptionsError(f"unknown game {name!r}; known games: {known}") from None


# --- transition: games still described by a GameSpec (removed once all five are Games) ---
@dataclass(frozen=True)
class GameSpec:
    """The old description of a game (a bag of callables); wrapped into a :class:`Game`."""

    name: str
    title: str
    designer: str
    new_initial_state: Callable[[Mapping[str, Any]], State]
    state_from_json: Callable[[Mapping[str, Any]], State]
    max_steps: int
    harness_configs: tuple[Mapping[str, Any], ...] = field(default_factory=lambda: ({},))
    harness_games: int = 200


class _AnyOptions(GameOptions):
    model_config = ConfigDict(extra="allow", frozen=True)


class _SpecGame(Game[_AnyOptions, State]):
    Options = _AnyOptions

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.name = spec.name  # type: ignore[misc]
        self.title = spec.title  # type: ignore[misc]
        self.designer = spec.designer  # type: ignore[misc]
        self.harness_configs = spec.harness_configs  # type: ignore[misc]
        self.harness_games = spec.harness_games  # type: ignore[misc]

    def _new_state(self, options: _AnyOptions, seed: int | None) -> State:
        return self.spec.new_initial_state(options.model_dump())

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return self.spec.state_from_json(data)

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        return self.spec.max_steps
