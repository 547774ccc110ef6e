"""Route schedules: reading, validating and compiling them into a square-by-square road.

A route file (TOML) describes one race after the text's Appendix 1: its name, the ordered
sections with their length (or squares to go at their end), colour and road type, the
intermediate sprints, the finish type and the hierarchy of rider types. Compiling a route
gives per-square arrays (road type, colour, steepness, width) that the rules engine reads.
Square ``p`` counts from the start marker; the finish line is at square ``distance``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeGuard

from raceday.core.errors import InputFileError
from raceday.games.wielersim.model import (
    CATEGORIES,
    CATEGORY_MAX_STEEPNESS,
    COBBLE_WIDTH,
    COBBLES,
    FLAT,
    MAX_ROUGHNESS,
    MAX_STEEPNESS,
    MIN_CLIMB_LENGTH,
    RIDER_TYPES,
    ROAD_TYPES,
    ROAD_WIDTH,
    UPHILL,
    FileProblem,
    allowed_types,
    parse_toml,
    read_input_file,
    rider_type_index,
)

MIN_DISTANCE = 40  # the flying start spreads riders over the first 20-odd squares
MAX_DISTANCE = 400
MAX_LAPS = 2
FLYING_START = 24  # the start throws place riders up to square 24 (4D6)
RUN_OUT = 24  # squares drawn beyond the finish line (riders end their last move there)
START_DICE = ("d10", "d6")
ROUTE_KEYS = {"name", "distance", "finish", "hierarchy", "laps", "start_dice", "sections",
              "sprints", "monotonic_gaps"}
SECTION_KEYS = {"name", "length", "to_go", "colour", "road", "category", "max_steepness",
                "steepness", "roughness"}


@dataclass(frozen=True)
class Climb:
    """A climb top: the square a rider must reach to crest it, and its category."""

    top: int
    category: str | None
    name: str
    max_steepness: int


@dataclass(frozen=True)
class Section:
    """A compiled section: squares ``[start, end)`` of one colour and road type."""

    name: str
    start: int
    end: int
    colour: int
    road: int
    category: str | None


@dataclass(frozen=True, eq=False)  # compared and hashed by identity (compiled once, cached)
class CompiledRoute:
    """A route as arrays over squares ``0 .. distance + RUN_OUT``."""

    name: str
    distance: int
    finish: str
    hierarchy: tuple[int, ...]
    start_dice: str
    road: tuple[int, ...]
    colour: tuple[int, ...]
    steepness: tuple[int, ...]
    width: tuple[int, ...]
    given_roughness: tuple[tuple[int, ...] | None, ...]
    sections: tuple[Section, ...]
    climbs: tuple[Climb, ...]
    sprints: tuple[int, ...]
    monotonic_gaps: bool = False  # our variant: no finisher beats the time of one before him

    @property
    def has_random_cobbles(self) -> bool:
        return any(
            self.road[p] == COBBLES and self.given_roughness[p] is None
            for p in range(len(self.road))
        )

    @property
    def is_mountain_stage(self) -> bool:
        """A stage with a climb of 1st category or above (no finish bonuses or points)."""
        return any(c.category in ("HC", "1") for c in self.climbs)

    def roughness(self, layout: int | None) -> tuple[tuple[int, ...], ...]:
        """Roughness per square and lane (empty tuples off the cobbles).

        Squares without given values take them from the board ``layout`` (0..255), spread
        by a fixed integer hash so a layout always gives the same board.
        """
        return _roughness(self, layout)

    def _spread_roughness(self, layout: int | None) -> tuple[tuple[int, ...], ...]:
        rows: list[tuple[int, ...]] = []
        for p, road in enumerate(self.road):
            if road != COBBLES:
                rows.append(())
            elif self.given_roughness[p] is not None:
                rows.append(self.given_roughness[p] or ())
            else:
                base = 0 if layout is None else layout
                rows.append(tuple(
                    1 + _mix(base * 1_000_003 + p * 8 + lane) % MAX_ROUGHNESS
                    for lane in range(COBBLE_WIDTH)
                ))
        return tuple(rows)

    def to_go(self, square: int) -> int:
        return self.distance - square


@lru_cache(maxsize=4096)
def _roughness(route: CompiledRoute, layout: int | None) -> tuple[tuple[int, ...], ...]:
    return route._spread_roughness(layout)


def _mix(x: int) -> int:
    """A fixed 32-bit integer hash (splitmix-style) for spreading cobble roughness."""
    x &= 0xFFFFFFFF
    x = ((x ^ (x >> 16)) * 0x45D9F3B) & 0xFFFFFFFF
    x = ((x ^ (x >> 16)) * 0x45D9F3B) & 0xFFFFFFFF
    return (x ^ (x >> 16)) & 0xFFFFFFFF


# --- reading ------------------------------------------------------------------------------
def load_route_file(path: str | Path) -> dict[str, Any]:
    """Read and validate a route file; return its normalised specification (JSON values)."""
    text = read_input_file(path, "route")
    return parse_route_text(text, str(path))


def parse_route_text(text: str, where: str = "<route>") -> dict[str, Any]:
    """Validate route TOML text; errors name the file, line and field."""
    return normalise_route(parse_toml(text, where), FileProblem(where, text))


def normalise_route(data: Mapping[str, Any], problem: FileProblem | None = None) -> dict[str, Any]:
    """Check a route mapping and return it in canonical form (every field present)."""
    pb = problem or FileProblem("<route>", "")

    def top_error(key: str, message: str) -> InputFileError:
        return pb.error(pb.line_of_key(key), key, message)

    unknown = set(data) - ROUTE_KEYS
    if unknown:
        key = sorted(unknown)[0]
        return_allowed = ", ".join(sorted(ROUTE_KEYS))
        raise top_error(key, f"unknown field; allowed fields: {return_allowed}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise top_error("name", "the race needs a name (a non-empty string)")
    finish = data.get("finish", "flat")
    if finish not in ("flat", "uphill"):
        raise top_error("finish", f"must be 'flat' or 'uphill', got {finish!r}")
    laps = data.get("laps", 1)
    if not isinstance(laps, int) or isinstance(laps, bool) or not 1 <= laps <= MAX_LAPS:
        raise top_error("laps", f"must be 1 or {MAX_LAPS} (a loop is ridden at most twice)")
    monotonic_gaps = data.get("monotonic_gaps", False)
    if not isinstance(monotonic_gaps, bool):
        raise top_error("monotonic_gaps", "must be true or false (true: no finisher gets a "
                        "smaller gap than the finisher before him)")
    start_dice = data.get("start_dice", "d10")
    if start_dice not in START_DICE:
        raise top_error("start_dice", "must be 'd10' (2D10, best two of 3D10) or 'd6' (4D6)")
    hierarchy_raw = data.get("hierarchy")
    if not isinstance(hierarchy_raw, list):
        raise top_error("hierarchy", "must list the four rider types, highest first, e.g. "
                        "['leader', 'sprinter', 'climber', 'helper']")
    hierarchy: list[str] = []
    for item in hierarchy_raw:
        t = rider_type_index(item)
        if t is None:
            raise top_error("hierarchy", f"unknown rider type {item!r}; allowed: "
                            f"{allowed_types()}")
        hierarchy.append(RIDER_TYPES[t])
    if sorted(hierarchy) != sorted(RIDER_TYPES):
        raise top_error("hierarchy", "must name each of the four rider types exactly once")

    raw_sections = data.get("sections")
    if not isinstance(raw_sections, list) or not raw_sections:
        raise top_error("sections", "the route needs at least one [[sections]] table")
    sections: list[dict[str, Any]] = []
    position = 0
    lap_length: int | None = None
    to_go_used = any(isinstance(s, Mapping) and "to_go" in s for s in raw_sections)
    if to_go_used:
        total = data.get("distance")
        if laps != 1:
            raise top_error("laps", "sections given by 'to_go' need laps = 1; use 'length' "
                            "for a loop ridden twice")
        if total is None:
            raise top_error("distance", "needed (in squares) when sections use 'to_go'")
        if not _whole(total) or not MIN_DISTANCE <= total <= MAX_DISTANCE:
            raise top_error("distance", f"must be a whole number of squares from {MIN_DISTANCE} "
                            f"to {MAX_DISTANCE}, got {_shown(total)}")
        lap_length = total
    for index, raw in enumerate(raw_sections):
        line = pb.line_of_table("sections", index)
        sections.append(_normalise_section(raw, index, line, pb, position, lap_length))
        position += sections[-1]["length"]
    if lap_length is not None and position != lap_length:
        raise pb.error(pb.line_of_table("sections", len(raw_sections) - 1), "to_go",
                       f"the last section must end at to_go = 0 (sections cover {position} of "
                       f"{lap_length} squares)")
    distance = position * laps
    given = data.get("distance")
    if given is not None and (not _whole(given) or not MIN_DISTANCE <= given <= MAX_DISTANCE):
        raise top_error("distance", f"must be a whole number of squares from {MIN_DISTANCE} to "
                        f"{MAX_DISTANCE}, got {_shown(given)}")
    if given is not None and given != distance:
        raise top_error("distance", f"is {given!r} but the sections add up to {distance} squares"
                        f"{' over 2 laps' if laps == 2 else ''}")
    if not MIN_DISTANCE <= distance <= MAX_DISTANCE:
        raise top_error("distance", f"the race must be {MIN_DISTANCE} to {MAX_DISTANCE} squares, "
                        f"the sections give {distance}")
    top = 0
    for index, sec in enumerate(sections):
        top += sec["length"]
        if sec["road"] == "uphill" and top <= FLYING_START:
            raise pb.error(pb.line_of_table("sections", index), f"sections[{index}]",
                           f"a climb top within the first {FLYING_START} squares would be "
                           "passed during the flying start; start the route earlier")
    if finish == "uphill" and sections[-1]["road"] != "uphill":
        raise top_error("finish", "an uphill finish needs the last section to be uphill")

    sprints_raw = data.get("sprints", [])
    if not isinstance(sprints_raw, list):
        raise top_error("sprints", "must be a list of squares to go, e.g. sprints = [140]")
    sprints: list[int] = []
    for s in sprints_raw:
        if not isinstance(s, int) or isinstance(s, bool) or not 0 < s < distance - FLYING_START:
            raise top_error("sprints", f"{_shown(s)} is not a square to go between 1 and "
                            f"{distance - FLYING_START - 1} (beyond the flying start)")
        sprints.append(s)
    if len(set(sprints)) != len(sprints):
        raise top_error("sprints", "the same square is given twice")
    return {
        "name": name.strip(),
        "distance": distance,
        "finish": finish,
        "hierarchy": hierarchy,
        "laps": laps,
        "start_dice": start_dice,
        "sections": sections,
        "sprints": sorted(sprints, reverse=True),
        "monotonic_gaps": monotonic_gaps,
    }


def _whole(value: object) -> TypeGuard[int]:
    """A whole number in a file: an int, not a bool (TOML's true is no number of squares)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object) -> str:
    """A value for a message, cut short (a file may hold a number of 10,000 digits)."""
    text = repr(value) if isinstance(value, str | float | bool | type(None)) else (
        str(value) if isinstance(value, int) and abs(value) < 10**30 else
        ("a huge number" if isinstance(value, int) else f"a {type(value).__name__}"))
    return text if len(text) <= 40 else text[:37] + "..."


def _int_field(raw: Mapping[str, Any], key: str, line: int | None, pb: FileProblem,
               field: str, low: int, high: int, meaning: str) -> int:
    value = raw.get(key)
    if _whole(value) and low <= value <= high:
        return value
    raise pb.error(pb.line_of_key(key, line), field, f"{meaning} must be a whole number "
                   f"from {low} to {high}, got {_shown(value)}")


def _normalise_section(raw: Any, index: int, line: int | None, pb: FileProblem, start: int,
                       lap_length: int | None) -> dict[str, Any]:
    where = f"sections[{index}]"
    if not isinstance(raw, Mapping):
        raise pb.error(line, where, "each section must be a [[sections]] table")
    raw = {k: v for k, v in raw.items() if v is not None}
    unknown = set(raw) - SECTION_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise pb.error(pb.line_of_key(key, line), f"{where}.{key}",
                       f"unknown field; allowed: {', '.join(sorted(SECTION_KEYS))}")
    if ("length" in raw) == ("to_go" in raw):
        raise pb.error(line, f"{where}.length", "give exactly one of 'length' (squares) or "
                       "'to_go' (squares to go at the end of the section)")
    if "length" in raw:
        length = _int_field(raw, "length", line, pb, f"{where}.length", 1, MAX_DISTANCE,
                            "the length")
    else:
        assert lap_length is not None
        to_go = _int_field(raw, "to_go", line, pb, f"{where}.to_go", 0, lap_length - start - 1,
                           "squares to go at the end of the section")
        length = lap_length - to_go - start
    colour = rider_type_index(raw.get("colour"))
    if colour is None:
        raise pb.error(pb.line_of_key("colour", line), f"{where}.colour",
                       f"must name who may accelerate here: {allowed_types()}; "
                       f"got {raw.get('colour')!r}")
    road = raw.get("road", "flat")
    if road not in ROAD_TYPES:
        raise pb.error(pb.line_of_key("road", line), f"{where}.road",
                       f"must be one of {', '.join(ROAD_TYPES)}; got {road!r}")
    name = raw.get("name", "")
    if not isinstance(name, str):
        raise pb.error(pb.line_of_key("name", line), f"{where}.name", "must be a string")
    out: dict[str, Any] = {"name": name, "length": length, "colour": RIDER_TYPES[colour],
                           "road": road, "category": None, "max_steepness": None,
                           "steepness": None, "roughness": None}
    if road != "uphill":
        for key in ("category", "max_steepness", "steepness"):
            if key in raw:
                raise pb.error(pb.line_of_key(key, line), f"{where}.{key}",
                               "only uphill sections have a category or steepness")
    if road != "cobbles" and "roughness" in raw:
        raise pb.error(pb.line_of_key("roughness", line), f"{where}.roughness",
                       "only cobblestone sections have roughness")
    if road == "uphill":
        if length < MIN_CLIMB_LENGTH:
            raise pb.error(pb.line_of_key("length", line), f"{where}.length",
                           f"a climb needs at least {MIN_CLIMB_LENGTH} "
                           "squares, or a single throw of 12 could jump it")
        category = raw.get("category")
        if category is not None:
            category = _category(category)
            if category not in CATEGORIES:
                raise pb.error(pb.line_of_key("category", line), f"{where}.category",
                               f"must be one of {', '.join(CATEGORIES)}; got {raw['category']!r}")
        default_max = CATEGORY_MAX_STEEPNESS[category] if category else 3
        max_steep = raw.get("max_steepness", default_max)
        if not _whole(max_steep) or not 1 <= max_steep <= MAX_STEEPNESS:
            raise pb.error(pb.line_of_key("max_steepness", line), f"{where}.max_steepness",
                           f"must be a whole number from 1 to {MAX_STEEPNESS}; got "
                           f"{_shown(max_steep)}")
        out["category"] = category
        out["max_steepness"] = max_steep
        if "steepness" in raw:
            steep = raw["steepness"]
            if (not isinstance(steep, list) or len(steep) != length
                    or any(not _whole(s) or not 1 <= s <= MAX_STEEPNESS for s in steep)):
                raise pb.error(pb.line_of_key("steepness", line), f"{where}.steepness",
                               f"must list {length} values from 1 to {MAX_STEEPNESS}, one per "
                               "square")
            out["steepness"] = list(steep)
    if road == "cobbles" and "roughness" in raw:
        rough = raw["roughness"]
        ok = isinstance(rough, list) and len(rough) == length and all(
            isinstance(row, list) and len(row) == COBBLE_WIDTH
            and all(_whole(v) and 1 <= v <= MAX_ROUGHNESS for v in row)
            for row in rough
        )
        if not ok:
            raise pb.error(pb.line_of_key("roughness", line), f"{where}.roughness",
                           f"must list {length} squares, each [{COBBLE_WIDTH} values from 1 to "
                           f"{MAX_ROUGHNESS}] from left to right")
        out["roughness"] = [list(row) for row in rough]
    return out


def _category(raw: object) -> str:
    """Accept 'HC', 1, '1', 'C1' or '1C' for a category."""
    text = str(raw).upper().strip()
    if text in CATEGORIES:
        return text
    for trimmed in (text.removeprefix("C"), text.removesuffix("C")):
        if trimmed in CATEGORIES[1:]:
            return trimmed
    return text


def ramp(length: int, top: int) -> list[int]:
    """Steepness of a climb rising from 1 to ``top`` at its last squares."""
    return [max(1, math.ceil((i + 1) * top / length)) for i in range(length)]


# --- compiling ----------------------------------------------------------------------------
def compile_route(spec: Mapping[str, Any]) -> CompiledRoute:
    """The per-square arrays of a normalised route (cached by its JSON text)."""
    return compile_route_text(json.dumps(spec, sort_keys=True))


@lru_cache(maxsize=64)
def compile_route_text(text: str) -> CompiledRoute:
    """The compiled route of a normalised route's JSON text (keys sorted), cached."""
    spec = json.loads(text)
    distance = spec["distance"]
    size = distance + RUN_OUT + 1
    road = [FLAT] * size
    colour = [0] * size
    steep = [0] * size
    width = [ROAD_WIDTH] * size
    rough: list[tuple[int, ...] | None] = [None] * size
    sections: list[Section] = []
    climbs: list[Climb] = []
    position = 0
    for lap in range(spec["laps"]):
        for sec in spec["sections"]:
            start, end = position, position + sec["length"]
            road_type = ROAD_TYPES.index(sec["road"])
            col = RIDER_TYPES.index(sec["colour"])
            for p in range(start, end):
                road[p] = road_type
                colour[p] = col
            if road_type == UPHILL:
                profile = sec["steepness"] or ramp(sec["length"], sec["max_steepness"])
                for i, p in enumerate(range(start, end)):
                    steep[p] = profile[i]
                name = sec["name"] or f"climb {len(climbs) + 1}"
                if lap:
                    name += f" (lap {lap + 1})"
                climbs.append(Climb(end, sec["category"], name, max(profile)))
            if road_type == COBBLES:
                for i, p in enumerate(range(start, end)):
                    width[p] = COBBLE_WIDTH
                    if sec["roughness"] is not None:
                        rough[p] = tuple(sec["roughness"][i])
            sections.append(Section(sec["name"], start, end, col, road_type, sec["category"]))
            position = end
    for p in range(distance, size):  # the run-out beyond the line looks like the last square
        road[p] = FLAT if road[distance - 1] == COBBLES else road[distance - 1]
        colour[p] = colour[distance - 1]
        steep[p] = steep[distance - 1]
    return CompiledRoute(
        name=spec["name"],
        distance=distance,
        finish=spec["finish"],
        hierarchy=tuple(RIDER_TYPES.index(t) for t in spec["hierarchy"]),
        start_dice=spec["start_dice"],
        road=tuple(road),
        colour=tuple(colour),
        steepness=tuple(steep),
        width=tuple(width),
        given_roughness=tuple(rough),
        sections=tuple(sections),
        climbs=tuple(climbs),
        sprints=tuple(distance - s for s in spec["sprints"]),
        monotonic_gaps=bool(spec.get("monotonic_gaps", False)),
    )


# --- shipped routes -----------------------------------------------------------------------
SHIPPED_ROUTES = ("flanders", "ardennes", "flat-stage", "mountain-stage")


def shipped_route_text(name: str) -> str:
    """The TOML text of a route shipped with the game."""
    if name not in SHIPPED_ROUTES:
        raise InputFileError(f"no shipped route {name!r}; shipped: {', '.join(SHIPPED_ROUTES)}")
    return (resources.files("raceday.games.wielersim") / "data" / "routes" / f"{name}.toml"
            ).read_text(encoding="utf-8")


def shipped_route(name: str) -> dict[str, Any]:
    """A shipped route, normalised (a fresh copy: callers may change it)."""
    return json.loads(_shipped_route_json(name))  # type: ignore[no-any-return]


@lru_cache(maxsize=len(SHIPPED_ROUTES))
def _shipped_route_json(name: str) -> str:
    return json.dumps(parse_route_text(shipped_route_text(name), f"routes/{name}.toml"))


def resolve_route(arg: str) -> dict[str, Any]:
    """A route from a file path, or a shipped route by name."""
    if arg in SHIPPED_ROUTES and not Path(arg).exists():
        return shipped_route(arg)
    return load_route_file(arg)

