"""A restart on a database of many rooms (#44): the server reads only the rooms' codes before
it answers and builds each room the first time it is asked for (the others in the
background), giving back every room exactly as it was; and a race saved mid-way says on
every screen that it is resuming, in the room's own frames, until it goes on.

No figure here is a time: bench/bench_restart.py measures how soon the server answers."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from raceday.rooms import Actor, RoomError
from raceday.web.app import create_app
from raceday.web.rooms import Room, Rooms
from tests.web.conftest import Client, closing_sockets, worded
from tests.web.test_replay_frames import ROOMS, started_room
from tests.web.test_snapshots import _next_intent

HANG = 300  # seconds: a guard against a hang only, far above what anything here takes


def racing_room(db: Path) -> tuple[str, str, list[str]]:
    """A Derby room of Aki and Bo stored in ``db`` with its first race under way (a paced
    step waiting), as a server stopped mid-race leaves it: (code, host token, seat
    tokens)."""
    rooms = Rooms(db)
    try:
        room, host = rooms.create("derby", {"races": 4})
        seats = [rooms.join(room.code, name)[2] for name in ("Aki", "Bo")]
        rooms.apply(room, Actor.host(), {"type": "start", "computers": 0})
        logic: Any = room.logic
        for _ in range(200):  # bid, then say done, until the first race runs (bounded)
            if logic.next_tick() is not None:
                break
            for seat in (0, 1):
                me = logic.view(Actor.player(seat)).get("me") or {}
                if me.get("may_bid") and me.get("sealed_bid") is None:
                    rooms.apply(room, Actor.player(seat), {"type": "bid", "amount": 500})
                elif me.get("may_bet"):
                    rooms.apply(room, Actor.player(seat), {"type": "done"})
        assert logic.next_tick() is not None, "the race did not get under way"
        return room.code, host, seats
    finally:
        rooms.store.close()


def test_a_race_saved_mid_way_says_it_is_resuming_in_its_first_frames(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    code, host_token, seats = racing_room(db)
    rooms = Rooms(db)
    lobby, _ = rooms.create("derby", {})  # nothing waits in a lobby: nothing to resume
    rooms.store.close()
    with closing_sockets(create_app(db, resume_after=HANG, idle_close=None)) as tc:
        screens = [Client(tc, code, token) for token in (None, host_token, *seats)]
        for screen in screens:  # the big screen, the host and both phones
            assert 0 < screen.welcome["resume_in"] <= HANG, screen.welcome
        assert "resume_in" not in Client(tc, lobby.code, None).welcome
        # the host's pace goes on at once: the next update says nothing of resuming
        host = screens[1]
        assert host.send({"type": "pace", "seconds": 0.5})["type"] == "ack"
        update = host.messages[-1]
        assert update["type"] == "update" and "resume_in" not in update, update
        assert "resume_in" not in Client(tc, code, None).welcome


def _played_rooms(db: Path) -> list[str]:
    """One room of each game stored mid-way, its snapshot behind its revision (as a killed
    server leaves it), and a Derby room in its lobby; their codes."""
    rooms = Rooms(db)
    codes = []
    try:
        rng = np.random.default_rng(5)
        for game in sorted(ROOMS):
            room = started_room(rooms, game)
            for _ in range(7):
                if room.logic.finished():
                    break
                rooms.apply(room, *_next_intent(game, room, len(ROOMS[game][1]), rng))
            codes.append(room.code)
        codes.append(rooms.create("derby", {})[0].code)
    finally:
        rooms.store.close()
    return codes


def _state(room: Room) -> dict[str, Any]:
    """Everything of a room a restart must give back, as JSON."""
    seats = range(len(room.logic.seat_names()))
    return {"game": room.game, "revision": room.revision, "state": room.logic.to_json(),
            "rng": json.loads(json.dumps(room.rng.bit_generator.state)),
            "seat_hashes": room.seat_hashes, "host_hash": room.host_hash,
            "views": [room.logic.view(Actor.spectator()), room.logic.view(Actor.host()),
                      *(room.logic.view(Actor.player(s)) for s in seats)]}


def test_a_lazy_server_gives_back_every_room_by_its_code_as_it_was(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    codes = _played_rooms(db)
    eager = Rooms(db)  # the rooms as a server that builds them all at start has them
    before = {code: _state(eager.rooms[code]) for code in codes}
    eager.store.close()
    assert any(r["revision"] > 1 for r in before.values())
    app = create_app(db, idle_close=None)
    rooms = app.state.rooms
    assert rooms.rooms == {} and set(rooms.waiting) == set(codes)  # only the codes read
    assert rooms.count() == len(codes)
    with closing_sockets(app) as tc:
        for code in codes:  # by its code, whether the background has loaded it yet or not
            info = tc.get(f"/api/rooms/{code}")
            assert info.status_code == 200, info.text
            assert info.json()["seq"] == before[code]["revision"]
            assert _state(rooms.get(code)) == before[code]
            welcome = Client(tc, code, None).welcome
            assert welcome["view"] == json.loads(json.dumps(before[code]["views"][0]))
    assert rooms.waiting == {} and set(rooms.rooms) == set(codes)


def test_the_background_loads_every_room_and_says_when(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    codes = _played_rooms(db)
    app = create_app(db, idle_close=None)
    told: list[tuple[int, float]] = []
    app.state.on_loaded = lambda n, seconds: told.append((n, seconds))
    with closing_sockets(app) as tc:
        import time

        deadline = time.monotonic() + HANG
        while not told:  # nobody asks for any room: the background loads them
            assert time.monotonic() < deadline, "the rooms were not loaded"
            assert tc.get("/api/games").status_code == 200  # the server answers meanwhile
            time.sleep(0.05)
    assert told[0][0] == len(codes) and len(told) == 1
    assert set(app.state.rooms.rooms) == set(codes)


def test_a_room_that_cannot_be_read_back_is_refused_and_the_others_go_on(
        tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    codes = _played_rooms(db)
    broken = codes[0]
    with sqlite3.connect(db) as conn:  # its last logged intent no longer gives its events
        (seq,) = conn.execute("SELECT MAX(seq) FROM room_events WHERE code = ?",
                              (broken,)).fetchone()
        conn.execute("UPDATE room_events SET events = ? WHERE code = ? AND seq = ?",
                     (json.dumps([{"type": "forged"}]), broken, seq))
    with closing_sockets(create_app(db, idle_close=None)) as tc:
        refused = tc.get(f"/api/rooms/{broken}")
        assert refused.status_code == 404
        assert broken in worded(refused.json())
        assert refused.json()["words"]["key"] == "refusal.room_unreadable"
        for code in codes[1:]:
            assert tc.get(f"/api/rooms/{code}").status_code == 200


@pytest.mark.parametrize("lazy", [False, True])
def test_a_room_created_after_a_lazy_start_never_takes_a_stored_code(
        tmp_path: Path, lazy: bool) -> None:
    """The codes not loaded yet are still taken: a new room gets another, and the count
    of rooms kept (the cap on new rooms) counts them."""
    db = tmp_path / "party.sqlite"
    codes = _played_rooms(db)
    rooms = Rooms(db, lazy=lazy, max_rooms=len(codes) + 1)
    try:
        fresh, _ = rooms.create("derby", {})
        assert fresh.code not in codes
        with pytest.raises(RoomError, match="already keeps"):
            rooms.create("derby", {})
    finally:
        rooms.store.close()
