"""`play` at a real terminal opens the full-screen view (the pilot tests drive the same view
headless; this drives the installed command in a pseudo-terminal, as a person would):
the alternate screen opens, Ctrl-Q quits, the game is saved and the resume line is left on
the terminal. Waits are on what the terminal shows; the limits only guard against a hang."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import sqlite3
import struct
import sys
import termios
import time
from pathlib import Path

RACEDAY = Path(sys.executable).with_name("raceday")
HANG_GUARD = 120.0  # seconds; the view opens in a few


class Terminal:
    """A command in an 80x24 pseudo-terminal, its output kept as bytes."""

    def __init__(self, argv: list[str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, with a terminal that can draw
            os.environ["TERM"] = "xterm-256color"
            os.environ.pop("RACEDAY_PLAIN", None)
            os.execv(argv[0], argv)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.output = b""

    def read_until(self, wanted: bytes) -> bool:
        deadline = time.monotonic() + HANG_GUARD
        while wanted not in self.output and time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready and not self._read():
                break
        return wanted in self.output

    def _read(self) -> bool:
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the command ended and closed the terminal
            return False
        self.output += chunk
        return bool(chunk)

    def exited(self) -> int | None:
        """The command's exit code once it has ended (reading what it still writes)."""
        ready, _, _ = select.select([self.fd], [], [], 0.2)
        if ready:
            self._read()
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        return None if pid == 0 else os.waitstatus_to_exitcode(status)

    def press_until_exit(self, key: bytes) -> int | None:
        """Press ``key`` (again every second: a key that arrives while the view is still
        starting may be taken before it listens) until the command ends; its exit code, or
        None if it did not end within the hang guard (it is then killed)."""
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            os.write(self.fd, key)
            pressed = time.monotonic()
            while time.monotonic() - pressed < 1.0:
                code = self.exited()
                if code is not None:
                    self._drain()
                    return code
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        return None

    def _drain(self) -> None:
        while True:
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if not ready or not self._read():
                break
        os.close(self.fd)


def test_hairpin_play_at_a_terminal_is_full_screen_and_ctrl_q_saves(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    term = Terminal([str(RACEDAY), "hairpin", "play", "--players", "human,easy", "--seed", "1",
                     "--db", str(db), "--save", "g1"])
    assert term.read_until(b"to move"), term.output[-400:]  # the status bar of the view
    assert b"\x1b[?1049h" in term.output  # the alternate screen: a full-screen view
    assert term.press_until_exit(b"\x11") == 0  # Ctrl-Q
    text = term.output.decode("utf-8", "replace")
    after = text.rsplit("\x1b[?1049l", 1)[-1]  # what stays on the terminal after the view
    assert "raceday hairpin play --resume g1" in after
    with sqlite3.connect(db) as connection:
        names = [row[0] for row in connection.execute("SELECT name FROM sessions")]
    assert "g1" in names
