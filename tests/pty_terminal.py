"""A command in a real pseudo-terminal, as a person meets it: 80×24, ``TERM=xterm-256color``,
keys written as a keyboard sends them and what it draws read back (the pty tests of
tests/cli). Waits are on what the terminal shows; the limits only guard against a hang."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time
from pathlib import Path

RACEDAY = Path(sys.executable).with_name("raceday")
HANG_GUARD = 120.0  # seconds; each wait here is met in a second or two
SRC = str(Path(__file__).resolve().parents[1] / "src")  # this checkout's raceday
CURSOR_POSITION_REQUEST = b"\x1b[6n"
ESCAPES = re.compile(r"\x1b\[[0-9;?<>=]*[a-zA-Z~]|\x1b[()][0-9A-Za-z]|\x1b[=>]"
                     r"|\x1b\][^\x07\x1b]*(\x07|\x1b\\)")
LEAVE_ALTERNATE_SCREEN = "\x1b[?1049l"


class Terminal:
    """A command in an 80×24 pseudo-terminal that answers like a terminal emulator; all
    it wrote is kept (``output``)."""

    def __init__(self, argv: list[str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: its terminal has its size before the command starts
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
                os.environ.update(TERM="xterm-256color", COLUMNS="80", LINES="24",
                                  PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
                for name in ("RACEDAY_PLAIN", "NO_COLOR", "LC_ALL", "LC_MESSAGES", "LANG"):
                    os.environ.pop(name, None)
                os.execv(argv[0], argv)
            finally:
                os._exit(127)
        self.output = b""
        self.code: int | None = None

    @property
    def text(self) -> str:
        """What was written, without the escape sequences (styles, cursor moves)."""
        return ESCAPES.sub("", self.output.decode("utf-8", "replace"))

    def _readable(self, wait: float) -> bool:
        """Whether the terminal has output (or has hung up) within ``wait`` seconds: poll,
        not select, which refuses a descriptor numbered 1024 or more (a test process that
        has opened many files and sockets reaches such numbers)."""
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        return bool(poller.poll(wait * 1000))

    def _read(self, wait: float) -> bool:
        ready = self._readable(wait)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the command ended and its terminal closed
            return False
        for _ in range(chunk.count(CURSOR_POSITION_REQUEST)):  # prompt_toolkit asks
            os.write(self.fd, b"\x1b[24;1R")
        self.output += chunk
        return bool(chunk)

    def read_until(self, wanted: str, after: int = 0) -> bool:
        """Read until ``wanted`` is in the text from character ``after`` on."""
        deadline = time.monotonic() + HANG_GUARD
        while wanted not in self.text[after:] and time.monotonic() < deadline:
            if not self._read(0.2):
                break
        return wanted in self.text[after:]

    def type(self, keys: str) -> int:
        """Type ``keys``; the length of the text before them (to look only at what
        follows)."""
        mark = len(self.text)
        os.write(self.fd, keys.encode())
        return mark

    def wait(self) -> int | None:
        """The exit code once the command has ended (all it wrote read), or None if it had
        not ended within the hang guard (it is then killed)."""
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            code = self._ended()
            if code is not None:
                return code
        self._kill()
        return None

    def press_until_exit(self, key: str) -> int | None:
        """Press ``key`` (again every second: a key that arrives while the view is still
        starting may be taken before it listens) until the command ends; its exit code,
        or None if it did not end within the hang guard (it is then killed)."""
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            self.type(key)
            pressed = time.monotonic()
            while time.monotonic() - pressed < 1.0:
                code = self._ended()
                if code is not None:
                    return code
        self._kill()
        return None

    def _ended(self) -> int | None:
        """Read what the command wrote; its exit code once it has ended (all it wrote
        read and the terminal closed), else None."""
        more = self._read(0.1)
        pid, status = os.waitpid(self.pid, os.WNOHANG)
        if not pid:
            return None
        while more and self._readable(0.2):
            more = self._read(0)  # what it wrote last
        os.close(self.fd)
        self.code = os.waitstatus_to_exitcode(status)
        return self.code

    def _kill(self) -> None:
        """End a command that outlived the hang guard."""
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
