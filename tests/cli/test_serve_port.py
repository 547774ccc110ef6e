"""`raceday serve` on a port it cannot listen on: one line, exit 2, nothing else printed."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from raceday.cli.serve import port_problem

RACEDAY = Path(sys.executable).with_name("raceday")


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port another program listens on (this test, for the duration)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        yield int(holder.getsockname()[1])


def test_serve_on_a_busy_port_refuses_in_one_line_before_the_banner(
        busy_port: int, tmp_path: Path) -> None:
    argv = [str(RACEDAY), "serve", "--host", "127.0.0.1", "--port", str(busy_port),
            "--db", str(tmp_path / "party.sqlite")]
    try:  # the hang guard: a server that did start would serve until killed
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "COLUMNS": "200"})
    except subprocess.TimeoutExpired:
        pytest.fail("raceday serve started on a busy port instead of refusing it")
    assert done.returncode == 2
    message = f"port {busy_port} on 127.0.0.1 is in use; choose another with --port"
    assert message in done.stderr
    assert done.stderr.strip().count("\n") == 0  # one line
    assert done.stdout == ""  # no banner, no addresses, no QR code
    assert "raceday party" not in done.stderr and "█" not in done.stderr + done.stdout
    assert not (tmp_path / "party.sqlite").exists()  # the database was not even opened


def test_a_free_port_has_no_problem(busy_port: int) -> None:
    assert port_problem("127.0.0.1", busy_port) is not None
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        free = int(s.getsockname()[1])
    assert port_problem("127.0.0.1", free) is None


def test_a_port_left_in_time_wait_is_free_as_it_is_for_uvicorn() -> None:
    """SO_REUSEADDR as asyncio sets it: a closed server's port can be taken again."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = int(server.getsockname()[1])
    client = socket.create_connection(("127.0.0.1", port))
    conn, _ = server.accept()
    conn.close()  # the server side closes first: its end of the connection waits
    client.close()
    server.close()
    assert port_problem("127.0.0.1", port) is None


class _Denied(socket.socket):
    def bind(self, address: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")


def test_a_port_below_1024_without_the_rights_is_refused_with_its_reason(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the tests may run as root, who may bind port 80: the refusal is simulated
    monkeypatch.setattr("raceday.cli.serve.socket.socket", _Denied)
    problem = port_problem("127.0.0.1", 80)
    assert problem is not None
    assert problem.startswith("port 80 on 127.0.0.1 needs administrator rights")
    assert problem.endswith("choose another with --port")


def test_a_privileged_port_as_a_user_is_refused_by_the_command(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root may listen on port 80")
    done = subprocess.run([str(RACEDAY), "serve", "--port", "80", "--db",
                           str(tmp_path / "p.sqlite")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "needs administrator rights" in done.stderr
    assert done.stdout == ""


def test_an_address_this_computer_does_not_have_is_refused() -> None:
    problem = port_problem("192.0.2.1", 8000)  # TEST-NET-1: never a local address
    assert problem is not None and "not an address of this computer" in problem
