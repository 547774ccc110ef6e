"""Server-side timing of accepted intents, for benchmarks: an :class:`~raceday.web.hub.Observer`
a benchmark installs (``create_app(observer=Timing(FILE))``; ``python -m
raceday.web.server`` installs one when ``RACEDAY_PARTY_TIMING=FILE`` is set).

One line per intent, appended to FILE once the last update frame of that intent was
handed to its socket: ``code seq type received applied sent frames``, the times in
``time.monotonic()`` seconds (CLOCK_MONOTONIC, comparable across processes of one
machine): received = the intent's text was read from the socket, applied = checked and
stored (its update queued: :meth:`raceday.web.hub.Hub.publish`), sent = the last of the
``frames`` frames of the update that carried it was written (an update carries every
intent applied to the room since the one before). Messages are unchanged; without an
observer the server pays one ``is None`` test per intent and per frame.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any


class Timing:
    """Writes the timing lines of intents to a file (see the module)."""

    MAX_OPEN = 10_000  # intents whose frames are not all sent yet (dropped sockets)

    def __init__(self, path: str | Path) -> None:
        self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115  (the server's life)
        # updates being sent, by (code, seq): [intents, frames written, frames queued]
        self.open: dict[tuple[str, int], list[Any]] = {}
        self.waiting: dict[str, list[list[Any]]] = {}  # intents whose update is not queued

    def applied(self, code: str, seq: int, kind: str, received: float) -> None:
        """Intent ``seq`` of room ``code`` is checked and stored; its update is queued."""
        kind = kind if kind.isidentifier() else "?"  # the file stays one word a field
        self.waiting.setdefault(code, []).append([seq, kind, received, time.monotonic()])

    def flushed(self, code: str, seq: int, frames: int, written: int) -> None:
        """The update of revision ``seq`` (with every intent applied since the last one) was
        queued to ``frames`` connections, ``written`` of them written at once."""
        intents = self.waiting.pop(code, [])
        if not intents:
            return
        if len(self.open) >= self.MAX_OPEN:
            self.open.pop(next(iter(self.open)))
        key = (code, seq)
        self.open[key] = entry = [intents, written, frames]
        self._done(key, entry)

    def sent(self, code: str, seq: int) -> None:
        """One more frame of the update of revision ``seq`` was written."""
        key = (code, seq)
        entry = self.open.get(key)
        if entry is not None:
            entry[1] += 1
            self._done(key, entry)

    def _done(self, key: tuple[str, int], entry: list[Any]) -> None:
        intents, written, frames = entry
        if written < frames:
            return
        del self.open[key]
        now = time.monotonic()
        for seq, kind, received, applied in intents:
            self.file.write(f"{key[0]} {seq} {kind} {received:.6f} {applied:.6f} {now:.6f} "
                            f"{frames}\n")

    def flush(self) -> None:
        """Write out the lines so far (the server's stop does)."""
        self.file.flush()
