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

from raceday.games.derby import odds as odds_module
from raceday.games.derby.fast import sample_results, simulate_odds
from raceday.games.derby.odds import exact_odds
from raceday.games.derby.rules import POSTS, new_race

TARGET_EXACT_SECONDS = 0.010


def clear_caches() -> None:
    """Forget every cached table of the exact odds (public and internal), as in a fresh
    process."""
    for name in ("drop_distribution", "win_probabilities", "quinella_probabilities",
                 "_drop_counts", "_win_numerators", "_quinella_numerators", "_scales"):
        getattr(odds_module, name).cache_clear()


def bench_exact(rate: str, repeats: int = 7) -> tuple[float, float]:
    """(best, median) seconds of the exact odds with cold caches."""
    times = []
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter()
        exact_odds(rate)
        times.append(time.perf_counter() - start)
    times.sort()
    return times[0], times[len(times) // 2]


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
    print(f"load average {os.getloadavg()[0]:.2f}")
    for command in (["derby", "odds"], ["derby", "odds", "--json"]):
        print(f"raceday {' '.join(command)}, whole process, best of 5: "
              f"{startup(command):.3f} s (target < 0.35 s)")
    fast_n, engine_n, check_n = (
        (100_000, 500, 200_000) if args.quick else (1_000_000, 5_000, 2_000_000)
    )
    for rate in ("0", "0.05"):
        print(f"fall rate {rate}")
        best, median = bench_exact(rate)
        verdict = "meets" if best <= TARGET_EXACT_SECONDS else "misses"
        print(f"  exact odds (cold cache):      {best * 1000:8.1f} ms best of 7, median "
              f"{median * 1000:.1f} ms ({verdict} the 10 ms target)")
        print(f"  vectorised sampler:           {bench_fast(fast_n, rate):12,.0f} races/s "
              f"(n={fast_n:,})")
        print(f"  reference engine:             {bench_engine(engine_n, rate):12,.0f} races/s "
              f"(n={engine_n:,})")
        print(f"  sampler vs exact, worst of 21: {agreement(check_n, rate):6.2f} standard errors "
              f"(n={check_n:,})")


if __name__ == "__main__":
    main()
