"""Shared vocabulary of WielerSIM: rider types, their colours, road types, file errors."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from raceday.core.errors import InputFileError
from raceday.core.files import read_user_text

LEADER, CLIMBER, SPRINTER, HELPER = 0, 1, 2, 3
EMPTY = -1  # a free square of the road (rider ids are 0 and up)
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
MAX_FILE_BYTES = 1_000_000  # route, peloton and stage-race files: far beyond any real one


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


def read_input_file(path: str | Path, what: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a user's ``what`` file (route, peloton, stage race, track), at most
    ``max_bytes``, read through :func:`raceday.core.files.read_user_text`: only a regular
    file is opened (never a pipe, device or directory); every problem is an
    :class:`InputFileError` naming the file."""
    return read_user_text(path, kind=what, max_bytes=max_bytes)


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML text as a table; syntax errors and absurd nesting name the file."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise InputFileError(f"{where}: not valid TOML: tables or arrays nested too "
                             "deeply") from None
