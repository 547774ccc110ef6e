"""Exact dice distributions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raceday.core.dice import Dist


def test_2d6_sum() -> None:
    d = Dist.die(6).sum_of(2)
    assert d[7] == Fraction(6, 36) and d[2] == Fraction(1, 36) and len(d) == 11
    assert d.mean() == 7


def test_highest_of_two_d6() -> None:
    d = Dist.die(6).highest_of(2)
    assert d[6] == Fraction(11, 36) and d[1] == Fraction(1, 36)


def test_max_and_map_and_probability() -> None:
    d4, d6 = Dist.die(4), Dist.die(6)
    m = d4.max(d6)
    assert m[6] == Fraction(1, 6) and m[4] == Fraction(4 * 4 - 3 * 3, 24)
    assert d6.map(lambda x: x % 2)[0] == Fraction(1, 2)
    assert d6.probability(lambda x: x >= 5) == Fraction(1, 3)


def test_from_faces_merges_repeats() -> None:
    d = Dist.from_faces([3, 3, 3, 4, 5, 6])
    assert d[3] == Fraction(1, 2) and d.mean() == 4


def test_bad_distributions_raise() -> None:
    with pytest.raises(ValueError):
        Dist({1: -1, 2: 2})
    with pytest.raises(ValueError):
        Dist({})
    with pytest.raises(ValueError):
        Dist.die(0)


@settings(deadline=None)  # Hypothesis's default 200 ms a case is a wall clock
@given(st.integers(1, 12), st.integers(1, 4))
def test_sum_probabilities_total_one(faces: int, n: int) -> None:
    d = Dist.die(faces).sum_of(n)
    assert sum(p for _, p in d.items()) == 1
    assert d.mean() == Fraction(n * (faces + 1), 2)


def test_sampling_follows_the_distribution() -> None:
    # 99% confidence: |mean - 7| < 2.576 * sd / sqrt(n), sd of 2d6 ≈ 2.415
    d = Dist.die(6).sum_of(2)
    draws = d.sample(np.random.default_rng(1), size=20_000).astype(float)
    assert abs(draws.mean() - 7) < 2.576 * 2.415 / np.sqrt(20_000)
