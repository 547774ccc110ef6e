"""A fast KEIRIN sampler: whole races in a compiled loop, many races per call.

It follows the same rules as :mod:`raceday.games.keirin.rules` (same line-up, same turn
order, crossing at ``position >= length``, ranking by distance past the line, photo-finish
throws among tied riders until they split) but keeps no events and no Python objects: throws
are drawn by inverse CDF from the exact distributions of
:func:`~raceday.games.keirin.rules.throw_distribution`, inside a numba-compiled kernel that
works on numpy arrays. The reference engine stays the truth for ``watch`` and for checking;
``tests/games/keirin/test_fast.py`` compares the two statistically.

Randomness: the kernel runs its own xoshiro256** generator (fast, inlined), whose state for
each batch is drawn from the ``numpy.random.Generator`` passed in, so the same seed and
options give the same races.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from raceday.core.game import ProgressCallback
from raceday.core.kernels import kernel
from raceday.games.keirin.rules import KeirinOptions, throw_distribution
from raceday.games.keirin.track import DERNY_DICE, SLIPSTREAM, SPACING

BATCH = 65_536  # races per kernel call (also the progress-bar step)


UNIT = 2**53  # throws compare a uniform 53-bit integer with these cut points
GUIDE_BITS = 12  # a guide table per rider jumps straight to the right value (or next to it)


@cache
def throw_tables(riders: int) -> tuple[np.ndarray, np.ndarray]:
    """Per rider (row = rider - 1): cumulative probabilities as cut points on 0 .. 2**53
    (rounded down: bias below 2**-53 per value) and the throw values, padded."""
    width = max(len(throw_distribution(k)) for k in range(1, riders + 1))
    cut = np.full((riders, width), UNIT, dtype=np.int64)
    values = np.zeros((riders, width), dtype=np.int64)
    for k in range(1, riders + 1):
        items = throw_distribution(k).items()
        acc = Fraction(0)
        for j, (value, prob) in enumerate(items):
            acc += prob
            cut[k - 1, j] = acc.numerator * UNIT // acc.denominator
            values[k - 1, j] = value
        values[k - 1, len(items) :] = values[k - 1, len(items) - 1]
    return cut, values


@cache
def guide_table(riders: int) -> np.ndarray:
    """``guide[r, b]``: the first value index whose cut point lies above the start of bucket
    ``b`` (of ``2**GUIDE_BITS`` equal buckets); the scan from there takes a step or two."""
    cut, _ = throw_tables(riders)
    starts = np.arange(1 << GUIDE_BITS, dtype=np.int64) << (53 - GUIDE_BITS)
    return np.stack([np.searchsorted(row, starts, side="right") for row in cut]).astype(np.int64)


@kernel
def _rotl(x: np.uint64, k: int) -> np.uint64:  # pragma: no cover - jit
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel
def _next(s: np.ndarray) -> np.uint64:  # pragma: no cover - jit
    """xoshiro256** (Blackman and Vigna): one 64-bit draw; ``s`` holds the four words."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@kernel
def _throw(
    s: np.ndarray, cut: np.ndarray, values: np.ndarray, guide: np.ndarray, rider: int
) -> int:  # pragma: no cover - jit
    u = np.int64(_next(s) >> np.uint64(11))  # uniform on 0 .. 2**53 - 1
    j = guide[rider, u >> (53 - GUIDE_BITS)]  # first candidate value for u's bucket
    while u >= cut[rider, j]:
        j += 1
    return int(values[rider, j])


@kernel
def _sort_by_key(order: np.ndarray, key: np.ndarray, lo: int, hi: int
                 ) -> None:  # pragma: no cover - jit
    """Insertion sort of ``order[lo:hi]`` by ``key`` descending (stable in rider order)."""
    for a in range(lo + 1, hi):
        r, kv = order[a], key[a]
        b = a - 1
        while b >= lo and key[b] < kv:
            order[b + 1] = order[b]
            key[b + 1] = key[b]
            b -= 1
        order[b + 1] = r
        key[b + 1] = kv


@kernel
def _push_ties(key: np.ndarray, lo: int, hi: int, seg_lo: np.ndarray, seg_hi: np.ndarray,
               top: int) -> int:  # pragma: no cover - jit
    """Push every run of two or more equal keys in ``key[lo:hi]`` (a photo-finish) onto the
    stack ``seg_lo``/``seg_hi``; the stack's new height."""
    start = lo
    for a in range(lo + 1, hi + 1):
        if a == hi or key[a] != key[start]:
            if a - start > 1:
                seg_lo[top] = start
                seg_hi[top] = a
                top += 1
            start = a
    return top


@kernel
def _race_kernel(  # pragma: no cover - compiled; checked statistically in the tests
    n: int,
    riders: int,
    length: int,
    derny_fixed: int,
    places: int,
    cut: np.ndarray,
    values: np.ndarray,
    guide: np.ndarray,
    state: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    s = state.copy()
    ranking = np.zeros((n, places), dtype=np.int8)
    turns = np.zeros(n, dtype=np.int16)
    pos = np.zeros(riders, dtype=np.int64)
    active = np.zeros(riders, dtype=np.bool_)
    order = np.zeros(riders, dtype=np.int64)  # crossers of the turn, being sorted
    key = np.zeros(riders, dtype=np.int64)
    seg_lo = np.zeros(4 * riders, dtype=np.int64)
    seg_hi = np.zeros(4 * riders, dtype=np.int64)
    for race in range(n):
        if derny_fixed > 0:
            derny = derny_fixed
        else:
            derny = 0
            for _ in range(3):
                derny += 1 + int((_next(s) >> np.uint64(32)) * np.uint64(6) >> np.uint64(32))
        for k in range(riders):
            pos[k] = derny - 3 * (k + 1)
            active[k] = True
        pos[0] += 3
        ranked = 0
        turn = 0
        while ranked < places:
            turn += 1
            for k in range(riders):
                if active[k]:
                    pos[k] += _throw(s, cut, values, guide, k)
            # crossers, sorted by distance past the line (further first)
            count = 0
            for k in range(riders):
                if active[k] and pos[k] >= length:
                    order[count] = k
                    key[count] = pos[k] - length
                    count += 1
            if count == 0:
                continue
            _sort_by_key(order, key, 0, count)
            # segments of equal key are photo-finishes: throw again until they split
            top = _push_ties(key, 0, count, seg_lo, seg_hi, 0)
            while top > 0:
                top -= 1
                lo, hi = seg_lo[top], seg_hi[top]
                for a in range(lo, hi):
                    key[a] = _throw(s, cut, values, guide, order[a])
                _sort_by_key(order, key, lo, hi)
                top = _push_ties(key, lo, hi, seg_lo, seg_hi, top)
            if ranked == 0:
                turns[race] = turn
            for a in range(count):
                active[order[a]] = False
                if ranked < places:
                    ranking[race, ranked] = order[a] + 1
                ranked += 1
    return ranking, turns


@dataclass(frozen=True)
class FastRaces:
    """Sampled races: ``ranking[i, j]`` = rider placed j+1 in race i (first ``places``
    places only); ``turns[i]`` = the turn in which race i's winner crossed."""

    ranking: np.ndarray
    turns: np.ndarray


def iter_race_batches(
    options: KeirinOptions,
    n: int,
    rng: np.random.Generator,
    places: int = 3,
) -> Iterator[FastRaces]:
    """Sample ``n`` races in batches of at most :data:`BATCH`, one batch at a time, so a
    caller can fold each batch into counts and keep memory flat however large ``n`` is.
    The batches are exactly those :func:`sample_races` joins (same seed, same races)."""
    if not 1 <= places <= options.riders:
        raise ValueError(f"places must be 1 to {options.riders}, got {places}")
    assert SPACING == 3 and SLIPSTREAM == 3 and DERNY_DICE == 3  # hard-wired in the kernel
    cut, values = throw_tables(options.riders)
    guide = guide_table(options.riders)
    done = 0
    while done < n:
        size = min(BATCH, n - done)
        state = rng.integers(1, 2**63, size=4, dtype=np.int64).astype(np.uint64)
        derny = options.derny or 0
        r, t = _race_kernel(
            size, options.riders, options.length, derny, places, cut, values, guide, state
        )
        done += size
        yield FastRaces(r, t)


def sample_races(
    options: KeirinOptions,
    n: int,
    rng: np.random.Generator,
    places: int = 3,
    progress: ProgressCallback | None = None,
) -> FastRaces:
    """Sample ``n`` races, resolving the first ``places`` places (1 to the number of riders).
    Keeps every race in memory: for large ``n`` fold :func:`iter_race_batches` instead."""
    rankings = []
    turns = []
    done = 0
    for batch in iter_race_batches(options, n, rng, places):
        rankings.append(batch.ranking)
        turns.append(batch.turns)
        done += len(batch.turns)
        if progress is not None:
            progress(done, n)
    if not rankings:
        return FastRaces(np.zeros((0, places), dtype=np.int8), np.zeros(0, dtype=np.int16))
    return FastRaces(np.concatenate(rankings), np.concatenate(turns))
