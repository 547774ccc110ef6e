"""`raceday --help` starts light and prints exactly what the full command line prints.

No test here times anything: they assert which modules a help request imports, and that
the fast help's bytes are the full command line's bytes (bench/bench_startup.py has the
times).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from raceday.cli._quick_help import commands
from raceday.cli._tools import discover_tools
from raceday.core.discovery import discover

RACEDAY = Path(sys.executable).with_name("raceday")
FULL = "import sys; from raceday.cli.main import main; sys.argv[0] = 'raceday'; main()"
HEAVY = ("typer", "fastapi", "numpy", "pydantic", "dask", "distributed", "numba",
         "markdown_it", "pygments", "attr", "uvicorn", "rich.progress", "raceday.games",
         "importlib.metadata")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "PY_COLORS", "NO_COLOR",
                        "TERMINAL_WIDTH", "GITHUB_ACTIONS", "TYPER_USE_RICH")}
    return {**env, **extra}


def _run(argv: list[str], **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, capture_output=True, timeout=120, env=_env(**env))


def _imported_by(argv: list[str], **env: str) -> set[str]:
    """The modules loaded by the console script's code for ``raceday ARGV``."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr))\n"
            f"sys.argv = ['raceday', *{argv!r}]\n"
            "from raceday.launch import main\n"
            "main()\n")
    done = _run([sys.executable, "-c", code], **env)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stderr.decode().splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


def _heavy(modules: set[str]) -> list[str]:
    """The heavy libraries among ``modules``, and any game's modules (the games' folders
    are read to list them, never imported; importlib.metadata only where an installed
    distribution declares games, and none does here)."""
    return sorted(m for m in modules if any(m == h or m.startswith(f"{h}.") for h in HEAVY))


@pytest.mark.parametrize("env", [
    {},
    {"COLUMNS": "120"},
    {"COLUMNS": "52"},
    {"FORCE_COLOR": "1"},
    {"FORCE_COLOR": "1", "TERMINAL_WIDTH": "100", "COLORTERM": "truecolor"},
    {"PY_COLORS": "1", "NO_COLOR": "1"},
    {"PYTHONIOENCODING": "ascii"},  # left to the full command, which draws in ASCII
], ids=lambda env: " ".join(f"{k}={v}" for k, v in env.items()) or "plain")
def test_the_fast_help_prints_the_full_command_lines_bytes(env: dict[str, str]) -> None:
    fast = _run([str(RACEDAY), "--help"], **env)
    full = _run([sys.executable, "-c", FULL, "--help"], **env)
    assert fast.returncode == full.returncode == 0
    assert fast.stdout == full.stdout
    assert fast.stderr == full.stderr == b""
    plain = re.sub(rb"\x1b\[[0-9;]*m", b"", fast.stdout)
    assert b"Usage: raceday [OPTIONS] COMMAND [ARGS]..." in plain


def test_the_fast_help_lists_what_the_root_group_lists() -> None:
    games = discover(with_module="cli")
    tools = [t for t in discover_tools() if t not in games]
    assert [name for name, _ in commands()] == sorted(games) + sorted(tools)


@pytest.mark.parametrize("argv", [["--help"], []], ids=["--help", "bare"])
def test_help_imports_neither_typer_nor_any_game_nor_a_heavy_library(argv: list[str]) -> None:
    modules = _imported_by(argv)
    assert "raceday.cli._quick_help" in modules
    assert _heavy(modules) == []
    assert "raceday.cli.main" not in modules and "raceday.terminal.common" not in modules


def test_help_without_the_fast_path_still_imports_no_game() -> None:
    # a help the fast path leaves alone runs the full command line, whose games and tools
    # are loaded only when one of them runs
    for argv, env in (([], {"TYPER_USE_RICH": "1"}), (["--help"], {"TYPER_USE_RICH": "1"})):
        modules = _imported_by(argv, **env)
        assert "typer" in modules and "raceday.cli.main" in modules
        assert not {"numpy", "fastapi", "pydantic", "dask", "numba"} & modules, argv
        assert not any(m.startswith("raceday.games.") for m in modules), argv


@pytest.mark.parametrize("env", [{}, {"FORCE_COLOR": "1", "COLUMNS": "100"},
                                 {"TYPER_USE_RICH": "1"}], ids=["plain", "colour", "full"])
def test_a_bare_raceday_prints_the_same_as_before(env: dict[str, str]) -> None:
    launcher = _run([str(RACEDAY)], **env)
    full = _run([sys.executable, "-c", FULL], **env)
    assert launcher.returncode == full.returncode == 0
    assert launcher.stdout == full.stdout and b"Commands" in launcher.stdout
    assert launcher.stderr == full.stderr == b""


def test_an_output_that_is_not_unicode_still_gets_the_ascii_stand_ins() -> None:
    done = _run([str(RACEDAY), "--help"], PYTHONIOENCODING="ascii")
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert b"+- Commands" in done.stdout


@pytest.mark.parametrize("name", [name for name, _ in commands()])
def test_every_commands_help_still_works(name: str) -> None:
    done = _run([str(RACEDAY), name, "--help"])
    assert done.returncode == 0, done.stderr
    assert f"Usage: raceday {name}".encode() in done.stdout
    assert done.stderr == b""

