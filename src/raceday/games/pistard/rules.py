"""PISTARD (Anki Toner, 2009/2010): the reference rules engine for all six race variants.

Geometry. A rider stands at a *distance* (columns travelled from his own start line; riders
start behind it at distances -1 .. -START_ZONE) and a *lane* (1 = inner .. 4 = outer). The
square he physically occupies is column ``(distance + offset) mod length`` of the track, where
``offset`` is 0 except for the second team of a team pursuit (half a lap). Two riders can
never share a physical square, whatever their lap.

A turn of one rider: he throws the four coloured dice (a chance node with 6^4 ordered
outcomes), then chooses one die (optionally raised by one with an energy token). A die of
value v moves him through v pips of forward steps: straight (1 pip), diagonally inwards
(1 pip) or diagonally outwards (2 pips), all lane changes in one direction, never through or
onto an occupied square. The move must end on a square of the die's colour or directly
behind another rider. Moves are named by destination, so the decision after the throw is
one action per (destination, token spent) pair.

See docs/rules/pistard.md for the variants and our completions of the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Self

import numpy as np

from raceday.core.errors import InputFileError, OptionsError, SaveFormatError
from raceday.core.events import Event
from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, Outcome, State
from raceday.core.serialize import Fields
from raceday.games.pistard.track import COLOURS, LANES, Track, load_track, track_from_mapping

VARIANTS = ("scratch", "points", "elimination", "sprint", "ttt", "pursuit")
TEAM_VARIANTS = ("ttt", "pursuit")
START_ZONE = 6  # columns behind the line where riders may be placed
DICE = 4
FACES = 6
THROWS = FACES**DICE
DEFAULT_TOKENS = 3
DEFAULT_LAP_POINTS = (5, 3, 2, 1)
LAP_BONUS = 20
TEAM_COUNTS = 3  # the third rider of a team counts (team pursuit, team time trial)

# Action encoding (stable across chance, so the open-loop search can share statistics).
# A move is RIDER_BASE * rider id + code, code = TOKEN_FLAG * token + 10 * columns ahead +
# destination lane, or STAY: so one rider's moves never share a number with another's (the
# open-loop search keys its statistics by action number).
RIDER_BASE = 1000
STAY = 0  # code of standing still: sur place (sprint) or declining a move that needs a token
TOKEN_FLAG = 100
PLACE_BASE = 100_000  # placement = PLACE_BASE + 10 * columns behind the line + lane
CHOOSE_BASE = 200_000  # team variants: CHOOSE_BASE + rider id = "this rider throws next"

PHASE_PLACE = "place"
PHASE_RACE = "race"
PHASE_OVER = "over"
PHASES = (PHASE_PLACE, PHASE_RACE, PHASE_OVER)

WAIT = "wait"  # not yet placed for the current race (or heat)
RACE = "race"
OUT = "out"  # eliminated or fallen
STATUSES = (WAIT, RACE, OUT)

_UNIFORM = Fraction(1, THROWS)
_THROW_OUTCOMES: tuple[tuple[Action, Fraction], ...] = tuple((i, _UNIFORM) for i in range(THROWS))


def dice_from_action(action: Action) -> tuple[int, int, int, int]:
    """The four dice (yellow, green, blue, red) of a throw outcome 0..1295."""
    if not 0 <= action < THROWS:
        raise ValueError(f"throw outcome must be 0 to {THROWS - 1}, got {action}")
    return (action // 216 + 1, action // 36 % 6 + 1, action // 6 % 6 + 1, action % 6 + 1)


def action_from_dice(dice: Sequence[int]) -> Action:
    """The throw outcome for dice (yellow, green, blue, red), each 1..6."""
    if len(dice) != DICE or any(not 1 <= d <= FACES for d in dice):
        raise ValueError(f"a throw is four dice 1..6 (yellow, green, blue, red), got {dice}")
    y, g, b, r = (d - 1 for d in dice)
    return y * 216 + g * 36 + b * 6 + r


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(f"{COLOURS[i]} {v}" for i, v in enumerate(dice))


def die_options(dice: Sequence[int], token: bool) -> list[tuple[int, int]]:
    """(colour, value) pairs a rider may play: the dice as thrown, or with ``token`` each die
    raised by one where that stays at most 6 (the energy-token rule)."""
    if not token:
        return [(c, v) for c, v in enumerate(dice)]
    return [(c, v + 1) for c, v in enumerate(dice) if v < FACES]


def move_action(ident: int, ahead: int, lane: int, token: bool) -> Action:
    """The action number of rider ``ident``'s move to ``ahead`` columns on in ``lane``."""
    return RIDER_BASE * ident + TOKEN_FLAG * int(token) + 10 * ahead + lane


@dataclass(frozen=True)
class MoveInfo:
    """What a move action does: destination and the die (canonical choice) that allows it."""

    ahead: int
    lane: int
    token: bool
    colour: int
    value: int
    behind: bool  # ends directly behind a rider (rather than, or as well as, on its colour)


@dataclass(frozen=True)
class PistardOptions:
    """Options of a PISTARD race (validated)."""

    variant: str = "scratch"
    players: int | None = None
    riders_per_player: int | None = None
    tokens: int = DEFAULT_TOKENS
    laps: int | None = None
    lap_points: tuple[int, ...] = DEFAULT_LAP_POINTS
    track: str = "default"
    max_rounds: int | None = None

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise OptionsError(
                f"unknown variant {self.variant!r}; choose one of {', '.join(VARIANTS)}"
            )
        for name in ("players", "riders_per_player", "laps", "max_rounds"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise OptionsError(f"{name} must be a whole number, got {value!r}")
        if not isinstance(self.tokens, int) or not 0 <= self.tokens <= 20:
            raise OptionsError(f"tokens must be 0 to 20 per player, got {self.tokens!r}")
        lo, hi = self.players_range()
        if not lo <= self.num_players <= hi:
            what = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            noun = "player" if hi == 1 else "players"
            raise OptionsError(f"{self.variant} needs {what} {noun}, got {self.num_players}")
        rlo, rhi = self.riders_range()
        if not rlo <= self.riders_each <= rhi:
            raise OptionsError(
                f"{self.variant}: riders per player must be {rlo} to {rhi}, "
                f"got {self.riders_each}"
            )
        if self.variant in ("scratch", "points", "elimination"):
            total = self.num_players * self.riders_each
            minimum = 3 if self.variant == "elimination" else 2
            if not minimum <= total <= 12:
                raise OptionsError(
                    f"{self.variant} needs {minimum} to 12 riders in all (6 to 10 recommended), "
                    f"got {total}; change --riders-per-player"
                )
        if self.laps is not None:
            if self.variant != "points":
                raise OptionsError("laps can only be chosen for the points race")
            if not 1 <= self.laps <= 50:
                raise OptionsError(f"laps must be 1 to 50, got {self.laps}")
        if (
            not isinstance(self.lap_points, tuple)
            or not 1 <= len(self.lap_points) <= 8
            or any(not isinstance(p, int) or p < 0 for p in self.lap_points)
        ):
            raise OptionsError("lap_points must be 1 to 8 whole numbers of points, e.g. 5,3,2,1")
        if self.max_rounds is not None and not 1 <= self.max_rounds <= 100_000:
            raise OptionsError(f"max_rounds must be 1 to 100000, got {self.max_rounds}")

    # --- derived values ---------------------------------------------------------------
    def players_range(self) -> tuple[int, int]:
        return {"sprint": (2, 2), "ttt": (1, 1), "pursuit": (2, 2)}.get(self.variant, (2, 5))

    def riders_range(self) -> tuple[int, int]:
        return {"sprint": (1, 1), "ttt": (3, 6), "pursuit": (3, 6)}.get(self.variant, (1, 6))

    @property
    def num_players(self) -> int:
        if self.players is not None:
            return self.players
        return {"ttt": 1}.get(self.variant, 2)

    @property
    def riders_each(self) -> int:
        if self.riders_per_player is not None:
            return self.riders_per_player
        if self.variant == "sprint":
            return 1
        if self.variant in TEAM_VARIANTS:
            return 4
        return {2: 4, 3: 3}.get(self.num_players, 2)

    @property
    def total_riders(self) -> int:
        return self.num_players * self.riders_each

    @property
    def race_laps(self) -> int:
        if self.variant == "points":
            return self.laps if self.laps is not None else 10
        return 1

    def round_cap(self, track_length: int) -> int:
        """Rounds after which the commissaires stop a race (or heat) and rank it as it stands.

        Never reached in practice (see docs); it makes every game end within a stated bound.
        """
        if self.max_rounds is not None:
            return self.max_rounds
        return 3 * (self.race_laps * track_length + START_ZONE) + 3

    def max_steps(self, track_length: int) -> int:
        """A bound on the steps (chance + decisions) of any game with these options."""
        heats = self.total_riders - 1 if self.variant == "elimination" else 1
        per_round = 3 * self.total_riders  # choose-next, throw and move for every rider
        per_heat = self.total_riders + self.round_cap(track_length) * per_round
        return heats * per_heat + 10

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "riders_per_player": self.riders_per_player,
            "tokens": self.tokens,
            "laps": self.laps,
            "lap_points": list(self.lap_points),
            "track": self.track,
            "max_rounds": self.max_rounds,
        }

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> PistardOptions:
        allowed = {"variant", "players", "riders_per_player", "tokens", "laps", "lap_points",
                   "track", "max_rounds"}
        unknown = set(options) - allowed
        if unknown:
            raise OptionsError(
                f"unknown PISTARD option(s): {', '.join(sorted(unknown))}; "
                f"allowed: {', '.join(sorted(allowed))}"
            )
        data = dict(options)
        if "lap_points" in data:
            points = data["lap_points"]
            if not isinstance(points, (list, tuple)):
                raise OptionsError("lap_points must be a list of whole numbers")
            data["lap_points"] = tuple(points)
        return cls(**data)


@dataclass
class Rider:
    """One rider: identity, owner (player), where he is and whether he is racing."""

    ident: int
    owner: int
    offset: int = 0
    dist: int = 0
    lane: int = 0
    status: str = WAIT

    def to_json(self) -> list[Any]:
        return [self.ident, self.owner, self.offset, self.dist, self.lane, self.status]


@dataclass
class _Cache:
    moves: dict[Action, MoveInfo] | None = None
    stay_allowed: bool = False


class PistardState(State):
    """A PISTARD race in any of the six variants."""

    game_name = "pistard"

    def __init__(self, options: PistardOptions | None = None, track: Track | None = None) -> None:
        self.options = options or PistardOptions()
        self.track = track if track is not None else load_track(self.options.track)
        opts = self.options
        half = self.track.length // 2
        self.riders: list[Rider] = []
        for p in range(opts.num_players):
            offset = half if (opts.variant == "pursuit" and p == 1) else 0
            for k in range(opts.riders_each):
                self.riders.append(Rider(ident=10 * (p + 1) + k + 1, owner=p, offset=offset))
        self.tokens = [opts.tokens] * opts.num_players
        self.phase = PHASE_PLACE
        self.heat = 1
        self.round = 0
        self.rounds_total = 0
        self.place_queue: list[int] = self._first_place_order()
        self.to_move: list[int] = []
        self.mover: int | None = None
        self.dice: list[int] | None = None
        self.stills = [0] * len(self.riders)  # sprint: consecutive stand-stills
        self.points = [0] * len(self.riders)  # points race (includes lap bonuses)
        self.laps_delta = [0] * len(self.riders)  # points race: laps gained (+) / lost (-)
        self.sprints: list[list[int]] = [[] for _ in range(opts.race_laps)]
        self.crossed: list[list[int]] = []  # this round: [rider, lap line] crossings
        self.eliminated: list[int] = []  # elimination: riders out, first out first
        self.ranking: list[int] = []  # final ranking of rider indices (or teams)
        self.stopped = False  # the round cap stopped the race
        self.team_times: list[list[int]] = []  # pursuit/ttt: [rounds, past] per team
        self._cache = _Cache()

    # --- set-up -----------------------------------------------------------------------
    def _first_place_order(self) -> list[int]:
        """Players in turn place one rider each (their riders in number order)."""
        by_player = [[i for i, r in enumerate(self.riders) if r.owner == p]
                     for p in range(self.options.num_players)]
        order: list[int] = []
        for k in range(max(len(b) for b in by_player)):
            for b in by_player:
                if k < len(b):
                    order.append(b[k])
        return order

    # --- protocol: who acts -----------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.options.num_players

    def current_player(self) -> int:
        return self.raw_player()

    def raw_player(self) -> int:
        """Who acts by the rules (subclasses such as the search's view may re-label it)."""
        if self.phase == PHASE_OVER:
            return TERMINAL
        if self.phase == PHASE_PLACE:
            return self.riders[self.place_queue[0]].owner
        if self.mover is None:
            return self.riders[self.to_move[0]].owner
        if self.dice is None:
            return CHANCE
        return self.riders[self.mover].owner

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.current_player() != CHANCE:
            return super().chance_outcomes()
        return list(_THROW_OUTCOMES)

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        dice = [int(d) for d in rng.integers(1, FACES + 1, size=DICE)]
        return ChanceDraw(action_from_dice(dice), {"dice": dice})

    def legal_actions(self) -> list[Action]:
        if self.current_player() < 0:
            return []
        return self.decision_actions()

    def decision_actions(self) -> list[Action]:
        """The legal actions of the player the rules say acts (at a decision node)."""
        if self.phase == PHASE_PLACE:
            return self.placement_actions()
        if self.mover is None:
            return [CHOOSE_BASE + self.riders[i].ident for i in self.choosable()]
        moves = self.move_table()
        actions = sorted(moves)
        if self._cache.stay_allowed:
            actions.insert(0, self.stay_action())
        return actions

    def action_to_string(self, action: Action) -> str:
        player = self.current_player()
        if player == CHANCE:
            return "throw " + dice_text(dice_from_action(action))
        if self.phase == PHASE_PLACE:
            rider = self.riders[self.place_queue[0]]
            back, lane = divmod(action - PLACE_BASE, 10)
            return f"place {rider.ident} at {back} behind the line in lane {lane}"
        if self.mover is None:
            return f"next rider {action - CHOOSE_BASE}"
        rider = self.riders[self.mover]
        if action == self.stay_action():
            return f"{rider.ident} stands still"
        info = self.move_table().get(action)
        if info is None:
            return f"{rider.ident} move {action} (not legal here)"
        token = " +1 token" if info.token else ""
        why = "behind a rider" if info.behind else "on its colour"
        return (
            f"{rider.ident} {COLOURS[info.colour]} {info.value}{token}: {info.ahead} ahead "
            f"to lane {info.lane} ({why})"
        )

    # --- geometry ---------------------------------------------------------------------
    def square_of(self, rider: Rider) -> tuple[int, int]:
        return ((rider.dist + rider.offset) % self.track.length, rider.lane)

    def occupancy(self, exclude: int | None = None) -> dict[tuple[int, int], int]:
        """Physical square -> rider index, for riders on the track."""
        occ: dict[tuple[int, int], int] = {}
        for i, r in enumerate(self.riders):
            if r.status == RACE and i != exclude:
                occ[self.square_of(r)] = i
        return occ

    def colour_at(self, rider: Rider, dist: int, lane: int) -> int:
        return self.track.colour(dist + rider.offset, lane)

    def reachable(
        self, rider: Rider, occ: Mapping[tuple[int, int], int], value: int
    ) -> list[tuple[int, int]]:
        """Destinations (columns ahead, lane) a move of exactly ``value`` pips can reach by
        some unobstructed path, all lane changes in one direction."""
        length = self.track.length
        start_col = (rider.dist + rider.offset) % length
        lane0 = rider.lane
        out: list[tuple[int, int]] = []
        # inwards (and straight): value steps, k of them diagonal inwards (1 pip each)
        for k in range(0, min(value, lane0 - 1) + 1):
            if _path_clear(occ, start_col, lane0, value, k, -1, length):
                out.append((value, lane0 - k))
        # outwards: k diagonal steps cost 2 pips each, so value - k steps in all
        for k in range(1, min(value // 2, LANES - lane0) + 1):
            if _path_clear(occ, start_col, lane0, value - k, k, +1, length):
                out.append((value - k, lane0 + k))
        return out

    def move_table(self) -> dict[Action, MoveInfo]:
        """The mover's legal moves (cached until the state changes); also sets whether
        standing still is allowed."""
        if self._cache.moves is not None:
            return self._cache.moves
        assert self.mover is not None and self.dice is not None
        rider = self.riders[self.mover]
        occ = self.occupancy(exclude=self.mover)
        length = self.track.length
        plain = self._moves_for(rider, occ, die_options(self.dice, False), False, length)
        boosted: dict[Action, MoveInfo] = {}
        if self.tokens[rider.owner] > 0:
            taken = {(m.ahead, m.lane) for m in plain.values()}
            for a, m in self._moves_for(
                rider, occ, die_options(self.dice, True), True, length
            ).items():
                if (m.ahead, m.lane) not in taken:
                    boosted[a] = m
        moves = {**plain, **boosted}
        forced = self.options.variant == "sprint" and self.stills[self.mover] >= 2
        if self.options.variant == "sprint":
            stay = bool(moves) and not forced
        else:
            stay = not plain and bool(boosted)
        self._cache.moves = moves
        self._cache.stay_allowed = stay
        return moves

    def stay_action(self) -> Action:
        """The action of standing still for the rider to move."""
        assert self.mover is not None
        return RIDER_BASE * self.riders[self.mover].ident + STAY

    def moves_with(self, colour: int, value: int) -> list[tuple[int, int]]:
        """Destinations (columns ahead, lane) the mover may reach with one die of ``colour``
        showing ``value`` (whatever the other dice show; tokens aside)."""
        assert self.mover is not None
        rider = self.riders[self.mover]
        occ = self.occupancy(exclude=self.mover)
        moves = self._moves_for(rider, occ, [(colour, value)], False, self.track.length)
        return sorted((m.ahead, m.lane) for m in moves.values())

    def _moves_for(
        self,
        rider: Rider,
        occ: Mapping[tuple[int, int], int],
        options: Iterable[tuple[int, int]],
        token: bool,
        length: int,
    ) -> dict[Action, MoveInfo]:
        moves: dict[Action, MoveInfo] = {}
        reach_cache: dict[int, list[tuple[int, int]]] = {}
        for colour, value in options:
            if value not in reach_cache:
                reach_cache[value] = self.reachable(rider, occ, value)
            for ahead, lane in reach_cache[value]:
                action = move_action(rider.ident, ahead, lane, token)
                if action in moves:
                    continue
                col = (rider.dist + rider.offset + ahead) % length
                on_colour = self.track.colour(col, lane) == colour
                behind = ((col + 1) % length, lane) in occ
                if on_colour or behind:
                    moves[action] = MoveInfo(ahead, lane, token, colour, value, behind)
        return moves

    def placement_actions(self) -> list[Action]:
        rider = self.riders[self.place_queue[0]]
        occ = self.occupancy()
        length = self.track.length
        out = []
        for back in range(1, START_ZONE + 1):
            for lane in range(1, LANES + 1):
                if ((rider.offset - back) % length, lane) not in occ:
                    out.append(PLACE_BASE + 10 * back + lane)
        return out

    def choosable(self) -> list[int]:
        """Team variants: the riders of the next team still to throw this round."""
        owner = self.riders[self.to_move[0]].owner
        return [i for i in self.to_move if self.riders[i].owner == owner]

    # --- transitions ------------------------------------------------------------------
    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        self._cache = _Cache()
        events: list[Event] = []
        if self.phase == PHASE_PLACE:
            self._place(action, events)
        elif self.mover is None:
            chosen = next(i for i in self.to_move if self.riders[i].ident == action - CHOOSE_BASE)
            self.to_move.remove(chosen)
            self.mover = chosen
            events.append(Event("next", {"rider": self.riders[chosen].ident}))
        elif self.dice is None:
            self.dice = list(dice_from_action(action))
            rider = self.riders[self.mover]
            events.append(Event("throw", {"round": self.round, "rider": rider.ident,
                                          "dice": list(self.dice)}))
            moves = self.move_table()
            if not moves:
                self._stay(events, voluntary=False)
        else:
            if action == self.stay_action():
                self._stay(events, voluntary=True)
            else:
                self._move(action, events)
        self._cache = _Cache()
        self._advance(events)
        return events

    def _place(self, action: Action, events: list[Event]) -> None:
        index = self.place_queue.pop(0)
        rider = self.riders[index]
        back, lane = divmod(action - PLACE_BASE, 10)
        rider.dist, rider.lane, rider.status = -back, lane, RACE
        events.append(Event("place", {"heat": self.heat, "rider": rider.ident,
                                      "behind": back, "lane": lane}))

    def _stay(self, events: list[Event], voluntary: bool) -> None:
        assert self.mover is not None
        rider = self.riders[self.mover]
        if self.options.variant == "sprint":
            self.stills[self.mover] += 1
            if self.stills[self.mover] >= 3:
                rider.status = OUT
                events.append(Event("fall", {"round": self.round, "rider": rider.ident,
                                             "reason": "three stand-stills in a row"}))
                self._end_mover()
                return
        kind = "stand_still" if voluntary else "no_move"
        events.append(Event(kind, {"round": self.round, "rider": rider.ident}))
        self._end_mover()

    def _move(self, action: Action, events: list[Event]) -> None:
        assert self.mover is not None
        info = self.move_table()[action]
        rider = self.riders[self.mover]
        before = rider.dist
        rider.dist += info.ahead
        from_lane, rider.lane = rider.lane, info.lane
        if info.token:
            self.tokens[rider.owner] -= 1
        self.stills[self.mover] = 0
        events.append(
            Event("move", {"round": self.round, "rider": rider.ident, "colour":
                           COLOURS[info.colour], "value": info.value, "token": info.token,
                           "from": [before, from_lane], "to": [rider.dist, rider.lane]})
        )
        length = self.track.length
        for k in range(1, self.options.race_laps + 1):
            if before < k * length <= rider.dist:
                self.crossed.append([self.mover, k])
        if self.options.variant == "points":
            self._normalise_laps(events)
        self._end_mover()

    def _end_mover(self) -> None:
        self.mover = None
        self.dice = None

    def _normalise_laps(self, events: list[Event]) -> None:
        """Points race: a rider a full lap ahead of the middle of the field gains a lap
        (+20) and rides on as part of the field; one a full lap behind loses one (-20)."""
        length = self.track.length
        changed = True
        while changed:
            changed = False
            racing = [i for i, r in enumerate(self.riders) if r.status == RACE]
            dists = sorted(self.riders[i].dist for i in racing)
            middle = dists[(len(dists) - 1) // 2]
            for i in racing:
                r = self.riders[i]
                if r.dist >= middle + length:
                    r.dist -= length
                    self.points[i] += LAP_BONUS
                    self.laps_delta[i] += 1
                    events.append(Event("lap_gained", {"rider": r.ident, "bonus": LAP_BONUS}))
                    changed = True
                elif r.dist <= middle - length:
                    r.dist += length
                    self.points[i] -= LAP_BONUS
                    self.laps_delta[i] -= 1
                    events.append(Event("lap_lost", {"rider": r.ident, "bonus": -LAP_BONUS}))
                    changed = True
                if changed:
                    break

    def race_order(self) -> list[int]:
        """Riders to move this round: furthest ahead first, level riders inner lane first.
        In a team pursuit the first team moves, then the second."""
        racing = [i for i, r in enumerate(self.riders) if r.status == RACE]

        def key(i: int) -> tuple[int, int, int]:
            r = self.riders[i]
            team = r.owner if self.options.variant == "pursuit" else 0
            return (team, -r.dist, r.lane)

        return sorted(racing, key=key)

    def _advance(self, events: list[Event]) -> None:
        """Move on to the next node: next placement, next rider, end of round or race."""
        if self.phase == PHASE_PLACE:
            if self.place_queue:
                return
            self.phase = PHASE_RACE
            self._start_round(events)
            return
        if self.phase != PHASE_RACE:
            return
        if self._sprint_fall_decided(events):
            return
        if self.mover is not None:
            return
        self.to_move = [i for i in self.to_move if self.riders[i].status == RACE]
        if self.to_move:
            self._next_mover(events)
            return
        if self._end_round(events):
            return
        self._start_round(events)

    def _next_mover(self, events: list[Event]) -> None:
        if self.options.variant in TEAM_VARIANTS and len(self.choosable()) > 1:
            return  # the team's player chooses who throws next
        self.mover = self.to_move.pop(0)

    def _start_round(self, events: list[Event]) -> None:
        self.round += 1
        self.rounds_total += 1
        self.crossed = []
        self.to_move = self.race_order()
        events.append(Event("round", {"heat": self.heat, "round": self.round,
                                      "order": [self.riders[i].ident for i in self.to_move]}))
        self._next_mover(events)

    def _sprint_fall_decided(self, events: list[Event]) -> bool:
        if self.options.variant != "sprint":
            return False
        fallen = [i for i, r in enumerate(self.riders) if r.status == OUT]
        if not fallen:
            return False
        winner = next(i for i, r in enumerate(self.riders) if r.status == RACE)
        self._finish([winner, *fallen], events, "the other rider fell")
        return True

    # --- end of a round ---------------------------------------------------------------
    def _end_round(self, events: list[Event]) -> bool:
        """Settle the round; return True if the race (or heat) phase changed."""
        length = self.track.length
        racing = [i for i, r in enumerate(self.riders) if r.status == RACE]
        events.append(Event("positions", {
            "round": self.round,
            "riders": {str(self.riders[i].ident): [self.riders[i].dist, self.riders[i].lane]
                       for i in racing},
        }))
        stopped = self.round >= self.options.round_cap(length)
        variant = self.options.variant
        if variant == "points":
            self._award_sprints(events)
            last = self.sprints[-1]
            done = len(last) >= min(len(self.options.lap_points), len(racing))
            if done or stopped:
                self.stopped = stopped and not done
                order = sorted(racing, key=self._points_key)
                self._finish(order, events, "points race over")
                return True
            return False
        if variant in TEAM_VARIANTS:
            return self._end_team_round(racing, stopped, events)
        if any(self.riders[i].dist >= length for i in racing) or stopped:
            self.stopped = stopped and not any(self.riders[i].dist >= length for i in racing)
            order = sorted(racing, key=lambda i: (-self.riders[i].dist, self.riders[i].lane))
            if variant == "elimination":
                return self._end_heat(order, events)
            self._finish(order, events, "race over")
            return True
        return False

    def _points_key(self, i: int) -> tuple[int, int, int, int]:
        last = self.sprints[-1]
        place = last.index(i) if i in last else len(self.riders)
        return (-self.points[i], place, -self.riders[i].dist, self.riders[i].lane)

    def _award_sprints(self, events: list[Event]) -> None:
        length = self.track.length
        laps = self.options.race_laps
        table = self.options.lap_points
        by_lap: dict[int, list[int]] = {}
        for i, k in self.crossed:
            if i not in self.sprints[k - 1] and i not in by_lap.get(k, []):
                by_lap.setdefault(k, []).append(i)
        for k in sorted(by_lap):
            line = k * length
            crossers = sorted(by_lap[k], key=lambda i: (-(self.riders[i].dist - line),
                                                        self.riders[i].lane))
            awarded = []
            for i in crossers:
                place = len(self.sprints[k - 1])
                self.sprints[k - 1].append(i)
                if place < len(table):
                    pts = table[place] * (2 if k == laps else 1)
                    self.points[i] += pts
                    awarded.append([self.riders[i].ident, place + 1, pts])
            if awarded:
                events.append(Event("sprint", {"lap": k, "places": awarded}))
        self.crossed = []

    def _end_heat(self, order: list[int], events: list[Event]) -> bool:
        last = order[-1]
        self.riders[last].status = OUT
        self.eliminated.append(last)
        events.append(Event("heat", {"heat": self.heat, "order":
                                     [self.riders[i].ident for i in order],
                                     "eliminated": self.riders[last].ident,
                                     "stopped": self.stopped}))
        survivors = order[:-1]
        if len(survivors) == 1:
            self._finish(survivors + list(reversed(self.eliminated)), events,
                         "elimination race over")
            return True
        self.heat += 1
        self.round = 0
        self.stopped = False
        for i in survivors:
            r = self.riders[i]
            r.status, r.dist, r.lane = WAIT, 0, 0
        self.place_queue = list(survivors)  # the heat's winner chooses first
        self.phase = PHASE_PLACE
        self.to_move = []
        return True

    def team_third(self, team: int) -> tuple[int, int] | None:
        """(distance past the line, lane) of the team's third rider if he has crossed."""
        length = self.track.length
        mine = sorted(
            (i for i, r in enumerate(self.riders) if r.owner == team and r.status == RACE),
            key=lambda i: (-self.riders[i].dist, self.riders[i].lane),
        )
        if len(mine) < TEAM_COUNTS:
            return None
        third = self.riders[mine[TEAM_COUNTS - 1]]
        if third.dist < length:
            return None
        return (third.dist - length, third.lane)

    def _end_team_round(self, racing: list[int], stopped: bool, events: list[Event]) -> bool:
        teams = list(range(self.options.num_players))
        thirds = {t: self.team_third(t) for t in teams}
        for t in teams:
            if thirds[t] is not None and not any(tt[0] == t for tt in self.team_times):
                third = thirds[t]
                assert third is not None
                self.team_times.append([t, self.round, third[0], third[1]])
                events.append(Event("team_time", {"team": t, "rounds": self.round,
                                                  "past": third[0]}))
        if not any(v is not None for v in thirds.values()) and not stopped:
            return False
        self.stopped = not any(v is not None for v in thirds.values())
        if self.options.variant == "ttt":
            order = sorted(racing, key=lambda i: (-self.riders[i].dist, self.riders[i].lane))
            self._finish(order, events, "team time trial over")
            return True

        def team_key(t: int) -> tuple[int, int, int]:
            v = thirds[t]
            if v is None:
                return (1, 0, 0)
            return (0, -v[0], v[1])

        keys = {t: team_key(t) for t in teams}
        order = sorted(teams, key=lambda t: keys[t])
        self.ranking = order if keys[0] != keys[1] else []
        self._finish_teams(order, keys[0] == keys[1], events)
        return True

    def _finish(self, order: list[int], events: list[Event], why: str) -> None:
        self.ranking = list(order)
        self.phase = PHASE_OVER
        self.to_move = []
        self.mover = None
        self.dice = None
        events.append(Event("result", {
            "why": why,
            "ranking": [self.riders[i].ident for i in order],
            "rounds": self.rounds_total,
            "stopped": self.stopped,
            "points": ({str(self.riders[i].ident): self.points[i] for i in order}
                       if self.options.variant == "points" else None),
        }))

    def _finish_teams(self, order: list[int], tie: bool, events: list[Event]) -> None:
        self.phase = PHASE_OVER
        self.to_move = []
        self.mover = None
        self.dice = None
        self.ranking = [] if tie else list(order)
        events.append(Event("result", {"why": "team pursuit over", "teams": order,
                                       "tie": tie, "rounds": self.rounds_total,
                                       "stopped": self.stopped}))

    # --- results ----------------------------------------------------------------------
    def team_time(self) -> float:
        """Team time trial: rounds until the third rider crossed, less a fraction for how far
        past the line he went (each column past is 1/7 of a round); the cap if stopped."""
        for t, rounds, past, _lane in self.team_times:
            if t == 0:
                return rounds - past / 7
        return float(self.options.round_cap(self.track.length))

    def outcome(self) -> Outcome:
        if self.phase != PHASE_OVER:
            raise ValueError("the race is not over")
        variant = self.options.variant
        if variant == "pursuit":
            if not self.ranking:
                return Outcome(ranking=(0, 1), winner=None, description="the teams tie")
            return Outcome(ranking=tuple(self.ranking), winner=self.ranking[0],
                           description=f"team {self.ranking[0] + 1} wins the pursuit")
        idents = tuple(self.riders[i].ident for i in self.ranking)
        scores: dict[int, float] = {}
        if variant == "points":
            scores = {self.riders[i].ident: float(self.points[i]) for i in self.ranking}
        elif variant == "ttt":
            scores = {0: self.team_time()}
        else:
            scores = {ident: float(k + 1) for k, ident in enumerate(idents)}
        desc = (f"team time {self.team_time():.2f} rounds" if variant == "ttt"
                else f"rider {idents[0]} wins")
        return Outcome(ranking=idents, winner=idents[0], scores=scores, description=desc)

    def returns(self) -> list[float]:
        """Per player: 1 for the owner of the winning rider, else up to 0.5 for how high the
        player's best rider placed; pursuit 1/0 (0.5 each on a tie); the team time trial
        10 / (10 + team time)."""
        n = self.num_players
        variant = self.options.variant
        if variant == "pursuit":
            if not self.ranking:
                return [0.5, 0.5]
            return [1.0 if p == self.ranking[0] else 0.0 for p in range(n)]
        if variant == "ttt":
            return [10.0 / (10.0 + max(0.0, self.team_time()))]
        out = [0.0] * n
        count = len(self.ranking)
        for place, i in enumerate(self.ranking):
            owner = self.riders[i].owner
            value = 1.0 if place == 0 else 0.5 * (count - 1 - place) / max(1, count - 1)
            out[owner] = max(out[owner], value)
        return out

    # --- copies and saving ------------------------------------------------------------
    def clone(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.options = self.options
        twin.track = self.track
        twin.riders = [Rider(r.ident, r.owner, r.offset, r.dist, r.lane, r.status)
                       for r in self.riders]
        twin.tokens = list(self.tokens)
        twin.phase = self.phase
        twin.heat = self.heat
        twin.round = self.round
        twin.rounds_total = self.rounds_total
        twin.place_queue = list(self.place_queue)
        twin.to_move = list(self.to_move)
        twin.mover = self.mover
        twin.dice = None if self.dice is None else list(self.dice)
        twin.stills = list(self.stills)
        twin.points = list(self.points)
        twin.laps_delta = list(self.laps_delta)
        twin.sprints = [list(s) for s in self.sprints]
        twin.crossed = [list(c) for c in self.crossed]
        twin.eliminated = list(self.eliminated)
        twin.ranking = list(self.ranking)
        twin.stopped = self.stopped
        twin.team_times = [list(t) for t in self.team_times]
        twin._cache = _Cache()
        return twin

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "track": self.track.to_json(),
            "riders": [r.to_json() for r in self.riders],
            "tokens": list(self.tokens),
            "phase": self.phase,
            "heat": self.heat,
            "round": self.round,
            "rounds_total": self.rounds_total,
            "place_queue": list(self.place_queue),
            "to_move": list(self.to_move),
            "mover": self.mover,
            "dice": None if self.dice is None else list(self.dice),
            "stills": list(self.stills),
            "points": list(self.points),
            "laps_delta": list(self.laps_delta),
            "sprints": [list(s) for s in self.sprints],
            "crossed": [list(c) for c in self.crossed],
            "eliminated": list(self.eliminated),
            "ranking": list(self.ranking),
            "stopped": self.stopped,
            "team_times": [list(t) for t in self.team_times],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        f = Fields(data, "PISTARD state")
        options = f.parsed("options", PistardOptions.from_mapping)
        try:
            track = track_from_mapping(f.get("track", dict), "saved track")
        except InputFileError as exc:
            raise SaveFormatError(f"PISTARD state: {exc}") from None
        state = cls(options, track)
        n = len(state.riders)
        raw_riders = f.get("riders", list)
        if len(raw_riders) != n:
            raise SaveFormatError(f"PISTARD state: expected {n} riders")
        riders = []
        for raw in raw_riders:
            ok = (isinstance(raw, list) and len(raw) == 6
                  and all(isinstance(v, int) and not isinstance(v, bool) for v in raw[:5])
                  and raw[5] in STATUSES)
            if not ok:
                raise SaveFormatError(f"PISTARD state: malformed rider {raw!r}")
            riders.append(Rider(*raw))
        if [(r.ident, r.owner, r.offset) for r in riders] != [
            (r.ident, r.owner, r.offset) for r in state.riders
        ]:
            raise SaveFormatError("PISTARD state: riders do not match the options")
        state.riders = riders
        state.tokens = f.int_list("tokens")
        phase = f.get("phase", str)
        if phase not in PHASES:
            raise SaveFormatError(f"PISTARD state: unknown phase {phase!r}")
        state.phase = phase
        state.heat = f.get("heat", int)
        state.round = f.get("round", int)
        state.rounds_total = f.get("rounds_total", int)
        state.place_queue = f.int_list("place_queue")
        state.to_move = f.int_list("to_move")
        mover = data.get("mover")
        if mover is not None and (not isinstance(mover, int) or not 0 <= mover < n):
            raise SaveFormatError("PISTARD state: mover must be a rider index or null")
        state.mover = mover
        dice = data.get("dice")
        if dice is not None:
            if (not isinstance(dice, list) or len(dice) != DICE
                    or any(not isinstance(d, int) or not 1 <= d <= FACES for d in dice)):
                raise SaveFormatError("PISTARD state: dice must be four values 1..6 or null")
            dice = list(dice)
        state.dice = dice
        state.stills = f.int_list("stills")
        state.points = f.int_list("points")
        state.laps_delta = f.int_list("laps_delta")
        state.eliminated = f.int_list("eliminated")
        state.ranking = f.int_list("ranking")
        state.stopped = f.get("stopped", bool)
        try:
            state.sprints = [[int(i) for i in s] for s in f.get("sprints", list)]
            state.crossed = [[int(i) for i in c] for c in f.get("crossed", list)]
            state.team_times = [[int(i) for i in t] for t in f.get("team_times", list)]
        except (TypeError, ValueError):
            raise SaveFormatError("PISTARD state: malformed sprint or team fields") from None
        players = options.num_players
        if len(state.tokens) != players:
            raise SaveFormatError(f"PISTARD state: expected {players} token counts")
        for name in ("stills", "points", "laps_delta"):
            if len(getattr(state, name)) != n:
                raise SaveFormatError(f"PISTARD state: {name} needs one entry per rider")
        if len(state.sprints) != options.race_laps:
            raise SaveFormatError("PISTARD state: one sprint list per lap expected")
        indices = (state.place_queue + state.to_move + state.eliminated
                   + [i for s in state.sprints for i in s] + [c[0] for c in state.crossed])
        if options.variant != "pursuit":
            indices += state.ranking
        if any(not 0 <= i < n for i in indices):
            raise SaveFormatError("PISTARD state: rider index out of range")
        if phase == PHASE_PLACE and not state.place_queue:
            raise SaveFormatError("PISTARD state: placement with nobody left to place")
        if phase == PHASE_RACE and state.mover is None and not state.to_move:
            raise SaveFormatError("PISTARD state: a running round with nobody left to move")
        if state.mover is None and state.dice is not None:
            raise SaveFormatError("PISTARD state: dice without a rider to move")
        if phase == PHASE_RACE and state.mover is not None and state.dice is not None:
            state._cache = _Cache()
            if not state.move_table() and not state._cache.stay_allowed:
                raise SaveFormatError("PISTARD state: the mover has no move to make")
        return state


def _path_clear(
    occ: Mapping[tuple[int, int], int],
    start_col: int,
    lane0: int,
    steps: int,
    diagonals: int,
    direction: int,
    length: int,
) -> bool:
    """Is there a path of ``steps`` forward steps, ``diagonals`` of them sideways in
    ``direction``, that avoids every occupied square (destination included)?"""
    reach = {0}  # lanes shifted so far
    for t in range(1, steps + 1):
        col = (start_col + t) % length
        remaining = steps - t
        nxt = set()
        for j in reach:
            for j2 in (j, j + 1):
                if j2 > diagonals or diagonals - j2 > remaining:
                    continue
                if (col, lane0 + direction * j2) in occ:
                    continue
                nxt.add(j2)
        if not nxt:
            return False
        reach = nxt
    return diagonals in reach


def new_race(
    options: Mapping[str, Any] | PistardOptions | None = None, track: Track | None = None
) -> PistardState:
    """A fresh PISTARD race (before placement)."""
    if options is None or isinstance(options, Mapping):
        opts = PistardOptions.from_mapping(options or {})
    else:
        opts = options
    return PistardState(opts, track)


def position_state(
    riders: Sequence[tuple[int, int, int]],
    *,
    track: Track | None = None,
    mover: int | None = None,
    dice: Sequence[int] | None = None,
    tokens: int = 0,
    variant: str = "scratch",
    laps: int | None = None,
) -> PistardState:
    """Build a mid-race position for tests and analysis: ``riders`` are (ident, distance,
    lane) with idents like 33 (player 3's third rider); ``mover`` is the ident about to
    play ``dice``. Every player gets ``tokens`` energy tokens."""
    owners = sorted({ident // 10 for ident, _, _ in riders})
    players = max(owners)
    per = max(ident % 10 for ident, _, _ in riders)
    if variant == "ttt":
        players = 1
    elif variant in ("sprint", "pursuit"):
        players = 2
    else:
        players = max(2, players)
    opts = PistardOptions(variant=variant, players=players, riders_per_player=per,
                          tokens=tokens, laps=laps)
    state = PistardState(opts, track)
    placed = {ident: (d, lane) for ident, d, lane in riders}
    for r in state.riders:
        if r.ident in placed:
            r.dist, r.lane = placed[r.ident]
            r.status = RACE
        else:
            r.status = OUT
    state.phase = PHASE_RACE
    state.round = 1
    state.rounds_total = 1
    state.place_queue = []
    if mover is not None:
        state.mover = next(i for i, r in enumerate(state.riders) if r.ident == mover)
        state.dice = list(dice) if dice is not None else None
    state.to_move = [i for i in state.race_order() if i != state.mover]
    if state.mover is None and state.to_move:
        state._next_mover([])
    return state
