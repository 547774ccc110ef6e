"""Run every benchmark under bench/ (bench_*.py) one after the other and print the figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).parent
    extra = sys.argv[1:]
    status = 0
    for script in sorted(here.glob("bench_*.py")):
        print(f"== {script.name}", flush=True)
        status |= subprocess.call([sys.executable, str(script), *extra])
    return status


if __name__ == "__main__":
    raise SystemExit(main())
