"""A room is stored as a snapshot now and then plus the intents logged after it.

The server writes a room's whole state only every ``SNAPSHOT_EVERY`` intents (and when the
evening ends, the room closes or the server stops); the room at its last revision is the
snapshot with the later intents applied again (:mod:`raceday.rooms.log`). Here every game
is played with snapshots every few intents, and at every step the room as the file gives
it back (loaded by a new server, read by the tools, in another process with another hash
seed) is the room the server holds: the same state, generator and revision.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import raceday.web.rooms as rooms_module
from raceday.core.errors import SaveFormatError
from raceday.rooms import Actor, RoomError
from raceday.rooms.log import stored_state
from raceday.web.rooms import Room, Rooms
from tests.web.test_replay_frames import ROOMS, _seat_intent, started_room

EVERY = 5  # intents between two snapshots here (the server's is larger)
HANG = 300  # seconds: a guard against a hang of the subprocess, far above what it takes


def _query(db: Path) -> Any:
    def query(sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with sqlite3.connect(db) as conn:
            return conn.execute(sql, args).fetchall()
    return query


def _stored(db: Path, code: str) -> tuple[int, int]:
    """(revision, state_revision) of the room ``code`` in the file."""
    ((revision, state_revision),) = _query(db)(
        "SELECT revision, state_revision FROM rooms WHERE code = ?", (code,))
    return int(revision), int(state_revision)


def _next_intent(game: str, room: Room, seats: int, rng: np.random.Generator
                 ) -> tuple[Actor, dict[str, Any]]:
    if getattr(room.logic, "next_tick", lambda: None)() is not None:
        return Actor.timeline(), {"type": "tick"}
    for seat in range(seats):
        intent = _seat_intent(game, room, seat, rng)
        if intent is not None:
            return Actor.player(seat), intent
    raise AssertionError(f"nobody can act in the {game} room")


def _lagging(db: Path, rooms: Rooms, room: Room, game: str) -> None:
    """Play ``room`` on until the file's snapshot of it is older than its revision."""
    rng = np.random.default_rng(1)
    for _ in range(EVERY):
        rooms.apply(room, *_next_intent(game, room, len(ROOMS[game][1]), rng))
        if _stored(db, room.code)[1] < room.revision:
            return
    raise AssertionError("every intent was a snapshot")


@pytest.fixture
def every(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(rooms_module, "SNAPSHOT_EVERY", EVERY)
    return EVERY


@pytest.mark.parametrize("game", sorted(ROOMS))
def test_the_file_gives_back_the_room_at_every_step(tmp_path: Path, game: str, every: int
                                                    ) -> None:
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    room = started_room(rooms, game)
    rng = np.random.default_rng(7)
    snapshots_seen = set()
    try:
        for step in range(5000):
            if room.logic.finished():
                break
            rooms.apply(room, *_next_intent(game, room, len(ROOMS[game][1]), rng))
            revision, state_revision = _stored(db, room.code)
            assert revision == room.revision
            assert revision - every < state_revision <= revision  # not written every time
            snapshots_seen.add(state_revision)
            if step % 7 == 3:  # the tools' reading and a new server's, now and then
                assert stored_state(_query(db), room.code) == room.logic.to_json()
                again = Rooms(db)
                try:
                    back = again.rooms[room.code]
                    assert back.revision == room.revision
                    assert back.logic.to_json() == room.logic.to_json()
                    assert back.rng.bit_generator.state == room.rng.bit_generator.state
                finally:
                    again.store.close()
        assert room.logic.finished()
        revision, state_revision = _stored(db, room.code)
        assert state_revision == revision  # the end of an evening is always a snapshot
        assert stored_state(_query(db), room.code) == room.logic.to_json()
        assert len(snapshots_seen) >= 3
    finally:
        rooms.store.close()


def test_a_refused_intent_leaves_the_room_as_it_was(tmp_path: Path, every: int) -> None:
    rooms = Rooms(tmp_path / "party.sqlite")
    try:
        room = started_room(rooms, "derby")
        rng = np.random.default_rng(3)
        refused = 0
        for _ in range(4 * every):
            state, generator = room.logic.to_json(), dict(room.rng.bit_generator.state)
            revision, since = room.revision, len(room.since_snapshot)
            with pytest.raises(RoomError):
                rooms.apply(room, Actor.player(0), {"type": "bid", "amount": -5})
            refused += 1
            assert room.logic.to_json() == state
            assert room.rng.bit_generator.state == generator
            assert (room.revision, len(room.since_snapshot)) == (revision, since)
            rooms.apply(room, *_next_intent("derby", room, 3, rng))
        assert refused == 4 * every
    finally:
        rooms.store.close()


def test_a_room_closed_or_left_by_a_stopping_server_is_stored_whole(tmp_path: Path,
                                                                    every: int) -> None:
    from fastapi.testclient import TestClient

    from raceday.web.app import create_app

    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    room = started_room(rooms, "keirin")
    lagging = started_room(rooms, "derby")
    _lagging(db, rooms, room, "keirin")
    _lagging(db, rooms, lagging, "derby")
    assert _stored(db, room.code)[1] < _stored(db, room.code)[0]
    rooms.close(room)
    assert _stored(db, room.code)[1] == _stored(db, room.code)[0]
    rooms.store.close()
    assert _stored(db, lagging.code)[1] < _stored(db, lagging.code)[0]
    with TestClient(create_app(db, resume_after=60)):
        pass  # started and stopped
    assert _stored(db, lagging.code)[1] == _stored(db, lagging.code)[0]


def test_another_process_with_another_hash_seed_rebuilds_every_room(tmp_path: Path,
                                                                     every: int) -> None:
    """Replaying in another process (another PYTHONHASHSEED: sets of text iterate in
    another order) gives the same rooms: the rules depend on nothing but their generator."""
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    live = {}
    try:
        for k, game in enumerate(sorted(ROOMS)):
            room = started_room(rooms, game)
            rng = np.random.default_rng(k)
            for _ in range(every * 3 + 2):  # ends between two snapshots
                if room.logic.finished():
                    break
                rooms.apply(room, *_next_intent(game, room, len(ROOMS[game][1]), rng))
            live[room.code] = room.logic.to_json()
    finally:
        rooms.store.close()
    assert any(_stored(db, code)[1] < _stored(db, code)[0] for code in live)
    script = ("import json, sys\nfrom raceday.web.rooms import Rooms\n"
              "rooms = Rooms(sys.argv[1])\n"
              "print(json.dumps({c: r.logic.to_json() for c, r in rooms.rooms.items()}))\n")
    for seed in ("1", "4242"):
        done = subprocess.run([sys.executable, "-c", script, str(db)], capture_output=True,
                              text=True, timeout=HANG, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed})
        assert json.loads(done.stdout) == json.loads(json.dumps(live))


def test_a_log_the_rules_do_not_give_again_is_refused_by_name(tmp_path: Path,
                                                                every: int) -> None:
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    room = started_room(rooms, "derby")
    _lagging(db, rooms, room, "derby")
    rooms.store.close()
    revision, state_revision = _stored(db, room.code)
    assert state_revision < revision
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE room_events SET events = ? WHERE code = ? AND seq = ?",
                     (json.dumps([{"type": "forged"}]), room.code, revision))
    with pytest.raises(SaveFormatError, match=f"room {room.code}.*other events"):
        Rooms(db)
    with pytest.raises(SaveFormatError, match="other events"):
        stored_state(_query(db), room.code)


def test_a_file_from_before_the_snapshots_reads_and_opens(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    room = started_room(rooms, "keirin")
    state = room.logic.to_json()
    rooms.store.close()
    with sqlite3.connect(db) as conn:  # as a server before this column left it
        conn.execute("UPDATE rooms SET state = ?, state_revision = revision",
                     (json.dumps(state),))
        conn.execute("ALTER TABLE rooms DROP COLUMN state_revision")
    assert stored_state(_query(db), room.code) == state
    again = Rooms(db)  # adds the column: every row holds its state at its revision
    try:
        assert again.rooms[room.code].logic.to_json() == state
        revision, state_revision = _stored(db, room.code)
        assert state_revision == revision
    finally:
        again.store.close()


def test_a_room_changed_behind_the_servers_back_is_not_written_over(tmp_path: Path) -> None:
    """Two servers holding one room (a misrouted shard): the second's intent meets a
    revision it did not make, writes nothing and leaves its room as it was."""
    db = tmp_path / "party.sqlite"
    first = Rooms(db)
    room = started_room(first, "derby")
    second = Rooms(db)
    try:
        stale = second.rooms[room.code]
        rng = np.random.default_rng(2)
        rooms_intent = _next_intent("derby", room, 3, rng)
        first.apply(room, *rooms_intent)
        before = (stale.revision, stale.logic.to_json())
        with pytest.raises(SaveFormatError, match=f"room {room.code} changed behind"):
            second.apply(stale, *rooms_intent)
        assert (stale.revision, stale.logic.to_json()) == before
        assert _stored(db, room.code)[0] == room.revision  # the first one's write stands
        ((count,),) = _query(db)("SELECT COUNT(*) FROM room_events WHERE code = ?",
                                 (room.code,))
        assert count == room.revision
    finally:
        first.store.close()
        second.store.close()
