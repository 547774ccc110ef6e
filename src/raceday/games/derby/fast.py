"""A vectorised sampler of race results (1st and 2nd) for Monte Carlo estimates.

It follows the same rules as :class:`raceday.games.derby.rules.DerbyState` but plays
many races at once with numpy arrays; tests check it against the exact odds and against the
reference engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from raceday.analysis.stats import wilson_interval
from raceday.core.game import ProgressCallback
from raceday.games.derby.odds import ALL_PAIRS, Pair, chances_json
from raceday.games.derby.rules import FACES, POSTS, parse_fall_rate

_FACES = np.array(FACES, dtype=np.int64)
_HORSES = len(FACES)


def sample_results(
    n: int, rng: np.random.Generator, fall_rate: Fraction | float | str = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``n`` races; return arrays of the 1st and the 2nd horse (post positions 1..6)."""
    rate = float(parse_fall_rate(fall_rate))
    first = np.zeros(n, dtype=np.int64)
    second = np.zeros(n, dtype=np.int64)
    contending = np.ones((n, _HORSES), dtype=bool)
    place = np.ones(n, dtype=np.int64)  # best place the contending group contests
    live = np.arange(n)
    tiebreak = np.arange(_HORSES)[::-1]  # bigger die sorts first among equal numbers
    while live.size:
        group = contending[live]
        rolls = rng.integers(1, _FACES + 1, size=(live.size, _HORSES))
        if rate > 0:
            fell = (rng.random((live.size, _HORSES)) < rate) & group
        else:
            fell = np.zeros_like(group)
        size = group.sum(axis=1)
        falls = fell.sum(axis=1)
        # no falls: the lowest (ties: most faces) drops
        key = np.where(group, rolls * 8 + tiebreak, 1 << 30)
        dropper = key.argmin(axis=1)
        clean = falls == 0
        rows = np.nonzero(clean)[0]
        group[rows, dropper[rows]] = False
        # some fell, two or more did not: the fallen drop
        some = (falls > 0) & (falls <= size - 2)
        group[some] &= ~fell[some]
        # all but one fell: the one standing takes the place; the fallen roll off
        lone = (falls > 0) & (falls == size - 1)
        standing = (group & ~fell).argmax(axis=1)
        lone_place = place[live]
        for which, target in ((1, first), (2, second)):
            hit = lone & (lone_place == which)
            target[live[hit]] = standing[hit] + 1
        group[lone] = fell[lone]
        place[live[lone]] += 1
        # a group of one takes its place; a clean drop from two gives the next place too
        left = group.sum(axis=1)
        done_rows = left == 1
        last = group.argmax(axis=1)
        group_place = place[live]
        for which, target in ((1, first), (2, second)):
            hit = done_rows & (group_place == which)
            target[live[hit]] = last[hit] + 1
        runner_up = done_rows & clean & (group_place == 1)
        second[live[runner_up]] = dropper[runner_up] + 1
        contending[live] = group
        finished = (first[live] > 0) & (second[live] > 0)
        live = live[~finished]
    return first, second


@dataclass(frozen=True)
class Estimate:
    """A proportion with its Wilson interval."""

    p: float
    low: float
    high: float


@dataclass(frozen=True)
class SimulatedOdds:
    """Win and quinella frequencies of ``n`` simulated races with confidence intervals."""

    n: int
    confidence: float
    win: dict[int, Estimate]
    quinella: dict[Pair, Estimate]

    def to_json(self) -> dict[str, object]:
        return chances_json({h: e.p for h, e in self.win.items()},
                            {pr: e.p for pr, e in self.quinella.items()}, n=self.n)


def _chunks(n: int, size: int) -> Iterator[int]:
    while n > 0:
        yield min(n, size)
        n -= size


def simulate_odds(
    n: int,
    rng: np.random.Generator,
    fall_rate: Fraction | float | str = 0,
    confidence: float = 0.95,
    chunk: int = 100_000,
    progress: ProgressCallback | None = None,
) -> SimulatedOdds:
    """Estimate win and quinella probabilities from ``n`` sampled races; ``progress(done,
    n)`` after every chunk."""
    wins = np.zeros(_HORSES + 1, dtype=np.int64)
    pairs = np.zeros((_HORSES + 1, _HORSES + 1), dtype=np.int64)
    done = 0
    for size in _chunks(n, chunk):
        first, second = sample_results(size, rng, fall_rate)
        wins += np.bincount(first, minlength=_HORSES + 1)
        lo, hi = np.minimum(first, second), np.maximum(first, second)
        np.add.at(pairs, (lo, hi), 1)
        done += size
        if progress is not None:
            progress(done, n)

    def est(count: int) -> Estimate:
        low, high = wilson_interval(count, n, confidence)
        return Estimate(count / n, low, high)

    return SimulatedOdds(
        n,
        confidence,
        {h: est(int(wins[h])) for h in POSTS},
        {(a, b): est(int(pairs[a, b])) for a, b in ALL_PAIRS},
    )
