"""Hairpin's compiled engine for ``raceday warm-up``: the computer players' search."""

from __future__ import annotations

import numpy as np

from raceday.terminal.warm import Engine


def _warm_hairpin() -> None:
    from raceday.games.hairpin import agents, fast, search
    from raceday.games.hairpin.game import GAME

    rng = np.random.default_rng(0)
    state = GAME.new_state({"variant": "standard"})
    # the expert (search.search_root_frames and principal_variation), as ThinkingAgent
    agents.think(state, 0.01, table=search.Table())
    # hard and expert-old (fast.search_root), a few nodes
    agents.AlphaBetaAgent(node_budget=50).choose(state, rng)
    # easy and the MCTS agents (fast.playout, fast.guided_playout)
    agents.fast_rollout(state, rng)
    agents.guided_rollout(state, rng)
    # the research helpers (perft, many playouts, the move list the interop uses)
    fast.perft(state.position, state.rules, 1)
    fast.random_playouts(state.position, state.rules, rng, 1)
    fast.apply_fast(state.position, state.rules, fast.legal_moves_fast(state.position,
                                                                       state.rules)[0][0])
    fast.frame_moves_list(state.position, state.rules)
    st = fast.encode(state.position)
    rules = fast.encode_rules(state.rules)
    fast.winner(st, rules)
    fast.evaluate_fast(st, rules, 0)
    frames = fast.new_frames(2)
    fast.frame_load(st, rules, frames, 0)
    fast.frame_store(frames, 0, st.copy())
    search.evaluate_frame(frames, 0, search.WEIGHTS)


ENGINES = (
    Engine("hairpin", "Hairpin Racers: the computer players' search",
           ("raceday.games.hairpin.fast", "raceday.games.hairpin.search"), _warm_hairpin,
           room_players=True),
)
