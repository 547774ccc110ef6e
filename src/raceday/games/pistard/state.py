"""The PISTARD race state: riders on the track, whose turn it is, and the transitions.

What all six races share lives here: placing riders, choosing who throws next in a team
race, throws (chance nodes with 6^4 ordered outcomes), moves and the order of riders in a
round. What differs is asked of the race's :class:`~raceday.games.pistard.variants.Variant`.
Movement itself is in :mod:`raceday.games.pistard.moves`; saving is here (the state's own
JSON, checked on the way back); the pictures (:mod:`raceday.games.pistard.picture`) are
drawn from the state's frame.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Self, TypeVar

import numpy as np

from raceday.core.errors import IllegalActionError, InputFileError, SaveFormatError
from raceday.core.events import Event, Message
from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, Outcome, State
from raceday.core.serialize import Fields
from raceday.games.pistard.moves import (
    DICE,
    FACES,
    RIDER_BASE,
    SQUARE_BASE,
    STAY,
    THROWS,
    MoveInfo,
    Reach,
    Square,
    action_from_dice,
    choose_action,
    chosen_rider,
    dice_from_action,
    legal_moves,
    moves_for,
    placement_actions,
    placement_of,
    throw_names,
)
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.track import COLOURS, Track, load_track, track_from_mapping
from raceday.games.pistard.variants import (
    OUT,
    RACE,
    STATUSES,
    TEAM_COUNTS,
    WAIT,
    Rider,
    Variant,
)

PHASE_PLACE = "place"
PHASE_RACE = "race"
PHASE_OVER = "over"
PHASES = (PHASE_PLACE, PHASE_RACE, PHASE_OVER)

_UNIFORM = Fraction(1, THROWS)
_THROW_OUTCOMES: tuple[tuple[Action, Fraction], ...] = tuple((i, _UNIFORM) for i in range(THROWS))


class PistardState(State):
    """A PISTARD race in any of the six variants."""

    game_name = "pistard"
    _moves: dict[Action, MoveInfo] | None  # the mover's legal moves, until the position changes
    _stay_ok: bool  # ... and whether he may stand still

    def __init__(self, options: PistardOptions | None = None, track: Track | None = None) -> None:
        self.options = options or PistardOptions()
        self.track = track if track is not None else load_track(self.options.track)
        opts = self.options
        rules = opts.rules
        self.riders: list[Rider] = []
        for p in range(opts.num_players):
            offset = rules.start_offset(p, self.track.length)
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
        self.team_times: list[list[int]] = []  # pursuit/ttt: [team, rounds, past, lane]
        self.invalidate_moves()

    @property
    def rules(self) -> Variant:
        """The race's variant (its hooks decide what differs between races)."""
        return self.options.rules

    # --- copies -----------------------------------------------------------------------
    @classmethod
    def copy_of(cls, state: PistardState) -> Self:
        """A new ``cls`` holding an independent copy of ``state``'s position. The options,
        the track and the current move table are shared: none of them is ever changed in
        place (a move replaces the table rather than editing it)."""
        twin = cls.__new__(cls)
        twin.options = state.options
        twin.track = state.track
        twin.riders = [Rider(r.ident, r.owner, r.offset, r.dist, r.lane, r.status)
                       for r in state.riders]
        twin.tokens = list(state.tokens)
        twin.phase = state.phase
        twin.heat = state.heat
        twin.round = state.round
        twin.rounds_total = state.rounds_total
        twin.place_queue = list(state.place_queue)
        twin.to_move = list(state.to_move)
        twin.mover = state.mover
        twin.dice = None if state.dice is None else list(state.dice)
        twin.stills = list(state.stills)
        twin.points = list(state.points)
        twin.laps_delta = list(state.laps_delta)
        twin.sprints = [list(s) for s in state.sprints]
        twin.crossed = [list(c) for c in state.crossed]
        twin.eliminated = list(state.eliminated)
        twin.ranking = list(state.ranking)
        twin.stopped = state.stopped
        twin.team_times = [list(t) for t in state.team_times]
        twin._moves = state._moves
        twin._stay_ok = state._stay_ok
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return type(self).copy_of(self)

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
            return [choose_action(self.riders[i].ident) for i in self.choosable()]
        actions = sorted(self.move_table())
        if self._stay_ok:
            actions.insert(0, self.stay_action())
        return actions

    def action_to_string(self, action: Action) -> str:
        if self.phase == PHASE_OVER:
            return f"action {action} (the race is over)"
        if self.mover is not None and self.dice is None:  # the mover's throw
            return throw_names()[action] if 0 <= action < THROWS else f"no throw {action}"
        if self.phase == PHASE_PLACE:
            rider = self.riders[self.place_queue[0]]
            back, lane = placement_of(action)
            return f"place {rider.ident} at {back} behind the line in lane {lane}"
        if self.mover is None:
            return f"next rider {chosen_rider(action)}"
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
    def square_of(self, rider: Rider) -> Square:
        return ((rider.dist + rider.offset) % self.track.length, rider.lane)

    def occupancy(self, exclude: int | None = None) -> dict[Square, int]:
        """Physical square -> rider index, for riders on the track."""
        length = self.track.length
        return {((r.dist + r.offset) % length, r.lane): i for i, r in enumerate(self.riders)
                if r.status == RACE and i != exclude}

    def occupied(self, exclude: int | None = None) -> set[int]:
        """The squares of riders on the track, each as column * SQUARE_BASE + lane (the
        move generator's form)."""
        length = self.track.length
        return {(r.dist + r.offset) % length * SQUARE_BASE + r.lane
                for i, r in enumerate(self.riders) if r.status == RACE and i != exclude}

    def move_table(self) -> dict[Action, MoveInfo]:
        """The mover's legal moves (kept until the position changes); also sets whether
        standing still is allowed."""
        if self._moves is not None:
            return self._moves
        assert self.mover is not None and self.dice is not None
        rider = self.riders[self.mover]
        col, lane = self.square_of(rider)
        moves, has_plain, has_boosted = legal_moves(
            self.track, rider.ident, col, lane, self.occupied(exclude=self.mover), self.dice,
            self.tokens[rider.owner] > 0)
        self._stay_ok = self.rules.may_stay(self, has_plain, has_boosted)
        self._moves = moves
        return moves

    def invalidate_moves(self) -> None:
        """Forget the move table (after changing the position by hand)."""
        self._moves = None
        self._stay_ok = False

    def stay_allowed(self) -> bool:
        """May the mover stand still with this throw?"""
        self.move_table()
        return self._stay_ok

    def stay_action(self) -> Action:
        """The action of standing still for the rider to move."""
        assert self.mover is not None
        return RIDER_BASE * self.riders[self.mover].ident + STAY

    def moves_with(self, colour: int, value: int) -> list[tuple[int, int]]:
        """Destinations (columns ahead, lane) the mover may reach with one die of ``colour``
        showing ``value`` (whatever the other dice show; tokens aside)."""
        assert self.mover is not None
        rider = self.riders[self.mover]
        col, lane = self.square_of(rider)
        occ = self.occupied(exclude=self.mover)
        reach = Reach(occ, col, lane, self.track.length, value)
        moves = moves_for(self.track, rider.ident, col, occ, reach, [(colour, value)], False)
        return sorted((m.ahead, m.lane) for m in moves.values())

    def placement_actions(self) -> list[Action]:
        rider = self.riders[self.place_queue[0]]
        return placement_actions(rider.offset, self.occupancy(), self.track.length)

    def choosable(self) -> list[int]:
        """Team variants: the riders of the next team still to throw this round."""
        owner = self.riders[self.to_move[0]].owner
        return [i for i in self.to_move if self.riders[i].owner == owner]

    # --- transitions ------------------------------------------------------------------
    def apply_action(self, action: Action, detail: Mapping[str, Any] | None = None) -> list[Event]:
        """Check ``action`` and apply it. A throw is checked by range (every one of the
        1,296 outcomes is possible), without listing the outcomes."""
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalActionError(action, "the game is over")
        if player == CHANCE:
            if not (isinstance(action, (int, np.integer)) and not isinstance(action, bool)
                    and 0 <= action < THROWS):
                raise IllegalActionError(action, "not a possible chance outcome here")
            return self._apply(int(action), detail)
        if action not in self.legal_actions():
            raise IllegalActionError(action, "not among the legal actions here")
        return self._apply(action, detail)

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        """One transition; the variants' events get the facts their words need."""
        return [Event(e.kind, with_word_facts(e.kind, e.data)) if e.kind in WORD_FACT_KINDS
                else e for e in self._step(action)]

    def _step(self, action: Action) -> list[Event]:
        events: list[Event] = []
        if self.phase == PHASE_PLACE:
            self._place(action, events)
        elif self.mover is None:
            chosen = next(i for i in self.to_move if self.riders[i].ident == chosen_rider(action))
            self.to_move.remove(chosen)
            self.mover = chosen
            events.append(Event("next", {"rider": self.riders[chosen].ident}))
        elif self.dice is None:
            self.dice = list(dice_from_action(action))
            rider = self.riders[self.mover]
            events.append(Event("throw", {"round": self.round, "rider": rider.ident,
                                          "dice": list(self.dice)}))
            self.invalidate_moves()
            if self.move_table():
                # the fresh table is this position's: keep it for the decision that follows
                self._advance(events)
                return events
            self._stay(events, voluntary=False)
        elif action == self.stay_action():
            self._stay(events, voluntary=True)
        else:
            self._move(action, events)
        self.invalidate_moves()
        self._advance(events)
        return events

    def _place(self, action: Action, events: list[Event]) -> None:
        index = self.place_queue.pop(0)
        rider = self.riders[index]
        back, lane = placement_of(action)
        rider.dist, rider.lane, rider.status = -back, lane, RACE
        events.append(Event("place", {"heat": self.heat, "rider": rider.ident,
                                      "behind": back, "lane": lane}))

    def _stay(self, events: list[Event], voluntary: bool) -> None:
        assert self.mover is not None
        rider = self.riders[self.mover]
        if not self.rules.on_stay(self, events):
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
            events.append(Event("token", {"round": self.round, "rider": rider.ident,
                                          "left": self.tokens[rider.owner]}))
        self.stills[self.mover] = 0
        colour = COLOURS[info.colour]
        events.append(
            Event("move", {"round": self.round, "rider": rider.ident, "colour": colour,
                           "value": info.value, "token": info.token,
                           "from": [before, from_lane], "to": [rider.dist, rider.lane],
                           "ahead": info.ahead, "lane": rider.lane, colour: True})
        )
        length = self.track.length
        for k in range(1, self.options.race_laps + 1):
            if before < k * length <= rider.dist:
                self.crossed.append([self.mover, k])
        self.rules.after_move(self, events)
        self._end_mover()

    def _end_mover(self) -> None:
        self.mover = None
        self.dice = None

    def race_order(self) -> list[int]:
        """Riders to move this round: furthest ahead first, level riders inner lane first.
        In a team pursuit the first team moves, then the second."""
        group = self.rules.order_group
        riders = self.riders
        racing = [i for i, r in enumerate(riders) if r.status == RACE]
        return sorted(racing, key=lambda i: (group(riders[i].owner), -riders[i].dist,
                                             riders[i].lane))

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
        if self.rules.decided_now(self, events):
            return
        if self.mover is not None:
            return
        self.to_move = [i for i in self.to_move if self.riders[i].status == RACE]
        if self.to_move:
            self._next_mover()
            return
        if self._end_round(events):
            return
        self._start_round(events)

    def _next_mover(self) -> None:
        if self.rules.team and len(self.choosable()) > 1:
            return  # the team's player chooses who throws next
        self.mover = self.to_move.pop(0)

    def _start_round(self, events: list[Event]) -> None:
        self.round += 1
        self.rounds_total += 1
        self.crossed = []
        self.to_move = self.race_order()
        events.append(Event("round", {"heat": self.heat, "round": self.round,
                                      "order": [self.riders[i].ident for i in self.to_move]}))
        self._next_mover()

    def _end_round(self, events: list[Event]) -> bool:
        """Settle the round; return True if the race (or heat) phase changed."""
        racing = [i for i, r in enumerate(self.riders) if r.status == RACE]
        events.append(Event("positions", {
            "round": self.round,
            "riders": {str(self.riders[i].ident): [self.riders[i].dist, self.riders[i].lane]
                       for i in racing},
        }))
        stopped = self.round >= self.options.round_cap(self.track.length)
        return self.rules.end_round(self, racing, stopped, events)

    # --- used by the variants ---------------------------------------------------------
    def start_heat(self, survivors: list[int]) -> None:
        """A new heat: the survivors line up again, in the given order."""
        self.heat += 1
        self.round = 0
        self.stopped = False
        for i in survivors:
            r = self.riders[i]
            r.status, r.dist, r.lane = WAIT, 0, 0
        self.place_queue = list(survivors)
        self.phase = PHASE_PLACE
        self.to_move = []

    def _over(self) -> None:
        self.phase = PHASE_OVER
        self.to_move = []
        self.mover = None
        self.dice = None

    def finish(self, order: list[int], events: list[Event], why: str) -> None:
        """The race is over with riders (indices) in ``order``; ``why`` (line, points, fell,
        ttt, elimination) is the result's true fact, worded ``event.result.<why>``."""
        self.ranking = list(order)
        self._over()
        events.append(Event("result", {
            why: True,
            "ranking": [self.riders[i].ident for i in order],
            "rounds": self.rounds_total,
            "stopped": self.stopped,
            "scores": self.rules.result_points(self, order),
        }))

    def finish_teams(self, order: list[int], tie: bool, events: list[Event]) -> None:
        """A team pursuit is over with teams in ``order`` (no ranking on a tie): a tie, or
        a team that won (``team``: its number from 1)."""
        self._over()
        self.ranking = [] if tie else list(order)
        events.append(Event("result", {"tie": tie, "team_won": not tie, "teams": order,
                                       "team": None if tie else order[0] + 1,
                                       "rounds": self.rounds_total,
                                       "stopped": self.stopped}))

    # --- results ----------------------------------------------------------------------
    def team_time(self) -> float:
        """Team time trial: rounds until the third rider crossed, less a fraction for how far
        past the line he went (each column past is 1/7 of a round); the cap if stopped."""
        for t, rounds, past, _lane in self.team_times:
            if t == 0:
                return rounds - past / 7
        return float(self.options.round_cap(self.track.length))

    def team_count(self, team: int) -> tuple[int, int] | None:
        """A team race's count for ``team``: (rounds, columns its third rider is past his
        line), from the round he crossed in; for a team whose third rider has not crossed,
        the round the race has reached and how far he is past it (negative: short of the
        line; the pursuit's losers). None while the team has fewer than three riders."""
        for t, rounds, past, _lane in self.team_times:
            if t == team:
                return rounds, past
        ahead = sorted((r.dist for r in self.riders if r.owner == team and r.status == RACE),
                       reverse=True)
        if len(ahead) < TEAM_COUNTS:
            return None
        return self.round, ahead[TEAM_COUNTS - 1] - self.track.length

    def pursuit_time(self, team: int) -> float | None:
        """A pursuit team's time in rounds, as the time trial counts it: rounds less 1/7 of
        a round for every column its third rider is past his line — for the team that lost,
        whose third rider is short of it when the race ends, plus 1/7 for every column
        still to ride (our completion). None for a team without three riders."""
        count = self.team_count(team)
        return None if count is None else count[0] - count[1] / 7

    def outcome(self) -> Outcome:
        self.require_over()
        return self.rules.outcome(self)

    # --- what an action means, and the track as a frame ------------------------------------
    def action_message(self, action: Action) -> Message:
        """What ``action`` does, as facts: a placement (``action.place``: rider, back,
        lane, col), a team's next rider (``action.choose``), a move (``action.move``:
        rider, ahead, lane, col, token, colour, value, behind), standing still
        (``action.stay``, why: ``sur_place`` in the sprint, else ``keep``) or a throw."""
        length = self.track.length
        if self.is_chance_node():
            return Message("action.throw", {"name": self.action_to_string(action)})
        if self.phase == PHASE_PLACE:
            rider = self.riders[self.place_queue[0]]
            back, lane = placement_of(action)
            return Message("action.place", {"rider": rider.ident, "back": back, "lane": lane,
                                            "col": (rider.offset - back) % length})
        if self.mover is None:
            return Message("action.choose", {"rider": chosen_rider(action)})
        rider = self.riders[self.mover]
        info = self.move_table().get(action)
        if info is None:
            why = "sur_place" if self.options.variant == "sprint" else "keep"
            return Message("action.stay", {"rider": rider.ident, "why": why})
        return Message("action.move", {
            "rider": rider.ident, "ahead": info.ahead, "lane": info.lane,
            "col": (rider.dist + rider.offset + info.ahead) % length, "token": info.token,
            "colour": COLOURS[info.colour], "value": info.value, "behind": info.behind,
            # the colour in the reader's words (the templates say it; ``colour`` is the code),
            # and the notes on a move a token raises or a rider's shelter allows
            "colour_word": Message(f"pistard.pi_{COLOURS[info.colour]}"),
            "token_note": Message("pistard.pi_token_note") if info.token else "",
            "behind_note": Message("pistard.action.behind_note") if info.behind else ""})

    def frame(self) -> dict[str, Any]:
        """The race as data: the squares' colours (by lane, column from the line), each
        rider's number, owner, status, lane, distance and column, the standings in race
        order, the mover and his dice, the tokens, phase, heat and round."""
        track = self.track
        length = track.length
        finish = self.options.race_laps * length
        points = self.options.variant == "points"
        return {"game": self.game_name, "length": length, "lanes": track.lanes,
                "grid": [[track.colour(c, lane) for c in range(length)]
                         for lane in range(1, track.lanes + 1)],
                "riders": [{"rider": r.ident, "owner": r.owner, "status": r.status,
                            "lane": r.lane, "dist": r.dist,
                            "col": (r.dist + r.offset) % length} for r in self.riders],
                "standings": [{"rider": self.riders[i].ident, "lane": self.riders[i].lane,
                               "to_go": finish - self.riders[i].dist,
                               "owner": self.riders[i].owner,
                               "tokens": self.tokens[self.riders[i].owner],
                               "points": self.points[i] if points else None}
                              for i in self.race_order()],
                "mover": None if self.mover is None else self.riders[self.mover].ident,
                "dice": None if self.dice is None else list(self.dice),
                "tokens": list(self.tokens), "phase": self.phase, "heat": self.heat,
                "round": self.round}

    # --- saving and summary -----------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return state_to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return state_from_json(cls, data)

    def __repr__(self) -> str:
        player = self.current_player()
        who = {CHANCE: "chance", TERMINAL: "over"}.get(player, f"player {player}")
        return (f"<{type(self).__name__} {self.options.variant}, heat {self.heat} round "
                f"{self.round}: {who} to act>")


# --- the facts an event's words need ------------------------------------------------------
WORD_FACT_KINDS = frozenset({"fall", "team_time", "sprint"})


def with_word_facts(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with the facts its message needs that the variants' events state otherwise:
    a fall's reason as a true fact (``event.fall.<reason>``), a team's number from 1
    (``team_time``), a sprint's riders, places and points as lists (``sprint``). Facts
    already there are kept, so this may be applied twice."""
    facts = dict(data)
    if kind == "fall" and isinstance(facts.get("reason"), str):
        facts.setdefault(facts["reason"], True)
    elif kind == "team_time" and "team_number" not in facts:
        facts["team_number"] = facts["team"] + 1
    elif kind == "sprint" and "riders" not in facts:
        facts["riders"], facts["placed"], facts["points"] = (
            [list(column) for column in zip(*facts["places"], strict=True)]
            if facts["places"] else ([], [], []))
    return facts


# --- saving a race as JSON and restoring it, refusing anything malformed ---------------
StateT = TypeVar("StateT", bound=PistardState)
WHAT = "PISTARD state"


def state_to_json(state: PistardState) -> dict[str, Any]:
    """All fields of ``state`` as JSON values (the track included, so a save is whole)."""
    return {
        "options": state.options.to_json(),
        "track": state.track.to_json(),
        "riders": [r.to_json() for r in state.riders],
        "tokens": list(state.tokens),
        "phase": state.phase,
        "heat": state.heat,
        "round": state.round,
        "rounds_total": state.rounds_total,
        "place_queue": list(state.place_queue),
        "to_move": list(state.to_move),
        "mover": state.mover,
        "dice": None if state.dice is None else list(state.dice),
        "stills": list(state.stills),
        "points": list(state.points),
        "laps_delta": list(state.laps_delta),
        "sprints": [list(s) for s in state.sprints],
        "crossed": [list(c) for c in state.crossed],
        "eliminated": list(state.eliminated),
        "ranking": list(state.ranking),
        "stopped": state.stopped,
        "team_times": [list(t) for t in state.team_times],
    }


@lru_cache(maxsize=32)
def _saved_track(text: str) -> Track:
    """A saved track, checked once per distinct track (tracks are immutable and shared)."""
    return track_from_mapping(json.loads(text), "saved track")


def _fail(message: str) -> SaveFormatError:
    return SaveFormatError(f"{WHAT}: {message}")


def _riders(raw_riders: list[Any], expected: list[Rider]) -> list[Rider]:
    if len(raw_riders) != len(expected):
        raise _fail(f"expected {len(expected)} riders")
    riders = []
    for raw in raw_riders:
        ok = (isinstance(raw, list) and len(raw) == 6
              and all(isinstance(v, int) and not isinstance(v, bool) for v in raw[:5])
              and raw[5] in STATUSES)
        if not ok:
            raise _fail(f"malformed rider {raw!r}")
        riders.append(Rider(*raw))
    if [(r.ident, r.owner, r.offset) for r in riders] != [
        (r.ident, r.owner, r.offset) for r in expected
    ]:
        raise _fail("riders do not match the options")
    return riders


def _dice(dice: Any) -> list[int] | None:
    if dice is None:
        return None
    if (not isinstance(dice, list) or len(dice) != DICE
            or any(not isinstance(d, int) or not 1 <= d <= FACES for d in dice)):
        raise _fail("dice must be four values 1..6 or null")
    return list(dice)


def state_from_json(cls: type[StateT], data: Mapping[str, Any]) -> StateT:
    """Rebuild a saved race as ``cls``; :class:`SaveFormatError` names what is wrong."""
    f = Fields(data, WHAT)
    options = f.parsed("options", PistardOptions.parse)
    try:
        track = _saved_track(json.dumps(f.get("track", dict), sort_keys=True))
    except InputFileError as exc:
        raise _fail(str(exc)) from None
    state = cls(options, track)
    n = len(state.riders)
    state.riders = _riders(f.get("riders", list), state.riders)
    state.tokens = f.int_list("tokens")
    phase = f.get("phase", str)
    if phase not in PHASES:
        raise _fail(f"unknown phase {phase!r}")
    state.phase = phase
    state.heat = f.get("heat", int)
    state.round = f.get("round", int)
    state.rounds_total = f.get("rounds_total", int)
    state.place_queue = f.int_list("place_queue")
    state.to_move = f.int_list("to_move")
    mover = data.get("mover")
    if mover is not None and (not isinstance(mover, int) or not 0 <= mover < n):
        raise _fail("mover must be a rider index or null")
    state.mover = mover
    state.dice = _dice(data.get("dice"))
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
        raise _fail("malformed sprint or team fields") from None
    _check_consistent(state)
    return state


def _check_consistent(state: PistardState) -> None:
    options = state.options
    n = len(state.riders)
    if len(state.tokens) != options.num_players:
        raise _fail(f"expected {options.num_players} token counts")
    for name in ("stills", "points", "laps_delta"):
        if len(getattr(state, name)) != n:
            raise _fail(f"{name} needs one entry per rider")
    if len(state.sprints) != options.race_laps:
        raise _fail("one sprint list per lap expected")
    indices = (state.place_queue + state.to_move + state.eliminated
               + [i for s in state.sprints for i in s] + [c[0] for c in state.crossed])
    if options.rules.ranks_riders:
        indices += state.ranking
    if any(not 0 <= i < n for i in indices):
        raise _fail("rider index out of range")
    if state.phase == PHASE_PLACE and not state.place_queue:
        raise _fail("placement with nobody left to place")
    if state.phase == PHASE_RACE and state.mover is None and not state.to_move:
        raise _fail("a running round with nobody left to move")
    if state.mover is None and state.dice is not None:
        raise _fail("dice without a rider to move")
    if state.phase == PHASE_RACE and state.mover is not None and state.dice is not None:
        state.invalidate_moves()
        if not state.move_table() and not state.stay_allowed():
            raise _fail("the mover has no move to make")


def new_race(
    options: Mapping[str, Any] | PistardOptions | None = None, track: Track | None = None
) -> PistardState:
    """A fresh PISTARD race (before placement)."""
    return PistardState(PistardOptions.parse(options), track)


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
    players = max(ident // 10 for ident, _, _ in riders)
    per = max(ident % 10 for ident, _, _ in riders)
    lo, hi = PistardOptions.parse({"variant": variant}).players_range()
    players = min(hi, max(lo, players))
    opts = PistardOptions.parse({"variant": variant, "players": players,
                                 "riders_per_player": per, "tokens": tokens, "laps": laps})
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
        state._next_mover()
    return state
