"""Start-up time of whole `raceday` processes (best of 5), against the hardening targets."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

TARGETS = (
    (("--help",), 0.25),
    (("keirin", "odds", "--json"), 0.5),
    (("derby", "odds"), 0.35),
)
RUNS = 5


def raceday_command() -> list[str]:
    """The installed console script beside this Python, else ``python -m raceday``."""
    script = Path(sys.executable).with_name("raceday")
    if script.exists():
        return [str(script)]
    found = shutil.which("raceday")
    return [found] if found else [sys.executable, "-m", "raceday"]


def best_of(argv: list[str], runs: int = RUNS) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    base = raceday_command()
    print(f"{'command':32} {'best of 5':>10} {'target':>8}")
    for args, target in TARGETS:
        seconds = best_of([*base, *args])
        ok = seconds < target
        label = "raceday " + " ".join(args)
        print(f"{label:32} {seconds:9.3f}s {target:7.2f}s {'ok' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
