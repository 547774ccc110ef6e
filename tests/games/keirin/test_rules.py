"""KEIRIN rules, including every worked example of the rule document."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from raceday.core.errors import IllegalActionError, OptionsError, SaveFormatError
from raceday.core.play import play_game
from raceday.core.serialize import dumps_state, loads_state
from raceday.games.keirin.rules import (
    PHASE_OVER,
    PHASE_PHOTO,
    PHASE_RACE,
    KeirinOptions,
    KeirinState,
    derny_distribution,
    new_race,
    starting_positions,
    throw_distribution,
    throw_value,
)


@pytest.mark.parametrize(
    ("dice", "advance"),
    [
        ([2], 3),  # rider 1 throws 2: 1s and 2s count as 3
        ([1, 5], 5),  # rider 2 throws 15
        ([3, 6, 6], 7),  # rider 3 throws 366: the second six adds one
        ([1, 1, 2, 3], 3),  # rider 4 throws 1123
        ([4, 5, 5, 5, 6], 6),  # rider 5 throws 45556
        ([6] * 9, 14),  # nine sixes by rider 9: the highest possible throw
    ],
)
def test_worked_throw_examples(dice: list[int], advance: int) -> None:
    assert throw_value(dice) == advance


@pytest.mark.parametrize(
    ("rider", "mean"),
    [(1, "4.000"), (2, "4.638"), (3, "5.079"), (4, "5.407"), (5, "5.670"), (6, "5.897")],
)
def test_average_advance_table(rider: int, mean: str) -> None:
    exact = throw_distribution(rider).mean()
    # The document truncates to three decimals (R2 is 4.6388…, printed 4.638).
    assert f"{float(exact) - 0.0005:.3f}" == mean or f"{float(exact):.3f}" == mean


def test_r2_distribution_matches_the_documents_counts() -> None:
    # (9*3 + 7*4 + 9*5 + 10*6 + 1*7) / 36
    d = throw_distribution(2)
    assert {v: p * 36 for v, p in d.items()} == {3: 9, 4: 7, 5: 9, 6: 10, 7: 1}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_throw_distribution_equals_enumerating_every_face(n: int) -> None:
    counts: dict[int, int] = {}
    for dice in itertools.product(range(1, 7), repeat=n):
        v = throw_value(dice)
        counts[v] = counts.get(v, 0) + 1
    assert {v: Fraction(c, 6**n) for v, c in counts.items()} == dict(throw_distribution(n).items())


def test_derny_is_3d6() -> None:
    d = derny_distribution()
    assert d[3] == Fraction(1, 216) and d[10] == Fraction(27, 216) and d.mean() == Fraction(21, 2)


def test_setup_example_derny_on_12() -> None:
    state = new_race({})
    events = state.apply_action(12)
    lineup = next(e for e in events if e.kind == "lineup")["positions"]
    # rider 1 on 9, rider 2 on 6, rider 3 on 3, rider 4 on 0 (= 50 of the other half), …
    assert lineup == [9, 6, 3, 0, -3, -6, -9, -12, -15]
    assert [p % 50 for p in lineup] == [9, 6, 3, 0, 47, 44, 41, 38, 35]
    # … then rider 1 takes the derny's square in its slipstream; the others stay.
    assert state.positions == [12, 6, 3, 0, -3, -6, -9, -12, -15]
    assert starting_positions(12, 9) == state.positions


def test_fewer_riders_drop_the_highest_numbers() -> None:
    state = new_race({"riders": 6})
    state.apply_action(10)
    assert len(state.positions) == 6 and state.to_throw == [1, 2, 3, 4, 5, 6]


def test_riders_throw_their_number_of_dice() -> None:
    rng = np.random.default_rng(5)
    state = new_race({"derny": 9})
    state.apply_action(9)
    for rider in range(1, 10):
        draw = state.sample_chance(rng)
        assert draw.detail is not None and len(draw.detail["dice"]) == rider
        assert throw_value(draw.detail["dice"]) == draw.outcome
        state.apply_action(draw.outcome, draw.detail)


def _to_race(positions: list[int], length: int = 50) -> KeirinState:
    """A race at the start of a turn with the riders on ``positions``."""
    state = KeirinState(KeirinOptions(riders=len(positions), length=length))
    state.apply_action(3)
    state.positions = list(positions)
    state.turn_start = list(positions)
    return state


def test_crossing_means_reaching_the_line_square() -> None:
    state = _to_race([47, 30, 20, 10, 0, -10])
    for rider, adv in zip(range(1, 7), [3, 3, 3, 3, 3, 3], strict=True):
        assert state.to_throw[0] == rider
        state.apply_action(adv)
    # rider 1 lands exactly on square 50: that counts as crossing (our completion)
    assert state.ranked == [1]
    assert state.phase == PHASE_RACE and state.to_throw == [2, 3, 4, 5, 6]


def test_furthest_past_the_line_wins_and_turn_is_completed() -> None:
    state = _to_race([48, 44, 46, 10, 0, -10])
    for adv in [3, 6, 7, 3, 3, 3]:
        state.apply_action(adv)
    # R1 crosses first in throwing order (51), but the turn is completed and R3 goes
    # further (53); R2 just reaches the line (50).
    assert state.ranked[:3] == [3, 1, 2]


def test_photo_finish_only_tied_riders_throw_again() -> None:
    state = _to_race([45, 44, 20, 10, 0, -10])
    for adv in [6, 7, 3, 3, 3, 3]:
        state.apply_action(adv)
    assert state.phase == PHASE_PHOTO and state.to_throw == [1, 2]
    state.apply_action(4)  # rider 1
    state.apply_action(4)  # rider 2: still level, they go again
    assert state.phase == PHASE_PHOTO and state.to_throw == [1, 2]
    state.apply_action(3)
    state.apply_action(6)
    assert state.ranked == [2, 1]
    assert state.positions[:2] == [51, 51]  # the photo-finish throw does not move anyone
    assert state.phase == PHASE_RACE and state.to_throw == [3, 4, 5, 6]


def test_places_two_and_three_race_on() -> None:
    state = _to_race([48, 44, 45, 10, 0, -10])
    for adv in [5, 3, 3, 3, 3, 3]:
        state.apply_action(adv)
    assert state.ranked == [1]  # only the winner crossed: he is taken out
    assert state.to_throw == [2, 3, 4, 5, 6]
    for adv in [5, 3, 3, 3, 3]:  # the others race on: R2 to 52, R3 to 51
        state.apply_action(adv)
    assert state.ranked == [1, 2, 3]


def test_full_ranking_and_result() -> None:
    state = new_race({"riders": 6})
    play_game(state, [], np.random.default_rng(11), max_steps=state.options.max_steps())
    assert state.phase == PHASE_OVER
    assert sorted(state.ranked) == [1, 2, 3, 4, 5, 6]
    assert state.outcome().winner == state.ranked[0]


def test_same_seed_same_log_different_seed_differs() -> None:
    def log(seed: int) -> str:
        s = new_race({})
        return play_game(s, [], np.random.default_rng(seed)).log_text()

    assert log(4) == log(4)
    assert log(4) != log(5)


def test_fixed_derny_option() -> None:
    state = new_race({"derny": 18})
    assert state.chance_outcomes() == [(18, Fraction(1))]
    with pytest.raises(IllegalActionError):
        state.apply_action(12)


@pytest.mark.parametrize(
    "options",
    [{"riders": 5}, {"riders": 10}, {"length": 18}, {"length": 5000}, {"derny": 2},
     {"derny": 19}, {"colour": "red"}, {"riders": "nine"}],
)
def test_bad_options_raise(options: dict[str, object]) -> None:
    with pytest.raises(OptionsError):
        new_race(options)


def test_illegal_throw_names_the_action() -> None:
    state = new_race({"derny": 10})
    state.apply_action(10)
    with pytest.raises(IllegalActionError, match="99"):
        state.apply_action(99)  # rider 1 cannot gain 99 squares


def test_save_restore_mid_race() -> None:
    state = new_race({})
    rng = np.random.default_rng(9)
    for _ in range(20):
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
    restored = loads_state(dumps_state(state))
    assert restored == state
    assert isinstance(restored, KeirinState) and restored.to_throw == state.to_throw


@pytest.mark.parametrize(
    "text",
    ["not json", "[]", '{"game": "keirin", "version": 1, "state": {}}',
     '{"game": "keirin", "version": 9, "state": {}}',
     '{"game": "chess", "version": 1, "state": {}}'],
)
def test_bad_saves_raise_save_format_error(text: str) -> None:
    with pytest.raises(SaveFormatError):
        loads_state(text)


def test_action_names_are_readable() -> None:
    state = new_race({})
    assert state.action_to_string(12) == "derny 12"
    state.apply_action(12)
    assert state.string_to_action("rider 1 +5") == 5
