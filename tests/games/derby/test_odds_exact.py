"""The whole-number dynamic programme of the Dice Derby odds gives exactly what adding exact
Fractions branch by branch gives (a plain restatement of the rules' rounds, kept here as the
reference), for every group of horses and several fall rates."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from raceday.games.derby.odds import (
    drop_distribution,
    exact_odds,
    quinella_probabilities,
    win_probabilities,
)
from raceday.games.derby.rules import FACES, POSTS

Pair = tuple[int, int]


@cache
def ref_drop(group: frozenset[int]) -> dict[int, Fraction]:
    """Every roll of the group's dice, counted: lowest number drops, the bigger die on ties."""
    members = sorted(group)
    counts = dict.fromkeys(members, 0)
    for roll in itertools.product(*(range(1, FACES[h - 1] + 1) for h in members)):
        low = min(roll)
        counts[max(h for h, v in zip(members, roll, strict=True) if v == low)] += 1
    total = 1
    for h in members:
        total *= FACES[h - 1]
    return {h: Fraction(c, total) for h, c in counts.items()}


def ref_falls(group: frozenset[int], rate: Fraction) -> list[tuple[frozenset[int], Fraction]]:
    k = len(group)
    keep = 1 - rate**k
    return [(frozenset(fallen), rate**m * (1 - rate) ** (k - m) / keep)
            for m in range(1, k) for fallen in itertools.combinations(sorted(group), m)]


@cache
def ref_win(group: frozenset[int], rate: Fraction) -> dict[int, Fraction]:
    if len(group) == 1:
        return {next(iter(group)): Fraction(1)}
    result = dict.fromkeys(sorted(group), Fraction(0))
    clean = (1 - rate) ** len(group) / (1 - rate ** len(group))
    for d, pd in ref_drop(group).items():
        for h, ph in ref_win(group - {d}, rate).items():
            result[h] += clean * pd * ph
    for fallen, p in ref_falls(group, rate):
        for h, ph in ref_win(group - fallen, rate).items():
            result[h] += p * ph
    return result


@cache
def ref_quinella(group: frozenset[int], rate: Fraction) -> dict[Pair, Fraction]:
    if len(group) == 2:
        a, b = sorted(group)
        return {(a, b): Fraction(1)}
    result = dict.fromkeys(itertools.combinations(sorted(group), 2), Fraction(0))
    clean = (1 - rate) ** len(group) / (1 - rate ** len(group))
    for d, pd in ref_drop(group).items():
        for pair, pp in ref_quinella(group - {d}, rate).items():
            result[pair] += clean * pd * pp
    for fallen, p in ref_falls(group, rate):
        rest = group - fallen
        if len(rest) >= 2:
            for pair, pp in ref_quinella(rest, rate).items():
                result[pair] += p * pp
        else:
            (leader,) = rest
            for h, ph in ref_win(fallen, rate).items():
                result[min(leader, h), max(leader, h)] += p * ph
    return result


GROUPS = [frozenset(g) for k in range(1, 7) for g in itertools.combinations(POSTS, k)]
RATES = [Fraction(0), Fraction(1, 20), Fraction(1, 7), Fraction(1, 3), Fraction(1, 2)]


@pytest.mark.parametrize("rate", RATES, ids=str)
def test_every_group_equals_the_fraction_reference_exactly(rate: Fraction) -> None:
    for group in GROUPS:
        win = win_probabilities(group, rate)
        assert win == ref_win(group, rate)
        assert list(win) == sorted(group)
        assert all(isinstance(p, Fraction) for p in win.values())
        if len(group) >= 2:
            quinella = quinella_probabilities(group, rate)
            assert quinella == ref_quinella(group, rate)
            assert list(quinella) == list(itertools.combinations(sorted(group), 2))


def test_drop_distribution_equals_counting_every_roll() -> None:
    for group in GROUPS:
        if len(group) <= 4:  # up to 12,800 rolls each; the whole field is in test_odds.py
            assert drop_distribution(group) == ref_drop(group)


def test_exact_odds_of_a_race_equal_the_reference() -> None:
    everyone = frozenset(POSTS)
    odds = exact_odds("0.05")
    assert odds.fall_rate == Fraction(1, 20)
    assert dict(odds.win) == ref_win(everyone, Fraction(1, 20))
    assert dict(odds.quinella) == ref_quinella(everyone, Fraction(1, 20))
