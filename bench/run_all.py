"""Run every benchmark under bench/ (bench_*.py) one after the other and print the figures.

Arguments are passed to every benchmark: ``--quick`` (which every one of them accepts)
runs each in its short form. The exit status is non-zero if any benchmark failed, and
those are named at the end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def commands(extra: list[str]) -> list[list[str]]:
    """One command line per benchmark, each given ``extra``."""
    return [[sys.executable, str(script), *extra] for script in sorted(HERE.glob("bench_*.py"))]


def main() -> int:
    failed = []
    for command in commands(sys.argv[1:]):
        name = Path(command[1]).name
        print(f"== {name}", flush=True)
        if subprocess.call(command) != 0:
            failed.append(name)
    if failed:
        print(f"== failed: {', '.join(failed)}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
