"""A whole KEIRIN betting night through the party server: scripted phones, a restart in
the middle, both money modes, what each screen may see, and every refusal."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.games.keirin.room import MAX_SEATS
from raceday.web.app import create_app
from tests.web.conftest import Client, join

NAMES = ["Aki", "Ben", "Chie"]
# what each scripted phone buys on every race (typed or chosen), then it says done
SCRIPT: list[list[dict[str, Any]]] = [
    [{"kind": "win", "riders": [9], "stake": "100"},
     {"kind": "exacta", "riders": [9, 8], "stake": 50}],
    [{"text": "quinella 8=9 20"}, {"kind": "trifecta", "riders": [9, 8, 7], "stake": "10"},
     {"kind": "trio", "riders": [7, 9, 8], "stake": "12.50"}],
    [],  # Chie sits the races out
]


def new_keirin(tc: TestClient, **options: Any) -> dict[str, Any]:
    r = tc.post("/api/rooms", json={"game": "keirin", "options": options})
    assert r.status_code == 201, r.text
    return dict(r.json())


def sync(clients: list[Client], seq: int) -> None:
    for c in clients:
        c.until(seq)


def ok(client: Client, intent: dict[str, Any], everyone: list[Client]) -> dict[str, Any]:
    answer = client.send(intent)
    assert answer["type"] == "ack", answer
    sync(everyone, answer["seq"])
    return answer


def refused(client: Client, intent: dict[str, Any], everyone: list[Client],
            words: str) -> str:
    """The intent is refused with a message containing ``words``; nothing changed."""
    seq = client.seq
    views = [json.dumps(c.view, sort_keys=True) for c in everyone]
    answer = client.send(intent)
    assert answer["type"] == "error", answer
    assert words in answer["message"], answer["message"]
    assert client.seq == seq
    assert [json.dumps(c.view, sort_keys=True) for c in everyone] == views
    return str(answer["message"])


def bet_race(seats: list[Client], everyone: list[Client]) -> None:
    """Every phone buys its script and says done (the last 'done' starts the race)."""
    for seat, script in zip(seats, SCRIPT, strict=True):
        for intent in script:
            ok(seat, {"type": "ticket", **intent}, everyone)
        ok(seat, {"type": "done"}, everyone)


def run_race(host: Client, everyone: list[Client]) -> int:
    steps = 0
    race = host.view["race"]
    while host.view["phase"] == "racing" and host.view["race"] == race:
        ok(host, {"type": "advance"}, everyone)
        steps += 1
        assert steps < 200
    return steps


def open_night(tc: TestClient, **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    room = new_keirin(tc, **options)
    return room, [join(tc, room["code"], n) for n in NAMES]


@pytest.fixture
def patient(db: Path) -> Iterator[TestClient]:
    """A server that lets one phone send many intents in a row (no rate limit in the way),
    and one address (the test's) take every seat of a lobby."""
    with TestClient(create_app(db, burst=1000, rate=1000, seats_per_address=100)) as tc:
        yield tc


def test_a_whole_night_survives_a_restart(db: Path) -> None:
    with TestClient(create_app(db, burst=1000, rate=1000)) as tc:
        room, tokens = open_night(tc, races=3, riders=9)
        code = room["code"]
        host = Client(tc, code, room["host_token"])
        seats = [Client(tc, code, t["token"]) for t in tokens]
        watcher = Client(tc, code, None)
        everyone = [host, watcher, *seats]
        assert host.view["phase"] == "lobby" and host.view["seats"] == NAMES
        ok(host, {"type": "start"}, everyone)
        ok(host, {"type": "pause"}, everyone)  # the test plays the race's steps itself
        assert host.view["phase"] == "betting" and host.view["race"] == 1
        assert [p["purse"] for p in host.view["players"]] == [1_000_000] * 3
        bet_race(seats, everyone)
        assert host.view["phase"] == "racing"
        closed = [e for e in host.events if e["type"] == "betting_closed"][-1]
        assert closed == {"type": "betting_closed", "race": 1, "tickets": 5,
                          "pool": 10000 + 5000 + 2000 + 1000 + 1250}
        # the race is shown step by step: first the derny and the line-up only
        ok(host, {"type": "advance"}, everyone)
        first = [e["type"] for e in host.events[-3:]]
        assert first == ["derny", "lineup", "slipstream"]
        live = host.view["live"]
        assert live["turn"] == 1 and live["derny"] is not None
        assert live["positions"]["1"] == live["derny"]  # rider 1 in the derny's slipstream
        assert live["laps_to_go"] == 1 and live["to_go"] == 50 - live["derny"]
        ok(host, {"type": "advance"}, everyone)
        assert [e["type"] for e in host.view["live"]["step"]].count("throw") == 9
        seq_before, view_before = host.seq, host.view
        for c in everyone:
            c.close()
    # the server stops; a new one on the same file goes on where the room stood
    with TestClient(create_app(db, burst=1000, rate=1000)) as tc:
        host = Client(tc, code, room["host_token"], since=seq_before - 2)
        assert host.seq == seq_before and host.view == view_before
        assert [c["seq"] for c in host.welcome["catchup"]] == [seq_before - 1, seq_before]
        seats = [Client(tc, code, t["token"]) for t in tokens]
        everyone = [host, *seats]
        run_race(host, everyone)
        last = host.view["last"]
        assert last["race"] == 1 and sorted(last["ranking"]) == list(range(1, 10))
        purses = {p["name"]: p["purse"] for p in last["players"]}
        for i, s in enumerate(seats):  # each purse: start - stakes + returns, as paid
            mine = s.view["me"]["last"]
            assert len(mine) == len(SCRIPT[i])
            paid = sum(t["returned"] for t in mine) - sum(t["stake"] for t in mine)
            assert purses[NAMES[i]] == 1_000_000 + paid == s.view["me"]["purse"]
            for t in mine:
                won = t["riders"] == last["winners"][t["kind"]]
                assert t["won"] == won and t["returned"] == (t["pays"] if won else 0)
        for _ in range(2):
            assert host.view["phase"] == "betting"
            bet_race(seats, everyone)
            run_race(host, everyone)
        final = host.view
        assert final["phase"] == "finished" and final["settled"] == 3
        assert [e["type"] for e in host.events[-2:]] == ["settled", "finished"]
        ranks = [s["purse"] for s in final["standings"]]
        assert ranks == sorted(ranks, reverse=True)
        chie = next(s for s in final["standings"] if s["name"] == "Chie")
        assert chie["purse"] == 1_000_000 and chie["tickets"] == 0
        # a finished night takes no intent and no new player
        refused(host, {"type": "advance"}, everyone, "over")
        r = tc.post(f"/api/rooms/{code}/join", json={"name": "Dan"})
        assert r.status_code == 409 and "over" in r.json()["error"]
        for c in everyone:
            c.close()
    with sqlite3.connect(db) as conn:
        seqs = [r[0] for r in conn.execute(
            "SELECT seq FROM room_events WHERE code = ? ORDER BY seq", (code,))]
    assert seqs == list(range(1, seqs[-1] + 1))


def test_a_phone_sees_only_its_own_tickets_and_purse(patient: TestClient) -> None:
    client = patient
    room, tokens = open_night(client, races=2)
    code = room["code"]
    host = Client(client, code, room["host_token"])
    seats = [Client(client, code, t["token"]) for t in tokens]
    watcher = Client(client, code, None)
    everyone = [host, watcher, *seats]
    ok(host, {"type": "start"}, everyone)
    ok(host, {"type": "pause"}, everyone)  # the test plays the race's steps itself
    ok(seats[1], {"type": "ticket", "kind": "exacta", "riders": [4, 7], "stake": "4321.07"},
       everyone)
    mine = seats[1].view["me"]
    assert mine["tickets"][0]["label"] == "4-7" and mine["purse"] == 1_000_000 - 432107
    assert '"stake": 432107' in json.dumps(seats[1].messages)
    for c in (host, watcher, seats[0], seats[2]):
        text = json.dumps(c.messages)
        assert "432107" not in text and '"label": "4-7"' not in text
        assert c.view["players"][1]["purse"] == 1_000_000
        assert c.view.get("me", {}).get("tickets", []) == []
    assert host.events[-1] == {"type": "ticket_sold"}  # no who, no bet type, no amount
    # after the lock the public purse still hides the stake until the race is settled
    for s in seats:
        ok(s, {"type": "done"}, everyone)
    assert host.view["phase"] == "racing"
    assert host.view["players"][1]["purse"] == 1_000_000
    assert "432107" not in json.dumps(host.view)
    run_race(host, everyone)
    ben = next(p for p in host.view["last"]["players"] if p["name"] == "Ben")
    assert ben["staked"] == 432107  # shown with the results, like the terminal's table
    for c in everyone:
        c.close()


def test_pari_mutuel_tote_opens_at_the_close_with_totals_and_no_names(
        patient: TestClient) -> None:
    client = patient
    room, tokens = open_night(client, races=1, mode="pool", margin=0.25, riders=6)
    code = room["code"]
    host = Client(client, code, room["host_token"])
    seats = [Client(client, code, t["token"]) for t in tokens]
    everyone = [host, *seats]
    ok(host, {"type": "start"}, everyone)
    ok(host, {"type": "pause"}, everyone)  # the test plays the race's steps itself
    assert "odds" not in host.view["board"] or host.view["board"]["odds"] == {}
    ok(seats[0], {"type": "ticket", "kind": "win", "riders": [6], "stake": 300}, everyone)
    ok(seats[1], {"type": "ticket", "kind": "win", "riders": [6], "stake": 100}, everyone)
    ok(seats[2], {"type": "ticket", "kind": "win", "riders": [5], "stake": 400}, everyone)
    ok(seats[2], {"type": "ticket", "kind": "quinella", "riders": [6, 5], "stake": 50},
       everyone)
    ok(seats[2], {"type": "cancel"}, everyone)
    # sealed while betting is open (docs/rules/keirin.md, completion 12)
    assert host.view["tote"] is None and host.view["tote_sealed"] is True
    for s in seats:
        ok(s, {"type": "done"}, everyone)
    tote = host.view["tote"]
    assert host.view["phase"] == "racing" and host.view["tote_sealed"] is False
    win = {c["key"]: c for c in tote["win"]["combos"]}
    assert tote["win"]["pool"] == 80000 and tote["win"]["tickets"] == 3
    assert win["6"]["stake"] == 40000 and win["5"]["stake"] == 40000
    assert win["6"]["pays"] == pytest.approx(0.75 * 800 / 400)  # the pool after takeout
    assert win["1"]["pays"] is None
    assert tote["quinella"]["pool"] == 0  # the ticket taken back is not in it
    text = json.dumps(tote)
    assert not any(n in text for n in NAMES) and "player" not in text
    run_race(host, everyone)
    last = host.view["last"]
    assert host.view["phase"] == "finished"
    pool = last["pools"]["win"]
    assert pool["pool"] == 80000
    returned = sum(p["returned"] for p in last["players"])
    if pool["refunded"]:
        assert returned == 80000
    else:
        assert 60000 - 3 <= returned <= 60000  # 75% shared, rounded down per ticket
    for c in everyone:
        c.close()


def test_every_refusal_is_explained_and_changes_nothing(patient: TestClient) -> None:
    client = patient
    room, tokens = open_night(client, races=2, riders=7)
    code = room["code"]
    host = Client(client, code, room["host_token"])
    seats = [Client(client, code, t["token"]) for t in tokens]
    watcher = Client(client, code, None)
    everyone = [host, watcher, *seats]
    aki = seats[0]
    refused(aki, {"type": "ticket", "text": "win 3 10"}, everyone, "not started")
    refused(aki, {"type": "start"}, everyone, "a player cannot send 'start'")
    ok(host, {"type": "start"}, everyone)
    ok(host, {"type": "pause"}, everyone)  # the test plays the race's steps itself
    refused(host, {"type": "start"}, everyone, "already started")
    refused(watcher, {"type": "done"}, everyone, "spectators watch")
    refused(host, {"type": "ticket", "text": "win 3 10"}, everyone, "the host cannot")
    refused(host, {"type": "advance"}, everyone, "only possible during a race")
    refused(aki, {"type": "advance"}, everyone, "a player cannot send 'advance'")
    refused(aki, {"type": "fly"}, everyone, "cannot send 'fly'")
    # tickets: the engine's own reasons
    refused(aki, {"type": "ticket", "text": "win 8 10"}, everyone, "unknown rider '8'")
    refused(aki, {"type": "ticket", "text": "exacta 3-3 10"}, everyone, "appears twice")
    refused(aki, {"type": "ticket", "text": "place 3 10"}, everyone, "unknown bet type")
    refused(aki, {"type": "ticket", "kind": "trio", "riders": [1, 2], "stake": 5}, everyone,
            "names 3 riders")
    refused(aki, {"type": "ticket", "kind": "win", "riders": [1], "stake": "1e3"}, everyone,
            "not an amount")
    refused(aki, {"type": "ticket", "kind": "win", "riders": [1], "stake": "-5"}, everyone,
            "more than 0")
    refused(aki, {"type": "ticket", "kind": "win", "riders": ["1"], "stake": 5}, everyone,
            "riders.0 must be a whole number")
    refused(aki, {"type": "ticket", "kind": "win", "riders": [True], "stake": 5}, everyone,
            "riders.0 must be a whole number")
    refused(aki, {"type": "ticket", "kind": "win", "riders": [1], "stake": "1 000"},
            everyone, "a stake is an amount")
    refused(aki, {"type": "ticket", "kind": "win lose", "riders": [1], "stake": 5},
            everyone, "kind")
    refused(aki, {"type": "ticket", "text": "win 1 5\nwin 2 5"}, everyone, "one line")
    # beyond the purse: 10,000 to start, on one ticket and over several
    refused(aki, {"type": "ticket", "kind": "win", "riders": [1], "stake": "10000.01"},
            everyone, "more than the 10,000.00 left")
    ok(aki, {"type": "ticket", "kind": "win", "riders": [1], "stake": "9000"}, everyone)
    refused(aki, {"type": "ticket", "kind": "win", "riders": [2], "stake": "1000.50"},
            everyone, "more than the 1,000.00 left")
    refused(aki, {"type": "cancel", "index": 3}, everyone, "the ticket's number")
    refused(seats[2], {"type": "cancel"}, everyone, "no ticket to take back")
    ok(aki, {"type": "done"}, everyone)
    refused(aki, {"type": "done"}, everyone, "already done")
    refused(aki, {"type": "ticket", "text": "win 2 10"}, everyone, "done betting")
    refused(aki, {"type": "cancel"}, everyone, "done betting")
    ok(host, {"type": "close_betting"}, everyone)
    assert host.view["phase"] == "racing"
    refused(seats[1], {"type": "ticket", "text": "win 2 10"}, everyone,
            "only possible during betting")
    refused(host, {"type": "finish"}, everyone, "only possible during betting")
    # malformed and oversized messages, answered on the connection that sent them
    seq = aki.seq
    assert "not valid JSON" in aki.send_raw("{nope")["message"]
    assert "'type'" in aki.send_raw("[1, 2]")["message"]
    assert "larger than 4096" in aki.send_raw(json.dumps(
        {"type": "ticket", "text": "x" * 5000}))["message"]
    aki.ws.send_json({"type": "ping"})
    assert aki.receive()["type"] == "pong"
    assert aki.seq == seq and host.seq == seq
    for c in everyone:
        c.close()


def test_wrong_tokens_full_rooms_and_late_joiners_are_turned_away(patient: TestClient) -> None:
    client = patient
    room = new_keirin(client)
    code = room["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-seat-token-at-all", "since": -1})
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["fatal"]
        assert "not a seat" in answer["message"]
    names = [f"Rider fan {i}" for i in range(MAX_SEATS)]
    for n in names:
        join(client, code, n)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "One too many"})
    assert r.status_code == 409 and "full" in r.json()["error"]
    assert client.get(f"/api/rooms/{code}").json()["seats"] == names

    other = new_keirin(client, races=1)
    join(client, other["code"], "Aki")
    r = client.post(f"/api/rooms/{other['code']}/join", json={"name": "aki"})
    assert r.status_code == 409 and "already called" in r.json()["error"]
    host = Client(client, other["code"], other["host_token"])
    ok(host, {"type": "start"}, [host])
    ok(host, {"type": "pause"}, [host])  # the test plays the race's steps itself
    r = client.post(f"/api/rooms/{other['code']}/join", json={"name": "Late"})
    assert r.status_code == 409 and "started" in r.json()["error"]
    host.close()


def test_the_host_may_end_the_night_early_and_open_tickets_are_withdrawn(
        patient: TestClient) -> None:
    client = patient
    room, tokens = open_night(client, races=5)
    code = room["code"]
    host = Client(client, code, room["host_token"])
    aki = Client(client, code, tokens[0]["token"])
    everyone = [host, aki]
    ok(host, {"type": "start"}, everyone)
    ok(host, {"type": "pause"}, everyone)  # the test plays the race's steps itself
    ok(aki, {"type": "ticket", "text": "trifecta 1-2-3 100"}, everyone)
    ok(host, {"type": "finish"}, everyone)
    assert host.view["phase"] == "finished" and host.events[-1]["withdrawn"] == 1
    assert [s["purse"] for s in host.view["standings"]] == [1_000_000] * 3
    refused(aki, {"type": "ticket", "text": "win 1 1"}, everyone, "over")
    host.close()
    aki.close()


@pytest.mark.parametrize("options, words", [  # the room's options model's one line
    ({"riders": 5}, "KEIRIN option riders: must be from 6 to 9, got 5"),
    ({"riders": "9"}, "KEIRIN option riders: must be a whole number from 6 to 9, got '9'"),
    ({"length": 10}, "KEIRIN option length: must be from 19 to 1,000, got 10"),
    ({"races": 0}, "KEIRIN option races: must be from 1 to 12, got 0"),
    ({"mode": "tote"}, "KEIRIN option mode: must be one of 'fixed', 'pool', got 'tote'"),
    ({"margin": 1.5}, "KEIRIN option margin: must be below 1, got 1.5"),
    ({"margin": "0.1"}, "KEIRIN option margin: must be a number such as 0.5, got '0.1'"),
    ({"bankroll": 0}, "KEIRIN option bankroll: must be from 1 to 100,000,000, got 0"),
    ({"derny": 12}, "unknown KEIRIN option 'derny'"),
])
def test_bad_options_are_refused_when_the_room_is_created(
        patient: TestClient, options: dict[str, Any], words: str) -> None:
    r = patient.post("/api/rooms", json={"game": "keirin", "options": options})
    assert r.status_code == 400 and r.json()["error"] == words, r.text


def test_flooding_is_refused_and_changes_nothing(db: Path) -> None:
    with TestClient(create_app(db, burst=5, rate=0.01)) as tc:
        room, tokens = open_night(tc, races=1)
        code = room["code"]
        aki = Client(tc, code, tokens[0]["token"])
        seq = aki.seq
        for _ in range(12):
            aki.ws.send_json({"type": "ticket", "text": "win 1 1"})
        answers = [aki.receive() for _ in range(6)]  # five answered, then one slow-down
        slow = [a for a in answers if a["type"] == "error" and "slow down" in a["message"]]
        assert len(slow) == 1 and answers[-1] is slow[0]
        assert aki.seq == seq  # the night had not started: nothing was accepted
        aki.close()
