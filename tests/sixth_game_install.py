"""Install the sixth game (tests/sixth_game, the distribution ``raceday-twindash``) beside
raceday, as a user would: ``pip install`` into a folder of its own, so that its dist-info
(and with it the ``raceday.games`` entry point) is found on the path.

The build runs in a copy of the source, so it leaves no ``build/`` or ``*.egg-info`` in the
checkout, and each test process installs once (:func:`installed`).
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SOURCE = Path(__file__).parent / "sixth_game"
GAME = "twindash"
PACKAGE = "raceday_twindash"

_installed: dict[str, Path] = {}


def install(into: Path) -> Path:
    """``pip install --no-deps --no-build-isolation --target`` the sixth game; return the
    folder that holds its package and dist-info."""
    source = into / "source"
    target = into / "site"
    shutil.copytree(SOURCE, source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--no-build-isolation", "--disable-pip-version-check", "--target", str(target),
         str(source)],
        check=True, capture_output=True, text=True)
    return target


def installed(factory: pytest.TempPathFactory) -> Path:
    """The folder the sixth game is installed in (installed once per test process)."""
    if "site" not in _installed:
        _installed["site"] = install(factory.mktemp("sixth_game"))
    return _installed["site"]


def subprocess_env(site: Path | None) -> dict[str, str]:
    """The environment of a ``raceday`` subprocess that sees the installed sixth game (or,
    with ``site`` None, raceday alone)."""
    env = dict(os.environ)
    parts = [str(site)] if site is not None else []
    env["PYTHONPATH"] = os.pathsep.join([*parts, *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONIOENCODING"] = "utf-8"
    env["TERMINAL_WIDTH"] = "200"
    return env


# Caches that remember what the installed games are (module, function), cleared when the
# sixth game comes and goes: the games found, the message tables and the server's copy of
# them, the options schemas, and the research adapters.
CACHES = (("raceday.core.discovery", "game_packages"), ("raceday.present.messages", "table"),
          ("raceday.web.messages", "_body"), ("raceday.web.options_schema", "options_schema"),
          ("raceday.interop.adapters", "adapters"))


def _forget_games() -> None:
    """Clear every cache that remembers which games exist (in the modules loaded so far)."""
    from raceday.core import registry

    for module, function in CACHES:
        loaded = sys.modules.get(module)
        if loaded is not None:
            getattr(loaded, function).cache_clear()
    registry._GAMES.pop(GAME, None)
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


@contextmanager
def on_path(site: Path) -> Iterator[None]:
    """The sixth game importable and discovered in this process, and forgotten after (so
    the other tests still see raceday's own games only)."""
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    _forget_games()
    try:
        yield
    finally:
        sys.path.remove(str(site))
        importlib.invalidate_caches()
        _forget_games()


def play_a_room(db: Path, seed: int = 3, rounds: int = 2,
                names: tuple[str, ...] = ("Aki", "Ben")) -> str:
    """A room of the sixth game played to its end on the server's database ``db``, in
    this process, as the server would (a seat for each of ``names`` sealing a bet drawn
    from its choices, the host rolling); returns its code. Call it with the game on the
    path (:func:`on_path`)."""
    import numpy as np

    from raceday.rooms import Actor
    from raceday.web.rooms import Rooms

    rooms = Rooms(db)
    try:
        room, _ = rooms.create(GAME, {"rounds": rounds})
        for name in names:
            rooms.join(room.code, name)
        rooms.apply(room, Actor.host(), {"type": "start"})
        rng = np.random.default_rng(seed)
        for _ in range(10 * rounds):
            if room.logic.finished():
                return room.code
            for seat in range(len(names)):
                choices = (room.logic.view(Actor.player(seat)).get("me") or {}).get("choices")
                if choices:
                    choice = choices[int(rng.integers(len(choices)))]
                    rooms.apply(room, Actor.player(seat), {"type": "act",
                                                           "action": choice["action"]})
                    break
            else:
                rooms.apply(room, Actor.host(), {"type": "advance"})
        raise AssertionError("the sixth game's room did not end")
    finally:
        rooms.store.close()


def lesson_games_and_plugin() -> list[str]:
    """Every game that ships a lesson, the sixth game's included (it must be on the path)."""
    from raceday.core.lesson import lesson_games

    return sorted({*lesson_games(), GAME})
