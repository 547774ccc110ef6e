"""Who may ride a WielerSIM stage race (a campaign) from a browser: its owner key.

A campaign made by the browser page gets a key, like a room's seat: 128 random bits,
handed out once in the creation's answer and kept in that browser's storage; the server
keeps only ``sha256(key)``, with the client address that made it (which the per-address
cap counts), in a table of its own beside the CLI's sessions (``wielersim_owners``). Riding
or watching a stage, and deleting the campaign, needs the key (header
:data:`KEY_HEADER`); the list shows a browser only the campaigns whose keys it sends
(header :data:`KEYS_HEADER`, comma-separated).

Campaigns without an owner row (made in the terminal, or before keys existed) are the
host's: the terminal opens them as ever, and in a browser only the server's own machine
(a loopback client with no proxy in between) lists, rides and watches them.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path

GAME = "wielersim"
KEY_HEADER = "x-campaign-key"
KEYS_HEADER = "x-campaign-keys"
MAX_KEYS = 200  # keys one list request may send
SCHEMA = """
CREATE TABLE IF NOT EXISTS wielersim_owners (
    name TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL,
    address TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX IF NOT EXISTS wielersim_owners_address ON wielersim_owners (address);
CREATE INDEX IF NOT EXISTS wielersim_owners_key ON wielersim_owners (key_hash);
"""


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def parse_keys(text: str | None) -> list[str]:
    """The keys of a :data:`KEYS_HEADER` (at most :data:`MAX_KEYS`, each 8 to 200
    characters; others are ignored)."""
    if not text:
        return []
    keys = [k.strip() for k in text.split(",")]
    return [k for k in keys if 8 <= len(k) <= 200][:MAX_KEYS]


class Owners:
    """The owner keys of the campaigns in one database file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        with self._conn() as conn:
            conn.executescript(SCHEMA)

    @contextlib.contextmanager
    def _conn(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            yield conn
        finally:
            conn.close()

    def add(self, name: str, address: str) -> str:
        """Give the campaign ``name`` (just made from ``address``) a new key; returns it."""
        key = secrets.token_urlsafe(16)
        with self._conn() as conn:
            conn.execute("INSERT OR REPLACE INTO wielersim_owners (name, key_hash, address) "
                         "VALUES (?, ?, ?)", (name, key_hash(key), address))
        return key

    def owned(self, name: str) -> bool:
        with self._conn() as conn:
            row = conn.execute("SELECT 1 FROM wielersim_owners WHERE name = ?",
                               (name,)).fetchone()
        return row is not None

    def opens(self, name: str, key: str | None) -> bool:
        """Whether ``key`` is the key of the owned campaign ``name`` (False for a campaign
        without owner, and for no key)."""
        if not key or not 8 <= len(key) <= 200:
            return False
        with self._conn() as conn:
            row = conn.execute("SELECT key_hash FROM wielersim_owners WHERE name = ?",
                               (name,)).fetchone()
        return row is not None and hmac.compare_digest(str(row[0]), key_hash(key))

    def held_by(self, address: str) -> int:
        """How many campaigns the client address ``address`` made."""
        with self._conn() as conn:
            row = conn.execute("SELECT COUNT(*) FROM wielersim_owners WHERE address = ?",
                               (address,)).fetchone()
        return int(row[0])

    def total(self) -> int:
        """How many campaigns the file keeps (the terminal's included)."""
        with self._conn() as conn:
            row = conn.execute("SELECT COUNT(*) FROM sessions WHERE game = ?",
                               (GAME,)).fetchone()
        return int(row[0])

    def page(self, keys: list[str], limit: int, offset: int,
             ownerless: bool = False) -> tuple[list[tuple[str, bool]], int]:
        """One page of the campaigns ``keys`` open, newest first, as (name, owned) — with
        the campaigns without owner after them if ``ownerless`` — and how many in all."""
        hashes = sorted({key_hash(k) for k in keys})
        marks = ",".join("?" * len(hashes))
        mine = (f"SELECT o.name, 1, o.created FROM wielersim_owners o JOIN sessions s "
                f"ON s.game = ? AND s.name = o.name WHERE o.key_hash IN ({marks})")
        parts = [mine] if hashes else []
        args: list[object] = [GAME, *hashes] if hashes else []
        if ownerless:
            parts.append("SELECT s.name, 0, '' FROM sessions s WHERE s.game = ? AND s.name "
                         "NOT IN (SELECT name FROM wielersim_owners)")
            args.append(GAME)
        if not parts:
            return [], 0
        union = " UNION ALL ".join(parts)
        with self._conn() as conn:
            total = int(conn.execute(f"SELECT COUNT(*) FROM ({union})", args).fetchone()[0])
            rows = conn.execute(f"SELECT * FROM ({union}) ORDER BY 2 DESC, 3 DESC, 1 "
                                "LIMIT ? OFFSET ?", [*args, limit, offset]).fetchall()
        return [(str(name), bool(owned)) for name, owned, _ in rows], total

    def forget(self, name: str) -> None:
        """Delete the campaign ``name``: its document, its log and its owner row."""
        with self._conn() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for sql in ("DELETE FROM session_log WHERE game = ? AND name = ?",
                            "DELETE FROM sessions WHERE game = ? AND name = ?"):
                    conn.execute(sql, (GAME, name))
                conn.execute("DELETE FROM wielersim_owners WHERE name = ?", (name,))
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
