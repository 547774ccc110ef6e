"""A compact array engine for Hairpin Racers, compiled with numba, for playouts and perft.

It implements the same rules as :mod:`raceday.games.hairpin.rules` (the reference) on a
flat ``int32`` array, and generates the moves in the same order with the same action
numbers, so the two engines can be compared move for move (tests/games/hairpin).

Array layout (``STATE_SIZE`` ints): cells[0:18] (signed counts, red > 0), side, laps red,
laps black, bumps red, bumps black, pit red, pit black, clock, ply.
Rules are an int array: target, bumping, derby, v1, quiet_limit.

Random numbers come from a small xorshift64* generator whose 64-bit state is passed in
explicitly (seeded from the caller's ``numpy.random.Generator``), so results are
reproducible and nothing random lives at module level.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from raceday.core.fastrng import next_random as _next_random
from raceday.core.fastrng import random_below, seed_from
from raceday.core.kernels import kernel
from raceday.games.hairpin.rules import (
    BLACK_TRACK,
    CHARGE,
    CHARGE_BUMP,
    CHARGE_PASS,
    CRUISE,
    ENTER,
    KINDS,
    PIT_ORIGIN,
    RED_TRACK,
    SKIP,
    SKIP_ORIGIN,
    TRACK_INDEX,
    Position,
    Rules,
)

SIDE = 18
LAPS = 19
BUMPS = 21
PIT = 23
CLOCK = 25
PLY = 26
STATE_SIZE = 27
MAX_MOVES = 64

_TRACKS = np.array([RED_TRACK, BLACK_TRACK], dtype=np.int64)
_INDEX = np.array(TRACK_INDEX, dtype=np.int64)
# The tracks written out three times over, so a track index up to 53 (a racer past its
# finish line, at most 17 + 10 + 6 = 33) is looked up without a modulo: integer division
# was most of the move generator's time.
_TRACKS3 = np.concatenate([_TRACKS, _TRACKS, _TRACKS], axis=1)
_COLUMN = np.array([sq % 6 for sq in range(18)], dtype=np.int64)

_MASK64 = (1 << 64) - 1

def encode(pos: Position) -> np.ndarray:
    """The array form of a reference :class:`Position`."""
    st = np.zeros(STATE_SIZE, dtype=np.int32)
    st[:18] = pos.cells
    st[SIDE] = pos.side
    st[LAPS:LAPS + 2] = pos.laps
    st[BUMPS:BUMPS + 2] = pos.bumps
    st[PIT:PIT + 2] = pos.pit
    st[CLOCK] = pos.clock
    st[PLY] = pos.ply
    return st


def decode(st: np.ndarray) -> Position:
    """The reference :class:`Position` of an array state."""
    return Position(
        cells=tuple(int(c) for c in st[:18]),
        side=int(st[SIDE]),
        laps=(int(st[LAPS]), int(st[LAPS + 1])),
        bumps=(int(st[BUMPS]), int(st[BUMPS + 1])),
        pit=(int(st[PIT]), int(st[PIT + 1])),
        clock=int(st[CLOCK]),
        ply=int(st[PLY]),
    )


def encode_rules(rules: Rules) -> np.ndarray:
    """The int array form of a variant's rules."""
    return np.array(
        [rules.target, int(rules.bumping), int(rules.derby), int(rules.v1), rules.quiet_limit],
        dtype=np.int64,
    )



@kernel
def winner(st: np.ndarray, rules: np.ndarray) -> int:
    """0 or 1 for a decided game, -1 if running, 2 for a derby draw."""
    target = rules[0]
    if rules[2] == 0:
        for p in range(2):
            if st[LAPS + p] >= target:
                return p
    if rules[1] != 0:
        for p in range(2):
            if st[BUMPS + p] >= target:
                return p if rules[2] != 0 else 1 - p
    if rules[2] != 0 and st[CLOCK] >= rules[4]:
        return 2
    return -1


@kernel
def _next_free(st: np.ndarray, player: int, index: int) -> int:
    s = 1 - 2 * player
    while st[_TRACKS3[player, index]] * s < 0:
        index += 1
    return index


@kernel
def _column(st: np.ndarray, square: int) -> Any:
    c = _COLUMN[square]
    return abs(st[c]) + abs(st[c + 6]) + abs(st[c + 12])


@kernel
def _add_cruise(st: np.ndarray, player: int, sq: int, acts: np.ndarray, dests: np.ndarray,
                laps: np.ndarray, n: int) -> int:
    """Append the cruise from ``sq`` to the next empty or friendly space; return the count."""
    idx = _next_free(st, player, _INDEX[player, sq] + 1)
    acts[n] = sq * KINDS + CRUISE
    dests[n] = _TRACKS3[player, idx]
    laps[n] = 1 if idx >= 18 else 0
    return n + 1


@kernel
def _add_charges(st: np.ndarray, rules: np.ndarray, player: int, sq: int,
                 acts: np.ndarray, dests: np.ndarray, laps: np.ndarray, n: int) -> int:
    s = 1 - 2 * player
    target = _INDEX[player, sq] + _column(st, sq)
    dest = _TRACKS3[player, target]
    occ = st[dest] * s
    if occ >= 0:
        acts[n] = sq * KINDS + CHARGE
        dests[n] = dest
        laps[n] = 1 if target >= 18 else 0
        n += 1
    elif occ == -1:
        if rules[1] != 0:
            acts[n] = sq * KINDS + CHARGE_BUMP
            dests[n] = dest
            laps[n] = 1 if target >= 18 else 0
            n += 1
        beyond = _next_free(st, player, target + 1)
        acts[n] = sq * KINDS + CHARGE_PASS
        dests[n] = _TRACKS3[player, beyond]
        laps[n] = 1 if beyond >= 18 else 0
        n += 1
    return n


@kernel
def _has_charge(st: np.ndarray, player: int) -> bool:
    s = 1 - 2 * player
    for sq in range(18):
        if st[sq] * s > 0:
            target = _INDEX[player, sq] + _column(st, sq)
            if st[_TRACKS3[player, target]] * s >= -1:
                return True
    return False


@kernel
def gen_moves(st: np.ndarray, rules: np.ndarray, acts: np.ndarray, dests: np.ndarray,
              laps: np.ndarray) -> int:
    """Fill the legal moves (action, destination, lap flag) in action order; return count."""
    if winner(st, rules) >= 0:
        return 0
    player = st[SIDE]
    s = 1 - 2 * player
    if st[PIT + player] > 0:
        idx = _next_free(st, player, 0)
        acts[0] = PIT_ORIGIN * KINDS + ENTER
        dests[0] = _TRACKS3[player, idx]
        laps[0] = 0
        return 1
    n = 0
    if rules[3] != 0:  # v1: charges only; cruise only if neither side can charge
        for sq in range(18):
            if st[sq] * s > 0:
                n = _add_charges(st, rules, player, sq, acts, dests, laps, n)
        if n > 0:
            return n
        if _has_charge(st, 1 - player):
            acts[0] = SKIP_ORIGIN * KINDS + SKIP
            dests[0] = -1
            laps[0] = 0
            return 1
        for sq in range(18):
            if st[sq] * s > 0:
                n = _add_cruise(st, player, sq, acts, dests, laps, n)
        return n
    for sq in range(18):
        if st[sq] * s > 0:
            n = _add_cruise(st, player, sq, acts, dests, laps, n)
            n = _add_charges(st, rules, player, sq, acts, dests, laps, n)
    return n


@kernel
def apply(st: np.ndarray, action: int, dest: int, lap: int) -> None:
    """Apply a legal move in place (``dest`` and ``lap`` as given by :func:`gen_moves`)."""
    player = st[SIDE]
    s = 1 - 2 * player
    origin = action // KINDS
    kind = action % KINDS
    bumped = False
    if kind == ENTER:
        st[PIT + player] -= 1
        st[dest] += s
    elif kind != SKIP:
        st[origin] -= s
        if kind == CHARGE_BUMP:
            st[dest] = 0
            st[PIT + 1 - player] += 1
            st[BUMPS + player] += 1
            bumped = True
        st[dest] += s
        if lap != 0:
            st[LAPS + player] += 1
    st[SIDE] = 1 - player
    st[CLOCK] = 0 if bumped else st[CLOCK] + 1
    st[PLY] += 1


# --- the frame core: incremental state, few array arguments ------------------------
# numba reference-counts every array passed to a compiled function with atomic
# instructions; in the first version of this engine those took more than half of a
# playout's time. The core therefore keeps a whole position in one row of an int64
# "frame" array (row k of a search stack), and its functions take that array and a row
# number. A row holds the signed cells, each column's racer count, each player's five
# racers as squares (-1 in the pit), the counters, and the variant's rules:
F_CELLS = 0      # 18 signed cells
F_COLS = 18      # 6 column counts (both colours)
F_RACERS = 24    # 10: Red's five racers' squares, then Black's (-1: in the pit)
F_SIDE = 34
F_LAPS = 35      # 2
F_BUMPS = 37     # 2
F_PIT = 39       # 2
F_CLOCK = 41
F_PLY = 42
F_RULES = 43     # 5: target, bumping, derby, v1, quiet limit (as encode_rules)
FRAME_SIZE = 48
# A move is one int: origin | kind << 5 | dest << 8 | lap << 13.
_COL_OF = np.array([sq % 6 for sq in range(18)], dtype=np.int64)
# Lookup tables, per player: _START_COL[p, sq] is the track index of square sq for p plus
# the frame position of its column's racer count shifted left by 8; _TRACK_LAP[p, t] is
# the square at track index t (0 to 53) for p plus, shifted left by 5, whether t is past
# the finish line (a lap): ``_TRACK_LAP[p, t] << 8`` is the destination and lap fields of
# a packed move. One load each instead of two or three.
_START_COL = np.zeros((2, 32), dtype=np.int64)
_TRACK_LAP = np.zeros((2, 64), dtype=np.int64)
for _p in range(2):
    for _sq in range(18):
        _START_COL[_p, _sq] = int(_INDEX[_p, _sq]) | ((F_COLS + int(_COL_OF[_sq])) << 8)
    for _t in range(_TRACKS3.shape[1]):
        _TRACK_LAP[_p, _t] = int(_TRACKS3[_p, _t]) | ((1 if _t >= 18 else 0) << 5)


@kernel(refcounts=False)
def pack_move(origin: int, kind: int, dest: int, lap: int) -> int:
    """A move packed into one int (see :func:`move_action`)."""
    return origin | (kind << 5) | (dest << 8) | (lap << 13)


@kernel
def move_action(move: int) -> int:
    """The action number (origin * KINDS + kind) of a packed move."""
    return (move & 31) * KINDS + ((move >> 5) & 7)


def new_frames(rows: int) -> np.ndarray:
    """An empty frame array of ``rows`` rows."""
    return np.zeros((rows, FRAME_SIZE), dtype=np.int64)


@kernel
def frame_load(st: np.ndarray, rules: np.ndarray, f: np.ndarray, k: int) -> None:
    """Write the array state ``st`` (and ``rules``) into row ``k`` of ``f``."""
    for c in range(6):
        f[k, F_COLS + c] = 0
    nr0 = 0
    nr1 = 0
    for sq in range(18):
        c = int(st[sq])
        f[k, F_CELLS + sq] = c
        f[k, F_COLS + _COL_OF[sq]] += abs(c)
        for _ in range(abs(c)):
            if c > 0 and nr0 < 5:
                f[k, F_RACERS + nr0] = sq
                nr0 += 1
            elif c < 0 and nr1 < 5:
                f[k, F_RACERS + 5 + nr1] = sq
                nr1 += 1
    for j in range(nr0, 5):
        f[k, F_RACERS + j] = -1
    for j in range(nr1, 5):
        f[k, F_RACERS + 5 + j] = -1
    f[k, F_SIDE] = st[SIDE]
    for j in range(6):
        f[k, F_LAPS + j] = st[LAPS + j]
    f[k, F_CLOCK] = st[CLOCK]
    f[k, F_PLY] = st[PLY]
    for j in range(5):
        f[k, F_RULES + j] = rules[j]


@kernel
def frame_store(f: np.ndarray, k: int, st: np.ndarray) -> None:
    """Write row ``k`` of ``f`` back into the array state ``st``."""
    for sq in range(18):
        st[sq] = f[k, F_CELLS + sq]
    st[SIDE] = f[k, F_SIDE]
    for j in range(6):
        st[LAPS + j] = f[k, F_LAPS + j]
    st[CLOCK] = f[k, F_CLOCK]
    st[PLY] = f[k, F_PLY]


@kernel(refcounts=False)
def frame_winner(f: np.ndarray, k: int) -> int:
    """:func:`winner` of row ``k``."""
    r = f[k]
    target = r[F_RULES]
    derby = r[F_RULES + 2] != 0
    if not derby:
        if r[F_LAPS] >= target:
            return 0
        if r[F_LAPS + 1] >= target:
            return 1
    if r[F_RULES + 1] != 0:
        if r[F_BUMPS] >= target:
            return 0 if derby else 1
        if r[F_BUMPS + 1] >= target:
            return 1 if derby else 0
    if derby and r[F_CLOCK] >= r[F_RULES + 4]:
        return 2
    return -1


@kernel(refcounts=False)
def _move_past(f: np.ndarray, k: int, player: int, s: int, sq: int, kind: int,
               idx: int) -> int:
    """The packed move of ``kind`` from ``sq`` to the first square of ``player``'s track
    from index ``idx`` on that the other side does not hold (a cruise, or a charge that
    passes a blocker); its lap flag is set past the line (index 18)."""
    while f[k, _TRACKS3[player, idx]] * s < 0:
        idx += 1
    return pack_move(sq, kind, _TRACKS3[player, idx], 1 if idx >= 18 else 0)


@kernel(refcounts=False)
def _frame_moves_v1(f: np.ndarray, k: int, moves: np.ndarray, row: int) -> int:
    """:func:`frame_moves` with no racer in the pit, for any rules (the v1 rules'
    charges-first order and skip included)."""
    player = f[k, F_SIDE]
    s = 1 - 2 * player
    bumping = f[k, F_RULES + 1] != 0
    v1 = f[k, F_RULES + 3] != 0
    base = F_RACERS + 5 * player
    n = 0
    for phase in range(3):
        # plain rules: phase 0 only (cruise and charges per racer); v1: charges (0),
        # then the skip test (1), then cruises (2)
        if phase == 1:
            if not v1 or n > 0:
                break
            obase = F_RACERS + 5 * (1 - player)
            for j in range(5):
                sq = f[k, obase + j]
                if sq >= 0:
                    target = _INDEX[1 - player, sq] + f[k, F_COLS + _COL_OF[sq]]
                    if f[k, _TRACKS3[1 - player, target]] * s <= 1:
                        moves[row, 0] = pack_move(SKIP_ORIGIN, SKIP, 0, 0)
                        return 1
            continue
        for j in range(5):
            sq = f[k, base + j]
            if sq < 0:
                continue
            repeat = False
            for i in range(j):
                if f[k, base + i] == sq:
                    repeat = True
            if repeat:
                continue
            start = _INDEX[player, sq]
            if (phase == 0 and not v1) or phase == 2:
                moves[row, n] = _move_past(f, k, player, s, sq, CRUISE, start + 1)
                n += 1
            if phase == 0:
                target = start + f[k, F_COLS + _COL_OF[sq]]
                dest = _TRACKS3[player, target]
                occ = f[k, dest] * s
                lap = 1 if target >= 18 else 0
                if occ >= 0:
                    moves[row, n] = pack_move(sq, CHARGE, dest, lap)
                    n += 1
                elif occ == -1:
                    if bumping:
                        moves[row, n] = pack_move(sq, CHARGE_BUMP, dest, lap)
                        n += 1
                    moves[row, n] = _move_past(f, k, player, s, sq, CHARGE_PASS, target + 1)
                    n += 1
        if not v1:
            break
    return n


@kernel(refcounts=False)
def frame_moves(f: np.ndarray, k: int, moves: np.ndarray, row: int) -> int:
    """Write the legal moves of row ``k`` (a running game), packed, into ``moves[row]``;
    return their count. The same set as :func:`gen_moves`, in racer order."""
    r = f[k]
    out = moves[row]
    player = r[F_SIDE] & 1
    s = 1 - 2 * player
    track = _TRACKS3[player]
    if r[F_PIT + player] > 0:
        idx = 0
        while r[track[idx] & 31] * s < 0:
            idx += 1
        out[0] = pack_move(PIT_ORIGIN, ENTER, track[idx & 63], 0)
        return 1
    if r[F_RULES + 3] != 0:
        return _frame_moves_v1(f, k, moves, row)
    # the plain rules: per racer (once per square), its cruise, then its charges. (The
    # masks (& 31, & 63) on values known to be in range let the compiler drop numba's
    # negative-index checks.)
    start_col = _START_COL[player]
    track_lap = _TRACK_LAP[player]
    bumping = r[F_RULES + 1] != 0
    base = F_RACERS + 5 * player
    n = 0
    seen = 0
    for j in range(base, base + 5):
        sq = r[j]
        if sq < 0:
            continue
        sq &= 31
        bit = 1 << sq
        if seen & bit:
            continue
        seen |= bit
        x = start_col[sq]
        start = x & 63
        idx = start + 1
        y = track_lap[idx]
        while r[y & 31] * s < 0:
            idx += 1
            y = track_lap[idx & 63]
        out[n & 63] = sq | (CRUISE << 5) | (y << 8)
        n += 1
        target = (start + r[(x >> 8) & 31]) & 63
        y = track_lap[target]
        occ = r[y & 31] * s
        if occ >= 0:
            out[n & 63] = sq | (CHARGE << 5) | (y << 8)
            n += 1
        elif occ == -1:
            if bumping:
                out[n & 63] = sq | (CHARGE_BUMP << 5) | (y << 8)
                n += 1
            idx = target + 1
            y = track_lap[idx & 63]
            while r[y & 31] * s < 0:
                idx += 1
                y = track_lap[idx & 63]
            out[n & 63] = sq | (CHARGE_PASS << 5) | (y << 8)
            n += 1
    return n


@kernel(refcounts=False)
def _copy_row(src: np.ndarray, dst: np.ndarray) -> None:
    """dst[:] = src for two different rows of FRAME_SIZE (48): eight values read before
    any is written, so the compiler may move them as one vector (it may not interleave
    the reads and writes of two rows of one array, not knowing that they never overlap)."""
    for b in range(0, FRAME_SIZE, 8):
        a0 = src[b]
        a1 = src[b + 1]
        a2 = src[b + 2]
        a3 = src[b + 3]
        a4 = src[b + 4]
        a5 = src[b + 5]
        a6 = src[b + 6]
        a7 = src[b + 7]
        dst[b] = a0
        dst[b + 1] = a1
        dst[b + 2] = a2
        dst[b + 3] = a3
        dst[b + 4] = a4
        dst[b + 5] = a5
        dst[b + 6] = a6
        dst[b + 7] = a7


@kernel(refcounts=False)
def frame_apply(f: np.ndarray, k: int, to: int, move: int) -> bool:
    """Row ``to`` := row ``k`` after the packed ``move`` (``to`` may equal ``k``); return
    whether a lap or a bump was made (only those end a game outside the derby)."""
    if to != k:
        _copy_row(f[k], f[to])
    r = f[to]
    player = r[F_SIDE] & 1
    s = 1 - 2 * player
    origin = move & 31
    kind = (move >> 5) & 7
    dest = (move >> 8) & 31
    lap = (move >> 13) & 1
    mine = F_RACERS + 5 * player
    bumped = False
    if kind == ENTER:
        r[F_PIT + player] -= 1
        origin = -1
    if kind != SKIP:
        if origin >= 0:
            r[origin & 31] -= s
            r[(F_COLS + _COL_OF[origin]) & 31] -= 1
        # the first of the mover's racers on ``origin`` moves (without a branch per
        # racer: which one it is cannot be predicted)
        done = 0
        for j in range(mine, mine + 5):
            hit = (r[j] == origin) & (done == 0)
            r[j] = dest if hit else r[j]
            done |= hit
        if kind == CHARGE_BUMP:
            r[dest] = 0
            r[(F_COLS + _COL_OF[dest]) & 31] -= 1
            r[F_PIT + 1 - player] += 1
            r[F_BUMPS + player] += 1
            theirs = F_RACERS + 5 * (1 - player)
            done = 0
            for j in range(theirs, theirs + 5):
                hit = (r[j] == dest) & (done == 0)
                r[j] = -1 if hit else r[j]
                done |= hit
            bumped = True
        r[dest] += s
        r[(F_COLS + _COL_OF[dest]) & 31] += 1
        if lap != 0:
            r[F_LAPS + player] += 1
    r[F_SIDE] = 1 - player
    r[F_CLOCK] = 0 if bumped else r[F_CLOCK] + 1
    r[F_PLY] += 1
    return bumped or lap != 0


@kernel(refcounts=False)
def _frame_playout(f: np.ndarray, moves: np.ndarray, rs: np.ndarray, max_plies: int) -> int:
    derby = f[0, F_RULES + 2] != 0
    w = frame_winner(f, 0)
    for _ in range(max_plies):
        if w >= 0:
            return w
        n = frame_moves(f, 0, moves, 0)
        # Lemire's multiply-shift: uniform enough for n <= 64 (bias below 2**-26)
        i = ((_next_random(rs) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32)
        if frame_apply(f, 0, 0, moves[0, i]) or derby:
            w = frame_winner(f, 0)
    return w


def frame_moves_list(pos: Position, rules: Rules) -> list[tuple[int, int, int]]:
    """(action, destination, lap) of every legal move by the frame core, sorted."""
    f = new_frames(1)
    frame_load(encode(pos), encode_rules(rules), f, 0)
    if frame_winner(f, 0) >= 0:
        return []
    moves = np.empty((1, MAX_MOVES), dtype=np.int64)
    n = frame_moves(f, 0, moves, 0)
    # a skip has no destination: the reference says -1, the packed form 0
    return sorted((int(move_action(m)), -1 if (m >> 5) & 7 == SKIP else int((m >> 8) & 31),
                   int((m >> 13) & 1)) for m in moves[0, :n])


def frame_apply_position(pos: Position, rules: Rules, action: int) -> Position:
    """The position after ``action`` by the frame core."""
    f = new_frames(2)
    frame_load(encode(pos), encode_rules(rules), f, 0)
    moves = np.empty((1, MAX_MOVES), dtype=np.int64)
    n = frame_moves(f, 0, moves, 0)
    for m in moves[0, :n]:
        if move_action(m) == action:
            frame_apply(f, 0, 1, m)
            st = np.zeros(STATE_SIZE, dtype=np.int32)
            frame_store(f, 1, st)
            return decode(st)
    raise ValueError(f"action {action} is not legal in the frame core")


@kernel
def playout(st: np.ndarray, rules: np.ndarray, rs: np.ndarray, max_plies: int) -> int:
    """Play uniformly random moves on ``st`` (in place) to the end; return :func:`winner`
    (or -1 if ``max_plies`` ran out). Runs on the frame core (:func:`frame_moves`)."""
    f = np.empty((1, FRAME_SIZE), dtype=np.int64)
    moves = np.empty((1, MAX_MOVES), dtype=np.int64)
    frame_load(st, rules, f, 0)
    w = _frame_playout(f, moves, rs, max_plies)
    frame_store(f, 0, st)
    return w


@kernel
def many_playouts(st0: np.ndarray, rules: np.ndarray, seed: int, games: int,
                  max_plies: int) -> np.ndarray:
    """Run ``games`` random playouts from ``st0``; return [red wins, black wins, draws,
    unfinished, total plies]."""
    rs = np.empty(1, dtype=np.uint64)
    rs[0] = np.uint64(seed)
    out = np.zeros(5, dtype=np.int64)
    # the start position's row, copied into the working row for each game (the same as
    # playout() on a fresh copy of st0, without two allocations a game)
    f = np.empty((2, FRAME_SIZE), dtype=np.int64)
    moves = np.empty((1, MAX_MOVES), dtype=np.int64)
    frame_load(st0, rules, f, 1)
    for _ in range(games):
        for j in range(FRAME_SIZE):
            f[0, j] = f[1, j]
        w = _frame_playout(f, moves, rs, max_plies)
        if w == 0:
            out[0] += 1
        elif w == 1:
            out[1] += 1
        elif w == 2:
            out[2] += 1
        else:
            out[3] += 1
        out[4] += f[0, F_PLY] - f[1, F_PLY]
    return out


@kernel
def _perft(st: np.ndarray, rules: np.ndarray, depth: int) -> int:
    if depth == 0:
        return 1
    acts = np.empty(MAX_MOVES, dtype=np.int64)
    dests = np.empty(MAX_MOVES, dtype=np.int64)
    laps = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(st, rules, acts, dests, laps)
    if depth == 1:
        return n
    total = 0
    child = np.empty_like(st)
    for i in range(n):
        child[:] = st
        apply(child, acts[i], dests[i], laps[i])
        total += _perft(child, rules, depth - 1)
    return total


def perft(pos: Position, rules: Rules, depth: int) -> int:
    """Leaf count of the game tree to ``depth`` plies (compiled twin of the reference perft)."""
    return int(_perft(encode(pos), encode_rules(rules), depth))


def legal_moves_fast(pos: Position, rules: Rules) -> list[tuple[int, int, int]]:
    """(action, destination, lap) of every legal move, from the compiled generator."""
    acts = np.empty(MAX_MOVES, dtype=np.int64)
    dests = np.empty(MAX_MOVES, dtype=np.int64)
    laps = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(encode(pos), encode_rules(rules), acts, dests, laps)
    return [(int(acts[i]), int(dests[i]), int(laps[i])) for i in range(n)]


def apply_fast(pos: Position, rules: Rules, action: int) -> Position:
    """The position after ``action`` according to the compiled engine."""
    for act, dest, lap in legal_moves_fast(pos, rules):
        if act == action:
            st = encode(pos)
            apply(st, act, dest, lap)
            return decode(st)
    raise ValueError(f"action {action} is not legal in the compiled engine")


def random_playouts(pos: Position, rules: Rules, rng: np.random.Generator, games: int,
                    max_plies: int = 100_000) -> np.ndarray:
    """Counts [red wins, black wins, draws, unfinished, total plies] of random playouts."""
    return np.asarray(
        many_playouts(encode(pos), encode_rules(rules), seed_from(rng), games, max_plies)
    )


# --- evaluation and alpha-beta search (compiled twin of agents.evaluate / AlphaBetaAgent) ---
WIN = 100_000.0
TT_BITS = 16
_TT_MASK = (1 << TT_BITS) - 1


@kernel
def _progress(st: np.ndarray, player: int | np.int64) -> Any:
    s = 1 - 2 * player
    total = 18 * st[LAPS + player] - st[PIT + player]
    for sq in range(18):
        c = st[sq] * s
        if c > 0:
            total += c * _INDEX[player, sq]
    return total


@kernel
def _worst_threat(st: np.ndarray, rules: np.ndarray, attacker: int | np.int64) -> Any:
    """The largest victim track index among lone racers ``attacker`` could bump; -1 if none."""
    if rules[1] == 0:
        return -1
    if rules[2] == 0 and st[BUMPS + attacker] >= rules[0] - 1:
        return -1
    s = 1 - 2 * attacker
    worst = -1
    for sq in range(18):
        if st[sq] * s > 0:
            dest = _TRACKS3[attacker, _INDEX[attacker, sq] + _column(st, sq)]
            if st[dest] * s == -1:
                v = _INDEX[1 - attacker, dest]
                if v > worst:
                    worst = v
    return worst


@kernel
def evaluate_fast(st: np.ndarray, rules: np.ndarray, player: int | np.int64) -> float:
    """The same heuristic as :func:`raceday.games.hairpin.agents.evaluate`."""
    w = winner(st, rules)
    if w >= 0:
        if w == 2:
            return 0.0
        return WIN if w == player else -WIN
    opp = 1 - player
    score = float(_progress(st, player) - _progress(st, opp))
    if rules[2] != 0:
        score = 0.1 * score + 40.0 * (st[BUMPS + player] - st[BUMPS + opp])
    mine = _worst_threat(st, rules, opp)
    theirs = _worst_threat(st, rules, player)
    mine_weight = 0.8 if st[SIDE] == opp else 0.25
    theirs_weight = 0.8 if st[SIDE] == player else 0.25
    loss_mine = float(mine + 1)
    loss_theirs = float(theirs + 1)
    if rules[2] != 0:
        loss_mine = 40.0 if mine >= 0 else 0.0
        loss_theirs = 40.0 if theirs >= 0 else 0.0
    score += theirs_weight * loss_theirs - mine_weight * loss_mine
    if rules[1] != 0 and rules[2] == 0:
        if st[BUMPS + player] >= rules[0] - 1:
            score -= 3.0
        if st[BUMPS + opp] >= rules[0] - 1:
            score += 3.0
    return score


def make_zobrist(seed: int = 20040) -> np.ndarray:
    """Fixed random keys for hashing positions in the transposition table."""
    gen = np.random.default_rng(seed)
    return gen.integers(1, 2**63 - 1, size=(18 * 11 + 2 + 6 * 16 + 1024), dtype=np.int64)


@kernel
def _hash(st: np.ndarray, rules: np.ndarray, zob: np.ndarray) -> Any:
    h = np.int64(0)
    for sq in range(18):
        h ^= zob[sq * 11 + st[sq] + 5]
    base = 18 * 11
    h ^= zob[base + st[SIDE]]
    base += 2
    for k in range(6):
        h ^= zob[base + k * 16 + min(st[LAPS + k], 15)]
    base += 96
    if rules[2] != 0:
        h ^= zob[base + min(st[CLOCK], 1023)]
    # laps beyond 15 (only in a long derby) change the hash too
    h ^= np.int64(st[LAPS] * 1000003 + st[LAPS + 1] * 999983)
    return h


@kernel
def _order(move_acts: np.ndarray, laps: np.ndarray, n: int, hint: int,
           keys: np.ndarray) -> None:
    for i in range(n):
        kind = move_acts[i] % KINDS
        if move_acts[i] == hint:
            keys[i] = -1
        elif kind == CHARGE_BUMP:
            keys[i] = 0
        elif laps[i] != 0:
            keys[i] = 1
        elif kind in (CHARGE, CHARGE_PASS):
            keys[i] = 2
        else:
            keys[i] = 3


MAX_SEARCH_DEPTH = 64


@kernel(refcounts=False)
def bound_flag(best: float, first_alpha: float, beta: float) -> int:
    """What a fail-soft value found with the window (``first_alpha``, ``beta``) is, as a
    transposition-table flag: 0 exact, 1 a lower bound (it failed high), 2 an upper bound
    (it failed low)."""
    if best <= first_alpha:
        return 2
    if best >= beta:
        return 1
    return 0


@kernel(refcounts=False)
def tt_store(tt_key: np.ndarray, tt_val: np.ndarray, tt_info: np.ndarray, slot: int, h: int,
             value: float, depth: int, flag: int, act: int) -> None:
    """Write one transposition-table entry: the position's hash, its value, the depth it
    was searched to, its bound flag (:func:`bound_flag`) and the best move found."""
    tt_key[slot] = h
    tt_val[slot] = value
    tt_info[slot, 0] = depth
    tt_info[slot, 1] = flag
    tt_info[slot, 2] = act


@kernel(refcounts=False)
def open_child_window(alpha: np.ndarray, beta: np.ndarray, k: int) -> None:
    """Give the child on stack row ``k + 1`` its parent's window (``alpha[k]``,
    ``beta[k]``) as negamax sees it from the other side: negated, ends swapped."""
    alpha[k + 1] = -beta[k]
    beta[k + 1] = -alpha[k]


@kernel(refcounts=False)
def settles(flag: int, value: float, alpha: float, beta: float) -> bool:
    """Whether a table entry's ``value`` with ``flag`` (see :func:`bound_flag`) is the
    node's value in the window (``alpha``, ``beta``), so that it need not be searched."""
    return flag == 0 or (flag == 1 and value >= beta) or (flag == 2 and value <= alpha)


@kernel
def negamax(st0: np.ndarray, rules: np.ndarray, depth0: int, alpha0: float, beta0: float,
            ply0: int, zob: np.ndarray, tt_key: np.ndarray, tt_val: np.ndarray,
            tt_info: np.ndarray, counter: np.ndarray) -> Any:
    """Fail-soft negamax alpha-beta with a transposition table, written with an explicit
    stack (no recursion, so numba can cache it). ``counter`` is [nodes, node limit,
    stopped]; when the limit is passed ``counter[2]`` is set and the value is meaningless."""
    size = MAX_SEARCH_DEPTH + 2
    states = np.empty((size, STATE_SIZE), dtype=st0.dtype)
    acts = np.empty((size, MAX_MOVES), dtype=np.int64)
    dests = np.empty((size, MAX_MOVES), dtype=np.int64)
    laps = np.empty((size, MAX_MOVES), dtype=np.int64)
    keys = np.empty(MAX_MOVES, dtype=np.int64)
    order = np.empty((size, MAX_MOVES), dtype=np.int64)
    count = np.zeros(size, dtype=np.int64)
    nxt = np.zeros(size, dtype=np.int64)
    alpha = np.empty(size, dtype=np.float64)
    beta = np.empty(size, dtype=np.float64)
    first_alpha = np.empty(size, dtype=np.float64)
    best = np.empty(size, dtype=np.float64)
    best_act = np.empty(size, dtype=np.int64)
    depth = np.empty(size, dtype=np.int64)
    hashes = np.empty(size, dtype=np.int64)
    states[0, :] = st0
    alpha[0] = alpha0
    beta[0] = beta0
    depth[0] = depth0
    k = 0
    entering = True
    ret = 0.0
    while True:
        expand = False
        if entering:
            counter[0] += 1
            if counter[0] > counter[1]:
                counter[2] = 1
                return 0.0
            st = states[k]
            w = winner(st, rules)
            leaf = True
            if w >= 0:
                if w == 2:
                    ret = 0.0
                elif w == st[SIDE]:
                    ret = WIN - (ply0 + k)
                else:
                    ret = -(WIN - (ply0 + k))
            elif depth[k] <= 0:
                ret = evaluate_fast(st, rules, np.int64(st[SIDE]))
            else:
                h = _hash(st, rules, zob)
                slot = h & _TT_MASK
                hint = -1
                leaf = False
                if tt_key[slot] == h:
                    hint = tt_info[slot, 2]
                    if tt_info[slot, 0] >= depth[k]:
                        flag = tt_info[slot, 1]
                        v = tt_val[slot]
                        if settles(flag, v, alpha[k], beta[k]):
                            ret = v
                            leaf = True
                if not leaf:
                    hashes[k] = h
                    n = gen_moves(st, rules, acts[k], dests[k], laps[k])
                    _order(acts[k], laps[k], n, hint, keys)
                    order[k, :n] = np.argsort(keys[:n], kind="mergesort")
                    count[k] = n
                    nxt[k] = 0
                    best[k] = -np.inf
                    best_act[k] = -1
                    first_alpha[k] = alpha[k]
                    expand = True
            if leaf:
                if k == 0:
                    return ret
                k -= 1
                entering = False
                continue
        else:
            v = -ret
            if v > best[k]:
                best[k] = v
                best_act[k] = acts[k, order[k, nxt[k] - 1]]
            if v > alpha[k]:
                alpha[k] = v
            expand = alpha[k] < beta[k]
        if expand and nxt[k] < count[k]:
            i = order[k, nxt[k]]
            nxt[k] += 1
            states[k + 1, :] = states[k]
            apply(states[k + 1], acts[k, i], dests[k, i], laps[k, i])
            open_child_window(alpha, beta, k)
            depth[k + 1] = depth[k] - 1
            k += 1
            entering = True
            continue
        # frame k is done: store it and return its value to the parent
        h = hashes[k]
        slot = h & _TT_MASK
        if tt_key[slot] != h or tt_info[slot, 0] <= depth[k]:  # deeper results stay
            tt_store(tt_key, tt_val, tt_info, slot, h, best[k], depth[k],
                     bound_flag(best[k], first_alpha[k], beta[k]), best_act[k])
        if k == 0:
            return best[k]
        ret = best[k]
        k -= 1
        entering = False


@kernel
def search_root(
    st: np.ndarray,
    rules: np.ndarray,
    depth: int,
    node_limit: int,
    zob: np.ndarray,
    tt_key: np.ndarray,
    tt_val: np.ndarray,
    tt_info: np.ndarray,
    counter: np.ndarray,
    root_acts: np.ndarray,
    root_vals: np.ndarray,
) -> int:
    """One iteration of the root search at ``depth``: fill each root move's value
    (exact for moves tying the best, an upper bound for worse ones); return the move
    count, or -1 if the node limit stopped the iteration."""
    counter[1] = node_limit
    acts = np.empty(MAX_MOVES, dtype=np.int64)
    dests = np.empty(MAX_MOVES, dtype=np.int64)
    laps = np.empty(MAX_MOVES, dtype=np.int64)
    keys = np.empty(MAX_MOVES, dtype=np.int64)
    n = gen_moves(st, rules, acts, dests, laps)
    h = _hash(st, rules, zob)
    slot = h & _TT_MASK
    hint = tt_info[slot, 2] if tt_key[slot] == h else -1
    _order(acts, laps, n, hint, keys)
    order = np.argsort(keys[:n], kind="mergesort")
    alpha = -np.inf
    child = np.empty_like(st)
    best_act = -1
    for j in range(n):
        i = order[j]
        child[:] = st
        apply(child, acts[i], dests[i], laps[i])
        upper = np.inf if alpha == -np.inf else -alpha + 1e-6
        v = -negamax(child, rules, depth - 1, -np.inf, upper, 1, zob, tt_key, tt_val,
                     tt_info, counter)
        if counter[2] != 0:
            return -1
        root_acts[j] = acts[i]
        root_vals[j] = v
        if v > alpha:
            alpha = v
            best_act = acts[i]
    tt_store(tt_key, tt_val, tt_info, slot, h, alpha, depth, 0, best_act)
    return n


@kernel
def guided_playout(st: np.ndarray, rules: np.ndarray, rs: np.ndarray, max_plies: int,
                   explore_per_mille: int) -> int:
    """A playout where each side plays the greedy move (best :func:`evaluate_fast` one ply
    ahead, first on ties), except a uniformly random move with probability
    ``explore_per_mille``/1000. Returns :func:`winner` (-1 if ``max_plies`` ran out)."""
    acts = np.empty(MAX_MOVES, dtype=np.int64)
    dests = np.empty(MAX_MOVES, dtype=np.int64)
    laps = np.empty(MAX_MOVES, dtype=np.int64)
    child = np.empty_like(st)
    for _ in range(max_plies):
        n = gen_moves(st, rules, acts, dests, laps)
        if n == 0:
            return winner(st, rules)
        if n == 1:
            pick = 0
        elif random_below(rs, 1000) < explore_per_mille:
            pick = random_below(rs, n)
        else:
            me = np.int64(st[SIDE])
            pick = 0
            best = -np.inf
            for i in range(n):
                child[:] = st
                apply(child, acts[i], dests[i], laps[i])
                v = evaluate_fast(child, rules, me)
                if v > best:
                    best = v
                    pick = i
        apply(st, acts[pick], dests[pick], laps[pick])
    return winner(st, rules)
