"""The compiled engine (fast.py) agrees with the reference engine step for step.

Both engines are fed the same throws and the same choices (a seeded generator picks them)
and must give the same player to act, the same legal actions in the same order, and the
same position (every field of the reference state, in the compiled layout) after every
step. Here a few games of every harness option set and a few more (points races of ten
laps, bigger fields, tokens off); bench/bench_pistard.py checks thousands.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from raceday.games.pistard import fast
from raceday.games.pistard.game import HARNESS_CONFIGS
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PistardState, position_state

EXTRA_CONFIGS: tuple[dict[str, Any], ...] = (
    {"variant": "points", "players": 2, "riders_per_player": 4},
    {"variant": "points", "players": 5, "riders_per_player": 2, "laps": 3, "tokens": 1},
    {"variant": "elimination", "players": 4, "riders_per_player": 3},
    {"variant": "pursuit"},
    {"variant": "ttt", "riders_per_player": 6},
    {"variant": "sprint", "tokens": 0},
    {"variant": "scratch", "players": 2, "riders_per_player": 6, "max_rounds": 5},
)
CONFIGS = (*HARNESS_CONFIGS, *EXTRA_CONFIGS)


def test_lock_step_games_agree() -> None:
    """Every option set, 6 seeded games each (bench: thousands)."""
    games = steps = 0
    for config in CONFIGS:
        options = PistardOptions.parse(config)
        for seed in range(6):
            steps += fast.lock_step(options, np.random.default_rng([seed, len(config)]))
            games += 1
    assert games == 6 * len(CONFIGS) and steps > 15_000


def test_lock_step_reports_a_difference() -> None:
    """The checker is not blind: a compiled state that differs is named."""
    state = position_state([(11, 10, 2), (21, 9, 3)], mover=11, dice=(6, 2, 4, 3))
    st = fast.encode(state)
    st[fast.DIST] += 1
    with pytest.raises(AssertionError, match="distance"):
        fast.compare(state, st)


def test_random_races_are_seeded_and_finish() -> None:
    options = PistardOptions(players=3, riders_per_player=2)
    state = PistardState(options)
    engine = fast.Engine.of(state)
    st0 = fast.encode(state)
    a = engine.random_races(st0, np.random.default_rng(4), 300)
    b = engine.random_races(st0, np.random.default_rng(4), 300)
    assert np.array_equal(a, b)
    assert (a[:, 0] >= 0).all() and (a[:, 0] < 6).all()  # a rider index wins every race
    assert (a[:, 1] <= options.max_steps(state.track.length)).all()
    # every player wins some of 300 random races
    owners = {int(st0[fast.OWNER + w]) for w in a[:, 0]}
    assert owners == {0, 1, 2}
