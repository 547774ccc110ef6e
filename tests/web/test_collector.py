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


def test_the_server_runs_on_libuv_and_httptools() -> None:
    """uvloop and httptools are dependencies (not on Windows): uvicorn's automatic choice
    then takes libuv's event loop and the C HTTP parser, which under load send a frame
    for a fraction of asyncio's pure-Python transport."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from raceday.web.server import uvicorn_config

    async def app(scope: object, receive: object, send: object) -> None:
        """An ASGI app that is never called."""

    config = uvicorn_config(app, "127.0.0.1", free_port())
    config.load()
    assert config.get_loop_factory().__module__ == "uvloop"
    assert config.http_protocol_class is HttpToolsProtocol
