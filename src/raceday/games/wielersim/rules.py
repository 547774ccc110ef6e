"""WielerSIM (Ludo Nauws, 2012): the reference rules engine for one race.

Every node of a race is a chance node: one throw of dice (2D6, the best two of 3D6, a D6,
the start's 2D10 ...). The state keeps what is needed to know which throw comes next; the
rules that turn a throw into movement are small pure functions below, shared by the
protocol path (:meth:`WielersimState.apply_action`) and the fast path
(:func:`run_race_fast`), which only skips validation and event records.

Squares count from the start marker; the finish line is at square ``distance``; a rider
on square ``p >= distance`` has crossed it. Lanes count from 0 (left) to 5 (right).
See docs/rules/wielersim.md for the rules in full and for our completion of the text.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any, Self

import numpy as np

from raceday.core.errors import (
    IllegalActionError,
    InputFileError,
    OptionsError,
    SaveFormatError,
    refusal,
)
from raceday.core.events import Event, Message
from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, Outcome, State, Termination
from raceday.core.serialize import Fields
from raceday.games.wielersim import dice
from raceday.games.wielersim.model import COBBLE_WIDTH, COBBLES, EMPTY, SPRINTER, UPHILL
from raceday.games.wielersim.peloton import (
    MAX_RIDERS,
    Peloton,
    peloton_from_spec,
    resolve_peloton,
)
from raceday.games.wielersim.route import CompiledRoute, compile_route_text, normalise_route
from raceday.games.wielersim.route import resolve_route as _resolve_route

# --- the numbers of the game ------------------------------------------------------------
ATTACK_MIN = 11  # a rider who throws 11 or 12 attacks: no aspiration behind him
ASPIRATION_MIN = 6  # riders follow a throw of at least 6 (before steepness) by aspiration
COUNTER_MIN = 10  # our completion: a counter succeeds on 10 or more
EVENT_ROLL = 7  # a throw of 7 sends the rider to the random-event table
CRASH_EVADE = 6  # a rider behind a crash escapes it on a D6 of 6 ...
CRASH_EVADE_MOVE = 7  # ... and then moves 7
STEER_EVENT, NOTHING_EVENT, ACCELERATION_EVENT, ATTACK_EVENT = 4, 5, 11, 12
NOTHING_MOVE, ACCELERATION_MOVE, ATTACK_MOVE = 7, 10, 12
RAIN_FACES = (1, 2)  # a weather D6 of 1 or 2 means rain
SECONDS_PER_TURN = 60
FLAT_SECONDS_PER_SQUARE = 6
UPHILL_SECONDS_PER_SQUARE = 12

INTERMEDIATE_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)
FINISH_POINTS = (15, 12, 10, 8, 6, 5, 4, 3, 2, 1)
MOUNTAIN_POINTS: dict[str, tuple[int, ...]] = {
    "HC": (15, 12, 10, 8, 6, 4, 2, 1),
    "1": (12, 10, 8, 6, 4, 2, 1),
    "2": (8, 6, 4, 2, 1),
    "3": (6, 4, 2, 1),
}
FINISH_BONUS_SECONDS = (10, 6, 4, 2, 1)
SPRINT_BONUS_SECONDS = (6, 4, 2)

# phases of a race
BOARD, WEATHER, GRID, RACE, SPRINT, OVER = "board", "weather", "grid", "race", "sprint", "over"
PHASES = (BOARD, WEATHER, GRID, RACE, SPRINT, OVER)
# why a throw is made
ROLL, ACCEL, COUNTER, EVENT, STEER, EVADE = "roll", "accelerate", "counter", "event", "steer", \
    "evade"
SPRINT_THROW, GRID_THROW, WEATHER_THROW, BOARD_THROW = "sprint", "grid", "weather", "board"
RACE_PURPOSES = frozenset((ROLL, ACCEL, COUNTER, EVENT, STEER, EVADE))
PURPOSES = (ROLL, ACCEL, COUNTER, EVENT, STEER, EVADE, SPRINT_THROW, GRID_THROW, WEATHER_THROW,
            BOARD_THROW)
EVENT_KINDS = ("throw", "weather", "grid", "attack", "accelerate", "counter", "evade", "crash",
               "flat_tyre", "steering_error", "acceleration", "move", "turn", "result",
               "climb_top", "finish", "sprint", "sprint_move", "sprint_result")
"""Every kind of event a race records (each worded by ``event.<kind>`` in the game's
message tables); the data of an event are facts: bib numbers, squares, throws, seconds."""


@dataclass(frozen=True, slots=True)
class Throw:
    """The throw a race waits for: the dice ``kind``, the ``rider`` (an index into the
    peloton, or ``EMPTY`` for a throw of the race itself: board, weather) and the
    ``purpose`` (why it is thrown: ``ROLL``, ``SPRINT_THROW``, ...).

    Saved as the list ``[kind, rider, purpose]``.
    """

    kind: str
    rider: int
    purpose: str

    def to_json(self) -> list[Any]:
        return [self.kind, self.rider, self.purpose]

    @classmethod
    def from_json(cls, data: Any, riders: int) -> Throw:
        """The saved ``[kind, rider, purpose]`` of a race of ``riders`` riders, checked."""
        kind, rider, purpose = data
        if kind not in dice.KINDS or purpose not in PURPOSES or not isinstance(
                rider, int) or not (rider == EMPTY or 0 <= rider < riders):
            raise SaveFormatError("WielerSIM state: malformed pending throw")
        return cls(str(kind), rider, str(purpose))


class EndOfTurn(IntEnum):
    """How far the settling of a turn has got, once every rider has moved (saved as its
    number). Each step may stop for throws (a sprint, the weather) and resume there."""

    CLIMBS = 0  # report the turn; place riders at the climb tops they reached
    SPRINTS = 1  # intermediate sprints (a group there rides a virtual sprint)
    FINISH = 2  # riders past the line (a group there rides the finish sprint)
    WEATHER = 3  # half way: the weather is thrown again once
    NEXT_TURN = 4  # the race is over, or the next turn begins


# --- pure rules ---------------------------------------------------------------------------
def squares_moved(value: int, malus: int) -> int:
    """Squares moved for a throw of ``value`` from a square with ``malus``: never below 1."""
    return max(1, value - malus)


def square_penalty(route: CompiledRoute, rough: Sequence[Sequence[int]], square: int,
                   lane: int) -> int:
    """What a square takes off a throw: its steepness uphill, its roughness on cobbles."""
    road = route.road[square]
    if road == UPHILL:
        return route.steepness[square]
    if road == COBBLES:
        return rough[square][min(lane, COBBLE_WIDTH - 1)]
    return 0


def rated_penalty(penalty: int, road: int, edge: Sequence[int]) -> int:
    """Our extension (rider ratings): the penalty of a square for a rider with these
    ``edge`` values (climb, cobbles, sprint): each point of climbing or cobbles edge takes
    one off the steepness or roughness (never below 0), a negative edge adds one."""
    if road == UPHILL:
        return max(0, penalty - edge[0])
    if road == COBBLES:
        return max(0, penalty - edge[1])
    return penalty


def rated_sprint(roll: int, edge: Sequence[int]) -> int:
    """Our extension (rider ratings): a sprint throw shifted by the sprint edge, at least 1."""
    return max(1, roll + edge[2])


def event_table(roll: int, rain: bool, cobbles: bool) -> str:
    """The random event for a 2D6 ``roll`` (1 off for rain, 1 off on cobbles)."""
    modified = roll - int(rain) - int(cobbles)
    if modified <= 2:
        return "crash"
    if modified == 3:
        return "flat_tyre"
    if modified == STEER_EVENT:
        return "steering_error"
    if modified < ACCELERATION_EVENT:
        return "nothing"
    if modified == ACCELERATION_EVENT:
        return "acceleration"
    return "attack"


def landing_row(start: int, target: int, count: Sequence[int], width: Sequence[int]) -> int:
    """Where a rider moving from ``start`` towards ``target`` stops.

    A full row (as many riders as the road is wide) blocks: the rider stops in the nearest
    row behind it that has room; if every row up to his own is full he stays put.
    """
    for row in range(start + 1, target + 1):
        if count[row] >= width[row]:
            return row - 1
    return target


def choose_lane(cells: Sequence[int], width: int, roughness: Sequence[int] = ()) -> int:
    """The square a rider takes in a row: the lowest roughness on cobbles, else (and on a
    tie) the rightmost free square. ``cells`` holds rider ids or ``EMPTY``."""
    if not roughness:
        for lane in range(width - 1, -1, -1):
            if cells[lane] == EMPTY:
                return lane
        return EMPTY
    best = EMPTY
    best_key = 99
    for lane in range(width - 1, -1, -1):
        if cells[lane] != EMPTY:
            continue
        key = roughness[lane] if roughness else 0
        if key < best_key:
            best, best_key = lane, key
    return best


def sprint_bonus(start: int, roll: int, other_rows: Iterable[int]) -> int:
    """Bonus squares in a sprint: one per row of other riders passed (strictly beyond)."""
    return len({row for row in other_rows if start < row < start + roll})


def sprint_kind(kind: int) -> str:
    """Sprinters sprint with 2D6, every other rider with one die."""
    return dice.TWO_D6 if kind == SPRINTER else dice.D6_KIND


def flat_gap(turns_behind: int, squares_behind: int) -> int:
    """Seconds behind on a flat finish: a minute per turn and 6 s per square (either way)."""
    return SECONDS_PER_TURN * turns_behind + FLAT_SECONDS_PER_SQUARE * squares_behind


def uphill_gap(turns_behind: int, squares_behind: int) -> int:
    """Seconds behind on an uphill finish: a minute per turn and 12 s per square."""
    return SECONDS_PER_TURN * turns_behind + UPHILL_SECONDS_PER_SQUARE * squares_behind


def format_gap(seconds: int) -> str:
    """``0'42"`` style; a time better than the reference is shown ``-0'12"``."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    return f"{sign}{seconds // 60}'{seconds % 60:02d}\""


def groups_of(riders: Iterable[int], pos: Sequence[int]) -> list[list[int]]:
    """Riders split into groups (no empty row between neighbours), front group first."""
    ordered = sorted(riders, key=lambda r: -pos[r])
    groups: list[list[int]] = []
    for r in ordered:
        if groups and pos[groups[-1][-1]] - pos[r] <= 1:
            groups[-1].append(r)
        else:
            groups.append([r])
    return groups


def rider_message(peloton: Peloton, r: int) -> dict[str, Any]:
    """Rider ``r`` (an index) of ``peloton`` as a message parameter (``rider``: name, bib
    number and team), for events' words, outcomes and commentary."""
    rider = peloton.riders[r]
    return Message("rider", {"name": rider.name, "number": rider.number,
                             "team": peloton.teams[rider.team]}).to_json()


# --- options and building a race ---------------------------------------------------------
@lru_cache(maxsize=64)
def _normalised_route_text(text: str) -> str:
    return json.dumps(normalise_route(json.loads(text)), sort_keys=True)


def route_spec(value: Any) -> dict[str, Any]:
    """A normalised route from a shipped name, a file path or a route mapping."""
    if isinstance(value, str):
        return _resolve_route(value)
    if isinstance(value, Mapping):
        return json.loads(_route_text(value))  # type: ignore[no-any-return]
    raise refusal(OptionsError, "wielersim.reason.route_kind")


def _route_text(value: Mapping[str, Any]) -> str:
    """The normalised route's JSON text (keys sorted: the key of the compiled route)."""
    return _normalised_route_text(json.dumps(value, sort_keys=True))


def peloton_spec(value: Any) -> dict[str, Any]:
    """A peloton from a shipped name, a file path or an already normalised mapping."""
    if isinstance(value, str):
        return resolve_peloton(value)
    if isinstance(value, Mapping):
        text = json.dumps(value, sort_keys=True)
        _checked_peloton(text)
        return json.loads(text)  # type: ignore[no-any-return]
    raise refusal(OptionsError, "wielersim.reason.peloton_kind")


@lru_cache(maxsize=64)
def _checked_peloton(text: str) -> Peloton:
    """The peloton of a mapping's JSON text, checked (cached: pelotons are immutable)."""
    try:
        pel = peloton_from_spec(json.loads(text))
    except (KeyError, TypeError, ValueError) as exc:
        raise refusal(OptionsError, "wielersim.reason.peloton_malformed",
                      detail=str(exc)) from None
    numbers = [r.number for r in pel.riders]
    if (len(set(numbers)) != len(numbers) or not 2 <= len(numbers) <= MAX_RIDERS
            or any(not 0 <= r.team < len(pel.teams) for r in pel.riders)
            or (pel.jersey is not None and pel.jersey not in numbers)):
        raise OptionsError("malformed peloton: rider numbers, teams or jersey do not fit")
    return pel


def compiled_tables(route: Mapping[str, Any], peloton: Mapping[str, Any]
                    ) -> tuple[dict[str, Any], dict[str, Any], CompiledRoute, Peloton]:
    """Check a route and a peloton given as mappings; return fresh normalised copies of
    both and their compiled forms (shared: compiled routes and pelotons never change)."""
    route_text = _route_text(route)
    peloton_text = json.dumps(peloton, sort_keys=True)
    compiled = _checked_peloton(peloton_text)
    return (json.loads(route_text), json.loads(peloton_text), compile_route_text(route_text),
            compiled)


@dataclass
class _Sprint:
    """A sprint in progress (the finish sprint of a group, or a virtual intermediate one)."""

    riders: list[int]
    vpos: list[int]
    seq: list[int]
    next: int
    counter: int
    marker: int  # -1 for the finish, else the index of the intermediate sprint
    gap: int

    def to_json(self) -> dict[str, Any]:
        return {"riders": self.riders, "vpos": self.vpos, "seq": self.seq, "next": self.next,
                "counter": self.counter, "marker": self.marker, "gap": self.gap}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> _Sprint:
        f = Fields(data, "WielerSIM sprint")
        return cls(f.int_list("riders"), f.int_list("vpos"), f.int_list("seq"),
                   f.get("next", int), f.get("counter", int), f.get("marker", int),
                   f.get("gap", int))


class WielersimState(State):
    """One WielerSIM race (a classic or one stage). A solo simulation: all chance."""

    game_name = "wielersim"

    def __init__(self, route: Mapping[str, Any], peloton: Mapping[str, Any],
                 board: int | None = None,
                 compiled: tuple[CompiledRoute, Peloton] | None = None) -> None:
        self.route_spec = dict(route)
        self.peloton_spec = dict(peloton)
        if compiled is None:
            compiled = compiled_tables(route, peloton)[2:]
        self.route: CompiledRoute = compiled[0]
        self.peloton: Peloton = compiled[1]
        self.record = True  # build events (False in the fast path)
        n = len(self.peloton.riders)
        self.n = n
        self.kind = tuple(r.kind for r in self.peloton.riders)
        self.edges = self.peloton.edges  # rider ratings (our extension); None: the text's rules
        rank_of_type = {t: i for i, t in enumerate(self.route.hierarchy)}
        self.rank = tuple(rank_of_type[k] for k in self.kind)
        self.board: int | None = board
        self.rough: tuple[tuple[int, ...], ...] = ()
        self.phase = BOARD
        self.rain = False
        self.weather: list[int] = []
        self.half_done = False
        self.grid_queue: list[int] = []
        self.turn = 0
        self.pos = [0] * n
        self.lane = [EMPTY] * n
        self.finished = [False] * n
        self.order: list[int] = []
        self.idx = 0
        self.start_pos = [0] * n
        self.done = [False] * n
        self.chain_value = 0
        self.chain_attack = False
        self.pending: Throw | None = None
        self.crash_queue: list[int] = []
        self.eot_stage = EndOfTurn.CLIMBS
        self.results: list[tuple[int, int, int]] = []  # (rider, gap seconds, turn)
        self.win_turn = -1
        self.win_pos = 0
        self.sprint: _Sprint | None = None
        self.sprint_places: list[list[int]] = [[] for _ in self.route.sprints]
        self.climb_places: list[list[int]] = [[] for _ in self.route.climbs]
        size = len(self.route.road)
        self.cells = [[EMPTY] * 6 for _ in range(size)]
        self.count = [0] * size
        self._events: list[Event] = []

    # --- copies and summaries ---------------------------------------------------------------
    _SHARED = frozenset(("route_spec", "peloton_spec", "route", "peloton", "kind", "rank",
                         "rough", "pending", "edges"))
    """Attributes never changed in place (only replaced whole): clones share them, so a
    clone does not copy the route and the peloton at every step."""
    _FLAT = frozenset(("weather", "grid_queue", "pos", "lane", "finished", "order",
                       "start_pos", "done", "crash_queue", "count", "results"))
    """Lists of numbers or of tuples of numbers: a shallow copy is independent."""
    _NESTED = frozenset(("cells", "sprint_places", "climb_places"))
    """Lists of lists of numbers."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        twin = type(self).__new__(type(self))
        memo[id(self)] = twin
        copied = twin.__dict__
        for key, value in self.__dict__.items():
            if key in self._SHARED:
                copied[key] = value
            elif key in self._FLAT:
                copied[key] = value[:]
            elif key in self._NESTED:
                copied[key] = [row[:] for row in value]
            else:
                copied[key] = copy.deepcopy(value, memo)
        twin._events = []
        return twin

    def __repr__(self) -> str:
        where = {BOARD: "before the board is drawn", WEATHER: "before the start",
                 GRID: "at the start", OVER: "over"}.get(self.phase, f"turn {self.turn}")
        return (f"<WielersimState {self.route.name}: {where}, "
                f"{len(self.results)} of {self.n} riders finished>")

    # --- set-up ---------------------------------------------------------------------------
    def begin(self) -> None:
        """Decide the first throw (board layout, or weather)."""
        if self.route.has_random_cobbles and self.board is None:
            self.phase = BOARD
            self.pending = Throw(dice.BOARD, EMPTY, BOARD_THROW)
        else:
            self.rough = self.route.roughness(self.board)
            self._to_weather()

    def _to_weather(self) -> None:
        self.phase = WEATHER
        self.pending = Throw(dice.D6_KIND, EMPTY, WEATHER_THROW)

    def grid_order(self) -> list[int]:
        """Order of the start throws: the jersey first, then by the race's hierarchy."""
        jersey = self.peloton.jersey
        return sorted(range(self.n), key=lambda r: (
            self.peloton.riders[r].number != jersey, self.rank[r], r))

    def is_favoured(self, r: int) -> bool:
        """Jersey holder or a rider of the race's highest type: the better start throw."""
        return self.peloton.riders[r].number == self.peloton.jersey or self.rank[r] == 0

    def _grid_kind(self, r: int) -> str:
        fav = self.is_favoured(r)
        if self.route.start_dice == "d6":
            return dice.FOUR_D6_REROLL if fav else dice.FOUR_D6
        return dice.BEST_TWO_OF_3D10 if fav else dice.TWO_D10

    def setup(self, placements: Mapping[int, tuple[int, int]], *, turn: int = 1,
              rain: bool = False, half_done: bool = True, play_turn: bool = True) -> None:
        """Put riders (by number) on ``(square, lane)`` and start racing from there.

        For worked examples and "what if" positions: riders not named have finished. With
        ``play_turn`` the turn ``turn`` is played from these squares; without it the turn
        counts as already played and only its end (finishes, sprints) is settled.
        """
        if self.pending is not None and self.pending.purpose == BOARD_THROW:
            self.board = 0
        self.rough = self.route.roughness(self.board)
        for r in range(self.n):
            self._lift(r)
            self.finished[r] = True
        for number, (square, lane) in placements.items():
            r = self.peloton.index_of(number)
            if not 0 <= lane < self.route.width[square] or self.cells[square][lane] != EMPTY:
                raise OptionsError(f"square {square} lane {lane} is taken or off the road")
            self.finished[r] = False
            self._put(r, square, lane)
        self.rain, self.half_done, self.phase = rain, half_done, RACE
        self.pending, self.grid_queue, self.crash_queue = None, [], []
        self.turn = turn - 1
        self._new_turn()
        if not play_turn:
            self.idx = len(self.order)
        self._continue()

    # --- protocol -------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 0

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else CHANCE

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.pending is None:
            return super().chance_outcomes()
        return list(dice.outcome_table(self.pending.kind))

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        if self.pending is None:
            return super().sample_chance(rng)
        value, faces = dice.throw(self.pending.kind, rng)
        return ChanceDraw(value, faces)

    def action_to_string(self, action: Action) -> str:
        if self.pending is None:
            return f"action {action}"
        throw = self.pending
        who = "" if throw.rider == EMPTY else f"#{self.peloton.riders[throw.rider].number} "
        return f"{who}{throw.purpose} {throw.kind} = {action}"

    def action_message(self, action: Action) -> Message:
        """The pending throw showing ``action``: whose it is, why, which dice (worded by
        ``dice.<kind>``, never the kind's code)."""
        throw = self.pending
        if throw is None:
            return super().action_message(action)
        params: dict[str, Any] = {"dice": {"key": f"dice.{throw.kind}"}, "value": action}
        if throw.rider == EMPTY:
            return Message("action.race_throw",
                           {"purpose": {"key": f"purpose.{throw.purpose}"}, **params})
        return Message("action.throw", {"rider": self.num(throw.rider),
                                        "act": {"key": f"act.{throw.purpose}"}, **params})

    def frame(self) -> dict[str, Any]:
        """The race now: every rider on the road as ``[bib, square, lane]``, the groups
        (``[rearmost square, front square, bibs]``, front group first), the weather and
        how many have finished. JSON values only."""
        road = self.on_road()
        groups = groups_of(road, self.pos) if road else []
        return {
            "game": self.game_name, "phase": self.phase, "turn": self.turn,
            "rain": self.rain,
            "riders": [[self.num(r), self.pos[r], self.lane[r]] for r in road],
            "groups": [[min(self.pos[r] for r in g), max(self.pos[r] for r in g),
                        [self.num(r) for r in g]] for g in groups],
            "finished": len(self.results),
        }

    def apply_action(self, action: Action, detail: Mapping[str, Any] | None = None
                     ) -> list[Event]:
        """Check that ``action`` is a value the pending throw can show (a set lookup,
        not a table of probabilities) and apply it."""
        if self.pending is None:
            raise IllegalActionError(action, "the race is over")
        if action not in dice.possible_values(self.pending.kind):
            raise IllegalActionError(action, "not a possible chance outcome here")
        return self._apply(action, detail)

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        self._events = []
        self.resolve(action, detail)
        events, self._events = self._events, []
        return events

    def emit(self, event_kind: str, /, **data: Any) -> None:
        """Record an event (callers check :attr:`record` first, to keep the fast path lean)."""
        self._events.append(Event(event_kind, data))

    def num(self, r: int) -> int:
        return self.peloton.riders[r].number

    # --- the state machine ------------------------------------------------------------------
    def resolve(self, value: int, detail: Mapping[str, Any] | None = None) -> None:
        """Apply the thrown ``value`` of the pending throw and run on to the next throw."""
        pending = self.pending
        assert pending is not None
        r, purpose = pending.rider, pending.purpose
        self.pending = None
        rec = self.record
        if not rec and purpose in RACE_PURPOSES:  # the fast path's common case
            self._race_throw(r, purpose, value)
            self._continue()
            return
        if rec:
            faces = list(detail["dice"]) if detail and "dice" in detail else None
            self.emit("throw", rider=None if r == EMPTY else self.num(r), purpose=purpose,
                      die=pending.kind, value=value, dice=faces, turn=self.turn)  # "die",
            # not "kind": a fact never hides the event's kind
        if purpose == BOARD_THROW:
            self.board = value
            self.rough = self.route.roughness(value)
            self._to_weather()
            return
        if purpose == WEATHER_THROW:
            self.weather.append(value)
            self.rain = value in RAIN_FACES
            if rec:
                self.emit("weather", rain=self.rain, roll=value, turn=self.turn)
            if self.phase == WEATHER:
                self.phase = GRID
                self.grid_queue = self.grid_order()
                self._next_grid()
            else:
                self._continue()
            return
        if purpose == GRID_THROW:
            self._grid_place(r, value)
            self._next_grid()
            return
        if purpose == SPRINT_THROW:
            self._sprint_step(value)
            self._continue()
            return
        self._race_throw(r, purpose, value)
        self._continue()

    def _next_grid(self) -> None:
        if self.grid_queue:
            r = self.grid_queue.pop(0)
            self.pending = Throw(self._grid_kind(r), r, GRID_THROW)
            return
        self.phase = RACE
        self._new_turn()
        self._continue()

    def _grid_place(self, r: int, value: int) -> None:
        row = min(value, self.route.distance - 1)
        while row >= 0 and self.count[row] >= self.route.width[row]:
            row -= 1
        if row < 0:  # every row behind is full: take the first free row ahead
            row = value + 1
            while self.count[row] >= self.route.width[row]:
                row += 1
        lane = choose_lane(self.cells[row], self.route.width[row], self.rough[row])
        self._put(r, row, lane)
        if self.record:
            self.emit("grid", rider=self.num(r), value=value, square=row, lane=lane)

    def _put(self, r: int, row: int, lane: int) -> None:
        self.pos[r] = row
        self.lane[r] = lane
        self.cells[row][lane] = r
        self.count[row] += 1

    def _lift(self, r: int) -> None:
        row, lane = self.pos[r], self.lane[r]
        if lane != EMPTY and self.cells[row][lane] == r:
            self.cells[row][lane] = EMPTY
            self.count[row] -= 1
        self.lane[r] = EMPTY

    def order_key(self, r: int) -> tuple[int, int, int]:
        """Order of play: furthest first; side by side, the higher type; then rightmost."""
        return (-self.pos[r], self.rank[r], -self.lane[r])

    def on_road(self) -> list[int]:
        return [r for r in range(self.n) if not self.finished[r]]

    def _new_turn(self) -> None:
        self.turn += 1
        pos, rank, lane = self.pos, self.rank, self.lane
        self.order = sorted(self.on_road(), key=lambda r: (-pos[r], rank[r], -lane[r]))
        self.start_pos = list(self.pos)
        self.done = [False] * self.n
        self.idx = 0
        self.chain_value = 0
        self.chain_attack = False
        self.eot_stage = EndOfTurn.CLIMBS

    def _continue(self) -> None:
        """Run the race on until a throw is needed or the race is over."""
        order, done = self.order, self.done
        while self.pending is None and self.phase != OVER:
            if self.phase == RACE and not self.crash_queue and self.idx < len(order):
                r = order[self.idx]
                if not done[r]:
                    self._start_move(r)
                    if self.pending is not None:
                        return
                self.idx += 1
                continue
            if self.phase == SPRINT:
                self._sprint_request()
                if self.pending is not None:
                    return
                self._sprint_finish()
                self.phase = RACE
                continue
            if self.crash_queue:
                self.pending = Throw(dice.D6_KIND, self.crash_queue[0], EVADE)
                return
            self._end_of_turn()
            order, done = self.order, self.done  # a new turn has new lists

    # --- a rider's move ---------------------------------------------------------------------
    def malus(self, r: int) -> int:
        """Steepness or roughness of the rider's square (0 on the flat), less his edge when
        riders are rated (our extension)."""
        penalty = square_penalty(self.route, self.rough, self.pos[r], self.lane[r])
        if self.edges is not None and penalty:
            penalty = rated_penalty(penalty, self.route.road[self.pos[r]], self.edges[r])
        return penalty

    def _start_move(self, r: int) -> None:
        """Follow by aspiration, or ask for the rider's throw (three dice for the rider whose
        type has the section's colour)."""
        p = self.pos[r]
        route = self.route
        own = dice.BEST_TWO_OF_3D6 if route.colour[p] == self.kind[r] else dice.TWO_D6
        if route.road[p] == COBBLES:  # no aspiration, no counters
            self.pending = Throw(own, r, ROLL)
            return
        idx = self.idx
        if idx > 0 and self.start_pos[self.order[idx - 1]] - p <= 1:  # same group
            if self.chain_attack:
                self.pending = Throw(own, r, COUNTER)
                return
            if self.chain_value >= ASPIRATION_MIN:
                if own == dice.BEST_TWO_OF_3D6:
                    self.pending = Throw(own, r, ACCEL)
                else:
                    self._move(r, self.chain_value, "follow")
                return
        self.pending = Throw(own, r, ROLL)

    def _own_throw(self, r: int, value: int, how: str) -> None:
        """A throw the rider makes himself: 7 goes to the event table, 11-12 attack."""
        if value == EVENT_ROLL:
            self.pending = Throw(dice.TWO_D6, r, EVENT)
            return
        self._move(r, value, how)
        cobbles = self.route.road[self.start_pos[r]] == COBBLES
        self.chain_value = value
        self.chain_attack = value >= ATTACK_MIN and not cobbles
        if self.chain_attack and self.record:
            self.emit("attack", rider=self.num(r), value=value, turn=self.turn)

    def _race_throw(self, r: int, purpose: str, value: int) -> None:
        if purpose == ROLL:
            self._own_throw(r, value, "roll")
        elif purpose == ACCEL:
            if value > self.chain_value:
                if self.record:
                    self.emit("accelerate", rider=self.num(r), value=value,
                              followed=self.chain_value, turn=self.turn)
                self._own_throw(r, value, "accelerate")
            else:
                self._move(r, self.chain_value, "follow")
        elif purpose == COUNTER:
            if value >= COUNTER_MIN:
                best = max(value, self.chain_value)
                if self.record:
                    self.emit("counter", rider=self.num(r), value=value, turn=self.turn)
                self._move(r, best, "counter")
                self.chain_value = best
            else:
                self._own_throw(r, value, "roll")
        elif purpose == EVENT:
            self._event(r, value)
        elif purpose == STEER:
            self._move(r, value, "steering error")
            self.chain_value, self.chain_attack = value, False
        elif purpose == EVADE:
            self.crash_queue.pop(0)
            if value == CRASH_EVADE:
                if self.record:
                    self.emit("evade", rider=self.num(r), turn=self.turn)
                self._move(r, CRASH_EVADE_MOVE, "evade")
            else:
                self.done[r] = True
                if self.record:
                    self.emit("crash", rider=self.num(r), square=self.pos[r], caused=False,
                              turn=self.turn)

    def _event(self, r: int, roll: int) -> None:
        p = self.pos[r]
        result = event_table(roll, self.rain, self.route.road[p] == COBBLES)
        if self.record and result not in ("crash", "nothing"):
            self.emit(result, rider=self.num(r), turn=self.turn, square=p)
        if result == "crash":
            self.done[r] = True
            self.chain_value, self.chain_attack = 0, False
            behind = [q for q in self.order[self.idx + 1:]
                      if not self.done[q] and self.pos[q] == p - 1
                      and abs(self.lane[q] - self.lane[r]) <= 1]
            if self.record:
                self.emit("crash", rider=self.num(r), square=p, caused=True, turn=self.turn,
                          behind=[self.num(q) for q in behind])
            self.crash_queue = behind
        elif result == "flat_tyre":
            self.done[r] = True
            self.chain_value, self.chain_attack = 0, False
        elif result == "steering_error":
            self.pending = Throw(dice.D6_KIND, r, STEER)
        elif result == "nothing":
            self._move(r, NOTHING_MOVE, "roll")
            self.chain_value, self.chain_attack = NOTHING_MOVE, False
        elif result == "acceleration":
            self._move(r, ACCELERATION_MOVE, "acceleration")
            self.chain_value, self.chain_attack = ACCELERATION_MOVE, False
        else:
            self._move(r, ATTACK_MOVE, "attack")
            self.chain_value, self.chain_attack = ATTACK_MOVE, True

    def _move(self, r: int, value: int, how: str) -> None:
        """Move rider ``r`` for a throw (or followed throw) of ``value``."""
        start = self.pos[r]
        route = self.route
        penalty = square_penalty(route, self.rough, start, self.lane[r])
        if self.edges is not None and penalty:
            penalty = rated_penalty(penalty, route.road[start], self.edges[r])
        steps = squares_moved(value, penalty)
        row = landing_row(start, start + steps, self.count, route.width)
        self.done[r] = True
        if row > start:
            cells, count = self.cells, self.count
            cells[start][self.lane[r]] = EMPTY
            count[start] -= 1
            lane = choose_lane(cells[row], route.width[row], self.rough[row])
            cells[row][lane] = r
            count[row] += 1
            self.pos[r] = row
            self.lane[r] = lane
        if self.record:
            self.emit("move", rider=self.num(r), how=how, value=value, start=start,
                      end=self.pos[r], lane=self.lane[r], blocked=row < start + steps,
                      turn=self.turn)

    # --- end of a turn ------------------------------------------------------------------------
    def _end_of_turn(self) -> None:
        if self.eot_stage == EndOfTurn.CLIMBS:
            if self.record:
                self.emit("turn", turn=self.turn, squares={str(self.num(r)): self.pos[r]
                                                           for r in self.on_road()})
            self._score_climbs()
            self.eot_stage = EndOfTurn.SPRINTS
        if self.eot_stage == EndOfTurn.SPRINTS:
            if self._score_sprints():
                return
            self.eot_stage = EndOfTurn.FINISH
        if self.eot_stage == EndOfTurn.FINISH:
            if self._finish_riders():
                return
            if any(self.finished):  # riders who finished with their group short of a line
                self._score_climbs()
                self._score_sprints()
            self.eot_stage = EndOfTurn.WEATHER
        if self.eot_stage == EndOfTurn.WEATHER:
            self.eot_stage = EndOfTurn.NEXT_TURN
            front = max(self.pos)
            if not self.half_done and front >= self.route.distance // 2:
                self.half_done = True
                self.pending = Throw(dice.D6_KIND, EMPTY, WEATHER_THROW)
                return
        if all(self.finished):
            self.phase = OVER
            self.order = []
            if self.record:
                self.emit("result", ranking=[self.num(r) for r, _, _ in self.results],
                          gaps=[g for _, g, _ in self.results])
            return
        self._new_turn()

    def _crossers(self, line: int, placed: Sequence[int]) -> list[int]:
        """Riders past ``line`` not yet placed there: those on or beyond it by square
        (rightmost first), then any who finished with their group without reaching it, in
        finishing order."""
        taken = set(placed)
        past = [r for r in range(self.n) if self.pos[r] >= line and r not in taken]
        past.sort(key=lambda r: (-self.pos[r], -self.lane[r], r))
        if any(self.finished):
            past.extend(r for r, _, _ in self.results if self.pos[r] < line and r not in taken)
        return past

    def _score_climbs(self) -> None:
        front = max(self.pos)
        for c, climb in enumerate(self.route.climbs):
            if climb.top > front:  # nobody there yet
                break
            places = self.climb_places[c]
            size = len(MOUNTAIN_POINTS[climb.category]) if climb.category else 1
            if len(places) >= size:
                continue
            new = self._crossers(climb.top, places)[: size - len(places)]
            if new and not places and self.record:
                self.emit("climb_top", climb=climb.name, category=climb.category,
                          rider=self.num(new[0]), turn=self.turn)
            places.extend(new)

    def _score_sprints(self) -> bool:
        """Place riders at intermediate sprints; True when a virtual sprint needs throws."""
        front = max(self.pos)
        for s, line in enumerate(self.route.sprints):
            if line > front:  # nobody there yet
                break
            places = self.sprint_places[s]
            if len(places) >= len(INTERMEDIATE_POINTS):
                continue
            new = self._crossers(line, places)
            if not new:
                continue
            if not places and not self.finished[new[0]]:
                road = self.on_road()
                group = next(g for g in groups_of(road, self.pos) if new[0] in g)
                if len(group) > 1:
                    self._start_sprint(group, s, 0)
                    return True
            places.extend(new[: len(INTERMEDIATE_POINTS) - len(places)])
        return False

    def _finish_riders(self) -> bool:
        """Finish riders past the line; True when a finish sprint needs throws.

        Times follow the text's formula (a minute per turn behind the winner, plus or
        minus so many seconds per square from the winner's end square), so a later
        finisher may get a smaller gap than one before him; places stay in order of
        arrival. With the route's ``monotonic_gaps`` (our variant) no finisher gets a
        smaller gap than the finisher before him.
        """
        line = self.route.distance
        road = self.on_road()
        crossers = [r for r in road if self.pos[r] >= line]
        if not crossers:
            return False
        monotonic = self.route.monotonic_gaps
        if self.route.finish == "uphill":
            ranked = sorted(crossers, key=lambda r: (-self.pos[r], -self.lane[r], r))
            if self.win_turn < 0:
                self.win_turn, self.win_pos = self.turn, self.pos[ranked[0]]
            for r in ranked:
                gap = uphill_gap(self.turn - self.win_turn, self.win_pos - self.pos[r])
                if monotonic and self.results:
                    gap = max(gap, self.results[-1][1])
                self._finish(r, gap)
            return False
        while True:
            crossers = [r for r in self.on_road() if self.pos[r] >= line]
            if not crossers:
                return False
            front = min(crossers, key=self.order_key)
            group = next(g for g in groups_of(self.on_road(), self.pos) if front in g)
            if self.win_turn < 0:
                self.win_turn, self.win_pos = self.turn, self.pos[front]
            gap = flat_gap(self.turn - self.win_turn, self.win_pos - self.pos[front])
            if monotonic and self.results:
                gap = max(gap, self.results[-1][1])
            if len(group) == 1:
                self._finish(group[0], gap)
                continue
            self._start_sprint(group, -1, gap)
            return True

    def _finish(self, r: int, gap: int) -> None:
        self.results.append((r, gap, self.turn))
        self.finished[r] = True
        self._lift(r)
        if self.record:
            self.emit("finish", rider=self.num(r), place=len(self.results), gap=gap,
                      turn=self.turn)

    # --- sprints --------------------------------------------------------------------------------
    def _start_sprint(self, group: list[int], marker: int, gap: int) -> None:
        riders = sorted(group, key=self.order_key)
        self.sprint = _Sprint(riders=riders, vpos=[self.pos[r] for r in riders],
                              seq=list(range(len(riders))), next=0, counter=len(riders),
                              marker=marker, gap=gap)
        self.phase = SPRINT
        if self.record:
            self.emit("sprint", riders=[self.num(r) for r in riders],
                      at="finish" if marker < 0 else f"sprint {marker + 1}", turn=self.turn)

    def _sprint_request(self) -> None:
        sp = self.sprint
        assert sp is not None
        if sp.next < len(sp.riders):
            r = sp.riders[sp.next]
            self.pending = Throw(sprint_kind(self.kind[r]), r, SPRINT_THROW)

    def _sprint_step(self, roll: int) -> None:
        sp = self.sprint
        assert sp is not None
        i = sp.next
        if self.edges is not None:
            roll = rated_sprint(roll, self.edges[sp.riders[i]])
        start = sp.vpos[i]
        others = [v for j, v in enumerate(sp.vpos) if j != i]
        bonus = sprint_bonus(start, roll, others)
        sp.vpos[i] = start + roll + bonus
        sp.seq[i] = sp.counter
        sp.counter += 1
        sp.next += 1
        if self.record:
            self.emit("sprint_move", rider=self.num(sp.riders[i]), roll=roll, bonus=bonus,
                      start=start, end=sp.vpos[i])

    def _sprint_finish(self) -> None:
        sp = self.sprint
        assert sp is not None
        order = sorted(range(len(sp.riders)), key=lambda j: (-sp.vpos[j], sp.seq[j]))
        ranked = [sp.riders[j] for j in order]
        self.sprint = None
        if sp.marker < 0:
            for r in ranked:
                self._finish(r, sp.gap)
        else:
            places = self.sprint_places[sp.marker]
            places.extend(ranked[: len(INTERMEDIATE_POINTS)])
            if self.record:
                self.emit("sprint_result", sprint=sp.marker + 1,
                          ranking=[self.num(r) for r in ranked[:3]], turn=self.turn)

    # --- results ----------------------------------------------------------------------------------
    def outcome(self) -> Outcome:
        """Order of arrival (the finish decides), scored in seconds behind the winner."""
        self.require_over()
        ranking = tuple(self.num(r) for r, _, _ in self.results)
        winner = self.results[0][0]
        return Outcome(ranking=ranking, winner=ranking[0],
                       scores={self.num(r): float(g) for r, g, _ in self.results},
                       score_name="seconds behind",
                       description=f"{self.peloton.riders[winner].name} wins",
                       termination=Termination.FINISH,
                       message=Message("outcome.race", {"route": self.route.name,
                                                        "rider": self.rider_message(winner)}))

    def rider_message(self, r: int) -> dict[str, Any]:
        """Rider ``r`` as a message parameter: name, bib number and team."""
        return rider_message(self.peloton, r)

    def sprint_points(self) -> list[int]:
        """Points from the intermediate sprints, per rider index."""
        pts = [0] * self.n
        for places in self.sprint_places:
            for i, r in enumerate(places[: len(INTERMEDIATE_POINTS)]):
                pts[r] += INTERMEDIATE_POINTS[i]
        return pts

    def mountain_points(self) -> list[int]:
        pts = [0] * self.n
        for climb, places in zip(self.route.climbs, self.climb_places, strict=True):
            if climb.category is None:
                continue
            table = MOUNTAIN_POINTS[climb.category]
            for i, r in enumerate(places[: len(table)]):
                pts[r] += table[i]
        return pts

    # --- saving -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "route": self.route_spec,
            "peloton": self.peloton_spec,
            "board": self.board,
            "phase": self.phase,
            "rain": self.rain,
            "weather": list(self.weather),
            "half_done": self.half_done,
            "grid_queue": list(self.grid_queue),
            "turn": self.turn,
            "pos": list(self.pos),
            "lane": list(self.lane),
            "finished": list(self.finished),
            "order": list(self.order),
            "idx": self.idx,
            "start_pos": list(self.start_pos),
            "done": list(self.done),
            "chain_value": self.chain_value,
            "chain_attack": self.chain_attack,
            "pending": None if self.pending is None else self.pending.to_json(),
            "crash_queue": list(self.crash_queue),
            "eot_stage": int(self.eot_stage),
            "results": [list(x) for x in self.results],
            "win_turn": self.win_turn,
            "win_pos": self.win_pos,
            "sprint": None if self.sprint is None else self.sprint.to_json(),
            "sprint_places": [list(p) for p in self.sprint_places],
            "climb_places": [list(p) for p in self.climb_places],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        f = Fields(data, "WielerSIM state")
        try:
            route, peloton, compiled_route, compiled_peloton = compiled_tables(
                f.get("route", dict), f.get("peloton", dict))
        except (InputFileError, OptionsError) as exc:
            raise SaveFormatError(f"WielerSIM state: {exc}") from None
        board = data.get("board")
        if board is not None and (not isinstance(board, int) or not
                                  0 <= board < dice.BOARD_LAYOUTS):
            raise SaveFormatError("WielerSIM state: board must be a layout number or null")
        state = cls(route, peloton, board, (compiled_route, compiled_peloton))
        n = state.n
        try:
            state.phase = f.get("phase", str)
            if state.phase not in PHASES:
                raise SaveFormatError(f"WielerSIM state: unknown phase {state.phase!r}")
            state.rain = f.get("rain", bool)
            state.weather = f.int_list("weather")
            state.half_done = f.get("half_done", bool)
            state.grid_queue = f.int_list("grid_queue")
            state.turn = f.get("turn", int)
            state.pos = f.int_list("pos")
            state.lane = f.int_list("lane")
            state.finished = [bool(x) for x in f.get("finished", list)]
            state.order = f.int_list("order")
            state.idx = f.get("idx", int)
            state.start_pos = f.int_list("start_pos")
            state.done = [bool(x) for x in f.get("done", list)]
            state.chain_value = f.get("chain_value", int)
            state.chain_attack = f.get("chain_attack", bool)
            pending = data.get("pending")
            state.pending = None if pending is None else Throw.from_json(pending, n)
            state.crash_queue = f.int_list("crash_queue")
            stage = f.get("eot_stage", int)
            if stage not in EndOfTurn.__members__.values():
                raise SaveFormatError(f"WielerSIM state: unknown end-of-turn step {stage!r}")
            state.eot_stage = EndOfTurn(stage)
            state.results = [(int(a), int(b), int(c)) for a, b, c in f.get("results", list)]
            state.win_turn = f.get("win_turn", int)
            state.win_pos = f.get("win_pos", int)
            sprint = data.get("sprint")
            state.sprint = None if sprint is None else _Sprint.from_json(sprint)
            state.sprint_places = [[int(r) for r in p] for p in f.get("sprint_places", list)]
            state.climb_places = [[int(r) for r in p] for p in f.get("climb_places", list)]
        except (TypeError, ValueError) as exc:
            if isinstance(exc, SaveFormatError):
                raise
            raise SaveFormatError(f"WielerSIM state: malformed field ({exc})") from None
        lists = (state.pos, state.lane, state.finished, state.start_pos, state.done)
        if any(len(x) != n for x in lists):
            raise SaveFormatError(f"WielerSIM state: expected {n} riders in every list")
        if (len(state.sprint_places) != len(state.route.sprints)
                or len(state.climb_places) != len(state.route.climbs)):
            raise SaveFormatError("WielerSIM state: sprint or climb places do not fit the route")
        riders = state.order + state.grid_queue + state.crash_queue + [
            r for r, _, _ in state.results]
        if any(not 0 <= r < n for r in riders):
            raise SaveFormatError("WielerSIM state: rider index out of range")
        size = len(state.route.road)
        for r in range(n):
            if state.lane[r] != EMPTY:
                row, lane = state.pos[r], state.lane[r]
                if not 0 <= row < size or not 0 <= lane < state.route.width[row] or \
                        state.cells[row][lane] != EMPTY:
                    raise SaveFormatError("WielerSIM state: riders overlap or leave the road")
                state._put(r, row, lane)
        if state.phase != BOARD or state.board is not None:
            state.rough = state.route.roughness(state.board)
        if state.phase != OVER and state.pending is None:
            raise SaveFormatError("WielerSIM state: a running race must have a pending throw")
        return state


def fresh_race(template: WielersimState) -> WielersimState:
    """A new race on the template's (already validated) route and peloton."""
    state = WielersimState(template.route_spec, template.peloton_spec, None,
                           (template.route, template.peloton))
    state.begin()
    return state


def run_race_fast(state: WielersimState, throws: dice.DiceBuffer, places: int | None = None
                  ) -> WielersimState:
    """Run ``state`` with the same rules, without validation or event records.

    With ``places`` it stops once that many riders have finished: places already given
    never change, so a prediction that counts the top ten need not ride the stragglers in.
    """
    state.record = False
    resolve = state.resolve
    throw = throws.throw
    results = state.results
    limit = state.n if places is None else places
    while state.pending is not None and len(results) < limit:
        resolve(throw(state.pending.kind))
    return state


def run_race_reference(state: WielersimState, throws: dice.DiceBuffer,
                       places: int | None = None) -> list[Event]:
    """Run ``state`` on the reference path (every value checked by ``apply_action``, every
    event recorded) with the dice of :func:`run_race_fast`: given equal buffers, both
    paths must end in equal states. Returns the events."""
    events: list[Event] = []
    limit = state.n if places is None else places
    while state.pending is not None and len(state.results) < limit:
        events.extend(state.apply_action(throws.throw(state.pending.kind)))
    return events


def steps_bound(distance: int, sprints: int, riders: int) -> int:
    """A bound on the throws of one race, exceeded with vanishing probability.

    Every rider gains at least one square per turn unless a crash or flat tyre costs him
    the move (about one turn in 60), so three turns per square of the route (plus the
    run-out) is far beyond any race; each turn needs at most three throws per rider, and
    each sprint (the intermediate ones and the finish) one per rider.
    """
    turns = 3 * (distance + 24)
    return 2 + riders + turns * (3 * riders + 2) + (sprints + 1) * riders
