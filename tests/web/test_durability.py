"""An acknowledged intent survives kill -9 of the party server.

The rooms' database runs in WAL mode with ``synchronous=NORMAL``: a commit does not wait
for the disk (a power cut may lose the last commits, a killed process does not), and the
server acknowledges an intent only after its transaction committed. Here the server runs
as its own process (``python -m raceday.web.server DB PORT``, as the load bench runs it),
the host streams intents, the server is SIGKILLed while some are still in flight, and a
new server on the same file must hold every acknowledged intent and its event, give each
phone its seat back and play the evening to its end.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import websockets

from raceday.web.server import free_port

HANG = 120.0  # seconds: a guard against a hang, far above what a run takes
ACKED_BEFORE_KILL = 25  # acknowledged intents collected before the kill
IN_FLIGHT = 3  # intents sent right before the kill, not waited for
PACES = [round(0.5 + 0.1 * i, 1) for i in range(80)]  # a distinct pace for each intent


def _request(port: int, method: str, path: str, body: dict[str, Any] | None = None
             ) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, None if body is None else json.dumps(body),
                     {"Content-Type": "application/json"})
        answer = conn.getresponse()
        data = answer.read()
        return answer.status, json.loads(data) if data[:1] in (b"{", b"[") else data
    finally:
        conn.close()


@contextmanager
def _server(db: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m raceday.web.server DB PORT`` on a free loopback port, once it answers."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "raceday.web.server", str(db), str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    proc.port = port  # type: ignore[attr-defined]
    try:
        deadline = time.monotonic() + HANG
        while True:
            try:
                if _request(port, "GET", "/")[0] == 200:
                    break
            except OSError:
                pass
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else b""
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)
        if proc.stderr is not None:
            proc.stderr.close()


async def _hello(port: int, code: str, token: str | None, since: int = -1
                 ) -> tuple[Any, dict[str, Any]]:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/{code}", max_size=2**22)
    await ws.send(json.dumps({"type": "hello", "token": token, "since": since}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), HANG))
    assert welcome["type"] == "welcome", welcome
    return ws, welcome


async def _stream_until_killed(port: int, code: str, host_token: str,
                               proc: subprocess.Popen[bytes]
                               ) -> tuple[int, dict[int, int], dict[int, list[Any]]]:
    """The host starts the evening, then streams ``pace`` intents (at most eight a
    second and IN_FLIGHT unanswered, under its allowance) and reads the answers; once
    ACKED_BEFORE_KILL are acknowledged it sends IN_FLIGHT more and kills the server at
    once. Returns the seq before the stream, the acks (ref -> seq) and the events of every
    update frame received (seq -> events)."""
    ws, _ = await _hello(port, code, host_token)
    await ws.send(json.dumps({"type": "start", "computers": 0, "ref": 0}))
    while (answer := json.loads(await asyncio.wait_for(ws.recv(), HANG)))["type"] != "ack":
        assert answer["type"] != "error", answer
    start_seq = int(answer["seq"])  # the evening has begun: the first auction waits
    acks: dict[int, int] = {}
    updates: dict[int, list[Any]] = {}

    async def read() -> None:
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "ack":
                    acks[int(msg["ref"])] = int(msg["seq"])
                elif msg["type"] == "update":
                    updates[int(msg["seq"])] = msg["events"]
                elif msg["type"] == "error":
                    raise AssertionError(f"intent refused: {msg}")
        except websockets.ConnectionClosed:
            pass

    reader = asyncio.create_task(read())
    deadline = time.monotonic() + HANG
    ref = 0
    while len(acks) < ACKED_BEFORE_KILL:
        assert time.monotonic() < deadline and not reader.done(), (acks, reader)
        if ref - len(acks) < IN_FLIGHT:  # a few unanswered at most: never over the allowance
            ref += 1
            await ws.send(json.dumps({"type": "pace", "seconds": PACES[ref], "ref": ref}))
        await asyncio.sleep(0.12)
    for _ in range(IN_FLIGHT):
        ref += 1
        await ws.send(json.dumps({"type": "pace", "seconds": PACES[ref], "ref": ref}))
    os.kill(proc.pid, signal.SIGKILL)  # mid-stream: intents sent and not answered yet
    proc.wait(30)
    await asyncio.wait_for(reader, HANG)
    await ws.close()
    return start_seq, dict(acks), updates


async def _play_to_the_end(port: int, code: str, host_token: str,
                           seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The host sets the fastest pace and each phone bids, buys a ticket and says done
    whenever its view lets it, until the evening is over; returns each phone's welcome."""
    host, _ = await _hello(port, code, host_token)
    await host.send(json.dumps({"type": "pace", "seconds": 0.2, "ref": 1}))
    welcomes: list[dict[str, Any]] = []

    async def phone(token: str) -> None:
        ws, welcome = await _hello(port, code, token)
        welcomes.append(welcome)
        view, seq, ref = welcome["view"], welcome["seq"], 0
        waiting: float = 0  # an intent's answer, then its update (seq), before the next
        try:
            while view.get("phase") != "finished":
                me = view.get("me") or {}
                intent: dict[str, Any] | None = None
                if me.get("may_bid") and me.get("sealed_bid") is None:
                    intent = {"type": "bid", "amount": 500}
                elif me.get("may_bet"):
                    intent = ({"type": "ticket", "kind": "win", "horses": ["d12"],
                               "stake": 500} if not me["tickets"] else {"type": "done"})
                if intent is not None and seq >= waiting:
                    ref += 1
                    waiting = float("inf")
                    await ws.send(json.dumps({**intent, "ref": ref}))
                msg = json.loads(await asyncio.wait_for(ws.recv(), HANG))
                if msg["type"] in ("ack", "error"):
                    assert msg["type"] == "ack", msg
                    waiting = msg["seq"]
                elif msg["type"] == "update":
                    view, seq = msg["view"], msg["seq"]
        finally:
            await ws.close()

    try:
        await asyncio.wait_for(asyncio.gather(*(phone(s["token"]) for s in seats)), HANG)
    finally:
        await host.close()
    return welcomes


@pytest.mark.timeout(600)
def test_acknowledged_intents_survive_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    with _server(db) as proc:
        port = proc.port  # type: ignore[attr-defined]
        status, created = _request(port, "POST", "/api/rooms",
                                   {"game": "derby", "options": {"races": 4}})
        assert status == 201, created
        code, host_token = created["code"], created["host_token"]
        seats = []
        for name in ("Aki", "Bo"):
            status, joined = _request(port, "POST", f"/api/rooms/{code}/join", {"name": name})
            assert status == 201, joined
            seats.append(joined)
        start_seq, acks, updates = asyncio.run(
            _stream_until_killed(port, code, host_token, proc))
        assert proc.returncode == -signal.SIGKILL
    assert len(acks) >= ACKED_BEFORE_KILL
    # each acknowledged intent is one revision after the stream's start, in order
    assert sorted(acks.values()) == list(range(start_seq + 1, start_seq + 1 + len(acks)))

    with _server(db) as proc:  # a new server on the same file recovers the WAL
        port = proc.port  # type: ignore[attr-defined]
        with sqlite3.connect(db) as conn:
            rows = {seq: (json.loads(intent), json.loads(events)) for seq, intent, events in
                    conn.execute("SELECT seq, intent, events FROM room_events WHERE code = ?",
                                 (code,))}
        for ref, seq in acks.items():
            assert seq in rows, f"acknowledged intent {ref} (seq {seq}) was lost"
            assert rows[seq] == ({"type": "pace", "seconds": PACES[ref]},
                                 [{"type": "pace", "seconds": PACES[ref]}])
            if seq in updates:  # what the screens were sent is what was kept
                assert updates[seq] == rows[seq][1]
        kept = max(rows)
        assert kept >= max(acks.values())  # an unanswered one may have committed too

        async def catch_up() -> dict[str, Any]:
            ws, welcome = await _hello(port, code, host_token, since=start_seq)
            await ws.close()
            return welcome

        welcome = asyncio.run(catch_up())
        assert welcome["seq"] == kept
        caught = {c["seq"]: c["events"] for c in welcome["catchup"]}
        assert all(caught[seq] == rows[seq][1] for seq in acks.values())

        welcomes = asyncio.run(_play_to_the_end(port, code, host_token, seats))
        assert sorted(w["role"]["seat"] for w in welcomes) == [s["seat"] for s in seats]
        status, info = _request(port, "GET", f"/api/rooms/{code}")
        assert status == 200 and info["finished"] is True, info
        assert info["seq"] > kept


def test_a_race_saved_mid_way_goes_on_by_itself_after_a_restart(tmp_path: Path) -> None:
    """The server as ``raceday serve`` runs it (uvicorn with the app's startup): a race that
    was running when the server stopped takes its next paced steps with no screen open and
    no intent sent."""
    from raceday.rooms import Actor
    from raceday.web.app import create_app
    from raceday.web.rooms import Rooms
    from raceday.web.server import background_server

    db = tmp_path / "rooms.sqlite"
    rooms = Rooms(db)
    room, _ = rooms.create("derby", {"races": 4})
    for name in ("Aki", "Bo"):
        rooms.join(room.code, name)
    rooms.apply(room, Actor.host(), {"type": "start", "computers": 0})
    for _ in range(200):  # bid, bet and say done until the first race runs (bounded)
        if room.logic.next_tick() is not None:  # type: ignore[attr-defined]
            break
        for seat in (0, 1):
            me = room.logic.view(Actor.player(seat)).get("me") or {}
            if me.get("may_bid") and me.get("sealed_bid") is None:
                rooms.apply(room, Actor.player(seat), {"type": "bid", "amount": 500})
            elif me.get("may_bet"):
                rooms.apply(room, Actor.player(seat), {"type": "done"})
    assert room.logic.next_tick() is not None  # type: ignore[attr-defined]
    stopped_at = room.revision
    rooms.store.close()

    with background_server(create_app(db, resume_after=0.05)) as base:
        port = int(base.rstrip("/").rsplit(":", 1)[1])
        deadline = time.monotonic() + HANG
        while True:  # poll the room (hang guard only) until a paced step was played
            status, info = _request(port, "GET", f"/api/rooms/{room.code}")
            assert status in (200, 429), info  # 429: polled faster than the lookups refill
            if status == 200 and info["seq"] > stopped_at:
                break
            assert time.monotonic() < deadline, "the saved race did not go on"
            time.sleep(0.25)


def test_the_log_is_checkpointed_into_the_file_beside_the_commits(tmp_path: Path) -> None:
    """Commits only append to the write-ahead log (the writer would checkpoint by itself
    only far behind); the checkpoint thread copies them into the database file, which alone
    (without its -wal file) then holds the room at its last revision."""
    import shutil

    from raceday.rooms import Actor
    from raceday.web.rooms import CHECKPOINT_FALLBACK, Rooms

    rooms = Rooms(tmp_path / "rooms.sqlite")
    try:
        (fallback,) = rooms.store._conn.execute("PRAGMA wal_autocheckpoint").fetchone()
        assert fallback == CHECKPOINT_FALLBACK
        room, _ = rooms.create("derby", {"races": 4})
        for i in range(20):
            rooms.apply(room, Actor.host(), {"type": "pace", "seconds": PACES[i]})
        deadline = time.monotonic() + HANG
        while True:  # poll a copy of the file alone (hang guard only)
            copy = tmp_path / f"copy-{time.monotonic_ns()}.sqlite"
            shutil.copyfile(tmp_path / "rooms.sqlite", copy)
            conn = sqlite3.connect(copy)
            try:  # no table yet: the schema itself is still only in the log
                row = conn.execute("SELECT revision FROM rooms WHERE code = ?",
                                   (room.code,)).fetchone()
            except sqlite3.OperationalError:
                row = None
            finally:
                conn.close()
            copy.unlink()
            if row is not None and row[0] == room.revision:
                break
            assert time.monotonic() < deadline, "the log was never checkpointed"
            time.sleep(0.1)
    finally:
        rooms.store.close()
    rooms.store.checkpoint()  # after close: nothing, no error
