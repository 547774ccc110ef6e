"""Rooms' lifecycle on the server: idle rooms close by an injected clock (never by waiting),
closed rooms are refused in words on every door (page data, QR, join, socket), finished
ones keep their replay, and an older database gets the lifecycle column."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.core.events import Message
from raceday.present import render
from raceday.rooms import Actor
from raceday.web.app import create_app
from raceday.web.lifecycle import IDLE_CLOSE_HOURS
from raceday.web.rooms import RoomClosed, Rooms
from tests.web.conftest import OPEN, Client, join, new_room, worded

HOUR = 3600.0


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * HOUR


@contextmanager
def idle_server(db: Path, clock: Clock, hours: float = 2.0) -> Iterator[TestClient]:
    app = create_app(db, idle_close=hours, clock=clock, burst=500, rate=500)
    with TestClient(app) as tc:
        try:
            yield tc
        finally:
            while OPEN:
                OPEN.pop().close()


def sweep(tc: TestClient) -> list[str]:
    """One idle sweep on the server's own event loop."""
    idle = tc.app.state.idle  # type: ignore[attr-defined]
    assert tc.portal is not None
    return list(tc.portal.call(idle.sweep))


def closed_column(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT code, closed FROM rooms").fetchall()
    conn.close()
    return {str(code): int(closed) for code, closed in rows}


def words_key(body: dict[str, Any]) -> str:
    worded(body)
    return str(body["words"]["key"])


def test_an_idle_room_closes_and_a_played_or_watched_one_stays(db: Path) -> None:
    clock = Clock()
    with idle_server(db, clock) as tc:
        quiet = new_room(tc)["code"]
        busy = new_room(tc)["code"]
        watched = new_room(tc)["code"]
        assert sweep(tc) == []  # first sight: every room counts from now
        clock.advance(1.5)
        join(tc, busy, "Aki")  # an accepted intent: active again
        screen = Client(tc, watched, None)  # an open connection: never idle
        assert sweep(tc) == []
        clock.advance(0.6)  # quiet: 2.1 h without play; busy: 0.6 h
        assert sweep(tc) == [quiet]
        assert closed_column(db) == {quiet: 1, busy: 0, watched: 0}
        assert quiet not in tc.app.state.rooms.rooms  # type: ignore[attr-defined]
        clock.advance(5)
        assert sweep(tc) == [busy]  # 5.6 h since its join
        screen.close()
        assert sweep(tc) == []  # idle only from the sweep that saw it watched
        clock.advance(1.9)
        assert sweep(tc) == []
        clock.advance(0.2)
        assert sweep(tc) == [watched]
        assert closed_column(db) == {quiet: 1, busy: 1, watched: 1}
        assert tc.post("/api/rooms", json={"game": "derby"}).status_code == 201


def test_a_closed_room_is_refused_in_words_at_every_door(db: Path) -> None:
    clock = Clock()
    with idle_server(db, clock, hours=1) as tc:
        code = new_room(tc)["code"]
        assert sweep(tc) == []
        clock.advance(1)
        assert sweep(tc) == [code]
        for answer in (tc.get(f"/api/rooms/{code}"), tc.get(f"/api/rooms/{code.lower()}"),
                       tc.get(f"/api/rooms/{code}/qr.svg"),
                       tc.post(f"/api/rooms/{code}/join", json={"name": "Ben"})):
            assert answer.status_code == 404, answer.text
            assert words_key(answer.json()) == "refusal.room_closed"
            assert code in answer.json()["error"] and "closed" in answer.json()["error"]
        with tc.websocket_connect(f"/ws/{code}") as ws:
            refused = ws.receive_json()
        assert refused["type"] == "error" and refused["fatal"] is True
        assert refused["words"]["key"] == "refusal.room_closed"
        unknown = tc.get("/api/rooms/ZZZZ").json()
        assert words_key(unknown) == "refusal.no_room"  # a typo is still a typo
    for key in ("refusal.room_closed", "refusal.room_closed_finished"):
        ja = render(Message(key, {"code": code}), "ja")
        assert code in ja and ja != render(Message(key, {"code": code}), "en")
    with idle_server(db, Clock()) as tc:  # after a restart: not loaded, still refused
        assert code not in tc.app.state.rooms.rooms  # type: ignore[attr-defined]
        assert words_key(tc.get(f"/api/rooms/{code}").json()) == "refusal.room_closed"


def test_a_finished_room_closes_and_keeps_its_replay(db: Path) -> None:
    clock = Clock()
    with idle_server(db, clock) as tc:
        room = new_room(tc, races=4)
        code = room["code"]
        join(tc, code, "Aki")
        join(tc, code, "Ben")
        host = Client(tc, code, room["host_token"])
        assert host.send({"type": "start", "computers": 0})["type"] == "ack"
        host.close()
    with sqlite3.connect(db) as conn:  # the evening ends (as the room logic marks it)
        conn.execute("UPDATE rooms SET finished = 1 WHERE code = ?", (code,))
    conn.close()
    with idle_server(db, clock) as tc:
        assert sweep(tc) == []
        clock.advance(2)
        assert sweep(tc) == [code]
        answer = tc.get(f"/api/rooms/{code}")
        assert answer.status_code == 404
        assert words_key(answer.json()) == "refusal.room_closed_finished"
        replay = tc.get(f"/api/replay/room/{code}")
        assert replay.status_code == 200, replay.text
        steps = replay.json()["steps"]
        assert [s["seq"] for s in steps] == list(range(1, len(steps) + 1)) and len(steps) >= 4
        assert tc.get(f"/replay/room/{code}").status_code == 200
        assert code in [r["name"] for r in tc.get("/api/replays").json()["rooms"]]


def test_rooms_closed_in_the_kit_refuse_intents_and_stay_unloaded(db: Path) -> None:
    rooms = Rooms(db)
    room, _ = rooms.create("derby", {})
    other, _ = rooms.create("derby", {})
    rooms.close(room)
    with pytest.raises(RoomClosed) as caught:
        rooms.get(room.code)
    assert caught.value.message is not None
    assert caught.value.message.key == "refusal.room_closed"
    with pytest.raises(RoomClosed):  # a socket that held the room before it closed
        rooms.apply(room, Actor.host(), {"type": "start", "computers": 2})
    with pytest.raises(RoomClosed):
        rooms.join(room.code, "Aki")
    rooms.store.close()
    again = Rooms(db)
    assert set(again.rooms) == {other.code}
    assert again.store.code_taken(room.code)  # its code is not given to a new room
    again.store.close()


def test_an_older_database_gets_the_lifecycle_column(db: Path) -> None:
    rooms = Rooms(db)
    room, _ = rooms.create("derby", {})
    rooms.store.close()
    with sqlite3.connect(db) as conn:  # as a database made before the lifecycle was
        conn.execute("ALTER TABLE rooms DROP COLUMN closed")
    conn.close()
    clock = Clock()
    with idle_server(db, clock) as tc:
        assert tc.get(f"/api/rooms/{room.code}").status_code == 200
        assert closed_column(db) == {room.code: 0}
        join(tc, room.code, "Aki")
        assert sweep(tc) == []
        clock.advance(3)
        assert sweep(tc) == [room.code]
    with sqlite3.connect(db) as conn:
        names = [row[1] for row in conn.execute("PRAGMA table_info(rooms)")]
    conn.close()
    assert names.count("closed") == 1


def test_idle_close_is_checked_and_may_be_off(db: Path) -> None:
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            create_app(db, idle_close=bad)
    app = create_app(db, idle_close=None)
    assert app.state.idle is None
    from raceday.cli.serve import IDLE_CLOSE_DEFAULT

    assert IDLE_CLOSE_DEFAULT == IDLE_CLOSE_HOURS  # the command's default is the app's


def test_a_room_with_a_paced_step_waiting_is_not_idle(db: Path) -> None:
    """A race runs on by itself with no screen open: its next step is a timer of the hub."""
    import asyncio

    clock = Clock()
    with idle_server(db, clock) as tc:
        code = new_room(tc)["code"]
        hub = tc.app.state.hub  # type: ignore[attr-defined]
        assert tc.portal is not None

        def set_timer() -> None:
            hub.timers[code] = asyncio.get_running_loop().call_later(10**6, lambda: None)

        tc.portal.call(set_timer)  # type: ignore[arg-type]
        assert sweep(tc) == []
        clock.advance(50)
        assert sweep(tc) == []
        tc.portal.call(lambda: hub.timers.pop(code).cancel())  # type: ignore[arg-type]
        assert sweep(tc) == []
        clock.advance(2)
        assert sweep(tc) == [code]


def test_the_server_sweeps_by_itself(db: Path) -> None:
    """The sweep the server runs in the background closes an idle room (the clock is
    moved by hand; the wait is only a hang guard far above the sweep's one second)."""
    import time

    clock = Clock()
    app = create_app(db, idle_close=0.0001, clock=clock)  # 0.36 s: a sweep each second
    assert app.state.idle.every == 1.0
    with TestClient(app) as tc:
        code = new_room(tc)["code"]
        clock.advance(1)
        deadline = time.monotonic() + 120
        while closed_column(db).get(code) != 1:
            clock.advance(1)  # each sweep sees the room idle for an hour more
            assert time.monotonic() < deadline, "the background sweep never closed the room"
            time.sleep(0.05)
        assert code not in tc.app.state.rooms.rooms  # type: ignore[attr-defined]
