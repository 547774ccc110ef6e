"""KEIRIN (Anki Toner, 2006/2012): the reference rules engine.

Positions are squares counted from the derny's starting square (square 0); the finish
line is at square ``length`` (50 by default: the end of that half of the 100-square
track). Riders behind square 0 have negative positions. See docs/rules/keirin.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar, Self

import numpy as np
from pydantic import Field, field_validator

from raceday.core.dice import Dist
from raceday.core.errors import OptionsError, SaveFormatError, refusal
from raceday.core.events import Event, Message
from raceday.core.game import GameOptions
from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, Outcome, State
from raceday.core.serialize import Fields

# The track's constants and line-up live in a light module (the fast odds start needs
# them without pydantic).
from raceday.games.keirin.track import (
    DERNY,
    DERNY_DICE,
    LENGTH,
    RIDERS,
    SPACING,
    starting_positions,
)

PHASE_DERNY = "derny"
PHASE_RACE = "race"
PHASE_PHOTO = "photo"
PHASE_OVER = "over"
PHASES = (PHASE_DERNY, PHASE_RACE, PHASE_PHOTO, PHASE_OVER)


def throw_value(dice: Sequence[int]) -> int:
    """Squares gained by one throw: 1s and 2s count as 3, the highest die counts, and
    every six beyond the first adds one square."""
    if not dice:
        raise ValueError("a throw needs at least one die")
    if any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must show 1 to 6, got {list(dice)}")
    sixes = sum(1 for d in dice if d == 6)
    if sixes:
        return 6 + sixes - 1
    return max(max(d, 3) for d in dice)


KEIRIN_DIE: Dist[int] = Dist.from_faces([3, 3, 3, 4, 5, 6])


@cache
def throw_distribution(dice: int) -> Dist[int]:
    """Exact distribution of :func:`throw_value` for ``dice`` fair dice."""
    if dice < 1:
        raise ValueError("a throw needs at least one die")

    def add(acc: tuple[int, int], face: int) -> tuple[int, int]:
        best, sixes = acc
        return (max(best, face), sixes + (face == 6))

    folded = KEIRIN_DIE.repeat(dice, add, (0, 0))
    return folded.map(lambda acc: 6 + acc[1] - 1 if acc[1] else acc[0])


@cache
def derny_distribution() -> Dist[int]:
    """The derny's advance: the sum of three dice."""
    return Dist.die(6).sum_of(DERNY_DICE)


@cache
def _outcome_table(dice: int) -> tuple[tuple[tuple[int, Fraction], ...], np.ndarray, np.ndarray]:
    items = tuple(throw_distribution(dice).items())
    values = np.array([v for v, _ in items])
    cdf = np.cumsum([float(p) for _, p in items])
    return items, values, cdf


def _whole_number_from(low: int, high: int, why: str = "reason.range_got") -> Any:
    """A check run before pydantic's own: a whole number from ``low`` to ``high``, refused
    with the game's own words, ``why`` (the range is also declared on the field, for the
    schema)."""

    def check(value: object) -> object:
        if value is None:
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise refusal(OptionsError, "reason.whole_got", got=repr(value))
        if not low <= value <= high:
            raise refusal(OptionsError, why, low=low, high=high, got=value)
        return value

    return check


class KeirinOptions(GameOptions):
    """Options that change a KEIRIN race."""

    game_title: ClassVar[str] = "KEIRIN"
    title_words: ClassVar[str | None] = "keirin.title"

    riders: int = Field(
        default=RIDERS.default, ge=RIDERS.low, le=RIDERS.high, strict=True,
        description=f"Number of riders, {RIDERS.low}–{RIDERS.high} (drops the highest "
        "numbers).", json_schema_extra={"cli": ["--riders", "-r"]})
    length: int = Field(
        default=LENGTH.default, ge=LENGTH.low, le=LENGTH.high, strict=True,
        description=f"Squares from the derny's start to the finish line, {LENGTH.low}–"
        f"{LENGTH.high} (100 = a lap).", json_schema_extra={"cli": ["--length", "-l"]})
    derny: int | None = Field(
        default=DERNY.default, ge=DERNY.low, le=DERNY.high, strict=True,
        description=f"Fix the derny's 3d6 advance ({DERNY.low}–{DERNY.high}) to ask 'what "
        "if'.")

    _riders = field_validator("riders", mode="before")(
        _whole_number_from(RIDERS.low, RIDERS.high, "keirin.reason.riders"))
    _length = field_validator("length", mode="before")(
        _whole_number_from(LENGTH.low, LENGTH.high, "keirin.reason.length"))
    _derny = field_validator("derny", mode="before")(_whole_number_from(DERNY.low, DERNY.high))

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> KeirinOptions:
        """The old name of :meth:`parse` (kept for callers outside the package)."""
        return cls.parse(options)

    def max_turns(self) -> int:
        """No rider needs more turns than this to cross (every throw gains at least 3)."""
        furthest_back = DERNY_DICE - SPACING * self.riders
        return -(-(self.length - furthest_back) // 3)

    def max_steps(self, photo_allowance: int = 1000) -> int:
        return 1 + self.riders * self.max_turns() + photo_allowance


class KeirinState(State):
    """A KEIRIN race. All decisions are chance: every node is CHANCE until the end."""

    game_name = "keirin"

    def __init__(self, options: KeirinOptions | None = None) -> None:
        self.options = options or KeirinOptions()
        self.phase = PHASE_DERNY
        self.derny: int | None = None
        self.turn = 0
        self.positions: list[int] = []
        self.turn_start: list[int] = []
        self.ranked: list[int] = []
        self.to_throw: list[int] = []
        self.photo_groups: list[list[int]] = []
        self.photo_throws: dict[int, int] = {}

    # --- protocol -----------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 0

    def current_player(self) -> int:
        return TERMINAL if self.phase == PHASE_OVER else CHANCE

    def active_riders(self) -> list[int]:
        ranked = set(self.ranked)
        return [r for r in range(1, self.options.riders + 1) if r not in ranked]

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == PHASE_DERNY:
            if self.options.derny is not None:
                return [(self.options.derny, Fraction(1))]
            return derny_distribution().items()
        if self.phase in (PHASE_RACE, PHASE_PHOTO):
            return list(_outcome_table(self.to_throw[0])[0])
        return super().chance_outcomes()

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        if self.phase == PHASE_DERNY:
            if self.options.derny is not None:
                return ChanceDraw(self.options.derny)
            dice = [int(d) for d in rng.integers(1, 7, size=DERNY_DICE)]
            return ChanceDraw(sum(dice), {"dice": dice})
        rider = self.to_throw[0]
        dice = [int(d) for d in rng.integers(1, 7, size=rider)]
        return ChanceDraw(throw_value(dice), {"dice": dice})

    def action_to_string(self, action: Action) -> str:
        if self.phase == PHASE_DERNY:
            return f"derny {action}"
        if self.phase == PHASE_RACE:
            return f"rider {self.to_throw[0]} +{action}"
        if self.phase == PHASE_PHOTO:
            return f"rider {self.to_throw[0]} photo-finish +{action}"
        return f"action {action}"

    def action_message(self, action: Action) -> Message:
        """A throw in words: the derny's total, or a rider's squares (a lesson's learner
        picks them from a menu)."""
        if self.phase == PHASE_DERNY:
            return Message("keirin.action.derny_throw", {"total": action})
        if self.phase in (PHASE_RACE, PHASE_PHOTO) and self.to_throw:
            kind = "rider_throw" if self.phase == PHASE_RACE else "photo_throw"
            return Message(f"keirin.action.{kind}", {"rider": self.to_throw[0],
                                                     "total": action})
        return super().action_message(action)

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        dice = list(detail["dice"]) if detail and "dice" in detail else None
        if self.phase == PHASE_DERNY:
            return self._start(action, dice)
        rider = self.to_throw.pop(0)
        if self.phase == PHASE_RACE:
            before = self.positions[rider - 1]
            self.positions[rider - 1] = before + action
            events = [
                Event(
                    "throw",
                    {"turn": self.turn, "rider": rider, "dice": dice, "advance": action,
                     "from": before, "to": before + action},
                )
            ]
            if not self.to_throw:
                events.extend(self._end_turn())
            return events
        # photo-finish throw
        self.photo_throws[rider] = action
        events = [
            Event(
                "photo_throw",
                {"turn": self.turn, "rider": rider, "dice": dice, "advance": action},
            )
        ]
        if not self.to_throw:
            events.extend(self._settle_photo())
        return events

    # --- transitions --------------------------------------------------------------------
    def _start(self, derny: int, dice: list[int] | None) -> list[Event]:
        self.derny = derny
        self.positions = starting_positions(derny, self.options.riders)
        lineup = [derny - SPACING * r for r in range(1, self.options.riders + 1)]
        self.phase = PHASE_RACE
        self.turn = 1
        self.to_throw = self.active_riders()
        self.turn_start = list(self.positions)
        return [
            Event("derny", {"roll": derny, "dice": dice, "dice_known": dice is not None}),
            Event("lineup", {"positions": lineup, "finish": self.options.length,
                             "to_go": self.options.length - lineup[0]}),
            Event("slipstream", {"rider": 1, "from": lineup[0], "to": self.positions[0]}),
        ]

    def _end_turn(self) -> list[Event]:
        events: list[Event] = []
        active = self.active_riders()
        for rider in active:
            passed = [
                other
                for other in active
                if other != rider
                and self.turn_start[rider - 1] < self.turn_start[other - 1]
                and self.positions[rider - 1] > self.positions[other - 1]
            ]
            if passed:
                events.append(Event("overtake", {"turn": self.turn, "rider": rider,
                                                 "passed": passed, "several": len(passed) > 1}))
        front = max(self.positions[r - 1] for r in active)
        leaders = [r for r in active if self.positions[r - 1] == front]
        for_place = len(self.ranked) + 1
        events.append(
            Event(
                "turn",
                {"turn": self.turn, "positions": list(self.positions), "leaders": leaders,
                 "active": active, "for_place": for_place, "chasing": for_place > 1,
                 "level": len(leaders) > 1},
            )
        )
        line = self.options.length
        crossers = [r for r in active if self.positions[r - 1] >= line]
        if crossers:
            by_distance: dict[int, list[int]] = {}
            for r in crossers:
                by_distance.setdefault(self.positions[r - 1] - line, []).append(r)
            groups = [sorted(by_distance[d]) for d in sorted(by_distance, reverse=True)]
            riders = [r for g in groups for r in g]
            events.append(
                Event(
                    "cross",
                    {"turn": self.turn, "riders": riders,
                     "past": [self.positions[r - 1] - line for r in riders],
                     "several": len(riders) > 1},
                )
            )
            self.photo_groups = groups
        events.extend(self._resolve_groups())
        return events

    def _resolve_groups(self) -> list[Event]:
        """Rank clear crossers; start a photo-finish at the first tie; else go on."""
        events: list[Event] = []
        while self.photo_groups and len(self.photo_groups[0]) == 1:
            rider = self.photo_groups.pop(0)[0]
            self.ranked.append(rider)
            events.append(Event("place", {"place": len(self.ranked), "rider": rider,
                                          "turn": self.turn}))
        if self.photo_groups:
            tied = self.photo_groups[0]
            self.phase = PHASE_PHOTO
            self.to_throw = list(tied)
            self.photo_throws = {}
            events.append(Event("photo_finish", {"turn": self.turn, "riders": list(tied),
                                                 "for_place": len(self.ranked) + 1}))
            return events
        if len(self.ranked) == self.options.riders:
            self.phase = PHASE_OVER
            self.to_throw = []
            events.append(Event("result", {"ranking": list(self.ranked), "turns": self.turn}))
            return events
        if self.phase == PHASE_PHOTO or self.to_throw == []:
            self.phase = PHASE_RACE
            if not self.to_throw:
                self.turn += 1
                self.to_throw = self.active_riders()
                self.turn_start = list(self.positions)
        return events

    def _settle_photo(self) -> list[Event]:
        tied = self.photo_groups.pop(0)
        by_throw: dict[int, list[int]] = {}
        for r in tied:
            by_throw.setdefault(self.photo_throws[r], []).append(r)
        split = [sorted(by_throw[v]) for v in sorted(by_throw, reverse=True)]
        self.photo_groups[:0] = split
        self.photo_throws = {}
        return self._resolve_groups()

    # --- results ------------------------------------------------------------------------
    def squares_past(self, rider: int) -> int:
        """Squares past the line where ``rider`` landed in the turn it crossed."""
        return self.positions[rider - 1] - self.options.length

    def outcome(self) -> Outcome:
        """Riders best first, by order of arrival: the turn each crossed, then how far past
        the line it landed, then photo-finish throws. No single number decides that order
        (a rider landing 6 past the line a turn later is behind one landing 1 past), so,
        as for any race decided by order of arrival, ``scores`` is empty; the squares past
        the line are :meth:`squares_past`. The race has no decision-making players."""
        self.require_over()
        winner = self.ranked[0]
        past = self.squares_past(winner)
        return Outcome(
            ranking=tuple(self.ranked),
            winner=winner,
            description=f"rider {winner} wins, {past} square{'s' if past != 1 else ''} past "
            "the line",
        )

    # --- copies and summaries --------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """Share the (frozen) options; copy every list."""
        twin = type(self).__new__(type(self))
        memo[id(self)] = twin
        twin.__dict__.update(self.__dict__)
        for key in ("positions", "turn_start", "ranked", "to_throw"):
            setattr(twin, key, list(getattr(self, key)))
        twin.photo_groups = [list(g) for g in self.photo_groups]
        twin.photo_throws = dict(self.photo_throws)
        return twin

    def __repr__(self) -> str:
        where = {PHASE_DERNY: "before the derny's throw", PHASE_OVER: "over"}.get(
            self.phase, f"turn {self.turn}" + (", photo-finish" if self.phase == PHASE_PHOTO
                                               else ""))
        return (f"<KeirinState {self.options.riders} riders to {self.options.length}: {where}, "
                f"{len(self.ranked)} of {self.options.riders} placed>")

    # --- saving -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "phase": self.phase,
            "derny": self.derny,
            "turn": self.turn,
            "positions": list(self.positions),
            "turn_start": list(self.turn_start),
            "ranked": list(self.ranked),
            "to_throw": list(self.to_throw),
            "photo_groups": [list(g) for g in self.photo_groups],
            "photo_throws": [[r, v] for r, v in sorted(self.photo_throws.items())],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        f = Fields(data, "KEIRIN state")
        options = f.parsed("options", KeirinOptions.parse)
        state = cls(options)
        phase = f.get("phase", str)
        if phase not in PHASES:
            raise SaveFormatError(f"KEIRIN state: unknown phase {phase!r}")
        state.phase = phase
        derny = data.get("derny")
        if derny is not None and not isinstance(derny, int):
            raise SaveFormatError("KEIRIN state: derny must be a number or null")
        state.derny = derny
        state.turn = f.get("turn", int)
        state.positions = f.int_list("positions")
        state.turn_start = f.int_list("turn_start")
        state.ranked = f.int_list("ranked")
        state.to_throw = f.int_list("to_throw")
        groups = f.get("photo_groups", list)
        throws = f.get("photo_throws", list)
        try:
            state.photo_groups = [[int(r) for r in g] for g in groups]
            state.photo_throws = {int(r): int(v) for r, v in throws}
        except (TypeError, ValueError):
            raise SaveFormatError("KEIRIN state: malformed photo-finish fields") from None
        riders = options.riders
        if phase != PHASE_DERNY and len(state.positions) != riders:
            raise SaveFormatError(f"KEIRIN state: expected {riders} positions")
        if any(not 1 <= r <= riders for r in state.ranked + state.to_throw):
            raise SaveFormatError("KEIRIN state: rider number out of range")
        if phase in (PHASE_RACE, PHASE_PHOTO) and not state.to_throw:
            raise SaveFormatError("KEIRIN state: no rider left to throw in a running race")
        return state


def new_race(options: Mapping[str, Any] | KeirinOptions | None = None) -> KeirinState:
    """A fresh race (before the derny's roll); :class:`OptionsError` for bad options."""
    return KeirinState(KeirinOptions.parse(options))
