"""Research interfaces: MCTSBot speed on Hairpin, and our expert against OpenSpiel's MCTSBot.

Targets (the research-interfaces issue):
- OpenSpiel's MCTSBot on our Hairpin game runs at least 2,000 simulations per second
  (random rollouts; the adapter keeps the compiled engine's array and rolls out inside it);
- our Hairpin expert (its alpha-beta search, given the same wall time per move) wins at
  least 95% against MCTSBot with random rollouts at 0.1 s and 1 s per move, over at least
  100 games each, sides alternated.

Usage: ``python bench/bench_arena.py [--quick] [--games N] [--seconds 0.1 1] [--speed-only]``
(``--quick``: one search of each kind and 4 games at 0.1 s a move, a few minutes).
Needs the [rl] extra.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def mcts_speed(repeats: int = 3) -> None:
    from open_spiel.python.algorithms import mcts

    from raceday.interop import openspiel as ro

    cases = [("fast", "compiled random rollouts (FastRolloutEvaluator)", True),
             ("fast", "OpenSpiel RandomRolloutEvaluator", False),
             ("reference", "OpenSpiel RandomRolloutEvaluator", False)]
    for engine, label, compiled in cases:
        game = ro.load_game("hairpin", engine=engine)
        rng = np.random.RandomState(1)
        evaluator = (ro.FastRolloutEvaluator(1, rng) if compiled
                     else mcts.RandomRolloutEvaluator(1, rng))
        sims = 2000 if compiled else 300
        bot = mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=np.random.RandomState(2))
        state = game.new_initial_state()
        start = time.perf_counter()
        bot.step(state)  # compile (or load numba's cache) and warm up: not in the rate
        print(f"{'compile/load' if compiled else 'warm-up'}: "
              f"{time.perf_counter() - start:.2f} s (the first search, not in the rate)",
              flush=True)
        best = 0.0
        for _ in range(repeats):
            start = time.perf_counter()
            bot.step(state)
            best = max(best, sims / (time.perf_counter() - start))
        print(f"MCTSBot on Hairpin ({engine} state, {label}): {best:,.0f} simulations/s "
              f"(best of {repeats} searches of {sims} from the start position)", flush=True)


def match(seconds: float, games: int, seed: int) -> None:
    from raceday.interop.arena import run_arena

    a, b = f"alphabeta:{seconds:g}s", f"openspiel-mcts:{seconds:g}s"
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        print(f"  {seconds:g} s per move: game {done}/{total} finished, "
              f"{time.perf_counter() - start:.0f} s", flush=True)

    result = run_arena("hairpin", a, b, games, seed, progress=progress)
    s = result.summary()
    low, high = s["a_win_rate_95"]
    print(f"{seconds:g} s per move, {games} games (seed {seed}): expert {a} won "
          f"{s['a_wins']}/{games} = {s['a_win_rate']:.1%} (95% {low:.1%}-{high:.1%}), "
          f"MCTSBot won {s['b_wins']}, draws {s['draws']}; seconds per move: expert "
          f"{s['a_seconds_per_move']:.3f}, MCTSBot {s['b_seconds_per_move']:.3f}; "
          f"{time.perf_counter() - start:.0f} s in all", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="one timed search of each kind, 4 games at 0.1 s a move")
    parser.add_argument("--games", type=int, default=None, help="games a match (100)")
    parser.add_argument("--seconds", type=float, nargs="*", default=None,
                        help="seconds a move, a match each (0.1 1)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--speed-only", action="store_true")
    args = parser.parse_args()
    games = args.games or (4 if args.quick else 100)
    seconds_list = args.seconds or ([0.1] if args.quick else [0.1, 1.0])
    mcts_speed(1 if args.quick else 3)
    if not args.speed_only:
        for seconds in seconds_list:
            match(seconds, games, args.seed)


if __name__ == "__main__":
    main()
