"""The six race variants: scoring, ends, and our completions where the text is silent."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from raceday.core.errors import OptionsError
from raceday.core.protocol import CHANCE
from raceday.games.pistard.moves import CHOOSE_BASE, MoveInfo, action_from_dice
from raceday.games.pistard.state import PistardState, new_race, position_state
from raceday.games.pistard.variants import LAP_BONUS, OUT

LENGTH = 56
SIXES = (6, 6, 6, 6)


def drive(
    state: PistardState,
    pick: Callable[[PistardState, dict[int, MoveInfo]], int],
    dice: tuple[int, int, int, int] = SIXES,
    max_steps: int = 200,
) -> None:
    """Play with fixed dice; ``pick`` chooses each decision; stops at the end or a new heat."""
    heat = state.heat
    for _ in range(max_steps):
        if state.is_terminal() or state.heat != heat or state.phase != "race":
            return
        if state.current_player() == CHANCE:
            state.apply_action(action_from_dice(dice))
        elif state.mover is None:
            state.apply_action(state.legal_actions()[0])
        else:
            state.apply_action(pick(state, state.move_table()))
    raise AssertionError("drive did not finish")


def straight_furthest(state: PistardState, table: dict[int, MoveInfo]) -> int:
    """The plain move furthest ahead, keeping the lane when possible."""
    assert state.mover is not None
    lane = state.riders[state.mover].lane
    return max((a for a, m in table.items() if not m.token),
               key=lambda a: (table[a].ahead, table[a].lane == lane, -table[a].lane))


def ident_of(state: PistardState, index: int) -> int:
    return state.riders[index].ident


# --- points race --------------------------------------------------------------------------
def test_points_sprint_places_and_double_last_lap() -> None:
    # Six riders near the end of lap 1 of a two-lap points race, all in different lanes or
    # columns; everyone moves six straight ahead (four sixes).
    riders = [(11, 52, 1), (12, 51, 2), (21, 50, 3), (22, 49, 4), (31, 20, 1), (32, 19, 2)]
    state = position_state(riders, variant="points", laps=2)
    drive_one_round(state)
    # crossers this round: 11 (58 -> 2 past), 12 (57 -> 1 past), 21 (56 -> 0 past);
    # 22 reaches 55, not yet over the line
    pts = {ident_of(state, i): state.points[i] for i in range(len(state.riders))}
    assert (pts[11], pts[12], pts[21], pts[22]) == (5, 3, 2, 0)
    drive_one_round(state)  # 22 crosses next round and takes fourth place
    pts = {ident_of(state, i): state.points[i] for i in range(len(state.riders))}
    assert pts[22] == 1
    assert not state.is_terminal()


def test_points_last_lap_is_double_and_ends_the_race() -> None:
    riders = [(11, 110, 1), (12, 109, 2), (21, 108, 3), (22, 107, 4), (31, 100, 1),
              (32, 99, 2)]
    state = position_state(riders, variant="points", laps=2)
    drive_one_round(state)
    pts = {ident_of(state, i): state.points[i] for i in range(len(state.riders))}
    assert (pts[11], pts[12], pts[21], pts[22]) == (10, 6, 4, 2)
    assert state.is_terminal()
    assert state.outcome().ranking[:4] == (11, 12, 21, 22)


def test_points_gaining_a_lap_scores_20_and_keeps_the_square() -> None:
    # the middle of the field is at 10; rider 11 at 64 moves to 70 = 10 + 56 + 4
    riders = [(11, 64, 4), (12, 10, 1), (21, 10, 2), (22, 9, 3), (31, 8, 4), (32, 2, 1)]
    state = position_state(riders, variant="points", laps=3)
    index = next(i for i, r in enumerate(state.riders) if r.ident == 11)
    assert state.mover == index
    state.apply_action(action_from_dice(SIXES))
    square_before = None
    table = state.move_table()
    action = max(table, key=lambda a: (table[a].ahead, table[a].lane))
    dist = state.riders[index].dist + table[action].ahead
    square_before = (dist % LENGTH, table[action].lane)
    events = state.apply_action(action)
    assert "lap_gained" in [e.kind for e in events]
    assert state.points[index] == LAP_BONUS and state.laps_delta[index] == 1
    rider = state.riders[index]
    assert rider.dist == dist - LENGTH
    assert state.square_of(rider) == square_before


def test_points_losing_a_lap_costs_20() -> None:
    riders = [(11, 70, 1), (12, 70, 2), (21, 69, 3), (22, 69, 4), (31, 12, 1), (32, 14, 1)]
    state = position_state(riders, variant="points", laps=3)
    # the middle of the field (lower median) is at 69, so rider 31 at 12 is a full lap
    # behind it (12 <= 69 - 56); the laps are settled after the first move of the round
    state.apply_action(action_from_dice(SIXES))
    state.apply_action(straight_furthest(state, state.move_table()))
    index = next(i for i, r in enumerate(state.riders) if r.ident == 31)
    assert state.points[index] == -LAP_BONUS and state.laps_delta[index] == -1


def drive_one_round(state: PistardState) -> None:
    start = state.rounds_total
    for _ in range(100):
        if state.is_terminal() or state.rounds_total > start:
            return
        if state.current_player() == CHANCE:
            state.apply_action(action_from_dice(SIXES))
        else:
            state.apply_action(straight_furthest(state, state.move_table()))
    raise AssertionError("round did not end")


# --- elimination --------------------------------------------------------------------------
def test_elimination_last_rider_out_level_riders_outer_lane_is_last() -> None:
    # 11 is about to cross; 21 and 12 are level at the back, 12 in the outer lane
    riders = [(11, 54, 1), (21, 10, 2), (12, 10, 3)]
    state = position_state(riders, variant="elimination")
    drive(state, straight_furthest)
    assert state.heat == 2 and state.phase == "place"
    out = state.riders[state.eliminated[0]]
    assert out.ident == 12 and out.status == OUT
    # the heat's winner chooses his starting square first
    assert ident_of(state, state.place_queue[0]) == 11
    assert [ident_of(state, i) for i in state.place_queue] == [11, 21]


def test_elimination_final_heat_ranks_winner_then_eliminated_backwards() -> None:
    state = new_race({"variant": "elimination", "players": 3, "riders_per_player": 1})
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        if state.is_chance_node():
            d = state.sample_chance(rng)
            state.apply_action(d.outcome, d.detail)
        else:
            state.apply_action(state.legal_actions()[-1])
    ranking = state.outcome().ranking
    assert len(ranking) == 3 and state.heat == 2
    eliminated = [ident_of(state, i) for i in state.eliminated]
    assert list(ranking[1:]) == list(reversed(eliminated))


# --- sprint -------------------------------------------------------------------------------
def sprint_state(dist_a: int = 20, dist_b: int = 18) -> PistardState:
    return position_state([(11, dist_a, 4), (21, dist_b, 4)], variant="sprint", tokens=0)


def test_sprint_sur_place_allowed_then_forced_after_two() -> None:
    state = sprint_state()
    a = next(i for i, r in enumerate(state.riders) if r.ident == 11)
    for turn in range(2):
        assert state.mover == a
        state.apply_action(action_from_dice(SIXES))
        assert state.stay_action() in state.legal_actions(), f"turn {turn}"
        state.apply_action(state.stay_action())
        # rider 21 stands still too (he is behind; keep the gap)
        state.apply_action(action_from_dice(SIXES))
        state.apply_action(state.stay_action())
    assert state.stills[a] == 2
    state.apply_action(action_from_dice(SIXES))
    assert state.mover == a and state.stay_action() not in state.legal_actions()


def test_sprint_forced_rider_without_a_move_falls_and_loses() -> None:
    # 11 in lane 1 hemmed in by 21 right in front: his only hope is the dice
    state = position_state([(11, 20, 1), (21, 21, 1)], variant="sprint", tokens=0)
    a = next(i for i, r in enumerate(state.riders) if r.ident == 11)
    b = 1 - a
    state.stills[a] = 2
    state.to_move = [a]
    state.mover = b
    state.dice = None
    # 21 stands still (sur place) ...
    state.apply_action(action_from_dice(SIXES))
    state.apply_action(state.stay_action())
    # ... so 11, forced to move, throws four 1s: one pip cannot leave lane 1 past 21
    assert state.mover == a
    events = state.apply_action(action_from_dice((1, 1, 1, 1)))
    assert "fall" in [e.kind for e in events]
    assert state.is_terminal() and state.outcome().winner == 21


def test_sprint_three_stand_stills_in_a_row_including_forced_ones() -> None:
    state = position_state([(11, 20, 1), (21, 21, 1)], variant="sprint", tokens=0)
    a = next(i for i, r in enumerate(state.riders) if r.ident == 11)
    state.stills[a] = 1
    state.to_move = []
    state.mover = a
    state.dice = None
    events = state.apply_action(action_from_dice((1, 1, 1, 1)))  # no move: still number 2
    assert "no_move" in [e.kind for e in events] and state.stills[a] == 2
    assert not state.is_terminal()


def test_sprint_needs_two_players_one_rider_each() -> None:
    with pytest.raises(OptionsError):
        new_race({"variant": "sprint", "players": 3})
    with pytest.raises(OptionsError):
        new_race({"variant": "sprint", "riders_per_player": 2})


# --- team time trial -------------------------------------------------------------------------
def test_ttt_player_chooses_who_throws_next() -> None:
    state = position_state([(11, 10, 1), (12, 10, 4), (13, 9, 2)], variant="ttt")
    assert state.mover is None and state.current_player() == 0
    names = {state.action_to_string(a) for a in state.legal_actions()}
    assert names == {"next rider 11", "next rider 12", "next rider 13"}
    state.apply_action(CHOOSE_BASE + 12)  # hold 11 back: the outer rider goes first
    assert ident_of(state, state.mover or 0) == 12 and state.current_player() == CHANCE


def test_ttt_ends_when_the_third_rider_crosses() -> None:
    state = position_state([(11, 54, 1), (12, 53, 2), (13, 30, 3)], variant="ttt")
    drive(state, straight_furthest)
    assert not state.is_terminal() or state.team_time() > 1
    assert state.is_terminal()
    # the third rider (13) needs several rounds: the time counts his crossing
    assert state.team_times[0][1] >= 5


# --- team pursuit ----------------------------------------------------------------------------
def test_pursuit_teams_start_half_a_lap_apart() -> None:
    state = new_race({"variant": "pursuit", "riders_per_player": 3})
    rng = np.random.default_rng(3)
    while state.phase == "place":
        state.apply_action(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
    for r in state.riders:
        column, _ = state.square_of(r)
        base = 0 if r.owner == 0 else LENGTH // 2
        assert 1 <= (base - column) % LENGTH <= 6


def test_pursuit_same_number_of_turns_and_third_rider_counts() -> None:
    # team 1's third rider crosses in the same round as team 0's but further past the line
    riders = [(11, 54, 1), (12, 54, 2), (13, 54, 3), (21, 54, 1), (22, 54, 2), (23, 55, 3)]
    state = position_state(riders, variant="pursuit")
    moved: list[int] = []
    for _ in range(100):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(action_from_dice(SIXES))
        elif state.mover is None:
            state.apply_action(state.legal_actions()[0])
        else:
            moved.append(state.riders[state.mover].owner)
            state.apply_action(straight_furthest(state, state.move_table()))
    assert moved == [0, 0, 0, 1, 1, 1]  # team 0 crossed but team 1 still had its turn
    assert state.outcome().winner == 1


def test_elimination_tokens_are_not_renewed_between_heats() -> None:
    riders = [(11, 54, 1), (21, 10, 2), (12, 10, 3)]
    state = position_state(riders, variant="elimination", tokens=3)
    state.tokens = [1, 2]
    drive(state, straight_furthest)
    assert state.heat == 2 and state.tokens == [1, 2]
