"""A small SQLite store of named sessions, each a JSON document plus an append-only log.

Every save is one transaction, so an interrupted program leaves either the old document
or the new one, never half of each. Games keep whatever they like in the document
(bankrolls, standings, the next race number); the log keeps settled results for replays.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from raceday.core.errors import SaveFormatError

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    document TEXT NOT NULL,
    revision INTEGER NOT NULL,
    updated TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (game, name)
);
CREATE TABLE IF NOT EXISTS session_log (
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (game, name, seq)
);
"""


def default_db_path() -> Path:
    """The database in the user's data directory (created on first use)."""
    return Path(user_data_dir("raceday", appauthor=False)) / "raceday.sqlite"


class SessionStore:
    """Named sessions of one database file."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with self._connect() as conn:
                conn.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise SaveFormatError(f"{self.path} is not a raceday database: {exc}") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.path, timeout=30)
        try:
            with conn:  # commits on success, rolls back on any exception
                yield conn
        finally:
            conn.close()

    def exists(self, game: str, name: str) -> bool:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT 1 FROM sessions WHERE game = ? AND name = ?", (game, name)
            ).fetchone()
        return row is not None

    def names(self, game: str) -> list[str]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT name FROM sessions WHERE game = ? ORDER BY name", (game,)
            ).fetchall()
        return [r[0] for r in rows]

    def load(self, game: str, name: str) -> tuple[dict[str, Any], int]:
        """The session's document and its revision number."""
        with self._connect() as conn:
            row = conn.execute(
                "SELECT document, revision FROM sessions WHERE game = ? AND name = ?",
                (game, name),
            ).fetchone()
        if row is None:
            known = ", ".join(self.names(game)) or "none"
            raise SaveFormatError(f"no saved {game} session named {name!r} (saved: {known})")
        try:
            doc = json.loads(row[0])
        except json.JSONDecodeError as exc:
            raise SaveFormatError(f"saved session {name!r} is corrupt: {exc}") from None
        if not isinstance(doc, dict):
            raise SaveFormatError(f"saved session {name!r} is corrupt: not an object")
        return doc, int(row[1])

    def save(
        self,
        game: str,
        name: str,
        document: dict[str, Any],
        *,
        expected_revision: int | None = None,
        log_entry: dict[str, Any] | None = None,
    ) -> int:
        """Write ``document`` (and optionally append ``log_entry``) in one transaction.

        With ``expected_revision`` the save fails if someone else saved in between, so a
        settled result is never written twice. Returns the new revision.
        """
        text = json.dumps(document, sort_keys=True)
        with self._connect() as conn:
            row = conn.execute(
                "SELECT revision FROM sessions WHERE game = ? AND name = ?", (game, name)
            ).fetchone()
            current = None if row is None else int(row[0])
            if expected_revision is not None and current != expected_revision:
                raise SaveFormatError(
                    f"session {name!r} changed since it was loaded "
                    f"(revision {current}, expected {expected_revision})"
                )
            revision = 1 if current is None else current + 1
            conn.execute(
                "INSERT INTO sessions (game, name, document, revision) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(game, name) DO UPDATE SET document = excluded.document, "
                "revision = excluded.revision, updated = datetime('now')",
                (game, name, text, revision),
            )
            if log_entry is not None:
                conn.execute(
                    "INSERT INTO session_log (game, name, seq, entry) VALUES (?, ?, ?, ?)",
                    (game, name, revision, json.dumps(log_entry, sort_keys=True)),
                )
        return revision

    def log(self, game: str, name: str) -> list[dict[str, Any]]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT entry FROM session_log WHERE game = ? AND name = ? ORDER BY seq",
                (game, name),
            ).fetchall()
        return [json.loads(r[0]) for r in rows]
