"""Dice Derby in the one Game shape: options, registration, outcome, pictures, old names."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from raceday.core.errors import BetError, OptionsError, RacedayError, SaveFormatError
from raceday.core.registry import get_game
from raceday.games.derby import GAME, DerbyGame, DerbyOptions, DerbyState, new_race, rules, session


def _finished(options: dict[str, object], seed: int) -> DerbyState:
    state = GAME.play(options, rng=seed).final_state
    assert isinstance(state, DerbyState) and state.is_terminal()
    return state


def test_the_registered_game_is_the_package_game() -> None:
    assert get_game("derby") is GAME and isinstance(GAME, DerbyGame)
    assert GAME.players == (0, 0) and GAME.Options is DerbyOptions
    assert GAME.harness_games >= 1000 and len(GAME.harness_configs) == 4


def test_old_names_still_work_as_the_same_objects() -> None:
    assert rules.DerbyRaceState is DerbyState  # web/derby_room.py imports the old name
    assert session.BetError is BetError and issubclass(BetError, RacedayError)
    assert isinstance(rules.DerbyRaceState(), DerbyState)


@pytest.mark.parametrize("raw", [0, "0", 0.05, "0.05", "1/20", Fraction(1, 20), "1/2"])
def test_the_fall_rate_is_exact_and_kept_as_text_in_json(raw: object) -> None:
    options = DerbyOptions.parse({"fall_rate": raw})
    assert options.fall_rate == Fraction(str(raw))
    text = options.to_json()
    assert text == {"fall_rate": str(Fraction(str(raw)))}
    assert DerbyOptions.parse(json.loads(json.dumps(text))) == options
    assert DerbyOptions(raw) == options == DerbyOptions(fall_rate=raw)  # alone or by name


@pytest.mark.parametrize(
    ("raw", "words"),
    [({"fall_rate": "x"}, ["fall_rate", "0.05 or 1/20"]),
     ({"fall_rate": 0.6}, ["fall_rate", "between 0 and 1/2"]),
     ({"fall_rate": "-1/10"}, ["fall_rate", "between 0 and 1/2"]),
     ({"fall_rate": True}, ["fall_rate", "from 0 to 1/2"]),
     ({"falls": 1}, ["unknown", "falls"])],
)
def test_a_bad_option_is_an_options_error_naming_it(raw: dict[str, object],
                                                      words: list[str]) -> None:
    with pytest.raises(OptionsError) as info:
        GAME.new_state(raw)
    for word in words:
        assert word in str(info.value)


def test_a_save_with_a_bad_fall_rate_is_a_save_format_error() -> None:
    data = new_race().to_json()
    data["options"] = {"fall_rate": "3/4"}
    with pytest.raises(SaveFormatError, match="fall"):
        GAME.state_from_json(data)


def test_outcome_ranks_by_place_with_no_players() -> None:
    for seed in range(30):
        state = _finished({"fall_rate": "1/2"}, seed)
        out = state.outcome()
        assert out.ranking == tuple(state.ranking()) and out.winner == out.ranking[0]
        assert out.score_name == "place" and out.scores[out.winner] == 1
        places = [out.scores[p] for p in out.ranking]
        assert places == sorted(places)  # best first, dead heats share a place
        assert out.winning_players == () and state.returns() == []
    assert GAME.max_steps() == rules.STEP_BOUND


def test_the_state_prints_every_horse_as_plain_text() -> None:
    state = new_race()
    assert "furlong 1" in repr(state) and "1  d4  rolls next" in str(state)
    state.enter_roll(3)
    assert "1  d4  shows 3" in str(state) and "2  d6  rolls next" in str(state)
    done = _finished({}, 7)
    lines = str(done).splitlines()[1:]
    assert len(lines) == 6 and "\x1b" not in str(done)
    winner = done.outcome().winner
    assert lines[winner - 1].endswith("1st") and "over" in repr(done)


def test_clones_move_on_their_own() -> None:
    state = new_race({"fall_rate": "0.3"})
    state.enter_roll(2)
    twin = state.clone()
    assert twin == state
    before = state.to_json()
    twin.enter_roll(None)
    assert state.to_json() == before and twin != state


def test_simulation_progress_is_done_and_total() -> None:
    from raceday.games.derby.fast import simulate_odds

    calls: list[tuple[int, int]] = []
    simulate_odds(2_500, np.random.default_rng(1), chunk=1_000,
                  progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1_000, 2_500), (2_000, 2_500), (2_500, 2_500)]
