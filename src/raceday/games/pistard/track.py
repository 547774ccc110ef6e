"""PISTARD tracks: four lanes of coloured squares around a loop, with a start/finish line.

The original board is a separate download we do not have; the default velodrome is our
completion (see docs/rules/pistard.md). A track is a grid of ``length`` columns (cross-sections)
by four lanes, lane 1 the inner lane. Every column holds each of the four colours exactly once,
so a rider in the outer lane can always use a 6 (he may drift inwards at no cost).

Tracks load from a small TOML file::

    name = "Our velodrome"
    line = 0                       # the line lies just before this column
    lanes = 4
    rows = [                       # one row per lane, inner lane first
      "YGBR...",
      ...
    ]

Letters: ``Y`` yellow, ``G`` green, ``B`` blue, ``R`` red (``O`` for orange is accepted and
read as red: the fourth die is "orange (or red)" in the material list and red in the examples).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from raceday.core.errors import InputFileError
from raceday.core.files import read_user_text

LANES = 4
COLOURS = ("yellow", "green", "blue", "red")
LETTERS = "YGBR"
LETTER_ALIASES = {"O": "R"}  # orange is the same die as red
MIN_LENGTH = 16
MAX_LENGTH = 400
SHIPPED_TRACKS = ("default", "short")


def colour_index(name: str) -> int:
    """The index (0..3) of a colour given by name or letter (``orange`` means red)."""
    key = name.strip().lower()
    if key in ("orange", "o"):
        return 3
    for i, colour in enumerate(COLOURS):
        if key in (colour, colour[0]):
            return i
    raise ValueError(f"unknown colour {name!r}; use yellow, green, blue or red (orange)")


@dataclass(frozen=True)
class Track:
    """A validated track: ``rows[lane - 1][column]`` is a colour index 0..3."""

    name: str
    rows: tuple[tuple[int, ...], ...]
    line: int = 0

    @property
    def length(self) -> int:
        """Columns in one lap."""
        return len(self.rows[0])

    @property
    def lanes(self) -> int:
        return len(self.rows)

    def colour(self, column: int, lane: int) -> int:
        """The colour index of the square at ``column`` (any integer, taken round the loop)
        relative to the line, in ``lane`` (1 = inner)."""
        return self.rows[lane - 1][(column + self.line) % self.length]

    @cached_property
    def grid(self) -> tuple[tuple[int, ...], ...]:
        """Colours by physical square: ``grid[lane][column]`` equals ``colour(column, lane)``
        for columns 0..length-1 (``grid[0]`` is empty: lanes count from 1). Built once per
        track, for move generation."""
        length = self.length
        return ((), *(tuple(row[(c + self.line) % length] for c in range(length))
                      for row in self.rows))

    def row_text(self, lane: int) -> str:
        return "".join(LETTERS[c] for c in self.rows[lane - 1])

    @cached_property
    def _row_texts(self) -> tuple[str, ...]:
        return tuple(self.row_text(lane) for lane in range(1, self.lanes + 1))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "line": self.line, "rows": list(self._row_texts)}


def track_from_mapping(data: Mapping[str, Any], where: str = "track") -> Track:
    """Build and validate a track from parsed TOML/JSON data.

    Raises :class:`InputFileError` naming the bad field, row, column or letter.
    """
    if not isinstance(data, Mapping):
        raise InputFileError(f"{where}: expected a table with name, line, lanes and rows")
    unknown = set(data) - {"name", "line", "lanes", "rows"}
    if unknown:
        raise InputFileError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; "
                             "allowed: name, line, lanes, rows")
    name = data.get("name", "unnamed track")
    if not isinstance(name, str) or not name.strip():
        raise InputFileError(f"{where}: 'name' must be a non-empty string")
    rows = data.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise InputFileError(f"{where}: 'rows' must be a list of strings, one per lane")
    lanes = data.get("lanes", LANES)
    if not isinstance(lanes, int) or isinstance(lanes, bool) or lanes != LANES:
        raise InputFileError(f"{where}: 'lanes' must be {LANES} (one lane per die colour), "
                             f"got {lanes!r}")
    if len(rows) != lanes:
        raise InputFileError(f"{where}: 'lanes' says {lanes} but {len(rows)} rows are given")
    parsed: list[tuple[int, ...]] = []
    for lane, raw in enumerate(rows, start=1):
        text = "".join(raw.split()).upper()
        cells: list[int] = []
        for column, letter in enumerate(text):
            letter = LETTER_ALIASES.get(letter, letter)
            if letter not in LETTERS:
                raise InputFileError(
                    f"{where}: row {lane} (lane {lane}) column {column}: bad colour "
                    f"{raw.replace(' ', '')[column]!r}; use Y, G, B, R (or O for orange)"
                )
            cells.append(LETTERS.index(letter))
        parsed.append(tuple(cells))
    length = len(parsed[0])
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise InputFileError(
            f"{where}: row 1 has {length} squares; a lap must have {MIN_LENGTH} to "
            f"{MAX_LENGTH}"
        )
    for lane, row in enumerate(parsed, start=1):
        if len(row) != length:
            raise InputFileError(
                f"{where}: row {lane} has {len(row)} squares but row 1 has {length}; "
                "every lane needs one square per column"
            )
    for column in range(length):
        seen = sorted(parsed[lane][column] for lane in range(lanes))
        if seen != list(range(LANES)):
            letters = "".join(LETTERS[parsed[lane][column]] for lane in range(lanes))
            missing = "".join(LETTERS[c] for c in range(LANES) if c not in seen)
            raise InputFileError(
                f"{where}: column {column} reads {letters} (lanes 1-4) and lacks {missing}; "
                "every column must hold each colour exactly once"
            )
    line = data.get("line", 0)
    if not isinstance(line, int) or isinstance(line, bool) or not 0 <= line < length:
        raise InputFileError(f"{where}: 'line' must be a column 0 to {length - 1}, got {line!r}")
    return Track(name=name.strip(), rows=tuple(parsed), line=line)


MAX_FILE_BYTES = 1_000_000  # a track file is a few hundred bytes; more is not a track


def parse_track_text(text: str, where: str = "track file") -> Track:
    """Parse and validate TOML track text."""
    if not text.strip():
        raise InputFileError(f"{where}: the file is empty; a track needs name, line, lanes "
                             "and rows")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise InputFileError(f"{where}: arrays or tables are nested too deeply to be a track "
                             "(a track is four rows of letters)") from None
    return track_from_mapping(data, where)


def load_track(name_or_path: str) -> Track:
    """A shipped track by name (``default``, ``short``) or a TOML file by path.

    A file is read only up to :data:`MAX_FILE_BYTES`, through
    :func:`raceday.core.files.read_user_text` (only a regular file is opened: never a pipe,
    device or directory); anything that is not a readable, UTF-8, valid track gives
    :class:`InputFileError` naming the file and the problem.
    """
    if name_or_path in SHIPPED_TRACKS:
        return _shipped_track(name_or_path)
    if not name_or_path.strip():
        raise InputFileError("track: give a shipped track "
                             f"({', '.join(SHIPPED_TRACKS)}) or a TOML file, not an empty text")
    path = Path(name_or_path)
    if path.is_dir():
        raise InputFileError(f"track {name_or_path!r} is a directory; give a TOML file")
    if not path.exists():
        raise InputFileError(
            f"track {name_or_path!r} is neither a shipped track "
            f"({', '.join(SHIPPED_TRACKS)}) nor a readable file"
        )
    text = read_user_text(path, kind="track", max_bytes=MAX_FILE_BYTES)
    return parse_track_text(text, str(path))


@cache
def _shipped_track(name: str) -> Track:
    """A shipped track, read once (a track is immutable, so every race may share it)."""
    ref = resources.files("raceday.games.pistard") / "data" / f"{name}.toml"
    return parse_track_text(ref.read_text(encoding="utf-8"), f"track {name!r}")


def default_track() -> Track:
    """The default velodrome (cached)."""
    return _shipped_track("default")


# --- how the default velodrome was designed -----------------------------------------------
# Squares the rule text's examples pin down, as (column offset, lane, colour, must_equal).
# Examples 1-3: rider 33 in lane 3 at offset 0 with 5 green, 4 yellow, 3 blue, 1 red.
EXAMPLE_WINDOW: tuple[tuple[int, int, str, bool], ...] = (
    (5, 3, "green", True),  # (a) 5 straight ahead is green
    (4, 3, "yellow", True),  # (b) 4 straight ahead is yellow
    (3, 2, "blue", True),  # (c) 3 blue, one lane inwards
    (3, 4, "yellow", True),  # (d) 4 yellow, one lane outwards (2 pips) + 2 ahead
    (1, 3, "red", False),  # the red 1 is useless
    (1, 2, "red", False),
    (2, 4, "blue", False),  # 3 blue outwards would give (2, 4)
    (4, 4, "green", False),  # 5 green outwards would give (4, 4)
)
# Tactics example: rider 22 in lane 1 and rider 33 in lane 4 level at offset 0; 22's four
# squares for a 6 are red or yellow; 33's yellow 6 is straight ahead in lane 4.
TACTICS_WINDOW: tuple[tuple[int, int, str, bool], ...] = (
    (6, 1, "red", True),
    (5, 2, "yellow", True),
    (4, 3, "red", True),
    (3, 4, "yellow", True),
    (6, 4, "yellow", True),
)


def design_track(
    length: int,
    seed: int,
    windows: Sequence[tuple[int, Sequence[tuple[int, int, str, bool]]]] = (),
    name: str = "designed track",
    max_tries: int = 200,
) -> Track:
    """A balanced random track: each column a permutation of the colours, each lane holding
    each colour ``length / 4`` times, no colour twice in a row along a lane, and the given
    example ``windows`` (start column, constraints) embedded. Deterministic for a seed."""
    if length % LANES:
        raise ValueError("the lap length must be a multiple of 4 so lanes can be balanced")
    rng = np.random.default_rng(seed)
    perms = [p for p in _permutations(list(range(LANES)))]
    fixed: dict[tuple[int, int], int] = {}
    banned: dict[tuple[int, int], set[int]] = {}
    for start, constraints in windows:
        for off, lane, colour, equal in constraints:
            key = ((start + off) % length, lane)
            if equal:
                fixed[key] = colour_index(colour)
            else:
                banned.setdefault(key, set()).add(colour_index(colour))

    def allowed(column: int, perm: tuple[int, ...]) -> bool:
        for lane in range(1, LANES + 1):
            c = perm[lane - 1]
            if (column, lane) in fixed and fixed[(column, lane)] != c:
                return False
            if c in banned.get((column, lane), ()):
                return False
        return True

    choices = [[p for p in perms if allowed(col, p)] for col in range(length)]
    target = length // LANES
    for _ in range(max_tries):
        cols = [choices[c][int(rng.integers(len(choices[c])))] for c in range(length)]
        for _sweep in range(400):
            bad = _badness(cols, target)
            if bad == 0:
                rows = tuple(tuple(cols[c][lane] for c in range(length)) for lane in range(LANES))
                return Track(name=name, rows=rows, line=0)
            col = int(rng.integers(length))
            best = cols[col]
            best_bad = bad
            for p in choices[col]:
                cols[col] = p
                b = _badness(cols, target)
                if b < best_bad or (b == best_bad and rng.random() < 0.3):
                    best, best_bad = p, b
            cols[col] = best
    raise RuntimeError("no balanced track found; try another seed")


def _permutations(items: list[int]) -> list[tuple[int, ...]]:
    if len(items) <= 1:
        return [tuple(items)]
    out: list[tuple[int, ...]] = []
    for i, x in enumerate(items):
        for rest in _permutations(items[:i] + items[i + 1:]):
            out.append((x, *rest))
    return out


def _badness(cols: Sequence[tuple[int, ...]], target: int) -> int:
    """How far a grid is from balanced lanes without repeated colours along a lane."""
    length = len(cols)
    bad = 0
    for lane in range(LANES):
        counts = [0] * LANES
        for c in range(length):
            colour = cols[c][lane]
            counts[colour] += 1
            if cols[(c + 1) % length][lane] == colour:
                bad += 4
        bad += sum(abs(n - target) for n in counts)
    return bad
