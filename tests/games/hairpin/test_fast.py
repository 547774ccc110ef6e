"""The compiled engine (fast.py) agrees with the reference engine move for move."""

from __future__ import annotations

import numpy as np
import pytest

from raceday.analysis.stats import wilson_interval
from raceday.games.hairpin import fast
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.rules import Rules

ENGINES = {
    # the move generator in action order (gen_moves), and the frame core (used by the
    # playouts and the expert's search), whose moves come in racer order: compared as sets
    "gen_moves": (fast.legal_moves_fast, fast.apply_fast, False),
    "frame core": (fast.frame_moves_list, fast.frame_apply_position, True),
}


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("variant", ["standard", "short+nobump", "derby+random", "v1+random",
                                     "short+v1"])
def test_engines_agree_move_for_move_on_random_games(variant: str, engine: str) -> None:
    moves_of, apply_action, as_set = ENGINES[engine]
    rng = np.random.default_rng(11)
    rules = Rules.from_variant(variant)
    for _ in range(6):
        state = new_game({"variant": variant})
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng).outcome)
                continue
            reference = [(m.action, m.dest, int(m.lap)) for m in state.moves()]
            if as_set:
                reference.sort()
            assert moves_of(state.position, rules) == reference
            action = reference[int(rng.integers(len(reference)))][0]
            expected = apply_action(state.position, rules, action)
            state.apply_action(action)
            assert state.position == expected
        assert moves_of(state.position, rules) == []


def test_compiled_playouts_match_reference_win_rate() -> None:
    """Red's win rate under random play: the compiled playouts (20,000) must fall inside
    the 99.9% Wilson interval of 400 reference-engine random games (fixed seeds)."""
    rng = np.random.default_rng(5)
    red_wins = 0
    plies = []
    games = 400
    for _ in range(games):
        state = new_game()
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
        red_wins += state.outcome().winner == 0
        plies.append(state.position.ply)
    low, high = wilson_interval(red_wins, games, 0.999)
    out = fast.random_playouts(new_game().position, Rules(), np.random.default_rng(6), 20_000)
    assert out[2] == 0 and out[3] == 0  # no draws, nothing unfinished in the standard game
    assert low <= out[0] / 20_000 <= high
    # mean game length: within 5 standard errors of the reference mean
    mean, sd = float(np.mean(plies)), float(np.std(plies))
    assert abs(out[4] / 20_000 - mean) < 5 * sd / np.sqrt(games)


def test_playouts_are_reproducible_from_the_seed() -> None:
    pos, rules = new_game().position, Rules()
    a = fast.random_playouts(pos, rules, np.random.default_rng(1), 200)
    b = fast.random_playouts(pos, rules, np.random.default_rng(1), 200)
    assert list(a) == list(b)


@pytest.mark.parametrize("variant", ["derby", "v1", "short+nobump"])
def test_compiled_playouts_end_every_variant_like_the_reference(variant: str) -> None:
    """Random playouts of other variants: Red's win rate (2,000 compiled games) inside the
    99.9% Wilson interval of 300 reference games (fixed seeds); nothing unfinished."""
    rules = Rules.from_variant(variant)
    rng = np.random.default_rng(8)
    results = []
    for _ in range(300):
        state = new_game({"variant": variant})
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
        results.append(state.outcome().winner)
    out = fast.random_playouts(new_game({"variant": variant}).position, rules,
                               np.random.default_rng(9), 2_000)
    assert out[3] == 0
    for code, label in ((0, 0), (1, 1), (2, None)):
        low, high = wilson_interval(sum(r == label for r in results), 300, 0.999)
        assert low <= out[code] / 2_000 <= high, (variant, code, list(out))
