"""Open files (#44): with 1,024 descriptors, eleven addresses at their socket cap made
innocent guests get "connection reset". ``raceday serve`` raises its soft RLIMIT_NOFILE to
the hard limit, says in one line when the limit is still below what the socket caps need
(:func:`raceday.web.server.descriptors_needed`), and the systemd unit sets LimitNOFILE."""

from __future__ import annotations

import inspect
import os
import re
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from raceday.present import render
from raceday.web import server
from raceday.web.app import create_app
from raceday.web.server import ADDRESSES, descriptors_needed, free_port

ROOT = Path(__file__).parents[2]
HANG = 120  # seconds: a guard against a hang only
DEFAULT_SOCKETS = int(inspect.signature(create_app).parameters["max_sockets"].default)


class Limits:
    """resource.getrlimit/setrlimit of RLIMIT_NOFILE, kept here."""

    def __init__(self, soft: int, hard: int, refuse: bool = False) -> None:
        self.now = (soft, hard)
        self.refuse = refuse
        self.set: list[tuple[int, int]] = []

    def getrlimit(self, which: int) -> tuple[int, int]:
        assert which == resource.RLIMIT_NOFILE
        return self.now

    def setrlimit(self, which: int, limits: tuple[int, int]) -> None:
        assert which == resource.RLIMIT_NOFILE
        self.set.append(limits)
        if self.refuse:
            raise ValueError("not allowed")
        self.now = limits


@pytest.mark.parametrize(("soft", "hard", "refuse", "raised", "result"), [
    (1024, 65536, False, [(65536, 65536)], 65536),  # raised to the hard limit
    (4096, 4096, False, [], 4096),  # nothing to raise
    (1024, resource.RLIM_INFINITY, True, [(resource.RLIM_INFINITY,) * 2], 1024),  # macOS
    (resource.RLIM_INFINITY, resource.RLIM_INFINITY, False, [], None),  # no limit at all
])
def test_the_soft_limit_is_raised_to_the_hard_one(monkeypatch: pytest.MonkeyPatch, soft: int,
                                                  hard: int, refuse: bool,
                                                  raised: list[tuple[int, int]],
                                                  result: int | None) -> None:
    limits = Limits(soft, hard, refuse)
    monkeypatch.setattr(resource, "getrlimit", limits.getrlimit)
    monkeypatch.setattr(resource, "setrlimit", limits.setrlimit)
    assert server.raise_open_files() == result
    assert limits.set == raised


def test_the_need_grows_with_the_socket_cap() -> None:
    assert descriptors_needed(100) == 100 * ADDRESSES + server.HEADROOM
    assert descriptors_needed(100) > 11 * 100 + 64  # the report's eleven addresses fit
    assert descriptors_needed(300) > descriptors_needed(100)


def _serve_with_limits(tmp_path: Path, soft: int, hard: int, *limits: str
                       ) -> tuple[int, str, str]:
    """``raceday serve`` (without serving) in a process started with RLIMIT_NOFILE at
    (soft, hard); returns its soft limit after the start, and its stdout and stderr."""
    code = ("import resource, sys\n"
            "from pathlib import Path\n"
            "from raceday.cli.serve import serve_command\n"
            f"serve_command('127.0.0.1', {free_port()}, Path(sys.argv[1]), run=False, "
            f"limits={list(limits)!r})\n"
            "print('soft limit', resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n")

    def lowered() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "party.sqlite")],
                          capture_output=True, text=True, timeout=HANG, preexec_fn=lowered,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src"),
                               "COLUMNS": "300"})
    assert done.returncode == 0, done.stderr
    found = re.search(r"^soft limit (\d+)$", done.stdout, re.M)
    assert found is not None, done.stdout
    return int(found.group(1)), done.stdout, done.stderr


def _warning(limit: int, sockets: int) -> str:
    return render("tool.serve.descriptors", "en", params={
        "limit": limit, "need": descriptors_needed(sockets), "addresses": ADDRESSES,
        "sockets": sockets})


def test_serve_raises_a_low_soft_limit_and_says_nothing_then(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < descriptors_needed(DEFAULT_SOCKETS):
        pytest.skip(f"this machine's hard limit ({hard}) is below what a server needs")
    soft, _, err = _serve_with_limits(tmp_path, 256, hard)
    assert soft == hard
    assert "files and sockets open" not in err


def test_serve_says_in_one_line_when_the_limit_is_too_low(tmp_path: Path) -> None:
    soft, _, err = _serve_with_limits(tmp_path, 512, 512)
    assert soft == 512  # the hard limit cannot be passed
    lines = [line for line in err.splitlines() if "files and sockets open" in line]
    assert lines == [_warning(512, DEFAULT_SOCKETS)], err
    assert "LimitNOFILE" in lines[0] and "max-sockets" in lines[0]
    # the need follows the cap the host set: a small one fits
    small = (512 - server.HEADROOM) // ADDRESSES
    _, _, quiet = _serve_with_limits(tmp_path, 512, 512, f"max-sockets={small}")
    assert "files and sockets open" not in quiet
    _, _, loud = _serve_with_limits(tmp_path, 512, 512, "max-sockets=300")
    assert _warning(512, 300) in loud.splitlines()


def _unit(name: str) -> dict[str, str]:
    settings: dict[str, str] = {}
    for line in (ROOT / "deploy" / name).read_text(encoding="utf-8").splitlines():
        key, equals, value = line.partition("=")
        if equals and not line.startswith("#"):
            settings[key.strip()] = value.strip()
    return settings


def test_the_unit_declares_enough_open_files_for_the_default_cap() -> None:
    unit = _unit("raceday.service")
    assert "LimitNOFILE" in unit
    limit: Any = unit["LimitNOFILE"]
    assert int(limit) >= descriptors_needed(DEFAULT_SOCKETS)
    assert "--limit" not in unit["ExecStart"]  # the default cap is the one it serves with
    assert "raceday serve" in unit["ExecStart"].replace("/opt/raceday/bin/", "")
    assert "LimitNOFILE" not in _unit("raceday-rooms.service")  # archives: no sockets

