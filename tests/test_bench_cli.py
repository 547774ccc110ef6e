"""Every benchmark under bench/ accepts --quick, and `bench/run_all.py --quick` passes it to
each. Only the argument parsers run here (``--help``), never a benchmark."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).parents[1] / "bench"
SCRIPTS = sorted(BENCH.glob("bench_*.py"))


def test_there_are_benchmarks() -> None:
    assert len(SCRIPTS) >= 9, SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_each_benchmark_accepts_quick(script: Path) -> None:
    # --help runs the script's imports and its argument parser, then exits (a hang guard
    # far above the few seconds this takes)
    out = subprocess.run([sys.executable, str(script), "--help"], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "--quick" in out.stdout, out.stdout


def test_run_all_passes_its_arguments_to_every_benchmark() -> None:
    spec = importlib.util.spec_from_file_location("bench_run_all", BENCH / "run_all.py")
    assert spec is not None and spec.loader is not None
    run_all = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_all)
    commands = run_all.commands(["--quick"])
    assert [Path(c[1]) for c in commands] == sorted(BENCH.glob("bench_*.py"))
    assert all(c[0] == sys.executable and c[2:] == ["--quick"] for c in commands)
