"""A small SQLite store of named sessions, each a JSON document plus an append-only log.

Every save is one ``BEGIN IMMEDIATE`` transaction that checks the revision it expects and
writes the new one (a compare-and-swap): an interrupted program leaves either the old
document or the new one, and two programs saving the same session can never interleave
or lose an update: the second one is refused. Games keep whatever they like in the
document (bankrolls, standings, the next race number); the log keeps settled results.

A database that is not raceday's (another program's SQLite file, a corrupt file, a
directory, a path under a regular file, a read-only file or folder) gives a
:class:`SaveFormatError` naming the file and the problem, and is never written to. Commands
that save open their store with :func:`writable_store`, which finds a read-only database
before any work rather than at the first save.

Commands that only read (every ``--list``, ``standings``, ``replay``, ``rooms list``) open
it with :class:`ReadOnlyStore`, which writes nothing at all: a missing path stays missing
(no folder, no file), an empty file gets no tables, and a read-only, immutable or
write-ahead-logged file gets no ``-wal``, ``-shm`` or ``-journal`` beside it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from raceday.core.errors import SaveFormatError
from raceday.core.events import Message
from raceday.core.files import not_regular
from raceday.store.names import MAX_SESSION_NAME, check_session_name

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

# The columns raceday needs in each of its tables; any other table may exist beside them
# (later versions add their own), but a file with none of ours is another program's.
REQUIRED_COLUMNS = {
    "sessions": {"game", "name", "document", "revision", "updated"},
    "session_log": {"game", "name", "seq", "entry"},
}
# The columns the party server's rooms need (:mod:`raceday.web.rooms` makes the tables in
# the same file): a file with these and none of the sessions' is raceday's too.
ROOM_COLUMNS = {
    "rooms": {"code", "game", "state", "finished", "updated"},
    "room_seats": {"code", "seat", "name"},
    "room_events": {"code", "seq", "actor", "intent", "events"},
}


class SessionExistsError(SaveFormatError):
    """A new session was to be saved under a name that is already taken."""


class StaleSessionError(SaveFormatError):
    """Someone else saved the session since it was loaded: this save was refused."""


def default_db_path() -> Path:
    """The database in the user's data directory (created on first use)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("raceday", appauthor=False)) / "raceday.sqlite"


class SessionStore:
    """Named sessions of one database file."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self._check_path()
        self._ensure_schema()

    # --- opening ---------------------------------------------------------------------------
    def _fail(self, problem: str) -> SaveFormatError:
        return SaveFormatError(f"cannot use the database {self.path}: {problem}")

    def _check_path(self) -> None:
        if str(self.path).strip() == "":
            raise self._fail("the path is empty")
        if self.path.is_dir():
            raise self._fail("it is a directory; give a file inside it")
        for parent in self.path.parents:
            if parent.exists():
                if not parent.is_dir():
                    raise self._fail(f"{parent} is a regular file, not a folder")
                break
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._fail(f"cannot create its folder ({exc.strerror or exc})") from None
        what = kind_of_file(self.path)
        if what is not None:
            raise self._fail(f"it is {what}, not a database file")

    def _open(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._fail(str(exc)) from None
        return conn

    def _ensure_schema(self) -> None:
        with self._transaction(write=False) as conn:
            tables = self._tables(conn)
        ours = set(REQUIRED_COLUMNS) & set(tables)
        if not tables or ours == set(REQUIRED_COLUMNS):
            for table, needed in REQUIRED_COLUMNS.items():
                missing = needed - tables.get(table, needed)
                if missing:
                    raise self._fail(
                        f"its table {table!r} lacks the columns {', '.join(sorted(missing))}; "
                        "it was not made by raceday"
                    )
            if not tables:
                with self._transaction(write=True) as conn:
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
            return
        names = ", ".join(sorted(tables)) or "none"
        raise self._fail(
            f"it is an SQLite database of another program (tables: {names}); "
            "give raceday a file of its own with --db"
        )

    @staticmethod
    def _tables(conn: sqlite3.Connection) -> dict[str, set[str]]:
        rows = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
        tables: dict[str, set[str]] = {}
        for (name,) in rows:
            columns = conn.execute(f'PRAGMA table_info("{name}")').fetchall()
            tables[str(name)] = {str(c[1]) for c in columns}
        return tables

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[sqlite3.Connection]:
        """One transaction; ``write`` takes the write lock at once (BEGIN IMMEDIATE), so a
        read-check-write sequence inside it cannot interleave with another process."""
        conn = self._open()
        try:
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise self._fail(_explain(exc)) from None
        finally:
            conn.close()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: commits on success, rolls back on any exception."""
        with self._transaction(write=True) as conn:
            yield conn

    def check_writable(self) -> None:
        """Refuse, before any work is done, a database that can be read but not saved to.

        Opening and reading succeed on a read-only file (SQLite falls back to reading), and
        even ``BEGIN IMMEDIATE`` does; only a write fails. So this writes: it sets the
        file's ``user_version`` to the value it already has, which makes SQLite write the
        header page and its journal beside the file, then rolls back. A read-only file, a
        read-only folder (no room for the journal) or a read-only mount fails here with the
        same error the first save would meet; nothing is ever changed."""
        conn = self._open()
        try:
            try:
                conn.execute("BEGIN IMMEDIATE")
                (version,) = conn.execute("PRAGMA user_version").fetchone()
                try:
                    conn.execute(f"PRAGMA user_version = {int(version)}")
                except sqlite3.OperationalError as exc:
                    if getattr(exc, "sqlite_errorname", "") == "SQLITE_CANTOPEN":
                        # the file was read a moment ago: what cannot be opened is the
                        # journal beside it (a folder closed to this user, or immutable)
                        raise self._fail(_READ_ONLY_FOLDER) from None
                    raise
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            raise self._fail(_explain(exc)) from None
        finally:
            conn.close()

    # --- reading ---------------------------------------------------------------------------
    def exists(self, game: str, name: str) -> bool:
        with self._transaction(write=False) as conn:
            row = conn.execute(
                "SELECT 1 FROM sessions WHERE game = ? AND name = ?", (game, name)
            ).fetchone()
        return row is not None

    def names(self, game: str) -> list[str]:
        with self._transaction(write=False) as conn:
            rows = conn.execute(
                "SELECT name FROM sessions WHERE game = ? ORDER BY name", (game,)
            ).fetchall()
        return [r[0] for r in rows]

    def fresh_name(self, game: str, base: str) -> str:
        """``base`` if no session of ``game`` has that name, else ``base-2``, ``base-3``…
        (``base`` shortened so that the name keeps within :data:`MAX_SESSION_NAME`)."""
        taken = set(self.names(game))
        if base not in taken:
            return base
        n = 2
        while self._numbered(base, n) in taken:
            n += 1
        return self._numbered(base, n)

    @staticmethod
    def _numbered(base: str, n: int) -> str:
        suffix = f"-{n}"
        return base[: MAX_SESSION_NAME - len(suffix)] + suffix

    def load(self, game: str, name: str) -> tuple[dict[str, Any], int]:
        """The session's document and its revision number."""
        with self._transaction(write=False) as conn:
            row = conn.execute(
                "SELECT document, revision FROM sessions WHERE game = ? AND name = ?",
                (game, name),
            ).fetchone()
        if row is None:
            raise self._no_session(game, name)
        try:
            doc = json.loads(row[0])
        except json.JSONDecodeError as exc:
            raise SaveFormatError(f"saved session {name!r} is corrupt: {exc}") from None
        if not isinstance(doc, dict):
            raise SaveFormatError(f"saved session {name!r} is corrupt: not an object")
        return doc, int(row[1])

    def _no_session(self, game: str, name: str) -> SaveFormatError:
        saved = self.names(game)
        known = ", ".join(saved) or "none"
        missing = SaveFormatError(f"no saved {game} session named {name!r} (saved: {known})")
        missing.message = Message("store.no_session", {
            "game": game, "name": name,
            "known": ", ".join(saved) if saved else Message("store.none", {})})
        return missing

    def log(self, game: str, name: str) -> list[dict[str, Any]]:
        with self._transaction(write=False) as conn:
            rows = conn.execute(
                "SELECT entry FROM session_log WHERE game = ? AND name = ? ORDER BY seq",
                (game, name),
            ).fetchall()
        try:
            return [json.loads(r[0]) for r in rows]
        except json.JSONDecodeError as exc:
            raise SaveFormatError(f"the log of session {name!r} is corrupt: {exc}") from None

    # --- writing ---------------------------------------------------------------------------
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

        A compare-and-swap: ``expected_revision=None`` creates a new session and is refused
        if the name is taken (nothing is ever overwritten by accident); otherwise the save
        is refused unless the stored revision is still ``expected_revision``, so a settled
        result is never written twice and two writers cannot interleave. A new session's
        name must pass :func:`check_session_name`. Returns the new revision.
        """
        if expected_revision is None:
            check_session_name(name)
        text = json.dumps(document, sort_keys=True)
        entry = None if log_entry is None else json.dumps(log_entry, sort_keys=True)
        with self._transaction(write=True) as conn:
            row = conn.execute(
                "SELECT revision FROM sessions WHERE game = ? AND name = ?", (game, name)
            ).fetchone()
            current = None if row is None else int(row[0])
            if expected_revision is None and current is not None:
                exists = SessionExistsError(
                    f"a saved {game} session named {name!r} already exists; "
                    "resume it or choose another name"
                )
                exists.message = Message("store.session_exists", {"game": game, "name": name})
                raise exists
            if expected_revision is not None and current != expected_revision:
                raise StaleSessionError(
                    f"session {name!r} changed since it was loaded "
                    f"(revision {current}, expected {expected_revision}); "
                    "another program saved it: load it again"
                )
            revision = 1 if current is None else current + 1
            conn.execute(
                "INSERT INTO sessions (game, name, document, revision) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(game, name) DO UPDATE SET document = excluded.document, "
                "revision = excluded.revision, updated = datetime('now')",
                (game, name, text, revision),
            )
            if entry is not None:
                conn.execute(
                    "INSERT INTO session_log (game, name, seq, entry) VALUES (?, ?, ?, ?)",
                    (game, name, revision, entry),
                )
        return revision


def writable_store(path: str | Path | None = None) -> SessionStore:
    """The store of ``path`` for a command that will save to it: refused at once (before a
    ticket is typed or a race is run) if it could be read but not written."""
    store = SessionStore(path)
    store.check_writable()
    return store


def kind_of_file(path: Path) -> str | None:
    """What is at ``path`` if it is there but is not a regular file ("a named pipe (FIFO)",
    "a directory", "a device", ...); None for a regular file or nothing at all. Looked at
    with ``stat`` only: a pipe is never opened (opening one waits for a writer)."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return None
    return not_regular(mode)


class NoDatabaseError(SaveFormatError):
    """A command that only reads was asked for a saved session in a database file that
    does not exist (nothing was created to find that out)."""


class ReadOnlyStore(SessionStore):
    """The store of ``path`` for a command that only reads: nothing is ever created or
    written, not the folder, the file, the tables of an empty file, nor a ``-wal``,
    ``-shm`` or ``-journal`` file beside it.

    A missing path is an empty store (``missing`` is true: no names, and loading a session
    says there is no database). Anything but a regular file (a directory, a named pipe, a
    device) is refused by what it is, before it is opened; so is another program's SQLite
    file or a corrupt one. A raceday file holds the sessions' tables, the rooms' tables
    (the party server's), or both (``has_sessions``, ``has_rooms``).

    The file is opened with SQLite's ``mode=ro``. Where even that would leave files behind
    it is opened ``immutable=1`` too: a file or folder this user cannot write (SQLite
    would make ``-wal`` and ``-shm`` files for a write-ahead-logged file and could not
    remove them), and a write-ahead-logged file with no ``-wal`` beside it (no program has
    it open, so there is nothing newer than the file to read)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self.tables: dict[str, set[str]] = {}
        self.missing = False
        self._immutable = False
        if str(self.path).strip() == "":
            raise self._fail("the path is empty")
        try:
            self.path.stat()
        except FileNotFoundError:
            self.missing = True
            return
        except NotADirectoryError:
            parent = next((p for p in self.path.parents if p.exists()), self.path.parent)
            raise self._fail(f"{parent} is a regular file, not a folder") from None
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise self._fail(f"it cannot be read ({reason})") from None
        what = kind_of_file(self.path)
        if what is not None:
            fail = self._fail(f"it is {what}, not a database file")
            kind = Message(f"store.kind.{_KINDS.get(what, 'other')}")
            fail.message = Message("store.not_a_file", {"path": str(self.path), "what": kind})
            raise fail
        self._immutable = self._must_be_immutable()
        with self._transaction(write=False) as conn:
            self.tables = self._tables(conn)
        if self.tables and not (self.has_sessions or self.has_rooms):
            names = ", ".join(sorted(self.tables))
            raise self._fail(f"it is not a raceday database (tables: {names}); give "
                             "raceday's own file with --db")

    def _has(self, required: dict[str, set[str]]) -> bool:
        return all(needed <= self.tables.get(table, set())
                   for table, needed in required.items())

    @property
    def has_sessions(self) -> bool:
        """Whether the file holds the saved sessions' tables."""
        return self._has(REQUIRED_COLUMNS)

    @property
    def has_rooms(self) -> bool:
        """Whether the file holds the party server's rooms."""
        return self._has(ROOM_COLUMNS)

    def _must_be_immutable(self) -> bool:
        folder = self.path.parent
        if not (os.access(self.path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)):
            return True
        try:
            with self.path.open("rb") as file:
                header = file.read(20)
        except OSError:
            return True
        logged = len(header) == 20 and header[18] == 2  # the write-ahead log's file format
        return logged and not Path(f"{self.path}-wal").exists()

    def _open(self) -> sqlite3.Connection:
        if self.missing:  # never reached: nothing is read of a missing file
            raise self._fail("there is no such file")
        flags = "mode=ro&immutable=1" if self._immutable else "mode=ro"
        try:
            return sqlite3.connect(f"{self.path.resolve().as_uri()}?{flags}", uri=True,
                                   timeout=30, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._fail(_explain(exc)) from None

    def no_database(self, game: str, name: str) -> NoDatabaseError:
        """The refusal of the session ``name`` asked of a missing file: no such session,
        as there is no database there."""
        error = NoDatabaseError(f"no saved {game} session named {name!r}: there is no "
                                f"database at {self.path} (give the file with --db)")
        error.message = Message("store.no_database", {"game": game, "name": name,
                                                      "path": str(self.path)})
        return error

    def query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of one read-only query (an empty list for a missing file)."""
        if self.missing:
            return []
        with self._transaction(write=False) as conn:
            return conn.execute(sql, args).fetchall()

    # --- reading: a missing file or one without sessions has none -------------------------
    def names(self, game: str) -> list[str]:
        return super().names(game) if self.has_sessions else []

    def exists(self, game: str, name: str) -> bool:
        return self.has_sessions and super().exists(game, name)

    def load(self, game: str, name: str) -> tuple[dict[str, Any], int]:
        if self.missing:
            raise self.no_database(game, name)
        if not self.has_sessions:
            raise self._no_session(game, name)
        return super().load(game, name)

    def log(self, game: str, name: str) -> list[dict[str, Any]]:
        return super().log(game, name) if self.has_sessions else []

    # --- writing: never ------------------------------------------------------------------
    def check_writable(self) -> None:
        raise self._fail("it was opened to be read only")

    def save(self, game: str, name: str, document: dict[str, Any], *,
             expected_revision: int | None = None,
             log_entry: dict[str, Any] | None = None) -> int:
        raise self._fail("it was opened to be read only")


_KINDS = {"a directory": "directory", "a named pipe (FIFO)": "fifo", "a device": "device",
          "a socket": "socket"}

_READ_ONLY_FOLDER = ("its folder is read-only (saving writes a journal file beside the "
                     "database)")


def _explain(exc: sqlite3.Error) -> str:
    text = str(exc)
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_READONLY_DIRECTORY":
        return _READ_ONLY_FOLDER
    if "readonly" in text or "read-only" in text:
        return "it is read-only (saving needs write access)"
    if "not a database" in text or "malformed" in text or "file is encrypted" in text:
        return f"it is not a raceday database (corrupt or another kind of file: {text})"
    if "unable to open" in text:
        return f"it cannot be opened ({text})"
    if "locked" in text or "busy" in text:
        return f"another program holds it locked ({text}); try again"
    return text
