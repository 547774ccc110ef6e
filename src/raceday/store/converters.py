"""Each game's reader of the saves it made before records, found without a list of games.

A game package may carry a module ``record_convert`` with a function
``convert(document) -> Record``: the record a session document saved before records
stands for (the old state as the record's ``Start``, see :mod:`raceday.store.records`).
It is optional: a game whose saves were always records has none, and a plugin needs none.
"""

from __future__ import annotations

from raceday.core.discovery import face
from raceday.store.records import Converter

MODULE = "record_convert"


def record_converter(game: str) -> Converter | None:
    """The converter of ``game``'s saves made before records (its package's
    ``record_convert.convert``), or None where the game has none. ``game`` is the game's
    name as the store keeps it (``derby``, not ``derby_evening``)."""
    module = face(game.split("_", 1)[0], MODULE)
    convert = getattr(module, "convert", None) if module is not None else None
    return convert if callable(convert) else None


__all__ = ["MODULE", "record_converter"]
