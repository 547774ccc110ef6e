"""KEIRIN benchmark: fast sampler races/s on one core, exact odds time, reference engine.

Run: .venv/bin/python bench/bench_keirin.py [--quick]
(Pin to one core for the per-core figure: taskset -c 0 nice .venv/bin/python ...)
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from raceday.games.keirin import odds as odds_module
from raceday.games.keirin.fast import sample_races
from raceday.games.keirin.rules import KeirinOptions
from raceday.games.keirin.simulate import simulate_reference

TARGET_RACES_PER_SECOND = 1_000_000
TARGET_ODDS_SECONDS = 1.0


def best_of(repeats: int, run: object) -> float:
    assert callable(run)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="Fewer races and repeats.")
    args = parser.parse_args()
    n = 1_000_000 if args.quick else 5_000_000
    repeats = 2 if args.quick else 3
    options = KeirinOptions()  # 9 riders, length 50
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    print(f"KEIRIN benchmark ({'quick' if args.quick else 'full'}); "
          f"cores available to this process: {len(cores) if cores else '?'}")

    start = time.perf_counter()
    sample_races(options, 10, np.random.default_rng(0))
    print(f"fast sampler: first call (compile or load cache) {time.perf_counter() - start:.2f} s")
    for places in (3, options.riders):
        seconds = best_of(
            repeats, lambda p=places: sample_races(options, n, np.random.default_rng(1), places=p)
        )
        rate = n / seconds
        verdict = "meets" if rate >= TARGET_RACES_PER_SECOND else "below"
        print(f"fast sampler, 9 riders, length 50, first {places} places: {rate:,.0f} races/s "
              f"({n:,} races in {seconds:.2f} s; {verdict} the 1,000,000/s target)")

    # exact odds: a fresh process state each time (the photo-finish table is cached)
    def fresh_odds() -> None:
        odds_module.photo_finish_table.cache_clear()
        odds_module._global_masks.cache_clear()
        odds_module.race_odds(options).to_json()

    seconds = best_of(repeats, fresh_odds)
    verdict = "meets" if seconds < TARGET_ODDS_SECONDS else "misses"
    print(f"exact odds, 9 riders, all five bet types, from scratch: {seconds:.3f} s "
          f"({verdict} the 1 s target)")
    seconds = best_of(repeats, lambda: odds_module.race_odds(options).to_json())
    print(f"exact odds, photo-finish table already cached: {seconds:.3f} s")
    long = KeirinOptions(length=100)
    seconds = best_of(1, lambda: odds_module.race_odds(long).to_json())
    print(f"exact odds, 9 riders, length 100: {seconds:.3f} s")

    ref_n = 1_000 if args.quick else 4_000
    seconds = best_of(1, lambda: simulate_reference(options, ref_n, np.random.default_rng(2)))
    print(f"reference engine (every event): {ref_n / seconds:,.0f} races/s")


if __name__ == "__main__":
    main()
