"""The Game shape: typed options, one Outcome/returns meaning, and a sixth game that passes
the conformance harness (the example of docs/adding-a-game.md)."""

from __future__ import annotations

import numpy as np
import pytest

from raceday.core import registry
from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.registry import all_games, get_game, register
from raceday.core.serialize import dumps_state, loads_state
from raceday.testing import check_random_games
from tests.fixtures.sprint import GAME as SPRINT
from tests.fixtures.sprint import SprintOptions


def test_the_sixth_game_passes_the_harness() -> None:
    assert check_random_games(SPRINT) == 2000


def test_options_are_checked_with_one_line_errors() -> None:
    assert SPRINT.options({"goal": 20}).goal == 20
    assert SPRINT.options().goal == 12
    with pytest.raises(OptionsError, match=r"Sprint option goal: must be from \d+ to 100, got 101"):
        SPRINT.options({"goal": 101})
    with pytest.raises(OptionsError, match="unknown Sprint option 'speed'"):
        SPRINT.options({"speed": 3})
    with pytest.raises(OptionsError, match="must be a mapping"):
        SprintOptions.parse(12)  # type: ignore[arg-type]
    opts = SPRINT.options({"goal": 7})
    assert SprintOptions.parse(opts.to_json()) == opts and SprintOptions.parse(opts) is opts


def test_returns_follow_the_outcome_for_every_player() -> None:
    record = SPRINT.play({"goal": 5}, rng=4)
    state = record.final_state
    outcome = state.outcome()
    assert outcome.winner == outcome.ranking[0] and outcome.winning_players == (outcome.winner,)
    returns = state.returns()
    assert returns[outcome.winner or 0] == 1.0 and sum(returns) == 1.0
    assert "reaches square 5" in outcome.description


def test_play_is_seeded_and_str_draws_the_board() -> None:
    a = SPRINT.play(rng=np.random.default_rng(11)).log_text()
    b = SPRINT.play(rng=11).log_text()
    assert a == b
    state = SPRINT.new_state({"goal": 4})
    assert str(state).splitlines() == ["P1 @....", "P2 @...."]
    assert "player 0 to act" in repr(state)


def test_states_are_unhashable_and_clones_independent() -> None:
    state = SPRINT.new_state()
    with pytest.raises(TypeError):
        hash(state)
    twin = state.clone()
    twin.apply_action(0)
    assert twin != state and state.squares == [0, 0]


def test_registry_names_and_saves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    register(SPRINT)
    assert get_game("sprint") is SPRINT
    state = SPRINT.new_state({"goal": 9})
    state.apply_action(1)
    assert loads_state(dumps_state(state)) == state
    with pytest.raises(SaveFormatError):
        SPRINT.state_from_json({"options": {"goal": 9}, "squares": [0], "to_move": 0,
                                "throwing": False})
    with pytest.raises(OptionsError, match="unknown game 'chess'"):
        get_game("chess")


def test_every_shipped_game_is_a_game_with_credits() -> None:
    names = {g.name for g in all_games()}
    assert names == {"keirin", "derby", "hairpin", "pistard", "wielersim"}
    for game in all_games():
        assert game.title and game.designer


def test_options_built_directly_also_raise_options_error() -> None:
    with pytest.raises(OptionsError, match="Sprint option goal"):
        SprintOptions(goal=1)
    assert SprintOptions(goal=3).goal == 3
