"""Helpers of the tests that run the whole command tree in-process: every leaf command,
and a hang guard for a run that might wait for ever."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from raceday.cli.main import GameGroup


class RunTimeout(Exception):
    """A command in-process was still running when its time limit came."""


def leaf_commands(command: Any, path: list[str] | None = None
                  ) -> Iterator[tuple[list[str], Any]]:
    """Every leaf command under ``command`` with its path of names (games loaded)."""
    path = path or []
    if isinstance(command, GameGroup):
        subs = {name: command._load(name) for name in [*command._games, *command._tools]}
    else:
        subs = getattr(command, "commands", None)
    if subs:
        for name, sub in sorted(subs.items()):
            yield from leaf_commands(sub, [*path, name])
    else:
        yield path, command


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise :class:`RunTimeout` in the block after ``seconds`` (SIGALRM): a hang guard."""
    def expire(signum: int, frame: FrameType | None) -> None:
        raise RunTimeout(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
