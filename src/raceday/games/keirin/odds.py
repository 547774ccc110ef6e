"""Exact odds for the first three places of a KEIRIN race (no sampling).

How it works
------------
Riders move independently: a rider's throws never depend on the others, and ranked riders
simply leave the track. So each rider has one random *finishing key*: the turn ``T`` in which
it first reaches the line and how far ``E`` past the line it lands then. The final order is
the order of these keys (earlier turn first, then further past first); riders with the same
key are split by photo-finish throws, which amounts to comparing each tied rider's infinite
sequence of photo throws lexicographically. Hence:

1. per derny roll and rider, the exact distribution of ``(T, E)`` by dynamic programming over
   the distance still to go (:func:`finish_key_distributions`);
2. per set of tied riders, the exact chance of each photo-finish order of its first three
   (:func:`photo_finish_table`), which has the same structure one level down (a throw in
   place of ``(T, E)``) and is solved smallest sets first; a set that ties again on every
   throw is a geometric series, summed in closed form;
3. the probability of every ordered first three by summing, over the finishing key of the
   group that completes the top three, products of the riders' point and tail probabilities
   (:func:`_ordered_prefixes`).

Everything is in float64; ``tests/games/keirin/test_odds.py`` checks the result against an
exact enumeration of the reference engine's chance tree and against simulation.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

# The light track module, not the rules engine: `raceday keirin odds` starts with this
# module and numpy only (see raceday.games.keirin.quick).
from raceday.games.keirin.track import (
    DEFAULT_LENGTH,
    DEFAULT_RIDERS,
    DERNY_DICE,
    MAX_DERNY,
    MAX_RIDERS,
    starting_positions,
)

if TYPE_CHECKING:
    from raceday.games.keirin.rules import KeirinOptions

ALL_MASKS = 1 << MAX_RIDERS
DROPPED_MASS = 1e-16  # key columns adding at most this much to any result are left out

BET_TYPES = ("win", "exacta", "quinella", "trifecta", "trio")


# --- the dice, counted ------------------------------------------------------------------------
# The rules module gives these distributions as exact Fractions, folded die by die; that takes
# tens of milliseconds, a large share of a command that starts, prints the odds and ends. The
# same numbers follow from counting (tests/games/keirin/test_odds_fast.py checks that they are
# exactly the rules' distributions), and a count over 6**k divided once is the same float.
@cache
def throw_counts(dice: int) -> dict[int, int]:
    """Ways, out of ``6 ** dice``, of each throw value of
    :func:`~raceday.games.keirin.rules.throw_distribution`: with no six the best die counts
    (1s and 2s as 3s); with s sixes the throw is 5 + s."""
    if dice < 1:
        raise ValueError("a throw needs at least one die")
    counts = {3: 3**dice, 4: 4**dice - 3**dice, 5: 5**dice - 4**dice}
    for sixes in range(1, dice + 1):
        counts[5 + sixes] = math.comb(dice, sixes) * 5 ** (dice - sixes)
    return counts


def _throw_items(dice: int) -> list[tuple[int, float]]:
    total = 6**dice
    return [(value, count / total) for value, count in throw_counts(dice).items()]


@cache
def derny_counts() -> dict[int, int]:
    """Ways, out of ``6 ** 3``, of each derny advance (the sum of three dice)."""
    counts: dict[int, int] = {}
    for dice in itertools.product(range(1, 7), repeat=DERNY_DICE):
        counts[sum(dice)] = counts.get(sum(dice), 0) + 1
    return dict(sorted(counts.items()))


# --- photo-finish ---------------------------------------------------------------------------
@cache
def _throw_table() -> tuple[np.ndarray, int]:
    """Throw probabilities, shape (MAX_RIDERS, values), best (largest) throw first."""
    values = sorted({v for k in range(1, MAX_RIDERS + 1) for v in throw_counts(k)}, reverse=True)
    table = np.zeros((MAX_RIDERS, len(values)))
    for k in range(1, MAX_RIDERS + 1):
        for v, p in _throw_items(k):
            table[k - 1, values.index(v)] = p
    return table, len(values)


@dataclass(frozen=True)
class PhotoTable:
    """``first[m, a]``, ``two[m, a, b]``, ``three[m, a, b, c]``: chance that the photo-finish
    of the riders in bit mask ``m`` (bit r-1 = rider r) starts with rider a (then b, then c);
    riders are 0-based indices here."""

    first: np.ndarray
    two: np.ndarray
    three: np.ndarray


PHOTO_FILE = Path(__file__).with_name("data") / "photo_finish.npz"


@cache
def photo_finish_table() -> PhotoTable:
    """Exact photo-finish orders for every set of riders (independent of the race options).

    The table is a constant of the rules, so it ships with the package (``PHOTO_FILE``,
    written by :func:`write_photo_finish_file`): loading it takes milliseconds where solving
    it takes a few tenths of a second, which matters to a command that starts, prints the
    odds and ends. The file is used only if the throw distributions stored with it are
    exactly the current ones; otherwise (or if it is missing) the table is solved here.
    ``tests/games/keirin/test_hardening.py`` checks that the file equals a fresh solution."""
    loaded = _load_photo_file(PHOTO_FILE)
    return loaded if loaded is not None else solve_photo_finish_table()


def _load_photo_file(path: Path) -> PhotoTable | None:
    shape = (ALL_MASKS, MAX_RIDERS)
    try:
        with np.load(path) as data:
            if not np.array_equal(data["throws"], _throw_table()[0]):
                return None
            first = data["first"].copy()
            two = np.zeros((*shape, MAX_RIDERS))
            two.flat[data["two_index"]] = data["two_value"]
            three = np.zeros((*shape, MAX_RIDERS, MAX_RIDERS))
            three.flat[data["three_index"]] = data["three_value"]
    except (OSError, KeyError, ValueError, IndexError):
        return None
    if first.shape != shape:
        return None
    return PhotoTable(first, two, three)


def write_photo_finish_file(path: Path = PHOTO_FILE) -> None:
    """Solve the photo-finish table and store it (with the throw distributions it is for).
    Stored uncompressed, the non-zero entries of ``two`` and ``three`` only: reading it
    takes about a millisecond (a compressed file takes three)."""
    table = solve_photo_finish_table()
    two = np.flatnonzero(table.two).astype(np.int32)
    three = np.flatnonzero(table.three).astype(np.int32)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        np.savez(out, throws=_throw_table()[0], first=table.first,
                 two_index=two, two_value=table.two.flat[two],
                 three_index=three, three_value=table.three.flat[three])


def solve_photo_finish_table() -> PhotoTable:
    """Solve the photo-finish table. Sets are solved by size, smallest first, all sets of
    one size in one batched call (a set's row needs only the rows of its subsets)."""
    n = MAX_RIDERS
    first = np.zeros((ALL_MASKS, n))
    two = np.zeros((ALL_MASKS, n, n))
    three = np.zeros((ALL_MASKS, n, n, n))
    table = PhotoTable(first, two, three)
    for r in range(n):
        first[1 << r, r] = 1.0
    throws, _ = _throw_table()
    for size in range(2, n + 1):
        masks = np.array([m for m in range(1, ALL_MASKS) if m.bit_count() == size])
        members = np.array([[r for r in range(n) if m >> r & 1] for m in masks])
        point = throws[members][:, :, None, :]  # one mixture component
        w1, w2, w3, all_tied = _ordered_prefixes_batch(members, point, np.ones(1), table)
        # The term for "everyone throws the same" used this set's own (still zero) row;
        # the true row solves row = rest + all_tied * row.
        scale = 1.0 / (1.0 - all_tied)
        first[masks] = w1 * scale[:, None]
        two[masks] = w2 * scale[:, None, None]
        three[masks] = w3 * scale[:, None, None, None]
    return table


# --- the core sum -------------------------------------------------------------------------------
# Every set of riders of one size is handled in one batch (leading axis b), so the Python loops
# run over member positions, not over sets. The sums over key columns are matrix products kept
# small enough (at most BLAS_SINGLE_THREAD multiply-adds a call) that OpenBLAS runs them on the
# calling thread: a multi-threaded product of these thin shapes is many times slower whenever
# the cores are busy, while a one-thread BLAS product is about ten times faster than einsum.
BLAS_SINGLE_THREAD = 1 << 18  # OpenBLAS's gemm threshold for going multi-threaded


def _subset_products(point: np.ndarray, tail: np.ndarray) -> np.ndarray:
    """For members i = 0..m-1 (axis 1 of ``point``/``tail``, shape (b, m, cols)), the array
    (b, subsets, cols) over subsets G (bit i = member i) of
    prod_{i in G} point_i * prod_{i not in G} tail_i."""
    batch, m, cols = point.shape
    out = np.empty((batch, 1 << m, cols))
    out[:, 0] = 1.0
    size = 1
    for i in range(m):  # fill in place: subsets with member i are the upper half so far
        np.multiply(out[:, :size], point[:, i, None, :], out=out[:, size : 2 * size])
        np.multiply(out[:, :size], tail[:, i, None, :], out=out[:, :size])
        size *= 2
    return out


class _SubsetSums:
    """``sums(skip, terms)[b, G, k] = sum_c terms[b, k, c] * prod_{i in G} point[b, i, c] *
    prod_{i not in G} tail[b, i, c]`` over the subsets G of the members not in ``skip``
    (bit i = i-th of those members, in order), for ``point``/``tail`` of shape (b, m, cols).

    The members are split into a low and a high half; a subset's product is a product of
    the two halves', so each sum is one matrix product of the low half's subset products
    (times the terms) by the high half's. Half products are shared by every ``skip`` that
    leaves the half alike, and the columns go in chunks that keep every matrix product
    under :data:`BLAS_SINGLE_THREAD` multiply-adds."""

    def __init__(self, point: np.ndarray, tail: np.ndarray) -> None:
        self.point, self.tail = point, tail
        _, m, cols = point.shape
        self.low = tuple(range(m // 2))
        self.high = tuple(range(m // 2, m))
        self.step = max(1, BLAS_SINGLE_THREAD >> m)
        self.chunks = [slice(s, s + self.step) for s in range(0, cols, self.step)] or [
            slice(0, 0)]
        self._halves: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def _half(self, chunk: int, ids: tuple[int, ...]) -> np.ndarray:
        key = (chunk, ids)
        if key not in self._halves:
            sl, index = self.chunks[chunk], list(ids)
            self._halves[key] = _subset_products(self.point[:, index, sl],
                                                 self.tail[:, index, sl])
        return self._halves[key]

    def __call__(self, skip: tuple[int, ...], terms: np.ndarray) -> np.ndarray:
        batch, k = self.point.shape[0], terms.shape[1]
        low = tuple(i for i in self.low if i not in skip)
        high = tuple(i for i in self.high if i not in skip)
        out = np.zeros((batch, (1 << len(low)) * k, 1 << len(high)))
        for chunk, sl in enumerate(self.chunks):
            left = self._half(chunk, low)
            left = (left[:, :, None, :] * terms[:, None, :, sl]).reshape(batch, -1, left.shape[2])
            out += np.matmul(left, self._half(chunk, high).transpose(0, 2, 1))
        # out[b, G_low * k + j, G_high] -> [b, G_high * 2**len(low) + G_low, j]
        out = out.reshape(batch, 1 << len(low), k, 1 << len(high)).transpose(0, 3, 1, 2)
        return out.reshape(batch, -1, k)


def _batch_masks(members: np.ndarray) -> np.ndarray:
    """Bit masks over rider indices of the subsets in :func:`_subset_products` order, per
    row of ``members`` (shape (b, m)) -> (b, 2**m)."""
    masks = np.zeros((members.shape[0], 1), dtype=np.int64)
    for i in range(members.shape[1]):
        masks = np.concatenate((masks, masks | (1 << members[:, i, None])), axis=1)
    return masks


def _exclusive_cumsum(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.cumsum(x, axis=-1) - x
    return out


def _completion_bound(point: np.ndarray, before: np.ndarray) -> np.ndarray:
    """An upper bound, per batch row and column ``(d, v)``, of everything that column adds
    to the first one, two and three places: the chance that the first place, the first two
    or the first three are completed by the group at key v (at most ``k - 1`` members
    strictly better, at least ``k`` better or equal, for k = 1, 2, 3). Every term the
    column adds to a place's chances is the chance of an event inside one of these, so
    leaving the column out changes each result by at most its bound. Shapes (b, m, d, v)
    in, (b, d, v) out."""
    # counts[nb, na]: members strictly better (0..3, 3 = three or more), equal (0..3 alike)
    counts = np.zeros((4, 4, *point.shape[:1], *point.shape[2:]))
    counts[0, 0] = 1.0
    worse = 1.0 - before - point
    for i in range(point.shape[1]):
        b, p, w = before[:, i], point[:, i], np.maximum(worse[:, i], 0.0)
        new = counts * w
        new[1:] += counts[:-1] * b
        new[3] += counts[3] * b
        new[:, 1:] += counts[:, :-1] * p
        new[:, 3] += counts[:, 3] * p
        counts = new
    bound = np.zeros(counts.shape[2:])
    for k in range(1, 4):
        for nb in range(k):
            bound += counts[nb, max(0, k - nb) :].sum(axis=0)
    return bound


def _ordered_prefixes_batch(
    members: np.ndarray,
    point: np.ndarray,
    weights: np.ndarray,
    photo: PhotoTable,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Chances of every ordered first one, two and three among each row of ``members``.

    ``members[b]``: rider indices of set b (all sets of one batch have the same size m).
    ``point[b, i, d, v]``: chance that member i's key is value v (index 0 = best) in mixture
    component d (a derny roll); components are weighted by ``weights``. Keys of different
    members are independent within a component; equal keys are split by ``photo``.
    Returns (first, first two, first three) as (b, 9), (b, 9, 9), (b, 9, 9, 9) arrays over
    rider indices, plus the chance (b,) that all members share one key.

    Columns ``(d, v)`` whose bounds (:func:`_completion_bound`) add up to at most
    ``DROPPED_MASS`` are left out: every result moves by at most that much.
    """
    n = MAX_RIDERS
    batch, m = members.shape
    rows = np.arange(batch)
    before = _exclusive_cumsum(point)  # P(key strictly better than v)
    after = np.cumsum(point[..., ::-1], axis=-1)[..., ::-1] - point  # strictly worse
    cols = point.shape[2] * point.shape[3]
    everyone = list(range(m))
    w = np.repeat(weights, point.shape[3])
    bound = (_completion_bound(point, before).reshape(batch, cols) * w).max(axis=0)
    order = np.argsort(bound, kind="stable")
    dropped = np.searchsorted(np.cumsum(bound[order]), DROPPED_MASS, side="right")
    keep = np.sort(order[dropped:])
    if bound.sum() - bound[keep].sum() > DROPPED_MASS:  # rounding: keep everything
        keep = np.arange(cols)
    flat_point = point.reshape(batch, m, cols)[:, :, keep]
    flat_before = before.reshape(batch, m, cols)[:, :, keep]
    flat_after = after.reshape(batch, m, cols)[:, :, keep]
    w = w[keep]
    # Terms for two members placed before the group that completes the top three, with the
    # two's own photo-finish already applied: P(a < b < v) + P(a = b < v) * P(a wins the
    # photo of a and b), and the same for b first, as exclusive cumulative sums over v.
    pairs = list(itertools.combinations(range(m), 2))
    flat_pairs: dict[tuple[int, int], np.ndarray] = {}
    for i, j in pairs:
        pair_mask = (1 << members[:, i]) | (1 << members[:, j])
        i_wins = photo.first[pair_mask, members[:, i]][:, None, None]
        j_wins = photo.first[pair_mask, members[:, j]][:, None, None]
        level = point[:, i] * point[:, j]
        terms = np.stack((point[:, j] * before[:, i] + level * i_wins,
                          point[:, i] * before[:, j] + level * j_wins), axis=1)  # (b, 2, d, v)
        flat_pairs[i, j] = _exclusive_cumsum(terms).reshape(batch, 2, cols)[:, :, keep]

    sums = _SubsetSums(flat_point, flat_after)
    m0 = sums((), w[None, None, :])[:, :, 0]
    m1 = {i: sums((i,), (flat_before[:, i] * w)[:, None, :])[:, :, 0] for i in everyone}
    m2 = {pair: sums(pair, terms * w) for pair, terms in flat_pairs.items()}

    masks_all = _batch_masks(members)
    first = np.einsum("bs,bsk->bk", m0, photo.first[masks_all])
    two = np.einsum("bs,bsk->bk", m0, photo.two[masks_all].reshape(batch, -1, n * n))
    two = two.reshape(batch, n, n)
    three = np.einsum("bs,bsk->bk", m0, photo.three[masks_all].reshape(batch, -1, n ** 3))
    three = three.reshape(batch, n, n, n)
    for i in everyone:
        a = members[:, i]
        masks = _batch_masks(members[:, [k for k in everyone if k != i]])
        two[rows, a] += np.einsum("bs,bsk->bk", m1[i], photo.first[masks])
        three[rows, a] += np.einsum(
            "bs,bsk->bk", m1[i], photo.two[masks].reshape(batch, -1, n * n)
        ).reshape(batch, n, n)
    for (i, j), terms in m2.items():
        a, b = members[:, i], members[:, j]
        masks = _batch_masks(members[:, [k for k in everyone if k not in (i, j)]])
        third = photo.first[masks]  # (b, subsets, n)
        three[rows, a, b] += np.einsum("bs,bsk->bk", terms[:, :, 0], third)
        three[rows, b, a] += np.einsum("bs,bsk->bk", terms[:, :, 1], third)
    return first, two, three, m0[:, -1]


def _ordered_prefixes(
    members: Sequence[int],
    point: np.ndarray,
    weights: np.ndarray,
    photo: PhotoTable,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """:func:`_ordered_prefixes_batch` for one set of riders (``point[i, d, v]``)."""
    first, two, three, all_tied = _ordered_prefixes_batch(
        np.array([list(members)]), point[None], weights, photo
    )
    return first[0], two[0], three[0], float(all_tied[0])


# --- finishing keys -----------------------------------------------------------------------------
def finish_key_distributions(
    distances: np.ndarray, riders: Sequence[int]
) -> tuple[np.ndarray, int]:
    """Exact ``(T, E)`` distributions.

    ``distances[i, d]``: squares rider ``riders[i]`` still has to go (line minus position) at
    the start of turn 1 in component d (may be 0 or negative: the rider still has to throw
    once before he counts as across). Returns ``point[i, d, v]`` with
    ``v = (T - 1) * width + (width - 1 - E)`` (best first) and ``width``.
    """
    tables = [_throw_items(r) for r in riders]
    max_throw = max(v for t in tables for v, _ in t)
    lowest = int(distances.min())
    width = max_throw + max(0, 1 - lowest)  # E ranges over 0 .. width-1
    offset = width - 1  # index = distance + offset; distance <= 0 means across
    highest = int(distances.max())
    min_throw = min(v for t in tables for v, _ in t)
    max_turns = max(1, -(-highest // min_throw)) if highest > 0 else 1
    size = highest + offset + 1
    riders_count, comps = distances.shape
    # every rider at once: probs[i, k] = chance that rider i throws values[k]
    values = sorted({v for t in tables for v, _ in t})
    probs = np.zeros((riders_count, len(values)))
    for i, table in enumerate(tables):
        for value, prob in table:
            probs[i, values.index(value)] = prob
    point = np.zeros((riders_count, comps, max_turns * width))
    state = np.zeros((riders_count, comps, size))
    state[np.arange(riders_count)[:, None], np.arange(comps)[None, :], distances + offset] = 1.0
    moved = np.empty_like(state)
    scratch = np.empty_like(state)
    for turn in range(max_turns):
        moved.fill(0.0)
        for k, value in enumerate(values):
            np.multiply(state[:, :, value:], probs[:, k, None, None],
                        out=scratch[:, :, : size - value])
            moved[:, :, : size - value] += scratch[:, :, : size - value]
        across = moved[:, :, : offset + 1]  # index k -> distance k - offset -> E = offset - k
        # v = turn * width + (width - 1 - E) = turn * width + k
        point[:, :, turn * width : turn * width + offset + 1] = across
        moved[:, :, : offset + 1] = 0.0
        state, moved = moved, state
        if not state.any():
            break
    return point, width


# --- public API ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class KeirinOdds:
    """Exact chances of every bet on the first three (riders are numbered from 1)."""

    riders: int
    length: int
    derny: int | None
    first: np.ndarray  # (9,) P(rider index a wins)
    two: np.ndarray  # (9, 9)
    three: np.ndarray  # (9, 9, 9)

    def bet(self, kind: str) -> dict[tuple[int, ...], float]:
        """Every combination of a bet type with its chance (keys as rider numbers;
        ascending for quinella and trio)."""
        r = range(self.riders)
        if kind == "win":
            return {(a + 1,): float(self.first[a]) for a in r}
        if kind == "exacta":
            return {
                (a + 1, b + 1): float(self.two[a, b]) for a, b in itertools.permutations(r, 2)
            }
        if kind == "quinella":
            return {
                (a + 1, b + 1): float(self.two[a, b] + self.two[b, a])
                for a, b in itertools.combinations(r, 2)
            }
        if kind == "trifecta":
            return {
                (a + 1, b + 1, c + 1): float(self.three[a, b, c])
                for a, b, c in itertools.permutations(r, 3)
            }
        if kind == "trio":
            return {
                (a + 1, b + 1, c + 1): float(
                    sum(self.three[x, y, z] for x, y, z in itertools.permutations((a, b, c)))
                )
                for a, b, c in itertools.combinations(r, 3)
            }
        raise ValueError(f"unknown bet type {kind!r}; choose from {', '.join(BET_TYPES)}")

    def all_bets(self) -> dict[str, dict[tuple[int, ...], float]]:
        return {kind: self.bet(kind) for kind in BET_TYPES}

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"game": "keirin", "riders": self.riders, "length": self.length}
        if self.derny is not None:
            out["derny"] = self.derny
        for kind, table in self.all_bets().items():
            out[kind] = {"-".join(map(str, combo)): p for combo, p in table.items()}
        return out


def _odds_from_distances(distances: np.ndarray, weights: np.ndarray, riders: int) -> tuple[
    np.ndarray, np.ndarray, np.ndarray
]:
    numbers = list(range(1, riders + 1))
    point, _ = finish_key_distributions(distances, numbers)
    first, two, three, _ = _ordered_prefixes(
        list(range(riders)), point, weights, photo_finish_table()
    )
    return first, two, three


def race_odds(options: KeirinOptions | None = None) -> KeirinOdds:
    """Exact odds of a whole race, averaged over the derny's 3d6 (or its fixed roll)."""
    if options is None:
        return exact_odds(DEFAULT_RIDERS, DEFAULT_LENGTH, None)
    return exact_odds(options.riders, options.length, options.derny)


def exact_odds(riders: int, length: int, derny: int | None) -> KeirinOdds:
    """:func:`race_odds` from the three options themselves, already checked (as
    :class:`~raceday.games.keirin.rules.KeirinOptions` checks them)."""
    if derny is not None:
        rolls = [(derny, 1.0)]
    else:
        rolls = [(roll, count / 6**DERNY_DICE) for roll, count in derny_counts().items()]
    assert all(DERNY_DICE <= roll <= MAX_DERNY for roll, _ in rolls)
    distances = np.array(
        [[length - starting_positions(roll, riders)[i] for roll, _ in rolls]
         for i in range(riders)],
        dtype=np.int64,
    )
    weights = np.array([p for _, p in rolls])
    first, two, three = _odds_from_distances(distances, weights, riders)
    return KeirinOdds(riders, length, derny, first, two, three)


def position_odds(
    positions: Mapping[int, int], length: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact chances of the order of the next three riders to be ranked, from the start of a
    turn with the given still-racing riders (rider number -> square). Arrays as in
    :class:`KeirinOdds` (index = rider number - 1)."""
    riders = sorted(positions)
    if not riders or any(not 1 <= r <= MAX_RIDERS for r in riders):
        raise ValueError("positions need riders numbered 1 to 9")
    distances = np.array([[length - positions[r]] for r in riders], dtype=np.int64)
    point, _ = finish_key_distributions(distances, riders)
    first, two, three, _ = _ordered_prefixes(
        [r - 1 for r in riders], point, np.ones(1), photo_finish_table()
    )
    return first, two, three


if __name__ == "__main__":  # regenerate the shipped table: python -m raceday.games.keirin.odds
    write_photo_finish_file()
    print(f"wrote {PHOTO_FILE}")
