"""Hairpin Racers benchmarks: playout speed, perft time, search speed, the AI ladder,
and the strength match of the thinking expert against the former one.

The compiled engine's two figures of issue #18 come first, per CPU second (the machine is
shared) and against the issue's baseline: random playouts (target 100,000/s, 28,900/s when
the issue was filed) and the expert's search nodes/s (to rise by the same factor, 3.46,
over the alpha-beta expert of that time). ``--against-tree DIR`` measures that engine too,
in this process, from a checkout of the issue's commit (``git worktree add DIR 29ee7d71``).

Run: .venv/bin/python bench/bench_hairpin.py [--quick] [--against-tree DIR]
     .venv/bin/python bench/bench_hairpin.py --strength [--games 200] [--think 1]
                                             [--workers 2] [--seed 7]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

import numpy as np

from raceday.analysis.stats import wilson_interval
from raceday.games.hairpin import fast, search
from raceday.games.hairpin.agents import AlphaBetaAgent, make_agent, think
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.match import DEFAULT_OPENING_PLIES, MatchResult, play_match
from raceday.games.hairpin.rules import (
    Rules,
    apply_move,
    legal_moves,
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


# --- issue #18: the compiled engine's speed against the issue's baseline -------------
ISSUE = "issue #18 (filed at commit 29ee7d71)"
# Random playouts per second of the compiled engine when the issue was filed, as the issue
# states it; the target is 100,000/s on one core.
ISSUE_PLAYOUTS = 28_900
PLAYOUT_TARGET = 100_000
# The factor the issue asks of the search's nodes/s too.
NODES_FACTOR_TARGET = PLAYOUT_TARGET / ISSUE_PLAYOUTS  # 3.46
# Nodes per CPU second of the expert of that time (AlphaBetaAgent: alpha-beta with a
# 2^16-entry table; the bench of that commit ran it for 1,000,000 nodes from the start,
# depth 11). The issue did not state it; measured by running commit 29ee7d71 (a git
# worktree on PYTHONPATH) in separate processes alternating with today's code, 16 rounds
# on this project's 2-core machine on 2026-11-23 with other work running (load 1 to 3):
# 2.3 to 3.6 M/s, median 2.95 M/s (at that expert's own 50,000 nodes a move: median
# 2.8 M/s). Rounded up here, so that a factor against it is not flattered.
ISSUE_ALPHABETA_NODES = 3_000_000


def compile_load(what: str, first_call: Callable[[], object]) -> None:
    """Run a compiled function's first call (numba compiles it, or loads it from its
    cache) and print its time apart, as "compile/load: X.XX s": the timed figures that
    follow exclude it."""
    start = time.perf_counter()
    first_call()
    print(f"compile/load: {time.perf_counter() - start:.2f} s ({what}; not in the figures "
          "below)", flush=True)


def compiled_playouts(games: int, engine: ModuleType = fast) -> tuple[float, float, float]:
    """Random playouts from the start per wall second and per CPU second, plies a game
    (after 10 untimed ones: the first call compiles or loads, see :func:`compile_load`)."""
    pos, rules = symmetric_position(), Rules()
    engine.random_playouts(pos, rules, np.random.default_rng(0), 10)
    wall, cpu = time.perf_counter(), time.process_time()
    out = engine.random_playouts(pos, rules, np.random.default_rng(1), games)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return games / wall, games / cpu, out[4] / games


def expert_search_rate(seconds: float) -> tuple[float, float, int, int]:
    """The expert's search from the start for ``seconds`` (a fresh table, as a new game
    gets): nodes per wall second (as it reports them) and per CPU second, depth, nodes."""
    table = search.Table()
    cpu = time.process_time()
    report = think(new_game(), seconds, table=table)
    cpu = time.process_time() - cpu
    return report.nodes / report.seconds, report.nodes / cpu, report.depth, report.nodes


def load_issue_engine(tree: str) -> ModuleType:
    """The compiled engine (fast.py) of a checkout of the issue's commit, as a module of
    its own beside today's (it needs only the rules' constants, unchanged since)."""
    path = Path(tree) / "src" / "raceday" / "games" / "hairpin" / "fast.py"
    spec = importlib.util.spec_from_file_location("hairpin_fast_issue18", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"no engine at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def issue_alphabeta_rate(engine: ModuleType, budget: int = 1_000_000) -> tuple[float, int]:
    """Nodes per CPU second of the issue-time expert's search from the start: that
    commit's AlphaBetaAgent.choose (iterative deepening of its compiled search_root until
    ``budget`` nodes), replayed on its engine."""
    state = new_game()
    st, rules = engine.encode(state.position), engine.encode_rules(state.rules)
    size = 1 << engine.TT_BITS
    zobrist = engine.make_zobrist()
    tt_key, tt_val = np.zeros(size, dtype=np.int64), np.zeros(size)
    tt_info = np.zeros((size, 3), dtype=np.int64)
    counter = np.zeros(3, dtype=np.int64)
    acts, vals = np.empty(engine.MAX_MOVES, dtype=np.int64), np.empty(engine.MAX_MOVES)
    depth_done = 0
    cpu = time.process_time()
    for depth in range(1, min(40, engine.MAX_SEARCH_DEPTH - 2) + 1):
        counter[2] = 0
        n = engine.search_root(st, rules, depth, budget, zobrist, tt_key, tt_val, tt_info,
                               counter, acts, vals)
        if n < 0:
            break
        depth_done = depth
        if abs(float(vals[:n].max())) >= engine.WIN / 2:
            break
    return int(counter[0]) / (time.process_time() - cpu), depth_done


def issue_targets(quick: bool, runs: int, against_tree: str | None) -> None:
    """Issue #18's two figures, each run ``runs`` times (alternating with the issue-time
    engine's when ``against_tree`` is given), per CPU second, with the factors."""
    old = load_issue_engine(against_tree) if against_tree else None
    if old is not None:
        compile_load("the issue-time engine's first 10 playouts and a 20,000-node "
                     "alpha-beta search", lambda: (compiled_playouts(10, old),
                                                   issue_alphabeta_rate(old, 20_000)))
    games = 20_000 if quick else 100_000
    compile_load("the compiled engine's first 10 random playouts",
                 lambda: fast.random_playouts(symmetric_position(), Rules(),
                                              np.random.default_rng(0), 10))
    compile_load("the expert's search, a first 0.05 s think", lambda: think(new_game(), 0.05))
    playouts: list[float] = []
    nodes: list[float] = []
    old_playouts: list[float] = []
    old_nodes: list[float] = []
    for run in range(runs):
        wall, cpu, plies = compiled_playouts(games)
        playouts.append(cpu)
        print(f"  run {run + 1}: compiled engine {cpu:,.0f} random playouts per CPU second "
              f"({wall:,.0f} per wall second, {games:,} games, {plies:.1f} plies a game)",
              flush=True)
        rate, cpu_rate, depth, count = expert_search_rate(1.0)
        nodes.append(cpu_rate)
        print(f"  run {run + 1}: expert's search {cpu_rate:,.0f} nodes per CPU second "
              f"({rate:,.0f} per wall second), depth {depth} from the start in 1 s "
              f"({count:,} nodes)", flush=True)
        if old is not None:
            _, cpu, _ = compiled_playouts(games // 4, old)
            old_playouts.append(cpu)
            old_rate, old_depth = issue_alphabeta_rate(old)
            old_nodes.append(old_rate)
            print(f"  run {run + 1}: issue-time engine {cpu:,.0f} playouts per CPU second, "
                  f"its alpha-beta expert {old_rate:,.0f} nodes per CPU second "
                  f"(1,000,000 nodes, depth {old_depth})", flush=True)
    med = statistics.median
    p, n = med(playouts), med(nodes)
    print(f"{ISSUE}: random playouts {p:,.0f} per CPU second (median of {runs}; "
          f"{min(playouts):,.0f} to {max(playouts):,.0f}), target {PLAYOUT_TARGET:,}: "
          f"{'met' if p >= PLAYOUT_TARGET else 'NOT met'}; {p / ISSUE_PLAYOUTS:.2f} x the "
          f"{ISSUE_PLAYOUTS:,}/s of the issue")
    print(f"{ISSUE}: expert's search {n:,.0f} nodes per CPU second (median of {runs}; "
          f"{min(nodes):,.0f} to {max(nodes):,.0f}), {n / ISSUE_ALPHABETA_NODES:.2f} x the "
          f"{ISSUE_ALPHABETA_NODES:,}/s measured for the alpha-beta expert of the issue's "
          f"commit (ISSUE_ALPHABETA_NODES); asked: {NODES_FACTOR_TARGET:.2f} x: "
          f"{'met' if n >= NODES_FACTOR_TARGET * ISSUE_ALPHABETA_NODES else 'NOT met'}")
    if old is not None:
        op, on = med(old_playouts), med(old_nodes)
        print(f"{ISSUE}, measured here against {against_tree}: playouts {p / op:.2f} x "
              f"({op:,.0f}/s then), search nodes {n / on:.2f} x ({on:,.0f}/s then; "
              f"per run {min(a / b for a, b in zip(nodes, old_nodes, strict=True)):.2f} to "
              f"{max(a / b for a, b in zip(nodes, old_nodes, strict=True)):.2f} x)")


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
    parser.add_argument("--against-tree", metavar="DIR",
                        help="also measure the engine of a checkout of the issue's commit "
                             "(git worktree add DIR 29ee7d71), alternating with today's")
    parser.add_argument("--runs", type=int, default=0,
                        help="runs of issue #18's two figures (default 5, --quick 2)")
    parser.add_argument("--only-issue", action="store_true",
                        help="only issue #18's two figures")
    args = parser.parse_args()
    if args.tune:
        tune(args.games, args.think, args.workers, args.seed)
        return
    if args.strength:
        strength(args.games, args.think, args.workers, args.seed)
        return
    quick = args.quick
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"{os.cpu_count()} cores", flush=True)
    issue_targets(quick, args.runs or (2 if quick else 5), args.against_tree)
    if args.only_issue:
        return

    rate, length = reference_playouts(1.0 if quick else 3.0)
    print(f"reference engine: {rate:,.0f} random playouts/s through the game protocol "
          f"(events included), {length:.1f} plies per game")
    rate = reference_function_playouts(1.0 if quick else 3.0)
    print(f"reference engine: {rate:,.0f} random playouts/s with its pure functions")

    pos, rules = symmetric_position(), Rules()
    start = time.perf_counter()
    count = perft(pos, rules, 5)
    print(f"perft(5) = {count} in {time.perf_counter() - start:.3f} s (reference)")
    compile_load("the compiled perft, perft(1)", lambda: fast.perft(pos, rules, 1))
    start = time.perf_counter()
    count = fast.perft(pos, rules, 6)
    print(f"perft(6) = {count} in {time.perf_counter() - start:.3f} s (compiled)")

    agent = AlphaBetaAgent(node_budget=2_000)
    compile_load("the former alpha-beta's search, a first 2,000-node search",
                 lambda: agent.choose(new_game(), np.random.default_rng(0)))
    agent.node_budget = 1_000_000
    start, cpu = time.perf_counter(), time.process_time()
    agent.choose(new_game(), np.random.default_rng(0))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"former alpha-beta (AlphaBetaAgent, expert-old) on today's engine: "
          f"{agent.last_nodes / cpu:,.0f} nodes per CPU second, depth {agent.last_depth} "
          f"from the start in {seconds:.2f} s")
    timed = AlphaBetaAgent(node_budget=None, time_budget=1.0)
    timed.choose(new_game(), np.random.default_rng(0))
    print(f"alpha-beta at 1 s/move: depth {timed.last_depth}, {timed.last_nodes:,} nodes")
    for seconds in (args.think, 1.0) if args.think != 1.0 else (1.0,):
        rate, cpu_rate, depth, count = expert_search_rate(seconds)
        print(f"expert's search (search.py) at {seconds:g} s/move from the start: "
              f"{cpu_rate:,.0f} nodes per CPU second ({rate:,.0f} per wall second), "
              f"depth {depth} ({count:,} nodes)")

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
