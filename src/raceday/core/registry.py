"""The list of games: each game package registers its :class:`Game` when imported.

:func:`discover` names the games and their one-line summaries without importing them (for
a fast ``raceday --help``); :func:`all_games` and :func:`get_game` import and return them.
"""

from __future__ import annotations

import importlib

from raceday.core.discovery import discover, game_packages
from raceday.core.errors import OptionsError
from raceday.core.game import AnyGame

_GAMES: dict[str, AnyGame] = {}


def register(game: AnyGame) -> AnyGame:
    """Add ``game`` to the registry (called by each game package on import)."""
    _GAMES[game.name] = game
    return game


def load_all() -> None:
    """Import every game package (built in, or named by a ``raceday.games`` entry point)
    and register its ``GAME``."""
    packages = game_packages()
    for name in discover():
        module = importlib.import_module(packages[name])
        game = getattr(module, "GAME", None)
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


def record_game(name: str) -> AnyGame:
    """The game a record names: a game of the list, or one a game package plays as a part
    of itself (Dice Derby's evening ``derby_evening``, KEIRIN's night ``keirin_night``),
    declared in that package's ``RECORD_GAMES``."""
    try:
        return get_game(name)
    except OptionsError:
        pass
    owner = name.split("_", 1)[0]
    packages = game_packages()
    if owner in packages and owner != name:
        module = importlib.import_module(packages[owner])
        for game in getattr(module, "RECORD_GAMES", ()):
            if game.name == name:
                return game  # type: ignore[no-any-return]
    known = ", ".join(sorted(_GAMES)) or "none"
    raise OptionsError(f"unknown game {name!r} in a record; known games: {known}")
