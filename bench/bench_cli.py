"""Start-up of ``raceday --help`` against importing Typer and Rich alone.

Target: a whole ``raceday --help`` within 1.5 times ``python -c "import typer, rich"``
(the issue measured 1.82 times). Each figure is the minimum of ``--runs`` whole processes,
the commands taken in turns so that all see the same load; the load average is printed
before and after (the machine may be shared: every figure grows with it, the ratios far
less).

Beside it: a bare ``raceday`` (the same help, the same fast path), the same help printed
by the full command line (Typer builds the commands and draws the help: what ``raceday
--help`` ran before its fast path; ``TYPER_USE_RICH=1`` sends the launcher there) and the
interpreter alone.

Run: .venv/bin/python bench/bench_cli.py [--runs N] [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

RUNS = 40
QUICK_RUNS = 5
TARGET = 1.5
FULL = "import sys; from raceday.cli.main import main; sys.argv[0] = 'raceday'; main()"


def raceday_command() -> list[str]:
    """The installed console script beside this Python, else ``python -m raceday``."""
    script = Path(sys.executable).with_name("raceday")
    return [str(script)] if script.exists() else [sys.executable, "-m", "raceday"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=None,
                        help=f"whole processes per figure, minimum kept (default {RUNS})")
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_RUNS} runs per figure: a smoke run")
    args = parser.parse_args()
    runs = args.runs or (QUICK_RUNS if args.quick else RUNS)
    python = sys.executable
    cases = {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import typer, rich'": [python, "-c", "import typer, rich"],
        "raceday --help": [*raceday_command(), "--help"],
        "raceday (bare)": raceday_command(),
        "raceday --help, full command line": [python, "-c", FULL, "--help"],
        "  the same through the launcher": ["env", "TYPER_USE_RICH=1", *raceday_command(),
                                            "--help"],
    }
    best = dict.fromkeys(cases, float("inf"))
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for _ in range(runs):
        for label, argv in cases.items():
            start = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            best[label] = min(best[label], time.perf_counter() - start)
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    floor = best["python -c 'import typer, rich'"]
    print(f"{'':36} {f'min of {runs}':>10} {'x typer+rich':>13}")
    for label, seconds in best.items():
        print(f"{label:36} {seconds * 1000:8.1f}ms {seconds / floor:12.2f}x")
    ratio = best["raceday --help"] / floor
    print(f"raceday --help: {ratio:.2f} x 'import typer, rich' (target <= {TARGET}: "
          f"{'met' if ratio <= TARGET else 'MISSED'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
