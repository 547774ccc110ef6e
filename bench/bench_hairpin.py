"""Hairpin Racers benchmarks: playout speed, perft time, search speed, the AI ladder,
and the strength match of the thinking expert against the former one.

Run: .venv/bin/python bench/bench_hairpin.py [--quick]
     .venv/bin/python bench/bench_hairpin.py --strength [--games 200] [--think 1]
                                             [--workers 2] [--seed 7]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from raceday.analysis.stats import wilson_interval
from raceday.games.hairpin import fast
from raceday.games.hairpin.agents import AlphaBetaAgent, make_agent, think
from raceday.games.hairpin.match import DEFAULT_OPENING_PLIES, MatchResult, play_match
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


def _strength_chunk(job: tuple[int, int, float]) -> MatchResult:
    games, seed, think = job
    return play_match(lambda: make_agent("expert", think=think),
                      lambda: make_agent("expert-old"), games, seed=seed,
                      opening_plies=DEFAULT_OPENING_PLIES,
                      names=(f"expert:{think:g}s", "expert-old"))


def _tune_chunk(job: tuple[int, int, float, tuple[float, ...]]) -> MatchResult:
    from raceday.games.hairpin.agents import ThinkingAgent
    from raceday.games.hairpin.search import OLD_WEIGHTS

    games, seed, think, weights = job
    return play_match(lambda: ThinkingAgent(think, np.array(weights)),
                      lambda: ThinkingAgent(think, OLD_WEIGHTS), games, seed=seed,
                      opening_plies=DEFAULT_OPENING_PLIES)


def tune(games: int, think: float, workers: int, seed: int) -> None:
    """Self-play tuning: each candidate evaluation (TUNE_CANDIDATE, with reach and tempo
    terms, and variations of it) against the former evaluation's weights (OLD_WEIGHTS,
    which the expert ships with), same search, same time per move."""
    from raceday.games.hairpin.search import (
        TUNE_CANDIDATE,
        W_REACH_MOVER,
        W_REACH_OTHER,
        W_STRIKE,
        W_TEMPO,
    )

    candidates = {"candidate": TUNE_CANDIDATE.copy()}
    for name, index, value in (("no tempo", W_TEMPO, 0.0), ("no reach", W_REACH_MOVER, 0.0),
                               ("strike 1.0", W_STRIKE, 1.0), ("reach other 0.5",
                                                               W_REACH_OTHER, 0.5)):
        w = TUNE_CANDIDATE.copy()
        w[index] = value
        if name == "no reach":
            w[W_REACH_OTHER] = 0.0
        candidates[name] = w
    per = games // workers
    for name, w in candidates.items():
        jobs = [(per, seed + i, think, tuple(w)) for i in range(workers)]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_tune_chunk, jobs))
        score = sum(p.a_wins + 0.5 * p.draws for p in parts)
        total = sum(p.games for p in parts)
        print(f"{name:16s} {list(w)}: {score:g}/{total} against the former weights",
              flush=True)


def strength(games: int, think: float, workers: int, seed: int) -> None:
    """The thinking expert against the former expert (alpha-beta, 50,000 nodes): games in
    pairs from the same random opening (4 random plies), sides alternated, split over
    ``workers`` processes (each with its own seed, so its own openings)."""
    per = [2 * ((games // 2) // workers + (i < (games // 2) % workers)) for i in range(workers)]
    jobs = [(n, seed + i, think) for i, n in enumerate(per) if n]
    start = time.perf_counter()
    with ProcessPoolExecutor(len(jobs)) as pool:
        parts = list(pool.map(_strength_chunk, jobs))
    wins = sum(p.a_wins for p in parts)
    losses = sum(p.b_wins for p in parts)
    draws = sum(p.draws for p in parts)
    as_red = sum(p.a_wins_as_red for p in parts)
    total = sum(p.games for p in parts)
    score = wins + 0.5 * draws
    low, high = wilson_interval(round(score), total, 0.95)
    plies = [x for p in parts for x in p.plies]
    print(f"expert ({think:g} s/move) vs expert-old (50,000 nodes): {wins}-{losses} "
          f"(draws {draws}) over {total} games from {total // 2} random openings "
          f"({DEFAULT_OPENING_PLIES} plies), sides alternated; {as_red} wins as Red; "
          f"win rate {score / total:.3f}, 95% Wilson [{low:.3f}, {high:.3f}]; "
          f"{sum(plies) / len(plies):.1f} plies per game; seeds {seed}..{seed + len(jobs) - 1}; "
          f"{time.perf_counter() - start:.0f} s on {len(jobs)} processes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (10-game matches)")
    parser.add_argument("--strength", action="store_true",
                        help="only the strength match: expert (--think s/move) vs expert-old")
    parser.add_argument("--games", type=int, default=200, help="strength match games")
    parser.add_argument("--think", type=float, default=1.0,
                        help="the expert's seconds per move (strength match and ladder)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the match")
    parser.add_argument("--seed", type=int, default=7, help="strength match seed")
    parser.add_argument("--tune", action="store_true",
                        help="only the self-play comparison of evaluation weights")
    args = parser.parse_args()
    if args.tune:
        tune(args.games, args.think, args.workers, args.seed)
        return
    if args.strength:
        strength(args.games, args.think, args.workers, args.seed)
        return
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
    think(new_game(), 0.05)  # load the compiled search
    for seconds in (args.think, 1.0) if args.think != 1.0 else (1.0,):
        report = think(new_game(), seconds)
        print(f"expert's search (search.py) at {seconds:g} s/move from the start: "
              f"{report.nodes / report.seconds:,.0f} nodes/s, depth {report.depth} "
              f"({report.nodes:,} nodes in {report.seconds:.2f} s)")

    n = 10 if quick else 100
    # the required ladder (hard > medium, expert > hard) at full size; easy (MCTS in
    # Python) is slow, so medium vs easy plays a fifth as many games
    for strong, weak, count in (("medium", "easy", max(10, n // 5)), ("hard", "medium", n),
                                ("expert", "hard", n)):
        start = time.perf_counter()
        result = play_match(lambda s=strong: make_agent(s, think=args.think),
                            lambda w=weak: make_agent(w, think=args.think), count,
                            seed=2024, names=(strong, weak))
        print(f"{strong} vs {weak}: {result.a_wins}-{result.b_wins} "
              f"(draws {result.draws}) over {count} games, sides alternated, "
              f"{result.average_length:.1f} plies per game, "
              f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
