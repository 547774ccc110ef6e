"""A compiled WielerSIM engine: whole races in a numba loop over flat numpy arrays.

It is the state machine of :mod:`raceday.games.wielersim.rules` (pending throw, resolve,
continue, end of turn) written again over arrays, with the same rules step for step:
aspiration, counters, acceleration, the event table, crashes and evasions, blocking rows,
lanes (the lowest roughness on cobbles), cobble boards, intermediate (virtual) sprints,
flat finishes with group sprints, summit finishes with the text's gap formula and the
``monotonic_gaps`` variant, and the rider ratings of our extension. Climb places are not
kept (they never change a throw or a place; predictions do not need them).

Dice: it reads the faces exactly as :class:`raceday.games.wielersim.dice.DiceBuffer`
does (the same blocks of 16,384 faces drawn from the same generator, a block dropped when
a throw needs more faces than it has left, the board layout drawn from the generator when
the board throw comes). The kernel cannot call the generator itself, so it returns to
Python whenever a block runs out or a board is thrown, and resumes where it stopped (the
whole race state lives in the arrays). So, fed the same generator, it rides the same races
as :func:`raceday.games.wielersim.rules.run_race_fast`, throw for throw; the tests in
``tests/games/wielersim/test_compiled.py`` check that record for record.

numba is imported only when a compiled race runs (``raceday --help`` and ``wielersim
watch`` never import it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from raceday.games.wielersim import dice
from raceday.games.wielersim.model import COBBLES, SPRINTER, UPHILL
from raceday.games.wielersim.route import CompiledRoute

# dice kinds
K_D6, K_2D6, K_3D6B2, K_2D10, K_3D10B2, K_4D6, K_4D6R, K_BOARD = range(8)
KIND_CODES = {dice.D6_KIND: K_D6, dice.TWO_D6: K_2D6, dice.BEST_TWO_OF_3D6: K_3D6B2,
              dice.TWO_D10: K_2D10, dice.BEST_TWO_OF_3D10: K_3D10B2, dice.FOUR_D6: K_4D6,
              dice.FOUR_D6_REROLL: K_4D6R, dice.BOARD: K_BOARD}
# purposes of a throw
P_ROLL, P_ACCEL, P_COUNTER, P_EVENT, P_STEER, P_EVADE, P_SPRINT, P_GRID, P_WEATHER, P_BOARD = \
    range(10)
# phases
PH_BOARD, PH_WEATHER, PH_GRID, PH_RACE, PH_SPRINT, PH_OVER = range(6)
# end-of-turn steps (rules.EndOfTurn)
E_CLIMBS, E_SPRINTS, E_FINISH, E_WEATHER, E_NEXT = range(5)
# what the kernel returns
DONE, NEED_D6, NEED_D10, NEED_BOARD = 0, -1, -2, -3

# slots of the scalar state ``sc``
(PHASE, RAIN, HALF, TURN, IDX, NORDER, CVAL, CATT, PKIND, PRIDER, PPURP, EOT, WIN_TURN,
 WIN_POS, NRES, CQH, CQN, GQ, SP_N, SP_NEXT, SP_COUNT, SP_MARK, SP_GAP, I6, I10, BOARD_IN,
 BOARD, R4, F0, F1, F2, F3, ACTIVE, RACES) = range(34)
SC_SIZE = 34
# then the race's numbers (fixed for a route and peloton)
(A_DIST, A_UPHILL, A_MONO, A_EDGES, A_RANDOM, A_N, A_SIZE) = range(SC_SIZE, SC_SIZE + 7)
# rows of the per-rider array ``rs``: the race's state ...
(POS, LANE, FIN, DONE_, ORDER, START, CQ, SPR, SPV, SPS, RES_R, RES_G, RES_T, SCR, SCR2) = \
    range(15)
RS_ROWS = 15
# ... then the peloton (fixed)
Q_KIND, Q_RANK, Q_CLIMB, Q_COBBLES, Q_SPRINT, Q_GRID, Q_GRIDKIND = range(RS_ROWS, RS_ROWS + 7)
# columns of the per-square array ``sq``: the riders in lanes 0-5, how many, the board's
# roughness in lanes 0-3, then the road (fixed): type, colour, steepness, width
S_COUNT, S_ROUGH = 6, 7
T_ROAD, T_COLOUR, T_STEEP, T_WIDTH = range(11, 15)
PLACES_PER_SPRINT = 8  # len(rules.INTERMEDIATE_POINTS)
# columns of the per-sprint array ``sp``: the places, how many, the sprint's square
SP_LINE = PLACES_PER_SPRINT + 1
# Few arrays on purpose: numba counts references to every array a compiled function
# gets, with atomic instructions; with ten arrays they took half of a race's time.
TOP_PLACES, PODIUM = 10, 3
EMPTY = -1


@dataclass(frozen=True, eq=False)
class Tables:
    """A route and a peloton as the kernel's arrays (built once per pair, cached)."""

    road: np.ndarray  # (size, 4): road type, colour, steepness, width
    rough: np.ndarray  # (layouts, size, 4): roughness per board layout (1 layout if fixed)
    pel: np.ndarray  # (7, n): kind, rank, the three edges, grid order, grid throw kind
    lines: np.ndarray  # squares of the intermediate sprints, in the route's order
    par: np.ndarray  # distance, uphill finish, monotonic gaps, rated, random board, n, size
    n: int


def tables_of(state: Any) -> Tables:
    """The kernel's tables for a race's route and peloton (a WielersimState before its
    first throw: its grid order and start throws are read from it)."""
    return _tables(state.route, state.peloton, state)


_TABLES: dict[tuple[int, int], tuple[Any, Any, Tables]] = {}


def _tables(route: CompiledRoute, peloton: Any, state: Any) -> Tables:
    key = (id(route), id(peloton))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is route and hit[1] is peloton:
        return hit[2]
    n = state.n
    size = len(route.road)
    road = np.array([route.road, route.colour, route.steepness, route.width], dtype=np.int64).T
    rough = _rough_tables(route)
    edges = state.edges
    pel = np.zeros((7, n), dtype=np.int64)
    pel[0] = state.kind
    pel[1] = state.rank
    if edges is not None:
        pel[2:5] = np.array(edges, dtype=np.int64).T
    pel[5] = state.grid_order()
    pel[6] = [KIND_CODES[state._grid_kind(r)] for r in range(n)]
    lines = np.array(route.sprints, dtype=np.int64).reshape(-1)
    par = np.array([route.distance, route.finish == "uphill", route.monotonic_gaps,
                    edges is not None, route.has_random_cobbles, n, size], dtype=np.int64)
    tables = Tables(road, rough, pel, lines, par, n)
    if len(_TABLES) > 64:
        _TABLES.clear()
    _TABLES[key] = (route, peloton, tables)
    return tables


@lru_cache(maxsize=16)
def _rough_tables(route: CompiledRoute) -> np.ndarray:
    """Roughness per layout, square and lane, from the route's own :meth:`roughness`."""
    layouts: list[int | None] = (list(range(dice.BOARD_LAYOUTS)) if route.has_random_cobbles
                                 else [None])
    out = np.zeros((len(layouts), len(route.road), 4), dtype=np.int64)
    for k, layout in enumerate(layouts):
        for p, row in enumerate(route.roughness(layout)):
            if row:
                out[k, p, : len(row)] = row
    return out


# --- the kernel ------------------------------------------------------------------------------
# numba is imported when the first compiled race runs: the functions below are plain Python
# until _kernel() compiles them (njit with cache=True).


def _take(sc: Any, slot: int, faces: Any, k: int) -> Any:
    i = sc[slot]
    if i + k > faces.shape[0]:
        return -1
    sc[slot] = i + k
    return i


def _best_two(a: int, b: int, c: int) -> int:
    return a + b + c - min(a, min(b, c))


def _throw(sc: Any, d6: Any, d10: Any, kind: int) -> Any:
    """The value of the pending throw, or NEED_* when the generator must be called."""
    if kind == K_2D6:
        i = _take(sc, I6, d6, 2)
        return NEED_D6 if i < 0 else d6[i] + d6[i + 1]
    if kind == K_D6:
        i = _take(sc, I6, d6, 1)
        return NEED_D6 if i < 0 else d6[i]
    if kind == K_3D6B2:
        i = _take(sc, I6, d6, 3)
        return NEED_D6 if i < 0 else _best_two(d6[i], d6[i + 1], d6[i + 2])
    if kind == K_2D10:
        i = _take(sc, I10, d10, 2)
        return NEED_D10 if i < 0 else d10[i] + d10[i + 1]
    if kind == K_3D10B2:
        i = _take(sc, I10, d10, 3)
        return NEED_D10 if i < 0 else _best_two(d10[i], d10[i + 1], d10[i + 2])
    if kind == K_4D6:
        i = _take(sc, I6, d6, 4)
        return NEED_D6 if i < 0 else d6[i] + d6[i + 1] + d6[i + 2] + d6[i + 3]
    if kind == K_4D6R:  # four faces, then (maybe from a new block) two re-roll faces
        if sc[R4] == 0:
            i = _take(sc, I6, d6, 4)
            if i < 0:
                return NEED_D6
            for k in range(4):
                sc[F0 + k] = d6[i + k]
            sc[R4] = 1
        j = _take(sc, I6, d6, dice.REROLL_MAX)
        if j < 0:
            return NEED_D6
        sc[R4] = 0
        done = 0
        while done < dice.REROLL_MAX:  # re-roll the lowest 1 or 2 first (dice.rerolled_faces)
            low = -1
            for k in range(4):
                if sc[F0 + k] <= 2 and (low < 0 or sc[F0 + k] < sc[F0 + low]):
                    low = k
            if low < 0:
                break
            sc[F0 + low] = 100 + d6[j + done]  # marked: never re-rolled twice
            done += 1
        total = 0
        for k in range(4):
            v = sc[F0 + k]
            total += v - 100 if v > 100 else v
        return total
    v = sc[BOARD_IN]  # K_BOARD
    if v < 0:
        return NEED_BOARD
    sc[BOARD_IN] = -1
    return v


def _pend(sc: Any, kind: int, rider: int, purpose: int) -> None:
    sc[PKIND] = kind
    sc[PRIDER] = rider
    sc[PPURP] = purpose


def _choose_lane(sq: Any, row: int) -> int:
    width = sq[row, T_WIDTH]
    if sq[row, T_ROAD] != COBBLES:
        for lane in range(width - 1, -1, -1):
            if sq[row, lane] == EMPTY:
                return lane
        return EMPTY
    best = EMPTY
    best_key = 99
    for lane in range(width - 1, -1, -1):
        if sq[row, lane] != EMPTY:
            continue
        if sq[row, S_ROUGH + lane] < best_key:
            best = lane
            best_key = sq[row, S_ROUGH + lane]
    return best


def _put(rs: Any, sq: Any, r: int, row: int, lane: int) -> None:
    rs[POS, r] = row
    rs[LANE, r] = lane
    sq[row, lane] = r
    sq[row, S_COUNT] += 1


def _lift(rs: Any, sq: Any, r: int) -> None:
    row = rs[POS, r]
    lane = rs[LANE, r]
    if lane != EMPTY and sq[row, lane] == r:
        sq[row, lane] = EMPTY
        sq[row, S_COUNT] -= 1
    rs[LANE, r] = EMPTY


def _order_key(rs: Any, r: int) -> Any:
    """(-pos, rank, -lane) as one number (ascending: the order of play)."""
    return ((100_000 - rs[POS, r]) * 4 + rs[Q_RANK, r]) * 8 + 6 - rs[LANE, r]


def _line_key(rs: Any, r: int) -> Any:
    """(-pos, -lane, r) as one number (ascending: who crossed a line first)."""
    return ((100_000 - rs[POS, r]) * 8 + 6 - rs[LANE, r]) * 64 + r


def _sort_by(rs: Any, items: int, keys: int, k: int) -> None:
    """Insertion sort of ``rs[items, :k]`` by ``rs[keys, :k]`` (keys are distinct)."""
    for i in range(1, k):
        item = rs[items, i]
        key = rs[keys, i]
        j = i - 1
        while j >= 0 and rs[keys, j] > key:
            rs[items, j + 1] = rs[items, j]
            rs[keys, j + 1] = rs[keys, j]
            j -= 1
        rs[items, j + 1] = item
        rs[keys, j + 1] = key


def _new_turn(sc: Any, rs: Any, n: int) -> None:
    sc[TURN] += 1
    k = 0
    for r in range(n):
        if rs[FIN, r] == 0:
            rs[ORDER, k] = r
            rs[SCR, k] = _order_key(rs, r)
            k += 1
    _sort_by(rs, ORDER, SCR, k)
    sc[NORDER] = k
    for r in range(n):
        rs[START, r] = rs[POS, r]
        rs[DONE_, r] = 0
    sc[IDX] = 0
    sc[CVAL] = 0
    sc[CATT] = 0
    sc[EOT] = E_CLIMBS


def _move(sc: Any, rs: Any, sq: Any, r: int, value: int) -> None:
    start = rs[POS, r]
    kind = sq[start, T_ROAD]
    penalty = 0
    if kind == UPHILL:
        penalty = sq[start, T_STEEP]
    elif kind == COBBLES:
        penalty = sq[start, S_ROUGH + min(rs[LANE, r], 3)]
    if sc[A_EDGES] != 0 and penalty != 0:
        if kind == UPHILL:
            penalty = max(0, penalty - rs[Q_CLIMB, r])
        elif kind == COBBLES:
            penalty = max(0, penalty - rs[Q_COBBLES, r])
    target = start + max(1, value - penalty)
    row = target
    for x in range(start + 1, target + 1):
        if sq[x, S_COUNT] >= sq[x, T_WIDTH]:
            row = x - 1
            break
    rs[DONE_, r] = 1
    if row > start:
        sq[start, rs[LANE, r]] = EMPTY
        sq[start, S_COUNT] -= 1
        lane = _choose_lane(sq, row)
        sq[row, lane] = r
        sq[row, S_COUNT] += 1
        rs[POS, r] = row
        rs[LANE, r] = lane


def _start_move(sc: Any, rs: Any, sq: Any, r: int) -> None:
    p = rs[POS, r]
    own = K_3D6B2 if sq[p, T_COLOUR] == rs[Q_KIND, r] else K_2D6
    if sq[p, T_ROAD] == COBBLES:
        _pend(sc, own, r, P_ROLL)
        return
    idx = sc[IDX]
    if idx > 0 and rs[START, rs[ORDER, idx - 1]] - p <= 1:
        if sc[CATT] != 0:
            _pend(sc, own, r, P_COUNTER)
            return
        if sc[CVAL] >= 6:
            if own == K_3D6B2:
                _pend(sc, own, r, P_ACCEL)
            else:
                _move(sc, rs, sq, r, sc[CVAL])
            return
    _pend(sc, own, r, P_ROLL)


def _event(sc: Any, rs: Any, sq: Any, r: int, roll: int) -> Any:
    """The event table for rider ``r``: sets the chain of the group and returns the
    squares to move for (0: no move)."""
    p = rs[POS, r]
    modified = roll - sc[RAIN] - (1 if sq[p, T_ROAD] == COBBLES else 0)
    if modified <= 2:  # crash: riders right behind may fall too
        rs[DONE_, r] = 1
        sc[CVAL] = 0
        sc[CATT] = 0
        k = 0
        for i in range(sc[IDX] + 1, sc[NORDER]):
            q = rs[ORDER, i]
            if rs[DONE_, q] == 0 and rs[POS, q] == p - 1 and abs(rs[LANE, q] - rs[LANE, r]) <= 1:
                rs[CQ, k] = q
                k += 1
        sc[CQH] = 0
        sc[CQN] = k
        return 0
    if modified == 3:  # flat tyre
        rs[DONE_, r] = 1
        sc[CVAL] = 0
        sc[CATT] = 0
        return 0
    if modified == 4:  # steering error
        _pend(sc, K_D6, r, P_STEER)
        return 0
    move = 7 if modified < 11 else 10 if modified == 11 else 12
    sc[CVAL] = move
    sc[CATT] = 1 if move == 12 else 0
    return move


def _race_throw(sc: Any, rs: Any, sq: Any, r: int, purpose: int, value: int) -> None:
    """A throw of the race proper. Every branch ends in at most one move (one call of
    :func:`_move`, so that it can be inlined); the chain of the group does not depend
    on the move, so it is set before it."""
    move = 0
    if purpose == P_ACCEL and value <= sc[CVAL]:  # no better: follow
        move = sc[CVAL]
    elif purpose == P_COUNTER and value >= 10:
        move = max(value, sc[CVAL])
        sc[CVAL] = move
    elif purpose <= P_COUNTER:  # the rider's own throw: a roll, an acceleration, a counter
        if value == 7:
            _pend(sc, K_2D6, r, P_EVENT)
            return
        move = value
        sc[CVAL] = value
        sc[CATT] = 1 if value >= 11 and sq[rs[START, r], T_ROAD] != COBBLES else 0
    elif purpose == P_EVENT:
        move = _event(sc, rs, sq, r, value)
    elif purpose == P_STEER:
        move = value
        sc[CVAL] = value
        sc[CATT] = 0
    else:  # P_EVADE
        sc[CQH] += 1
        if value == 6:
            move = 7
        else:
            rs[DONE_, r] = 1
    if move > 0:
        _move(sc, rs, sq, r, move)


def _group(sc: Any, rs: Any, sq: Any, x: int) -> int:
    """The riders on the road in ``x``'s group (no empty row between them) into
    ``rs[SPR]``, in the order of play; returns how many."""
    size = sc[A_SIZE]
    lo = rs[POS, x]
    while lo > 0 and sq[lo - 1, S_COUNT] > 0:
        lo -= 1
    hi = rs[POS, x]
    while hi + 1 < size and sq[hi + 1, S_COUNT] > 0:
        hi += 1
    k = 0
    for r in range(sc[A_N]):
        if rs[FIN, r] == 0 and lo <= rs[POS, r] <= hi:
            rs[SPR, k] = r
            rs[SCR, k] = _order_key(rs, r)
            k += 1
    _sort_by(rs, SPR, SCR, k)
    return k


def _start_sprint(sc: Any, rs: Any, k: int, marker: int, gap: int) -> None:
    """A sprint of the ``k`` riders already in ``rs[SPR]`` (in the order of play)."""
    for i in range(k):
        rs[SPV, i] = rs[POS, rs[SPR, i]]
        rs[SPS, i] = i
    sc[SP_N] = k
    sc[SP_NEXT] = 0
    sc[SP_COUNT] = k
    sc[SP_MARK] = marker
    sc[SP_GAP] = gap
    sc[PHASE] = PH_SPRINT


def _finish(sc: Any, rs: Any, sq: Any, r: int, gap: int) -> None:
    k = sc[NRES]
    rs[RES_R, k] = r
    rs[RES_G, k] = gap
    rs[RES_T, k] = sc[TURN]
    sc[NRES] = k + 1
    rs[FIN, r] = 1
    _lift(rs, sq, r)


def _placed(sp: Any, s: int, taken: int, r: int) -> bool:
    """Whether rider ``r`` is among the first ``taken`` places of sprint ``s``."""
    found = False
    for j in range(taken):
        found = found or sp[s, j] == r
    return found


def _crossers(sc: Any, rs: Any, sp: Any, line: int, s: int) -> int:
    """Riders past ``line`` not yet placed at sprint ``s`` into ``rs[SCR2]``."""
    n = sc[A_N]
    taken = sp[s, PLACES_PER_SPRINT]
    k = 0
    for r in range(n):
        if rs[POS, r] >= line and not _placed(sp, s, taken, r):
            rs[SCR2, k] = r
            rs[SCR, k] = _line_key(rs, r)
            k += 1
    _sort_by(rs, SCR2, SCR, k)
    for i in range(sc[NRES]):
        r = rs[RES_R, i]
        if rs[POS, r] < line and not _placed(sp, s, taken, r):
            rs[SCR2, k] = r
            k += 1
    return k


def _score_sprints(sc: Any, rs: Any, sq: Any, sp: Any) -> bool:
    n = sc[A_N]
    front = rs[POS, 0]
    for r in range(1, n):
        front = max(front, rs[POS, r])
    for s in range(sp.shape[0]):
        line = sp[s, SP_LINE]
        if line > front:
            break
        placed = sp[s, PLACES_PER_SPRINT]
        if placed >= PLACES_PER_SPRINT:
            continue
        k = _crossers(sc, rs, sp, line, s)
        if k == 0:
            continue
        first = rs[SCR2, 0]
        if placed == 0 and rs[FIN, first] == 0:
            g = _group(sc, rs, sq, first)
            if g > 1:
                _start_sprint(sc, rs, g, s, 0)
                return True
        for i in range(min(k, PLACES_PER_SPRINT - placed)):
            sp[s, placed + i] = rs[SCR2, i]
        sp[s, PLACES_PER_SPRINT] = placed + min(k, PLACES_PER_SPRINT - placed)
    return False


def _gap(sc: Any, rs: Any, gap: int) -> Any:
    if sc[A_MONO] != 0 and sc[NRES] > 0:
        return max(gap, rs[RES_G, sc[NRES] - 1])
    return gap


def _finish_riders(sc: Any, rs: Any, sq: Any) -> bool:
    n = sc[A_N]
    line = sc[A_DIST]
    if sc[A_UPHILL] != 0:
        k = 0
        for r in range(n):
            if rs[FIN, r] == 0 and rs[POS, r] >= line:
                rs[SCR2, k] = r
                rs[SCR, k] = _line_key(rs, r)
                k += 1
        if k == 0:
            return False
        _sort_by(rs, SCR2, SCR, k)
        if sc[WIN_TURN] < 0:
            sc[WIN_TURN] = sc[TURN]
            sc[WIN_POS] = rs[POS, rs[SCR2, 0]]
        for i in range(k):
            r = rs[SCR2, i]
            gap = 60 * (sc[TURN] - sc[WIN_TURN]) + 12 * (sc[WIN_POS] - rs[POS, r])
            _finish(sc, rs, sq, r, _gap(sc, rs, gap))
        return False
    while True:
        front = -1
        best = 0
        for r in range(n):
            if rs[FIN, r] == 0 and rs[POS, r] >= line:
                key = _order_key(rs, r)
                if front < 0 or key < best:
                    front = r
                    best = key
        if front < 0:
            return False
        g = _group(sc, rs, sq, front)
        if sc[WIN_TURN] < 0:
            sc[WIN_TURN] = sc[TURN]
            sc[WIN_POS] = rs[POS, front]
        gap = _gap(sc, rs, 60 * (sc[TURN] - sc[WIN_TURN]) + 6 * (sc[WIN_POS] - rs[POS, front]))
        if g == 1:
            _finish(sc, rs, sq, front, gap)
            continue
        _start_sprint(sc, rs, g, -1, gap)
        return True


def _sprint_step(sc: Any, rs: Any, roll: int) -> None:
    i = sc[SP_NEXT]
    k = sc[SP_N]
    if sc[A_EDGES] != 0:
        roll = max(1, roll + rs[Q_SPRINT, rs[SPR, i]])
    start = rs[SPV, i]
    bonus = 0
    for j in range(k):  # rows of other riders strictly passed, each row once
        v = rs[SPV, j]
        if j == i or not start < v < start + roll:
            continue
        seen = False
        for m in range(j):
            if m != i and rs[SPV, m] == v:
                seen = True
                break
        if not seen:
            bonus += 1
    rs[SPV, i] = start + roll + bonus
    rs[SPS, i] = sc[SP_COUNT]
    sc[SP_COUNT] += 1
    sc[SP_NEXT] = i + 1


def _sprint_finish(sc: Any, rs: Any, sq: Any, sp: Any) -> None:
    k = sc[SP_N]
    for i in range(k):  # rank by (-vpos, seq): sort the riders, keys in SCR
        rs[SCR2, i] = rs[SPR, i]
        rs[SCR, i] = (100_000 - rs[SPV, i]) * 1024 + rs[SPS, i]
    _sort_by(rs, SCR2, SCR, k)
    marker = sc[SP_MARK]
    sc[SP_N] = 0
    if marker < 0:
        for i in range(k):
            _finish(sc, rs, sq, rs[SCR2, i], sc[SP_GAP])
    else:
        placed = sp[marker, PLACES_PER_SPRINT]
        add = min(k, PLACES_PER_SPRINT, PLACES_PER_SPRINT - placed)
        for i in range(add):
            sp[marker, placed + i] = rs[SCR2, i]
        sp[marker, PLACES_PER_SPRINT] = placed + add


def _end_of_turn(sc: Any, rs: Any, sq: Any, sp: Any) -> None:
    n = sc[A_N]
    if sc[EOT] == E_CLIMBS:  # climb places are not kept: they change no throw
        sc[EOT] = E_SPRINTS
    if sc[EOT] == E_SPRINTS:
        if _score_sprints(sc, rs, sq, sp):
            return
        sc[EOT] = E_FINISH
    if sc[EOT] == E_FINISH:
        if _finish_riders(sc, rs, sq):
            return
        if sc[NRES] > 0:
            _score_sprints(sc, rs, sq, sp)
        sc[EOT] = E_WEATHER
    if sc[EOT] == E_WEATHER:
        sc[EOT] = E_NEXT
        front = rs[POS, 0]
        for r in range(1, n):
            front = max(front, rs[POS, r])
        if sc[HALF] == 0 and front >= sc[A_DIST] // 2:
            sc[HALF] = 1
            _pend(sc, K_D6, EMPTY, P_WEATHER)
            return
    if sc[NRES] == n:
        sc[PHASE] = PH_OVER
        sc[NORDER] = 0
        return
    _new_turn(sc, rs, n)


def _continue(sc: Any, rs: Any, sq: Any, sp: Any) -> None:
    while sc[PKIND] < 0 and sc[PHASE] != PH_OVER:
        if sc[PHASE] == PH_RACE and sc[CQH] == sc[CQN] and sc[IDX] < sc[NORDER]:
            r = rs[ORDER, sc[IDX]]
            if rs[DONE_, r] == 0:
                _start_move(sc, rs, sq, r)
                if sc[PKIND] >= 0:
                    return
            sc[IDX] += 1
            continue
        if sc[PHASE] == PH_SPRINT:
            if sc[SP_NEXT] < sc[SP_N]:
                r = rs[SPR, sc[SP_NEXT]]
                _pend(sc, K_2D6 if rs[Q_KIND, r] == SPRINTER else K_D6, r, P_SPRINT)
                return
            _sprint_finish(sc, rs, sq, sp)
            sc[PHASE] = PH_RACE
            continue
        if sc[CQH] < sc[CQN]:
            _pend(sc, K_D6, rs[CQ, sc[CQH]], P_EVADE)
            return
        _end_of_turn(sc, rs, sq, sp)


def _next_grid(sc: Any, rs: Any, sq: Any, sp: Any) -> None:
    if sc[GQ] < sc[A_N]:
        r = rs[Q_GRID, sc[GQ]]
        sc[GQ] += 1
        _pend(sc, rs[Q_GRIDKIND, r], r, P_GRID)
        return
    sc[PHASE] = PH_RACE
    _new_turn(sc, rs, sc[A_N])
    _continue(sc, rs, sq, sp)


def _lay_board(sq: Any, rough_all: Any, layout: int) -> None:
    """The roughness of board layout ``layout`` into the road's lanes (a loop: a slice
    assignment would need numba's reference counting)."""
    for p in range(sq.shape[0]):
        for lane in range(4):
            sq[p, S_ROUGH + lane] = rough_all[layout, p, lane]


def _resolve(sc: Any, rs: Any, sq: Any, rough_all: Any, sp: Any, value: int) -> None:
    r = sc[PRIDER]
    purpose = sc[PPURP]
    sc[PKIND] = -1
    if purpose <= P_EVADE:
        _race_throw(sc, rs, sq, r, purpose, value)
        _continue(sc, rs, sq, sp)
    elif purpose == P_BOARD:
        sc[BOARD] = value
        _lay_board(sq, rough_all, value)
        sc[PHASE] = PH_WEATHER
        _pend(sc, K_D6, EMPTY, P_WEATHER)
    elif purpose == P_WEATHER:
        sc[RAIN] = 1 if value <= 2 else 0
        if sc[PHASE] == PH_WEATHER:
            sc[PHASE] = PH_GRID
            sc[GQ] = 0
            _next_grid(sc, rs, sq, sp)
        else:
            _continue(sc, rs, sq, sp)
    elif purpose == P_GRID:
        row = min(value, sc[A_DIST] - 1)
        while row >= 0 and sq[row, S_COUNT] >= sq[row, T_WIDTH]:
            row -= 1
        if row < 0:  # every row behind is full: the first free row ahead
            row = value + 1
            while sq[row, S_COUNT] >= sq[row, T_WIDTH]:
                row += 1
        _put(rs, sq, r, row, _choose_lane(sq, row))
        _next_grid(sc, rs, sq, sp)
    else:  # P_SPRINT
        _sprint_step(sc, rs, value)
        _continue(sc, rs, sq, sp)


def _begin(sc: Any, rs: Any, sq: Any, rough_all: Any, sp: Any) -> None:
    """A fresh race (rules.fresh_race and begin): the board throw or the weather."""
    for slot in (PHASE, RAIN, HALF, TURN, IDX, NORDER, CVAL, CATT, EOT, NRES, CQH, CQN, GQ,
                 SP_N, SP_NEXT, SP_COUNT, SP_MARK, SP_GAP, BOARD, R4, WIN_POS):
        sc[slot] = 0
    sc[WIN_TURN] = -1
    sc[BOARD_IN] = -1
    rs[:RS_ROWS, :] = 0  # the peloton's rows below stay
    rs[LANE, :] = EMPTY
    sq[:, :6] = EMPTY  # the road's columns stay
    sq[:, S_COUNT] = 0
    sp[:, : PLACES_PER_SPRINT + 1] = 0  # the sprint lines stay
    if sc[A_RANDOM] != 0:
        sc[PHASE] = PH_BOARD
        _pend(sc, K_BOARD, EMPTY, P_BOARD)
    else:
        _lay_board(sq, rough_all, 0)
        sc[PHASE] = PH_WEATHER
        _pend(sc, K_D6, EMPTY, P_WEATHER)


def _record(sc: Any, rs: Any, counts: Any, log: Any, race: int) -> None:
    n = sc[A_N]
    for place in range(min(sc[NRES], TOP_PLACES)):
        r = rs[RES_R, place]
        if place == 0:
            counts[0, r] += 1
        if place < PODIUM:
            counts[1, r] += 1
        counts[2, r] += 1
    if race < log.shape[0]:
        row = log[race]
        row[0] = sc[NRES]
        row[1] = sc[TURN]
        row[2] = sc[BOARD]
        row[3] = sc[RAIN]
        row[4] = sc[HALF]
        row[5] = sc[PHASE]
        for j in range(3):
            for r in range(n):
                row[6 + j * n + r] = rs[RES_R + j, r]
        for r in range(n):
            row[6 + 3 * n + r] = rs[POS, r]
            row[6 + 4 * n + r] = rs[LANE, r]


def _run(sc: Any, rs: Any, sq: Any, rough_all: Any, sp: Any, d6: Any, d10: Any, counts: Any,
         log: Any, limit: int, races: int) -> Any:
    """Ride races until ``races`` are done (DONE) or the generator is needed (NEED_*)."""
    while True:
        if sc[ACTIVE] == 0:
            if sc[RACES] >= races:
                return DONE
            _begin(sc, rs, sq, rough_all, sp)
            sc[ACTIVE] = 1
        if sc[PKIND] < 0 or sc[NRES] >= limit:
            _record(sc, rs, counts, log, sc[RACES])
            if sc[RACES] < log.shape[0]:  # sprint places of the logged race
                at = 6 + 5 * sc[A_N]
                for s in range(sp.shape[0]):
                    for j in range(PLACES_PER_SPRINT + 1):
                        log[sc[RACES], at] = sp[s, j]
                        at += 1
            sc[RACES] += 1
            sc[ACTIVE] = 0
            continue
        value = _throw(sc, d6, d10, sc[PKIND])
        if value < 0:
            return value
        _resolve(sc, rs, sq, rough_all, sp, value)


_KERNEL: list[Callable[..., int]] = []
_KERNEL_LOCK = threading.Lock()
def _kernel() -> Callable[..., int]:
    """The compiled :func:`_run` (numba imported and the functions compiled on first use;
    numba's cache keeps the machine code between processes)."""
    if _KERNEL:
        return _KERNEL[0]
    with _KERNEL_LOCK:  # two threads (two web jobs) must not wrap the functions twice
        if not _KERNEL:
            _compile_kernel()
    return _KERNEL[0]


def _compile_kernel() -> None:
    from raceday.core.kernels import kernel

    glob = globals()
    names = ("_lay_board", "_take", "_best_two", "_throw", "_pend", "_choose_lane", "_put", "_lift",
             "_order_key", "_line_key", "_sort_by", "_new_turn", "_move", "_start_move",
             "_event", "_race_throw", "_group", "_start_sprint", "_finish",
             "_placed", "_crossers", "_score_sprints", "_gap", "_finish_riders", "_sprint_step",
             "_sprint_finish", "_end_of_turn", "_continue", "_next_grid", "_resolve",
             "_begin", "_record", "_run")
    # Without numba's reference counting: nothing here allocates, and counting the arrays
    # handed from function to function took about half of a race's time. (They were once
    # inlined in numba's own IR instead, which tripled the compile time for a few per cent.)
    for name in names:
        glob[name] = kernel(refcounts=False)(glob[name])
    _KERNEL.append(glob["_run"])


def warm_up() -> None:
    """Compile the kernel (or load it from numba's cache) and ride one short race, so
    that worker processes started next find the machine code in the cache."""
    from raceday.games.wielersim.game import GAME

    template = GAME.new_state({"route": "flat-stage", "peloton": "small"})
    CompiledRaces(template, np.random.default_rng(0)).run(1, 1)


# --- driving the kernel from Python ----------------------------------------------------------
class CompiledRaces:
    """Races of one route and peloton on the compiled engine, reading dice from ``rng``
    exactly as a :class:`~raceday.games.wielersim.dice.DiceBuffer` on ``rng`` would.

    ``keep`` races (the first ones) are logged in full for checking: :meth:`race`."""

    def __init__(self, template: Any, rng: np.random.Generator, keep: int = 0) -> None:
        self.tables = tables_of(template)
        self.rng = rng
        n = self.tables.n
        size = int(self.tables.par[A_SIZE - SC_SIZE])
        sprints = len(self.tables.lines)
        self.sc = np.zeros(SC_SIZE + 7, dtype=np.int64)
        self.sc[SC_SIZE:] = self.tables.par
        self.rs = np.zeros((RS_ROWS + 7, n), dtype=np.int64)
        self.rs[RS_ROWS:] = self.tables.pel
        self.sq = np.zeros((size, T_WIDTH + 1), dtype=np.int64)
        self.sq[:, T_ROAD:] = self.tables.road
        self.sp = np.zeros((sprints, SP_LINE + 1), dtype=np.int64)
        self.sp[:, SP_LINE] = self.tables.lines
        self.d6 = np.zeros(0, dtype=np.int64)
        self.d10 = np.zeros(0, dtype=np.int64)
        self.counts = np.zeros((3, n), dtype=np.int64)
        self.log = np.zeros((keep, 6 + 5 * n + sprints * (PLACES_PER_SPRINT + 1)),
                            dtype=np.int64)

    def run(self, races: int, places: int | None = None) -> np.ndarray:
        """Ride ``races`` more races (each stopped once ``places`` riders have finished, as
        :func:`~raceday.games.wielersim.rules.run_race_fast` does); return the running
        win/podium/top-10 counts, a (3, riders) array."""
        kernel = _kernel()
        t = self.tables
        limit = t.n if places is None else places
        target = int(self.sc[RACES]) + races
        rng = self.rng
        while True:
            status = kernel(self.sc, self.rs, self.sq, t.rough, self.sp, self.d6, self.d10,
                            self.counts, self.log, limit, target)
            if status == DONE:
                return self.counts
            if status == NEED_D6:
                self.d6 = rng.integers(1, 7, size=dice.DiceBuffer.BLOCK)
                self.sc[I6] = 0
            elif status == NEED_D10:
                self.d10 = rng.integers(1, 11, size=dice.DiceBuffer.BLOCK)
                self.sc[I10] = 0
            else:
                self.sc[BOARD_IN] = int(rng.integers(dice.BOARD_LAYOUTS))

    def race(self, k: int) -> dict[str, Any]:
        """What the ``k``-th logged race ended with: places as (rider, gap, turn), the
        last turn, board, rain, whether the half-way weather came, whether the race is
        over, the squares and lanes of every rider, and the intermediate sprints' places."""
        n = self.tables.n
        row = self.log[k]
        done = int(row[0])
        res = row[6: 6 + 3 * n].reshape(3, n)
        places = self.log[k, 6 + 5 * n:].reshape(-1, PLACES_PER_SPRINT + 1)
        return {
            "results": [(int(res[0, i]), int(res[1, i]), int(res[2, i])) for i in range(done)],
            "turn": int(row[1]), "board": int(row[2]), "rain": bool(row[3]),
            "half_done": bool(row[4]), "over": int(row[5]) == PH_OVER,
            "pos": [int(v) for v in row[6 + 3 * n: 6 + 4 * n]],
            "lane": [int(v) for v in row[6 + 4 * n: 6 + 5 * n]],
            "sprint_places": [[int(v) for v in p[: p[PLACES_PER_SPRINT]]] for p in places],
        }

    @property
    def faces_used(self) -> tuple[int, int]:
        """How far into the current blocks of D6 and D10 faces the races have read."""
        return int(self.sc[I6]), int(self.sc[I10])


def count_races_compiled(route: Mapping[str, Any], peloton: Mapping[str, Any], n: int,
                         seed: np.random.SeedSequence, places: int = TOP_PLACES
                         ) -> np.ndarray:
    """:func:`raceday.games.wielersim.predict.count_races` on the compiled engine: the
    same counts for the same seed."""
    from raceday.games.wielersim.game import GAME

    template = GAME.new_state({"route": route, "peloton": peloton})
    engine = CompiledRaces(template, np.random.default_rng(seed))
    return engine.run(n, places).copy()
