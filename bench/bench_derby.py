"""Dice Derby benchmarks: exact odds, the vectorised sampler and the reference engine.

Run: .venv/bin/python bench/bench_derby.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

from raceday.games.derby.fast import sample_results, simulate_odds
from raceday.games.derby.odds import (
    drop_distribution,
    exact_odds,
    quinella_probabilities,
    win_probabilities,
)
from raceday.games.derby.rules import POSTS, new_race


def clear_caches() -> None:
    for f in (drop_distribution, win_probabilities, quinella_probabilities):
        f.cache_clear()


def bench_exact(rate: str) -> float:
    clear_caches()
    start = time.perf_counter()
    exact_odds(rate)
    return time.perf_counter() - start


def bench_fast(n: int, rate: str) -> float:
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    sample_results(n, rng, rate)
    return n / (time.perf_counter() - start)


def bench_engine(n: int, rate: str) -> float:
    rng = np.random.default_rng(2)
    start = time.perf_counter()
    for _ in range(n):
        state = new_race({"fall_rate": rate})
        while not state.is_terminal():
            state.apply_action(state.sample_chance(rng).outcome)
    return n / (time.perf_counter() - start)


def agreement(n: int, rate: str) -> float:
    """The largest |simulated - exact| over the 21 probabilities, in standard errors."""
    sim = simulate_odds(n, np.random.default_rng(3), rate)
    exact = exact_odds(rate)
    worst = 0.0
    for h in POSTS:
        p = float(exact.win[h])
        worst = max(worst, abs(sim.win[h].p - p) / (p * (1 - p) / n) ** 0.5)
    for pr, e in sim.quinella.items():
        p = float(exact.quinella[pr])
        worst = max(worst, abs(e.p - p) / (p * (1 - p) / n) ** 0.5)
    return worst


def startup(args: list[str], repeats: int = 5) -> float:
    """Best whole-process time of `raceday ARGS` (stdout discarded)."""
    raceday = os.path.join(os.path.dirname(sys.executable), "raceday")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([raceday, *args], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    args = parser.parse_args()
    for command in (["derby", "odds"], ["derby", "odds", "--json"]):
        print(f"raceday {' '.join(command)}, whole process, best of 5: "
              f"{startup(command):.3f} s (target < 0.35 s)")
    fast_n, engine_n, check_n = (
        (100_000, 500, 200_000) if args.quick else (1_000_000, 5_000, 2_000_000)
    )
    for rate in ("0", "0.05"):
        print(f"fall rate {rate}")
        print(f"  exact odds (cold cache):      {bench_exact(rate) * 1000:8.1f} ms")
        print(f"  vectorised sampler:           {bench_fast(fast_n, rate):12,.0f} races/s "
              f"(n={fast_n:,})")
        print(f"  reference engine:             {bench_engine(engine_n, rate):12,.0f} races/s "
              f"(n={engine_n:,})")
        print(f"  sampler vs exact, worst of 21: {agreement(check_n, rate):6.2f} standard errors "
              f"(n={check_n:,})")


if __name__ == "__main__":
    main()
