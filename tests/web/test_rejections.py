"""Every kind of bad input gets a clear error for that client and changes nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from raceday.core.errors import SaveFormatError
from raceday.web.app import FLOOD, create_app
from raceday.web.rooms import token_hash
from tests.web.conftest import Client, join, new_room


def started(tc: TestClient, names: tuple[str, ...] = ("Aki", "Ben", "Chie"), **options: Any
            ) -> tuple[dict[str, Any], list[dict[str, Any]], Client, list[Client]]:
    room = new_room(tc, races=4, **options)
    tokens = [join(tc, room["code"], n) for n in names]
    host = Client(tc, room["code"], room["host_token"])
    seats = [Client(tc, room["code"], t["token"]) for t in tokens]
    ack = host.send({"type": "start", "computers": 0})
    assert ack["type"] == "ack"
    for s in seats:
        s.until(ack["seq"])
    return room, tokens, host, seats


def refused(client: Client, everyone: list[Client], words: str, intent: dict[str, Any] | None
            = None, raw: str | None = None) -> None:
    """The client gets an error naming the problem; no view changes, no revision is added."""
    seq = client.seq
    views = [json.dumps(c.view, sort_keys=True) for c in everyone]
    answer = client.send(intent) if intent is not None else client.send_raw(raw or "")
    assert answer["type"] == "error", answer
    assert words in answer["message"], answer["message"]
    assert client.seq == seq
    assert [json.dumps(c.view, sort_keys=True) for c in everyone] == views
    ping = client.send({"type": "ping"})  # still connected, and nothing was broadcast
    assert ping["type"] == "pong"
    assert client.seq == seq


def test_a_wrong_token_is_refused_and_closed(client: TestClient) -> None:
    room = new_room(client)
    for token in ("not-a-seat-token-at-all", room["host_token"][:-2] + "xx", 12345):
        c = Client(client, room["code"], token)  # type: ignore[arg-type]
        assert c.welcome["type"] == "error" and c.welcome["fatal"]
        assert "not a seat of room" in c.welcome["message"] or "key" in c.welcome["message"]
        c.close()
    r = client.get(f"/api/rooms/{room['code']}")
    assert r.json()["seq"] == 1


def test_tokens_are_128_bit_and_stored_only_as_hashes(client: TestClient, db: Path) -> None:
    room = new_room(client)
    seat = join(client, room["code"], "Aki")
    for token in (room["host_token"], seat["token"]):
        assert len(token) >= 22  # 16 random bytes in URL-safe base64
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    assert room["host_token"] not in dump and seat["token"] not in dump
    assert token_hash(seat["token"]) in dump


def test_out_of_turn_and_wrong_phase(client: TestClient) -> None:
    _, _, host, seats = started(client)
    everyone = [host, *seats]
    refused(seats[0], everyone, "only possible during betting",
            {"type": "ticket", "kind": "win", "horses": ["d20"], "stake": 100})
    refused(seats[0], everyone, "cannot send 'roll'", {"type": "roll"})  # the server rolls
    refused(seats[0], everyone, "cannot send 'start'", {"type": "start"})
    refused(host, everyone, "cannot send 'bid'", {"type": "bid", "amount": 100})
    refused(host, everyone, "already started", {"type": "start", "computers": 1})
    watcher = Client(client, host.welcome["code"], None)
    refused(watcher, [*everyone, watcher], "spectators watch", {"type": "bid", "amount": 0})
    # Aki buys the d4; she cannot bid again, and a non-owner cannot roll her horse
    ack = seats[0].send({"type": "bid", "amount": 500})
    for s in seats[1:]:
        ack = s.send({"type": "bid", "amount": 0})
    for c in everyone:
        c.until(ack["seq"])
    assert seats[0].view["me"]["horse"] == "d4"
    refused(seats[0], everyone, "an owner holds one die only", {"type": "bid", "amount": 100})


def test_bets_beyond_the_purse_and_bad_tickets(client: TestClient) -> None:
    _, _, host, seats = started(client)
    everyone = [host, *seats]
    refused(seats[0], everyone, "a bid cannot be more than that",
            {"type": "bid", "amount": 10_100})
    refused(seats[0], everyone, "multiples of 100", {"type": "bid", "amount": 150})
    refused(seats[0], everyone, "whole number", {"type": "bid", "amount": "lots"})
    refused(seats[0], everyone, "whole number", {"type": "bid", "amount": True})
    for _ in range(6):
        for s in seats:
            if s.view["me"].get("may_bid") and s.view["me"]["sealed_bid"] is None:
                ack = s.send({"type": "bid", "amount": 0})
                for c in everyone:
                    c.until(ack["seq"])
    assert host.view["phase"] == "betting"
    ticket = {"type": "ticket", "kind": "win", "horses": ["d20"]}
    refused(seats[1], everyone, "holds 10000; stake no more", {**ticket, "stake": 20_000})
    refused(seats[1], everyone, "positive multiple of 100", {**ticket, "stake": 0})
    refused(seats[1], everyone, "there is no horse", {**ticket, "horses": ["d7"], "stake": 100})
    refused(seats[1], everyone, "'win' or 'quinella'", {**ticket, "kind": "place", "stake": 100})
    refused(seats[1], everyone, "two different horses",
            {"type": "ticket", "kind": "quinella", "horses": ["d20", 6], "stake": 100})
    refused(seats[1], everyone, "not allowed in this session", {"type": "borrow"})
    assert seats[1].send({**ticket, "stake": 100})["type"] == "ack"
    refused(seats[1], everyone, "limit per race is 1", {**ticket, "stake": 100})


def test_malformed_and_oversized_messages(client: TestClient) -> None:
    _, _, host, seats = started(client)
    everyone = [host, *seats]
    refused(seats[0], everyone, "not valid JSON", raw="{bid: 3")
    refused(seats[0], everyone, "JSON object with a 'type'", raw="[1, 2, 3]")
    refused(seats[0], everyone, "JSON object with a 'type'", raw='{"amount": 3}')
    refused(seats[0], everyone, "larger than 4096 bytes",
            raw=json.dumps({"type": "bid", "amount": 0, "pad": "x" * 5000}))
    refused(seats[0], everyone, "cannot send 'explode'", {"type": "explode"})
    r = client.post("/api/rooms", content=b"x" * 5000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than 4096" in r.json()["error"]
    r = client.post("/api/rooms", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = client.post("/api/rooms", json={"game": "derby", "options": {"races": 9}})
    assert r.status_code == 400 and "4 to 6" in r.json()["error"]
    r = client.post("/api/rooms", json={"game": "derby", "options": {"colour": "red"}})
    assert r.status_code == 400 and "unknown Dice Derby option" in r.json()["error"]
    r = client.post("/api/rooms", json={"game": "../../etc", "options": {}})
    assert r.status_code == 400 and "unknown game" in r.json()["error"]


def test_joining_full_started_finished_or_missing_rooms(client: TestClient) -> None:
    room = new_room(client, races=4)
    code = room["code"]
    for k in range(12):
        join(client, code, f"Player {k}")
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Thirteen"})
    assert r.status_code == 409 and "full" in r.json()["error"]
    room2 = new_room(client, races=4)
    join(client, room2["code"], "Aki")
    for bad, words in (("aki", "already called"), ("", "type a name"), ("x" * 21, "at most 20"),
                       ("CPU 1", "kept for computer"), ("a\u0007b", "control")):
        r = client.post(f"/api/rooms/{room2['code']}/join", json={"name": bad})
        assert r.status_code in (400, 409) and words in r.json()["error"], (bad, r.text)
    assert client.get(f"/api/rooms/{room2['code']}").json()["seats"] == ["Aki"]
    r = client.post("/api/rooms/ZZZZ/join", json={"name": "Aki"})
    assert r.status_code == 404 and "no room 'ZZZZ'" in r.json()["error"]
    # a room of computers only plays the whole evening by itself (its races at the
    # server's pace; the host skips them here): then it is finished
    room3 = new_room(client, races=4)
    host = Client(client, room3["code"], room3["host_token"])
    assert host.send({"type": "start", "computers": 3})["type"] == "ack"
    for _ in range(10):
        if host.view["phase"] == "finished":
            break
        answer = host.send({"type": "skip"})
        host.until(answer["seq"])
    assert host.view["phase"] == "finished"
    r = client.post(f"/api/rooms/{room3['code']}/join", json={"name": "Late"})
    assert r.status_code == 409 and "over" in r.json()["error"]
    answer = host.send({"type": "roll"})
    assert answer["type"] == "error" and "over" in answer["message"]
    started_room = new_room(client, races=4)
    join(client, started_room["code"], "Aki")
    h2 = Client(client, started_room["code"], started_room["host_token"])
    assert h2.send({"type": "start", "computers": 0})["type"] == "ack"
    r = client.post(f"/api/rooms/{started_room['code']}/join", json={"name": "Ben"})
    assert r.status_code == 409 and "has started" in r.json()["error"]


def test_flooding_is_refused_then_cut(db: Path) -> None:
    with TestClient(create_app(db, burst=5, rate=0.001)) as tc:
        room = new_room(tc)
        host = Client(tc, room["code"], room["host_token"])
        answers = [host.send({"type": "ping"}) for _ in range(5)]
        assert all(a["type"] == "pong" for a in answers)
        host.ws.send_json({"type": "ping", "ref": 99})
        msg = host.receive()
        assert msg["type"] == "error" and "too many messages" in msg["message"]
        assert tc.get(f"/api/rooms/{room['code']}").json()["seq"] == 1
        for _ in range(FLOOD):  # the rest of the flood is not answered; then it is cut
            host.ws.send_text('{"type": "ping"}')
        with pytest.raises(WebSocketDisconnect) as cut:
            host.receive()
        assert cut.value.code == 4429 and "disconnected" in cut.value.reason
        host.close()
    with TestClient(create_app(db, rest_burst=3, rest_rate=0.001)) as tc:
        codes = [tc.post("/api/rooms", json={"game": "derby"}).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]


def test_a_foreign_database_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(SaveFormatError, match="another program"):
        create_app(other)
    with pytest.raises(SaveFormatError, match="directory"):
        create_app(tmp_path)
