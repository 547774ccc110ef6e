"""Hairpin Racers through the party server: a whole game of two phones with a restart in
the middle, the host screen against the computer with undo, pass-and-play, and every
refusal (wrong token, out of turn, illegal move) changing nothing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from raceday.games.hairpin.room import HairpinRoom
from raceday.games.hairpin.rules import HairpinState, Rules
from raceday.present import render
from raceday.rooms import Actor, RoomError
from raceday.web.app import create_app
from tests.web.conftest import Client, join

# Red to move, one lap from winning the short game (3 laps): a few plies to the end.
LATE = "..bbbb/r...b./r..rrr r 2-0 0-0 0-0 0 40"


def fast_app(db: Path) -> Any:
    """The server with a rate limit that scripted players (dozens of moves a second) do
    not reach; the limit itself is tested in test_party.py."""
    return create_app(db, burst=100_000, rate=100_000)


OPEN: list[Client] = []


def connect(tc: TestClient, code: str, token: str | None, since: int = -1) -> Client:
    """A WebSocket client, closed by the ``client`` fixture when the test ends (an open
    socket would keep the test server from stopping)."""
    c = Client(tc, code, token, since)
    OPEN.append(c)
    return c


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(fast_app(db)) as tc:
        try:
            yield tc
        finally:
            while OPEN:
                OPEN.pop().close()


def new_hairpin(tc: TestClient, **options: Any) -> dict[str, Any]:
    r = tc.post("/api/rooms", json={"game": "hairpin", "options": options})
    assert r.status_code == 201, r.text
    return dict(r.json())


def sync(clients: list[Client], seq: int) -> None:
    for c in clients:
        c.until(seq)


def ok(client: Client, intent: dict[str, Any], everyone: list[Client]) -> dict[str, Any]:
    """The intent is taken; then every screen has seen the computers' answers, which come
    on the room's timeline (after a start, at the fastest pace, so the tests go quickly)."""
    answer = client.send(intent)
    assert answer["type"] == "ack", answer
    if intent["type"] == "start":
        assert client.send({"type": "pace", "seconds": 0.2})["type"] == "ack"
    while client.view.get("thinking"):
        client.receive()  # the server's own step: a computer's move
    sync(everyone, client.seq)
    return answer


def handled(room: Any, actor: Actor, intent: dict[str, Any],
            rng: np.random.Generator) -> list[dict[str, Any]]:
    """``room.handle`` as the server would go on: the computers' paced moves that follow
    it are played as the timeline's ticks, and their events added."""
    events = list(room.handle(actor, intent, rng))
    for _ in range(10_000):
        if room.next_tick() is None:
            return events
        events += room.handle(Actor.timeline(), {"type": "tick"}, rng)
    raise AssertionError("the computers never stopped moving")


def refused(client: Client, intent: dict[str, Any], everyone: list[Client], words: str) -> None:
    """Refused with a message containing ``words``; no screen's view changed."""
    seq = client.seq
    views = [json.dumps(c.view, sort_keys=True) for c in everyone]
    answer = client.send(intent)
    assert answer["type"] == "error", answer
    assert words in answer["message"], answer["message"]
    assert client.seq == seq
    assert [json.dumps(c.view, sort_keys=True) for c in everyone] == views


def best_move(view: dict[str, Any]) -> int:
    """A scripted player: a lap if it can, else a bump, else the longest step forward."""
    moves = view["moves"]
    for want in ("lap", "bump"):
        for m in moves:
            if (m["lap"] if want == "lap" else m["kind"] == "bump") and m["decides"] != "loses":
                return int(m["action"])
    return int(moves[-1]["action"])


def test_a_whole_short_game_on_two_phones_with_a_restart(db: Path) -> None:
    with TestClient(fast_app(db)) as tc:
        room = new_hairpin(tc, variant="short", red="human", black="human")
        code = room["code"]
        aki, ben = join(tc, code, "Aki"), join(tc, code, "Ben")
        r = tc.post(f"/api/rooms/{code}/join", json={"name": "Chie"})
        assert r.status_code == 409 and "every human place is taken" in r.json()["error"]
        host = Client(tc, code, room["host_token"])
        red, black = Client(tc, code, aki["token"]), Client(tc, code, ben["token"])
        everyone = [host, red, black]
        assert red.view["me"]["place"] == 0 and black.view["me"]["place"] == 1
        ok(host, {"type": "start"}, everyone)
        assert red.view["may_move"] and not black.view["may_move"]
        assert not host.view["may_move"]  # both places are on phones
        plies = 0
        while plies < 30:
            seat = red if red.view["may_move"] else black
            ok(seat, {"type": "move", "action": best_move(seat.view)}, everyone)
            plies += 1
        seq = host.seq
        text = host.view["board"]["text"]
        for c in everyone:
            c.close()
    # the server restarts: the game goes on from the same position and revision
    with TestClient(fast_app(db)) as tc:
        host = Client(tc, code, room["host_token"], since=seq - 3)
        red, black = Client(tc, code, aki["token"]), Client(tc, code, ben["token"])
        everyone = [host, red, black]
        try:
            assert host.seq == seq and host.view["board"]["text"] == text
            assert len(host.events) >= 3  # the catch-up events after `since`
            while host.view["phase"] == "playing":
                seat = red if red.view["may_move"] else black
                ok(seat, {"type": "move", "action": best_move(seat.view)}, everyone)
                plies += 1
                assert plies < 600
            result = host.view["result"]
            assert result["winner"] in (0, 1) and result["termination"] in ("laps", "disqualified")
            state = HairpinState.from_text(host.view["board"]["text"], Rules.from_variant("short"))
            assert state.is_terminal() and state.outcome().winner == result["winner"]
            assert red.view["result"] == black.view["result"] == result
            refused(red, {"type": "move", "action": 0}, everyone, "over")
        finally:
            for c in everyone:
                c.close()
    with sqlite3.connect(db) as conn:
        (rows,) = conn.execute("SELECT COUNT(*) FROM room_events WHERE code = ?",
                               (code,)).fetchone()
    assert rows == 1 + 2 + 1 + 1 + plies  # created, two joins, start, pace, one per move


def test_refusals_change_nothing(client: TestClient) -> None:
    room = new_hairpin(client, red="human", black="human")
    code = room["code"]
    aki, ben = join(client, code, "Aki"), join(client, code, "Ben")
    host = connect(client, code, room["host_token"])
    red, black = connect(client, code, aki["token"]), connect(client, code, ben["token"])
    watcher = connect(client, code, None)
    everyone = [host, red, black, watcher]
    refused(red, {"type": "move", "action": 0}, everyone, "not started")
    refused(red, {"type": "start"}, everyone, "cannot send 'start'")
    ok(host, {"type": "start"}, everyone)
    legal = [m["action"] for m in red.view["moves"]]
    refused(black, {"type": "move", "action": legal[0]}, everyone, "Red's turn, not yours")
    refused(host, {"type": "move", "action": legal[0]}, everyone, "Red's turn, not yours")
    refused(watcher, {"type": "move", "action": legal[0]}, everyone, "spectators watch")
    illegal = next(a for a in range(200) if a not in legal)
    refused(red, {"type": "move", "action": illegal}, everyone, "not legal now; legal moves: a1")
    refused(red, {"type": "move", "action": "a1 cruise b1"}, everyone, "whole number")
    refused(red, {"type": "move"}, everyone, "action is missing")
    refused(red, {"type": "undo"}, everyone, "only for a game against the computer")
    refused(red, {"type": "fly"}, everyone, "cannot send 'fly'")
    # a wrong token is turned away at the door, and nothing is sent but the error
    bad = connect(client, code, "not-a-seat-token-at-all")
    assert bad.welcome["type"] == "error" and bad.welcome["fatal"]
    assert "not a seat" in bad.welcome["message"]


def test_against_the_computer_on_the_host_screen_with_undo(client: TestClient) -> None:
    room = new_hairpin(client, variant="short", red="human", black="medium")
    code = room["code"]
    host = connect(client, code, room["host_token"])
    everyone = [host]
    ok(host, {"type": "start"}, everyone)
    assert host.view["may_move"] and host.view["vs_computer"] and not host.view["may_undo"]
    refused(host, {"type": "undo"}, everyone, "no move of yours")
    first = host.view["board"]["text"]
    ok(host, {"type": "move", "action": best_move(host.view)}, everyone)
    # the computer answered at once, on the server
    assert host.view["board"]["ply"] == 2 and host.view["may_move"]
    assert [e["player"] for e in host.view["recent"]] == ["red", "black"]
    second = host.view["board"]["text"]
    ok(host, {"type": "move", "action": best_move(host.view)}, everyone)
    assert host.view["may_undo"]
    ok(host, {"type": "undo"}, everyone)
    assert host.view["board"]["text"] == second
    ok(host, {"type": "undo"}, everyone)
    assert host.view["board"]["text"] == first and not host.view["may_undo"]
    assert any(e["type"] == "undone" for e in host.events)
    # a phone that joins a computer game's lobby would be refused: the one human place
    # is played on this screen once the game has started
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Late"})
    assert r.status_code == 409 and "started" in r.json()["error"]


def test_pass_and_play_and_a_late_position_to_the_end(client: TestClient) -> None:
    room = new_hairpin(client, variant="short", red="human", black="human", position=LATE)
    host = connect(client, room["code"], room["host_token"])
    ok(host, {"type": "start"}, [host])
    assert host.view["board"]["laps"] == [2, 0] and host.view["board"]["ply"] == 40
    plies = 0
    while host.view["phase"] == "playing":
        assert host.view["may_move"]  # the host screen plays both colours
        ok(host, {"type": "move", "action": best_move(host.view)}, [host])
        plies += 1
        assert plies < 200
    result = host.view["result"]
    assert result["winner"] == 0 and result["termination"] == "laps"
    assert render(result["message"], "en", "hairpin") == "red completes 3 laps"
    assert "reason" not in result and "description" not in result  # no English beside facts


@pytest.mark.parametrize("variant", ["standard", "nobump", "derby", "v1", "random",
                                     "short+derby+random"])
def test_every_variant_against_every_level_starts_and_moves(variant: str) -> None:
    rng = np.random.default_rng(7)
    for level in ("easy", "medium", "hard"):
        room = HairpinRoom.create({"variant": variant, "red": level, "black": "human"}, 1)
        events = handled(room, Actor.host(), {"type": "start"}, rng)
        assert room.view(Actor.host())["to_move"] == 1  # the computer opened as Red
        assert any(e["type"] == "move" and e["player"] == "red" for e in events)
        if variant.endswith("random"):
            assert sum(e["type"] == "setup" for e in events) == 5
        restored = HairpinRoom.from_json(json.loads(json.dumps(room.to_json())))
        assert restored.view(Actor.host()) == room.view(Actor.host())


def test_expert_level_and_forced_moves_are_played_for_the_player() -> None:
    room = HairpinRoom.create({"variant": "short", "red": "human", "black": "expert"}, 1)
    rng = np.random.default_rng(3)
    handled(room, Actor.host(), {"type": "start"}, rng)
    view = room.view(Actor.host())
    events = handled(room, Actor.host(), {"type": "move", "action": view["moves"][0]["action"]},
                     rng)
    assert [e["player"] for e in events if e["type"] == "move"][:2] == ["red", "black"]
    # a racer in the pit must re-enter: the only legal move is played at once
    pit = HairpinRoom.create({"variant": "short", "red": "human", "black": "human",
                              "position": "..bbb./r...../r..rrr b 2-0 2-0 0-2 0 40"}, 1)
    events = pit.handle(Actor.host(), {"type": "start"}, rng)
    assert events[-1]["type"] == "move" and events[-1]["forced"]
    assert events[-1]["kind"] == "enter"


@pytest.mark.parametrize(("options", "words"), [
    ({"variant": "turbo"}, "no such variant word"),
    ({"red": "easy", "black": "hard"}, "at least one player must be human"),
    ({"red": "grandmaster"}, "unknown player 'grandmaster'"),
    ({"speed": 3}, "unknown Hairpin option(s): speed"),
    ({"position": "nonsense"}, "position"),
])
def test_bad_options_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RoomError, match=None) as err:
        HairpinRoom.create(options, 1)
    assert words in str(err.value)


def test_a_decisive_bump_is_marked_from_the_states_facts() -> None:
    """The fifth bump would disqualify Red: the move says so as a fact ("decides") and as a
    message the page renders in its language, never as a sentence to parse."""
    room = HairpinRoom.create({"red": "human", "black": "human",
                               "position": "..bbb./..bb.r2/rrr... r 0-0 4-0 0-0"}, 1)
    handled(room, Actor.host(), {"type": "start"}, np.random.default_rng(1))
    moves = {m["name"]: m for m in room.view(Actor.host())["moves"]}
    bump = moves["f2 charge d2 bump"]
    assert bump["decides"] == "loses" and bump["warning_message"]["key"] == \
        "warning.disqualified"
    assert render(bump["warning_message"], "en", "hairpin") == \
        "your 5th bump: you would be disqualified and lose"
    assert "warning" not in bump  # the page words the message in its own language
    assert all(m["decides"] is None for name, m in moves.items() if not name.endswith("bump"))
