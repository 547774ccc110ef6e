"""PISTARD's compiled engines for ``raceday warm-up``: the hard and expert riders, and the
sprint's exact solution."""

from __future__ import annotations

import numpy as np

from raceday.terminal.warm import Engine


def _warm_pistard() -> None:
    from raceday.games.pistard import agents, fast, search
    from raceday.games.pistard.game import GAME

    rng = np.random.default_rng(0)
    state = GAME.new_state({"variant": "scratch"})
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng).outcome)
    # hard and expert (search.ranked, search.rollouts; expert on two threads), tuned
    agents.FastSearchRider("hard", rollouts=2, candidates=2, budget=0.01).choose(state, rng)
    agents.TunedRider().choose(state, rng)
    engine = fast.Engine.of(state)
    st = fast.encode(state)
    engine.step(st.copy(), engine.legal(st)[0])
    engine.random_races(st, rng, 1)
    search.greedy_match(st, engine.params, engine.grid, search.HARD_WEIGHTS,
                        search.MEDIUM_WEIGHTS, 1, 1)


def _warm_sprint_solver() -> None:
    from raceday.games.pistard import fast, search, sprint_solver
    from raceday.games.pistard.game import GAME

    state = GAME.new_state({"variant": "sprint", "tokens": 0})
    engine = fast.Engine.of(state)
    length = int(state.track.length)
    table = sprint_solver.table_for(engine.grid, length, 0)
    sprint_solver.response_table(engine.grid, length, 0, 1, search.MEDIUM_WEIGHTS)
    st = fast.encode(state)
    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    n = fast.legal_actions(st, engine.params, engine.grid, acts, info)
    sprint_solver.decision_values(table, st, engine.params, engine.grid, acts, n)


ENGINES = (
    Engine("pistard", "PISTARD: the hard and expert riders",
           ("raceday.games.pistard.fast", "raceday.games.pistard.search"), _warm_pistard,
           room_players=True),
    Engine("pistard-sprint", "PISTARD: the sprint's exact solution (benchmarks)",
           ("raceday.games.pistard.sprint_solver",), _warm_sprint_solver, optional=True,
           after=("pistard",)),
)
