"""Rooms of the party server: join codes, seats with secret tokens, and the event log.

A room is one game's :class:`~raceday.rooms.RoomLogic` plus everything the server keeps
around it: a short join code, the host's and each seat's token *hashes*, the room's single
seeded ``numpy`` generator, and the revision of its last accepted intent.

Secrets. A token is ``secrets.token_urlsafe(16)`` (128 random bits), handed out once (to
the host when the room is created, to a player when they join) and kept in that browser's
storage. The server stores only ``sha256(token)`` and compares hashes with
``hmac.compare_digest``, checking every seat's hash so the time taken does not depend on
which seat (if any) matched.

Storage. Rooms live in the SAME SQLite file as the CLI's sessions: a
:class:`~raceday.store.sessions.SessionStore` is opened on it first, so a directory, a
foreign or corrupt database is refused with the same one-line :class:`SaveFormatError`;
then three tables of our own are created if missing:

* ``rooms``: code, game, host token hash, a snapshot of the room (the logic's JSON and
  the generator's ``bit_generator.state`` at revision ``state_revision``), the revision and
  whether the evening is over;
* ``room_seats``: code, seat number, name, token hash;
* ``room_events``: code, seq, actor, intent, and the public events it produced.

Lifecycle (:mod:`raceday.web.lifecycle`). A room left with no play and no open connection
for the server's idle time is *closed*: ``rooms.closed`` is set to 1 (a column added to
older databases when they are opened) and the room is no longer loaded; its code is
refused with :class:`RoomClosed` (the words say whether its replay is there) and is not
given to a new room until ``raceday rooms prune`` or ``archive`` removes it. ``updated``
is the time of the room's last accepted intent (UTC), which the pruning ages count from.
A game played over days (:attr:`Room.kept_open`) is never closed while it is unfinished.

Every accepted intent (a join, a bid, a roll, ...) is ONE ``BEGIN IMMEDIATE`` transaction:
it checks that the stored revision is still the one the room was at (compare-and-swap) and
appends the intent with its events as ``seq = revision + 1``. The room's snapshot is
written in that transaction only every :data:`SNAPSHOT_EVERY` intents, when the evening
ends, when the room closes and when the server stops: the room at any revision is its
snapshot with the intents logged after it applied again (:mod:`raceday.rooms.log`; the
rules are deterministic given the generator), checked against the events they produced
the first time. Encoding and writing the whole state with every
intent had been a third of the party server's work. An intent the rules refuse writes
nothing and the in-memory room is put back exactly as it was (rebuilt the same way), so a
refused intent changes nothing. On start, every room is loaded back from the file and
continues where it stood (the server reads only the codes before it answers, and builds
each room the first time it is asked for, the others in the background: ``Rooms(lazy=
True)``); a phone that reconnects gets the current view and the public events after the
last one it saw. Tools that read a room from the file use
:func:`~raceday.rooms.log.stored_state`, which does the same.

Durability. The file is in WAL mode with ``synchronous=NORMAL``: a commit appends to the
write-ahead log and does not wait for the disk, and the server acknowledges an intent only
once it committed, so a killed server (kill -9) loses no acknowledged intent (a power cut
may lose the last few). The checkpoints, which copy the log into the file and do wait for
the disk, run in a thread of their own every :data:`CHECKPOINT_EVERY` seconds on a
connection of their own (PASSIVE: never in a writer's way), not inside a commit.

A file the server may read but not write is refused when the store opens (the same check
as the CLI's :func:`~raceday.store.sessions.writable_store`); a write refused later (the
file made read-only, a full disk) refuses that intent or new room with
:class:`StoreUnavailable` (nothing changed), logged once until writes work again, and a
failing checkpoint is logged once and tried less and less often.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
import unicodedata
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.events import Message
from raceday.core.record import Record
from raceday.present import refusal
from raceday.rooms import JSON, Actor, RoomError
from raceday.rooms.log import Step, replay, snapshot_at, steps_after
from raceday.rooms.protocol import RefusedUnread, RoomLogic, as_room_error, logic_class
from raceday.web import jsontext

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    host_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    rng TEXT NOT NULL,
    revision INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    updated TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS room_seats (
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS room_events (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    actor TEXT NOT NULL,
    intent TEXT NOT NULL,
    events TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (code, seq)
);
CREATE TABLE IF NOT EXISTS room_games (
    code TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    ended TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (code, last_seq)
);
"""
# room_games: each game of a room that "again" followed, with the log's seqs it spans and
# its final state (the room's row and the log after last_seq are the game being played)

CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"  # consonants only: no words, no 0/O or 1/I mix-ups
CODE_LENGTH = 4
MAX_NAME = 20
MAX_ROOMS = 2_000  # rooms kept by one server; a typo-free home party needs one
ROOMS_PER_ADDRESS = 20  # rooms one client address holds at once (a venue raises it)
SEATS_PER_ADDRESS = 4  # seats one client address takes in one lobby (a venue raises it)
RECLAIM_AFTER = 300.0  # seconds after which a room nobody joined may give way to a newcomer
CATCH_UP_LIMIT = 500  # public events sent to a reconnecting client at most
CHECKPOINT_EVERY = 1.0  # seconds between two checkpoints of the write-ahead log (a thread)
CHECKPOINT_BACKOFF = 60.0  # seconds between two tries at most while checkpoints fail
CHECKPOINT_FALLBACK = 10_000  # WAL pages (~40 MB) past which the writer checkpoints itself
SNAPSHOT_EVERY = 32  # intents between two snapshots of a room (and at the end of an evening)
log = logging.getLogger("raceday.web")
# columns added after the first release, with their declarations (added when missing)
LIFECYCLE_COLUMNS = {"closed": "INTEGER NOT NULL DEFAULT 0",
                     "state_revision": "INTEGER NOT NULL DEFAULT -1"}
# a row with state_revision -1 (made before the column) holds its state at ``revision``


def new_token() -> str:
    """A fresh secret token: 128 random bits, URL-safe text."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def clean_name(name: object) -> str:
    """A player's name: 1 to 20 printable characters, outer spaces removed."""
    if not isinstance(name, str):
        raise refusal(RoomError, "refusal.name_text")
    text = unicodedata.normalize("NFC", name).strip()
    if not text:
        raise refusal(RoomError, "refusal.name_empty")
    if len(text) > MAX_NAME:
        raise refusal(RoomError, "refusal.name_long", max=MAX_NAME)
    if any(unicodedata.category(c)[0] == "C" for c in text):
        raise refusal(RoomError, "refusal.name_control")
    return text


def normal_code(code: object) -> str:
    if not isinstance(code, str):
        raise refusal(RoomError, "refusal.code_text")
    return code.strip().upper()



@contextmanager
def immediate_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` transaction: committed at the end, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise

class NoSuchRoom(RoomError):
    """A join code that names no room of this server."""


class StoreUnavailable(SaveFormatError):
    """The database refused a write (a read-only file, a full disk, a lock held too long):
    the intent or the new room was not stored, so nothing changed. The server answers it
    503 (a REST call) or an error frame (an intent), in words; never a 500."""


class RoomsFull(RoomError):
    """A new room or seat refused by a cap: ``status`` 429 for one address's share, 409
    for the server's whole."""

    status = 409


def _full(key: str, status: int, **params: Any) -> RoomsFull:
    error = refusal(RoomsFull, key, **params)
    error.status = status
    return error


class RoomClosed(NoSuchRoom):
    """A join code of a room closed after a long time without play (its replay stays if
    its evening was over)."""

    def __init__(self, code: str, game: str, finished: bool) -> None:
        key = "refusal.room_closed_finished" if finished else "refusal.room_closed"
        words = refusal(RoomError, key, code=code)
        super().__init__(str(words))
        self.message = words.message
        self.code = code
        self.game = game
        self.finished = finished


@dataclass
class Room:
    """One room in memory (its state is also in the database at ``revision``)."""

    code: str
    game: str
    logic: RoomLogic
    rng: np.random.Generator
    revision: int
    host_hash: str
    seat_hashes: dict[int, str] = field(default_factory=dict)
    snapshot: JSON = field(default_factory=dict)  # the logic's JSON at snapshot_revision
    snapshot_rng: JSON = field(default_factory=dict)  # the generator's state then
    snapshot_revision: int = 0
    # the intents accepted since the snapshot: (actor, intent, events), in order
    since_snapshot: list[Step] = field(default_factory=list)
    closed: bool = False  # closed for idleness: out of memory, its intents refused
    # in memory only (a room loaded after a restart has neither): the client address
    # that made it and each seat's, which the per-address caps count
    owner: str | None = None
    seat_owners: dict[int, str] = field(default_factory=dict)
    made: float = 0.0  # when it was made or loaded, by the server's clock

    @property
    def over_days(self) -> bool:
        """A game played over days (the host's option ``days`` of a turn-based room)."""
        return getattr(self.logic, "days", False) is True

    @property
    def kept_open(self) -> bool:
        """Played over days and not over yet: never closed for idleness nor given way to a
        newcomer, whatever the clock says (once over, the room's life is the usual one)."""
        return self.over_days and not self.logic.finished()

    def take_snapshot(self) -> None:
        """Make the room's current state its snapshot (kept in memory; stored by
        :meth:`RoomStore.append` or :meth:`RoomStore.insert_room`)."""
        self.snapshot = self.logic.to_json()
        self.snapshot_rng = dict(self.rng.bit_generator.state)
        self.snapshot_revision = self.revision
        self.since_snapshot = []

    def actor_for(self, token: object) -> Actor | None:
        """The host or the seat holding ``token`` (None if it is nobody's)."""
        if not isinstance(token, str) or not 8 <= len(token) <= 200:
            return None
        digest = token_hash(token)
        found: Actor | None = None
        if hmac.compare_digest(digest, self.host_hash):
            found = Actor.host()
        for seat, stored in sorted(self.seat_hashes.items()):
            if hmac.compare_digest(digest, stored) and found is None:
                found = Actor.player(seat)
        return found


class _Checkpoints:
    """One daemon thread that checkpoints the write-ahead log of every open
    :class:`RoomStore` every CHECKPOINT_EVERY seconds, and ends when none is left open."""

    def __init__(self) -> None:
        self.stores: weakref.WeakSet[RoomStore] = weakref.WeakSet()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None

    def add(self, store: RoomStore) -> None:
        with self.lock:
            self.stores.add(store)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, daemon=True,
                                               name="raceday-wal-checkpoints")
                self.thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(CHECKPOINT_EVERY)
            with self.lock:
                stores = [s for s in self.stores if not s._closed]
                if not stores:
                    self.thread = None
                    return
            for store in stores:
                store.checkpoint()


class FileSharing:
    """Whether another server process uses the same database file now. Every server
    process on a file holds a shared POSIX lock on ``<file>.servers`` for its life; a
    process can take that lock exclusively (and turns it back to shared at once) only
    while no other holds it. Where the lock file cannot be made or locked, the file counts
    as shared."""

    def __init__(self, path: Path) -> None:
        self._fd: int | None = None
        try:
            fd = os.open(f"{path}.servers", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return
        try:
            fcntl.lockf(fd, fcntl.LOCK_SH)
        except OSError:
            os.close(fd)
            return
        self._fd = fd
        self._closer = weakref.finalize(self, os.close, fd)  # with the rooms that hold it

    def alone(self) -> bool:
        """No other process holds the file now (two system calls)."""
        fd = self._fd
        if fd is None:
            return False
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # another process holds it: a failed request leaves ours as it was
            return False
        fcntl.lockf(fd, fcntl.LOCK_SH)
        return True

    def close(self) -> None:
        if self._fd is not None:
            self._closer()
            self._fd = None


class RoomStore:
    """The rooms of one database file (the CLI's session database)."""

    def __init__(self, path: str | Path) -> None:
        from raceday.store.sessions import SessionStore

        # refuses directories, foreign and corrupt files, creates ours; then a file (or a
        # folder, for the journal and the write-ahead log) it may read but not write, so a
        # server never starts on a database every create and join would fail on
        SessionStore(path).check_writable()
        self.path = Path(path)
        self._lock = threading.Lock()
        self._checkpoint_lock = threading.Lock()
        self._checkpoint_conn: sqlite3.Connection | None = None
        self._checkpoint_retry = 0.0  # time.monotonic() before which no checkpoint is tried
        self._checkpoint_wait = 0.0  # the wait after the last failed one (0: it worked)
        self.write_failures = 0  # writes the database refused (each refused its intent)
        self._failing = False  # the last write was refused (logged once until one works)
        self._closed = False
        try:
            self._conn = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                         check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            # the checkpoints (the only writes that wait for the disk) are the checkpoint
            # thread's; the writer makes one itself only if that thread falls far behind
            self._conn.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_FALLBACK}")
            self._conn.executescript(SCHEMA)
            self._add_lifecycle_columns()
        except sqlite3.Error as exc:
            raise SaveFormatError(f"cannot use the database {self.path}: {exc}") from None
        _CHECKPOINTS.add(self)

    def close(self) -> None:
        with self._checkpoint_lock:
            self._closed = True
            if self._checkpoint_conn is not None:
                self._checkpoint_conn.close()
        with self._lock:
            self._conn.close()

    def checkpoint(self) -> None:
        """Copy the committed pages of the write-ahead log into the database file, on a
        connection of its own: PASSIVE, so it never waits for a writer and holds none of
        the writer's locks (the checkpoint thread calls this every CHECKPOINT_EVERY
        seconds; a commit itself then never waits for the disk).

        One that fails is logged once, and the next tries wait twice as long each time (up
        to :data:`CHECKPOINT_BACKOFF` seconds), until one works again, which is logged too:
        a database that cannot be written fills no log with a line a second."""
        with self._checkpoint_lock:
            now = _clock()
            if self._closed or now < self._checkpoint_retry:
                return
            try:
                if self._checkpoint_conn is None:
                    self._checkpoint_conn = sqlite3.connect(
                        self.path, timeout=30, isolation_level=None, check_same_thread=False)
                    self._checkpoint_conn.execute("PRAGMA synchronous=NORMAL")
                self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error as exc:  # tried again later; the writer's fallback
                if not self._checkpoint_wait:
                    log.warning("checkpoint of %s failed: %s (tried again less and less "
                                "often, at most every %g s, until it works)", self.path, exc,
                                CHECKPOINT_BACKOFF)
                self._checkpoint_wait = min(max(2 * self._checkpoint_wait, CHECKPOINT_EVERY),
                                            CHECKPOINT_BACKOFF)
                self._checkpoint_retry = now + self._checkpoint_wait
                return
            if self._checkpoint_wait:
                log.warning("checkpoint of %s works again", self.path)
                self._checkpoint_wait = self._checkpoint_retry = 0.0

    def _add_lifecycle_columns(self) -> None:
        """Add the lifecycle columns to a database made before them (in one write
        transaction, so two servers opening one old file add each column once)."""
        conn = self._conn

        def missing() -> list[str]:
            have = {str(row[1]) for row in conn.execute("PRAGMA table_info(rooms)")}
            return [name for name in LIFECYCLE_COLUMNS if name not in have]

        if not missing():
            return
        with immediate_transaction(conn):
            for name in missing():
                conn.execute(f"ALTER TABLE rooms ADD COLUMN {name} {LIFECYCLE_COLUMNS[name]}")
                if name == "state_revision":  # every older row holds its state at revision
                    conn.execute("UPDATE rooms SET state_revision = revision")

    def delete_room(self, code: str) -> None:
        """Delete the room ``code`` with its seats and events (a room nobody joined, given
        way to a newcomer)."""
        self._write([(f"DELETE FROM {table} WHERE code = ?", (code,))
                     for table in ("room_events", "room_seats", "room_games", "rooms")])

    def mark_closed(self, code: str) -> None:
        """Mark the room ``code`` closed (it is not loaded again)."""
        self._write([("UPDATE rooms SET closed = 1 WHERE code = ?", (code,))])

    def closed_room(self, code: str) -> tuple[str, bool] | None:
        """(game, finished) of the closed room ``code``, or None if it is not one."""
        with self._lock:
            row = self._conn.execute(
                "SELECT game, finished FROM rooms WHERE code = ? AND closed = 1",
                (code,)).fetchone()
        return None if row is None else (str(row[0]), bool(row[1]))

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]],
               check: tuple[str, int] | None = None) -> None:
        """Run ``statements`` in one BEGIN IMMEDIATE transaction; ``check`` = (code,
        revision) refuses the write unless the room is still at that revision: then the
        first statement is an UPDATE of that room ending ``WHERE code = ? AND revision =
        ?`` (compare-and-swap in one statement), which must change its one row.

        A write the database refuses (:class:`StoreUnavailable`) is rolled back and counted
        in :attr:`write_failures`; the first of a run of them is logged (with SQLite's
        words), and the first write that works after them."""
        with self._lock:
            conn = self._conn
            try:
                self._write_locked(conn, statements, check)
            except sqlite3.Error as exc:
                if not self._failing:
                    log.warning("cannot write to the database %s: %s (every action and new "
                                "room is refused until it can; said again then)", self.path,
                                exc)
                self._failing = True
                self.write_failures += 1
                raise refusal(StoreUnavailable, "refusal.store_unwritable") from None
            if self._failing:
                log.warning("the database %s can be written again", self.path)
                self._failing = False

    @staticmethod
    def _write_locked(conn: sqlite3.Connection, statements: list[tuple[str, tuple[Any, ...]]],
                      check: tuple[str, int] | None) -> None:
        """:meth:`_write`'s transaction (the store's lock held)."""
        with immediate_transaction(conn):
            for number, (sql, args) in enumerate(statements):
                changed = conn.execute(sql, args).rowcount
                if number == 0 and check is not None and changed != 1:
                    row = conn.execute("SELECT revision FROM rooms WHERE code = ?",
                                       (check[0],)).fetchone()
                    raise SaveFormatError(
                        f"room {check[0]} changed behind this server's back "
                        f"(revision {None if row is None else row[0]}, expected {check[1]})"
                    )

    def code_taken(self, code: str) -> bool:
        with self._lock:
            row = self._conn.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone()
        return row is not None

    def insert_room(self, room: Room, event: JSON) -> None:
        """A new room, its snapshot taken (:meth:`Room.take_snapshot`)."""
        self._write([
            ("INSERT INTO rooms (code, game, host_hash, state, rng, revision, finished, "
             "state_revision) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
             (room.code, room.game, room.host_hash, jsontext.dumps(room.snapshot),
              json.dumps(room.snapshot_rng), room.revision, room.snapshot_revision)),
            ("INSERT INTO room_events (code, seq, actor, intent, events, at) "
             "VALUES (?, ?, ?, ?, ?, ?)",
             (room.code, room.revision, jsontext.dumps(Actor.host().to_json()),
              jsontext.dumps({"type": "create"}), jsontext.dumps([event]), time.time())),
        ])

    def append(self, room: Room, old_revision: int, actor: Actor, intent: Mapping[str, Any],
               events: list[JSON], seat: tuple[int, str, str] | None = None,
               removed: int | None = None, ended: JSON | None = None) -> None:
        """One accepted intent: the event, the new revision, maybe a new seat or a seat
        ``removed`` (its row deleted, the seats after it one lower), the room's
        snapshot if it was taken with this intent (``room.snapshot_revision`` is
        ``room.revision``), and the finished game's final state ``ended`` when this intent
        starts a new one (kept in ``room_games`` up to the revision before it)."""
        finished = int(room.logic.finished())
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("UPDATE rooms SET state = ?, rng = ?, state_revision = ?, revision = ?, "
             "finished = ?, updated = datetime('now') WHERE code = ? AND revision = ?",
             (jsontext.dumps(room.snapshot), json.dumps(room.snapshot_rng), room.revision,
              room.revision, finished, room.code, old_revision))
            if room.snapshot_revision == room.revision else
            ("UPDATE rooms SET revision = ?, finished = ?, updated = datetime('now') "
             "WHERE code = ? AND revision = ?",
             (room.revision, finished, room.code, old_revision)),
            ("INSERT INTO room_events (code, seq, actor, intent, events, at) "
             "VALUES (?, ?, ?, ?, ?, ?)",
             (room.code, room.revision, jsontext.dumps(actor.to_json()),
              jsontext.dumps(dict(intent)), jsontext.dumps(events), time.time())),
        ]
        if ended is not None:
            statements.append((
                "INSERT INTO room_games (code, first_seq, last_seq, state) "
                "SELECT ?, COALESCE(MAX(last_seq), 0) + 1, ?, ? FROM room_games WHERE code = ?",
                (room.code, old_revision, jsontext.dumps(ended), room.code)))
        if seat is not None:
            statements.append(("INSERT INTO room_seats (code, seat, name, token_hash) "
                               "VALUES (?, ?, ?, ?)", (room.code, *seat)))
        if removed is not None:  # through negative numbers: no two rows share a seat
            statements += [
                ("DELETE FROM room_seats WHERE code = ? AND seat = ?", (room.code, removed)),
                ("UPDATE room_seats SET seat = -seat - 1 WHERE code = ? AND seat > ?",
                 (room.code, removed)),
                ("UPDATE room_seats SET seat = -seat - 2 WHERE code = ? AND seat < 0",
                 (room.code,))]
        self._write(statements, check=(room.code, old_revision))

    def save_snapshot(self, room: Room) -> None:
        """Take ``room``'s snapshot now and store it (a stopping server does, so the file
        holds every room as it stands and loads without applying intents again)."""
        if room.snapshot_revision == room.revision:
            return
        room.take_snapshot()
        self._write([("UPDATE rooms SET state = ?, rng = ?, state_revision = ? "
                      "WHERE code = ? AND revision = ?",
                      (jsontext.dumps(room.snapshot), json.dumps(room.snapshot_rng),
                       room.revision, room.code, room.revision))],
                    check=(room.code, room.revision))

    def load_all(self, keep: Callable[[str], bool] | None = None) -> list[Room]:
        """Every room of the file (only those whose code ``keep`` accepts, if given: a
        shard's own; the others are not even read)."""
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE closed = 0 ORDER BY created"
            ).fetchall()
            seats = self._conn.execute(
                "SELECT code, seat, token_hash FROM room_seats").fetchall()
        if keep is not None:
            rows = [row for row in rows if keep(str(row[0]))]
        by_code: dict[str, dict[int, str]] = {}
        for code, seat, digest in seats:
            by_code.setdefault(str(code), {})[int(seat)] = str(digest)
        return [self._room(row, by_code.get(str(row[0]), {})) for row in rows]

    def open_codes(self, keep: Callable[[str], bool] | None = None) -> list[str]:
        """The codes of the rooms not closed (only those ``keep`` accepts, if given), the
        last played first: the order a server that loads its rooms in the background
        (:class:`Rooms` ``lazy``) loads them in."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT code FROM rooms WHERE closed = 0 ORDER BY updated DESC, created DESC"
            ).fetchall()
        return [str(code) for (code,) in rows if keep is None or keep(str(code))]

    def load_room(self, code: str) -> Room | None:
        """The room ``code`` as :meth:`load_all` gives it back (None if it is not in the
        file or is closed)."""
        with self._lock:
            row = self._conn.execute(
                f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE code = ? AND closed = 0",
                (code,)).fetchone()
            seats = self._conn.execute(
                "SELECT seat, token_hash FROM room_seats WHERE code = ?", (code,)).fetchall()
        if row is None:
            return None
        return self._room(row, {int(seat): str(digest) for seat, digest in seats})

    def _room(self, row: tuple[Any, ...], seats: dict[int, str]) -> Room:
        """A room built from its row (:data:`_ROOM_COLUMNS`): its snapshot with the intents
        logged after it applied again; SaveFormatError if that cannot be done."""
        code, game, host_hash, state, rng_text, revision, state_revision = row
        at = snapshot_at(int(state_revision), int(revision))
        try:
            snapshot = json.loads(state)
            rng_state = json.loads(rng_text)
            steps: list[Step] = []
            if at < int(revision):
                steps = steps_after(self._query, str(code), at, int(revision))
            logic, rng = replay(logic_class(str(game)), snapshot, rng_state, steps)
        except (RacedayError, ValueError, TypeError, KeyError) as exc:
            raise SaveFormatError(f"room {code} in {self.path} cannot be read back: {exc}") \
                from None
        return Room(str(code), str(game), logic, rng, int(revision), str(host_hash), seats,
                    snapshot, rng_state, at, steps)

    def _query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._conn.execute(sql, args).fetchall()

    def events_since(self, code: str, seq: int, limit: int = CATCH_UP_LIMIT) -> list[JSON]:
        """Public events after ``seq`` (at most ``limit``, the latest ones)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq, events FROM room_events WHERE code = ? AND seq > ? "
                "ORDER BY seq DESC LIMIT ?", (code, seq, limit)).fetchall()
        return [{"seq": int(s), "events": json.loads(e)} for s, e in reversed(rows)]


_CHECKPOINTS = _Checkpoints()
_clock = time.monotonic  # the checkpoints' backoff counts by it (tests freeze it)
_ROOM_COLUMNS = "code, game, host_hash, state, rng, revision, state_revision"


class Sharding(Protocol):
    """Which rooms this process keeps when it is one of several
    (:class:`raceday.web.shards.Shard`)."""

    @property
    def letters(self) -> str:
        """The first letters of the codes it makes."""

    def owns(self, code: str) -> bool:
        """Whether the room ``code`` is kept here."""

    def misrouted(self, code: str) -> Message | None:
        """The refusal, in words, of a code another process keeps (None if none does)."""


class Rooms:
    """Every room of the server: create, join, authenticate and apply intents."""

    def __init__(self, path: str | Path, shard: Sharding | None = None, *,
                 lazy: bool = False, max_rooms: int = MAX_ROOMS,
                 rooms_per_address: int = ROOMS_PER_ADDRESS,
                 seats_per_address: int = SEATS_PER_ADDRESS,
                 reclaim_after: float = RECLAIM_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """The rooms kept in ``path``; with a ``shard`` (one process of several, see
        :mod:`raceday.web.shards`) only that shard's rooms are loaded, made and served.
        At most ``max_rooms`` rooms, ``rooms_per_address`` of them made by one client
        address, and ``seats_per_address`` seats of one lobby taken from one address; a
        room nobody joined for ``reclaim_after`` seconds (by ``clock``) that nobody has
        open (:attr:`busy`) is deleted to make way for a newcomer a cap would refuse.

        ``lazy`` (the server's way): only the rooms' codes are read now, so a server on a
        file of many rooms answers at once; a room is built (its snapshot and the intents
        after it applied again) the first time :meth:`get` is asked for it, or by
        :meth:`load_next`, which the server calls in the background until every room is
        loaded. :attr:`rooms` holds the rooms loaded so far, :attr:`waiting` the codes of
        the others (counted by the caps, given way only once loaded); a room that cannot
        be read back is then logged and refused by its code (the others go on), where
        without ``lazy`` it refuses the whole file."""
        self.store = RoomStore(path)
        self.sharing = FileSharing(self.store.path)  # is another server on the file now
        self.shard = shard
        self.max_rooms = max_rooms
        self.rooms_per_address = rooms_per_address
        self.seats_per_address = seats_per_address
        self.reclaim_after = reclaim_after
        self.clock = clock
        # is the room open somewhere or about to play a paced step (the server sets it)
        self.busy: Callable[[str], bool] = lambda code: False
        self.forget: Callable[[str], None] = lambda code: None  # the server's own, of a room
        self.started = clock()  # a stored room counts as made now (when it gives way)
        keep = None if shard is None else shard.owns
        self.rooms: dict[str, Room] = {}
        self.waiting: dict[str, None] = {}  # codes not loaded yet, in loading order
        self.unreadable: set[str] = set()  # codes whose room could not be read back
        # called with each room loaded lazily, once it is in :attr:`rooms` (the server
        # sets its next paced step: a race saved mid-way goes on)
        self.on_load: Callable[[Room], None] | None = None
        self._loading = threading.Lock()
        if lazy:
            self.waiting = dict.fromkeys(self.store.open_codes(keep))
        else:
            self.rooms = {r.code: r for r in self.store.load_all(keep)}
            for room in self.rooms.values():
                room.made = self.started

    def count(self) -> int:
        """The rooms kept: those loaded and those still to load."""
        return len(self.rooms) + len(self.waiting)

    def load(self, code: str) -> Room | None:
        """The room ``code`` (a normal code), loaded now if it is still waiting; None if
        this server keeps no such room or it cannot be read back (logged)."""
        with self._loading:
            room = self.rooms.get(code)
            if room is not None or code not in self.waiting:
                return room
            try:
                room = self.store.load_room(code)
            except SaveFormatError as exc:
                log.error("%s; that room is left out, the others go on", exc)
                self.unreadable.add(code)
                room = None
            del self.waiting[code]
            if room is None:
                return None
            room.made = self.started
            self.rooms[code] = room
        if self.on_load is not None:
            self.on_load(room)
        return room

    def load_next(self) -> bool:
        """Load the next waiting room (:meth:`load`); False when none is left."""
        code = next(iter(self.waiting), None)
        if code is None:
            return False
        self.load(code)
        return True

    def get(self, code: object) -> Room:
        wanted = normal_code(code)
        room = self.rooms.get(wanted)
        if room is None and wanted in self.waiting:
            room = self.load(wanted)
        if room is None and wanted in self.unreadable:
            raise refusal(NoSuchRoom, "refusal.room_unreadable", code=wanted)
        if room is None and self.shard is not None:
            words = self.shard.misrouted(normal_code(code))
            if words is not None:  # another process's room: the proxy sent it to the wrong one
                raise refusal(NoSuchRoom, words.key, **words.params)
        if room is None:
            wanted = normal_code(code)
            closed = self.store.closed_room(wanted) if 0 < len(wanted) <= 16 else None
            if closed is not None:  # closed for idleness (RoomClosed is a NoSuchRoom)
                raise RoomClosed(wanted, *closed)
            raise refusal(NoSuchRoom, "refusal.no_room", code=repr(wanted))
        return room

    def close(self, room: Room) -> None:
        """Close ``room``: its snapshot stored, marked closed in the database, then out of
        memory."""
        self.store.save_snapshot(room)
        self.store.mark_closed(room.code)
        room.closed = True
        self.rooms.pop(room.code, None)

    def _fresh_code(self) -> str:
        first = CODE_ALPHABET if self.shard is None else self.shard.letters
        for _ in range(200):
            code = secrets.choice(first) + "".join(
                secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - 1))
            if code not in self.rooms and not self.store.code_taken(code):
                return code
        raise refusal(RoomError, "refusal.no_free_code")

    def unjoined(self, room: Room) -> bool:
        """Whether ``room`` may give way to a newcomer: no seat taken, nobody has it open,
        no paced step waiting, not a game played over days still on
        (:attr:`Room.kept_open`), made at least ``reclaim_after`` seconds ago."""
        return (not room.seat_hashes and not room.closed and not self.busy(room.code)
                and not room.kept_open and self.clock() - room.made >= self.reclaim_after)

    def reclaim(self, rooms: list[Room]) -> int:
        """Delete those of ``rooms`` nobody joined (:meth:`unjoined`); how many."""
        gone = 0
        for room in rooms:
            if self.unjoined(room):
                self.store.delete_room(room.code)
                room.closed = True
                self.rooms.pop(room.code, None)
                self.forget(room.code)
                gone += 1
        return gone

    def held_by(self, owner: str) -> list[Room]:
        """The rooms the client address ``owner`` made (since this server started)."""
        return [room for room in self.rooms.values() if room.owner == owner]

    def make_way(self, owner: str | None) -> None:
        """Refuse a new room the caps do not allow (:class:`RoomsFull`: 429 for the
        address's own cap, checked first, 409 for the server's), after rooms nobody joined
        gave way: the address's own, then any."""
        if owner is not None:
            held = self.held_by(owner)
            if len(held) >= self.rooms_per_address:
                self.reclaim(held)
                if len(self.held_by(owner)) >= self.rooms_per_address:
                    raise _full("refusal.rooms_per_address", 429, max=self.rooms_per_address)
        if self.count() >= self.max_rooms:  # the rooms still to load count too
            self.reclaim(sorted(self.rooms.values(), key=lambda r: r.made))
            if self.count() >= self.max_rooms:
                raise _full("refusal.too_many_rooms", 409, max=self.max_rooms)

    def create(self, game: object, options: Mapping[str, Any],
               owner: str | None = None) -> tuple[Room, str]:
        """A new room of ``game`` in its lobby, made by the client address ``owner`` (None:
        not counted for anyone); returns it with the host's token."""
        self.make_way(owner)
        cls = logic_class(game)  # type: ignore[arg-type]
        seed = secrets.randbits(63)
        with as_room_error():
            logic = cls.create(options, seed)
        token = new_token()
        room = Room(self._fresh_code(), cls.game, logic, np.random.default_rng(seed), 1,
                    token_hash(token), owner=owner, made=self.clock())
        room.take_snapshot()
        self.store.insert_room(room, {"type": "created", "game": cls.game})
        self.rooms[room.code] = room
        return room, token

    def create_from_record(self, record: Record, owner: str | None = None
                           ) -> tuple[Room, str]:
        """A new room in its lobby whose start goes on from ``record`` (a game begun at the
        terminal): its options and seats, its chance drawn on from the record's Generator
        tag (a fresh seed without one); returns it with the host's token. RoomError (a
        party's record, a finished game) or RecordError naming the first bad line."""
        from raceday.core.record import generator_from
        from raceday.rooms.record import room_from_record

        self.make_way(owner)
        logic = room_from_record(record)
        seed = secrets.randbits(63)
        rng = generator_from(record) if "Generator" in record.tags else \
            np.random.default_rng(seed)
        token = new_token()
        room = Room(self._fresh_code(), logic.game, logic, rng, 1, token_hash(token),
                    owner=owner, made=self.clock())
        room.take_snapshot()
        self.store.insert_room(room, {"type": "created", "game": logic.game,
                                      "moves": len(record.moves)})
        self.rooms[room.code] = room
        return room, token

    def join(self, code: object, name: object,
             owner: str | None = None) -> tuple[Room, int, str, JSON]:
        """Seat a player by name, from the client address ``owner`` (at most
        ``seats_per_address`` seats of one lobby each; None: not counted); returns the
        room, the seat, its token and the event."""
        room = self.get(code)
        if room.closed:
            raise RoomClosed(room.code, room.game, room.logic.finished())
        if room.logic.finished():
            raise refusal(RoomError, "refusal.party_over_join")
        if owner is not None and sum(
                1 for held in room.seat_owners.values() if held == owner
        ) >= self.seats_per_address:
            raise _full("refusal.seats_per_address", 429, max=self.seats_per_address)
        text = clean_name(name)
        token = new_token()
        intent = {"type": "join", "name": text}

        def change() -> list[JSON]:
            seat = room.logic.add_seat(text)
            return [{"type": "joined", "seat": seat, "name": text}]

        events = self._commit(room, Actor.spectator(), intent, change, seat_token=token)
        seat = int(events[0]["seat"])
        if owner is not None:
            room.seat_owners[seat] = owner
        return room, seat, token, events[0]

    def apply(self, room: Room, actor: Actor, intent: Mapping[str, Any]) -> list[JSON]:
        """Apply one intent through the game's logic; RoomError changes nothing."""
        if room.closed:  # a connection opened just before the room was closed
            raise RoomClosed(room.code, room.game, room.logic.finished())
        if room.logic.finished() and intent.get("type") != "again":  # the host's new game
            raise refusal(RoomError, "refusal.party_over")
        ended = room.logic.to_json() if room.logic.finished() else None
        return self._commit(room, actor, intent,
                            lambda: room.logic.handle(actor, intent, room.rng), ended=ended)

    def _commit(self, room: Room, actor: Actor, intent: Mapping[str, Any],
                change: Callable[[], list[JSON]], seat_token: str | None = None,
                ended: JSON | None = None) -> list[JSON]:
        old_revision = room.revision
        kept = (room.snapshot, room.snapshot_rng, room.snapshot_revision, room.since_snapshot)
        try:
            events = change()
            room.revision = old_revision + 1
            room.since_snapshot = [*room.since_snapshot, (actor, dict(intent), None)]
            if len(room.since_snapshot) >= SNAPSHOT_EVERY or room.logic.finished():
                room.take_snapshot()
            seat_row = None
            if seat_token is not None:
                seat_row = (int(events[0]["seat"]), str(events[0]["name"]),
                            token_hash(seat_token))
            removed = removed_seat(actor, events)
            self.store.append(room, old_revision, actor, intent, events, seat_row, removed,
                              ended)
        except BaseException as exc:
            # put the room back exactly as it was: state, generator and revision (its
            # snapshot with the intents accepted since applied again), unless the refusal
            # came before the room was touched
            room.revision = old_revision
            room.snapshot, room.snapshot_rng, room.snapshot_revision, room.since_snapshot = kept
            if isinstance(exc, RefusedUnread):
                raise
            logic, rng = replay(type(room.logic), room.snapshot, room.snapshot_rng,
                                room.since_snapshot)
            room.logic = logic
            room.rng.bit_generator.state = rng.bit_generator.state
            if isinstance(exc, RacedayError) and not isinstance(exc, (RoomError,
                                                                      SaveFormatError)):
                with as_room_error():
                    raise exc from None
            raise
        if seat_token is not None:
            room.seat_hashes[int(events[0]["seat"])] = token_hash(seat_token)
        if removed is not None:
            room.seat_hashes = _moved_up(room.seat_hashes, removed)
            room.seat_owners = _moved_up(room.seat_owners, removed)
        return events


def removed_seat(actor: Actor, events: list[JSON]) -> int | None:
    """The seat the host removed with this intent's events (None if none)."""
    if actor.kind != "host":
        return None
    for event in events:
        if event.get("type") == "seat_removed":
            return int(event["seat"])
    return None


def _moved_up(by_seat: dict[int, str], removed: int) -> dict[int, str]:
    """``by_seat`` without seat ``removed``, the seats after it one lower."""
    return {seat - (seat > removed): value for seat, value in by_seat.items()
            if seat != removed}
