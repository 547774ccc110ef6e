"""The compiled sampler against the exact odds, and its determinism.

The sampler's races are compared with the exact distributions of :mod:`odds` (each place's
chances and the turn in which the winner crosses), which ``test_odds.py`` checks exactly
against the reference engine's own chance tree: no sampled reference races are needed (the
two-sample test this replaces drew 8,000 reference races a case, 40 s of CPU, and its noise
was most of the comparison's).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from raceday.games.keirin.fast import sample_races, throw_tables
from raceday.games.keirin.odds import derny_counts, finish_key_distributions, race_odds
from raceday.games.keirin.rules import KeirinOptions, throw_distribution
from raceday.games.keirin.simulate import simulate
from raceday.games.keirin.track import DERNY_DICE, starting_positions

FAMILY_CONFIDENCE = 0.99  # for all comparisons of a test together (Bonferroni-adjusted)
RACES = 400_000


def exact_top(options: KeirinOptions) -> np.ndarray:
    """P(rider r among the first k) for k = 1, 2, 3 (rows) and every rider (columns)."""
    odds = race_odds(options)
    n = options.riders
    first = odds.first[:n]
    second = odds.two[:n, :n].sum(axis=0)
    third = odds.three[:n, :n, :n].sum(axis=(0, 1))
    return np.array([first, first + second, first + second + third])


def exact_winner_turns(options: KeirinOptions) -> np.ndarray:
    """P(the winner crosses in turn t), t = 1, 2, ...: riders move independently, so the
    winner's turn is the least of the riders' crossing turns (odds.py's ``(T, E)`` keys)."""
    if options.derny is not None:
        rolls = [(options.derny, 1.0)]
    else:
        rolls = [(roll, count / 6**DERNY_DICE) for roll, count in derny_counts().items()]
    n = options.riders
    distances = np.array([[options.length - starting_positions(roll, n)[i]
                           for roll, _ in rolls] for i in range(n)], dtype=np.int64)
    point, width = finish_key_distributions(distances, list(range(1, n + 1)))
    crossing = point.reshape(n, len(rolls), -1, width).sum(axis=3)  # P(T_i = t) per roll
    still_out = 1.0 - np.cumsum(crossing, axis=2)  # P(T_i > t)
    nobody_yet = np.prod(still_out, axis=0)  # P(min T > t), per roll
    before = np.concatenate([np.ones((len(rolls), 1)), nobody_yet[:, :-1]], axis=1)
    weights = np.array([w for _, w in rolls])
    turns: np.ndarray = weights @ (before - nobody_yet)
    return turns


@pytest.mark.parametrize(
    "options", [KeirinOptions(), KeirinOptions(riders=6, length=25, derny=12)],
    ids=["default", "6r-short-derny12"],
)
def test_fast_sampler_matches_the_exact_odds(options: KeirinOptions) -> None:
    fast = simulate(options, RACES, np.random.default_rng(8), engine="fast")
    riders = options.riders
    expected = exact_top(options).ravel()
    hits = np.array([fast.top(r, k) for k in (1, 2, 3) for r in range(1, riders + 1)])
    z = NormalDist().inv_cdf(1 - (1 - FAMILY_CONFIDENCE) / (2 * (len(hits) + 1)))
    se = np.sqrt(np.maximum(expected * (1 - expected), 1e-12) / RACES)
    assert np.all(np.abs(hits / RACES - expected) <= z * se), (hits / RACES, expected)
    # the turn in which the winner crossed: the sample's mean within the family's reach of
    # the exact mean, by the exact standard deviation
    turns = exact_winner_turns(options)
    assert turns.sum() == pytest.approx(1.0, abs=1e-12)
    t = np.arange(1, len(turns) + 1)
    mean = float(turns @ t)
    sd = math.sqrt(float(turns @ (t - mean) ** 2))
    assert abs(fast.mean_turns() - mean) <= z * sd / math.sqrt(RACES)
    assert fast.turns_std() == pytest.approx(sd, rel=0.02)


def test_the_exact_winner_turns_follow_the_sampled_races_turn_by_turn() -> None:
    """The exact turn distribution itself, cell by cell, against the sampler's (a
    derivation check of :func:`exact_winner_turns`: it must not just match the mean)."""
    options = KeirinOptions(riders=7, length=100, derny=5)
    races = sample_races(options, RACES, np.random.default_rng(2006), places=1)
    turns = exact_winner_turns(options)
    counts = np.bincount(races.turns, minlength=len(turns) + 1)[1:]
    assert counts.sum() == RACES and len(counts) == len(turns)
    z = NormalDist().inv_cdf(1 - (1 - FAMILY_CONFIDENCE) / (2 * len(turns)))
    se = np.sqrt(np.maximum(turns * (1 - turns), 1e-12) / RACES)
    assert np.all(np.abs(counts / RACES - turns) <= z * se + 1e-12), (counts / RACES, turns)


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
