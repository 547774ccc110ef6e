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
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from raceday.core.kernels import kernel
from raceday.games.hairpin.fast import (
    _COL_OF,
    _INDEX,
    _START_COL,
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
    bound_flag,
    frame_apply,
    frame_load,
    frame_moves,
    frame_winner,
    open_child_window,
    settles,
)
from raceday.games.hairpin.rules import CHARGE_BUMP, ENTER, SKIP

WIN = 100_000.0
MATE = WIN / 2  # values beyond this are forced results
TT_BITS = 20
TT_WIDTH = 4  # key, value, depth, flag | move << 2
T_KEY = 0
T_VAL = 1
T_DEPTH = 2
T_MOVE = 3
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


# Lookup table for the evaluation, per player: _DEST_VICTIM[p, t] is the square at track
# index t (0 to 53) for p, plus that square's track index for the other player (the
# progress a racer bumped there loses) shifted left by 8 (with fast._START_COL: one load
# each instead of two or three).
_DEST_VICTIM = np.zeros((2, 64), dtype=np.int64)
for _p in range(2):
    for _t in range(_TRACKS3.shape[1]):
        _d = int(_TRACKS3[_p, _t])
        _DEST_VICTIM[_p, _t] = _d | (int(_INDEX[1 - _p, _d]) << 8)


@kernel(refcounts=False)
def _progress_and_strike(r: np.ndarray, p: int) -> Any:
    """(progress, the track index of the best lone opponent player p could bump, -1 if
    none) in the frame row ``r``, whether or not p may bump. (The masks keep indices in
    range for the compiler; they change no value.)"""
    s = 1 - 2 * p
    start_col = _START_COL[p]
    dest_victim = _DEST_VICTIM[p]
    base = F_RACERS + 5 * p
    progress = 18 * r[F_LAPS + p] - r[F_PIT + p]
    worst = -1
    for j in range(base, base + 5):
        sq = r[j]
        if sq >= 0:
            x = start_col[sq & 31]
            start = x & 63
            progress += start
            y = dest_victim[(start + r[(x >> 8) & 31]) & 63]
            v = (y >> 8) if r[y & 31] == -s else -1
            worst = max(worst, v)
    return progress, worst


@kernel(refcounts=False)
def _side_features(r: np.ndarray, p: int) -> Any:
    """(progress, best bump victim index or -1, longest single advance) of player p in
    the frame row ``r`` (the evaluation's terms, each advance computed)."""
    s = 1 - 2 * p
    index = _INDEX[p]
    track = _TRACKS3[p]
    victim = _INDEX[1 - p]
    base = F_RACERS + 5 * p
    progress = 18 * r[F_LAPS + p] - r[F_PIT + p]
    can_bump = r[F_RULES + 1] != 0 and (r[F_RULES + 2] != 0
                                        or r[F_BUMPS + p] < r[F_RULES] - 1)
    worst = -1
    reach = 0
    for j in range(base, base + 5):
        sq = r[j]
        if sq < 0:
            continue
        start = index[sq]
        progress += start
        target = start + r[F_COLS + _COL_OF[sq]]
        dest = track[target]
        occ = r[dest] * s
        if occ >= 0:
            if target - start > reach:
                reach = target - start
        elif occ == -1:
            if can_bump:
                v = victim[dest]
                if v > worst:
                    worst = v
            idx = target + 1
            while r[track[idx]] * s < 0:
                idx += 1
            if idx - start > reach:
                reach = idx - start
    return progress, worst, reach


@kernel(refcounts=False)
def _evaluate_running(f: np.ndarray, k: int, w: np.ndarray, with_reach: bool) -> float:
    """:func:`evaluate_frame` of a row whose game is not over."""
    r = f[k]
    me = r[F_SIDE] & 1
    opp = 1 - me
    if with_reach:
        p_me, t_me, r_me = _side_features(r, me)
        p_op, t_op, r_op = _side_features(r, opp)
    else:
        # the same terms without the advances (whose weights are 0)
        r_me = 0
        r_op = 0
        p_me, t_me = _progress_and_strike(r, me)
        p_op, t_op = _progress_and_strike(r, opp)
        if r[F_RULES + 1] == 0:
            t_me = -1
            t_op = -1
        elif r[F_RULES + 2] == 0:
            # one bump from disqualification: no bump to make
            if r[F_BUMPS + me] >= r[F_RULES] - 1:
                t_me = -1
            if r[F_BUMPS + opp] >= r[F_RULES] - 1:
                t_op = -1
    score = float(p_me - p_op)
    if r[F_RULES + 2] != 0:
        score = w[W_DERBY_RACE] * score + w[W_DERBY_BUMP] * (r[F_BUMPS + me]
                                                           - r[F_BUMPS + opp])
        if t_me >= 0:
            score += w[W_STRIKE] * w[W_DERBY_THREAT]
        if t_op >= 0:
            score -= w[W_POTENTIAL] * w[W_DERBY_THREAT]
    else:
        score += w[W_STRIKE] * (t_me + 1) - w[W_POTENTIAL] * (t_op + 1)
        if r[F_RULES + 1] != 0:
            last = r[F_RULES] - 1
            if r[F_BUMPS + me] >= last:
                score -= w[W_LAST_BUMP]
            if r[F_BUMPS + opp] >= last:
                score += w[W_LAST_BUMP]
    score += w[W_REACH_MOVER] * r_me - w[W_REACH_OTHER] * r_op + w[W_TEMPO]
    return float(score)


@kernel(refcounts=False)
def _evaluate(f: np.ndarray, k: int, w: np.ndarray, with_reach: bool) -> float:
    res = frame_winner(f, k)
    if res >= 0:
        if res == 2:
            return 0.0
        return WIN if res == f[k, F_SIDE] else -WIN
    return _evaluate_running(f, k, w, with_reach)


@kernel(refcounts=False)
def _horizon_value(f: np.ndarray, c: int, w: np.ndarray, with_reach: bool) -> float:
    """A horizon node's value for its side to move: a finished race counts as won or lost
    sooner the nearer it is (``WIN - c``), a running one by the evaluation."""
    res = frame_winner(f, c)
    if res < 0:
        return _evaluate_running(f, c, w, with_reach)
    if res == 2:
        return 0.0
    return WIN - c if res == f[c, F_SIDE] else -(WIN - c)


@kernel
def evaluate_frame(f: np.ndarray, k: int, w: np.ndarray) -> float:
    """A heuristic value of row ``k`` for the side to move (positive is good): the race
    lead, the bumps each side could make next (the mover's now, the other's later), being
    one bump from disqualification, each side's longest single advance, and a tempo bonus;
    in the derby the bumps dominate. Finished games score +-WIN."""
    return _evaluate(f, k, w, True)


# where each part of a position has its keys in the Zobrist array
Z_SIDE = 18 * 11            # after a key per square and signed count (-5..5)
Z_COUNTERS = Z_SIDE + 2     # laps, bumps and pits of both players: 64 keys each
Z_CLOCK = Z_COUNTERS + 6 * 64


def make_zobrist(seed: int = 20040) -> np.ndarray:
    """Fixed random keys: per square and signed count, side, counters, clock."""
    gen = np.random.default_rng(seed)
    return gen.integers(1, 2**63 - 1, size=Z_CLOCK + 1024, dtype=np.int64)


@kernel(refcounts=False)
def frame_hash(f: np.ndarray, k: int, zob: np.ndarray) -> Any:
    """The Zobrist key of row ``k``."""
    h = np.int64(0)
    for sq in range(18):
        h ^= zob[sq * 11 + f[k, sq] + 5]
    h ^= zob[Z_SIDE + f[k, F_SIDE]]
    for j in range(6):
        h ^= zob[Z_COUNTERS + j * 64 + min(f[k, F_LAPS + j], 63)]
    if f[k, F_RULES + 2] != 0:
        h ^= zob[Z_CLOCK + min(f[k, F_CLOCK], 1023)]
    return h


@kernel(refcounts=False)
def _counter_step(zob: np.ndarray, j: int, v: int, by: int) -> Any:
    """The key change of counter ``j`` (laps, bumps, pits: F_LAPS + j) going v -> v + by."""
    return (zob[Z_COUNTERS + j * 64 + min(v, 63)]
            ^ zob[Z_COUNTERS + j * 64 + min(v + by, 63)])


@kernel(refcounts=False)
def child_hash(f: np.ndarray, k: int, h: int, move: int, zob: np.ndarray) -> Any:
    """The Zobrist key of row ``k`` after the packed ``move`` (as
    :func:`raceday.games.hairpin.fast.frame_apply` plays it), from ``h``, the key of row
    ``k``, without playing the move: the same value as :func:`frame_hash` of the child."""
    p = f[k, F_SIDE]
    s = 1 - 2 * p
    kind = (move >> 5) & 7
    h ^= zob[Z_SIDE + p] ^ zob[Z_SIDE + 1 - p]
    bumped = False
    if kind != SKIP:
        origin = move & 31
        dest = (move >> 8) & 31
        if kind == ENTER:
            h ^= _counter_step(zob, 4 + p, f[k, F_PIT + p], -1)
        else:
            c = f[k, origin]
            h ^= zob[origin * 11 + c + 5] ^ zob[origin * 11 + c - s + 5]
        c = f[k, dest]
        if kind != ENTER and dest == origin:
            c -= s
        if kind == CHARGE_BUMP:
            h ^= zob[dest * 11 + c + 5] ^ zob[dest * 11 + s + 5]
            h ^= _counter_step(zob, 5 - p, f[k, F_PIT + 1 - p], 1)
            h ^= _counter_step(zob, 2 + p, f[k, F_BUMPS + p], 1)
            bumped = True
        else:
            h ^= zob[dest * 11 + c + 5] ^ zob[dest * 11 + c + s + 5]
        if (move >> 13) & 1:
            h ^= _counter_step(zob, p, f[k, F_LAPS + p], 1)
    if f[k, F_RULES + 2] != 0:
        clock = f[k, F_CLOCK]
        after = 0 if bumped else clock + 1
        h ^= zob[Z_CLOCK + min(clock, 1023)] ^ zob[Z_CLOCK + min(after, 1023)]
    return h


def _prefetch_row_typing(typingctx: Any, arr: Any, row: Any) -> Any:
    """Ask the CPU to start loading ``arr[row, 0]`` into its cache (llvm.prefetch): a
    table entry wanted a little later is then not waited for. Compiled code only."""
    if not (isinstance(arr, types.Array) and arr.ndim == 2
            and isinstance(row, types.Integer)):
        return None
    sig = types.void(arr, row)
    cg: Any = cgutils

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        zero = context.get_constant(types.intp, 0)
        ptr = cg.get_item_pointer2(context, builder, data=ary.data,
                                   shape=cg.unpack_tuple(builder, ary.shape),
                                   strides=cg.unpack_tuple(builder, ary.strides),
                                   layout=aryty.layout, inds=[index, zero], wraparound=False)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cg.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # a read, kept in all cache levels, of data
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


_prefetch_row: Any = intrinsic(_prefetch_row_typing)


def _aligned_zeros(n: int) -> np.ndarray:
    """``n`` int64 zeros starting on a 64-byte boundary (numpy's large arrays start 16
    bytes past one, which put every other 32-byte table entry across two cache lines)."""
    buf = np.full(n + 8, 0, dtype=np.int64)
    skip = (-buf.ctypes.data % 64) // 8
    return buf[skip:skip + n]


class Table:
    """The transposition table and the search's scratch arrays, reused between moves.

    A table entry is one row of four int64 (32 bytes, so a probe reads one cache line):
    the key, the value (a float64, read through :attr:`val`, a float view of the same
    memory), the depth, and the bound flag (0 exact, 1 lower, 2 upper) plus the packed
    move shifted left by 2. :attr:`key`, :attr:`val` and :attr:`info` are views of that
    one array, passed separately to the compiled functions."""

    def __init__(self, bits: int = TT_BITS) -> None:
        size = 1 << bits
        # filled, not just allocated: the pages are touched now, not one by one in search
        self.entries = _aligned_zeros(size * TT_WIDTH).reshape(size, TT_WIDTH)
        self.key = self.entries
        self.val = self.entries.view(np.float64)
        self.info = self.entries
        self.zobrist = make_zobrist()
        self.frames = np.zeros((MAX_PLY + 2, FRAME_SIZE), dtype=np.int64)
        self.moves = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        self.keys = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        self.killers = np.zeros((MAX_PLY + 2, 2), dtype=np.int64)
        # nodes, node limit, stopped, the deepest ply reached
        self.counter = np.zeros(4, dtype=np.int64)

    def clear(self) -> None:
        self.entries[:] = 0
        self.killers[:] = 0


@kernel(refcounts=False)
def _move_key(move: int, player: int, hint: int, k1: int, k2: int) -> int:
    """Lower is tried first: the table move, bumps, laps, killers, then by advance."""
    origin = move & 31
    on_track = origin < 18
    index = _INDEX[player]
    key = index[origin if on_track else 0] - index[(move >> 8) & 31]
    key = key if on_track else 0
    key = -30_000 if move in (k1, k2) else key
    key = -40_000 if (move >> 13) & 1 else key
    key = -50_000 if ((move >> 5) & 7) == CHARGE_BUMP else key
    return -1_000_000 if move == hint else key


@kernel(refcounts=False)
def _to_tt(v: float, ply: int) -> float:
    if v > MATE:
        return v + ply
    if v < -MATE:
        return v - ply
    return v


@kernel(refcounts=False)
def _from_tt(v: float, ply: int) -> float:
    if v > MATE:
        return v - ply
    if v < -MATE:
        return v + ply
    return v


@kernel(refcounts=False)
def _stopped(counter: np.ndarray, nodes: int, seldepth: int) -> float:
    """Write back the counters kept in registers, with the stopped flag: the node limit
    was passed, and the value returned is meaningless."""
    counter[0] = nodes
    counter[2] = 1
    counter[3] = seldepth
    return 0.0


@kernel(refcounts=False)
def _finished(counter: np.ndarray, nodes: int, seldepth: int, value: float) -> float:
    """Write back the counters kept in registers and return the search's value."""
    counter[0] = nodes
    counter[3] = seldepth
    return value


@kernel(refcounts=False)
def _swap_moves(moves: np.ndarray, keys: np.ndarray, k: int, i: int, j: int) -> None:
    """Exchange moves ``i`` and ``j`` of row ``k``, with their ordering keys."""
    mv = moves[k, i]
    moves[k, i] = moves[k, j]
    moves[k, j] = mv
    kv = keys[k, i]
    keys[k, i] = keys[k, j]
    keys[k, j] = kv


@kernel(refcounts=False)
def _lowest_key_first(moves: np.ndarray, keys: np.ndarray, k: int, j: int, n: int) -> int:
    """A selection step of the move ordering: bring the move of lowest key among places
    ``j`` to ``n - 1`` of row ``k`` (the first of them on a tie) to place ``j``; return
    the place it came from."""
    pick = j
    low = keys[k, j]
    for i in range(j + 1, n):
        kv = keys[k, i]
        if kv < low:
            low = kv
            pick = i
    if pick != j:
        _swap_moves(moves, keys, k, pick, j)
    return pick


@kernel(refcounts=False)
def _result_value(f: np.ndarray, k: int) -> tuple[bool, float]:
    """Whether row ``k`` is a finished game, and its value for the side to move (a win
    sooner is worth more, a loss later less)."""
    res = frame_winner(f, k)
    if res < 0:
        return False, 0.0
    if res == 2:
        return True, 0.0
    if res == f[k, F_SIDE]:
        return True, WIN - k
    return True, -(WIN - k)


@kernel(refcounts=False)
def _probe(tt_key: np.ndarray, tt_val: np.ndarray, tt_info: np.ndarray, h: int, mask: int,
           depth: int, k: int, alpha: float, beta: float) -> tuple[int, bool, float]:
    """The table's entry for the key ``h`` at ply ``k``: its best move (-1: none), and
    whether its value settles the node searched ``depth`` plies in the window, with it."""
    slot = h & mask
    if h == 0 or tt_key[slot, T_KEY] != h:
        return -1, False, 0.0
    hint = tt_info[slot, T_MOVE] >> 2
    if tt_info[slot, T_DEPTH] >= depth:
        flag = tt_info[slot, T_MOVE] & 3
        v = _from_tt(tt_val[slot, T_VAL], k)
        if settles(flag, v, alpha, beta):
            return hint, True, v
    return hint, False, 0.0


@kernel(refcounts=False)
def _store(tt_key: np.ndarray, tt_val: np.ndarray, tt_info: np.ndarray, mask: int, k: int,
           stack_f: np.ndarray, stack_i: np.ndarray) -> None:
    """Keep row ``k``'s searched frame (see :func:`negamax_frames`) in the table: a hash
    of 0 is not stored, and a deeper result already in the slot stays."""
    h = stack_i[4, k]
    depth = stack_i[1, k]
    best = stack_f[3, k]
    first_alpha = stack_f[2, k]
    beta = stack_f[1, k]
    best_move = stack_i[0, k]
    slot = h & mask
    if h != 0 and (tt_key[slot, T_KEY] != h or tt_info[slot, T_DEPTH] <= depth):
        tt_key[slot, T_KEY] = h
        tt_val[slot, T_VAL] = _to_tt(best, k)
        tt_info[slot, T_DEPTH] = depth
        flag = bound_flag(best, first_alpha, beta)
        tt_info[slot, T_MOVE] = flag | (best_move << 2)


@kernel(refcounts=False)
def _order_first(moves: np.ndarray, keys: np.ndarray, k: int, n: int, me: int, hint: int,
                 k1: int, k2: int) -> None:
    """The ordering keys of row ``k``'s ``n`` moves, and the first move to try (the first
    with the lowest key) brought to place 0."""
    pick = 0
    low = 1 << 62
    for i in range(n):
        kv = _move_key(moves[k, i], me, hint, k1, k2)
        keys[k, i] = kv
        if kv < low:
            low = kv
            pick = i
    if pick != 0:
        _swap_moves(moves, keys, k, pick, 0)


@kernel(refcounts=False)
def _prefetch_children(f: np.ndarray, k: int, h: int, moves: np.ndarray, n: int,
                       zob: np.ndarray, child_keys: np.ndarray, tt_key: np.ndarray,
                       mask: int) -> None:
    """The Zobrist keys of row ``k``'s children (a few exclusive-ors from its own key
    ``h``, :func:`child_hash`), and their table entries on their way into the cache: the
    children probe them later and then (mostly) find them there, instead of a wait on
    main memory each."""
    for i in range(n):
        ch = child_hash(f, k, h, moves[k, i], zob)
        child_keys[k, i] = ch
        _prefetch_row(tt_key, ch & mask)


@kernel(refcounts=False)
def _remember_killer(killers: np.ndarray, k: int, m: int) -> None:
    """A quiet move that cut off at ply ``k`` becomes its first killer (bumps are tried
    early anyway)."""
    if ((m >> 5) & 7) != CHARGE_BUMP and killers[k, 0] != m:
        killers[k, 1] = killers[k, 0]
        killers[k, 0] = m


@kernel(refcounts=False)
def _next_child(moves: np.ndarray, keys: np.ndarray, child_keys: np.ndarray, k: int, j: int,
                n: int) -> None:
    """Bring the best-keyed remaining move of row ``k`` to place ``j`` (selection: cutoffs
    come early), with its child's key."""
    pick = j
    if j > 0:  # the first is in place already
        pick = _lowest_key_first(moves, keys, k, j, n)
    if pick != j:
        kv = child_keys[k, pick]
        child_keys[k, pick] = child_keys[k, j]
        child_keys[k, j] = kv


@kernel(refcounts=False)
def _horizon_children(f: np.ndarray, k: int, moves: np.ndarray, keys: np.ndarray,
                      killers: np.ndarray, n: int, w: np.ndarray, with_reach: bool,
                      a: float, b: float, nodes: int, limit: int, seldepth: int
                      ) -> tuple[float, int, float, int, int, bool]:
    """Row ``k`` whose children are all at the horizon: their values in one loop, in the
    same order, values and cutoff as one child at a time, each evaluated without a stack
    frame of its own. Returns the best value and move, alpha, the counters and whether
    the node limit stopped it."""
    bst = -np.inf
    bm = moves[k, 0]
    c = k + 1
    for j in range(n):
        if j > 0:  # the first is in place already
            _lowest_key_first(moves, keys, k, j, n)
        m = moves[k, j]
        frame_apply(f, k, c, m)
        nodes += 1
        if nodes > limit:
            return bst, bm, a, nodes, seldepth, True
        if c > seldepth:
            seldepth = c
        v = -_horizon_value(f, c, w, with_reach)
        if v > bst:
            bst = v
            bm = m
        if v > a:
            a = v
        if not a < b:
            _remember_killer(killers, k, m)
            break
    return bst, bm, a, nodes, seldepth, False


@kernel(refcounts=False)
def _open_node(f: np.ndarray, k: int, h: int, hint: int, moves: np.ndarray, keys: np.ndarray,
               killers: np.ndarray, zob: np.ndarray, child_keys: np.ndarray,
               tt_key: np.ndarray, mask: int, stack_f: np.ndarray, stack_i: np.ndarray
               ) -> int:
    """Row ``k`` about to be searched: its moves, ordered first by the table's ``hint``
    and the killers, the children's keys where they will probe the table, and its
    frame on the stack (see :func:`negamax_frames`). Returns the number of moves."""
    n = frame_moves(f, k, moves, k)
    _order_first(moves, keys, k, n, f[k, F_SIDE], hint, killers[k, 0], killers[k, 1])
    if stack_i[1, k] >= 3:  # the children will probe the table
        _prefetch_children(f, k, h, moves, n, zob, child_keys, tt_key, mask)
    stack_i[4, k] = h  # hashes
    stack_i[2, k] = n  # count
    stack_i[3, k] = 0  # nxt
    stack_f[3, k] = -np.inf  # best
    stack_i[0, k] = moves[k, 0]  # best_move
    stack_f[2, k] = stack_f[0, k]  # first_alpha = alpha
    return n


@kernel(refcounts=False)
def _take_child_value(v: float, k: int, moves: np.ndarray, killers: np.ndarray,
                      stack_f: np.ndarray, stack_i: np.ndarray) -> bool:
    """Row ``k``'s last child searched gave ``v`` (for row ``k``): keep the best and
    raise alpha; return whether the search of the row goes on (no cutoff)."""
    m = moves[k, stack_i[3, k] - 1]
    if v > stack_f[3, k]:
        stack_f[3, k] = v
        stack_i[0, k] = m
    if v > stack_f[0, k]:
        stack_f[0, k] = v
    if stack_f[0, k] < stack_f[1, k]:
        return True
    _remember_killer(killers, k, m)
    return False


@kernel(refcounts=False)
def _push_child(k: int, j: int, child_keys: np.ndarray, stack_f: np.ndarray,
                stack_i: np.ndarray) -> None:
    """Row ``k``'s child ``j`` (in row ``k + 1``) on the stack: one ply less, its key,
    and its window: a null window after the first child while the window is open."""
    alpha = stack_f[0]
    beta = stack_f[1]
    stack_i[1, k + 1] = stack_i[1, k] - 1
    stack_i[6, k + 1] = child_keys[k, j]
    if j > 0 and beta[k] - alpha[k] > 1e-3:
        stack_i[5, k] = 1
        alpha[k + 1] = -alpha[k] - 1e-3
        beta[k + 1] = -alpha[k]
    else:
        stack_i[5, k] = 0
        open_child_window(alpha, beta, k)


@kernel(refcounts=False)
def negamax_frames(f: np.ndarray, moves: np.ndarray, keys: np.ndarray, killers: np.ndarray,
                   depth0: int, alpha0: float, beta0: float, ply0: int, w: np.ndarray,
                   zob: np.ndarray, tt_key: np.ndarray, tt_val: np.ndarray,
                   tt_info: np.ndarray, counter: np.ndarray, stack_f: np.ndarray,
                   stack_i: np.ndarray, child_keys: np.ndarray) -> float:
    """Fail-soft negamax alpha-beta of row ``ply0`` of ``f`` searched ``depth0`` plies,
    with an explicit stack (rows ply0, ply0+1, ...). ``counter``: nodes, node limit,
    stopped flag (then the value is meaningless), deepest ply reached. ``tt_key``,
    ``tt_val`` and ``tt_info`` are the table's entries (see :class:`Table`); ``stack_f``
    (4 rows) and ``stack_i`` (7 rows) are scratch, one column per ply, and
    ``child_keys`` (a row per ply) holds the Zobrist keys of a node's children.

    A node two or more plies from the horizon probes the table, with the key its parent
    computed (:func:`_prefetch_children`). A child at the horizon is evaluated in its
    parent's loop (:func:`_horizon_children`) and never searched twice: its value does
    not depend on the window.

    Compiled without numba's reference counting (``_nrt=False``): it allocates nothing,
    and the atomic reference counts of the arrays handed to the inlined helpers were a
    tenth of its time."""
    alpha = stack_f[0]
    beta = stack_f[1]
    best = stack_f[3]
    best_move = stack_i[0]
    depth = stack_i[1]
    count = stack_i[2]
    nxt = stack_i[3]
    nullwin = stack_i[5]  # 1: the child was searched with a null window
    node_key = stack_i[6]  # the Zobrist key of a node two or more plies from the horizon
    with_reach = w[W_REACH_MOVER] != 0.0 or w[W_REACH_OTHER] != 0.0
    # the counters, kept in registers and written back on the way out
    nodes = counter[0]
    limit = counter[1]
    seldepth = counter[3]
    k = ply0
    alpha[k] = alpha0
    beta[k] = beta0
    depth[k] = depth0
    mask = tt_key.shape[0] - 1
    entering = True
    ret = 0.0
    while True:
        k &= 127  # 0 <= k <= MAX_PLY + 1: the mask lets the compiler drop index checks
        expand = False
        if entering:
            nodes += 1
            if nodes > limit:
                return _stopped(counter, nodes, seldepth)
            if k > seldepth:
                seldepth = k
            leaf, ret = _result_value(f, k)
            if not leaf and (depth[k] <= 0 or k >= MAX_PLY):
                ret = _evaluate_running(f, k, w, with_reach)
                leaf = True
            elif not leaf:
                # the table is kept for nodes two or more plies from the horizon: probing it
                # at the many depth-1 nodes cost more (cache misses) than it saved
                h = 0
                if depth[k] >= 2:
                    h = node_key[k] if k > ply0 else frame_hash(f, k, zob)
                hint, leaf, ret = _probe(tt_key, tt_val, tt_info, h, mask, depth[k], k,
                                         alpha[k], beta[k])
                if not leaf:
                    n = _open_node(f, k, h, hint, moves, keys, killers, zob, child_keys,
                                   tt_key, mask, stack_f, stack_i)
                    expand = not (depth[k] <= 1 or k + 1 >= MAX_PLY)
                    if not expand:
                        bst, bm, a, nodes, seldepth, stopped = _horizon_children(
                            f, k, moves, keys, killers, n, w, with_reach, alpha[k], beta[k],
                            nodes, limit, seldepth)
                        if stopped:
                            return _stopped(counter, nodes, seldepth)
                        best[k] = bst
                        best_move[k] = bm
                        alpha[k] = a
                        nxt[k] = n
            if leaf:
                if k == ply0:
                    return _finished(counter, nodes, seldepth, ret)
                k -= 1
                entering = False
                continue
        else:
            v = -ret
            if nullwin[k] == 1 and v > alpha[k] and v < beta[k]:
                # the null window failed high: search this child again with the full window
                nullwin[k] = 2
                open_child_window(alpha, beta, k)
                k += 1
                entering = True
                continue
            expand = _take_child_value(v, k, moves, killers, stack_f, stack_i)
        if expand and nxt[k] < count[k]:
            j = nxt[k]
            _next_child(moves, keys, child_keys, k, j, count[k])
            nxt[k] = j + 1
            frame_apply(f, k, k + 1, moves[k, j])
            if depth[k] <= 1 or k + 1 >= MAX_PLY:
                # the child is at the horizon: its value, here
                nodes += 1
                if nodes > limit:
                    return _stopped(counter, nodes, seldepth)
                if k + 1 > seldepth:
                    seldepth = k + 1
                ret = _horizon_value(f, k + 1, w, with_reach)
                nullwin[k] = 0
                entering = False
                continue
            _push_child(k, j, child_keys, stack_f, stack_i)
            k += 1
            entering = True
            continue
        # frame k is done: store it and return its value to the parent
        _store(tt_key, tt_val, tt_info, mask, k, stack_f, stack_i)
        ret = best[k]
        if k == ply0:
            return _finished(counter, nodes, seldepth, float(ret))
        k -= 1
        entering = False


@kernel
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
    stack_f = np.empty((4, MAX_PLY + 2))
    stack_i = np.zeros((7, MAX_PLY + 2), dtype=np.int64)
    child_keys = np.zeros((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
    for i in range(n):
        root_moves[i] = moves[0, i]
    for i in range(n):
        frame_apply(f, 0, 1, root_moves[i])
        if exact_all or i == 0:
            v = -negamax_frames(f, moves, keys, killers, depth - 1, -np.inf, np.inf, 1, w,
                                zob, tt_key, tt_val, tt_info, counter, stack_f,
                                stack_i, child_keys)
        else:
            v = -negamax_frames(f, moves, keys, killers, depth - 1, -alpha - 1e-3, -alpha,
                                1, w, zob, tt_key, tt_val, tt_info, counter, stack_f,
                                stack_i, child_keys)
            if v > alpha and counter[2] == 0:
                frame_apply(f, 0, 1, root_moves[i])
                v = -negamax_frames(f, moves, keys, killers, depth - 1, -np.inf, -alpha,
                                    1, w, zob, tt_key, tt_val, tt_info, counter, stack_f,
                                    stack_i, child_keys)
        if counter[2] != 0:
            return -1
        root_vals[i] = v
        if v > alpha:
            alpha = v
    return n


@kernel
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
        if tt_key[slot, T_KEY] != h:
            break
        mv = tt_info[slot, T_MOVE] >> 2
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
