"""Hairpin Racers benchmarks: playout speed, perft time, search speed, the AI ladder.

Run: .venv/bin/python bench/bench_hairpin.py [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from raceday.games.hairpin import fast
from raceday.games.hairpin.agents import AlphaBetaAgent, make_agent
from raceday.games.hairpin.match import play_match
from raceday.games.hairpin.rules import (
    Rules,
    apply_move,
    legal_moves,
    new_game,
    perft,
    symmetric_position,
)


def reference_playouts(seconds: float) -> tuple[float, float]:
    """Random playouts per second and mean plies with the reference (Python) engine."""
    rng = np.random.default_rng(1)
    games, plies = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game()
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
        games += 1
        plies += state.position.ply
    return games / (time.perf_counter() - start), plies / games


def reference_function_playouts(seconds: float) -> float:
    """Random playouts per second with the reference engine's pure functions (no
    protocol layer, no events)."""
    rng = np.random.default_rng(2)
    rules = Rules()
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pos = symmetric_position()
        moves = legal_moves(pos, rules)
        while moves:
            pos = apply_move(pos, moves[int(rng.integers(len(moves)))], rules)
            moves = legal_moves(pos, rules)
        games += 1
    return games / (time.perf_counter() - start)


def compiled_playouts(games: int) -> tuple[float, float]:
    pos, rules = symmetric_position(), Rules()
    fast.random_playouts(pos, rules, np.random.default_rng(0), 10)  # compile / load cache
    start = time.perf_counter()
    out = fast.random_playouts(pos, rules, np.random.default_rng(1), games)
    return games / (time.perf_counter() - start), out[4] / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (10-game matches)")
    args = parser.parse_args()
    quick = args.quick

    rate, length = reference_playouts(1.0 if quick else 3.0)
    print(f"reference engine: {rate:,.0f} random playouts/s through the game protocol "
          f"(events included), {length:.1f} plies per game")
    rate = reference_function_playouts(1.0 if quick else 3.0)
    print(f"reference engine: {rate:,.0f} random playouts/s with its pure functions")
    games = 20_000 if quick else 100_000
    rate, length = compiled_playouts(games)
    print(f"compiled engine:  {rate:,.0f} random playouts/s, {length:.1f} plies per game "
          f"({games:,} games, one core)")

    pos, rules = symmetric_position(), Rules()
    start = time.perf_counter()
    count = perft(pos, rules, 5)
    print(f"perft(5) = {count} in {time.perf_counter() - start:.3f} s (reference)")
    fast.perft(pos, rules, 1)
    start = time.perf_counter()
    count = fast.perft(pos, rules, 6)
    print(f"perft(6) = {count} in {time.perf_counter() - start:.3f} s (compiled)")

    agent = AlphaBetaAgent(node_budget=1_000_000)
    agent.choose(new_game(), np.random.default_rng(0))  # compile
    start = time.perf_counter()
    agent.choose(new_game(), np.random.default_rng(0))
    seconds = time.perf_counter() - start
    print(f"alpha-beta: {agent.last_nodes / seconds:,.0f} nodes/s, depth {agent.last_depth} "
          f"from the start in {seconds:.2f} s")
    timed = AlphaBetaAgent(node_budget=None, time_budget=1.0)
    timed.choose(new_game(), np.random.default_rng(0))
    print(f"alpha-beta at 1 s/move: depth {timed.last_depth}, {timed.last_nodes:,} nodes")

    n = 10 if quick else 100
    # the required ladder (hard > medium, expert > hard) at full size; easy (MCTS in
    # Python) is slow, so medium vs easy plays a fifth as many games
    for strong, weak, count in (("medium", "easy", max(10, n // 5)), ("hard", "medium", n),
                                ("expert", "hard", n)):
        start = time.perf_counter()
        result = play_match(lambda s=strong: make_agent(s), lambda w=weak: make_agent(w), count,
                            seed=2024, names=(strong, weak))
        print(f"{strong} vs {weak}: {result.a_wins}-{result.b_wins} "
              f"(draws {result.draws}) over {count} games, sides alternated, "
              f"{result.average_length:.1f} plies per game, "
              f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
