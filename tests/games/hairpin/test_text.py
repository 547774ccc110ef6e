"""The position text form and saved states round-trip; bad input is refused clearly."""

from __future__ import annotations

import numpy as np
import pytest

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.serialize import dumps_state, loads_state
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.rules import (
    HairpinState,
    Rules,
    position_from_text,
    position_to_text,
)


def test_start_position_text() -> None:
    assert new_game().position_text() == ".bbbbb/....../rrrrr. r 0-0 0-0 0-0 0 0"


@pytest.mark.parametrize("variant", ["standard", "derby+random", "v1+nobump"])
def test_text_round_trips_along_random_games(variant: str) -> None:
    rng = np.random.default_rng(2)
    rules = Rules.from_variant(variant)
    for _ in range(5):
        state = new_game({"variant": variant})
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng).outcome)
                continue
            text = position_to_text(state.position)
            assert position_from_text(text, rules) == state.position
            assert position_to_text(position_from_text(text, rules)) == text
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])


def test_short_form_without_clock_and_ply() -> None:
    pos = position_from_text("..bbb./..bb.r2/rrr... r 0-0 0-0 0-0")
    assert pos.clock == 0 and pos.ply == 0 and pos.cells[11] == 2


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "5 or 7 fields"),
        (".bbbbb/rrrrr. r 0-0 0-0 0-0", "3 rows"),
        (".bbbbb/....../rrrrr r 0-0 0-0 0-0", "6 squares"),
        (".bbbbb/......./rrrrr. r 0-0 0-0 0-0", "more than 6"),
        (".bbbbx/....../rrrrr. r 0-0 0-0 0-0", "unexpected"),
        (".bbbbb/....../rrrrr. w 0-0 0-0 0-0", "side to move"),
        (".bbbbb/....../rrrrr. r 0 0-0 0-0", "laps"),
        (".bbbbb/....../rrrr.. r 0-0 0-0 0-0", "red has 4 racers"),
        (".bbbbb/....../rrrrr. r 6-0 0-0 0-0", "cannot exceed"),
        (".bbbbb/....../rrrrr. r 5-5 0-0 0-0", "both players"),
        (".bbbbb/....../r1rrrr r 0-0 0-0 0-0", "stack count"),
    ],
)
def test_bad_text_is_refused_with_the_reason(text: str, complaint: str) -> None:
    with pytest.raises(OptionsError, match=complaint):
        position_from_text(text)


def test_saved_state_round_trips_including_the_setup() -> None:
    rng = np.random.default_rng(4)
    state = new_game({"variant": "short+random"})
    for _ in range(3):
        state.apply_action(state.sample_chance(rng).outcome)
    again = loads_state(dumps_state(state))
    assert again == state and isinstance(again, HairpinState) and again.in_setup
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng).outcome)
        else:
            state.apply_action(state.legal_actions()[0])
        assert loads_state(dumps_state(state)) == state


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"rules": {"variant": "fast", "quiet_limit": 100}, "setup_rolls": [],
         "setting_up": False, "position": ".bbbbb/....../rrrrr. r 0-0 0-0 0-0 0 0"},
        {"rules": {"variant": "standard", "quiet_limit": 100}, "setup_rolls": [],
         "setting_up": False, "position": "nonsense"},
        {"rules": {"variant": "random", "quiet_limit": 100}, "setup_rolls": [9],
         "setting_up": True, "position": "x"},
    ],
)
def test_bad_saves_raise_save_format_error(data: dict[str, object]) -> None:
    with pytest.raises(SaveFormatError):
        HairpinState.from_json(data)


def test_options_are_checked() -> None:
    with pytest.raises(OptionsError, match="no such variant word"):
        new_game({"variant": "turbo"})
    with pytest.raises(OptionsError, match="unknown Hairpin option"):
        new_game({"laps": 4})
    with pytest.raises(OptionsError, match="standard"):
        new_game({"variant": "standard+short"})
    assert Rules.from_variant("random+v1+short").variant_name() == "short+v1+random"
