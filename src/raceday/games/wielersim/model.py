"""Shared vocabulary of WielerSIM: rider types, their colours, road types, file errors."""

from __future__ import annotations

import re

from raceday.core.errors import InputFileError

LEADER, CLIMBER, SPRINTER, HELPER = 0, 1, 2, 3
RIDER_TYPES = ("leader", "climber", "sprinter", "helper")
TYPE_COLOURS = ("yellow", "red", "green", "blue")

FLAT, UPHILL, COBBLES = 0, 1, 2
ROAD_TYPES = ("flat", "uphill", "cobbles")

ROAD_WIDTH = 6  # squares abreast on an ordinary road
COBBLE_WIDTH = 4  # cobblestone track parts are four squares wide

CATEGORIES = ("HC", "1", "2", "3")
CATEGORY_MAX_STEEPNESS = {"HC": 6, "1": 5, "2": 4, "3": 3}
MAX_STEEPNESS = 6
MAX_ROUGHNESS = 4
MIN_CLIMB_LENGTH = 12  # a shorter climb could be jumped by a single throw of 12


def rider_type_index(text: object) -> int | None:
    """The rider type named by ``text`` (a type name or its colour), else None."""
    if not isinstance(text, str):
        return None
    word = text.strip().lower()
    if word in RIDER_TYPES:
        return RIDER_TYPES.index(word)
    if word in TYPE_COLOURS:
        return TYPE_COLOURS.index(word)
    return None


def allowed_types() -> str:
    return ", ".join(f"{t} ({c})" for t, c in zip(RIDER_TYPES, TYPE_COLOURS, strict=True))


class FileProblem:
    """Builds :class:`InputFileError` messages naming the file, the line and the field."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def line_of_table(self, table: str, index: int) -> int | None:
        """The 1-based line of the ``index``-th ``[[table]]`` header (0-based index)."""
        pattern = re.compile(r"^\s*\[\[\s*" + re.escape(table) + r"\s*\]\]")
        seen = -1
        for n, line in enumerate(self.lines, start=1):
            if pattern.match(line):
                seen += 1
                if seen == index:
                    return n
        return None

    def line_of_key(self, key: str, after: int | None = None) -> int | None:
        """The first line at or after ``after`` that assigns ``key``."""
        pattern = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        start = (after or 1) - 1
        for n in range(start, len(self.lines)):
            if pattern.match(self.lines[n]):
                return n + 1
            if after is not None and n > start and self.lines[n].lstrip().startswith("["):
                break
        return after

    def error(self, line: int | None, field: str, message: str) -> InputFileError:
        where = f"{self.path}:{line}" if line else self.path
        return InputFileError(f"{where}: field {field!r}: {message}")
