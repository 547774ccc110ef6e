"""WielerSIM predictions on Dask: Flanders races on 1 and 2 workers, the cost per race and
how the wall time scales with workers (measured 1 -> 2, projected beyond).

Run: .venv/bin/python bench/bench_predict.py [--races 100000] [--one 20000]
Target: 100,000 Flanders races (start list ``flanders``) on 2 workers in under 60 s.
The 1-worker run rides fewer races (``--one``) and is scaled to the same count.
"""

from __future__ import annotations

import argparse
import os
import time

from raceday.games.wielersim.predict import predict
from raceday.games.wielersim.rules import peloton_spec, route_spec


def timed(races: int, workers: int) -> tuple[float, float]:
    """Wall seconds and worker CPU seconds of one prediction."""
    start = time.perf_counter()
    pred = predict(route_spec("flanders"), peloton_spec("flanders"), races, seed=2012,
                   workers=workers)
    return time.perf_counter() - start, float(pred.extra["cpu_seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=100_000)
    parser.add_argument("--one", type=int, default=20_000,
                        help="races for the 1-worker (in-process) run")
    args = parser.parse_args()
    print(f"cores available: {len(os.sched_getaffinity(0))}, load average "
          f"{os.getloadavg()[0]:.1f}")
    wall1, cpu1 = timed(args.one, 1)
    per_race = cpu1 / args.one
    print(f"1 worker (in-process): {args.one:,} races in {wall1:.1f} s wall, "
          f"{per_race * 1000:.2f} ms CPU per race")
    wall2, cpu2 = timed(args.races, 2)
    print(f"2 workers (local Dask cluster): {args.races:,} races in {wall2:.1f} s wall "
          f"(target < 60 s: {'met' if wall2 < 60 else 'NOT met'}), "
          f"{cpu2 / args.races * 1000:.2f} ms CPU per race")
    one_scaled = wall1 * args.races / args.one
    speedup = one_scaled / wall2
    print(f"scaling 1 -> 2 workers: {one_scaled:.1f} s -> {wall2:.1f} s "
          f"(x{speedup:.2f}, efficiency {speedup / 2:.0%})")
    print(f"load average after the runs: {os.getloadavg()[0]:.1f} (wall times above include "
          "waiting for other jobs' CPU)")
    for k in (2, 4, 8, 16, 32):  # from CPU alone: what idle cores would take, Dask aside
        print(f"  projected on {k:2d} idle cores: {cpu2 / k:6.1f} s of computing "
              f"(worker CPU {cpu2:.0f} s / {k}) plus a few seconds to start the cluster")


if __name__ == "__main__":
    main()
