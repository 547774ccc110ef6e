"""WielerSIM predictions: whole `raceday wielersim predict` commands by default against
`--workers 1` at several job sizes, what a local Dask cluster costs to start, 100,000
Flanders races on 2 workers with the compiled engine, the cost per race of both engines,
and a record-for-record check of the compiled engine.

Run: .venv/bin/python bench/bench_predict.py [--quick] [--sizes 2000,20000,100000]
     [--repeats 5] [--compare-only] [--races 100000] [--one 20000] [--reference 1000]
     [--check 250]
Targets: the default (which sizes the executor to the job) is never more than 10 % slower
than `--workers 1` (each figure the minimum of --repeats runs, taken in turns, so both
see the same load); 100,000 Flanders races (start list ``flanders``) on 2 workers in under
60 s, that is about 1.2 ms of CPU per race or less. The machine may be shared: the CPU per
race is what that target depends on; the wall time also holds the waiting for other jobs'
CPU (the load average is printed before and after).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

from raceday.games.wielersim.dice import DiceBuffer
from raceday.games.wielersim.fast import CompiledRaces, warm_up
from raceday.games.wielersim.game import new_race
from raceday.games.wielersim.predict import predict
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.rules import (
    fresh_race,
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


TELL_EXECUTOR = """
import sys
import raceday.games.wielersim.predict as module
real = module.predict
def predict(*args, **kwargs):
    pred = real(*args, **kwargs)
    print("RAN", pred.extra["executor"], file=sys.stderr)
    return pred
module.predict = predict
sys.argv[0] = "raceday"
from raceday.launch import main
main()
"""


def default_against_one(sizes: list[int], repeats: int) -> bool:
    """Whole ``raceday wielersim predict flanders flanders -n N`` commands, by default and
    with ``--workers 1``, minimum of ``repeats`` runs each (taken in turns); True when the
    default is within 10 % of ``--workers 1`` at every size. The JSON outputs must match."""
    # the console script's code, reporting on stderr where the default ran the races
    base = [sys.executable, "-c", TELL_EXECUTOR, "wielersim", "predict", "flanders",
            "flanders", "--seed", "2012", "--json"]
    ok = True
    print(f"{'races':>8} {'default':>9} {'--workers 1':>12} {'ratio':>6}  (min of {repeats} "
          "whole commands each)")
    for n in sizes:
        best = {"default": float("inf"), "one": float("inf")}
        outputs: dict[str, bytes] = {}
        where: set[str] = set()
        for _ in range(repeats):
            for key, extra in (("default", []), ("one", ["--workers", "1"])):
                start = time.perf_counter()
                done = subprocess.run([*base, "-n", str(n), *extra], check=True,
                                      capture_output=True)
                best[key] = min(best[key], time.perf_counter() - start)
                outputs[key] = done.stdout
                if key == "default":
                    where |= {line.split(" ", 1)[1].split(" (")[0] for line in
                              done.stderr.decode().splitlines() if line.startswith("RAN ")}
        ratio = best["default"] / best["one"]
        ok &= ratio <= 1.10
        same = "same numbers" if outputs["default"] == outputs["one"] else "NUMBERS DIFFER"
        ok &= outputs["default"] == outputs["one"]
        print(f"{n:>8,} {best['default']:8.2f}s {best['one']:11.2f}s {ratio:6.2f}  "
              f"{'ok' if ratio <= 1.10 else 'MISSED'} (target <= 1.10), {same}; the default "
              f"ran {' / '.join(sorted(where))}")
    return ok


def probe_cluster() -> None:
    """In a fresh process: import Dask, start a local cluster of 2 single-threaded workers
    and close it; print the three times (what a cluster costs before any work)."""
    import logging
    import warnings

    start = time.perf_counter()
    from raceday.core.runner import quiet_dask

    quiet_dask()
    from distributed import Client, LocalCluster

    imported = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = LocalCluster(n_workers=2, threads_per_worker=1,  # type: ignore[no-untyped-call]
                               processes=True, dashboard_address=None, host="127.0.0.1",
                               silence_logs=logging.CRITICAL)
    client = Client(cluster)  # type: ignore[no-untyped-call]
    client.wait_for_workers(2)
    started = time.perf_counter()
    client.close()  # type: ignore[no-untyped-call]
    cluster.close()
    closed = time.perf_counter()
    print(f"{imported - start:.2f} {started - imported:.2f} {closed - started:.2f}")


def cluster_cost(repeats: int) -> None:
    """The start-up a local cluster adds (min of ``repeats`` fresh processes), beside the
    estimate the runner uses (:data:`raceday.core.runner.CLUSTER_STARTUP`)."""
    from raceday.core.runner import CLUSTER_STARTUP

    start = time.perf_counter()
    warm_up()  # the first call in this process: what a fresh worker pays before its races
    load = time.perf_counter() - start
    best = [float("inf")] * 3
    for _ in range(repeats):
        out = subprocess.run([sys.executable, __file__, "--probe-cluster"], check=True,
                             capture_output=True, text=True).stdout.split()
        best = [min(b, float(x)) for b, x in zip(best, out[-3:], strict=True)]
    print(f"local cluster of 2 workers (min of {repeats}): import Dask {best[0]:.2f} s, start "
          f"{best[1]:.2f} s, close {best[2]:.2f} s = {sum(best):.2f} s (the runner estimates "
          f"{CLUSTER_STARTUP:.1f} s, plus what a process's first chunk takes beyond the "
          f"others' pace: loading the compiled engine, {load:.2f} s here)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and few repeats: a smoke run of every part")
    parser.add_argument("--sizes", default=None,
                        help="races per command for default vs --workers 1, comma-separated "
                        "(default 2000,20000,100000; --quick 500,2000)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="runs per figure, minimum kept (default 5; --quick 2)")
    parser.add_argument("--races", type=int, default=None,
                        help="races on 2 workers (default 100,000; --quick 5,000)")
    parser.add_argument("--one", type=int, default=None,
                        help="races for the 1-worker (in-process) run of the compiled engine "
                        "(default 20,000; --quick 2,000)")
    parser.add_argument("--reference", type=int, default=None,
                        help="races for the 1-worker run of the reference engine "
                        "(default 1,000; --quick 100)")
    parser.add_argument("--check", type=int, default=None,
                        help="races per route and peloton in the record-for-record check "
                        "(default 250; --quick 20)")
    parser.add_argument("--compare-only", action="store_true",
                        help="only the whole commands, by default and with --workers 1")
    parser.add_argument("--probe-cluster", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe_cluster:
        probe_cluster()
        return

    def pick(value: int | None, full: int, quick: int) -> int:
        return value if value is not None else quick if args.quick else full

    sizes = ([int(x) for x in args.sizes.split(",")] if args.sizes else
             [500, 2_000] if args.quick else [2_000, 20_000, 100_000])
    repeats = pick(args.repeats, 5, 2)
    args.races = pick(args.races, 100_000, 5_000)
    args.one = pick(args.one, 20_000, 2_000)
    args.reference = pick(args.reference, 1_000, 100)
    args.check = pick(args.check, 250, 20)
    print(f"cores available: {len(os.sched_getaffinity(0))}, load average "
          f"{os.getloadavg()[0]:.1f}")
    default_against_one(sizes, repeats)
    print(f"load average {os.getloadavg()[0]:.1f}")
    if args.compare_only:
        return
    cluster_cost(repeats)
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
