"""The fast paths of the exact KEIRIN odds: counted dice equal the rules' distributions, and
the columns left out under the proven bound change no result by more than that bound."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from raceday.games.keirin import odds
from raceday.games.keirin.rules import (
    DERNY_DICE,
    KeirinOptions,
    derny_distribution,
    starting_positions,
    throw_distribution,
)
from raceday.games.keirin.track import MAX_RIDERS


@pytest.mark.parametrize("dice", range(1, MAX_RIDERS + 1))
def test_counted_throws_are_exactly_the_rules_distribution(dice: int) -> None:
    counted = {v: Fraction(c, 6**dice) for v, c in odds.throw_counts(dice).items()}
    assert counted == dict(throw_distribution(dice).items())
    assert sum(odds.throw_counts(dice).values()) == 6**dice


def test_counted_derny_is_exactly_the_rules_distribution() -> None:
    counted = {v: Fraction(c, 6**DERNY_DICE) for v, c in odds.derny_counts().items()}
    assert counted == dict(derny_distribution().items())


def test_the_throw_table_holds_the_rules_floats() -> None:
    table, _ = odds._throw_table()
    for dice in range(1, MAX_RIDERS + 1):
        expected = sorted((float(p) for _, p in throw_distribution(dice).items()), reverse=True)
        assert sorted(table[dice - 1][table[dice - 1] > 0], reverse=True) == expected


@pytest.mark.parametrize(
    "options",
    [KeirinOptions(), KeirinOptions(riders=6, length=100), KeirinOptions(riders=8, derny=4)],
    ids=["default", "6r-lap", "8r-derny4"],
)
def test_columns_left_out_change_nothing_beyond_the_bound(
    options: KeirinOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = odds.race_odds(options)
    budget = odds.DROPPED_MASS
    monkeypatch.setattr(odds, "DROPPED_MASS", 0.0)  # every column with any chance
    full = odds.race_odds(options)
    for name in ("first", "two", "three"):
        assert np.abs(getattr(fast, name) - getattr(full, name)).max() < 1e-15
    # ... and the bound really leaves out columns that have some chance (else this test
    # would show nothing): the default race's columns with a bound below the budget
    rolls = sorted(odds.derny_counts())
    distances = np.array([[options.length - starting_positions(r, options.riders)[i]
                           for r in rolls] for i in range(options.riders)])
    point, _ = odds.finish_key_distributions(distances, list(range(1, options.riders + 1)))
    bound = odds._completion_bound(point[None], odds._exclusive_cumsum(point)[None])
    small = np.sort(bound[bound > 0].ravel())
    assert np.count_nonzero(np.cumsum(small) <= budget) > 100
