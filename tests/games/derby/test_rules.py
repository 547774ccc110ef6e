"""Dice Derby race rules: furlongs, the tie rule, every fall case, options and saving."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from raceday.core.errors import IllegalActionError, OptionsError, SaveFormatError
from raceday.core.events import Event
from raceday.core.play import play_game
from raceday.core.protocol import CHANCE, TERMINAL
from raceday.games.derby.rules import (
    FALL,
    DerbyOptions,
    DerbyState,
    drop_candidate,
    new_race,
    parse_fall_rate,
    parse_horse,
    resolve_round,
)

F = None  # a fall, as a host types it


def play_rounds(state: DerbyState, *rounds: list[int | None]) -> list[Event]:
    """Enter whole rounds: each list gives the numbers of the horses still rolling, in
    post order (d4 first), None for a fall."""
    events: list[Event] = []
    for values in rounds:
        assert len(values) == len(state.to_roll), (values, state.to_roll)
        for v in values:
            events.extend(state.enter_roll(v))
    return events


def places(state: DerbyState) -> dict[str, int]:
    return {f"d{(4, 6, 8, 10, 12, 20)[p - 1]}": v for p, v in state.places.items()}


# --- the basic race ------------------------------------------------------------------------


def test_document_tie_example_d4_and_d8_both_show_1_the_d8_drops() -> None:
    state = new_race()
    events = play_rounds(state, [1, 5, 1, 6, 7, 9])
    assert state.group == [1, 2, 4, 5, 6]
    assert places(state) == {"d8": 6}
    rounds = [e for e in events if e.kind == "round"]
    assert rounds[0]["out"] == ["d8"]


def test_tie_between_two_larger_dice_drops_the_one_with_more_faces() -> None:
    assert drop_candidate({5: 2, 6: 2, 1: 3}) == 6
    assert drop_candidate({1: 2, 2: 2}) == 2
    assert drop_candidate({3: 1}) == 3


def test_host_reveal_example_d6_ties_the_d4_on_3_and_becomes_the_one_to_drop() -> None:
    state = new_race()
    first = state.enter_roll(3)
    assert first[0]["to_drop"] == ["d4"]
    second = state.enter_roll(3)
    assert second[0]["horse"] == "d6" and second[0]["to_drop"] == ["d6"]
    third = state.enter_roll(2)
    assert third[0]["to_drop"] == ["d8"]


def test_five_furlongs_without_falls_give_a_full_order_and_the_last_drop_is_second() -> None:
    state = new_race()
    events = play_rounds(
        state,
        [1, 6, 8, 10, 12, 20],  # d4 drops
        [2, 8, 10, 12, 20],  # d6 shows 2: drops
        [3, 9, 11, 19],  # d8 drops
        [4, 4, 18],  # d10 and d12 tie on 4: the d12 drops
        [5, 6],  # d10 5 < d20 6: the d10 drops in furlong 5 and is 2nd
    )
    assert state.current_player() == TERMINAL
    assert places(state) == {"d4": 6, "d6": 5, "d8": 4, "d12": 3, "d10": 2, "d20": 1}
    assert state.outcome().ranking == (6, 4, 5, 3, 2, 1)
    assert state.first_out() == [1]
    assert [e["round"] for e in events if e.kind == "round"] == [1, 2, 3, 4, 5]
    quinella = [e for e in events if e.kind == "quinella"]
    assert len(quinella) == 1 and quinella[0]["pair"] == ["d10", "d20"]
    # the quinella is known right after furlong 4, before anyone rolls furlong 5
    kinds = [e.kind for e in events]
    assert kinds.index("quinella") < next(i for i, e in enumerate(events)
                                      if e.kind == "roll" and e["round"] == 5)


def test_every_race_without_falls_lasts_exactly_twenty_rolls() -> None:
    for seed in range(30):
        record = play_game(new_race(), [], np.random.default_rng(seed))
        rolls = [e for e in record.events if e.kind == "roll"]
        assert len(rolls) == 6 + 5 + 4 + 3 + 2
        assert sorted(record.final_state.outcome().scores.values()) == [1, 2, 3, 4, 5, 6]


# --- falls ---------------------------------------------------------------------------------


def test_a_fallen_horse_drops_whatever_it_rolled() -> None:
    state = new_race()
    play_rounds(state, [1, 6, 8, 10, 12, F])  # the d20 falls while the d4 shows 1
    assert places(state) == {"d20": 6}
    assert state.group == [1, 2, 3, 4, 5]


def test_several_falls_drop_several_horses_who_share_the_place() -> None:
    state = new_race()
    events = play_rounds(state, [F, 1, 8, F, 12, 20])
    assert places(state) == {"d4": 5, "d10": 5}
    assert state.group == [2, 3, 5, 6]
    assert state.first_out() == [1, 4]
    (rnd,) = [e for e in events if e.kind == "round"]
    assert rnd["ending"] == "falls" and rnd["out"] == ["d4", "d10"]
    assert rnd.to_dict()["kind"] == "round" and rnd.to_dict()["ending"] == "falls"


def test_both_of_the_last_two_falling_means_the_furlong_is_rolled_again() -> None:
    state = new_race()
    play_rounds(state, [1, 6, 8, 10, 12, 20], [1, 8, 10, 12, 20], [1, 9, 11, 19],
                [1, 11, 19])
    assert state.group == [5, 6] and state.round == 5
    events = play_rounds(state, [F, F])
    assert [e.kind for e in events][-1] == "reroll"
    assert state.group == [5, 6] and state.round == 5 and state.rerolls == 1
    assert state.to_roll == [5, 6]
    play_rounds(state, [3, 2])
    assert places(state)["d12"] == 1 and places(state)["d20"] == 2


def test_one_of_the_last_two_falling_makes_the_other_the_winner() -> None:
    state = new_race()
    play_rounds(state, [1, 6, 8, 10, 12, 20], [1, 8, 10, 12, 20], [1, 9, 11, 19],
                [1, 11, 19], [12, F])
    assert places(state)["d12"] == 1 and places(state)["d20"] == 2


def test_two_of_the_last_three_falling_the_third_wins_and_the_fallen_roll_off() -> None:
    state = new_race()
    play_rounds(state, [1, 6, 8, 10, 12, 20], [1, 8, 10, 12, 20], [1, 9, 11, 19])
    assert state.group == [4, 5, 6]
    events = play_rounds(state, [F, 1, F])  # the d12 shows 1 but stays on: it wins
    assert places(state)["d12"] == 1
    assert state.in_rolloff and state.group == [4, 6] and state.to_roll == [4, 6]
    assert [e for e in events if e.kind == "quinella"] == []
    events = play_rounds(state, [7, 3])  # the roll-off: the d20 is lower and drops to 3rd
    assert places(state) == {"d4": 6, "d6": 5, "d8": 4, "d12": 1, "d10": 2, "d20": 3}
    assert state.is_terminal()
    assert [e["pair"] for e in events if e.kind == "quinella"] == [["d10", "d12"]]


def test_a_roll_off_follows_the_fall_rules_too() -> None:
    state = new_race()
    play_rounds(state, [1, 6, 8, 10, 12, 20], [1, 8, 10, 12, 20], [1, 9, 11, 19])
    play_rounds(state, [F, 1, F])
    play_rounds(state, [F, F])  # both fall in the roll-off: roll it again
    assert state.group == [4, 6] and not state.places.get(4)
    play_rounds(state, [F, 2])  # the d10 falls in the roll-off: the d20 is 2nd
    assert places(state)["d20"] == 2 and places(state)["d10"] == 3


def test_our_completion_everyone_falling_in_a_bigger_group_rerolls_the_furlong() -> None:
    state = new_race()
    play_rounds(state, [1, 6, 8, 10, 12, 20], [1, 8, 10, 12, 20], [1, 9, 11, 19])
    events = play_rounds(state, [F, F, F])
    assert events[-1].kind == "reroll" and state.group == [4, 5, 6] and state.round == 4


def test_our_completion_all_but_one_of_six_falling_in_furlong_one() -> None:
    state = new_race()
    play_rounds(state, [F, F, F, F, 1, F])
    assert places(state) == {"d12": 1}
    assert state.group == [1, 2, 3, 4, 6] and state.group_place == 2
    assert state.first_out() == [1, 2, 3, 4, 6]
    # the five fallen race for 2nd: the lowest drops each round as usual
    play_rounds(state, [4, 6, 8, 10, 1], [4, 6, 8, 1], [4, 6, 1], [4, 1])
    assert places(state) == {"d12": 1, "d20": 6, "d10": 5, "d8": 4, "d6": 3, "d4": 2}


def test_resolve_round_kinds() -> None:
    assert resolve_round([1, 2, 3], {1: 2, 2: 2, 3: 5}).out == (2,)
    assert resolve_round([1, 2, 3, 4], {1: None, 2: 2, 3: None, 4: 9}).kind == "falls"
    r = resolve_round([1, 2, 3], {1: None, 2: 2, 3: None})
    assert (r.kind, r.out, r.leader) == ("rolloff", (1, 3), 2)
    assert resolve_round([5, 6], {5: None, 6: None}).kind == "reroll"


# --- chance outcomes, options, host input ---------------------------------------------------


def test_chance_outcomes_are_exact_and_include_the_fall_rate() -> None:
    state = new_race({"fall_rate": 0.1})
    outcomes = dict(state.chance_outcomes())
    assert state.current_player() == CHANCE
    assert outcomes[FALL] == Fraction(1, 10)
    assert outcomes[1] == Fraction(9, 40)  # (1 - 1/10) / 4 faces
    assert sum(outcomes.values()) == 1
    assert FALL not in dict(new_race().chance_outcomes())
    assert state.action_to_string(FALL) == "d4 falls"
    assert state.string_to_action("d4 shows 3") == 3


def test_a_fall_is_not_a_chance_outcome_at_fall_rate_zero_but_a_host_can_enter_one() -> None:
    state = new_race()
    with pytest.raises(IllegalActionError):
        state.apply_action(FALL)
    state.enter_roll(None)
    assert state.rolls == {1: None}


@pytest.mark.parametrize("value", [0, 5, -1])
def test_host_cannot_enter_a_number_the_die_does_not_have(value: int) -> None:
    state = new_race()
    with pytest.raises(IllegalActionError, match="d4 shows 1 to 4"):
        state.enter_roll(value)


def test_fall_rate_parsing_is_exact() -> None:
    assert parse_fall_rate(0.1) == Fraction(1, 10)
    assert parse_fall_rate("1/20") == Fraction(1, 20)
    assert DerbyOptions(fall_rate="0.05").fall_rate == Fraction(1, 20)  # type: ignore[arg-type]
    for bad in ("x", 0.6, -0.1, True):
        with pytest.raises(OptionsError):
            parse_fall_rate(bad)
    with pytest.raises(OptionsError, match="unknown"):
        new_race({"falls": 1})


def test_parse_horse_accepts_posts_and_dice() -> None:
    assert parse_horse("6") == 6 and parse_horse("D20") == 6 and parse_horse(" d8 ") == 3
    for bad in ("7", "d7", "0", "horse"):
        with pytest.raises(OptionsError, match="no horse"):
            parse_horse(bad)


def test_saved_race_round_trips_and_bad_saves_are_refused() -> None:
    state = new_race({"fall_rate": "0.2"})
    play_rounds(state, [F, 1, 8, F, 12, 20])
    state.enter_roll(3)
    again = DerbyState.from_json(state.to_json())
    assert again == state
    broken = state.to_json()
    broken["rolls"] = [[2, 7]]  # the d6 cannot show 7
    with pytest.raises(SaveFormatError):
        DerbyState.from_json(broken)
    broken = state.to_json()
    broken["group"] = [2, 3]
    with pytest.raises(SaveFormatError):
        DerbyState.from_json(broken)
    with pytest.raises(SaveFormatError):
        DerbyState.from_json({"options": {"fall_rate": "2"}})


def test_a_race_has_no_result_before_the_end() -> None:
    from raceday.core.errors import GameNotOverError

    state = DerbyState()
    with pytest.raises(GameNotOverError, match="not over yet"):
        state.outcome()
