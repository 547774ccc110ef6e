"""Routes from real tracks: a GPX file (gpxpy) or a CSV of distance, elevation and surface,
mapped onto the text's terrain (our mapping; docs/rules/wielersim.md, "Imported routes"). A point's
surface holds from it to the next point.

The track is cut into ``squares`` equal stretches (default: one square per kilometre,
within the route limits). Each square's gradient is its rise over its length. Then:

- a run of squares of at least :data:`CLIMB_GRADIENT` % that gains at least
  :data:`MIN_CLIMB_GAIN` metres is a climb (red, uphill); its category comes from its gain
  times its mean gradient (:data:`CATEGORY_SCORES`), its top steepness from its steepest
  square (half its gradient in %, rounded up, 1 to 6); a climb shorter than the text's 12
  squares starts earlier (runs that would overlap merge; one too near the start is flat);
- other squares on cobbles (CSV ``surface``, GPX point ``type``) are cobbles (yellow);
- the rest is flat: blue, green in the last :data:`FINISH_SPRINT` squares before a flat
  finish and the :data:`SPRINT_LEAD` squares before an intermediate sprint;
- the finish is uphill when a climb ends on the line; the hierarchy is climber first when
  a climb is HC or 1st category, leader first on a route with cobbles, else sprinter first.
"""

from __future__ import annotations

import bisect
import csv
import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from raceday.core.errors import InputFileError
from raceday.games.wielersim.model import (
    MAX_STEEPNESS,
    MIN_CLIMB_LENGTH,
    FileProblem,
    read_input_file,
)
from raceday.games.wielersim.route import MAX_DISTANCE, MIN_DISTANCE, normalise_route

CLIMB_GRADIENT = 3.0  # % : a square at least this steep climbs
MIN_CLIMB_GAIN = 25.0  # m : a smaller rise is a bump, ridden as flat road
CATEGORY_SCORES = (("HC", 8000.0), ("1", 4500.0), ("2", 2000.0), ("3", 600.0))
"""Gain (m) times mean gradient (%) needed for each category (below the last: none)."""
FINISH_SPRINT = 20  # squares of green road before a flat finish
SPRINT_LEAD = 10  # squares of green road before an intermediate sprint
COBBLE_WORDS = ("cobbles", "cobble", "cobblestones", "kasseien", "pave", "pavé", "setts")
PAVED_WORDS = ("", "paved", "asphalt", "road", "tarmac", "flat")
"""The surfaces a track may name (any case): the game has paved road and cobbles only, so
any other word (gravel, dirt, ...) is refused rather than quietly ridden as flat road."""
MAX_POINTS = 200_000
MAX_SPRINT_WAYPOINTS = 50  # waypoints named "sprint": far more than a route has sprints
MAX_TRACK_BYTES = 5_000_000  # a 300 km GPX with a point every 10 m is about 4 MB
MAX_TRACK_KM = 500.0
"""The longest track: a stage or classic of today is at most about 300 km, and the longest
Tour de France stage ever ridden (1919) was 482 km."""
MIN_ELEVATION, MAX_ELEVATION = -500.0, 9000.0
"""Metres above sea level a road can be at: the Dead Sea shore is at -430 m, Everest's top
at 8,849 m."""
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


@dataclass(frozen=True)
class Point:
    """One point of a track: kilometres from the start, metres above sea level."""

    km: float
    elevation: float
    cobbles: bool = False
    sprint: bool = False
    name: str = ""


def read_track(path: str | Path) -> list[Point]:
    """The points of a ``.gpx`` or ``.csv`` track, checked (errors name file, line, field)."""
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in (".gpx", ".csv"):
        raise InputFileError(f"{file}: a track must be a .gpx or .csv file")
    text = read_input_file(file, "track", MAX_TRACK_BYTES)
    points = parse_gpx(text, str(file)) if suffix == ".gpx" else parse_track_csv(text, str(file))
    return points


def parse_track_csv(text: str, where: str = "<track>") -> list[Point]:
    """A CSV track: ``distance_km,elevation_m`` and optional ``surface`` (paved/cobbles),
    ``sprint`` (yes on the point of an intermediate sprint) and ``name`` columns."""
    pb = FileProblem(where, text)
    reader = csv.DictReader(io.StringIO(text))
    points: list[Point] = []
    try:
        header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
        for needed in ("distance_km", "elevation_m"):
            if needed not in header:
                raise pb.error(1, needed, "the header line must name the columns "
                               "distance_km,elevation_m (optional: surface, sprint, name)")
        for row in reader:
            line = reader.line_num
            if row.get(None):
                raise pb.error(line, "columns", "more fields than the header has")
            clean = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
            if not any(clean.values()):
                continue
            km = _number(clean["distance_km"], line, "distance_km", pb)
            ele = _number(clean["elevation_m"], line, "elevation_m", pb)
            if not 0 <= km <= MAX_TRACK_KM:
                raise pb.error(line, "distance_km", f"{km:g} km is outside 0 to "
                               f"{MAX_TRACK_KM:g} km (a track is at most {MAX_TRACK_KM:g} km)")
            if not MIN_ELEVATION <= ele <= MAX_ELEVATION:
                raise pb.error(line, "elevation_m", f"{ele:g} m is outside {_ELEVATIONS}")
            if points and km <= points[-1].km:
                raise pb.error(line, "distance_km", "distances must increase from row to row")
            surface = clean.get("surface", "")
            cobbles = _surface_is_cobbles(surface)
            if cobbles is None:
                raise pb.error(line, "surface", _unknown_surface(surface))
            sprint = clean.get("sprint", "").lower()
            if sprint not in ("", "0", "no", "n", "false", "1", "yes", "y", "true", "x"):
                raise pb.error(line, "sprint", "must be yes/no (or 1/0)")
            points.append(Point(km, ele, cobbles,
                                sprint in ("1", "yes", "y", "true", "x"), clean.get("name", "")))
            if len(points) > MAX_POINTS:
                raise pb.error(line, "rows", f"a track has at most {MAX_POINTS:,} points")
    except csv.Error as exc:
        # the DictReader's line_num moves only after a row was read: the row that could
        # not be read is on the underlying reader's line
        raise pb.error(reader.reader.line_num or None, "csv", f"not a readable CSV file: "
                       f"{exc}") from None
    _enough(points, where)
    return points


_ELEVATIONS = f"{MIN_ELEVATION:g} to {MAX_ELEVATION:,g} m"


def _surface_is_cobbles(word: str) -> bool | None:
    """True for a cobbles word, False for paved road (or no word), None for anything else."""
    word = word.strip().lower()
    if word in COBBLE_WORDS:
        return True
    return False if word in PAVED_WORDS else None


def _unknown_surface(word: str) -> str:
    shown = word if len(word) <= 40 else word[:37] + "..."
    return (f"unknown surface {shown!r}; the game knows paved road (paved, asphalt, road, "
            f"tarmac, flat or nothing) and cobbles ({', '.join(COBBLE_WORDS)})")


def _number(text: str, line: int, field: str, pb: FileProblem) -> float:
    """A decimal number in ASCII digits (no nan, inf, 1_000 or other scripts' digits)."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    if not _NUMBER.fullmatch(text):
        raise pb.error(line, field, f"must be a number, got {shown!r}")
    value = float(text)
    if not math.isfinite(value):
        raise pb.error(line, field, f"must be a finite number, got {shown!r}")
    return value


def _enough(points: Sequence[Point], where: str) -> None:
    if len(points) < 2:
        raise InputFileError(f"{where}: a track needs at least two points")
    if points[-1].km - points[0].km < 1:
        raise InputFileError(f"{where}: the track is shorter than 1 km")
    if points[-1].km - points[0].km > MAX_TRACK_KM:
        raise InputFileError(f"{where}: the track is {points[-1].km - points[0].km:,.1f} km "
                             f"long; a track is at most {MAX_TRACK_KM:g} km")


def parse_gpx(text: str, where: str = "<track>") -> list[Point]:
    """A GPX track (its tracks' points, else its routes' points): distances along the
    ground, elevations from ``<ele>``; a point whose ``<type>`` or ``<name>`` says cobbles is
    on cobbles; a waypoint named ``sprint`` (any case) marks the nearest point's sprint."""
    import gpxpy
    import gpxpy.gpx

    try:
        gpx = gpxpy.parse(text)
    except (gpxpy.gpx.GPXException, ValueError) as exc:
        said = str(exc).splitlines()[0] if str(exc) else repr(exc)
        raise InputFileError(f"{where}: not a readable GPX file: "
                             f"{_gpx_problem(text, said)}") from None
    raw: list[tuple[str, Any]] = [
        (f"point {k} (track {t}, segment {g})", p)
        for t, track in enumerate(gpx.tracks, start=1)
        for g, segment in enumerate(track.segments, start=1)
        for k, p in enumerate(segment.points, start=1)]
    if not raw:
        raw = [(f"route point {k} (route {r})", p) for r, route in enumerate(gpx.routes, start=1)
               for k, p in enumerate(route.points, start=1)]
    if len(raw) > MAX_POINTS:
        raise InputFileError(f"{where}: a track has at most {MAX_POINTS:,} points")
    sprints = [(f"waypoint {k} ({_short(w.name or '')})", w)
               for k, w in enumerate(gpx.waypoints, start=1) if "sprint" in (w.name or "").lower()]
    if len(sprints) > MAX_SPRINT_WAYPOINTS:
        raise InputFileError(f"{where}: {len(sprints):,} waypoints are named sprint; a track "
                             f"has at most {MAX_SPRINT_WAYPOINTS}")
    points: list[Point] = []
    along: list[float] = []  # km from the start of every raw point
    km = 0.0
    previous = None
    for label, p in raw:
        _check_place(label, p, where)
        if p.elevation is None:
            raise InputFileError(f"{where}: {label}: no elevation (<ele>); every track point "
                                 "needs one")
        if not MIN_ELEVATION <= p.elevation <= MAX_ELEVATION:  # NaN fails this too
            raise InputFileError(f"{where}: {label}: elevation {p.elevation:g} m is outside "
                                 f"{_ELEVATIONS}")
        cobbles = _surface_is_cobbles(p.type or "")
        if cobbles is None:
            raise InputFileError(f"{where}: {label}: <type>: {_unknown_surface(p.type)}")
        if previous is not None:
            km += (p.distance_2d(previous) or 0.0) / 1000
            if km > MAX_TRACK_KM:
                raise InputFileError(f"{where}: {label} is {km:,.1f} km along the track; a "
                                     f"track is at most {MAX_TRACK_KM:g} km")
        previous = p
        along.append(km)
        if points and km <= points[-1].km:
            continue  # a repeated position adds no road
        named_cobbles = any(w in (p.name or "").lower().split() for w in COBBLE_WORDS)
        points.append(Point(km, float(p.elevation), cobbles or named_cobbles, False,
                            p.name or ""))
    for label, w in sprints:
        _check_place(label, w, where)
        if not points:
            break
        nearest = min(range(len(raw)), key=lambda i: raw[i][1].distance_2d(w) or 0.0)
        at = min(range(len(points)), key=lambda i: abs(points[i].km - along[nearest]))
        points[at] = Point(points[at].km, points[at].elevation, points[at].cobbles, True,
                           points[at].name or (w.name or ""))
    _enough(points, where)
    return points


_GPX_NOT_A_NUMBER = re.compile(r"Invalid value for .*?\.\.\. (?P<value>.*) \(could not "
                               r"convert string to (?P<kind>\w+)")


def _gpx_problem(text: str, said: str) -> str:
    """What gpxpy found wrong, in words that name the place in the file: its "Invalid
    value for <None>... abc (could not convert string to float: 'abc')" becomes
    "line 3: lat is 'abc', not a number"; other problems as gpxpy words them."""
    found = _GPX_NOT_A_NUMBER.match(said)
    if found is None:
        return said
    value = found["value"]
    kind = "a whole number" if found["kind"] == "int" else "a number"
    quoted = re.escape(value)
    place = re.search(rf"\b(?P<name>(?:min|max)?(?:lat|lon))\s*=\s*[\"']\s*{quoted}\s*[\"']"
                      rf"|<(?P<tag>[\w:]+)[^>]*>\s*{quoted}\s*<", text)
    if place is None:
        return f"{_short(value)} is not {kind}"
    line = text.count("\n", 0, place.start()) + 1
    name = place["name"] or f"<{place['tag']}>"
    return f"line {line}: {name} is {_short(value)}, not {kind}"


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _check_place(label: str, p: Any, where: str) -> None:
    """A GPX point's latitude and longitude are finite and on the globe."""
    for name, value, limit in (("latitude", p.latitude, 90.0), ("longitude", p.longitude,
                                                                 180.0)):
        if value is None or not -limit <= value <= limit:  # NaN fails this too
            raise InputFileError(f"{where}: {label}: {name} {value:g} is outside "
                                 f"-{limit:g} to {limit:g}" if value is not None else
                                 f"{where}: {label}: no {name}")


# --- mapping a track onto squares ------------------------------------------------------------
@dataclass(frozen=True)
class Square:
    gradient: float  # % over the square
    rise: float  # metres gained over the square (negative: descent)
    cobbles: bool
    sprint: bool
    name: str


def default_squares(points: Sequence[Point]) -> int:
    """One square per kilometre, within the route limits."""
    km = points[-1].km - points[0].km
    return max(MIN_DISTANCE, min(MAX_DISTANCE, round(km)))


def to_squares(points: Sequence[Point], squares: int) -> list[Square]:
    """The track cut into ``squares`` equal stretches."""
    start, end = points[0].km, points[-1].km
    step = (end - start) / squares
    kms = [p.km for p in points]

    def height(km: float) -> float:
        i = bisect.bisect_right(kms, km)
        if i <= 0:
            return points[0].elevation
        if i >= len(points):
            return points[-1].elevation
        a, b = points[i - 1], points[i]
        return a.elevation + (b.elevation - a.elevation) * (km - a.km) / (b.km - a.km)

    out: list[Square] = []
    for q in range(squares):
        lo, hi = start + q * step, start + (q + 1) * step
        rise = height(hi) - height(lo)
        inside = [p for p in points if lo <= p.km < hi or (q == squares - 1 and p.km == hi)]
        mid = points[max(0, bisect.bisect_right(kms, (lo + hi) / 2) - 1)]
        out.append(Square(100 * rise / (step * 1000), rise, mid.cobbles,
                          any(p.sprint for p in inside),
                          next((p.name for p in inside if p.name), "")))
    return out


def category_of(gain: float, mean_gradient: float) -> str | None:
    """The climb category for a gain (m) at a mean gradient (%), or None."""
    score = gain * mean_gradient
    for category, needed in CATEGORY_SCORES:
        if score >= needed:
            return category
    return None


def steepness_of(max_gradient: float) -> int:
    """The top steepness for a climb whose steepest square has ``max_gradient`` %."""
    return max(1, min(MAX_STEEPNESS, math.ceil(max_gradient / 2)))


@dataclass
class _Climb:
    start: int
    end: int  # exclusive: the top is square end - 1's far edge
    gain: float
    steepest: float
    climbing: int  # squares of the climbing run(s), before any lengthening


def find_climbs(squares: Sequence[Square]) -> list[_Climb]:
    """Runs of climbing squares that gain enough, lengthened to 12 squares (backwards)."""
    runs: list[_Climb] = []
    q = 0
    while q < len(squares):
        if not squares[q].gradient >= CLIMB_GRADIENT:  # (a NaN gradient never climbs)
            q += 1
            continue
        start = q
        while q < len(squares) and squares[q].gradient >= CLIMB_GRADIENT:
            q += 1
        gain = sum(s.rise for s in squares[start:q])
        if gain >= MIN_CLIMB_GAIN:
            runs.append(_Climb(start, q, gain, max(s.gradient for s in squares[start:q]),
                               q - start))
    out: list[_Climb] = []
    for c in runs:
        c.start = min(c.start, c.end - MIN_CLIMB_LENGTH)
        if out and c.start < out[-1].end:  # overlaps the climb before: one climb
            prev = out[-1]
            prev.end, prev.gain = c.end, prev.gain + c.gain
            prev.steepest = max(prev.steepest, c.steepest)
            prev.climbing += c.climbing
            continue
        if c.start < 0:
            continue  # too near the start to be a climb of 12 squares
        out.append(c)
    return out


def build_route(points: Sequence[Point], name: str, squares: int | None = None
                ) -> dict[str, Any]:
    """A route table (as a route file would give) from a track; checked by the route rules."""
    n = squares or default_squares(points)
    if not MIN_DISTANCE <= n <= MAX_DISTANCE:
        raise InputFileError(f"--squares must be {MIN_DISTANCE} to {MAX_DISTANCE}, got {n}")
    sq = to_squares(points, n)
    climbs = find_climbs(sq)
    kind = ["flat"] * n
    for c in climbs:
        for q in range(c.start, c.end):
            kind[q] = "climb"
    for q in range(n):
        if kind[q] == "flat" and sq[q].cobbles:
            kind[q] = "cobbles"
    uphill_finish = bool(climbs) and climbs[-1].end == n
    sprint_squares = [q for q in range(n) if sq[q].sprint and q < n - 1]
    green = set(range(n - FINISH_SPRINT, n)) if not uphill_finish else set()
    for s in sprint_squares:
        green |= set(range(max(0, s - SPRINT_LEAD + 1), s + 1))
    sections: list[dict[str, Any]] = []
    q = 0
    by_start = {c.start: c for c in climbs}
    while q < n:
        if q in by_start:
            c = by_start[q]
            length = c.end - c.start
            category = category_of(c.gain, 100 * c.gain / (c.climbing * _square_m(points, n)))
            section: dict[str, Any] = {
                "name": _name(sq, c.start, c.end, "climb"), "length": length,
                "colour": "climber", "road": "uphill",
                "max_steepness": steepness_of(c.steepest)}
            if category is not None:
                section["category"] = category
            sections.append(section)
            q = c.end
            continue
        road = kind[q]
        colour = "leader" if road == "cobbles" else ("sprinter" if q in green else "helper")
        end = q + 1
        while end < n and end not in by_start and kind[end] == road and (
                road == "cobbles" or (end in green) == (q in green)):
            end += 1
        section = {"name": _name(sq, q, end, road), "length": end - q, "colour": colour}
        if road == "cobbles":
            section["road"] = "cobbles"
        sections.append(section)
        q = end
    categories = {s.get("category") for s in sections}
    if categories & {"HC", "1"}:
        hierarchy = ["climber", "leader", "helper", "sprinter"]
    elif "cobbles" in kind:
        hierarchy = ["leader", "sprinter", "helper", "climber"]
    else:
        hierarchy = ["sprinter", "leader", "helper", "climber"]
    route = {"name": name, "finish": "uphill" if uphill_finish else "flat",
             "hierarchy": hierarchy, "sprints": [n - s for s in sprint_squares],
             "sections": sections}
    normalise_route(route)  # the route rules check it (an InputFileError on a problem)
    return route


def _square_m(points: Sequence[Point], n: int) -> float:
    return (points[-1].km - points[0].km) * 1000 / n


def _name(sq: Sequence[Square], start: int, end: int, road: str) -> str:
    named = next((s.name for s in sq[start:end] if s.name), "")
    return named or f"{road} {start}-{end}"


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quote, backslash and control characters escaped
    (a track point's name may hold a line break, which TOML strings may not)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def route_toml(route: dict[str, Any]) -> str:
    """A route table as route-file TOML (the format ``route.py`` reads)."""

    def value(v: Any) -> str:
        if isinstance(v, str):
            return _toml_string(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        return str(v)

    lines = ["# imported by raceday wielersim route import (our gradient mapping)"]
    for key in ("name", "finish", "hierarchy", "sprints"):
        lines.append(f"{key} = {value(route[key])}")
    for section in route["sections"]:
        lines += ["", "[[sections]]"]
        lines += [f"{k} = {value(v)}" for k, v in section.items()]
    return "\n".join(lines) + "\n"
