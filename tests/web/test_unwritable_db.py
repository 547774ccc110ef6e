"""A party database the server may read but not write (#44): ``raceday serve`` refuses it
at start in one line (exit 2); a write refused while the server runs is a 503 (REST) or an
error frame (an intent) in words, never a 500 with a traceback, and changes nothing; a
failing checkpoint is logged once and tried less and less often; and the stop never
says "every room is saved" when the database refused one.

Tests run as root, which file modes do not stop: the file (or its folder) is made
immutable instead (tests/cli/test_read_only_db.read_only), which refuses writes to root
too, also through a connection opened before, exactly as a read-only file refuses the
service's user."""

from __future__ import annotations

import http.client
import itertools
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import raceday.web.rooms as rooms_module
from raceday.present import render
from raceday.rooms import Actor
from raceday.web.app import create_app
from raceday.web.rooms import Rooms
from raceday.web.server import free_port
from tests.cli.test_read_only_db import read_only
from tests.web.conftest import Client, closing_sockets, join, new_room, worded

HANG = 120  # seconds: a guard against a hang only, far above what anything here takes
SRC = Path(__file__).parents[2] / "src"


def _serve(db: Path, port: int) -> subprocess.Popen[str]:
    """``raceday serve`` of this checkout on 127.0.0.1:``port``."""
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "300"}
    return subprocess.Popen(
        [sys.executable, "-m", "raceday", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", str(db), "--idle-close", "0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env)


def _unwritable(db: Path) -> tuple[Any, Any]:
    """The database file and its write-ahead log made read-only (both: SQLite writes the
    log first)."""
    return read_only(db), read_only(db.with_name(db.name + "-wal"))


@pytest.mark.parametrize("what", ["file", "folder"])
def test_serve_refuses_a_database_it_cannot_write_in_one_line(tmp_path: Path,
                                                               what: str) -> None:
    folder = tmp_path / "state"
    folder.mkdir()
    db = folder / "party.sqlite"
    rooms = Rooms(db)
    rooms.create("derby", {})
    rooms.store.close()
    with read_only(db if what == "file" else folder):
        server = _serve(db, free_port())
        try:  # the hang guard: a server that did start would serve until stopped
            out, err = server.communicate(timeout=HANG)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()
            pytest.fail("raceday serve started on a database it cannot write")
    assert server.returncode == 2
    assert err.strip().count("\n") == 0 and "Traceback" not in err, err  # one line
    assert str(db) in err and ("read-only" in err or "cannot be opened" in err), err
    assert out == ""  # no banner, no address, no QR code


def test_a_write_refused_mid_request_is_a_503_in_words_and_changes_nothing(
        tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    with closing_sockets(create_app(db, idle_close=None, burst=100, rate=100)) as tc:
        room = new_room(tc)
        code = room["code"]
        join(tc, code, "Aki")
        host = Client(tc, code, room["host_token"])
        before = tc.get(f"/api/rooms/{code}").json()
        file, log = _unwritable(db)
        with file, log:
            joined = tc.post(f"/api/rooms/{code}/join", json={"name": "Bo"})
            created = tc.post("/api/rooms", json={"game": "derby"})
            refused = host.send({"type": "pace", "seconds": 1.5})
            after = tc.get(f"/api/rooms/{code}").json()  # reading still works
        for answer in (joined, created):
            assert answer.status_code == 503, answer.text
            assert answer.headers["content-type"] == "application/json"
            assert answer.headers["retry-after"].isdigit()
            assert "\n" not in answer.text and "Traceback" not in answer.text
            assert "cannot save right now" in worded(answer.json())
            assert answer.json()["words"]["key"] == "refusal.store_unwritable"
        assert refused["type"] == "error" and refused["words"]["key"] == \
            "refusal.store_unwritable", refused
        assert after == before  # no seat, no revision, no room more
        assert tc.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).status_code == 201
        assert host.send({"type": "pace", "seconds": 1.5})["type"] == "ack"
        assert tc.get(f"/api/rooms/{code}").json()["seats"] == ["Aki", "Bo"]


def test_a_failing_checkpoint_is_logged_once_and_tried_less_and_less_often(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    now = [1000.0]
    monkeypatch.setattr(rooms_module, "_clock", lambda: now[0])
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    store = rooms.store
    rooms_module._CHECKPOINTS.stores.discard(store)  # only this test checkpoints it
    room, _ = rooms.create("derby", {})
    store.checkpoint()  # opens its connection
    real = store._checkpoint_conn
    assert real is not None
    tries: list[float] = []

    class Counting:
        def execute(self, sql: str) -> Any:
            tries.append(now[0])
            assert real is not None
            return real.execute(sql)

        def close(self) -> None:
            assert real is not None
            real.close()

    store._checkpoint_conn = Counting()  # type: ignore[assignment]
    rooms.apply(room, Actor.host(), {"type": "pace", "seconds": 1.5})  # pages to copy
    try:
        with read_only(db), caplog.at_level(logging.WARNING, logger="raceday.web"):
            for second in range(300):  # five minutes of the checkpoint thread's calls
                now[0] = 1000.0 + second
                store.checkpoint()
        failed = [r for r in caplog.records if "checkpoint" in r.getMessage()]
        assert len(failed) == 1 and "failed" in failed[0].getMessage()
        gaps = [b - a for a, b in itertools.pairwise(tries)]
        assert gaps == sorted(gaps) and gaps[0] >= 1 and max(gaps) == 60  # backing off
        assert len(tries) < 15  # not 300
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="raceday.web"):
            now[0] += 60
            store.checkpoint()
            assert [r.getMessage() for r in caplog.records] == [
                f"checkpoint of {db} works again"]
            count = len(tries)
            for _ in range(3):  # every second again
                now[0] += 1
                store.checkpoint()
            assert len(tries) == count + 3
    finally:
        rooms.store.close()


def test_the_stop_counts_the_rooms_the_database_did_not_take(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    db = tmp_path / "party.sqlite"
    app = create_app(db, idle_close=None)
    tc = TestClient(app).__enter__()
    stopped = False
    try:
        new_room(tc)  # a new room's snapshot is stored at once: nothing to store at the stop
        lagging = new_room(tc)["code"]
        join(tc, lagging, "Aki")  # logged; its snapshot is taken at the stop
        file, log = _unwritable(db)
        with file, log:
            assert tc.post(f"/api/rooms/{lagging}/join",
                           json={"name": "Bo"}).status_code == 503
            tc.__exit__(None, None, None)  # the stop, while the file cannot be written
            stopped = True
    finally:
        if not stopped:
            tc.__exit__(None, None, None)
    report = app.state.stop_report
    assert (report.rooms, report.failed, report.refused) == (2, 1, 1)


def _request(port: int, method: str, path: str, body: object = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


def test_serve_does_not_say_every_room_is_saved_when_one_was_not(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    port = free_port()
    server = _serve(db, port)
    try:
        deadline = time.monotonic() + HANG
        while True:  # until it answers (hang guard only)
            try:
                status, created = _request(port, "POST", "/api/rooms", {"game": "derby"})
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert status == 201
        assert _request(port, "POST", f"/api/rooms/{created['code']}/join",
                        {"name": "Aki"})[0] == 201
        file, log = _unwritable(db)
        with file, log:
            server.send_signal(signal.SIGINT)
            out, err = server.communicate(timeout=HANG)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    last = err.strip().splitlines()[-1]
    assert last == render("tool.serve.stopped_unsaved", "en",
                          params={"failed": 1, "n": 1, "refused": 0}), err
    assert "every room is saved" not in err + out
    assert "Traceback" not in err


def test_an_idle_room_the_database_cannot_close_stays_open(tmp_path: Path) -> None:
    """The idle sweep meets the store's refusal (said once in the log), not SQLite's error:
    its loop goes on quietly, and the room stays open and playable."""
    from raceday.web.rooms import StoreUnavailable
    from tests.web.test_lifecycle import Clock, closed_column, idle_server, sweep

    db = tmp_path / "party.sqlite"
    clock = Clock()
    with idle_server(db, clock) as tc:
        room = new_room(tc)  # a room's snapshot is stored at once: closing writes only
        join(tc, room["code"], "Aki")  # now its snapshot lags: closing must write it
        assert sweep(tc) == []
        clock.advance(3)
        file, log = _unwritable(db)
        with file, log, pytest.raises(StoreUnavailable):
            sweep(tc)
        assert tc.get(f"/api/rooms/{room['code']}").status_code == 200
        assert closed_column(db) == {room["code"]: 0}
        assert sweep(tc) == [room["code"]]  # writable again: it closes
