"""Every registered game passes the invariant harness (raceday.testing), each of its option
sets a test of its own (so the two workers of ``make test`` share a game's sets)."""

from __future__ import annotations

import pytest

from raceday.core.game import AnyGame
from raceday.core.registry import all_games
from raceday.testing import check_random_games

GAMES = all_games()
CONFIGS = [(game, index) for game in GAMES for index in range(len(game.harness_configs))]


@pytest.mark.parametrize(("game", "config"), CONFIGS,
                         ids=[f"{g.name}-{i}" for g, i in CONFIGS])
def test_random_games_keep_every_invariant(game: AnyGame, config: int) -> None:
    played = check_random_games(game, configs=[config])
    assert played == game.harness_games


def test_every_option_set_of_every_game_is_played() -> None:
    for game in GAMES:
        assert game.harness_games >= 1 and game.harness_configs
        assert sum(1 for g, _ in CONFIGS if g is game) == len(game.harness_configs)


def test_keirin_is_registered_with_at_least_1000_harness_races() -> None:
    keirin = next(g for g in GAMES if g.name == "keirin")
    assert keirin.harness_games * len(keirin.harness_configs) >= 1000


def test_a_chance_distribution_is_summed_again_unless_it_is_the_same_pairs() -> None:
    from fractions import Fraction

    from raceday.testing import InvariantError, _check_distribution, _checked_before

    half = [(70001, Fraction(1, 2)), (70002, Fraction(1, 2))]
    assert not _checked_before(half)
    _check_distribution(half, [a for a, _ in half])
    assert _checked_before(list(half))  # the same pairs handed out again: sound already
    # equal values in new pairs, or one pair changed: checked afresh
    assert not _checked_before([(70001, Fraction(1, 2)), (70002, Fraction(1, 2))])
    short = [half[0], (70002, Fraction(1, 3))]
    assert not _checked_before(short)
    with pytest.raises(InvariantError, match="do not sum to 1"):
        _check_distribution(short, [70001, 70002])
    assert not _checked_before(short)  # a broken one is never taken as sound


def test_the_harness_catches_a_bad_restore_and_a_shared_clone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks fail where they should: a restore that is one move off, and a clone that
    shares its original's insides."""
    import numpy as np

    from raceday.testing import InvariantError, check_clone_independent, check_state

    hairpin = next(g for g in GAMES if g.name == "hairpin")
    state = hairpin.new_state({})
    check_state(state, hairpin)  # sound as it is
    real = hairpin.state_from_json

    def one_move_on(data: object) -> object:
        restored = real(data)
        restored.apply_action(restored.legal_actions()[0])
        return restored

    monkeypatch.setattr(hairpin, "state_from_json", one_move_on)
    with pytest.raises(InvariantError, match="did not round-trip"):
        check_state(state, hairpin)
    monkeypatch.setattr(hairpin, "state_from_json", real)
    monkeypatch.setattr(type(state), "clone", lambda self: self)
    with pytest.raises(InvariantError, match="moving a clone changed the original"):
        check_clone_independent(state, np.random.default_rng(1))
