"""KEIRIN benchmark: fast sampler races/s on one core, exact odds time, reference engine,
start-up of `raceday keirin odds --json`, and the peak memory of large simulations.

Run: .venv/bin/python bench/bench_keirin.py [--quick] [--memory-only]
(Pin to one core for the per-core figure: taskset -c 0 nice .venv/bin/python ...)

Peak memory is measured in a fresh subprocess per run (``resource.getrusage`` ru_maxrss,
KiB on Linux), once after loading the compiled sampler and once after the simulation, so the
difference is what the simulation itself held. The streamed ``simulate`` keeps counts only;
``sample_races`` (every race kept) is measured alongside for contrast.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

from raceday.games.keirin import odds as odds_module
from raceday.games.keirin.fast import sample_races
from raceday.games.keirin.rules import KeirinOptions
from raceday.games.keirin.simulate import simulate_reference

TARGET_RACES_PER_SECOND = 1_000_000
TARGET_ODDS_SECONDS = 0.15  # cold, 9 riders (in-process and whole process)


def best_of(repeats: int, run: object) -> float:
    assert callable(run)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


MEMORY_PROBE = """
import resource, sys, time
import numpy as np
from raceday.games.keirin.rules import KeirinOptions
from raceday.games.keirin.simulate import simulate
from raceday.games.keirin.fast import sample_races
n, how = int(sys.argv[1]), sys.argv[2]
simulate(KeirinOptions(), 10, np.random.default_rng(0))  # load the compiled kernel first
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
if how == "streamed":
    simulate(KeirinOptions(), n, np.random.default_rng(1))
else:
    sample_races(KeirinOptions(), n, np.random.default_rng(1))
seconds = time.perf_counter() - start
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, seconds)
"""


def peak_memory(n: int, how: str) -> tuple[float, float, float]:
    """(MiB before, MiB peak after, seconds) of one simulation in a fresh process."""
    out = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(n), how], check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]) / 1024, int(out[1]) / 1024, float(out[2])


def memory_report(quick: bool) -> None:
    sizes = (1_000_000, 10_000_000) if quick else (1_000_000, 10_000_000, 100_000_000)
    for n in sizes:
        before, after, seconds = peak_memory(n, "streamed")
        print(f"keirin simulate (streamed), {n:,} races: peak {after:,.0f} MiB "
              f"(+{after - before:,.1f} MiB over the loaded program) in {seconds:.1f} s")
    n = 10_000_000
    before, after, seconds = peak_memory(n, "in-memory")
    print(f"for contrast, every race kept in memory (sample_races), {n:,} races: peak "
          f"{after:,.0f} MiB (+{after - before:,.1f} MiB) in {seconds:.1f} s")


COLD_PROBE = """
import time
from raceday.games.keirin.odds import race_odds
from raceday.games.keirin.rules import KeirinOptions
start = time.perf_counter()
race_odds(KeirinOptions()).to_json()
print(time.perf_counter() - start)
"""


def _whole_process(*command: str) -> list[float]:
    """Five wall-clock times of ``command`` run as its own process (output discarded)."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "COLUMNS": "100"})
        times.append(time.perf_counter() - start)
    return times


def startup_report() -> None:
    """Whole-process time of `raceday keirin odds --json` and the first (cold) exact odds
    in a fresh process after its imports, best of 5 each, with the load average."""
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    raceday = os.path.join(os.path.dirname(sys.executable), "raceday")
    times = _whole_process(raceday, "keirin", "odds", "--json")
    tables = _whole_process(raceday, "keirin", "odds")
    floor = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import raceday.launch, "
                        "raceday.games.keirin.quick, raceday.games.keirin.odds"], check=True)
        floor.append(time.perf_counter() - start)
    verdict = "meets" if min(times) <= TARGET_ODDS_SECONDS else "misses"
    print(f"raceday keirin odds --json, whole process: best of 5 {min(times):.3f} s, median "
          f"{sorted(times)[2]:.3f} s ({verdict} the {TARGET_ODDS_SECONDS} s target; its "
          f"imports alone: {min(floor):.3f} s)")
    verdict = "meets" if min(tables) <= TARGET_ODDS_SECONDS else "misses"
    print(f"raceday keirin odds (the tables), whole process: best of 5 {min(tables):.3f} s, "
          f"median {sorted(tables)[2]:.3f} s ({verdict} the {TARGET_ODDS_SECONDS} s target)")
    cold = [float(subprocess.run([sys.executable, "-c", COLD_PROBE], check=True,
                                 capture_output=True, text=True).stdout) for _ in range(5)]
    verdict = "meets" if min(cold) <= TARGET_ODDS_SECONDS else "misses"
    print(f"exact odds, 9 riders, first call in a fresh process (in-process, cold): best of "
          f"5 {min(cold) * 1000:.1f} ms, median {sorted(cold)[2] * 1000:.1f} ms ({verdict} the "
          f"{TARGET_ODDS_SECONDS} s target)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="Fewer races and repeats.")
    parser.add_argument("--memory-only", action="store_true",
                        help="Only the start-up and peak-memory figures.")
    args = parser.parse_args()
    startup_report()
    memory_report(args.quick)
    if args.memory_only:
        return
    n = 1_000_000 if args.quick else 5_000_000
    repeats = 2 if args.quick else 3
    options = KeirinOptions()  # 9 riders, length 50
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    print(f"KEIRIN benchmark ({'quick' if args.quick else 'full'}); "
          f"cores available to this process: {len(cores) if cores else '?'}")

    start = time.perf_counter()
    sample_races(options, 10, np.random.default_rng(0))
    print(f"compile/load: {time.perf_counter() - start:.2f} s (the fast sampler's first "
          "call, 10 races; not in the rates below)", flush=True)
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
        odds_module.race_odds(options).to_json()

    def solved_odds() -> None:
        odds_module.photo_finish_table.cache_clear()
        odds_module.solve_photo_finish_table()
        odds_module.race_odds(options).to_json()

    seconds = best_of(repeats, fresh_odds)
    verdict = "meets" if seconds < TARGET_ODDS_SECONDS else "misses"
    print(f"exact odds, 9 riders, all five bet types, shipped photo table loaded: "
          f"{seconds:.3f} s ({verdict} the {TARGET_ODDS_SECONDS} s target)")
    seconds = best_of(repeats, solved_odds)
    print(f"exact odds, 9 riders, photo-finish table solved too: {seconds:.3f} s")
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
