"""The compiled riders and the search over the compiled engine (search.py)."""

from __future__ import annotations

import numpy as np

from raceday.games.pistard import fast, search
from raceday.games.pistard.agents import FastSearchRider, GreedyRider, make_agent
from raceday.games.pistard.game import HARNESS_CONFIGS
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.state import position_state as pos


def test_compiled_greedy_scores_equal_the_reference_riders() -> None:
    """MEDIUM_WEIGHTS and EASY_WEIGHTS score every legal action (placements, team order,
    moves, standing still) exactly as GreedyRider does, in every harness option set."""
    medium, easy = GreedyRider(tactical=True), GreedyRider(tactical=False)
    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    checked = 0
    for config in HARNESS_CONFIGS:
        rng = np.random.default_rng(3)
        state = PistardState(PistardOptions.parse(config))
        engine = fast.Engine.of(state)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.integers(fast.THROWS)))
                continue
            legal = state.legal_actions()
            st = fast.encode(state)
            n = fast.legal_actions(st, engine.params, engine.grid, acts, info)
            assert n == len(legal)
            for k, action in enumerate(legal):
                for rider, weights in ((medium, search.MEDIUM_WEIGHTS),
                                       (easy, search.EASY_WEIGHTS)):
                    got = search.score(st, engine.params, action, info[k], weights)
                    assert abs(rider.score(state, action) - got) < 1e-9
                    checked += 1
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 2_000


def test_value_of_a_finished_race() -> None:
    state = PistardState(PistardOptions(players=3, riders_per_player=1))
    engine = fast.Engine.of(state)
    st = fast.encode(state)
    engine.random_races(st, np.random.default_rng(0), 1)
    search.play_out(st, engine.params, engine.grid,
                    np.tile(search.MEDIUM_WEIGHTS, (fast.MAXP, 1)),
                    np.array([5], dtype=np.uint64), 9, np.empty(fast.MAXM, dtype=np.int64),
                    np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64),
                    np.empty(fast.WORK_SIZE, dtype=np.int64))
    ranking = [int(st[fast.RANK + k]) for k in range(3)]
    values = [search.value(st, engine.params, p) for p in range(3)]
    owners = [int(st[fast.OWNER + i]) for i in ranking]
    assert values[owners[0]] == 1 + search.PLACE_SHARE  # the winner
    assert values[owners[1]] == search.PLACE_SHARE / 2  # second of three
    assert values[owners[2]] == 0.0


def test_searching_riders_take_the_winning_move_at_the_line() -> None:
    for level in ("hard", "expert"):
        state = pos([(11, 52, 4), (21, 40, 1)], mover=11, dice=(6, 6, 6, 6))
        action = make_agent(level, 16).choose(state, np.random.default_rng(1))
        assert state.move_table()[action].ahead == 6, level


def test_search_is_seeded_and_leaves_the_state_alone() -> None:
    state = pos([(11, 30, 2), (12, 29, 3), (21, 31, 1), (22, 28, 4)], mover=11,
                dice=(6, 2, 4, 3), tokens=2)
    before = state.to_json()
    rider = FastSearchRider("hard", rollouts=32, candidates=4)
    a = rider.choose(state, np.random.default_rng(8))
    b = rider.choose(state, np.random.default_rng(8))
    assert a == b and a in state.legal_actions()
    assert state.to_json() == before


def test_every_level_plays_every_variant() -> None:
    """A short race of each variant with the searching levels (tiny budgets) ends well."""
    from raceday.core.play import play_game

    for config in ({"variant": "sprint"}, {"variant": "ttt", "riders_per_player": 3},
                   {"variant": "pursuit", "riders_per_player": 3, "track": "short"},
                   {"variant": "elimination", "players": 3, "riders_per_player": 1,
                    "track": "short"},
                   {"variant": "points", "players": 2, "riders_per_player": 3, "laps": 1,
                    "track": "short"}):
        options = PistardOptions.parse(config)
        agents = [make_agent(("expert", "hard", "medium")[p % 3], 4)
                  for p in range(options.num_players)]
        state = PistardState(options)
        play_game(state, agents, np.random.default_rng(2))
        assert state.is_terminal()


def test_play_outs_split_over_threads_give_the_same_values() -> None:
    """Expert's play-outs run on two threads; each play-out's stream fixes its throws and
    tie-breaks, so the values do not depend on the split."""
    from raceday.games.pistard.agents import _engine, _play_outs

    state = pos([(11, 30, 2), (12, 29, 3), (21, 31, 1), (22, 28, 4)], mover=11,
                dice=(6, 2, 4, 3), tokens=2)
    engine = _engine(state)
    st = fast.encode(state)
    weights = search.weights_for(engine.params, st)
    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    n = search.ranked(st, engine.params, engine.grid, acts, info, weights)
    cand = acts[:min(n, 4)].copy()
    everyone = np.tile(weights, (fast.MAXP, 1))
    one = _play_outs(st, engine, cand, everyone, 0, 77, 5, 41, 1)
    two = _play_outs(st, engine, cand, everyone, 0, 77, 5, 41, 2)
    assert one.shape == two.shape == (len(cand), 41)
    assert np.array_equal(one, two)
    assert len(set(one.ravel().tolist())) > 1  # the play-outs differ: a real comparison
    # and the split keeps the streams in order: the first 20 are those of a shorter run
    assert np.array_equal(_play_outs(st, engine, cand, everyone, 0, 77, 5, 20, 2), one[:, :20])
    assert fast.encode(state).tolist() == st.tolist()  # the position is untouched
