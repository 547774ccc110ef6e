"""The server owns the pace: a room's paced steps (a race's dice, a computer's move) are
played by the server's own timer, one a room, and reach every screen as their own update
with no page sending anything; a race goes on with no host page open and after a restart.
The rooms here are the kit's toy rooms (tests/rooms/test_timeline.py), served as games."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from raceday.rooms import RoomLogic
from raceday.web import rooms as web_rooms
from tests.rooms.test_timeline import PacedDashRoom, PacedGuessRoom
from tests.web.conftest import Client, join, serving

TOYS: dict[str, type[RoomLogic]] = {"guess": PacedGuessRoom, "dash": PacedDashRoom}


@pytest.fixture(autouse=True)
def _toy_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real = web_rooms.logic_class
    monkeypatch.setattr(web_rooms, "logic_class",
                        lambda game: TOYS[game] if game in TOYS else real(game))
    yield


def create(tc: Any, game: str, **options: Any) -> dict[str, Any]:
    r = tc.post("/api/rooms", json={"game": game, "options": options})
    assert r.status_code == 201, r.text
    return dict(r.json())


def next_update(client: Client) -> dict[str, Any]:
    """The next update this screen is sent (waiting for it: nobody sends anything)."""
    while True:
        message = client.receive()
        if message["type"] == "update":
            return message


def started_guess(tc: Any) -> tuple[str, Client, list[dict[str, Any]]]:
    """A started guessing room of Aki and Ben at the fastest pace: its code, the host's
    screen and the seats' tokens."""
    room = create(tc, "guess")
    code = room["code"]
    seats = [join(tc, code, name) for name in ("Aki", "Ben")]
    host = Client(tc, code, room["host_token"])
    assert host.send({"type": "start"})["type"] == "ack"
    assert host.send({"type": "pace", "seconds": 0.2})["type"] == "ack"
    return code, host, seats


def test_a_paced_throw_reaches_every_seat_with_no_host_page_open(db: Path) -> None:
    with serving(db) as tc:
        code, host, seats = started_guess(tc)
        host.close()  # the big screen is switched off
        aki, ben = (Client(tc, code, s["token"]) for s in seats)
        aki.send({"type": "act", "action": 1})
        acked = ben.send({"type": "act", "action": 2})
        assert acked["type"] == "ack"
        assert ben.view["timeline"]["running"] and ben.view["observation"]["thrown"] is None
        for phone in (aki, ben):
            phone.until(acked["seq"])
            update = next_update(phone)
            assert update["seq"] == acked["seq"] + 1  # the server's own step, once
            assert [e["type"] for e in update["events"]] == ["thrown"]
            assert update["view"]["phase"] == "finished"
            assert update["view"]["timeline"]["running"] is False


def test_each_computer_move_is_its_own_update_once_whoever_watches(db: Path) -> None:
    with serving(db) as tc:
        room = create(tc, "dash", players=["human", "runner"])
        code = room["code"]
        aki_seat = join(tc, code, "Aki")
        host = Client(tc, code, room["host_token"])
        watchers = [Client(tc, code, None), Client(tc, code, None)]
        host.send({"type": "start"})
        host.send({"type": "pace", "seconds": 0.2})
        aki = Client(tc, code, aki_seat["token"])
        answered = 0
        for _ in range(3):
            while aki.view["phase"] == "playing" and not aki.view["may_act"]:
                next_update(aki)  # a forced move of Aki's let the computer move again
            if aki.view["phase"] != "playing":
                break
            assert aki.view["to_act"] == 0
            acked = aki.send({"type": "move", "action": 1})
            assert acked["type"] == "ack"
            if aki.view["phase"] != "playing":
                break
            # the human's move is shown alone, the computer "thinking"
            assert aki.view["thinking"] and aki.view["to_act"] == 1
            for screen in (aki, host, *watchers):
                screen.until(acked["seq"])
                update = next_update(screen)
                assert update["seq"] == acked["seq"] + 1
                moves = [e for e in update["events"] if e["type"] == "move"]
                # the computer's move, then any forced move of Aki's that follows it
                assert moves[0]["by"] == 1 and not moves[0]["forced"]
                assert all(m["by"] == 0 and m["forced"] for m in moves[1:])
                assert update["view"]["thinking"] is (update["view"]["to_act"] == 1)
            answered += 1
        assert answered >= 1


def test_a_race_saved_mid_way_goes_on_after_a_restart(db: Path) -> None:
    with serving(db) as tc:
        code, host, seats = started_guess(tc)
        host.send({"type": "pause"})
        for seat, guess in zip(seats, (1, 2), strict=True):
            Client(tc, code, seat["token"]).send({"type": "act", "action": guess})
    # the server stopped with the throw still to come; as a crash would leave it, unpaused
    with sqlite3.connect(db) as conn:
        (state,) = conn.execute("SELECT state FROM rooms WHERE code = ?", (code,)).fetchone()
        saved = json.loads(state)
        assert saved["paused"] is True and saved["state"]["thrown"] is None
        saved["paused"] = False
        conn.execute("UPDATE rooms SET state = ? WHERE code = ?", (json.dumps(saved), code))
    with serving(db, resume_after=0.2) as tc:
        watcher = Client(tc, code, None)
        if watcher.view["phase"] != "finished":  # else it was played before we looked
            update = next_update(watcher)
            assert [e["type"] for e in update["events"]] == ["thrown"]
        assert watcher.view["phase"] == "finished"
        assert watcher.view["observation"]["thrown"] in (1, 2, 3)
