"""A server process settles the garbage collector before serving (raceday.web.server.
settle_collector): what it holds at the start is frozen out of every collection and young
collections are rarer, so a full collection does not stall a loaded event loop; both
``python -m raceday.web.server`` and ``raceday serve`` do it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from raceday.web.server import COLLECTOR_THRESHOLDS, free_port


def _after_start(tmp_path: Path, start: str) -> str:
    """What a fresh interpreter reports of its collector once ``start`` has run, with
    uvicorn's serving replaced by the report (nothing listens)."""
    script = textwrap.dedent(f"""
        import gc, uvicorn
        def report(self, *args, **kwargs):
            print(gc.get_threshold(), gc.get_freeze_count() > 1000)
            self.started = True
        uvicorn.Server.run = report
        {start}
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_the_benchmark_server_settles_the_collector(tmp_path: Path) -> None:
    out = _after_start(tmp_path, "from raceday.web.server import main; "
                                 f"main([{str(tmp_path / 'p.sqlite')!r}, '1'])")
    assert out == f"{COLLECTOR_THRESHOLDS} True"


def test_raceday_serve_settles_the_collector(tmp_path: Path) -> None:
    out = _after_start(tmp_path, "from pathlib import Path; "
                                 "from raceday.cli.serve import serve_command; "
                                 f"serve_command('127.0.0.1', {free_port()}, "
                                 f"Path({str(tmp_path / 'p.sqlite')!r}))")
    assert out == f"{COLLECTOR_THRESHOLDS} True"
