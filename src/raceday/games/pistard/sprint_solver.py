"""The sprint solved exactly: every position's chance of winning under best play by both.

The sprint is small enough to solve. Two riders, one lap: a position is each rider's
distance and lane, his stand-stills in a row (0-2) and his player's tokens, and where in
the round play is (its start, or the second rider to move). Every step either moves a rider
forward or adds a stand-still, so ``3 x (distances) + stand-stills`` grows with every step
and the positions can be valued backwards from the line, each once.

At each throw the mover uses one of four independent dice. So the value of a throw is the
best of the four dice's best moves (and of standing still), and its expectation over the
1,296 throws needs only each die's six values:
``E[max] = sum over the sorted values of (x_j - x_{j-1}) * P(max >= x_j)``.
The moves themselves come from the compiled engine's own sweep (:func:`fast._sweep`), with
the same blocking, colour and shelter tests as :func:`fast._add_die`.

:func:`response_table` solves the sprint against a fixed greedy rule instead (the best
reply to it): how much any player could win against that rule. The tables cover the sprint
with up to :data:`MAX_TOKENS` tokens a player; the default sprint's takes about 15 s on
2 cores and 128 MB. The positions need no round count: a rider falls after three
stand-stills, so the line is reached within 3 x (lap + 6) rounds, inside the round cap.
This module imports numba: import it lazily.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from numba import prange

from raceday.core.errors import OptionsError
from raceday.core.kernels import kernel
from raceday.games.pistard import fast, search
from raceday.games.pistard.variants import SPRINT_FALL

MAX_TOKENS = 4  # above this the table grows past what a decision should wait for
BACK = 6  # riders start up to six columns behind the line
REACH = 6  # a move goes at most six columns (a token never raises a die above 6)
STAY_MARK = -1  # in the rule's option list: standing still
PHASES = 3  # 0: start of a round; 1 + i: rider i moves second in this round


@kernel
def _winner_value(d0: int, l0: int, d1: int, l1: int) -> float:
    """Rider 0's result at the end of a round in which someone crossed the line."""
    if d0 != d1:
        return 1.0 if d0 > d1 else 0.0
    return 1.0 if l0 < l1 else 0.0


@kernel
def _expected_best(w: np.ndarray, stay: float) -> Any:
    """E[max(stay, w[0, d0], w[1, d1], w[2, d2], w[3, d3])] for four independent fair dice
    (``w[c, v - 1]``: the best value with die ``c`` showing ``v``; -1: no move)."""
    vals = np.empty(24)
    cols = np.empty(24, dtype=np.int64)
    n = 0
    for c in range(4):
        for v in range(6):
            x = w[c, v]
            vals[n] = x if x > stay else stay
            cols[n] = c
            n += 1
    for a in range(1, 24):  # insertion sort, colours along
        b = a
        while b > 0 and vals[b - 1] > vals[b]:
            vals[b - 1], vals[b] = vals[b], vals[b - 1]
            cols[b - 1], cols[b] = cols[b], cols[b - 1]
            b -= 1
    counts = np.zeros(4)  # values of each die at or below the current one
    result = vals[0]
    k = 0
    while k < 24:
        x = vals[k]
        while k < 24 and vals[k] == x:
            counts[cols[k]] += 1
            k += 1
        if k < 24:
            below = (counts[0] / 6) * (counts[1] / 6) * (counts[2] / 6) * (counts[3] / 6)
            result += (vals[k] - x) * (1.0 - below)
    return result


@kernel
def _value(table: np.ndarray, phase: int, s0: int, s1: int, t0: int, t1: int,
           d0: int, l0: int, d1: int, l1: int) -> Any:
    return table[phase, s0, s1, t0, t1, (d0 + BACK) * 4 + l0 - 1, (d1 + BACK) * 4 + l1 - 1]


@kernel
def _after(table: np.ndarray, length: int, phase: int, mover: int, d: np.ndarray,
           ln: np.ndarray, s: np.ndarray, t: np.ndarray) -> Any:
    """Rider 0's value once the mover has acted (positions in ``d``, ``ln``, ``s``, ``t``):
    a fall, the next mover's turn, or the end of the round."""
    if s[mover] >= SPRINT_FALL:
        return 0.0 if mover == 0 else 1.0
    if phase == 0:  # the other rider moves second
        return _value(table, 2 - mover, s[0], s[1], t[0], t[1], d[0], ln[0], d[1], ln[1])
    if d[0] >= length or d[1] >= length:
        return _winner_value(d[0], ln[0], d[1], ln[1])
    return _value(table, 0, s[0], s[1], t[0], t[1], d[0], ln[0], d[1], ln[1])


@kernel
def _destinations(grid: np.ndarray, length: int, mover: int, d: np.ndarray, ln: np.ndarray,
                  ws: np.ndarray, dest: np.ndarray) -> int:
    """The squares the mover can reach with some die (or a die and a token), as rows
    (columns ahead, lane, pips it costs, directly behind the other rider, its colour):
    the engine's own sweep and tests (:func:`fast._add_die`). Returns the count."""
    other = 1 - mover
    masks = ws[:9]
    for k in range(9):
        masks[k] = 0
    gap = (d[other] - d[mover]) % length
    if gap <= 8:
        masks[gap] |= 1 << ln[other]
    lane0 = ln[mover]
    col = d[mover] % length
    inw = ws[fast.MAXR:fast.MAXR + 8]
    outw = ws[fast.MAXR + 8:fast.MAXR + 16]
    fast._sweep(masks, lane0, -1, lane0 - 1, REACH, inw)
    fast._sweep(masks, lane0, 1, 4 - lane0, REACH, outw)
    n = 0
    for pips in range(1, REACH + 1):
        for k in range(lane0):  # straight on or inwards: one pip a column
            if inw[pips] & (1 << k):
                n = _add_destination(grid, length, col, masks, pips, pips, lane0 - k, dest, n)
        for k in range(1, min(pips // 2, 4 - lane0) + 1):  # outwards: two pips a lane
            if outw[pips - k] & (1 << k):
                n = _add_destination(grid, length, col, masks, pips, pips - k, lane0 + k, dest,
                                     n)
    return n


@kernel
def _add_destination(grid: np.ndarray, length: int, col: int, masks: np.ndarray, pips: int,
                     ahead: int, lane: int, dest: np.ndarray, n: int) -> int:
    dest[n, 0] = ahead
    dest[n, 1] = lane
    dest[n, 2] = pips
    dest[n, 3] = (masks[ahead + 1] >> lane) & 1
    dest[n, 4] = grid[lane, (col + ahead) % length]
    return n + 1


@kernel
def _bits(x: int) -> int:
    count = 0
    while x:
        count += x & 1
        x >>= 1
    return count


@kernel
def _mover(phase: int, d: np.ndarray, ln: np.ndarray) -> int:
    """Who throws: at a round's start the rider further on (inner lane when level)."""
    if phase == 0:
        return 0 if (d[0] > d[1] or (d[0] == d[1] and ln[0] < ln[1])) else 1
    return phase - 1


@kernel
def _options(table: np.ndarray, grid: np.ndarray, length: int, phase: int, d: np.ndarray,
             ln: np.ndarray, s: np.ndarray, t: np.ndarray, ws: np.ndarray, dest: np.ndarray,
             values: np.ndarray) -> tuple[int, float]:
    """Rider 0's value after each destination (``values[k, 0]``: with the die alone,
    ``values[k, 1]``: with a token too, NaN without one) and after standing still.
    ``d, ln, s, t`` are work copies and come back unchanged."""
    mover = _mover(phase, d, ln)
    n = _destinations(grid, length, mover, d, ln, ws, dest)
    d0, l0, s0, t0 = d[mover], ln[mover], s[mover], t[mover]
    s[mover] = 0
    for k in range(n):
        d[mover] = d0 + dest[k, 0]
        ln[mover] = dest[k, 1]
        values[k, 0] = _after(table, length, phase, mover, d, ln, s, t)
        values[k, 1] = np.nan
        if t0 > 0 and dest[k, 2] >= 2:
            t[mover] = t0 - 1
            values[k, 1] = _after(table, length, phase, mover, d, ln, s, t)
            t[mover] = t0
    d[mover] = d0
    ln[mover] = l0
    s[mover] = s0 + 1  # standing still (or no move): one more stand-still
    stay = _after(table, length, phase, mover, d, ln, s, t)
    s[mover] = s0
    return n, stay


@kernel
def _node(table: np.ndarray, grid: np.ndarray, length: int, phase: int, d: np.ndarray,
          ln: np.ndarray, s: np.ndarray, t: np.ndarray, ws: np.ndarray, dest: np.ndarray,
          values: np.ndarray) -> Any:
    """Rider 0's value before the mover's throw, best play by both."""
    n, stay = _options(table, grid, length, phase, d, ln, s, t, ws, dest, values)
    sign = 1.0 if _mover(phase, d, ln) == 0 else -1.0  # the mover's value: sign * v + base
    base = 0.0 if sign > 0 else 1.0
    w = np.full((4, 6), -1.0)  # the mover's best with die c showing v: w[c, v - 1]
    for k in range(n):
        pips = dest[k, 2]
        for token in range(2):
            v = values[k, token]
            if np.isnan(v):
                continue
            u = base + sign * v
            for c in range(4):
                if (dest[k, 3] or dest[k, 4] == c) and u > w[c, pips - 1 - token]:
                    w[c, pips - 1 - token] = u
    return base + sign * _expected_best(w, base + sign * stay)


@kernel
def _scored_options(table: np.ndarray, grid: np.ndarray, length: int, phase: int,
                    d: np.ndarray, ln: np.ndarray, s: np.ndarray, t: np.ndarray,
                    ws: np.ndarray, dest: np.ndarray, values: np.ndarray, st: np.ndarray,
                    par: np.ndarray, weights: np.ndarray) -> Any:
    """The mover's moves scored by the greedy rule ``weights`` (:func:`search.score` on
    ``st``, a template filled with the position). Returns the count; per move its score,
    rider 0's value after it and (destination row, token), in arrays with a spare place at
    the end; rider 0's value after standing still and the rule's score for it."""
    n, stay = _options(table, grid, length, phase, d, ln, s, t, ws, dest, values)
    size = 2 * len(dest) + 1
    scores = np.empty(size)
    option_value = np.empty(size)
    option = np.empty((size, 2), dtype=np.int64)
    for i in range(2):
        st[fast.DIST + i] = d[i]
        st[fast.LANE + i] = ln[i]
        st[fast.STILLS + i] = s[i]
        st[fast.TOKENS + st[fast.OWNER + i]] = t[i]
    st[fast.MOVER] = _mover(phase, d, ln)
    row = np.zeros(fast.INFO_SIZE, dtype=np.int64)
    count = 0
    for k in range(n):
        for token in range(2):
            if np.isnan(values[k, token]):
                continue
            row[fast.I_AHEAD] = dest[k, 0]
            row[fast.I_LANE] = dest[k, 1]
            row[fast.I_TOKEN] = token
            row[fast.I_BEHIND] = dest[k, 3]
            scores[count] = search.score(st, par, 0, row, weights)
            option_value[count] = values[k, token]
            option[count, 0] = k
            option[count, 1] = token
            count += 1
    row[fast.I_AHEAD] = -1
    row[fast.I_LANE] = 0
    row[fast.I_TOKEN] = 0
    row[fast.I_BEHIND] = 0
    return count, scores, option_value, option, stay, search.score(st, par, 0, row, weights)


@kernel
def _rule_node(table: np.ndarray, grid: np.ndarray, length: int, phase: int, d: np.ndarray,
               ln: np.ndarray, s: np.ndarray, t: np.ndarray, ws: np.ndarray, dest: np.ndarray,
               values: np.ndarray, st: np.ndarray, par: np.ndarray, weights: np.ndarray,
               generous: bool) -> Any:
    """Rider 0's value before the throw of a mover who follows the greedy rule ``weights``
    (:func:`search.score`). The rule takes the best-scored option the throw allows; the
    four dice are independent, so option k is taken with chance P(no better option
    allowed) - P(neither it nor a better one allowed). Equal scores go in the engine's
    order (the rule's first action), or with ``generous`` best for the other rider first:
    the rule's random tie-breaks can do no worse for him, so that bounds his best reply."""
    mover = _mover(phase, d, ln)
    count, scores, option_value, option, stay, stay_score = _scored_options(
        table, grid, length, phase, d, ln, s, t, ws, dest, values, st, par, weights)
    size = len(scores)
    order_key = np.empty(size)
    allow = np.zeros((size, 4), dtype=np.int64)  # per die: the values allowing it
    for j in range(count):
        k, token = option[j, 0], option[j, 1]
        order_key[j] = token * 1000 + 10 * dest[k, 0] + dest[k, 1]
        for c in range(4):
            if dest[k, 3] or dest[k, 4] == c:
                allow[j, c] = 1 << (dest[k, 2] - 1 - token)
    if s[mover] < SPRINT_FALL - 1:  # standing still is an option (when any move is)
        scores[count] = stay_score
        order_key[count] = -1
        option_value[count] = stay
        allow[count, 0] = STAY_MARK
        count += 1
    if generous:
        sign = 1.0 if mover == 1 else -1.0  # the other rider's value: sign * rider 0's
        for k in range(count):
            order_key[k] = -sign * option_value[k]
    idx = np.arange(count)
    for a in range(1, count):  # best score first, then by the key
        b = a
        while b > 0 and (scores[idx[b - 1]] < scores[idx[b]] - 1e-9 or (
                abs(scores[idx[b - 1]] - scores[idx[b]]) <= 1e-9
                and order_key[idx[b - 1]] > order_key[idx[b]])):
            idx[b - 1], idx[b] = idx[b], idx[b - 1]
            b -= 1
    taken = np.zeros(4, dtype=np.int64)  # die values that allow a better option
    none_better = 1.0
    result = 0.0
    for j in range(count):
        k = idx[j]
        if allow[k, 0] == STAY_MARK:
            break  # standing still beats all that is left, and is what "no move" does too
        after = 1.0
        for c in range(4):
            taken[c] |= allow[k, c]
            after *= (6 - _bits(taken[c])) / 6.0
        result += (none_better - after) * option_value[k]
        none_better = after
    return result + none_better * stay


# Gauss-Legendre nodes and weights on [0, 1], eight points (exact to degree 15)
_GL_X, _GL_W = np.polynomial.legendre.leggauss(8)
GL_X = (_GL_X + 1.0) / 2.0
GL_W = _GL_W / 2.0


@kernel
def _noisy_rule_node(table: np.ndarray, grid: np.ndarray, length: int, phase: int,
                     d: np.ndarray, ln: np.ndarray, s: np.ndarray, t: np.ndarray,
                     ws: np.ndarray, dest: np.ndarray, values: np.ndarray, st: np.ndarray,
                     par: np.ndarray, weights: np.ndarray) -> Any:
    """Rider 0's value before the throw of a mover who follows a greedy rule with noise
    (the easy rider: each option's score plus ``noise`` x a uniform draw, the best taken).

    Option i is taken when the throw allows it and every other allowed option's noisy score
    is below i's. Given i's noisy score x, the others are independent and each die is too,
    so E[allowed(i) x prod over allowed j of F_j(x)] is a product over the dice, where F_j
    is the chance j's noisy score is below x (the square behind the other rider, which any
    die can reach, is split into cases). Integrated over x piece by piece between the
    scores' breakpoints with Gauss-Legendre points (polynomial on each piece)."""
    mover = _mover(phase, d, ln)
    noise = weights[search.W_NOISE]
    count, base, option_value, option, stay, stay_base = _scored_options(
        table, grid, length, phase, d, ln, s, t, ws, dest, values, st, par, weights)
    size = len(base)
    colour = np.empty(size, dtype=np.int64)  # -1: the square behind (any colour)
    face = np.empty(size, dtype=np.int64)  # the die value that allows it
    behind_pips = -1
    for j in range(count):
        k, token = option[j, 0], option[j, 1]
        colour[j] = -1 if dest[k, 3] else dest[k, 4]
        face[j] = dest[k, 2] - token
        if dest[k, 3]:
            behind_pips = dest[k, 2]
    may_stay = s[mover] < SPRINT_FALL - 1
    # breakpoints of the pieces: every score and score + noise
    marks = np.empty(2 * count + 2)
    m = 0
    for k in range(count):
        marks[m] = base[k]
        marks[m + 1] = base[k] + noise
        m += 2
    if may_stay:
        marks[m] = stay_base
        marks[m + 1] = stay_base + noise
        m += 2
    marks = np.unique(marks[:m])
    chance = np.zeros(count)  # P(option k taken)
    below = np.empty(count)
    group = np.empty((4, 6))
    sums = np.empty((3, 4))  # per die: all faces, faces other than p, other than p and p - 1
    for piece in range(len(marks) - 1):
        lo = marks[piece]
        width = marks[piece + 1] - lo
        for g in range(len(GL_X)):
            x = lo + width * GL_X[g]
            weight = width * GL_W[g] / noise
            for k in range(count):
                below[k] = min(1.0, max(0.0, (x - base[k]) / noise))
            stay_below = min(1.0, max(0.0, (x - stay_base) / noise)) if may_stay else 1.0
            behind_plain = 1.0
            behind_token = 1.0
            for c in range(4):
                for v in range(6):
                    group[c, v] = 1.0
            for k in range(count):
                if colour[k] >= 0:
                    group[colour[k], face[k] - 1] *= below[k]
                elif face[k] == behind_pips:
                    behind_plain = below[k]
                else:
                    behind_token = below[k]
            for k in range(count):
                lo_k = base[k]
                if x <= lo_k or x >= lo_k + noise:
                    continue
                _die_sums(group, sums, behind_pips, colour[k], face[k], below[k])
                full = sums[0, 0] * sums[0, 1] * sums[0, 2] * sums[0, 3]
                no_p = sums[1, 0] * sums[1, 1] * sums[1, 2] * sums[1, 3]
                no_pq = sums[2, 0] * sums[2, 1] * sums[2, 2] * sums[2, 3]
                if colour[k] >= 0:
                    if behind_pips < 0:
                        e = full
                    else:
                        e = behind_plain * (full - no_p) + behind_token * (no_p - no_pq) + no_pq
                elif face[k] == behind_pips:
                    e = full - no_p  # some die shows p
                else:
                    e = no_p - no_pq  # none shows p, some shows p - 1
                chance[k] += weight * e * stay_below
    result = 0.0
    taken = 0.0
    for k in range(count):
        result += chance[k] * option_value[k]
        taken += chance[k]
    return result + (1.0 - taken) * stay


@kernel
def _die_sums(group: np.ndarray, sums: np.ndarray, p: int, fixed_colour: int, fixed_face: int,
              own: float) -> None:
    """Per die, the mean over its faces of the product of the others' chances to score
    below x: over all faces, faces other than ``p``, faces other than ``p`` and ``p - 1``.
    The die ``fixed_colour`` shows ``fixed_face`` (the option's own, left out of the
    product by dividing by ``own``)."""
    for c in range(4):
        for kind in range(3):
            total = 0.0
            for v in range(1, 7):
                if kind >= 1 and v == p:
                    continue
                if kind == 2 and v == p - 1:
                    continue
                if c == fixed_colour:
                    if v != fixed_face:
                        continue
                    total += group[c, v - 1] / own
                else:
                    total += group[c, v - 1]
            sums[kind, c] = total / 6.0


@kernel(parallel=True)
def _solve(grid: np.ndarray, length: int, tokens: int, rule_rider: int, st0: np.ndarray,
           par: np.ndarray, weights: np.ndarray, generous: bool) -> np.ndarray:
    spots = length + BACK + REACH  # distances -BACK .. length + REACH - 1
    squares = spots * 4
    table = np.full((PHASES, 3, 3, tokens + 1, tokens + 1, squares, squares), np.nan,
                    dtype=np.float32)
    top = 3 * 2 * (spots - 1) + 4
    for level in range(top, -1, -1):
        # distances summing to ``total`` (indices from 0) and stand-stills to the rest
        for total in range(max(0, (level - 4 + 2) // 3), min(level // 3, 2 * (spots - 1)) + 1):
            stills = level - 3 * total
            if stills < 0 or stills > 4:
                continue
            lo = max(0, total - (spots - 1))
            hi = min(spots - 1, total)
            for i0 in prange(lo, hi + 1):
                _level_row(table, grid, length, tokens, i0, total - i0, stills, rule_rider,
                           st0, par, weights, generous)
    return table


@kernel
def _level_row(table: np.ndarray, grid: np.ndarray, length: int, tokens: int, i0: int,
               i1: int, stills: int, rule_rider: int, st0: np.ndarray, par: np.ndarray,
               weights: np.ndarray, generous: bool) -> None:
    st = st0.copy()
    noisy = weights[search.W_NOISE] > 0
    d = np.empty(2, dtype=np.int64)
    ln = np.empty(2, dtype=np.int64)
    s = np.empty(2, dtype=np.int64)
    t = np.empty(2, dtype=np.int64)
    ws = np.zeros(fast.WORK_SIZE, dtype=np.int64)
    dest = np.zeros((4 * REACH, 5), dtype=np.int64)
    values = np.zeros((4 * REACH, 2))
    d[0] = i0 - BACK
    d[1] = i1 - BACK
    if d[0] >= length and d[1] >= length:
        return
    d_ok = d[0] < length and d[1] < length  # a round can start here
    for s0 in range(3):
        s1 = stills - s0
        if s1 < 0 or s1 > 2:
            continue
        for l0 in range(1, 5):
            for l1 in range(1, 5):
                if (d[0] - d[1]) % length == 0 and l0 == l1:
                    continue  # one square
                for t0 in range(tokens + 1):
                    for t1 in range(tokens + 1):
                        for phase in range(PHASES):
                            if phase == 0 and not d_ok:
                                continue  # a round starts only before the line
                            mover = phase - 1
                            if phase > 0 and d[mover] >= length:
                                continue  # the second mover has not moved yet this round
                            ln[0] = l0
                            ln[1] = l1
                            s[0] = s0
                            s[1] = s1
                            t[0] = t0
                            t[1] = t1
                            if _mover(phase, d, ln) == rule_rider and noisy:
                                v = _noisy_rule_node(table, grid, length, phase, d, ln, s, t,
                                                     ws, dest, values, st, par, weights)
                            elif _mover(phase, d, ln) == rule_rider:
                                v = _rule_node(table, grid, length, phase, d, ln, s, t, ws,
                                               dest, values, st, par, weights, generous)
                            else:
                                v = _node(table, grid, length, phase, d, ln, s, t, ws, dest,
                                          values)
                            table[phase, s0, s1, t0, t1, i0 * 4 + l0 - 1, i1 * 4 + l1 - 1] = v


_TABLES: dict[tuple[bytes, int, int], np.ndarray] = {}
_LOCK = threading.Lock()


def table_for(grid: np.ndarray, length: int, tokens: int) -> np.ndarray:
    """The solved sprint for a track (``fast.encode_grid``) and token count (kept)."""
    if tokens > MAX_TOKENS:
        raise OptionsError(f"the sprint is solved with at most {MAX_TOKENS} tokens a player, "
                           f"not {tokens}")
    key = (grid.tobytes(), length, tokens)
    with _LOCK:
        found = _TABLES.get(key)
        if found is None:
            found = _TABLES[key] = _solve(grid, length, tokens, -1, _template(),
                                          np.zeros(fast.PARAMS_SIZE, dtype=np.int64),
                                          search.MEDIUM_WEIGHTS, False)
        return found


def response_table(grid: np.ndarray, length: int, tokens: int, rule_rider: int,
                   weights: np.ndarray, generous: bool = False) -> np.ndarray:
    """The sprint solved against a rider who follows the greedy rule ``weights`` (rider
    ``rule_rider``, 0 or 1): rider 0's chance of winning when the other rider plays the
    best reply to that rule. A rule with noise (easy's) is valued over its random choices;
    ``generous`` applies to ties of a rule without. Not kept."""
    st = _template()
    par = np.zeros(fast.PARAMS_SIZE, dtype=np.int64)
    par[fast.P_VARIANT] = fast.V_SPRINT
    par[fast.P_PLAYERS] = 2
    par[fast.P_LAPS] = 1
    par[fast.P_LENGTH] = length
    return _solve(grid, length, tokens, rule_rider, st, par, weights, generous)


def _template() -> np.ndarray:
    """A fast-engine sprint position with both riders racing (its positions are filled in)."""
    st = np.zeros(fast.STATE_SIZE, dtype=np.int64)
    st[fast.NRIDERS] = 2
    for i in range(2):
        st[fast.IDENT + i] = 10 * (i + 1) + 1
        st[fast.OWNER + i] = i
        st[fast.STATUS + i] = fast.ST_RACE
    st[fast.PHASE] = fast.PH_RACE
    return st


def value_after(table: np.ndarray, st: np.ndarray, rider: int) -> float:
    """``rider``'s chance of winning by ``table`` in the fast-engine sprint position ``st``
    (before a throw, or over)."""
    if st[fast.PHASE] == fast.PH_OVER:
        return 1.0 if (st[fast.NRANK] > 0 and st[fast.RANK] == rider) else 0.0
    mover = int(st[fast.MOVER])
    phase = 0 if st[fast.NTM] > 0 else 1 + mover
    d = [int(st[fast.DIST + i]) for i in range(2)]
    ln = [int(st[fast.LANE + i]) for i in range(2)]
    s = [int(st[fast.STILLS + i]) for i in range(2)]
    t = [int(st[fast.TOKENS + int(st[fast.OWNER + i])]) for i in range(2)]
    v0 = float(_value(table, phase, s[0], s[1], t[0], t[1], d[0], ln[0], d[1], ln[1]))
    return v0 if rider == 0 else 1.0 - v0


def start_value(table: np.ndarray, tokens: tuple[int, int], places: tuple[tuple[int, int],
                tuple[int, int]]) -> float:
    """Rider 0's chance of winning from the start, riders placed ``places[i] = (dist, lane)``."""
    (d0, l0), (d1, l1) = places
    return float(_value(table, 0, 0, 0, tokens[0], tokens[1], d0, l0, d1, l1))


def decision_values(table: np.ndarray, st: np.ndarray, par: np.ndarray, grid: np.ndarray,
                    acts: np.ndarray, n: int) -> np.ndarray:
    """The deciding player's chance of winning after each of the ``n`` legal actions."""
    if st[fast.PHASE] == fast.PH_PLACE:
        return _placement_values(table, st, par, grid, acts, n)
    rider = int(st[fast.MOVER])
    out = np.empty(n)
    for k in range(n):
        after = st.copy()
        fast.decide(after, par, int(acts[k]))
        out[k] = value_after(table, after, rider)
    return out


def _placement_values(table: np.ndarray, st: np.ndarray, par: np.ndarray, grid: np.ndarray,
                      acts: np.ndarray, n: int) -> np.ndarray:
    """Placing first: the worst reply's value; placing second: the value itself."""
    rider = int(st[fast.PQ])
    reply = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    out = np.empty(n)
    for k in range(n):
        after = st.copy()
        fast.decide(after, par, int(acts[k]))
        if after[fast.PHASE] == fast.PH_PLACE:
            m = fast.legal_actions(after, par, grid, reply, info)
            out[k] = min(1.0 - _placement_values(table, after, par, grid, reply, m))
        else:
            out[k] = value_after(table, after, rider)
    return out
