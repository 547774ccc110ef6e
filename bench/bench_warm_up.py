"""What ``raceday warm-up`` costs on a fresh install, engine by engine.

Each engine is warmed in a fresh process with an empty temporary NUMBA_CACHE_DIR (a fresh
install's cold cache), one engine at a time, so the figures do not depend on what another
engine compiled first (kernels an engine shares, such as the random numbers of
``raceday.core.fastrng``, are compiled by each). For every engine it prints the kernels
(numba functions compiled on their own), the signatures compiled (a kernel compiled for two
argument types counts twice), the wall-clock seconds and the CPU seconds of the process
(user + system, numba's import included), then the totals, and the whole ``raceday warm-up``
as ``make demo`` runs it (its engines spread over the machine's cores) with its wall-clock
and CPU
time; then with ``--all`` (the optional engine too) and with ``--jobs 1``. The load average
is printed with the figures: on a busy machine every figure grows.

Run: .venv/bin/python bench/bench_warm_up.py [--only ENGINE ...] [--quick]
(``--quick``: Keirin's engine alone, the quickest, and not the whole warm-up.)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

# Run in the child: warm one engine and report what it compiled.
CHILD = """
import json, sys
from raceday.terminal import warm
engine = warm.engines_named([sys.argv[1]])[0]
result = warm.warm_engine(engine)
signatures = sum(len(d.signatures) for d in warm.kernels(engine).values())
print(json.dumps({"kernels": result.kernels, "signatures": signatures,
                  "missing": list(result.missing)}))
"""


def child_cpu() -> float:
    """CPU seconds (user + system) of the children waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(engine: str, after: tuple[str, ...]) -> dict[str, object]:
    """Warm ``engine`` in a fresh process with an empty cache (but for the engines it comes
    ``after``, warmed first and not counted, as a warm-up does)."""
    with tempfile.TemporaryDirectory(prefix="raceday-bench-warm-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for first in after:
            subprocess.run([sys.executable, "-c", CHILD, first], env=env,
                           capture_output=True, check=True)
        cpu = child_cpu()
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD, engine], env=env,
                             capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        found = json.loads(out.stdout.strip().splitlines()[-1])
    return {"engine": engine, "wall": wall, "cpu": child_cpu() - cpu, **found}


def whole_warm_up(*extra: str) -> tuple[float, float]:
    """The whole ``raceday warm-up --quiet`` with an empty cache: (wall, CPU) seconds."""
    with tempfile.TemporaryDirectory(prefix="raceday-bench-warm-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cpu = child_cpu()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "raceday", "warm-up", "--quiet", *extra],
                       env=env, check=True)
        return time.perf_counter() - start, child_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", metavar="ENGINE",
                        help="measure only this engine (repeatable)")
    parser.add_argument("--quick", action="store_true",
                        help="KEIRIN's engine alone, and not the whole warm-up")
    args = parser.parse_args()
    from raceday.terminal import warm

    names = args.only or (["keirin"] if args.quick else [e.name for e in warm.engines()])
    after = {e.name: e.after for e in warm.engines()}
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores", flush=True)
    print(f"{'engine':16} {'kernels':>7} {'signatures':>10} {'wall s':>8} {'CPU s':>8}")
    totals = [0, 0, 0.0, 0.0]
    for name in names:
        row = measure(name, after[name])
        print(f"{name:16} {row['kernels']:>7} {row['signatures']:>10} {row['wall']:>8.1f} "
              f"{row['cpu']:>8.1f}", flush=True)
        if row["missing"]:
            print(f"  still cold afterwards: {', '.join(map(str, row['missing']))}")
        for i, key in enumerate(("kernels", "signatures", "wall", "cpu")):
            totals[i] += row[key]  # type: ignore[operator]
    print(f"{'total':16} {totals[0]:>7} {totals[1]:>10} {totals[2]:>8.1f} {totals[3]:>8.1f}")
    if not args.quick and not args.only:
        for extra, what in (((), "the players' and simulators' engines, as make demo runs it"),
                            (("--all",), "every engine, as make test runs it"),
                            (("--jobs", "1"), "the players' engines one at a time")):
            wall, cpu = whole_warm_up(*extra)
            print(f"raceday warm-up {' '.join(extra)} ({what}): {wall:.1f} s wall, "
                  f"{cpu:.1f} s CPU", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
