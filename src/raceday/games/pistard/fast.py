"""A compiled twin of the PISTARD engine (numba over flat arrays), for playouts and search.

It implements the rules of :mod:`raceday.games.pistard.state` and
:mod:`raceday.games.pistard.variants` (the reference) for all six races on one ``int64``
array, with the same action numbers and the same legal-action lists (sorted moves, standing
still first; placements by square; team order in race order), so the two engines can be
compared step by step (tests/games/pistard/test_fast.py, bench/bench_pistard.py): fed the
same throws and the same choices, both give the same actions and the same position.

Layout of a state (``STATE_SIZE`` ints; riders by index as in the reference): per-rider
blocks of ``MAXR`` (ident, owner, offset, distance, lane, status, stand-stills, points, laps
gained), the players' tokens, then phase, heat, round, rounds in all, the placing queue, the
riders still to move this round, the mover (-1: none), whether the dice are thrown and the
dice, the stopped flag, the eliminated riders, the ranking, this round's line crossings,
the team times and the sprint places of every lap. The race's constants (variant, players,
laps, lap length, round cap, lap points) are a second small array, the track's colours a
third (``grid[lane, column]``, lane 0 unused).

Random numbers come from a xorshift64* generator whose state is passed in (seeded from the
caller's ``numpy.random.Generator``), so every result is reproducible.

This module imports numba: import it lazily (the CLI's help never does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from raceday.core.fastrng import random_below, seed_from
from raceday.core.kernels import kernel
from raceday.games.pistard.moves import (
    CHOOSE_BASE,
    PLACE_BASE,
    RIDER_BASE,
    START_ZONE,
    STAY,
    THROWS,
    TOKEN_FLAG,
)
from raceday.games.pistard.variants import LAP_BONUS, OUT, RACE, SPRINT_FALL, TEAM_COUNTS, WAIT

if TYPE_CHECKING:
    from raceday.games.pistard.options import PistardOptions
    from raceday.games.pistard.state import PistardState
    from raceday.games.pistard.track import Track

MAXR = 12  # riders
MAXP = 5  # players
MAXLAPS = 50
WORK_SIZE = 32  # work array of the move generator
MAXM = 64  # legal actions at one node (moves: 7 x 4 squares x token or not, + standing still)


def _layout(*sizes: int) -> tuple[int, ...]:
    """Where each field of a flat array starts when fields of these sizes follow one
    another from 0, and after the last one the array's size."""
    starts = [0]
    for size in sizes:
        starts.append(starts[-1] + size)
    return tuple(starts)


# The state array: one field after another (name = where it starts; its size beside it).
(IDENT, OWNER, OFFSET, DIST, LANE, STATUS, STILLS, POINTS, LAPSD,  # MAXR each: per rider
 TOKENS,  # MAXP: per player
 PHASE, HEAT, ROUND, RTOT,  # 1 each
 NPQ, PQ,  # 1, MAXR: the placing queue
 NTM, TM,  # 1, MAXR: riders still to move this round
 MOVER, HASDICE,  # 1 each
 DICE0,  # 4
 STOPPED,  # 1
 NELIM, ELIM,  # 1, MAXR
 NRANK, RANK,  # 1, MAXR
 NCROSS, CROSS,  # 1, 2 * MAXR: (rider, lap) pairs: a rider crosses at most one line a move
 NTT, TT,  # 1, 8: (team, rounds, past, lane) for up to two teams
 NRIDERS,  # 1
 SPRN,  # MAXLAPS: riders placed in each lap's sprint
 SPR,  # MAXLAPS * MAXR
 STATE_SIZE) = _layout(*9 * [MAXR], MAXP, 1, 1, 1, 1, 1, MAXR, 1, MAXR, 1, 1, 4, 1,
                       1, MAXR, 1, MAXR, 1, 2 * MAXR, 1, 8, 1, MAXLAPS, MAXLAPS * MAXR)

# phases and statuses as numbers
PH_PLACE, PH_RACE, PH_OVER = 0, 1, 2
ST_WAIT, ST_RACE, ST_OUT = 0, 1, 2
_STATUS_CODE = {WAIT: ST_WAIT, RACE: ST_RACE, OUT: ST_OUT}
_PHASE_CODE = {"place": PH_PLACE, "race": PH_RACE, "over": PH_OVER}

# variants as numbers
V_SCRATCH, V_POINTS, V_ELIM, V_SPRINT, V_TTT, V_PURSUIT = range(6)
VARIANT_CODE = {"scratch": V_SCRATCH, "points": V_POINTS, "elimination": V_ELIM,
                "sprint": V_SPRINT, "ttt": V_TTT, "pursuit": V_PURSUIT}

# the race's constants
P_VARIANT, P_PLAYERS, P_LAPS, P_LENGTH, P_CAP, P_NPOINTS, P_POINTS = range(7)
PARAMS_SIZE = P_POINTS + 8

# who acts
CHANCE_NODE = -1
TERMINAL_NODE = -4

# move information columns (``info[k]`` for the k-th legal action)
I_AHEAD, I_LANE, I_TOKEN, I_BEHIND, I_COLOUR, I_VALUE = range(6)
INFO_SIZE = 6


# --- conversion from and to the reference engine -------------------------------------------
def encode_params(options: PistardOptions, track: Track) -> np.ndarray:
    """The race's constants as an array."""
    par = np.zeros(PARAMS_SIZE, dtype=np.int64)
    par[P_VARIANT] = VARIANT_CODE[options.variant]
    par[P_PLAYERS] = options.num_players
    par[P_LAPS] = options.race_laps
    par[P_LENGTH] = track.length
    par[P_CAP] = options.round_cap(track.length)
    points = options.lap_points
    par[P_NPOINTS] = len(points)
    par[P_POINTS:P_POINTS + len(points)] = points
    return par


def encode_grid(track: Track) -> np.ndarray:
    """``grid[lane, column]``: the colour of each physical square (lane 0 unused)."""
    grid = np.zeros((5, track.length), dtype=np.int64)
    for lane in range(1, 5):
        grid[lane, :] = track.grid[lane]
    return grid


def encode(state: PistardState) -> np.ndarray:
    """The array form of a reference state (its move table aside)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for i, r in enumerate(state.riders):
        st[IDENT + i] = r.ident
        st[OWNER + i] = r.owner
        st[OFFSET + i] = r.offset
        st[DIST + i] = r.dist
        st[LANE + i] = r.lane
        st[STATUS + i] = _STATUS_CODE[r.status]
        st[STILLS + i] = state.stills[i]
        st[POINTS + i] = state.points[i]
        st[LAPSD + i] = state.laps_delta[i]
    st[NRIDERS] = len(state.riders)
    st[TOKENS:TOKENS + len(state.tokens)] = state.tokens
    st[PHASE] = _PHASE_CODE[state.phase]
    st[HEAT] = state.heat
    st[ROUND] = state.round
    st[RTOT] = state.rounds_total
    _put_list(st, NPQ, state.place_queue)
    _put_list(st, NTM, state.to_move)
    st[MOVER] = -1 if state.mover is None else state.mover
    st[HASDICE] = state.dice is not None
    if state.dice is not None:
        st[DICE0:DICE0 + 4] = state.dice
    st[STOPPED] = state.stopped
    _put_list(st, NELIM, state.eliminated)
    _put_list(st, NRANK, state.ranking)
    st[NCROSS] = len(state.crossed)
    for k, (i, lap) in enumerate(state.crossed):
        st[CROSS + 2 * k] = i
        st[CROSS + 2 * k + 1] = lap
    st[NTT] = len(state.team_times)
    for k, row in enumerate(state.team_times):
        st[TT + 4 * k:TT + 4 * k + 4] = row
    for lap, places in enumerate(state.sprints):
        st[SPRN + lap] = len(places)
        st[SPR + lap * MAXR:SPR + lap * MAXR + len(places)] = places
    return st


def _put_list(st: np.ndarray, at: int, values: list[int]) -> None:
    st[at] = len(values)
    st[at + 1:at + 1 + len(values)] = values


def initial(options: PistardOptions, track: Track) -> np.ndarray:
    """The array form of a fresh race (before placement)."""
    from raceday.games.pistard.state import PistardState

    return encode(PistardState(options, track))


class Engine:
    """The compiled engine for one race's options and track, with Python-friendly calls."""

    def __init__(self, options: PistardOptions, track: Track) -> None:
        self.options = options
        self.track = track
        self.params = encode_params(options, track)
        self.grid = encode_grid(track)
        self._acts = np.zeros(MAXM, dtype=np.int64)
        self._info = np.zeros((MAXM, INFO_SIZE), dtype=np.int64)

    @classmethod
    def of(cls, state: PistardState) -> Engine:
        return cls(state.options, state.track)

    def player(self, st: np.ndarray) -> int:
        return int(current_player(st, self.params))

    def legal(self, st: np.ndarray) -> list[int]:
        """The legal actions at a decision node (the reference's order)."""
        n = legal_actions(st, self.params, self.grid, self._acts, self._info)
        return [int(a) for a in self._acts[:n]]

    def step(self, st: np.ndarray, action: int) -> None:
        """Apply a legal action, or a throw outcome 0..1295 at a chance node, in place."""
        apply_action(st, self.params, self.grid, action)

    def random_races(self, st0: np.ndarray, rng: np.random.Generator, games: int) -> np.ndarray:
        """Play ``games`` uniformly random races from ``st0``; per race the ranking's first
        competitor (rider index, team, -1 for a tie) and the steps taken."""
        return random_races(st0, self.params, self.grid, seed_from(rng), games)



# --- random numbers ----------------------------------------------------------------------
# --- who acts --------------------------------------------------------------------------
@kernel
def current_player(st: np.ndarray, par: np.ndarray) -> Any:
    """The acting player, CHANCE_NODE for a throw, TERMINAL_NODE when the race is over."""
    if st[PHASE] == PH_OVER:
        return TERMINAL_NODE
    if st[PHASE] == PH_PLACE:
        return st[OWNER + st[PQ]]
    if st[MOVER] < 0:
        return st[OWNER + st[TM]]
    if st[HASDICE] == 0:
        return CHANCE_NODE
    return st[OWNER + st[MOVER]]


# --- movement --------------------------------------------------------------------------
@kernel
def _occupied(st: np.ndarray, length: int, exclude: int, keys: np.ndarray) -> Any:
    """Squares (column * 8 + lane) of riders on the track other than ``exclude``."""
    n = 0
    for i in range(st[NRIDERS]):
        if st[STATUS + i] == ST_RACE and i != exclude:
            keys[n] = ((st[DIST + i] + st[OFFSET + i]) % length) * 8 + st[LANE + i]
            n += 1
    return n


@kernel
def _has(keys: np.ndarray, n: int, key: int) -> bool:
    for k in range(n):  # noqa: SIM110 (numba compiles no generator any())
        if keys[k] == key:
            return True
    return False


@kernel
def _column_masks(st: np.ndarray, length: int, mover: int, col: int, masks: np.ndarray) -> None:
    """``masks[t]``: the lanes (bit ``lane``) taken by other riders ``t`` columns ahead of
    ``col``, for t = 0..8 (a move reaches at most 7 ahead; the square behind one more)."""
    for t in range(9):
        masks[t] = 0
    for i in range(st[NRIDERS]):
        if st[STATUS + i] == ST_RACE and i != mover:
            t = (st[DIST + i] + st[OFFSET + i] - col) % length
            if t <= 8:
                masks[t] |= 1 << st[LANE + i]


@kernel
def _sweep(masks: np.ndarray, lane0: int, direction: int, max_shift: int, steps: int,
           table: np.ndarray) -> None:
    """``table[t]``: the lane shifts (bits) reachable after ``t`` forward steps, all lane
    changes going ``direction``, never through a taken square."""
    reach = 1
    table[0] = 1
    for t in range(1, steps + 1):
        taken = masks[t]
        nxt = 0
        for j in range(max_shift + 1):
            if reach & (1 << j):
                if not taken & (1 << (lane0 + direction * j)):
                    nxt |= 1 << j
                if j < max_shift and not taken & (1 << (lane0 + direction * (j + 1))):
                    nxt |= 1 << (j + 1)
        reach = nxt
        table[t] = reach


@kernel
def _add_die(grid: np.ndarray, length: int, masks: np.ndarray, col: int, lane0: int,
             inw: np.ndarray, outw: np.ndarray, colour: int, value: int, token: int, base: int,
             acts: np.ndarray, info: np.ndarray, n: int, first_token: int) -> Any:
    """Append the destinations one die allows (those not already listed)."""
    for kind in range(2):
        top = lane0 - 1 if kind == 0 else min(value // 2, 4 - lane0)
        for k in range(0 if kind == 0 else 1, top + 1):
            if kind == 0:
                if not inw[value] & (1 << k):
                    continue
                ahead = value
                lane = lane0 - k
            else:
                if not outw[value - k] & (1 << k):
                    continue
                ahead = value - k
                lane = lane0 + k
            action = base + 10 * ahead + lane
            seen = False
            for m in range(n):
                if acts[m] == action:
                    seen = True
                    break
                # a token move is offered only where the plain dice do not reach
                if token == 1 and m < first_token and info[m, I_AHEAD] == ahead \
                        and info[m, I_LANE] == lane:
                    seen = True
                    break
            if seen:
                continue
            behind = (masks[ahead + 1] >> lane) & 1 == 1
            if behind or grid[lane, (col + ahead) % length] == colour:
                acts[n] = action
                info[n, I_AHEAD] = ahead
                info[n, I_LANE] = lane
                info[n, I_TOKEN] = token
                info[n, I_BEHIND] = 1 if behind else 0
                info[n, I_COLOUR] = colour
                info[n, I_VALUE] = value
                n += 1
    return n


@kernel
def _stay_allowed(st: np.ndarray, par: np.ndarray, has_plain: bool, has_boosted: bool) -> Any:
    if par[P_VARIANT] == V_SPRINT:
        return (has_plain or has_boosted) and st[STILLS + st[MOVER]] < SPRINT_FALL - 1
    return (not has_plain) and has_boosted


@kernel
def gen_moves(st: np.ndarray, par: np.ndarray, grid: np.ndarray, acts: np.ndarray,
              info: np.ndarray, ws: np.ndarray) -> Any:
    """The mover's legal moves with the thrown dice, sorted, standing still first when
    allowed (info row of standing still: ahead -1). Returns the count. ``ws`` is a work
    array of ``WORK_SIZE`` ints."""
    length = par[P_LENGTH]
    mover = st[MOVER]
    col = (st[DIST + mover] + st[OFFSET + mover]) % length
    masks = ws[:9]
    _column_masks(st, length, mover, col, masks)
    lane0 = st[LANE + mover]
    has_token = st[TOKENS + st[OWNER + mover]] > 0
    top = 0
    for c in range(4):
        top = max(top, st[DICE0 + c])
    if has_token:
        top += 1
    inw = ws[MAXR:MAXR + 8]
    outw = ws[MAXR + 8:MAXR + 16]
    _sweep(masks, lane0, -1, lane0 - 1, top, inw)
    _sweep(masks, lane0, 1, 4 - lane0, top, outw)
    ident = st[IDENT + mover]
    base = RIDER_BASE * ident
    n = 0
    for c in range(4):
        n = _add_die(grid, length, masks, col, lane0, inw, outw, c, st[DICE0 + c], 0, base,
                     acts, info, n, 0)
    plain = n
    if has_token:
        for c in range(4):
            v = st[DICE0 + c]
            if v < 6:
                n = _add_die(grid, length, masks, col, lane0, inw, outw, c, v + 1, 1,
                             base + TOKEN_FLAG, acts, info, n, plain)
    # sort by action number (insertion sort, info rows along)
    for a in range(1, n):
        b = a
        while b > 0 and acts[b - 1] > acts[b]:
            acts[b - 1], acts[b] = acts[b], acts[b - 1]
            for f in range(INFO_SIZE):
                info[b - 1, f], info[b, f] = info[b, f], info[b - 1, f]
            b -= 1
    if _stay_allowed(st, par, plain > 0, n > plain):
        for a in range(n, 0, -1):
            acts[a] = acts[a - 1]
            for f in range(INFO_SIZE):
                info[a, f] = info[a - 1, f]
        acts[0] = base + STAY
        info[0, I_AHEAD] = -1
        for f in range(1, INFO_SIZE):
            info[0, f] = 0
        n += 1
    return n


@kernel
def legal_actions(st: np.ndarray, par: np.ndarray, grid: np.ndarray, acts: np.ndarray,
                  info: np.ndarray) -> Any:
    """The legal actions at a decision node (0 elsewhere), in the reference's order."""
    return legal_ws(st, par, grid, acts, info, np.empty(WORK_SIZE, dtype=np.int64))


@kernel
def legal_ws(st: np.ndarray, par: np.ndarray, grid: np.ndarray, acts: np.ndarray,
             info: np.ndarray, ws: np.ndarray) -> Any:
    """:func:`legal_actions` with a given work array."""
    phase = st[PHASE]
    if phase == PH_OVER:
        return 0
    length = par[P_LENGTH]
    if phase == PH_PLACE:
        rider = st[PQ]
        keys = ws[:MAXR]
        nk = _occupied(st, length, -1, keys)
        offset = st[OFFSET + rider]
        n = 0
        for back in range(1, START_ZONE + 1):
            for lane in range(1, 5):
                if not _has(keys, nk, ((offset - back) % length) * 8 + lane):
                    acts[n] = PLACE_BASE + 10 * back + lane
                    info[n, I_AHEAD] = back
                    info[n, I_LANE] = lane
                    n += 1
        return n
    if st[MOVER] < 0:
        owner = st[OWNER + st[TM]]
        n = 0
        for k in range(st[NTM]):
            i = st[TM + k]
            if st[OWNER + i] == owner:
                acts[n] = CHOOSE_BASE + st[IDENT + i]
                info[n, I_AHEAD] = i
                n += 1
        return n
    if st[HASDICE] == 0:
        return 0
    return gen_moves(st, par, grid, acts, info, ws)


# --- transitions -----------------------------------------------------------------------
@kernel
def _sort_racing(st: np.ndarray, out: np.ndarray, group_by_owner: bool, team: int) -> Any:
    """Racing riders (only ``team``'s when it is not -1) ordered furthest first, inner lane
    first among level riders (by team first when ``group_by_owner``); stable, like the
    reference's sorts. Returns how many are in ``out``."""
    n = 0
    for i in range(st[NRIDERS]):
        if st[STATUS + i] == ST_RACE and (team == -1 or st[OWNER + i] == team):
            out[n] = i
            n += 1
    for a in range(1, n):
        b = a
        while b > 0 and _before(st, out[b], out[b - 1], group_by_owner):
            out[b - 1], out[b] = out[b], out[b - 1]
            b -= 1
    return n


@kernel
def _before(st: np.ndarray, i: int, j: int, group_by_owner: bool) -> Any:
    if group_by_owner and st[OWNER + i] != st[OWNER + j]:
        return st[OWNER + i] < st[OWNER + j]
    if st[DIST + i] != st[DIST + j]:
        return st[DIST + i] > st[DIST + j]
    return st[LANE + i] < st[LANE + j]


@kernel
def _over(st: np.ndarray) -> None:
    st[PHASE] = PH_OVER
    for k in range(st[NTM]):
        st[TM + k] = 0
    st[NTM] = 0
    st[MOVER] = -1
    st[HASDICE] = 0
    for c in range(4):
        st[DICE0 + c] = 0


@kernel
def _finish(st: np.ndarray, order: np.ndarray, n: int) -> None:
    st[NRANK] = n
    for k in range(n):
        st[RANK + k] = order[k]
    _over(st)


@kernel
def _end_mover(st: np.ndarray) -> None:
    st[MOVER] = -1
    st[HASDICE] = 0
    for c in range(4):
        st[DICE0 + c] = 0


@kernel
def _pop_front(st: np.ndarray, count_at: int) -> Any:
    n = st[count_at]
    first = st[count_at + 1]
    for k in range(1, n):
        st[count_at + k] = st[count_at + k + 1]
    st[count_at + n] = 0
    st[count_at] = n - 1
    return first


@kernel
def _next_mover(st: np.ndarray, par: np.ndarray) -> None:
    variant = par[P_VARIANT]
    if variant == V_TTT or variant == V_PURSUIT:  # noqa: SIM109 (numba, no tuple in)
        owner = st[OWNER + st[TM]]
        same = 0
        for k in range(st[NTM]):
            if st[OWNER + st[TM + k]] == owner:
                same += 1
        if same > 1:
            return
    st[MOVER] = _pop_front(st, NTM)


@kernel
def _start_round(st: np.ndarray, par: np.ndarray) -> None:
    st[ROUND] += 1
    st[RTOT] += 1
    st[NCROSS] = 0
    for c in range(2 * MAXR):
        st[CROSS + c] = 0
    order = np.empty(MAXR, dtype=np.int64)
    n = _sort_racing(st, order, par[P_VARIANT] == V_PURSUIT, -1)
    st[NTM] = n
    for k in range(n):
        st[TM + k] = order[k]
    _next_mover(st, par)


@kernel
def _normalise_laps(st: np.ndarray, par: np.ndarray) -> None:
    length = par[P_LENGTH]
    dists = np.empty(MAXR, dtype=np.int64)
    changed = True
    while changed:
        changed = False
        n = 0
        for i in range(st[NRIDERS]):
            if st[STATUS + i] == ST_RACE:
                dists[n] = st[DIST + i]
                n += 1
        middle = np.sort(dists[:n])[(n - 1) // 2]
        for i in range(st[NRIDERS]):
            if st[STATUS + i] != ST_RACE:
                continue
            if st[DIST + i] >= middle + length:
                st[DIST + i] -= length
                st[POINTS + i] += LAP_BONUS
                st[LAPSD + i] += 1
                changed = True
            elif st[DIST + i] <= middle - length:
                st[DIST + i] += length
                st[POINTS + i] -= LAP_BONUS
                st[LAPSD + i] -= 1
                changed = True
            if changed:
                break


@kernel
def _in_sprint(st: np.ndarray, lap: int, i: int) -> bool:
    for k in range(st[SPRN + lap - 1]):  # noqa: SIM110 (numba)
        if st[SPR + (lap - 1) * MAXR + k] == i:
            return True
    return False


@kernel
def _award_sprints(st: np.ndarray, par: np.ndarray) -> None:
    length = par[P_LENGTH]
    laps = par[P_LAPS]
    nc = st[NCROSS]
    # the laps crossed this round, in increasing order, each with its crossers in order
    done = np.zeros(nc, dtype=np.bool_)
    crossers = np.empty(MAXR, dtype=np.int64)
    while True:
        lap = -1
        for c in range(nc):
            if not done[c] and (lap < 0 or st[CROSS + 2 * c + 1] < lap):
                lap = st[CROSS + 2 * c + 1]
        if lap < 0:
            break
        m = 0
        for c in range(nc):
            if st[CROSS + 2 * c + 1] != lap or done[c]:
                continue
            done[c] = True
            i = st[CROSS + 2 * c]
            if _in_sprint(st, lap, i):
                continue
            dup = False
            for q in range(m):
                if crossers[q] == i:
                    dup = True
            if not dup:
                crossers[m] = i
                m += 1
        line = lap * length
        for a in range(1, m):  # furthest past the line first, inner lane first (stable)
            b = a
            while b > 0:
                i, j = crossers[b], crossers[b - 1]
                pi, pj = st[DIST + i] - line, st[DIST + j] - line
                if pi > pj or (pi == pj and st[LANE + i] < st[LANE + j]):
                    crossers[b - 1], crossers[b] = i, j
                    b -= 1
                else:
                    break
        for q in range(m):
            i = crossers[q]
            place = st[SPRN + lap - 1]
            st[SPR + (lap - 1) * MAXR + place] = i
            st[SPRN + lap - 1] = place + 1
            if place < par[P_NPOINTS]:
                pts = par[P_POINTS + place]
                if lap == laps:
                    pts *= 2
                st[POINTS + i] += pts
    st[NCROSS] = 0
    for c in range(2 * MAXR):
        st[CROSS + c] = 0


@kernel
def _points_before(st: np.ndarray, par: np.ndarray, i: int, j: int) -> Any:
    if st[POINTS + i] != st[POINTS + j]:
        return st[POINTS + i] > st[POINTS + j]
    last = par[P_LAPS]
    pi = st[NRIDERS]
    pj = st[NRIDERS]
    for k in range(st[SPRN + last - 1]):
        r = st[SPR + (last - 1) * MAXR + k]
        if r == i:
            pi = k
        if r == j:
            pj = k
    if pi != pj:
        return pi < pj
    if st[DIST + i] != st[DIST + j]:
        return st[DIST + i] > st[DIST + j]
    return st[LANE + i] < st[LANE + j]


@kernel
def _team_third(st: np.ndarray, par: np.ndarray, team: int, out: np.ndarray) -> Any:
    """(past the line, lane) of the team's third rider in ``out`` if he has crossed."""
    order = np.empty(MAXR, dtype=np.int64)
    n = _sort_racing(st, order, False, team)
    if n < TEAM_COUNTS:
        return False
    third = order[TEAM_COUNTS - 1]
    length = par[P_LENGTH]
    if st[DIST + third] < length:
        return False
    out[0] = st[DIST + third] - length
    out[1] = st[LANE + third]
    return True


@kernel
def _end_round(st: np.ndarray, par: np.ndarray) -> Any:
    """Settle the round; True if the race (or heat) ended."""
    variant = par[P_VARIANT]
    length = par[P_LENGTH]
    stopped = st[ROUND] >= par[P_CAP]
    order = np.empty(MAXR, dtype=np.int64)
    n = _sort_racing(st, order, False, -1)
    if variant == V_POINTS:
        _award_sprints(st, par)
        need = min(par[P_NPOINTS], n)
        done = st[SPRN + par[P_LAPS] - 1] >= need
        if not (done or stopped):
            return False
        st[STOPPED] = 1 if (stopped and not done) else 0
        for a in range(1, n):
            b = a
            while b > 0 and _points_before(st, par, order[b], order[b - 1]):
                order[b - 1], order[b] = order[b], order[b - 1]
                b -= 1
        _finish(st, order, n)
        return True
    if variant == V_TTT or variant == V_PURSUIT:  # noqa: SIM109 (numba, no tuple in)
        teams = par[P_PLAYERS]
        has = np.zeros(2, dtype=np.bool_)
        vals = np.zeros((2, 2), dtype=np.int64)
        anyone = False
        for t in range(teams):
            has[t] = _team_third(st, par, t, vals[t])
            if has[t]:
                anyone = True
                recorded = False
                for k in range(st[NTT]):
                    if st[TT + 4 * k] == t:
                        recorded = True
                if not recorded:
                    k = st[NTT]
                    st[TT + 4 * k] = t
                    st[TT + 4 * k + 1] = st[ROUND]
                    st[TT + 4 * k + 2] = vals[t, 0]
                    st[TT + 4 * k + 3] = vals[t, 1]
                    st[NTT] = k + 1
        if not (anyone or stopped):
            return False
        st[STOPPED] = 0 if anyone else 1
        if variant == V_TTT:
            _finish(st, order, n)
            return True
        # pursuit: the team whose third rider is further past, then inner lane; else a tie
        _over(st)
        if has[0] != has[1]:
            first = 0 if has[0] else 1
        elif not has[0] or (vals[0, 0] == vals[1, 0] and vals[0, 1] == vals[1, 1]):
            first = -1  # a tie
        elif vals[0, 0] != vals[1, 0]:
            first = 0 if vals[0, 0] > vals[1, 0] else 1
        else:
            first = 0 if vals[0, 1] < vals[1, 1] else 1
        if first < 0:
            st[NRANK] = 0
        else:
            st[NRANK] = 2
            st[RANK] = first
            st[RANK + 1] = 1 - first
        return True
    crossed = False
    for k in range(n):
        if st[DIST + order[k]] >= length:
            crossed = True
    if not (crossed or stopped):
        return False
    st[STOPPED] = 1 if (stopped and not crossed) else 0
    if variant != V_ELIM:
        _finish(st, order, n)
        return True
    # elimination: the last rider is out; the others line up again, the winner first
    last = order[n - 1]
    st[STATUS + last] = ST_OUT
    st[ELIM + st[NELIM]] = last
    st[NELIM] += 1
    if n - 1 == 1:
        final = np.empty(MAXR, dtype=np.int64)
        final[0] = order[0]
        ne = st[NELIM]
        for k in range(ne):
            final[1 + k] = st[ELIM + ne - 1 - k]
        _finish(st, final, 1 + ne)
        return True
    st[HEAT] += 1
    st[ROUND] = 0
    st[STOPPED] = 0
    st[NPQ] = n - 1
    for k in range(n - 1):
        i = order[k]
        st[STATUS + i] = ST_WAIT
        st[DIST + i] = 0
        st[LANE + i] = 0
        st[PQ + k] = i
    for k in range(n - 1, MAXR):
        st[PQ + k] = 0
    st[PHASE] = PH_PLACE
    st[NTM] = 0
    return True


@kernel
def _advance(st: np.ndarray, par: np.ndarray) -> None:
    if st[PHASE] == PH_PLACE:
        if st[NPQ] > 0:
            return
        st[PHASE] = PH_RACE
        _start_round(st, par)
        return
    if st[PHASE] != PH_RACE:
        return
    if par[P_VARIANT] == V_SPRINT:  # decided as soon as a rider falls
        fallen = -1
        winner = -1
        for i in range(st[NRIDERS]):
            if st[STATUS + i] == ST_OUT:
                fallen = i
            elif st[STATUS + i] == ST_RACE:
                winner = i
        if fallen >= 0:
            order = np.empty(2, dtype=np.int64)
            order[0] = winner
            order[1] = fallen
            _finish(st, order, 2)
            return
    if st[MOVER] >= 0:
        return
    n = 0
    for k in range(st[NTM]):
        i = st[TM + k]
        if st[STATUS + i] == ST_RACE:
            st[TM + n] = i
            n += 1
    for k in range(n, st[NTM]):
        st[TM + k] = 0
    st[NTM] = n
    if n > 0:
        _next_mover(st, par)
        return
    if _end_round(st, par):
        return
    _start_round(st, par)


@kernel
def _stay(st: np.ndarray, par: np.ndarray) -> None:
    if par[P_VARIANT] == V_SPRINT:
        mover = st[MOVER]
        st[STILLS + mover] += 1
        if st[STILLS + mover] >= SPRINT_FALL:
            st[STATUS + mover] = ST_OUT
    _end_mover(st)


@kernel
def _move(st: np.ndarray, par: np.ndarray, ahead: int, lane: int, token: int) -> None:
    mover = st[MOVER]
    before = st[DIST + mover]
    st[DIST + mover] = before + ahead
    st[LANE + mover] = lane
    if token:
        st[TOKENS + st[OWNER + mover]] -= 1
    st[STILLS + mover] = 0
    length = par[P_LENGTH]
    for k in range(1, par[P_LAPS] + 1):
        if before < k * length <= before + ahead:
            c = st[NCROSS]
            st[CROSS + 2 * c] = mover
            st[CROSS + 2 * c + 1] = k
            st[NCROSS] = c + 1
    if par[P_VARIANT] == V_POINTS:
        _normalise_laps(st, par)
    _end_mover(st)


@kernel
def throw(st: np.ndarray, par: np.ndarray, grid: np.ndarray, outcome: int, acts: np.ndarray,
          info: np.ndarray, ws: np.ndarray) -> Any:
    """The mover throws ``outcome`` (0..1295). Returns the number of his legal actions, left
    in ``acts``/``info``; 0 if he had no move (he stayed and the race went on)."""
    st[HASDICE] = 1
    st[DICE0] = outcome // 216 + 1
    st[DICE0 + 1] = outcome // 36 % 6 + 1
    st[DICE0 + 2] = outcome // 6 % 6 + 1
    st[DICE0 + 3] = outcome % 6 + 1
    n = gen_moves(st, par, grid, acts, info, ws)
    if n > 0:
        _advance(st, par)
        return n
    _stay(st, par)
    _advance(st, par)
    return 0


@kernel
def apply_action(st: np.ndarray, par: np.ndarray, grid: np.ndarray, action: int) -> None:
    """Apply ``action`` (legal, not checked) in place; at a chance node it is the throw."""
    if st[PHASE] != PH_OVER and st[PHASE] != PH_PLACE and st[MOVER] >= 0 \
            and st[HASDICE] == 0:
        throw(st, par, grid, action, np.empty(MAXM, dtype=np.int64),
              np.empty((MAXM, INFO_SIZE), dtype=np.int64), np.empty(WORK_SIZE, dtype=np.int64))
        return
    decide(st, par, action)


@kernel
def decide(st: np.ndarray, par: np.ndarray, action: int) -> None:
    """Apply a legal decision (placement, next rider, move or standing still) in place."""
    if st[PHASE] == PH_PLACE:
        i = _pop_front(st, NPQ)
        code = action - PLACE_BASE
        st[DIST + i] = -(code // 10)
        st[LANE + i] = code % 10
        st[STATUS + i] = ST_RACE
    elif st[MOVER] < 0:
        ident = action - CHOOSE_BASE
        n = st[NTM]
        at = 0
        for k in range(n):
            if st[IDENT + st[TM + k]] == ident:
                at = k
                break
        chosen = st[TM + at]
        for k in range(at, n - 1):
            st[TM + k] = st[TM + k + 1]
        st[TM + n - 1] = 0
        st[NTM] = n - 1
        st[MOVER] = chosen
    else:
        code = action - RIDER_BASE * st[IDENT + st[MOVER]]
        if code == STAY:
            _stay(st, par)
        else:
            _move(st, par, code % TOKEN_FLAG // 10, code % 10, code // TOKEN_FLAG)
    _advance(st, par)


# --- random races ----------------------------------------------------------------------
@kernel
def random_race(st: np.ndarray, par: np.ndarray, grid: np.ndarray, rs: np.ndarray,
                acts: np.ndarray, info: np.ndarray, ws: np.ndarray) -> Any:
    """Play uniformly random choices and throws on ``st`` (in place) to the end; return the
    steps taken."""
    steps = 0
    while True:
        player = current_player(st, par)
        if player == TERMINAL_NODE:
            return steps
        if player == CHANCE_NODE:
            steps += 1
            n = throw(st, par, grid, random_below(rs, THROWS), acts, info, ws)
            if n > 0:  # the throw's moves are the decision's legal actions
                decide(st, par, acts[random_below(rs, n)])
                steps += 1
            continue
        n = legal_ws(st, par, grid, acts, info, ws)
        decide(st, par, acts[random_below(rs, n)])
        steps += 1


@kernel
def random_races(st0: np.ndarray, par: np.ndarray, grid: np.ndarray, seed: int,
                 games: int) -> np.ndarray:
    """``games`` random races from ``st0``: [first competitor of the ranking (-1: none),
    steps] for each."""
    rs = np.empty(1, dtype=np.uint64)
    rs[0] = np.uint64(seed)
    acts = np.empty(MAXM, dtype=np.int64)
    info = np.empty((MAXM, INFO_SIZE), dtype=np.int64)
    ws = np.empty(WORK_SIZE, dtype=np.int64)
    out = np.empty((games, 2), dtype=np.int64)
    st = st0.copy()
    for g in range(games):
        st[:] = st0
        out[g, 1] = random_race(st, par, grid, rs, acts, info, ws)
        out[g, 0] = st[RANK] if st[NRANK] > 0 else -1
    return out


# --- checking against the reference --------------------------------------------------------
_FIELDS = (("ident", IDENT), ("owner", OWNER), ("offset", OFFSET), ("distance", DIST),
           ("lane", LANE), ("status", STATUS), ("stand-stills", STILLS), ("points", POINTS),
           ("laps gained", LAPSD))
_SINGLE = {TOKENS: "tokens", PHASE: "phase", HEAT: "heat", ROUND: "round", RTOT: "rounds",
           NPQ: "placing queue", NTM: "riders to move", MOVER: "mover", HASDICE: "dice",
           STOPPED: "stopped", NELIM: "eliminated", NRANK: "ranking", NCROSS: "crossings",
           NTT: "team times", NRIDERS: "riders", SPRN: "sprints"}


def field_name(index: int) -> str:
    """The name of the state field at ``index`` of the layout."""
    for name, start in _FIELDS:
        if start <= index < start + MAXR:
            return f"{name} of rider index {index - start}"
    best = max(k for k in _SINGLE if k <= index)
    return _SINGLE[best]


def compare(state: PistardState, st: np.ndarray) -> None:
    """Raise AssertionError naming the first field where ``st`` differs from ``state``."""
    expected = encode(state)
    bad = np.nonzero(expected != st)[0]
    if len(bad):
        k = int(bad[0])
        raise AssertionError(f"{field_name(k)}: reference {int(expected[k])}, compiled "
                             f"{int(st[k])} (index {k}; {len(bad)} values differ)")


def lock_step(options: PistardOptions, rng: np.random.Generator,
              track: Track | None = None) -> int:
    """Play one race on both engines with the same throws and choices (drawn from ``rng``),
    checking the player to act, the legal actions and the whole position at every step;
    return the steps played. Raises AssertionError at the first difference."""
    from raceday.games.pistard.state import PistardState

    state = PistardState(options, track)
    engine = Engine.of(state)
    st = encode(state)
    steps = 0
    while True:
        player = state.current_player()
        got = engine.player(st)
        assert got == player, f"step {steps}: player {player} to act, compiled says {got}"
        if state.is_terminal():
            return steps
        if state.is_chance_node():
            action = int(rng.integers(THROWS))
        else:
            legal = state.legal_actions()
            compiled = engine.legal(st)
            assert compiled == legal, f"step {steps}: legal {legal}, compiled {compiled}"
            action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        engine.step(st, action)
        compare(state, st)
        steps += 1
