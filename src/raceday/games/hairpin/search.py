"""The expert's search: compiled alpha-beta on the frame core of :mod:`.fast`.

Negamax alpha-beta with a principal-variation (null-window) scheme, a transposition
table (Zobrist keys, depth-preferred replacement, the table move tried first), killer
moves and a static move order (bumps, laps, then the longest advance), run by iterative
deepening under a time budget by :class:`raceday.games.hairpin.agents.ThinkingAgent`.
The evaluation (:func:`evaluate_frame`) takes its weights as an array (:data:`WEIGHTS`,
tuned by self-play; bench/bench_hairpin.py --tune replays the comparison).

Everything here runs inside numba; a position lives in one row of a frame array
(:func:`raceday.games.hairpin.fast.frame_load`), so the hot loop passes few arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from raceday.games.hairpin.fast import (
    _COL_OF,
    _INDEX,
    _TRACKS3,
    F_BUMPS,
    F_CLOCK,
    F_COLS,
    F_LAPS,
    F_PIT,
    F_RACERS,
    F_RULES,
    F_SIDE,
    FRAME_SIZE,
    MAX_MOVES,
    frame_apply,
    frame_load,
    frame_moves,
    frame_winner,
)
from raceday.games.hairpin.rules import CHARGE_BUMP

WIN = 100_000.0
MATE = WIN / 2  # values beyond this are forced results
TT_BITS = 20
MAX_PLY = 96

# Evaluation weights (see evaluate_frame). Index: meaning, value.
W_STRIKE = 0        # the side to move's best bump, in the victim's lost progress
W_POTENTIAL = 1     # the other side's best bump (it must wait a move)
W_LAST_BUMP = 2     # penalty for being one bump from disqualification
W_REACH_MOVER = 3   # the side to move's longest single advance
W_REACH_OTHER = 4   # the other side's longest single advance
W_DERBY_RACE = 5    # the derby: weight of the race lead
W_DERBY_BUMP = 6    # the derby: a bump made
W_DERBY_THREAT = 7  # the derby: a bump available
W_TEMPO = 8         # the side to move's bonus
N_WEIGHTS = 9
OLD_WEIGHTS = np.array([0.8, 0.25, 3.0, 0.0, 0.0, 0.1, 40.0, 40.0, 0.0])
# Self-play (bench_hairpin.py --tune: 24 games per candidate at 0.03 s/move against
# OLD_WEIGHTS) found no candidate with the reach and tempo terms that beat the former
# weights (scores 9 to 11 of 24), so the expert keeps the former evaluation's weights.
WEIGHTS = OLD_WEIGHTS.copy()
TUNE_CANDIDATE = np.array([0.8, 0.25, 3.0, 0.5, 0.25, 0.1, 40.0, 40.0, 1.0])


@njit(cache=True)
def _side_features(f: np.ndarray, k: int, p: int) -> Any:
    """(progress, best bump victim index or -1, longest single advance) of player p."""
    s = 1 - 2 * p
    base = F_RACERS + 5 * p
    progress = 18 * f[k, F_LAPS + p] - f[k, F_PIT + p]
    bumping = f[k, F_RULES + 1] != 0
    derby = f[k, F_RULES + 2] != 0
    can_bump = bumping and (derby or f[k, F_BUMPS + p] < f[k, F_RULES] - 1)
    worst = -1
    reach = 0
    for j in range(5):
        sq = f[k, base + j]
        if sq < 0:
            continue
        start = _INDEX[p, sq]
        progress += start
        target = start + f[k, F_COLS + _COL_OF[sq]]
        dest = _TRACKS3[p, target]
        occ = f[k, dest] * s
        if occ >= 0:
            if target - start > reach:
                reach = target - start
        elif occ == -1:
            if can_bump:
                v = _INDEX[1 - p, dest]
                if v > worst:
                    worst = v
            idx = target + 1
            while f[k, _TRACKS3[p, idx]] * s < 0:
                idx += 1
            if idx - start > reach:
                reach = idx - start
    return progress, worst, reach


@njit(cache=True)
def evaluate_frame(f: np.ndarray, k: int, w: np.ndarray) -> float:
    """A heuristic value of row ``k`` for the side to move (positive is good): the race
    lead, the bumps each side could make next (the mover's now, the other's later), being
    one bump from disqualification, each side's longest single advance, and a tempo bonus;
    in the derby the bumps dominate. Finished games score +-WIN."""
    res = frame_winner(f, k)
    me = f[k, F_SIDE]
    if res >= 0:
        if res == 2:
            return 0.0
        return WIN if res == me else -WIN
    opp = 1 - me
    p_me, t_me, r_me = _side_features(f, k, me)
    p_op, t_op, r_op = _side_features(f, k, opp)
    score = float(p_me - p_op)
    derby = f[k, F_RULES + 2] != 0
    if derby:
        score = w[W_DERBY_RACE] * score + w[W_DERBY_BUMP] * (f[k, F_BUMPS + me]
                                                           - f[k, F_BUMPS + opp])
        if t_me >= 0:
            score += w[W_STRIKE] * w[W_DERBY_THREAT]
        if t_op >= 0:
            score -= w[W_POTENTIAL] * w[W_DERBY_THREAT]
    else:
        score += w[W_STRIKE] * (t_me + 1) - w[W_POTENTIAL] * (t_op + 1)
        if f[k, F_RULES + 1] != 0:
            last = f[k, F_RULES] - 1
            if f[k, F_BUMPS + me] >= last:
                score -= w[W_LAST_BUMP]
            if f[k, F_BUMPS + opp] >= last:
                score += w[W_LAST_BUMP]
    score += w[W_REACH_MOVER] * r_me - w[W_REACH_OTHER] * r_op + w[W_TEMPO]
    return float(score)


def make_zobrist(seed: int = 20040) -> np.ndarray:
    """Fixed random keys: per square and signed count, side, counters, clock."""
    gen = np.random.default_rng(seed)
    return gen.integers(1, 2**63 - 1, size=18 * 11 + 2 + 6 * 64 + 1024, dtype=np.int64)


@njit(cache=True)
def frame_hash(f: np.ndarray, k: int, zob: np.ndarray) -> Any:
    h = np.int64(0)
    for sq in range(18):
        h ^= zob[sq * 11 + f[k, sq] + 5]
    base = 18 * 11
    h ^= zob[base + f[k, F_SIDE]]
    base += 2
    for j in range(6):
        h ^= zob[base + j * 64 + min(f[k, F_LAPS + j], 63)]
    base += 6 * 64
    if f[k, F_RULES + 2] != 0:
        h ^= zob[base + min(f[k, F_CLOCK], 1023)]
    return h


class Table:
    """The transposition table and the search's scratch arrays, reused between moves."""

    def __init__(self, bits: int = TT_BITS) -> None:
        size = 1 << bits
        # filled, not just allocated: the pages are touched now, not one by one in search
        self.key = np.full(size, 0, dtype=np.int64)
        self.val = np.full(size, 0.0, dtype=np.float64)
        # depth, flag (0 exact, 1 lower bound, 2 upper bound), packed move
        self.info = np.full((size, 3), 0, dtype=np.int64)
        self.zobrist = make_zobrist()
        self.frames = np.zeros((MAX_PLY + 2, FRAME_SIZE), dtype=np.int64)
        self.moves = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        self.keys = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        self.killers = np.zeros((MAX_PLY + 2, 2), dtype=np.int64)
        # nodes, node limit, stopped, the deepest ply reached
        self.counter = np.zeros(4, dtype=np.int64)

    def clear(self) -> None:
        self.key[:] = 0
        self.info[:] = 0
        self.killers[:] = 0


@njit(cache=True)
def _move_key(move: int, player: int, hint: int, k1: int, k2: int) -> int:
    """Lower is tried first: the table move, bumps, laps, killers, then by advance."""
    if move == hint:
        return -1_000_000
    kind = (move >> 5) & 7
    lap = (move >> 13) & 1
    if kind == CHARGE_BUMP:
        return -50_000
    if lap != 0:
        return -40_000
    if move in (k1, k2):
        return -30_000
    origin = move & 31
    if origin >= 18:
        return 0
    return int(_INDEX[player, origin] - _INDEX[player, (move >> 8) & 31])


@njit(cache=True)
def _to_tt(v: float, ply: int) -> float:
    if v > MATE:
        return v + ply
    if v < -MATE:
        return v - ply
    return v


@njit(cache=True)
def _from_tt(v: float, ply: int) -> float:
    if v > MATE:
        return v - ply
    if v < -MATE:
        return v + ply
    return v


@njit(cache=True)
def negamax_frames(f: np.ndarray, moves: np.ndarray, keys: np.ndarray, killers: np.ndarray,
                   depth0: int, alpha0: float, beta0: float, ply0: int, w: np.ndarray,
                   zob: np.ndarray, tt_key: np.ndarray, tt_val: np.ndarray,
                   tt_info: np.ndarray, counter: np.ndarray) -> float:
    """Fail-soft negamax alpha-beta of row ``ply0`` of ``f`` searched ``depth0`` plies,
    with an explicit stack (rows ply0, ply0+1, ...). ``counter``: nodes, node limit,
    stopped flag (then the value is meaningless), deepest ply reached."""
    size = MAX_PLY + 2
    alpha = np.empty(size)
    beta = np.empty(size)
    first_alpha = np.empty(size)
    best = np.empty(size)
    best_move = np.zeros(size, dtype=np.int64)
    depth = np.zeros(size, dtype=np.int64)
    count = np.zeros(size, dtype=np.int64)
    nxt = np.zeros(size, dtype=np.int64)
    hashes = np.zeros(size, dtype=np.int64)
    nullwin = np.zeros(size, dtype=np.int64)  # 1: the child was searched with a null window
    k = ply0
    alpha[k] = alpha0
    beta[k] = beta0
    depth[k] = depth0
    mask = tt_key.shape[0] - 1
    entering = True
    ret = 0.0
    while True:
        expand = False
        if entering:
            counter[0] += 1
            if counter[0] > counter[1]:
                counter[2] = 1
                return 0.0
            if k > counter[3]:
                counter[3] = k
            res = frame_winner(f, k)
            leaf = True
            if res >= 0:
                if res == 2:
                    ret = 0.0
                elif res == f[k, F_SIDE]:
                    ret = WIN - k
                else:
                    ret = -(WIN - k)
            elif depth[k] <= 0 or k >= MAX_PLY:
                ret = evaluate_frame(f, k, w)
            else:
                # the table is kept for nodes two or more plies from the horizon: probing it
                # at the many depth-1 nodes cost more (cache misses) than it saved
                h = frame_hash(f, k, zob) if depth[k] >= 2 else 0
                slot = h & mask
                hint = -1
                leaf = False
                if h != 0 and tt_key[slot] == h:
                    hint = tt_info[slot, 2]
                    if tt_info[slot, 0] >= depth[k]:
                        flag = tt_info[slot, 1]
                        v = _from_tt(tt_val[slot], k)
                        if (flag == 0 or (flag == 1 and v >= beta[k])
                                or (flag == 2 and v <= alpha[k])):
                            ret = v
                            leaf = True
                if not leaf:
                    hashes[k] = h
                    n = frame_moves(f, k, moves, k)
                    k1 = killers[k, 0]
                    k2 = killers[k, 1]
                    me = f[k, F_SIDE]
                    for i in range(n):
                        keys[k, i] = _move_key(moves[k, i], me, hint, k1, k2)
                    count[k] = n
                    nxt[k] = 0
                    best[k] = -np.inf
                    best_move[k] = moves[k, 0]
                    first_alpha[k] = alpha[k]
                    expand = True
            if leaf:
                if k == ply0:
                    return ret
                k -= 1
                entering = False
                continue
        else:
            v = -ret
            if nullwin[k] == 1 and v > alpha[k] and v < beta[k]:
                # the null window failed high: search this child again with the full window
                nullwin[k] = 2
                alpha[k + 1] = -beta[k]
                beta[k + 1] = -alpha[k]
                k += 1
                entering = True
                continue
            if v > best[k]:
                best[k] = v
                best_move[k] = moves[k, nxt[k] - 1]
            if v > alpha[k]:
                alpha[k] = v
            expand = alpha[k] < beta[k]
            if not expand:
                m = moves[k, nxt[k] - 1]
                if ((m >> 5) & 7) != CHARGE_BUMP and killers[k, 0] != m:
                    killers[k, 1] = killers[k, 0]
                    killers[k, 0] = m
        if expand and nxt[k] < count[k]:
            # pick the best-keyed remaining move (selection: cutoffs come early)
            j = nxt[k]
            pick = j
            for i in range(j + 1, count[k]):
                if keys[k, i] < keys[k, pick]:
                    pick = i
            if pick != j:
                mv = moves[k, pick]
                moves[k, pick] = moves[k, j]
                moves[k, j] = mv
                kv = keys[k, pick]
                keys[k, pick] = keys[k, j]
                keys[k, j] = kv
            nxt[k] = j + 1
            frame_apply(f, k, k + 1, moves[k, j])
            depth[k + 1] = depth[k] - 1
            if j > 0 and beta[k] - alpha[k] > 1e-3:
                nullwin[k] = 1
                alpha[k + 1] = -alpha[k] - 1e-3
                beta[k + 1] = -alpha[k]
            else:
                nullwin[k] = 0
                alpha[k + 1] = -beta[k]
                beta[k + 1] = -alpha[k]
            k += 1
            entering = True
            continue
        # frame k is done: store it and return its value to the parent
        h = hashes[k]
        slot = h & mask
        if h == 0:
            ret = best[k]
            if k == ply0:
                return float(ret)
            k -= 1
            entering = False
            continue
        flag = 0
        if best[k] <= first_alpha[k]:
            flag = 2
        elif best[k] >= beta[k]:
            flag = 1
        if tt_key[slot] != h or tt_info[slot, 0] <= depth[k]:
            tt_key[slot] = h
            tt_val[slot] = _to_tt(best[k], k)
            tt_info[slot, 0] = depth[k]
            tt_info[slot, 1] = flag
            tt_info[slot, 2] = best_move[k]
        ret = best[k]
        if k == ply0:
            return float(ret)
        k -= 1
        entering = False


@njit(cache=True)
def search_root_frames(st: np.ndarray, rules: np.ndarray, depth: int, exact_all: bool,
                       order_hint: np.ndarray, w: np.ndarray, zob: np.ndarray,
                       tt_key: np.ndarray, tt_val: np.ndarray, tt_info: np.ndarray,
                       f: np.ndarray, moves: np.ndarray, keys: np.ndarray,
                       killers: np.ndarray, counter: np.ndarray, root_moves: np.ndarray,
                       root_vals: np.ndarray) -> int:
    """One iteration at ``depth``: each root move's value in ``root_vals`` (searched in
    the order of ``order_hint``, packed moves best first from the last iteration, then
    the rest). With ``exact_all`` every value is exact; otherwise only the best one is,
    the others being upper bounds. Returns the move count, or -1 if the node limit
    (``counter[1]``) stopped the iteration."""
    frame_load(st, rules, f, 0)
    n = frame_moves(f, 0, moves, 0)
    for i in range(n):
        key = 1_000
        for j in range(order_hint.shape[0]):
            if order_hint[j] == moves[0, i]:
                key = j
                break
        keys[0, i] = key
    # sort the root moves by key (insertion sort: stable)
    for i in range(1, n):
        mv = moves[0, i]
        kv = keys[0, i]
        j = i - 1
        while j >= 0 and keys[0, j] > kv:
            moves[0, j + 1] = moves[0, j]
            keys[0, j + 1] = keys[0, j]
            j -= 1
        moves[0, j + 1] = mv
        keys[0, j + 1] = kv
    alpha = -np.inf
    for i in range(n):
        root_moves[i] = moves[0, i]
    for i in range(n):
        frame_apply(f, 0, 1, root_moves[i])
        if exact_all or i == 0:
            v = -negamax_frames(f, moves, keys, killers, depth - 1, -np.inf, np.inf, 1, w,
                                zob, tt_key, tt_val, tt_info, counter)
        else:
            v = -negamax_frames(f, moves, keys, killers, depth - 1, -alpha - 1e-3, -alpha,
                                1, w, zob, tt_key, tt_val, tt_info, counter)
            if v > alpha and counter[2] == 0:
                frame_apply(f, 0, 1, root_moves[i])
                v = -negamax_frames(f, moves, keys, killers, depth - 1, -np.inf, -alpha,
                                    1, w, zob, tt_key, tt_val, tt_info, counter)
        if counter[2] != 0:
            return -1
        root_vals[i] = v
        if v > alpha:
            alpha = v
    return n


@njit(cache=True)
def principal_variation(st: np.ndarray, rules: np.ndarray, first: int, zob: np.ndarray,
                        tt_key: np.ndarray, tt_info: np.ndarray, f: np.ndarray,
                        moves: np.ndarray, out: np.ndarray) -> int:
    """The line after the packed move ``first`` following the table's moves (each
    checked legal); fill ``out`` with packed moves (``first`` included), return length."""
    frame_load(st, rules, f, 0)
    frame_apply(f, 0, 0, first)
    out[0] = first
    length = 1
    mask = tt_key.shape[0] - 1
    while length < out.shape[0] and frame_winner(f, 0) < 0:
        h = frame_hash(f, 0, zob)
        slot = h & mask
        if tt_key[slot] != h:
            break
        mv = tt_info[slot, 2]
        n = frame_moves(f, 0, moves, 0)
        legal = False
        for i in range(n):
            if moves[0, i] == mv:
                legal = True
        if not legal:
            break
        frame_apply(f, 0, 0, mv)
        out[length] = mv
        length += 1
    return length
