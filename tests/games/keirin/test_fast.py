"""The compiled sampler against the reference rules engine, and its determinism."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from raceday.games.keirin.fast import sample_races, throw_tables
from raceday.games.keirin.odds import race_odds
from raceday.games.keirin.rules import KeirinOptions, throw_distribution
from raceday.games.keirin.simulate import simulate, simulate_reference

FAMILY_CONFIDENCE = 0.99  # for all comparisons of a test together (Bonferroni-adjusted)


def _two_sample_agree(hits_a: np.ndarray, n_a: int, hits_b: np.ndarray, n_b: int) -> list[int]:
    """Indices where two binomial proportions differ at the family-wise level (z-test on
    the pooled proportion)."""
    z = NormalDist().inv_cdf(1 - (1 - FAMILY_CONFIDENCE) / (2 * len(hits_a)))
    bad = []
    for i, (a, b) in enumerate(zip(hits_a, hits_b, strict=True)):
        pooled = (a + b) / (n_a + n_b)
        se = math.sqrt(max(pooled * (1 - pooled), 1e-12) * (1 / n_a + 1 / n_b))
        if abs(a / n_a - b / n_b) > z * se:
            bad.append(i)
    return bad


@pytest.mark.parametrize(
    ("options", "n_ref"),
    [(KeirinOptions(), 8_000), (KeirinOptions(riders=6, length=25, derny=12), 8_000)],
    ids=["default", "6r-short-derny12"],
)
def test_fast_sampler_matches_the_reference_engine(options: KeirinOptions, n_ref: int) -> None:
    ref = simulate_reference(options, n_ref, np.random.default_rng(7))
    n_fast = 400_000
    fast = simulate(options, n_fast, np.random.default_rng(8), engine="fast")
    riders = options.riders
    ref_hits = np.array([ref.top(r, k) for k in (1, 2, 3) for r in range(1, riders + 1)])
    fast_hits = np.array([fast.top(r, k) for k in (1, 2, 3) for r in range(1, riders + 1)])
    assert _two_sample_agree(ref_hits, n_ref, fast_hits, n_fast) == []
    # the turn in which the winner crossed: same mean within the two 99% intervals' reach
    se = math.hypot(ref.turns_std() / math.sqrt(n_ref), fast.turns_std() / math.sqrt(n_fast))
    assert abs(ref.mean_turns() - fast.mean_turns()) <= NormalDist().inv_cdf(0.995) * se


def test_rider_starting_past_the_line_crosses_when_he_throws() -> None:
    # Derny 18 on a 19-square race: rider 1 starts at 21, past the line; he crosses when he
    # throws in turn 1 (at least 5 past), which no one else can match (rider 2 from 12 gets
    # at most 7, i.e. 0 past), so he wins every race in turn 1 — as in the engine.
    options = KeirinOptions(riders=6, length=19, derny=18)
    races = sample_races(options, 5000, np.random.default_rng(1))
    assert (races.turns == 1).all() and (races.ranking[:, 0] == 1).all()
    assert race_odds(options).first[0] == pytest.approx(1.0, abs=1e-12)


def test_same_seed_same_races() -> None:
    opts = KeirinOptions()
    a = sample_races(opts, 70_000, np.random.default_rng(3))
    b = sample_races(opts, 70_000, np.random.default_rng(3))
    c = sample_races(opts, 70_000, np.random.default_rng(4))
    assert np.array_equal(a.ranking, b.ranking) and np.array_equal(a.turns, b.turns)
    assert not np.array_equal(a.ranking, c.ranking)


def test_rankings_are_valid() -> None:
    races = sample_races(KeirinOptions(riders=7), 20_000, np.random.default_rng(5), places=7)
    assert (np.sort(races.ranking, axis=1) == np.arange(1, 8)).all()


def test_throw_tables_follow_the_exact_distributions() -> None:
    cut, values = throw_tables(9)
    for k in range(1, 10):
        items = throw_distribution(k).items()
        steps = np.diff(np.concatenate(([0], cut[k - 1, : len(items)]))) / 2**53
        assert [int(v) for v in values[k - 1, : len(items)]] == [v for v, _ in items]
        assert np.allclose(steps, [float(p) for _, p in items], atol=1e-15)


def test_fixed_derny_changes_the_race() -> None:
    n = 100_000
    long_pull = sample_races(KeirinOptions(derny=18), n, np.random.default_rng(9)).ranking
    short_pull = sample_races(KeirinOptions(derny=3), n, np.random.default_rng(9)).ranking
    assert (long_pull[:, 0] == 1).mean() > (short_pull[:, 0] == 1).mean() + 0.05
    exact = race_odds(KeirinOptions(derny=18)).first[0]
    assert abs((long_pull[:, 0] == 1).mean() - exact) < 4 * math.sqrt(exact * (1 - exact) / n)
