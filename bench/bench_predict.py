"""WielerSIM predictions: 100,000 Flanders races on 2 workers with the compiled engine, the
cost per race of both engines, and a record-for-record check of the compiled engine.

Run: .venv/bin/python bench/bench_predict.py [--races 100000] [--one 20000]
     [--reference 1000] [--check 250]
Target: 100,000 Flanders races (start list ``flanders``) on 2 workers in under 60 s, that
is about 1.2 ms of CPU per race or less. The machine may be shared: the CPU per race is
what the target depends on; the wall time also holds the waiting for other jobs' CPU
(the load average is printed before and after).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from raceday.games.wielersim.dice import DiceBuffer
from raceday.games.wielersim.fast import CompiledRaces, warm_up
from raceday.games.wielersim.predict import predict
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.rules import (
    fresh_race,
    new_race,
    peloton_spec,
    route_spec,
    run_race_fast,
)


def timed(races: int, workers: int, engine: str) -> tuple[float, float]:
    """Wall seconds and worker CPU seconds of one prediction."""
    start = time.perf_counter()
    pred = predict(route_spec("flanders"), peloton_spec("flanders"), races, seed=2012,
                   workers=workers, engine=engine)
    return time.perf_counter() - start, float(pred.extra["cpu_seconds"])


def check(races: int) -> int:
    """Ride ``races`` races in a row per shipped route and peloton on both engines (one
    dice stream each); return the number of races that differ in any record."""
    differ = total = 0
    for route in SHIPPED_ROUTES:
        for peloton in ("classics", "small", "flanders"):
            template = new_race({"route": route, "peloton": peloton})
            throws = DiceBuffer(np.random.default_rng(2012))
            engine = CompiledRaces(template, np.random.default_rng(2012), keep=races)
            engine.run(races)
            for k in range(races):
                state = run_race_fast(fresh_race(template), throws)
                got = engine.race(k)
                same = (got["results"] == state.results and got["pos"] == state.pos
                        and got["lane"] == state.lane
                        and got["sprint_places"] == state.sprint_places)
                differ += not same
                total += 1
            if engine.faces_used != (throws._i6, throws._i10):
                differ += 1
    print(f"record-for-record check: {total:,} races (4 routes x 3 pelotons), "
          f"{differ} differ (places, gaps, turns, squares, lanes, sprint places)")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=100_000)
    parser.add_argument("--one", type=int, default=20_000,
                        help="races for the 1-worker (in-process) run of the compiled engine")
    parser.add_argument("--reference", type=int, default=1_000,
                        help="races for the 1-worker run of the reference engine")
    parser.add_argument("--check", type=int, default=250,
                        help="races per route and peloton in the record-for-record check")
    args = parser.parse_args()
    print(f"cores available: {len(os.sched_getaffinity(0))}, load average "
          f"{os.getloadavg()[0]:.1f}")
    start = time.process_time()
    warm_up()
    print(f"compiled engine loaded (or compiled) in {time.process_time() - start:.1f} s CPU")
    wall_ref, cpu_ref = timed(args.reference, 1, "reference")
    print(f"reference engine, 1 worker: {args.reference:,} races in {wall_ref:.1f} s wall, "
          f"{cpu_ref / args.reference * 1000:.2f} ms CPU per race")
    wall1, cpu1 = timed(args.one, 1, "fast")
    per_race = cpu1 / args.one
    print(f"compiled engine, 1 worker: {args.one:,} races in {wall1:.1f} s wall, "
          f"{per_race * 1000:.3f} ms CPU per race (x{cpu_ref / args.reference / per_race:.1f} "
          "the reference engine)")
    load = os.getloadavg()[0]
    wall2, cpu2 = timed(args.races, 2, "fast")
    print(f"compiled engine, 2 workers (local Dask cluster): {args.races:,} races in "
          f"{wall2:.1f} s wall (target < 60 s: {'met' if wall2 < 60 else 'NOT met'}), "
          f"{cpu2 / args.races * 1000:.3f} ms CPU per race (target <= 1.2 ms: "
          f"{'met' if cpu2 / args.races <= 0.0012 else 'NOT met'}), load average "
          f"{load:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(f"  on 2 idle cores the computing alone would take {cpu2 / 2:.1f} s "
          "(plus a few seconds to start the cluster)")
    if args.check:
        check(args.check)


if __name__ == "__main__":
    main()
