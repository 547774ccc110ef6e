"""Hairpin Racers rules: every worked example of the rule text, and our completions."""

from __future__ import annotations

import numpy as np
import pytest

from raceday.core.errors import IllegalActionError, OptionsError
from raceday.core.protocol import CHANCE, TERMINAL
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.rules import (
    BLACK,
    RED,
    HairpinState,
    Rules,
    legal_moves,
    move_name,
    parse_square,
    position_from_text,
    square_name,
)

# The "Hit Available" figure: two red racers on f2 (alone in column f, so they charge
# two spaces) and a black racer on d2; a second black racer on c2 makes the pass jump
# over consecutive black spaces.
HIT = "..bbb./..bb.r2/rrr... r 0-0 0-0 0-0"
# The "Track Loop" figure: a red racer on e3 with three racers in column e.
LOOP = "bbbbr./....b./r.rrr. r 0-0 0-0 0-0"


def names(state: HairpinState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: HairpinState, name: str) -> None:
    state.apply_action(state.string_to_action(name))


def cell(state: HairpinState, square: str) -> int:
    return state.position.cells[parse_square(square)]


# --- the board and the tracks ------------------------------------------------------
def test_squares_are_named_by_column_and_row() -> None:
    assert square_name(0) == "a1" and square_name(5) == "f1"
    assert square_name(11) == "f2" and square_name(17) == "f3"
    assert all(parse_square(square_name(s)) == s for s in range(18))


def test_symmetric_setup_puts_five_racers_nearest_each_start() -> None:
    state = new_game()
    assert state.position_text().split()[0] == ".bbbbb/....../rrrrr."
    assert state.current_player() == RED


def test_first_moves_are_five_cruises_and_five_charges() -> None:
    # Worked by hand: every red racer cruises one space; columns a..e hold 1,2,2,2,2
    # racers, so a1 charges to b1, b1 to d1, c1 to e1, d1 to f1, e1 round the bend to f2.
    assert names(new_game()) == [
        "a1 cruise b1", "a1 charge b1", "b1 cruise c1", "b1 charge d1", "c1 cruise d1",
        "c1 charge e1", "d1 cruise e1", "d1 charge f1", "e1 cruise f1", "e1 charge f2",
    ]


# --- the rule text's examples --------------------------------------------------------
def test_hit_available_f2_charges_two_to_d2_with_bump_or_pass() -> None:
    state = HairpinState.from_text(HIT)
    f2 = [n for n in names(state) if n.startswith("f2")]
    # two racers on f2 are one set of actions, not two
    assert f2 == ["f2 cruise e2", "f2 charge d2 bump", "f2 charge b2 pass"]


def test_hit_and_bump_sends_black_to_the_pit_and_black_must_reenter() -> None:
    state = HairpinState.from_text(HIT)
    play(state, "f2 charge d2 bump")
    assert cell(state, "d2") == 1 and cell(state, "f2") == 1
    assert state.position.pit == (0, 1) and state.position.bumps == (1, 0)
    assert state.current_player() == BLACK
    assert names(state) == ["pit enter f3"]  # black's first empty space
    play(state, "pit enter f3")
    assert cell(state, "f3") == -1
    assert state.current_player() == RED  # "Red then moves again"


def test_hit_and_pass_jumps_the_consecutive_black_spaces() -> None:
    state = HairpinState.from_text(HIT)
    play(state, "f2 charge b2 pass")
    assert cell(state, "d2") == -1 and cell(state, "c2") == -1  # left where they were
    assert cell(state, "b2") == 1 and state.position.pit == (0, 0)
    assert state.current_player() == BLACK


def test_track_loop_cruise_or_charge_over_the_finish_line() -> None:
    state = HairpinState.from_text(LOOP)
    assert [n for n in names(state) if n.startswith("e3")] == ["e3 cruise f3", "e3 charge b1"]
    cruise = state.clone()
    play(cruise, "e3 cruise f3")
    assert cruise.position.laps == (0, 0)
    play(state, "e3 charge b1")  # two spaces past the start line
    assert state.position.laps == (1, 0) and cell(state, "b1") == 1


def test_no_charge_over_the_line_onto_two_opponents() -> None:
    state = HairpinState.from_text("..bbr./....b./rb2rrr. r 0-0 0-0 0-0")
    assert [n for n in names(state) if n.startswith("e3")] == ["e3 cruise f3"]


def test_random_setup_roll_of_two_places_b1_and_e3() -> None:
    state = new_game({"variant": "random"})
    assert state.current_player() == CHANCE
    state.apply_action(2)
    assert cell(state, "b1") == 1 and cell(state, "e3") == -1


def test_random_setup_rerolls_sixes_and_may_stack() -> None:
    rng = np.random.default_rng(7)
    seen_six = seen_stack = False
    for _ in range(60):
        state = new_game({"variant": "random"})
        while state.current_player() == CHANCE:
            draw = state.sample_chance(rng)
            assert 1 <= draw.outcome <= 5 and draw.detail is not None
            assert draw.detail["dice"][-1] == draw.outcome
            seen_six |= 6 in draw.detail["dice"]
            state.apply_action(draw.outcome, draw.detail)
        assert sum(c for c in state.position.cells if c > 0) == 5
        seen_stack |= max(state.position.cells) > 1
    assert seen_six and seen_stack


def test_random_setup_is_mirrored() -> None:
    state = new_game({"variant": "random"})
    for roll in (1, 1, 3, 5, 5):
        state.apply_action(roll)
    assert state.position_text().split()[0] == ".b2.b.b2/....../r2.r.r2."
    # exact: red a1 x2, c1, e1 x2; black f3 x2, d3, b3 x2
    assert cell(state, "a1") == 2 and cell(state, "c1") == 1 and cell(state, "e1") == 2
    assert cell(state, "f3") == -2 and cell(state, "d3") == -1 and cell(state, "b3") == -2
    assert state.current_player() == RED


# --- moving --------------------------------------------------------------------------
def test_cruise_passes_over_opponent_spaces() -> None:
    state = HairpinState.from_text("..bbb./rr..../rbb.r2. r 0-0 0-0 0-0")
    assert "a1 cruise d1" in names(state)


def test_charge_counts_both_colours_in_the_column() -> None:
    # column b holds red b1, black b2, black b3: three racers, so b1 charges to e1
    state = HairpinState.from_text("bbb..b/.b..../rr..r2r r 0-0 0-0 0-0")
    assert "b1 charge e1" in names(state)


def test_pit_entry_skips_opponent_spaces() -> None:
    state = HairpinState.from_text("b..b2b./....../b.rrrr r 0-0 0-1 1-0")
    assert names(state) == ["pit enter b1"]


def test_a_stack_moves_one_racer() -> None:
    state = HairpinState.from_text(".bbbbb/....../r3r.r.. r 0-0 0-0 0-0")
    play(state, "a1 cruise b1")
    assert cell(state, "a1") == 2 and cell(state, "b1") == 2


# --- ending --------------------------------------------------------------------------
def test_fifth_lap_wins() -> None:
    state = HairpinState.from_text(".bbbbr/b...../..rrrr r 4-0 0-0 0-0")
    assert state.current_player() == RED
    play(state, "f3 cruise a1")
    assert state.current_player() == TERMINAL
    assert state.outcome().winner == RED and state.returns() == [1.0, 0.0]


def test_fifth_bump_loses() -> None:
    state = HairpinState.from_text(HIT.replace("0-0 0-0 0-0", "0-0 4-0 0-0"))
    play(state, "f2 charge d2 bump")
    assert state.is_terminal() and state.outcome().winner == BLACK
    assert "disqualified" in state.outcome().description


def test_short_game_ends_at_three() -> None:
    short = Rules.from_variant("short")
    state = HairpinState.from_text(HIT.replace("0-0 0-0 0-0", "0-0 2-0 0-0"), short)
    play(state, "f2 charge d2 bump")
    assert state.is_terminal() and state.outcome().winner == BLACK
    with pytest.raises(OptionsError):
        HairpinState.from_text(HIT.replace("0-0 0-0 0-0", "4-0 0-0 0-0"), short)


def test_lap_and_fifth_bump_together_is_a_win() -> None:
    # Our completion: the lap is scored as the racer crosses the line, before it lands.
    state = HairpinState.from_text("bbb.r./....b./rbrrr. r 4-0 4-0 0-0")
    assert "e3 charge b1 bump" in names(state)
    play(state, "e3 charge b1 bump")
    assert state.outcome().winner == RED


def test_bumping_disallowed_leaves_only_the_pass() -> None:
    state = HairpinState.from_text(HIT, Rules.from_variant("nobump"))
    assert [n for n in names(state) if n.startswith("f2")] == ["f2 cruise e2",
                                                                "f2 charge b2 pass"]


def test_derby_laps_do_not_end_it_and_five_bumps_win() -> None:
    derby = Rules.from_variant("derby")
    state = HairpinState.from_text(".bbbbr/b...../..rrrr r 5-0 0-0 0-0", derby)
    assert not state.is_terminal()
    state = HairpinState.from_text(HIT.replace("0-0 0-0 0-0", "0-0 4-0 0-0"), derby)
    play(state, "f2 charge d2 bump")
    assert state.outcome().winner == RED


def test_derby_draws_after_the_quiet_limit() -> None:
    derby = Rules.from_variant("derby")
    state = HairpinState.from_text(LOOP + " 99 150", derby)
    play(state, "e3 cruise f3")
    assert state.is_terminal() and state.outcome().winner is None
    assert state.returns() == [0.5, 0.5]
    bump = HairpinState.from_text(HIT + " 99 150", derby)
    play(bump, "f2 charge d2 bump")
    assert not bump.is_terminal() and bump.position.clock == 0


def test_derby_cannot_forbid_bumping() -> None:
    with pytest.raises(OptionsError):
        new_game({"variant": "derby+nobump"})


def test_v1_allows_only_charges_when_one_is_possible() -> None:
    state = HairpinState.from_text(HIT, Rules.from_variant("v1"))
    assert all(" charge " in n for n in names(state))


def test_v1_skips_when_only_the_opponent_can_charge() -> None:
    # Red's stack on a1 charges five onto a black pair on f1; black can charge.
    v1 = Rules.from_variant("v1")
    state = HairpinState(v1, position_from_text("....b3./....../r5....b2 r 0-0 0-0 0-0", v1))
    assert names(state) == ["skip"]
    play(state, "skip")
    assert state.current_player() == BLACK and state.position.ply == 1


def test_v1_cruises_when_neither_side_can_charge() -> None:
    v1 = Rules.from_variant("v1")
    # every charge of either side lands on a pair (or more) of the other colour:
    # a1 (3 in column) and b1 (2) onto d1; d1 (2) and e1 (3) onto b1
    state = HairpinState.from_text("....../....../r3r2.b2b3. r 0-0 0-0 0-0", v1)
    assert names(state) == ["a1 cruise b1", "b1 cruise c1"]


# --- names and errors ----------------------------------------------------------------
def test_every_action_name_maps_back() -> None:
    state = HairpinState.from_text(HIT)
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
    assert state.string_to_action("  F2 Charge   D2 BUMP ") == state.legal_actions()[
        names(state).index("f2 charge d2 bump")
    ]


def test_illegal_names_are_refused_with_a_reason() -> None:
    state = HairpinState.from_text(HIT)
    with pytest.raises(IllegalActionError, match="f2 can play"):
        state.string_to_action("f2 charge c2 bump")
    with pytest.raises(IllegalActionError, match="no racer on d2"):
        state.string_to_action("d2 cruise e2")
    with pytest.raises(IllegalActionError):
        state.string_to_action("fly away")


def test_moves_are_unique_and_never_land_on_two_opponents() -> None:
    rng = np.random.default_rng(3)
    rules = Rules()
    state = new_game()
    while not state.is_terminal():
        moves = legal_moves(state.position, rules)
        assert len({move_name(m) for m in moves}) == len(moves)
        sign = 1 if state.position.side == RED else -1
        for m in moves:
            if m.dest >= 0:
                assert state.position.cells[m.dest] * sign >= -1
        state.apply_action(state.legal_actions()[int(rng.integers(len(moves)))])


def test_v1_pit_entry_is_unchanged() -> None:
    state = HairpinState.from_text("b..b2b./....../b.rrrr r 0-0 0-1 1-0", Rules.from_variant("v1"))
    assert names(state) == ["pit enter b1"]


def test_events_report_laps_bumps_and_the_result() -> None:
    state = HairpinState.from_text("bbb.r./....b./rbrrr. r 4-0 4-0 0-0")
    events = state.apply_action(state.string_to_action("e3 charge b1 bump"))
    kinds = [e.kind for e in events]
    assert kinds == ["move", "lap", "bump", "result"]
    assert events[0]["hit"] == "b1" and events[0]["choice"] == "bump"
    assert events[-1]["winner"] == "red"


def test_v1_refuses_a_cruise_with_the_reason() -> None:
    state = HairpinState.from_text("....b3./....../r5....b2 r 0-0 0-0 0-0",
                                   Rules.from_variant("v1"))
    with pytest.raises(IllegalActionError, match="v1: cruising only when neither"):
        state.string_to_action("a1 cruise b1")


def test_setup_die_sampler_matches_the_stated_probabilities() -> None:
    """sample_chance (a d6 re-rolled on six) against chance_outcomes (1/5 each): every
    face's share of 5,000 fixed-seed draws lies in its 99.9% Wilson interval."""
    from raceday.analysis.stats import wilson_interval

    state = new_game({"variant": "random"})
    assert [p for _, p in state.chance_outcomes()] == [pytest.approx(0.2)] * 5
    rng = np.random.default_rng(12)
    draws = [state.sample_chance(rng).outcome for _ in range(5000)]
    for face in range(1, 6):
        low, high = wilson_interval(draws.count(face), len(draws), 0.999)
        assert low <= 0.2 <= high
