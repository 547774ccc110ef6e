"""Exact throw odds against the engine's sampler (statistical check at 99% confidence)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from raceday.analysis.stats import proportion_agrees
from raceday.games.pistard.odds import chance_of_a_move, furthest_move_distribution
from raceday.games.pistard.state import position_state


def test_outer_lane_with_free_road_always_has_a_move() -> None:
    # the text's tactics remark: every column holds every colour, and going inwards is free
    state = position_state([(11, 20, 4)], mover=11)
    state.dice = None
    assert chance_of_a_move(state) == 1
    dist = furthest_move_distribution(state)
    # the furthest gain is the highest die: P(max of 4d6 = 6) = 1 - (5/6)^4
    assert dist[6] == 1 - Fraction(5, 6) ** 4
    # any die of 3 or more reaches every lane of its column (it can drift 3 lanes inwards),
    # so the best gain is at least 3 exactly when the highest die is
    assert dist.probability(lambda best: best >= 3) == 1 - Fraction(2, 6) ** 4


def test_sampled_throws_match_the_exact_odds() -> None:
    # a hemmed-in rider: inner lane with a rider right in front, so many throws fail
    state = position_state([(11, 20, 1), (21, 21, 1), (22, 22, 2)], mover=11)
    state.dice = None
    exact = float(chance_of_a_move(state))
    assert 0.05 < exact < 0.95
    rng = np.random.default_rng(123)
    trials, hits = 3000, 0
    for _ in range(trials):
        probe = state.clone()
        draw = probe.sample_chance(rng)
        events = probe.apply_action(draw.outcome, draw.detail)
        hits += "no_move" not in [e.kind for e in events]
    assert proportion_agrees(hits, trials, exact, confidence=0.99)
