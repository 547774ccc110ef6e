"""Rooms' lifecycle: idle rooms close, finished ones stay replayable, the file stays bounded.

A room lives in the party server's memory while it is played. Three things end that:

* **Idle close** (:class:`IdleCloser`, run by the server). A room with no accepted intent,
  no paced step waiting and no open connection for ``idle_close`` hours (``raceday serve
  --idle-close HOURS``, :data:`IDLE_CLOSE_HOURS` by default) is *closed*: marked closed in
  the database (``rooms.closed = 1``) and dropped from memory. A game played over days
  (the host's option ``days``: :attr:`Room.kept_open <raceday.web.rooms.Room.kept_open>`)
  is never idle while it is unfinished, however long its players take; once it is over,
  its idle time counts from the sweep that saw it over. A closed room's pages, API and
  socket then refuse it in words (``refusal.room_closed``, or ``refusal.room_closed_finished``
  for a finished one, whose replay at ``/replay/room/CODE`` still reads the database). The
  clock is injectable, so tests close rooms without waiting.
* **Pruning** (:func:`prune`, ``raceday rooms prune --older-than DAYS``). Closed and
  finished rooms whose last play is older than DAYS days are deleted with their seats and
  events, in one transaction. A room still being played (neither finished nor closed) is
  never deleted.
* **Archiving** (the same with ``archive_to``, ``raceday rooms archive``). The rooms are
  first written to a JSON Lines file (gzip when its name ends in ``.gz``): a header line,
  then one line a room with its state, seat names and event log (never a token hash). The
  file is written beside its final name, synced, and linked into place without replacing
  anything; only then are the rooms deleted, and if that fails the file is removed again:
  the rooms end up either archived and deleted, or untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any, Protocol

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.rooms import RoomError
from raceday.rooms.log import stored_state
from raceday.store.sessions import ReadOnlyStore
from raceday.web.rooms import Room, Rooms, RoomStore, StoreUnavailable

IDLE_CLOSE_HOURS = 12.0  # a room nobody played or watched for this long is closed
SWEEP_EVERY = 60.0  # seconds between two idle sweeps at most
ARCHIVE_FORMAT = "raceday-rooms-archive"
ARCHIVE_VERSION = 1
SQL_TIME = "%Y-%m-%d %H:%M:%S"  # SQLite's datetime('now'), UTC

log = logging.getLogger("raceday.web")


class _Hub(Protocol):
    """What the idle sweep needs of the server's hub (:class:`raceday.web.hub.Hub`)."""

    conns: dict[str, Any]
    timers: dict[str, asyncio.TimerHandle]
    locks: dict[str, asyncio.Lock]

    def lock(self, code: str) -> asyncio.Lock: ...


class IdleCloser:
    """Closes the rooms of ``rooms`` left idle ``idle_seconds`` by ``clock``'s count.

    A room is active when its revision moved since the last sweep, a connection of it is
    open, a paced step of it is waiting or it is a game played over days still on; it is
    idle from the last sweep that saw it active (or from the first sweep, for rooms loaded
    at start)."""

    def __init__(self, rooms: Rooms, hub: _Hub, idle_seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not idle_seconds > 0:
            raise ValueError(f"idle time must be above 0 seconds, got {idle_seconds!r}")
        self.rooms = rooms
        self.hub = hub
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.seen: dict[str, tuple[int, float]] = {}  # code -> (revision, last active)

    @property
    def every(self) -> float:
        """Seconds between two sweeps of :meth:`run`."""
        return min(max(self.idle_seconds / 12, 1.0), SWEEP_EVERY)

    def _idle(self, room: Room, now: float) -> bool:
        seen = self.seen.get(room.code)
        if (seen is None or seen[0] != room.revision or self.hub.conns.get(room.code)
                or room.code in self.hub.timers or room.kept_open):
            self.seen[room.code] = (room.revision, now)
            return False
        return now - seen[1] >= self.idle_seconds

    async def sweep(self) -> list[str]:
        """Close every room idle long enough; returns their codes."""
        closed: list[str] = []
        for room in list(self.rooms.rooms.values()):
            if not self._idle(room, self.clock()):
                continue
            async with self.hub.lock(room.code):  # no intent of it is half-applied
                if (self.rooms.rooms.get(room.code) is not room
                        or not self._idle(room, self.clock())):
                    continue
                await asyncio.to_thread(self.rooms.close, room)
            self.hub.locks.pop(room.code, None)
            self.seen.pop(room.code, None)
            closed.append(room.code)
            log.info("room %s closed after %.1f hours without play", room.code,
                     self.idle_seconds / 3600)
        for code in [c for c in self.seen if c not in self.rooms.rooms]:
            del self.seen[code]
        return closed

    async def run(self) -> None:
        """Sweep every :attr:`every` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except StoreUnavailable:  # the store logged it once; the room stays, try later
                pass
            except Exception:  # log it, keep serving, try again later
                log.exception("idle sweep failed")


# --- the database: list, prune, archive (raceday rooms) ---------------------------------
@dataclass(frozen=True)
class RoomSummary:
    """One room of the database, as ``raceday rooms list`` shows it."""

    code: str
    game: str
    finished: bool
    closed: bool
    seats: int
    events: int
    created: str
    updated: str  # the last accepted intent, UTC

    @property
    def status(self) -> str:
        """``playing``, ``finished``, ``closed`` or ``finished, closed``."""
        if self.closed:
            return "finished, closed" if self.finished else "closed"
        return "finished" if self.finished else "playing"

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "game": self.game, "status": self.status,
                "finished": self.finished, "closed": self.closed, "seats": self.seats,
                "events": self.events, "created": self.created, "updated": self.updated}


@dataclass(frozen=True)
class Pruned:
    """What :func:`prune` did: the rooms deleted (or that would be, on a dry run) and the
    archive written (None if none)."""

    codes: list[str]
    archive: Path | None


@contextlib.contextmanager
def _database(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to the rooms of ``path`` (checked and brought up to date by
    :class:`RoomStore` first: a directory, a foreign or corrupt file is refused)."""
    if not path.is_file():
        raise OptionsError(f"there is no database at {path}")
    RoomStore(path).close()
    try:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    except sqlite3.Error as exc:
        raise SaveFormatError(f"cannot use the database {path}: {exc}") from None
    try:
        yield conn
    except sqlite3.Error as exc:  # locked for long by another writer, a full disk, ...
        raise SaveFormatError(f"cannot use the database {path}: {exc}") from None
    finally:
        conn.close()


def list_rooms(path: Path) -> list[RoomSummary]:
    """Every room of the database at ``path``, the longest idle first. The file is only
    read (:class:`ReadOnlyStore`): nothing is made or changed, not the tables of a file
    without rooms nor the columns an older server did not have."""
    store = ReadOnlyStore(path)
    if store.missing:
        raise OptionsError(f"there is no database at {path}")
    if not store.has_rooms:
        return []
    columns = store.tables["rooms"]
    closed = "r.closed" if "closed" in columns else "0"
    created = "r.created" if "created" in columns else "r.updated"
    rows = store.query(
        f"SELECT r.code, r.game, r.finished, {closed}, {created}, r.updated, "
        "(SELECT COUNT(*) FROM room_seats s WHERE s.code = r.code), "
        "(SELECT COUNT(*) FROM room_events e WHERE e.code = r.code) "
        "FROM rooms r ORDER BY r.updated, r.code")
    return [RoomSummary(str(code), str(game), bool(finished), bool(closed), int(seats),
                        int(events), str(created), str(updated))
            for code, game, finished, closed, created, updated, seats, events in rows]


def cutoff(now: datetime, days: float) -> str:
    """The ``updated`` time before which a room is older than ``days`` days at ``now``."""
    return (now.astimezone(UTC) - timedelta(days=days)).strftime(SQL_TIME)


def prune(path: Path, older_than_days: float, *, now: datetime | None = None,
          archive_to: Path | None = None, dry_run: bool = False) -> Pruned:
    """Delete the closed and finished rooms of ``path`` whose last play is older than
    ``older_than_days`` days at ``now`` (UTC, now by default), first archiving them to
    ``archive_to`` if given (a file that must not exist yet, or a folder to make a dated
    file in). ``dry_run`` only says which. Bad input raises OptionsError."""
    if not older_than_days >= 0:
        raise OptionsError(f"the age must be 0 days or more, got {older_than_days!r}")
    moment = now if now is not None else datetime.now(UTC)
    target = None if archive_to is None else _archive_path(archive_to, moment)
    with _database(path) as conn:
        try:
            conn.execute("BEGIN IMMEDIATE")  # no server writes meanwhile
            codes = [str(row[0]) for row in conn.execute(
                "SELECT code FROM rooms WHERE (closed = 1 OR finished = 1) AND updated < ? "
                "ORDER BY updated, code", (cutoff(moment, older_than_days),))]
            if dry_run or not codes:
                conn.execute("ROLLBACK")
                return Pruned(codes, None)
            written = None if target is None else _write_archive(conn, codes, target, moment,
                                                                 path)
            try:
                for table in ("room_events", "room_seats", "rooms"):
                    conn.executemany(f"DELETE FROM {table} WHERE code = ?",
                                     [(code,) for code in codes])
                conn.execute("COMMIT")
            except BaseException:
                if written is not None:  # all or nothing: the rooms stay, the file goes
                    written.unlink(missing_ok=True)
                raise
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return Pruned(codes, written)


def _archive_path(given: Path, now: datetime) -> Path:
    """The archive file for ``given``: itself (which must not exist, in a folder that
    does), or a dated file in ``given`` if it is a folder."""
    if str(given).strip() == "":
        raise OptionsError("the archive must be a file or folder path, got an empty text")
    if given.is_dir():
        return given / f"rooms-{now.astimezone(UTC):%Y%m%dT%H%M%SZ}.jsonl.gz"
    if given.exists() or given.is_symlink():
        raise OptionsError(f"{given} already exists; an archive never replaces a file")
    if not given.parent.is_dir():
        raise OptionsError(f"the folder {given.parent} does not exist")
    return given


def _write_archive(conn: sqlite3.Connection, codes: list[str], target: Path, now: datetime,
                   database: Path) -> Path:
    """Write the rooms ``codes`` to ``target`` (synced, linked into place, never over an
    existing file) and return it."""
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "xb") as raw:
            out: IO[bytes] = raw
            if target.name.endswith(".gz"):
                out = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0)  # type: ignore[assignment]
            try:
                out.write(_line({
                    "format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION,
                    "archived": now.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "database": str(database), "rooms": len(codes)}))
                for code in codes:
                    out.write(_line(_room_record(conn, code)))
            finally:
                if out is not raw:
                    out.close()  # the gzip trailer; the file itself stays open
            raw.flush()
            os.fsync(raw.fileno())
        os.link(temp, target)  # fails if the name was taken meanwhile: nothing replaced
    except FileExistsError:
        raise OptionsError(f"{target} already exists; an archive never replaces a file") \
            from None
    except OSError as exc:
        raise OptionsError(f"cannot write the archive {target}: {exc.strerror or exc}") \
            from None
    finally:
        temp.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # the new name itself survives a power cut
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    return target


def _line(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _room_record(conn: sqlite3.Connection, code: str) -> dict[str, Any]:
    """One room as an archive line: everything but its secrets and its generator."""
    game, revision, finished, closed, created, updated = conn.execute(
        "SELECT game, revision, finished, closed, created, updated FROM rooms "
        "WHERE code = ?", (code,)).fetchone()
    try:
        state = stored_state(lambda sql, args: conn.execute(sql, args).fetchall(), code)
    except (SaveFormatError, RoomError):  # rules that cannot rebuild it: its last snapshot
        (text,) = conn.execute("SELECT state FROM rooms WHERE code = ?", (code,)).fetchone()
        state = json.loads(text)  # (the events after it are in the record too)
    seats = [{"seat": int(seat), "name": str(name)} for seat, name in conn.execute(
        "SELECT seat, name FROM room_seats WHERE code = ? ORDER BY seat", (code,))]
    events = [{"seq": int(seq), "actor": json.loads(actor), "intent": json.loads(intent),
               "events": json.loads(produced), "at": float(at)}
              for seq, actor, intent, produced, at in conn.execute(
                  "SELECT seq, actor, intent, events, at FROM room_events WHERE code = ? "
                  "ORDER BY seq", (code,))]
    return {"code": code, "game": str(game), "finished": bool(finished),
            "closed": bool(closed), "created": str(created), "updated": str(updated),
            "revision": int(revision), "state": state, "seats": seats,
            "events": events}


def read_archive(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, rooms) of an archive written by :func:`prune`."""
    opener: Callable[..., IO[str]] = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as file:
        lines = [json.loads(line) for line in file if line.strip()]
    if not lines or lines[0].get("format") != ARCHIVE_FORMAT:
        raise OptionsError(f"{path} is not a raceday rooms archive")
    return lines[0], lines[1:]
