"""The six PISTARD races, one small class each, with the hooks a race needs.

The state (:mod:`raceday.games.pistard.state`) runs what every race shares: placement,
throws, moves and the order of riders within a round. A :class:`Variant` says what differs:
who may take part (players and riders), where a team starts, when a rider may stand still
and what happens when he does, what happens after a move, how a round ends (sprints for
points, a heat for the elimination, the third rider of a team), and the outcome.

See docs/rules/pistard.md for the rules of each race and our completions of the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from raceday.core.events import Event, Message
from raceday.core.protocol import Outcome, Termination
from raceday.games.pistard.track import Track

WAIT = "wait"  # not yet placed for the current race (or heat)
RACE = "race"
OUT = "out"  # eliminated or fallen
STATUSES = (WAIT, RACE, OUT)

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


class Race(Protocol):
    """What a variant reads and changes of a race: the state, as its rules see it (the
    variants are the state's hooks, so they name this shape rather than the state)."""

    options: Any  # PistardOptions, which names the variants in turn
    track: Track
    riders: list[Rider]
    heat: int
    round: int
    mover: int | None
    stills: list[int]
    points: list[int]
    laps_delta: list[int]
    sprints: list[list[int]]
    crossed: list[list[int]]
    eliminated: list[int]
    ranking: list[int]
    stopped: bool
    team_times: list[list[int]]

    def start_heat(self, survivors: list[int]) -> None: ...

    def finish(self, order: list[int], events: list[Event], why: str) -> None: ...

    def finish_teams(self, order: list[int], tie: bool, events: list[Event]) -> None: ...

    def team_time(self) -> float: ...


LAP_BONUS = 20
TEAM_COUNTS = 3  # the third rider of a team counts (team pursuit, team time trial)
MAX_FIELD = 12  # riders in all in a bunch race
SPRINT_FALL = 3  # stand-stills in a row that make a sprinter fall


class Variant:
    """A race of riders to the line (the scratch); the other races override the hooks."""

    name: ClassVar[str] = "scratch"
    title: ClassVar[str] = "the scratch"  # as in "rider 11 wins the scratch"
    players: ClassVar[tuple[int, int]] = (2, 5)
    riders: ClassVar[tuple[int, int]] = (1, 6)  # riders per player
    min_field: ClassVar[int | None] = 2  # fewest riders in all (None: no bunch-race limit)
    team: ClassVar[bool] = False  # a team race: the player picks which rider throws next
    ranks_riders: ClassVar[bool] = True  # the ranking lists riders (else teams)
    has_laps: ClassVar[bool] = False  # the number of laps may be chosen

    # --- who takes part -------------------------------------------------------------------
    def default_players(self) -> int:
        return 2

    def default_riders(self, players: int) -> int:
        return {2: 4, 3: 3}.get(players, 2)

    def race_laps(self, laps: int | None) -> int:
        return 1

    def heats(self, total_riders: int) -> int:
        return 1

    def start_offset(self, player: int, length: int) -> int:
        """Where the player's start line lies, in columns from the track's line."""
        return 0

    def order_group(self, owner: int) -> int:
        """Riders move group by group each round (the teams of a pursuit), leader first."""
        return 0

    # --- standing still -------------------------------------------------------------------
    def may_stay(self, state: Race, has_plain: bool, has_boosted: bool) -> bool:
        """May the mover stand still? Here only to decline a move that needs a token."""
        return not has_plain and has_boosted

    def on_stay(self, state: Race, events: list[Event]) -> bool:
        """The mover stands still; return True if that ended his race (he fell)."""
        return False

    # --- moves and rounds -----------------------------------------------------------------
    def after_move(self, state: Race, events: list[Event]) -> None:
        """Called after every move."""

    def decided_now(self, state: Race, events: list[Event]) -> bool:
        """Called after every step: finish the race at once if it is decided."""
        return False

    def end_round(self, state: Race, racing: list[int], stopped: bool,
                  events: list[Event]) -> bool:
        """Settle a finished round; return True if the race (or heat) ended."""
        length = state.track.length
        riders = state.riders
        crossed = any(riders[i].dist >= length for i in racing)
        if not (crossed or stopped):
            return False
        state.stopped = stopped and not crossed
        order = sorted(racing, key=lambda i: (-riders[i].dist, riders[i].lane))
        return self.line_reached(state, order, events)

    def line_reached(self, state: Race, order: list[int], events: list[Event]) -> bool:
        """A rider is over the line (or the race was stopped): riders in ``order``."""
        state.finish(order, events, "line")
        return True

    # --- result ---------------------------------------------------------------------------
    def result_points(self, state: Race, order: list[int]) -> dict[str, int] | None:
        """Points shown in the result event (the points race)."""
        return None

    def outcome(self, state: Race) -> Outcome:
        riders = state.riders
        idents = tuple(riders[i].ident for i in state.ranking)
        owner = riders[state.ranking[0]].owner
        rivals = [r for r in riders if r.ident != idents[0]]
        fell = self.termination != Termination.ELIMINATED and bool(rivals) and all(
            r.status == OUT for r in rivals)
        termination = Termination.FELL if fell else self.termination
        return Outcome(ranking=idents, winner=idents[0], scores=self.scores(state),
                       score_name=self.score_name, winning_players=(owner,),
                       description=f"rider {idents[0]} wins", termination=termination,
                       message=Message(f"result.{termination}", {"rider": idents[0]}))

    score_name: ClassVar[str] = ""  # unit of the scores (none: ranked by order at the line)
    termination: ClassVar[str] = Termination.FINISH  # how the race is decided

    def scores(self, state: Race) -> dict[int, float]:
        return {}


class Scratch(Variant):
    """First over the line wins (one lap)."""


class Points(Variant):
    """Sprints at every lap line; laps gained and lost; most points wins."""

    name = "points"
    title = "the points race"
    has_laps = True
    score_name = "points"
    termination = Termination.POINTS

    def race_laps(self, laps: int | None) -> int:
        return laps if laps is not None else 10

    def after_move(self, state: Race, events: list[Event]) -> None:
        normalise_laps(state, events)

    def end_round(self, state: Race, racing: list[int], stopped: bool,
                  events: list[Event]) -> bool:
        award_sprints(state, events)
        done = len(state.sprints[-1]) >= min(len(state.options.lap_points), len(racing))
        if not (done or stopped):
            return False
        state.stopped = stopped and not done
        state.finish(sorted(racing, key=lambda i: points_key(state, i)), events, "points")
        return True

    def result_points(self, state: Race, order: list[int]) -> dict[str, int] | None:
        return {str(state.riders[i].ident): state.points[i] for i in order}

    def scores(self, state: Race) -> dict[int, float]:
        return {state.riders[i].ident: float(state.points[i]) for i in state.ranking}


class Elimination(Variant):
    """One-lap heats; the last of each heat is out until one rider is left."""

    name = "elimination"
    title = "the elimination race"
    min_field = 3
    termination = Termination.ELIMINATED

    def heats(self, total_riders: int) -> int:
        return total_riders - 1

    def line_reached(self, state: Race, order: list[int], events: list[Event]) -> bool:
        end_heat(state, order, events)
        return True


class Sprint(Variant):
    """Two riders, one lap; standing still (sur place) allowed, three in a row is a fall."""

    name = "sprint"
    title = "the sprint"
    players = (2, 2)
    riders = (1, 1)
    min_field = None

    def default_riders(self, players: int) -> int:
        return 1

    def may_stay(self, state: Race, has_plain: bool, has_boosted: bool) -> bool:
        assert state.mover is not None
        forced = state.stills[state.mover] >= SPRINT_FALL - 1
        return (has_plain or has_boosted) and not forced

    def on_stay(self, state: Race, events: list[Event]) -> bool:
        mover = state.mover
        assert mover is not None
        state.stills[mover] += 1
        if state.stills[mover] < SPRINT_FALL:
            return False
        rider = state.riders[mover]
        rider.status = OUT
        events.append(Event("fall", {"round": state.round, "rider": rider.ident,
                                     "reason": "stand_stills"}))
        return True

    def decided_now(self, state: Race, events: list[Event]) -> bool:
        fallen = [i for i, r in enumerate(state.riders) if r.status == OUT]
        if not fallen:
            return False
        winner = next(i for i, r in enumerate(state.riders) if r.status == RACE)
        state.finish([winner, *fallen], events, "fell")
        return True


class TeamRace(Variant):
    """A team race: the team's time is when its third rider crosses the line."""

    riders = (3, 6)
    min_field = None
    team = True

    def default_riders(self, players: int) -> int:
        return 4

    def end_round(self, state: Race, racing: list[int], stopped: bool,
                  events: list[Event]) -> bool:
        teams = range(state.options.num_players)
        thirds = {t: team_third(state, t) for t in teams}
        for t in teams:
            third = thirds[t]
            if third is not None and not any(row[0] == t for row in state.team_times):
                state.team_times.append([t, state.round, third[0], third[1]])
                events.append(Event("team_time", {"team": t, "rounds": state.round,
                                                  "past": third[0]}))
        anyone = any(v is not None for v in thirds.values())
        if not (anyone or stopped):
            return False
        state.stopped = not anyone
        self.teams_done(state, racing, thirds, events)
        return True

    def teams_done(self, state: Race, racing: list[int],
                   thirds: dict[int, tuple[int, int] | None], events: list[Event]) -> None:
        raise NotImplementedError


class TeamTimeTrial(TeamRace):
    """One team against the clock."""

    name = "ttt"
    title = "the team time trial"
    players = (1, 1)
    ranks_riders = True
    score_name = "rounds (team time)"

    def default_players(self) -> int:
        return 1

    def teams_done(self, state: Race, racing: list[int],
                   thirds: dict[int, tuple[int, int] | None], events: list[Event]) -> None:
        riders = state.riders
        order = sorted(racing, key=lambda i: (-riders[i].dist, riders[i].lane))
        state.finish(order, events, "ttt")

    def outcome(self, state: Race) -> Outcome:
        """The team is the one competitor; its score is its time."""
        time = state.team_time()
        return Outcome(ranking=(0,), winner=0, scores={0: time}, score_name=self.score_name,
                       winning_players=(0,), description=f"team time {time:.2f} rounds",
                       termination=Termination.TIME,
                       message=Message("result.team_time", {"rounds": round(time, 2)}))


class TeamPursuit(TeamRace):
    """Two teams starting on opposite sides of the track."""

    name = "pursuit"
    title = "the team pursuit"
    players = (2, 2)
    ranks_riders = False

    def start_offset(self, player: int, length: int) -> int:
        return length // 2 if player == 1 else 0

    def order_group(self, owner: int) -> int:
        return owner

    def teams_done(self, state: Race, racing: list[int],
                   thirds: dict[int, tuple[int, int] | None], events: list[Event]) -> None:
        def team_key(t: int) -> tuple[int, int, int]:
            v = thirds[t]
            return (1, 0, 0) if v is None else (0, -v[0], v[1])

        keys = {t: team_key(t) for t in thirds}
        order = sorted(thirds, key=lambda t: keys[t])
        tie = keys[0] == keys[1]
        state.finish_teams(order, tie, events)

    def outcome(self, state: Race) -> Outcome:
        if not state.ranking:
            return Outcome(ranking=(0, 1), winner=None, winning_players=(0, 1),
                           description="the teams tie", termination=Termination.DRAW,
                           message=Message("result.pursuit_tie"))
        winner = state.ranking[0]
        return Outcome(ranking=tuple(state.ranking), winner=winner, winning_players=(winner,),
                       description=f"team {winner + 1} wins the pursuit",
                       termination=Termination.TIME,
                       message=Message("result.pursuit", {"team": winner + 1}))


VARIANT_RULES: dict[str, Variant] = {
    v.name: v for v in (Scratch(), Points(), Elimination(), Sprint(), TeamTimeTrial(),
                        TeamPursuit())
}
VARIANTS = tuple(VARIANT_RULES)
TEAM_VARIANTS = tuple(name for name, v in VARIANT_RULES.items() if v.team)


# --- the points race ----------------------------------------------------------------------
def normalise_laps(state: Race, events: list[Event]) -> None:
    """Points race: a rider a full lap ahead of the middle of the field gains a lap
    (+20) and rides on as part of the field; one a full lap behind loses one (-20)."""
    length = state.track.length
    changed = True
    while changed:
        changed = False
        racing = [i for i, r in enumerate(state.riders) if r.status == RACE]
        dists = sorted(state.riders[i].dist for i in racing)
        middle = dists[(len(dists) - 1) // 2]
        for i in racing:
            r = state.riders[i]
            if r.dist >= middle + length:
                r.dist -= length
                state.points[i] += LAP_BONUS
                state.laps_delta[i] += 1
                events.append(Event("lap_gained", {"rider": r.ident, "bonus": LAP_BONUS}))
                changed = True
            elif r.dist <= middle - length:
                r.dist += length
                state.points[i] -= LAP_BONUS
                state.laps_delta[i] -= 1
                events.append(Event("lap_lost", {"rider": r.ident, "bonus": -LAP_BONUS}))
                changed = True
            if changed:
                break


def points_key(state: Race, i: int) -> tuple[int, int, int, int]:
    """Most points first, then the last sprint's order, then distance and inner lane."""
    last = state.sprints[-1]
    place = last.index(i) if i in last else len(state.riders)
    return (-state.points[i], place, -state.riders[i].dist, state.riders[i].lane)


def award_sprints(state: Race, events: list[Event]) -> None:
    """Points for this round's line crossings, lap by lap (double for the last lap)."""
    length = state.track.length
    laps = state.options.race_laps
    table = state.options.lap_points
    by_lap: dict[int, list[int]] = {}
    for i, k in state.crossed:
        if i not in state.sprints[k - 1] and i not in by_lap.get(k, []):
            by_lap.setdefault(k, []).append(i)
    for k in sorted(by_lap):
        line = k * length
        crossers = sorted(by_lap[k], key=lambda i: (-(state.riders[i].dist - line),
                                                    state.riders[i].lane))
        awarded = []
        for i in crossers:
            place = len(state.sprints[k - 1])
            state.sprints[k - 1].append(i)
            if place < len(table):
                pts = table[place] * (2 if k == laps else 1)
                state.points[i] += pts
                awarded.append([state.riders[i].ident, place + 1, pts])
        if awarded:
            events.append(Event("sprint", {"lap": k, "places": awarded}))
    state.crossed = []


# --- the elimination race -----------------------------------------------------------------
def end_heat(state: Race, order: list[int], events: list[Event]) -> None:
    """The heat's last rider is out; the others line up again (the heat's winner first),
    or the race is over when one rider is left."""
    last = order[-1]
    state.riders[last].status = OUT
    state.eliminated.append(last)
    events.append(Event("heat", {"heat": state.heat, "order":
                                 [state.riders[i].ident for i in order],
                                 "eliminated": state.riders[last].ident,
                                 "stopped": state.stopped}))
    survivors = order[:-1]
    if len(survivors) == 1:
        state.finish(survivors + list(reversed(state.eliminated)), events, "elimination")
        return
    state.start_heat(survivors)


# --- team races ---------------------------------------------------------------------------
def team_third(state: Race, team: int) -> tuple[int, int] | None:
    """(distance past the line, lane) of the team's third rider if he has crossed."""
    length = state.track.length
    riders = state.riders
    mine = sorted((i for i, r in enumerate(riders) if r.owner == team and r.status == RACE),
                  key=lambda i: (-riders[i].dist, riders[i].lane))
    if len(mine) < TEAM_COUNTS:
        return None
    third = riders[mine[TEAM_COUNTS - 1]]
    if third.dist < length:
        return None
    return (third.dist - length, third.lane)
