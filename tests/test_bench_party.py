"""bench/bench_party.py: a tiny sweep really plays (one and two rooms of two phones at the
fastest pace, on loopback), prints one table row a run, and the delta protocol sends fewer
bytes an update than full views. Counts and bytes are checked, never times."""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[1] / "bench" / "bench_party.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_party", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_room_has_its_own_loopback_address() -> None:
    bench = _bench()
    addresses = [bench.source_address(k) for k in range(200)]
    assert len(set(addresses)) == 200
    assert all(a.startswith("127.") and a != "127.0.0.1" for a in addresses)


def test_sweep_counts_are_bounded() -> None:
    bench = _bench()
    assert bench.sweep_counts("20,50,100,200") == [20, 50, 100, 200]
    for bad in ("", "0", "201", "a,b", ",".join(["5"] * (bench.MAX_SWEEP + 1))):
        with pytest.raises(argparse.ArgumentTypeError):
            bench.sweep_counts(bad)


@pytest.mark.timeout(900)
def test_a_small_sweep_plays_every_room_with_deltas() -> None:
    # two short runs (hang guard: the bench's own --deadline, and the timeout above)
    out = subprocess.run(
        [sys.executable, str(BENCH), "--sweep", "1,2", "--phones", "2", "--procs", "1",
         "--stagger", "0", "--pace", "0.2", "--deadline", "300"],
        capture_output=True, text=True, timeout=800)
    assert out.returncode == 0, out.stderr[-2000:]
    rows = [line for line in out.stdout.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == 2, out.stdout
    for rooms, row in zip((1, 2), rows, strict=True):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[0] == str(rooms) and cells[1] == str(rooms * 3)
        assert cells[6] == f"{rooms}/{rooms}", row  # every room finished
        assert cells[7] == "0", row  # no errors (no 429 from one address a room)
        sent, full = re.fullmatch(r"(\d+) \((\d+)\)", cells[8]).groups()  # type: ignore[union-attr]
        assert 0 < int(sent) * 2 < int(full), row  # a patch weighs well under a full view
    assert "deltas, one source address a room" in out.stdout


@pytest.mark.timeout(900)
def test_two_server_processes_share_the_rooms() -> None:
    # each party is created on its shard and played there; the target line is not checked
    out = subprocess.run(
        [sys.executable, str(BENCH), "--rooms", "2", "--shards", "2", "--phones", "2",
         "--procs", "1", "--stagger", "0", "--pace", "0.2", "--deadline", "300"],
        capture_output=True, text=True, timeout=800)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "2 server processes" in out.stdout
    assert "rooms finished 2/2" in out.stdout and "errors 0" in out.stdout, out.stdout
