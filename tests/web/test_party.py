"""A whole Dice Derby party through the server: scripted seats, a restart in the middle,
host-with-real-dice mode, and what each screen may see."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import Client, join, new_room, serving

NAMES = ["Aki", "Ben", "Chie"]


def seat_intent(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """What a scripted player does now (None: nothing to do)."""
    me = view.get("me", {})
    if me.get("may_bid") and me.get("sealed_bid") is None:
        return {"type": "bid", "amount": [3000, 2000, 1000][seat] if seat < 3 else 0}
    if me.get("may_bet"):
        if not me["tickets"]:
            return {"type": "ticket", "kind": "win", "horses": ["d20"], "stake": 500}
        if len(me["tickets"]) == 1 and seat == 1:
            return {"type": "ticket", "kind": "quinella", "horses": ["d12", "d20"], "stake": 300}
        return {"type": "done"}
    return None


def play_some(host: Client, seats: list[Client], max_steps: int) -> int:
    """Let the scripted seats act until the party ends or ``max_steps`` intents were sent."""
    steps = 0
    everyone = [host, *seats]
    while steps < max_steps and host.view.get("phase") != "finished":
        acted = False
        for i, c in enumerate(seats):
            intent = seat_intent(c.view, i)
            if intent is None:
                continue
            answer = c.send(intent)
            assert answer["type"] == "ack", answer
            for other in everyone:
                other.until(answer["seq"])
            acted = True
            steps += 1
            break
        if not acted and host.view["phase"] == "racing":
            # the server throws the dice at its pace; the host skips to the results (unless
            # the server's own tick got there first: then its update is on the way)
            answer = host.send({"type": "skip"})
            seq = answer["seq"] if answer["type"] == "ack" else host.seq + 1
            for other in everyone:
                other.until(seq)
            acted = True
        assert acted, f"nobody can act in {host.view['phase']}"
    return steps


def assert_private(view: dict[str, Any], seat: int | None) -> None:
    """A view never holds another seat's tickets or sealed bid."""
    text = json.dumps(view)
    me = view.get("me")
    if seat is None:
        assert me is None
        assert "sealed_bid" not in text and "tickets" not in text
    else:
        assert me is not None and me["seat"] == seat


def start_party(tc: TestClient, **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    room = new_room(tc, races=4, **options)
    seats = [join(tc, room["code"], n) for n in NAMES]
    return room, seats


def test_a_whole_party_survives_a_restart(db: Path) -> None:
    with serving(db) as tc:
        room, tokens = start_party(tc)
        code = room["code"]
        host = Client(tc, code, room["host_token"])
        seats = [Client(tc, code, t["token"]) for t in tokens]
        watcher = Client(tc, code, None)
        assert host.welcome["role"] == {"kind": "host", "seat": None}
        assert [s.welcome["role"]["seat"] for s in seats] == [0, 1, 2]
        ack = host.send({"type": "start", "computers": 2})
        assert ack["type"] == "ack"
        for c in [host, watcher, *seats]:
            c.until(ack["seq"])
        play_some(host, seats, 25)  # the auction and part of the first races
        assert host.view["phase"] != "finished"
        seq_before = host.seq
        view_before = host.view
        for c in [host, watcher, *seats]:
            assert_private(c.view, None if c in (host, watcher) else seats.index(c))
            c.close()
    # the server stops; a new one on the same file continues every room where it was
    with serving(db) as tc:
        host = Client(tc, code, room["host_token"], since=seq_before - 3)
        assert host.seq == seq_before
        assert host.view == view_before
        assert [c["seq"] for c in host.welcome["catchup"]] == list(
            range(seq_before - 2, seq_before + 1))
        seats = [Client(tc, code, t["token"]) for t in tokens]
        steps = play_some(host, seats, 600)
        assert steps < 600
        final = host.view
        assert final["phase"] == "finished"
        assert final["award"] is not None or all(h["owner"] is None for h in final["horses"])
        assert len(final["standings"]) == 5
        settled = [e for e in host.events if e["type"] == "settled"]
        assert [e["race"] for e in settled] == sorted({e["race"] for e in settled})
        for c in [host, *seats]:
            c.close()
    # the database holds the log of every accepted intent, one row per revision
    with sqlite3.connect(db) as conn:
        seqs = [r[0] for r in conn.execute(
            "SELECT seq FROM room_events WHERE code = ? ORDER BY seq", (code,))]
        stored = {r[0] for r in conn.execute("SELECT token_hash FROM room_seats")}
    assert seqs == list(range(1, seqs[-1] + 1))
    assert all(t["token"] not in stored for t in tokens)  # only hashes are kept


def test_secret_tickets_and_sealed_bids_reach_only_their_seat(client: TestClient) -> None:
    room, tokens = start_party(client)
    code = room["code"]
    host = Client(client, code, room["host_token"])
    seats = [Client(client, code, t["token"]) for t in tokens]
    ack = host.send({"type": "start", "computers": 0})
    for c in [host, *seats]:
        c.until(ack["seq"])
    ack = seats[0].send({"type": "bid", "amount": 4200})
    for c in [host, *seats]:
        c.until(ack["seq"])
    assert seats[0].view["me"]["sealed_bid"] == 4200
    for c in (host, seats[1], seats[2]):
        assert "4200" not in json.dumps(c.view) and "4200" not in json.dumps(c.messages)
    # the event says who sealed for which die, not how much: facts only, worded by the page
    assert host.events[-1] == {"type": "bid_sealed", "player": 0, "name": "Aki", "post": 1,
                               "horse": "d4"}
    # everyone else bids 0 on every die: Aki buys the d4, the rest are house horses
    for _lot in range(6):
        for s in seats:
            if s.view.get("me", {}).get("may_bid") and s.view["me"]["sealed_bid"] is None:
                ack = s.send({"type": "bid", "amount": 0})
                for c in [host, *seats]:
                    c.until(ack["seq"])
    assert host.view["phase"] == "betting"
    ack = seats[1].send({"type": "ticket", "kind": "quinella", "horses": [5, "d20"],
                         "stake": 700})
    assert ack["type"] == "ack"
    for c in [host, *seats]:
        c.until(ack["seq"])
    assert seats[1].view["me"]["tickets"][0]["label"] == "quinella d12-d20"
    assert seats[1].view["me"]["money"] == 9300
    for c in (host, seats[0], seats[2]):
        assert "tickets\": [{" not in json.dumps(c.view)
        ben = c.view["players"][1]
        assert ben["money"] == 10000  # the stake's size does not show before the race
    for c in [host, *seats]:
        c.close()


def test_host_with_real_dice_types_each_round(client: TestClient) -> None:
    room = new_room(client, races=4, host_dice=True)
    code = room["code"]
    solo = join(client, code, "Aki")
    host = Client(client, code, room["host_token"])
    aki = Client(client, code, solo["token"])
    ack = host.send({"type": "start", "computers": 3})
    assert ack["type"] == "ack"
    aki.until(ack["seq"])
    for _ in range(6):
        if aki.view["phase"] != "auction":
            break
        ack = aki.send({"type": "bid", "amount": 0})
        assert ack["type"] == "ack"
    host.until(aki.seq)
    assert host.view["phase"] == "betting"
    assert aki.send({"type": "done"})["type"] == "ack"
    host.until(aki.seq)
    live = host.view["live"]
    assert host.view["phase"] == "racing" and live["to_roll"] == ["d4", "d6", "d8", "d10",
                                                                  "d12", "d20"]
    # no die rolls by itself: the host types each round in this mode
    assert aki.view["me"]["my_turn"] is False and host.view["timeline"]["running"] is False
    refused = host.send({"type": "enter", "values": [5, 1, 1, 1, 1, 1]})
    assert refused["type"] == "error"
    assert "5 is not on the d4: it shows 1 to 4" in refused["message"]
    assert host.send({"type": "enter", "values": [1, 1]})["type"] == "error"
    assert host.send({"type": "roll"})["type"] == "error"
    seq = host.seq
    ack = host.send({"type": "enter", "values": [4, 6, 8, 10, 12, 1]})
    assert ack["type"] == "ack" and ack["seq"] == seq + 1
    host.until(ack["seq"])
    out = [e for e in host.events if e["type"] == "round"][-1]
    assert out["out"] == ["d20"]  # the lowest number drops
    assert host.view["live"]["to_roll"] == ["d4", "d6", "d8", "d10", "d12"]
    ack = host.send({"type": "enter", "values": ["F", 2, 3, 4, 5]})
    host.until(ack["seq"])
    assert [e for e in host.events if e["type"] == "round"][-1]["out"] == ["d4"]
    rounds = 0
    while host.view["phase"] == "racing" and rounds < 20:
        if host.view["live"]["finished"]:  # the finish first; the results at the next tick
            assert host.view["last"] is None and host.view["standings"][0]["net"] <= 10_000
            ack = host.send({"type": "skip"})
            assert ack["type"] == "ack", ack
            host.until(ack["seq"])
            continue
        n = len(host.view["live"]["to_roll"])
        ack = host.send({"type": "enter", "values": list(range(1, n + 1))})
        assert ack["type"] == "ack", ack
        host.until(ack["seq"])
        rounds += 1
    assert host.view["phase"] == "betting" and host.view["last"]["race"] == 1
    assert host.view["last"]["order"][-1] == "d20"
    host.close()
    aki.close()


def test_a_race_runs_on_the_server_with_no_big_screen_open(client: TestClient) -> None:
    """The server throws the dice at the room's pace: with the host's page closed, a phone
    still sees every furlong, the finish, then the results one tick later."""
    room = new_room(client, races=4)
    code = room["code"]
    aki = Client(client, code, join(client, code, "Aki")["token"])
    host = Client(client, code, room["host_token"])
    assert host.send({"type": "start", "computers": 1})["type"] == "ack"
    assert host.send({"type": "pace", "seconds": 0.2})["type"] == "ack"
    aki.until(host.seq)
    while aki.view["phase"] == "auction":
        assert aki.send({"type": "bid", "amount": 0})["type"] == "ack"
    assert aki.send({"type": "ticket", "kind": "win", "horses": ["d20"], "stake": 500}
                    )["type"] == "ack"
    host.close()  # nobody watches the big screen now
    assert aki.send({"type": "done"})["type"] == "ack"
    assert aki.view["phase"] == "racing"
    seen: list[tuple[str, bool]] = []
    while aki.view["phase"] == "racing":  # every update comes from the server's own clock
        aki.receive()
        live = aki.view.get("live")
        seen.append((aki.view["phase"], bool(live and live["finished"])))
        assert len(seen) < 200
    assert ("racing", True) in seen  # the finish came alone first
    finish = seen.index(("racing", True))
    assert all(phase == "racing" for phase, _ in seen[:finish + 1])
    assert aki.view["phase"] == "betting" and aki.view["last"]["race"] == 1
    settled = [e for e in aki.events if e["type"] == "settled"]
    assert len(settled) == 1 and settled[0]["race"] == 1
