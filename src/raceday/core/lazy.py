"""Names a package exports, imported from their modules on first use.

A package's ``__init__`` stays light (``raceday keirin odds`` starts without the rules,
numpy or pydantic; ``raceday --help`` without the engine) while ``from raceday.games.keirin
import GAME`` still works: ``__getattr__ = lazy_exports(__name__, {"GAME": "game"})``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name of ``homes`` (name -> the
    submodule defining it) is imported from there when first asked for, then kept."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
