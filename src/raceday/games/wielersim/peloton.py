"""Pelotons: teams of three or four riders, each a leader, climber, sprinter or helper.

A peloton file is CSV (``team,number,name,type`` plus optional ``colour``, ``jersey`` and
rating columns ``climb``, ``cobbles``, ``sprint``) or TOML (``[[teams]]`` with
``[[teams.riders]]``, and ``jersey = NUMBER``). Both are validated with messages naming
the file, line and field.

Ratings are our extension (docs/rules/wielersim.md, "Rider ratings"): whole numbers from
1 to 9 per rider (5 when a rated file leaves one out). What counts in a race is a rider's
*edge*: his rating less the field's lower median, kept within -2..+2, so a field of equal
ratings rides exactly by the text's rules.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from rich.color import Color, ColorParseError

from raceday.core.digits import ascii_int
from raceday.core.errors import InputFileError
from raceday.games.wielersim.model import (
    RIDER_TYPES,
    FileProblem,
    allowed_types,
    parse_toml,
    read_input_file,
    rider_type_index,
)

MIN_RIDERS = 2
MAX_RIDERS = 48
TEAM_SIZES = (3, 4)
TEAM_COLOURS = ("red", "blue", "green", "yellow", "magenta", "cyan", "white", "bright_red",
                "bright_blue", "bright_green", "bright_yellow", "bright_magenta")
SHIPPED_PELOTONS = ("classics", "small")
START_LISTS = ("flanders", "ardennes", "ronde-van-belgie")
"""Sample start lists of the shipped classics and stage race (rated riders)."""
RATINGS = ("climb", "cobbles", "sprint")
MIN_RATING, MAX_RATING, ORDINARY_RATING = 1, 9, 5
MAX_EDGE = 2  # an edge (rating less the field's median) counts at most this much


def rating_edges(ratings: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...] | None:
    """Per rider, his edge in every rating: the rating less the field's lower median,
    within -:data:`MAX_EDGE`..+:data:`MAX_EDGE`; None when every edge is 0 (equal
    ratings, or none): the race then follows the text's rules to the letter."""
    if not ratings:
        return None
    medians = [statistics.median_low(col) for col in zip(*ratings, strict=True)]
    edges = tuple(tuple(max(-MAX_EDGE, min(MAX_EDGE, v - m)) for v, m in
                        zip(row, medians, strict=True)) for row in ratings)
    return edges if any(any(e) for e in edges) else None


@dataclass(frozen=True)
class Rider:
    """One rider: bib number, name, type index and team index."""

    number: int
    name: str
    kind: int
    team: int
    ratings: tuple[int, ...] | None = None  # climb, cobbles, sprint (our extension)

    @property
    def type_name(self) -> str:
        return RIDER_TYPES[self.kind]


@dataclass(frozen=True)
class Peloton:
    """The riders of a race (in file order), their teams and the jersey holder."""

    riders: tuple[Rider, ...]
    teams: tuple[str, ...]
    team_colours: tuple[str, ...]
    jersey: int | None  # rider number
    edges: tuple[tuple[int, ...], ...] | None = None  # per rider: climb, cobbles, sprint

    @property
    def rated(self) -> bool:
        return any(r.ratings is not None for r in self.riders)

    def index_of(self, number: int) -> int:
        for i, r in enumerate(self.riders):
            if r.number == number:
                return i
        raise KeyError(number)


def peloton_from_spec(spec: Mapping[str, Any]) -> Peloton:
    """Build a :class:`Peloton` from a normalised specification."""
    riders = tuple(Rider(int(r["number"]), str(r["name"]), RIDER_TYPES.index(r["type"]),
                         int(r["team"]), _ratings_of(r.get("ratings")))
                   for r in spec["riders"])
    edges = None
    if any(r.ratings is not None for r in riders):
        edges = rating_edges([r.ratings or (ORDINARY_RATING,) * len(RATINGS) for r in riders])
    return Peloton(riders, tuple(t["name"] for t in spec["teams"]),
                   tuple(t["colour"] for t in spec["teams"]), spec["jersey"], edges)


def _ratings_of(raw: Any) -> tuple[int, ...] | None:
    """A rider's ratings from a normalised specification (ValueError if malformed)."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) - set(RATINGS):
        raise ValueError(f"ratings must be a table of {', '.join(RATINGS)}")
    values = tuple(raw.get(k, ORDINARY_RATING) for k in RATINGS)
    if any(not isinstance(v, int) or isinstance(v, bool) or not MIN_RATING <= v <= MAX_RATING
           for v in values):
        raise ValueError(f"ratings are whole numbers from {MIN_RATING} to {MAX_RATING}")
    return values


def strip_ratings(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The peloton without its ratings (the extension switched off)."""
    return {**spec, "riders": [{k: v for k, v in r.items() if k != "ratings"}
                               for r in spec["riders"]]}


def load_peloton_file(path: str | Path) -> dict[str, Any]:
    file = Path(path)
    text = read_input_file(file, "peloton")
    if file.suffix.lower() == ".toml":
        return parse_peloton_toml(text, str(file))
    return parse_peloton_csv(text, str(file))


def parse_peloton_csv(text: str, where: str = "<peloton>") -> dict[str, Any]:
    """Validate a CSV peloton (header ``team,number,name,type[,colour][,jersey]``).

    Rows are checked as they are read: the first bad row stops the reading with its line
    number, and so does the first row beyond :data:`MAX_RIDERS` riders.
    """
    pb = FileProblem(where, text)
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
        needed = ["team", "number", "name", "type"]
        missing = [h for h in needed if h not in header]
        if missing:
            raise pb.error(1, missing[0], "the header line must name the columns "
                           "team,number,name,type (optional: colour, jersey, climb, "
                           "cobbles, sprint)")
        rated = [k for k in RATINGS if k in header]
        teams: list[dict[str, Any]] = []
        riders: list[tuple[int, dict[str, Any]]] = []
        numbers: set[int] = set()
        jersey: int | None = None
        for row in reader:
            line_no = reader.line_num
            if row.get(None):
                raise pb.error(line_no, "columns", f"more fields than the header's "
                               f"{len(header)}")
            clean = {(k or "").strip().lower(): v.strip() if isinstance(v, str) else ""
                     for k, v in row.items()}
            if not any(clean.values()):
                continue
            team_name = clean["team"]
            if not team_name:
                raise pb.error(line_no, "team", "each rider needs a team name")
            names = [t["name"] for t in teams]
            if team_name not in names:
                teams.append({"name": team_name, "colour": clean.get("colour") or "",
                              "line": line_no})
                names.append(team_name)
            rider = _rider(line_no, {"number": clean["number"], "name": clean["name"],
                                     "type": clean["type"], "team": names.index(team_name)},
                           numbers, pb)
            if rated:
                rider["ratings"] = _rating_values(line_no, {k: clean[k] for k in rated}, pb)
            riders.append((line_no, rider))
            if len(riders) > MAX_RIDERS:
                raise pb.error(line_no, "riders", f"a peloton has at most {MAX_RIDERS} "
                               "riders (about 40 is best); this is one more")
            flag = clean.get("jersey", "").lower()
            if flag in ("1", "yes", "y", "true", "x"):
                if jersey is not None:
                    raise pb.error(line_no, "jersey", "only one rider can wear the leader's "
                                   "jersey")
                jersey = rider["number"]
            elif flag not in ("", "0", "no", "n", "false"):
                raise pb.error(line_no, "jersey", "must be yes/no (or 1/0), for the jersey "
                               "holder")
    except csv.Error as exc:
        # the DictReader's line_num moves only after a row was read: the row that could
        # not be read is on the underlying reader's line
        raise pb.error(reader.reader.line_num or None, "csv", f"not a readable CSV file: "
                       f"{exc}") from None
    return _normalise(teams, riders, jersey, pb, None)


def parse_peloton_toml(text: str, where: str = "<peloton>") -> dict[str, Any]:
    """Validate a TOML peloton (``[[teams]]`` tables with ``[[teams.riders]]``)."""
    pb = FileProblem(where, text)
    data = parse_toml(text, where)
    raw_teams = data.get("teams")
    if not isinstance(raw_teams, list) or not raw_teams:
        raise pb.error(None, "teams", "the peloton needs [[teams]] tables")
    teams: list[dict[str, Any]] = []
    rows: list[tuple[int, dict[str, Any]]] = []
    numbers: set[int] = set()
    rider_counter = 0
    for ti, team in enumerate(raw_teams):
        line = pb.line_of_table("teams", ti)
        if not isinstance(team, Mapping) or not isinstance(team.get("name"), str):
            raise pb.error(line, f"teams[{ti}].name", "each team needs a name")
        colour = team.get("colour", "")
        teams.append({"name": team["name"], "colour": str(colour), "line": line})
        riders = team.get("riders")
        if not isinstance(riders, list):
            raise pb.error(line, f"teams[{ti}].riders", "each team lists its [[teams.riders]]")
        for raw in riders:
            rline = pb.line_of_table("teams.riders", rider_counter) or line or 0
            rider_counter += 1
            if not isinstance(raw, Mapping):
                raise pb.error(rline, f"teams[{ti}].riders", "each rider must be a table")
            rider = _rider(rline, {"number": raw.get("number"), "name": raw.get("name"),
                                   "type": raw.get("type"), "team": ti}, numbers, pb)
            given = {k: raw[k] for k in RATINGS if k in raw}
            if given:
                rider["ratings"] = _rating_values(rline, given, pb)
            rows.append((rline, rider))
            if len(rows) > MAX_RIDERS:
                raise pb.error(rline, "riders", f"a peloton has at most {MAX_RIDERS} "
                               "riders (about 40 is best); this is one more")
    jersey = data.get("jersey")
    if jersey is not None and (not isinstance(jersey, int) or isinstance(jersey, bool)):
        raise pb.error(pb.line_of_key("jersey"), "jersey", "must be a rider number")
    return _normalise(teams, rows, jersey, pb, pb.line_of_key("jersey"))


def _rider(line: int, raw: dict[str, Any], numbers: set[int], pb: FileProblem
           ) -> dict[str, Any]:
    """One rider row checked (number, name, type); ``numbers`` collects the numbers seen."""
    number = raw["number"]
    if isinstance(number, str):  # a CSV cell: ASCII digits only (not ³, ٣ or 1_000)
        number = ascii_int(number, max_digits=3)
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 999:
        raise pb.error(line, "number", f"must be a whole number from 1 to 999; got "
                       f"{_short(raw['number'])}")
    if number in numbers:
        raise pb.error(line, "number", f"rider number {number} is used twice")
    numbers.add(number)
    name = raw["name"]
    if not isinstance(name, str) or not name.strip():
        raise pb.error(line, "name", "each rider needs a name")
    kind = rider_type_index(raw["type"])
    if kind is None:
        raise pb.error(line, "type", f"unknown rider type {_short(raw['type'])}; allowed: "
                       f"{allowed_types()}")
    return {"number": number, "name": name.strip(), "type": RIDER_TYPES[kind],
            "team": raw["team"]}


def _rating_values(line: int, raw: Mapping[str, Any], pb: FileProblem) -> dict[str, int]:
    """A rider's ratings checked (whole numbers 1-9; an empty CSV cell is ordinary, 5)."""
    out: dict[str, int] = {}
    for key in RATINGS:
        value = raw.get(key, "")
        if value == "":
            value = ORDINARY_RATING
        elif isinstance(value, str):  # a CSV cell: ASCII digits only
            value = ascii_int(value, max_digits=1)
        if not isinstance(value, int) or isinstance(value, bool) or \
                not MIN_RATING <= value <= MAX_RATING:
            raise pb.error(line, key, f"a rating is a whole number from {MIN_RATING} to "
                           f"{MAX_RATING} ({ORDINARY_RATING} is ordinary); got "
                           f"{_short(raw.get(key))}")
        out[key] = value
    return out


def _short(value: object) -> str:
    text = repr(value) if isinstance(value, str | int | float | type(None)) else \
        f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def _normalise(teams: list[dict[str, Any]], rows: list[tuple[int, dict[str, Any]]],
               jersey: int | None, pb: FileProblem, jersey_line: int | None) -> dict[str, Any]:
    riders = [rider for _, rider in rows]
    numbers = {r["number"] for r in riders}
    if not MIN_RIDERS <= len(riders) <= MAX_RIDERS:
        raise pb.error(None, "riders", f"a peloton has {MIN_RIDERS} to {MAX_RIDERS} riders "
                       f"(about 40 is best); got {len(riders)}")
    for ti, team in enumerate(teams):
        members = [r for r in riders if r["team"] == ti]
        if len(members) not in TEAM_SIZES:
            raise pb.error(team["line"], "team", f"team {team['name']!r} has {len(members)} "
                           "riders; a team has 3 (leader, sprinter, helper) or 4 (plus a climber)")
        types = [r["type"] for r in members]
        if len(set(types)) != len(types):
            raise pb.error(team["line"], "type", f"team {team['name']!r} has two riders of the "
                           "same type; a team has one leader, sprinter, helper (and climber)")
    if jersey is not None and jersey not in numbers:
        raise pb.error(jersey_line, "jersey", f"rider {jersey} is not in the peloton")
    out_teams = []
    for ti, team in enumerate(teams):
        colour = team["colour"] or TEAM_COLOURS[ti % len(TEAM_COLOURS)]
        try:
            Color.parse(colour)
        except ColorParseError:
            raise pb.error(team["line"], "colour", f"{colour!r} is not a colour name; use e.g. "
                           "red, blue, bright_green or #ff8800") from None
        out_teams.append({"name": team["name"], "colour": colour})
    return {"teams": out_teams, "riders": riders, "jersey": jersey}


def shipped_peloton(name: str) -> dict[str, Any]:
    """A shipped peloton or start list, normalised (a fresh copy: callers may change it)."""
    if name not in SHIPPED_PELOTONS + START_LISTS:
        raise InputFileError(f"no shipped peloton {name!r}; shipped: "
                             f"{', '.join(SHIPPED_PELOTONS + START_LISTS)}")
    return json.loads(_shipped_peloton_json(name))  # type: ignore[no-any-return]


@lru_cache(maxsize=len(SHIPPED_PELOTONS) + len(START_LISTS))
def _shipped_peloton_json(name: str) -> str:
    folder = "pelotons" if name in SHIPPED_PELOTONS else "startlists"
    text = (resources.files("raceday.games.wielersim") / "data" / folder / f"{name}.csv"
            ).read_text(encoding="utf-8")
    return json.dumps(parse_peloton_csv(text, f"{folder}/{name}.csv"))


def resolve_peloton(arg: str) -> dict[str, Any]:
    """A peloton from a file path, or a shipped peloton or start list by name."""
    if arg in SHIPPED_PELOTONS + START_LISTS and not Path(arg).exists():
        return shipped_peloton(arg)
    return load_peloton_file(arg)
