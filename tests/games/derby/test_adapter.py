"""Dice Derby's research adapter drives the evening itself: dense ids that map back to the
evening's actions, utilities within the declared range, and a bettor's sealed bid and
tickets never in another bettor's tensor or strings."""

from __future__ import annotations

import numpy as np

from raceday.core.discovery import face
from raceday.core.protocol import State
from raceday.games.derby.adapter import ADAPTER
from raceday.games.derby.evening import EveningState

PARAMS = ADAPTER.check_params({"bettors": 3, "fall_rate": 0.1})
SHAPE = ADAPTER.shape(PARAMS)


def seen(state: State, player: int) -> tuple[list[float], str, str]:
    out = np.zeros(SHAPE.obs_size)
    ADAPTER.observe(state, player, out)
    return (out.tolist(), ADAPTER.observation_string(state, player),
            ADAPTER.information_string(state, player))


def test_the_adapter_is_found_from_the_game() -> None:
    module = face("derby", "adapter")
    assert module is not None and module.ADAPTER is ADAPTER


def test_random_evenings_keep_ids_utilities_and_sizes_straight() -> None:
    rng = np.random.default_rng(9)
    for _ in range(3):
        state = ADAPTER.new_state(PARAMS)
        steps = 0
        while not state.is_terminal():
            steps += 1
            if state.is_chance_node():
                ids, probs = zip(*ADAPTER.chance_ids(state), strict=True)
                ADAPTER.apply_id(state, int(rng.choice(ids, p=probs)))
                continue
            legal = ADAPTER.legal_ids(state)
            assert legal and max(legal) < SHAPE.num_actions
            for i in legal:
                assert ADAPTER.action_id(state, ADAPTER.engine_action(state, i)) == i
            ADAPTER.apply_id(state, int(rng.choice(legal)))
        assert steps <= SHAPE.max_length
        utilities = ADAPTER.utilities(state)
        assert len(utilities) == 3
        assert all(SHAPE.min_utility <= u <= SHAPE.max_utility for u in utilities)


def test_a_sealed_bid_and_tickets_stay_with_their_bettor() -> None:
    low, high = ADAPTER.new_state(PARAMS), ADAPTER.new_state(PARAMS)
    ADAPTER.apply_id(low, 2 + 1)  # bettor 0 bids one unit, or six
    ADAPTER.apply_id(high, 2 + 6)
    for other in (1, 2, -1):
        assert seen(low, other) == seen(high, other)
    assert seen(low, 0) != seen(high, 0)
    # tickets: everyone passes the auction alike, then bettor 0 buys one ticket or another
    low, high = ADAPTER.new_state(PARAMS), ADAPTER.new_state(PARAMS)
    for state in (low, high):
        assert isinstance(state, EveningState)
        while state.phase == "auction":
            ADAPTER.apply_id(state, 2)
    units = int(PARAMS["start_money"]) // int(PARAMS["stake_unit"])
    ADAPTER.apply_id(low, 3 + units + 0 * units)  # a win ticket on the d4 for one unit ...
    ADAPTER.apply_id(high, 3 + units + 20 * units + 2)  # ... or a quinella d12-d20 for three
    for other in (1, 2, -1):
        assert seen(low, other) == seen(high, other)
    assert seen(low, 0) != seen(high, 0)
