"""KEIRIN in the one Game shape: options, registration, outcome, pictures, clones."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.registry import get_game
from raceday.games.keirin import GAME, KeirinGame, KeirinOptions, KeirinState, new_race
from raceday.present.pictures import text_picture


def _finished(options: dict[str, object], seed: int) -> KeirinState:
    state = GAME.play(options, rng=seed).final_state
    assert isinstance(state, KeirinState) and state.is_terminal()
    return state


def test_the_registered_game_is_the_package_game() -> None:
    assert get_game("keirin") is GAME and isinstance(GAME, KeirinGame)
    assert GAME.players == (0, 0) and GAME.Options is KeirinOptions
    assert GAME.harness_games >= 1000 and len(GAME.harness_configs) >= 4


def test_the_game_plays_a_race_to_the_end_within_its_bound() -> None:
    record = GAME.play({"riders": 6}, rng=5)
    assert record.final_state.is_terminal()
    assert len(record.final_state.outcome().ranking) == 6
    assert GAME.max_steps({"riders": 6}) == KeirinOptions(riders=6).max_steps()


def test_options_parse_round_trip_and_keep_the_old_ranges() -> None:
    options = KeirinOptions.parse({"riders": 7, "length": 100, "derny": 12})
    assert KeirinOptions.parse(options.to_json()) == options
    assert json.loads(json.dumps(options.to_json())) == {"riders": 7, "length": 100,
                                                         "derny": 12}
    assert KeirinOptions.parse({}) == KeirinOptions()
    assert KeirinOptions().max_steps() == KeirinOptions.parse(None).max_steps()


@pytest.mark.parametrize(
    ("raw", "words"),
    [({"riders": 5}, ["riders", "6 to 9", "got 5"]),
     ({"riders": 10}, ["riders", "6 to 9"]),
     ({"riders": True}, ["riders", "whole number"]),
     ({"riders": 9.0}, ["riders", "whole number"]),
     ({"length": 18}, ["length", "19 to 1000", "before the line"]),
     ({"derny": 19}, ["derny", "3 to 18", "got 19"]),
     ({"colour": "red"}, ["unknown", "colour"])],
)
def test_a_bad_option_is_an_options_error_naming_it(raw: dict[str, object],
                                                      words: list[str]) -> None:
    with pytest.raises(OptionsError) as info:
        GAME.new_state(raw)
    for word in words:
        assert word in str(info.value)


def test_a_save_with_bad_options_is_a_save_format_error() -> None:
    data = new_race().to_json()
    data["options"] = {"riders": 12, "length": 50, "derny": None}
    with pytest.raises(SaveFormatError, match="riders"):
        GAME.state_from_json(data)


def test_outcome_is_the_order_of_arrival_with_no_players() -> None:
    state = _finished({"riders": 8}, 4)
    out = state.outcome()
    assert sorted(out.ranking) == list(range(1, 9)) and out.winner == out.ranking[0]
    assert out.ranking == tuple(state.ranked)
    assert out.winning_players == () and state.returns() == []
    # order of arrival decides: no single number does (see KeirinState.outcome)
    assert out.scores == {} and out.score_name == ""
    past = state.squares_past(out.winner)
    assert past >= 0 and f"rider {out.winner} wins, {past} square" in out.description


def test_squares_past_cannot_rank_a_race_alone() -> None:
    """Why scores are empty: in some race a later rider lands further past the line than
    an earlier one (it crossed in a later turn)."""
    for seed in range(200):
        state = _finished({}, seed)
        past = [state.squares_past(r) for r in state.ranked]
        if any(b > a for a, b in itertools.pairwise(past)):
            return
    pytest.fail("no race had a later rider further past the line")


def test_the_state_prints_the_track_as_plain_text() -> None:
    state = new_race({"riders": 6, "derny": 9})
    assert "before the derny" in text_picture(state)
    state.apply_action(9)
    text = text_picture(state)
    assert "\x1b" not in text and "┃" in text  # the finish line, no colour codes
    lanes = [line for line in text.splitlines() if line.strip().startswith("R")]
    assert [line.split()[0] for line in lanes] == [f"R{r}" for r in range(1, 7)]
    assert "turn 1" in repr(state) and len(repr(state)) < 100


def test_clones_share_the_options_and_move_on_their_own() -> None:
    state = new_race({"riders": 7})
    rng = np.random.default_rng(3)
    for _ in range(10):
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
    twin = state.clone()
    assert twin == state and twin.options is state.options
    before = state.to_json()
    while not twin.is_terminal():
        draw = twin.sample_chance(rng)
        twin.apply_action(draw.outcome, draw.detail)
    assert state.to_json() == before and twin != state


def test_states_are_not_hashable() -> None:
    with pytest.raises(TypeError):
        hash(new_race())


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_simulation_progress_is_done_and_total(engine: str) -> None:
    from raceday.games.keirin.simulate import simulate

    calls: list[tuple[int, int]] = []
    simulate(KeirinOptions(riders=6), 300, np.random.default_rng(1), engine=engine,
             progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (300, 300)
    assert all(total == 300 for _, total in calls)
    assert [done for done, _ in calls] == sorted({done for done, _ in calls})  # rising
