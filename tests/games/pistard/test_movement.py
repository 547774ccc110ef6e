"""Movement rules: pip costs, one direction of lane change, blocking, compulsion, tokens,
race order, placement and the finish."""

from __future__ import annotations

import numpy as np
import pytest

from raceday.core.errors import IllegalActionError
from raceday.core.protocol import CHANCE
from raceday.games.pistard.moves import PLACE_BASE, START_ZONE, action_from_dice, dice_from_action
from raceday.games.pistard.state import new_race, position_state
from raceday.games.pistard.track import LANES, colour_index

Y, G, B, R = (colour_index(c) for c in ("yellow", "green", "blue", "red"))


def all_colour_dests(state, value):  # type: ignore[no-untyped-def]
    """Destinations reachable with ``value`` pips whatever the colour (the union of colours:
    every column holds every colour, so this is the geometric reach)."""
    return sorted({d for c in range(4) for d in state.moves_with(c, value)})


def test_pip_costs_from_the_inner_lane() -> None:
    # inner lane, 6 pips: straight 6; one lane out = 4 straight + 1 diagonal (2 pips) = 5
    # columns; two lanes out = 4 columns; three lanes out = 3 columns
    state = position_state([(11, 10, 1)], mover=11, dice=(1, 1, 1, 1))
    assert all_colour_dests(state, 6) == [(3, 4), (4, 3), (5, 2), (6, 1)]


def test_pip_costs_from_the_outer_lane() -> None:
    # inward diagonals cost nothing extra: every lane of the column 6 ahead
    state = position_state([(11, 10, 4)], mover=11, dice=(1, 1, 1, 1))
    assert all_colour_dests(state, 6) == [(6, 1), (6, 2), (6, 3), (6, 4)]


def test_one_pip_cannot_go_outwards() -> None:
    state = position_state([(11, 10, 2)], mover=11, dice=(1, 1, 1, 1))
    assert all_colour_dests(state, 1) == [(1, 1), (1, 2)]
    assert all_colour_dests(state, 2) == [(1, 3), (2, 1), (2, 2)]


def test_colour_or_behind_a_rider_required() -> None:
    state = position_state([(11, 10, 1)], mover=11, dice=(1, 1, 1, 1))
    col = state.track.colour(13, 1)
    assert (3, 1) in state.moves_with(col, 3)
    other = next(c for c in range(4) if c != col)
    # other colours only reach (3, 1) if ... nothing: the square is not theirs
    assert (3, 1) not in state.moves_with(other, 3)
    # with a rider just ahead of that square, any colour may end there
    sheltered = position_state([(11, 10, 1), (21, 14, 1)], mover=11, dice=(1, 1, 1, 1))
    assert (3, 1) in sheltered.moves_with(other, 3)


def test_no_passing_through_or_onto_riders() -> None:
    # a full column two ahead: only the squares directly behind it can be reached
    riders = [(11, 10, 2), *[(21 + k, 12, k + 1) for k in range(LANES)]]
    state = position_state(riders, mover=11, dice=(6, 6, 6, 6))
    assert all_colour_dests(state, 6) == []
    state = position_state(riders, mover=11, dice=(1, 1, 1, 1))
    assert all_colour_dests(state, 1) == [(1, 1), (1, 2)]
    assert all(m.behind or m.ahead == 1 for m in state.move_table().values())


def test_must_move_when_a_move_exists_and_no_stay_offered() -> None:
    state = position_state([(11, 10, 4), (21, 0, 1)], mover=11, dice=(6, 6, 6, 6))
    assert state.stay_action() not in state.legal_actions()
    assert state.legal_actions()


def test_rider_without_a_move_stays_and_play_goes_on() -> None:
    # a full column right in front of rider 11 blocks every step
    riders = [(11, 10, 2), (21, 11, 1), (22, 11, 2), (23, 11, 3), (24, 11, 4)]
    state = position_state(riders)
    state.mover = next(i for i, r in enumerate(state.riders) if r.ident == 11)
    state.to_move = [i for i in state.to_move if i != state.mover]
    assert state.current_player() == CHANCE
    events = state.apply_action(action_from_dice((6, 5, 4, 3)))
    kinds = [e.kind for e in events]
    assert "no_move" in kinds
    assert state.riders[state.mover if state.mover is not None else 0] is not None
    rider = next(r for r in state.riders if r.ident == 11)
    assert (rider.dist, rider.lane) == (10, 2)


def test_token_only_moves_may_be_declined_and_spend_one_token() -> None:
    # 11 in lane 1 with 21 right in front and four 1s: no plain move (one pip cannot go
    # outwards); a token makes a 2, enough for one diagonal step outwards.
    riders = [(11, 10, 1), (21, 11, 1)]
    state = position_state(riders, mover=11, dice=(1, 1, 1, 1), tokens=3)
    assert not [m for m in state.move_table().values() if not m.token]
    actions = state.legal_actions()
    assert actions[0] == state.stay_action() and len(actions) == 2
    assert state.move_table()[actions[1]].lane == 2
    declined = state.clone()
    declined.apply_action(declined.stay_action())
    assert declined.tokens == [3, 3]
    state.apply_action(actions[1])
    assert state.tokens == [2, 3]
    tokenless = position_state(riders, mover=11, dice=(1, 1, 1, 1), tokens=0)
    assert tokenless.move_table() == {} and not tokenless.legal_actions()


def test_token_spent_and_counted() -> None:
    state = position_state([(11, 10, 4)], mover=11, dice=(1, 1, 1, 1), tokens=3)
    token_moves = [a for a, m in state.move_table().items() if m.token]
    assert token_moves, "raising a 1 to 2 gives new squares two ahead"
    assert all(m.value == 2 for m in state.move_table().values() if m.token)
    state.apply_action(token_moves[0])
    assert state.tokens[0] == 2


def test_race_order_furthest_first_inner_lane_first() -> None:
    state = position_state([(11, 5, 4), (12, 7, 3), (21, 5, 2), (22, 7, 4)])
    order = [state.riders[i].ident for i in state.race_order()]
    assert order == [12, 22, 21, 11]


def test_dice_encoding_round_trips() -> None:
    for action in (0, 1, 215, 777, 1295):
        assert action_from_dice(dice_from_action(action)) == action
    assert dice_from_action(action_from_dice((3, 6, 2, 5))) == (3, 6, 2, 5)


def test_chance_node_is_uniform_over_1296_throws() -> None:
    state = position_state([(11, 10, 4)], mover=11)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6**4
    assert sum(p for _, p in outcomes) == 1


def test_placement_only_behind_the_line_on_free_squares() -> None:
    state = new_race({"players": 2, "riders_per_player": 3})
    actions = state.placement_actions()
    assert len(actions) == START_ZONE * LANES
    state.apply_action(PLACE_BASE + 10 * 1 + 4)
    assert PLACE_BASE + 10 * 1 + 4 not in state.legal_actions()
    assert state.current_player() == 1  # players place in turn
    with pytest.raises(IllegalActionError):
        state.apply_action(PLACE_BASE + 10 * 1 + 4)
    with pytest.raises(IllegalActionError):
        state.apply_action(PLACE_BASE + 10 * (START_ZONE + 1) + 1)


def _finish_round(state, moves):  # type: ignore[no-untyped-def]
    """Play the current round with fixed dice and a chooser (ident -> (ahead, lane))."""
    while state.phase == "race" and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(action_from_dice((6, 6, 6, 6)))
            continue
        ident = state.riders[state.mover].ident
        ahead, lane = moves[ident]
        action = next(a for a, m in state.move_table().items()
                      if (m.ahead, m.lane) == (ahead, lane) and not m.token)
        state.apply_action(action)
        if state.to_move == [] and state.mover is None:
            break


def test_finish_round_completed_furthest_past_wins_inner_lane_on_ties() -> None:
    length = 56
    # 11 crosses first (moves first); 21 moves later in the same round and goes further;
    # 12 ends level with 21 but in an outer lane.
    state = position_state([(11, length - 2, 4), (21, length - 3, 3), (12, length - 3, 4)])
    state.to_move = state.race_order()
    state.mover = state.to_move.pop(0)
    _finish_round(state, {11: (6, 4), 21: (6, 3), 12: (6, 4)})
    assert state.is_terminal()
    assert [state.riders[i].ident for i in state.ranking][:1] == [11]
    # now a tie: 21 and 12 both 3 past the line; 21 is inner and ranks first
    ranking = [state.riders[i].ident for i in state.ranking]
    assert ranking.index(21) < ranking.index(12)


def test_round_cap_ends_every_race() -> None:
    state = new_race({"players": 2, "riders_per_player": 1, "max_rounds": 2})
    rng = np.random.default_rng(1)
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            state.apply_action(draw.outcome, draw.detail)
        else:
            state.apply_action(state.legal_actions()[0])
        steps += 1
    assert state.round <= 2 and state.stopped
