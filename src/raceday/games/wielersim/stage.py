"""Stage races: the prologue, stage records, and the four classifications.

A stage race is a list of stages, each ridden as one race by :mod:`rules`. What a stage
adds to the classifications is kept in a *stage record* (plain JSON): times, bonus
seconds, points and mountain points per rider. Classifications are a pure function of
the records, so a saved campaign never counts a stage twice or loses one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path
from typing import Any

import numpy as np

from raceday.core.dice import Dist
from raceday.core.errors import InputFileError
from raceday.core.events import Message
from raceday.core.play import play_game
from raceday.core.protocol import Outcome, Termination
from raceday.games.wielersim.dice import DiceBuffer
from raceday.games.wielersim.game import GAME
from raceday.games.wielersim.model import (
    CLIMBER,
    LEADER,
    SPRINTER,
    FileProblem,
    parse_toml,
    read_input_file,
)
from raceday.games.wielersim.peloton import Peloton, peloton_from_spec
from raceday.games.wielersim.route import normalise_route, resolve_route
from raceday.games.wielersim.rules import (
    FINISH_BONUS_SECONDS,
    FINISH_POINTS,
    SPRINT_BONUS_SECONDS,
    WielersimState,
    rider_message,
    run_race_fast,
)

BufferedEngine = Callable[[WielersimState, DiceBuffer], object]
"""Rides a race to the end on buffered dice: :func:`rules.run_race_fast`, or
:func:`rules.run_race_reference` to check it."""

PROLOGUE_DICE = 10
PROLOGUE_REROLLS = {LEADER: 4}  # plus the race's chosen type: 2
TYPE_REROLLS = 2
TEAM_COUNTED = 3  # the team classification adds its three best riders' GC times
TOUR_KEYS = {"name", "bonuses", "flat_stage_race", "prologue", "prologue_type", "stages"}
STAGE_KEYS = {"name", "route"}


# --- the prologue ------------------------------------------------------------------------
def prologue_rerolls(kind: int, favoured_type: int) -> int:
    """How many dice showing 1 or 2 a rider may re-roll in the prologue."""
    if kind == LEADER:
        return PROLOGUE_REROLLS[LEADER]
    return TYPE_REROLLS if kind == favoured_type else 0


def prologue_total(first: Sequence[int], rerolled: Sequence[int], allowed: int) -> int:
    """Pips of a prologue throw: up to ``allowed`` dice showing 1 or 2 are re-rolled (the
    1s first), taking the new faces from ``rerolled`` in order."""
    faces = list(first)
    low = sorted((i for i, f in enumerate(faces) if f <= 2), key=lambda i: (faces[i], i))
    for k, i in enumerate(low[:allowed]):
        faces[i] = rerolled[k]
    return sum(faces)


@cache
def prologue_distribution(allowed: int, dice_count: int = PROLOGUE_DICE) -> Dist[int]:
    """The exact distribution of a prologue total with ``allowed`` re-rolls.

    Split the first throw by how many dice show 1 (``a``), 2 (``b``) and 3-6 (the rest,
    uniform on 3..6); the first ``min(allowed, a + b)`` low dice (1s first) are thrown again.
    """
    d6 = Dist.die(6)
    high = Dist({3: 1, 4: 1, 5: 1, 6: 1})
    weights: dict[int, Fraction] = {}
    for a in range(dice_count + 1):
        for b in range(dice_count - a + 1):
            c = dice_count - a - b
            ways = Fraction(comb(dice_count, a) * comb(dice_count - a, b))
            p_split = ways * Fraction(1, 6) ** a * Fraction(1, 6) ** b * Fraction(4, 6) ** c
            again = min(allowed, a + b)
            ones_again = min(allowed, a)
            twos_again = again - ones_again
            kept = (a - ones_again) + 2 * (b - twos_again)
            rest = (high.sum_of(c) if c else Dist.constant(0))
            rest = rest + (d6.sum_of(again) if again else Dist.constant(0))
            for value, p in rest.items():
                weights[kept + value] = weights.get(kept + value, Fraction(0)) + p_split * p
    return Dist(weights)


def prologue_win_chances(peloton: Peloton, favoured_type: int) -> dict[int, Fraction]:
    """Exact chance of each rider (by number) to win the prologue: the highest total wins,
    and riders tied on the highest total each win the tie with the same chance (the lots
    of :func:`prologue_record`).

    A rider who throws ``v`` wins with probability ``E[1 / (1 + K)]``, ``K`` the number of
    others who also throw ``v`` while nobody throws more; since ``1 / (1 + K)`` is the
    integral of ``t ** K`` over ``[0, 1]``, that is the integral of the product over the
    others of ``P(below v) + P(exactly v) * t``, a polynomial in ``t``.
    """
    allowance = {r.number: prologue_rerolls(r.kind, favoured_type) for r in peloton.riders}
    sizes: dict[int, int] = {}
    for a in allowance.values():
        sizes[a] = sizes.get(a, 0) + 1
    dists = {a: prologue_distribution(a) for a in sizes}
    values = sorted({v for d in dists.values() for v in d})
    below: dict[int, dict[int, Fraction]] = {}
    exactly: dict[int, dict[int, Fraction]] = {}
    for a, d in dists.items():
        chances = dict(d.items())
        running = Fraction(0)
        below[a], exactly[a] = {}, {}
        for v in values:
            below[a][v] = running  # P(total < v)
            exactly[a][v] = chances.get(v, Fraction(0))
            running += exactly[a][v]

    def poly_mul(x: list[Fraction], y: list[Fraction]) -> list[Fraction]:
        out = [Fraction(0)] * (len(x) + len(y) - 1)
        for i, cx in enumerate(x):
            if cx:
                for j, cy in enumerate(y):
                    out[i + j] += cx * cy
        return out

    by_allowance: dict[int, Fraction] = {}
    for mine in sizes:
        total = Fraction(0)
        for v, p in dists[mine].items():
            poly = [Fraction(1)]
            for a, count in sizes.items():
                others = count - (a == mine)
                if not others:
                    continue
                lo, eq = below[a][v], exactly[a][v]
                factor = [Fraction(comb(others, k)) * lo ** (others - k) * eq ** k
                          for k in range(others + 1)]
                poly = poly_mul(poly, factor)
            total += p * sum((c / (k + 1) for k, c in enumerate(poly)), Fraction(0))
        by_allowance[mine] = total
    return {number: by_allowance[a] for number, a in allowance.items()}


def ride_prologue(peloton: Peloton, favoured_type: int, rng: np.random.Generator
                  ) -> list[tuple[int, int]]:
    """Each rider's pip total (rider index, total), in peloton order."""
    out = []
    for i, rider in enumerate(peloton.riders):
        first = [int(f) for f in rng.integers(1, 7, size=PROLOGUE_DICE)]
        again = [int(f) for f in rng.integers(1, 7, size=PROLOGUE_REROLLS[LEADER])]
        out.append((i, prologue_total(first, again, prologue_rerolls(rider.kind,
                                                                     favoured_type))))
    return out


def draw_lots(riders: int, rng: np.random.Generator) -> list[int]:
    """A random lot per rider (peloton order): a permutation of ``0 .. riders - 1`` drawn
    from the stage's generator after the dice. Equal totals are ranked by lot, lowest
    first, so every tied rider is equally likely to be listed first."""
    return [int(x) for x in rng.permutation(riders)]


def prologue_record(peloton: Peloton, totals: Sequence[tuple[int, int]],
                    lots: Sequence[int]) -> dict[str, Any]:
    """Highest total wins; one second per pip behind the best. No points, no bonuses.
    Equal totals (equal times) are listed in the order of ``lots`` (see
    :func:`draw_lots`), never by bib number."""
    if sorted(lots) != list(range(len(peloton.riders))):
        raise ValueError("lots must be a permutation of the rider indices")
    best = max(t for _, t in totals)
    ranked = sorted(totals, key=lambda it: (-it[1], lots[it[0]]))
    return {
        "name": "Prologue",
        "kind": "prologue",
        "results": [[peloton.riders[i].number, best - t] for i, t in ranked],
        "bonus": {}, "points": {}, "mountains": {},
    }


# --- stage records ------------------------------------------------------------------------
def stage_record(state: WielersimState, name: str, *, bonuses: bool, flat_stage_race: bool
                 ) -> dict[str, Any]:
    """What a finished stage adds to the classifications."""
    num = state.num
    mountain = state.route.is_mountain_stage
    bonus: dict[str, int] = {}
    if bonuses:
        if not mountain:
            for (r, _, _), sec in zip(state.results, FINISH_BONUS_SECONDS, strict=False):
                bonus[str(num(r))] = bonus.get(str(num(r)), 0) + sec
        for places in state.sprint_places:
            for r, sec in zip(places, SPRINT_BONUS_SECONDS, strict=False):
                bonus[str(num(r))] = bonus.get(str(num(r)), 0) + sec
    points = {str(num(r)): p for r, p in enumerate(state.sprint_points()) if p}
    if not mountain or flat_stage_race:
        for (r, _, _), p in zip(state.results, FINISH_POINTS, strict=False):
            points[str(num(r))] = points.get(str(num(r)), 0) + p
    mountains = {str(num(r)): p for r, p in enumerate(state.mountain_points()) if p}
    return {
        "name": name,
        "kind": "mountain" if mountain else "stage",
        "results": [[num(r), gap] for r, gap, _ in state.results],
        "bonus": bonus, "points": points, "mountains": mountains,
    }


# --- classifications ----------------------------------------------------------------------
@dataclass(frozen=True)
class Standings:
    """The four classifications (rider numbers or team indices, best first)."""

    gc: list[tuple[int, int]]  # (number, total seconds)
    points: list[tuple[int, int]]
    mountains: list[tuple[int, int]]
    teams: list[tuple[int, int]]  # (team index, summed seconds)

    @property
    def leader(self) -> int | None:
        return self.gc[0][0] if self.gc else None


def classifications(peloton: Peloton, records: Sequence[Mapping[str, Any]]) -> Standings:
    """GC, points, mountains and teams after ``records``.

    Ties: GC by the lower sum of stage places, then the better place in the latest
    stage (places in a stage are all different, so this always decides and never looks
    at bib numbers); points and mountains by more stage wins, then GC place; teams by
    their best rider's GC place.
    """
    numbers = [r.number for r in peloton.riders]
    time = dict.fromkeys(numbers, 0)
    places = dict.fromkeys(numbers, 0)
    wins = dict.fromkeys(numbers, 0)
    latest = dict.fromkeys(numbers, len(numbers))  # place in the latest stage
    points = dict.fromkeys(numbers, 0)
    mountains = dict.fromkeys(numbers, 0)
    for rec in records:
        for place, (number, gap) in enumerate(rec["results"], start=1):
            time[number] += gap - int(rec["bonus"].get(str(number), 0))
            places[number] += place
            wins[number] += place == 1
            latest[number] = place
        for key, value in rec["points"].items():
            points[int(key)] += int(value)
        for key, value in rec["mountains"].items():
            mountains[int(key)] += int(value)
    gc = sorted(numbers, key=lambda n: (time[n], places[n], latest[n]))
    gc_place = {n: i for i, n in enumerate(gc)}
    pts = sorted((n for n in numbers if points[n]), key=lambda n: (-points[n], -wins[n],
                                                                   gc_place[n]))
    mtn = sorted((n for n in numbers if mountains[n]), key=lambda n: (-mountains[n],
                                                                      -wins[n], gc_place[n]))
    team_rows = []
    for t in range(len(peloton.teams)):
        members = sorted((r.number for r in peloton.riders if r.team == t),
                         key=lambda n: gc_place[n])[:TEAM_COUNTED]
        team_rows.append((t, sum(time[n] for n in members), gc_place[members[0]]))
    team_rows.sort(key=lambda row: (row[1], row[2]))
    return Standings(gc=[(n, time[n]) for n in gc], points=[(n, points[n]) for n in pts],
                     mountains=[(n, mountains[n]) for n in mtn],
                     teams=[(t, s) for t, s, _ in team_rows])



CLASSIFICATIONS = ("gc", "points", "mountains", "teams")


def classification_outcomes(tour_name: str, peloton: Peloton, st: Standings
                            ) -> dict[str, Outcome]:
    """Each classification of a finished stage race as an :class:`Outcome`: the general
    classification and the teams by time (seconds, the lowest first), points and
    mountains by points (riders who scored none are not ranked). Rankings are bib
    numbers (team indices for the teams); the message names the winner."""

    out: dict[str, Outcome] = {}
    for name, rows, termination, unit in (
            ("gc", st.gc, Termination.TIME, "seconds"),
            ("points", st.points, Termination.POINTS, "points"),
            ("mountains", st.mountains, Termination.POINTS, "points"),
            ("teams", st.teams, Termination.TIME, "seconds")):
        ranking = tuple(key for key, _ in rows)
        winner = ranking[0] if ranking else None
        if winner is None:
            message = None
        elif name == "teams":
            message = Message("outcome.teams", {"tour": tour_name,
                                                "team": peloton.teams[winner]})
        else:
            message = Message(f"outcome.{name}", {
                "tour": tour_name, "rider": rider_message(peloton, peloton.index_of(winner))})
        out[name] = Outcome(ranking=ranking, winner=winner,
                            scores={key: float(value) for key, value in rows},
                            score_name=unit, termination=termination, message=message)
    return out


# --- tour files -----------------------------------------------------------------------------
def load_tour_file(path: str | Path) -> dict[str, Any]:
    file = Path(path)
    text = read_input_file(file, "stage-race")
    return parse_tour_text(text, str(file), file.parent)


def parse_tour_text(text: str, where: str = "<tour>", base: Path | None = None
                    ) -> dict[str, Any]:
    """Validate a stage-race TOML text; stage routes are inline tables, paths (relative to
    the tour file) or shipped route names."""
    pb = FileProblem(where, text)
    data = parse_toml(text, where)
    unknown = set(data) - TOUR_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise pb.error(pb.line_of_key(key), key, f"unknown field; allowed: "
                       f"{', '.join(sorted(TOUR_KEYS))}")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise pb.error(pb.line_of_key("name"), "name", "the stage race needs a name")
    flags = {}
    for key, default in (("bonuses", True), ("flat_stage_race", False), ("prologue", False)):
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise pb.error(pb.line_of_key(key), key, "must be true or false")
        flags[key] = value
    ptype = data.get("prologue_type", "climber")
    if ptype not in ("climber", "sprinter"):
        raise pb.error(pb.line_of_key("prologue_type"), "prologue_type",
                       "must be 'climber' or 'sprinter' (who may re-roll two dice)")
    raw_stages = data.get("stages")
    if not isinstance(raw_stages, list) or not raw_stages:
        raise pb.error(None, "stages", "the stage race needs at least one [[stages]] table")
    stages = []
    for i, raw in enumerate(raw_stages):
        line = pb.line_of_table("stages", i)
        if not isinstance(raw, Mapping) or set(raw) - STAGE_KEYS:
            raise pb.error(line, f"stages[{i}]", "each stage has a name and a route")
        route = raw.get("route")
        try:
            if isinstance(route, str):
                candidate = (base / route) if base is not None else Path(route)
                spec = resolve_route(str(candidate) if candidate.exists() else route)
            elif isinstance(route, Mapping):
                spec = normalise_route(route, FileProblem(f"{where} stages[{i}].route", ""))
            else:
                raise pb.error(line, f"stages[{i}].route", "give a route file, a shipped "
                               "route name or an inline [stages.route] table")
        except InputFileError as exc:
            raise InputFileError(f"{where}:{line}: stage {i + 1}: {exc}") from None
        stage_name = raw.get("name", f"Stage {i + 1}")
        if not isinstance(stage_name, str):
            raise pb.error(line, f"stages[{i}].name", "must be a string")
        stages.append({"name": stage_name, "route": spec})
    return {"name": name.strip(), **flags, "prologue_type": ptype, "stages": stages}


SHIPPED_TOURS = ("ronde-van-belgie",)


def resolve_tour(arg: str) -> dict[str, Any]:
    """A stage race from a file path or a shipped one by name."""
    if arg in SHIPPED_TOURS and not Path(arg).exists():
        from importlib import resources

        text = (resources.files("raceday.games.wielersim") / "data" / "tours" /
                f"{arg}.toml").read_text(encoding="utf-8")
        return parse_tour_text(text, f"tours/{arg}.toml")
    return load_tour_file(arg)


# --- riding stages -----------------------------------------------------------------------------
def stage_count(tour: Mapping[str, Any]) -> int:
    """Stages including the prologue."""
    return len(tour["stages"]) + int(tour["prologue"])


def stage_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of stage ``index`` (0 = prologue if any): independent of how the
    campaign was interrupted and resumed."""
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(index + 1)[index])


def written_stage_name(tour: Mapping[str, Any], index: int) -> str | None:
    """Stage ``index``'s name as the stage race's file writes it (0 is the prologue, if
    the stage race has one: None, its name is the faces' word)."""
    if tour["prologue"]:
        if index == 0:
            return None
        index -= 1
    return str(tour["stages"][index]["name"])


def start_stage(tour: Mapping[str, Any], peloton_spec: Mapping[str, Any], index: int,
                jersey: int | None) -> WielersimState | None:
    """The race of stage ``index`` (None for the prologue), the jersey on the GC leader."""
    if tour["prologue"]:
        if index == 0:
            return None
        index -= 1
    return GAME.new_state({"route": tour["stages"][index]["route"],
                           "peloton": dict(peloton_spec), "jersey": jersey})


def ride_stage(tour: Mapping[str, Any], peloton_spec: Mapping[str, Any], index: int,
               records: Sequence[Mapping[str, Any]], seed: int, *, fast: bool = False,
               state: WielersimState | None = None,
               rng: np.random.Generator | None = None,
               engine: BufferedEngine | None = None) -> dict[str, Any]:
    """Ride stage ``index`` (or finish ``state`` if given) and return its record.

    The race is played throw by throw from the generator, or with ``fast`` on the fast
    path with buffered dice (``engine`` replaces the fast path there)."""
    peloton = peloton_from_spec(peloton_spec)
    gen = rng if rng is not None else stage_rng(seed, index)
    favoured = CLIMBER if tour["prologue_type"] == "climber" else SPRINTER
    if tour["prologue"] and index == 0:
        totals = ride_prologue(peloton, favoured, gen)
        return prologue_record(peloton, totals, draw_lots(len(peloton.riders), gen))
    if state is None:
        jersey = classifications(peloton, records).leader if records else \
            peloton_spec.get("jersey")
        state = start_stage(tour, peloton_spec, index, jersey)
        assert state is not None
    if fast:
        (engine or run_race_fast)(state, DiceBuffer(gen))
    elif not state.is_terminal():
        play_game(state, [], gen)
    name = written_stage_name(tour, index)
    assert name is not None  # the prologue was ridden above
    return stage_record(state, name, bonuses=tour["bonuses"],
                        flat_stage_race=tour["flat_stage_race"])


def tour_records(tour: Mapping[str, Any], peloton_spec: Mapping[str, Any],
                 rng: np.random.Generator, engine: BufferedEngine = run_race_fast
                 ) -> list[dict[str, Any]]:
    """The stage records of a whole stage race ridden on buffered dice from ``rng``."""
    records: list[dict[str, Any]] = []
    for index in range(stage_count(tour)):
        records.append(ride_stage(tour, peloton_spec, index, records, 0, fast=True, rng=rng,
                                  engine=engine))
    return records


def ride_tour_fast(tour: Mapping[str, Any], peloton_spec: Mapping[str, Any],
                   rng: np.random.Generator) -> Standings:
    """A whole stage race on the fast path (for predictions)."""
    return classifications(peloton_from_spec(peloton_spec), tour_records(tour, peloton_spec,
                                                                         rng))
