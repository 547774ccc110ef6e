"""A WebSocket flood from one address: the messages over a socket's allowance are not read
and, after one "slow down", not answered; a socket that keeps flooding is closed (4429,
with its reason in words) and its address's next handshakes wait, while another address
and a bar's phones reconnecting after a wifi drop get in.

Every allowance refills by a clock the tests hold still: what is counted is answers and
refusals, never how fast this machine is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from raceday.web.app import FLOOD, create_app
from raceday.web.guard import FLOOD_PENALTY, HANDSHAKE_BURST, HANDSHAKE_RATE
from tests.web.conftest import Client
from tests.web.test_limits import ELSEWHERE, PHONES, ROUTER, Clock, at

BURST = 5


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Any:
    return create_app(tmp_path / "party.sqlite", clock=clock, burst=BURST, rate=10)


def test_a_flood_is_answered_once_then_closed_and_its_address_waits(app: Any,
                                                                    clock: Clock) -> None:
    with at(app, ROUTER) as tc:
        room = tc.post("/api/rooms", json={"game": "derby"}).json()
        code = room["code"]
        flooder = Client(tc, code, None)
        for k in range(BURST):  # the allowance: every message answered
            flooder.ws.send_json({"type": "ping", "ref": k})
        assert [flooder.receive()["type"] for _ in range(BURST)] == ["pong"] * BURST
        flooder.ws.send_json({"type": "ping", "ref": 99})
        slow = flooder.receive()
        assert slow["type"] == "error" and slow["words"]["key"] == "refusal.slow_down"
        # the rest of the flood: pings, broken JSON, undecodable bytes and oversized text,
        # none of it read or answered (each would otherwise have its own answer)
        junk = ['{"type": "ping"}', "{not json", "x" * 5000]
        for k in range(FLOOD - 1):
            if k % 4 == 3:
                flooder.ws.send_bytes(b"\xff\xfe")
            else:
                flooder.ws.send_text(junk[k % 4])
        flooder.ws.send_text('{"type": "ping"}')  # one over: the socket is closed
        with pytest.raises(WebSocketDisconnect) as closed:
            flooder.ws.receive_json()  # nothing came between the slow-down and the close
        assert closed.value.code == 4429
        assert closed.value.reason == "too many messages; disconnected"
        flooder.close()
        # that address's next handshake waits, refused before it is accepted
        with pytest.raises(WebSocketDenialResponse) as refused:
            tc.websocket_connect(f"/ws/{code}").__enter__()
        assert refused.value.status_code == 429
        assert refused.value.json()["words"]["key"] == "refusal.too_many"
        wait = int(refused.value.headers["retry-after"])
        assert wait > FLOOD_PENALTY / HANDSHAKE_RATE
    with at(app, ELSEWHERE) as other:  # another address is not held up
        assert Client(other, code, None).welcome["type"] == "welcome"
    with at(app, ROUTER) as tc:
        clock.now += wait / 2  # halfway through the wait: still refused
        with pytest.raises(WebSocketDenialResponse):
            tc.websocket_connect(f"/ws/{code}").__enter__()
        clock.now += wait / 2  # after the wait the address may connect again
        assert Client(tc, code, None).welcome["type"] == "welcome"


def test_calm_again_a_socket_is_told_to_slow_down_again(tmp_path: Path, clock: Clock) -> None:
    """The silence lasts while the flood does: a phone that tapped too fast, then waited
    (its allowance full again), hears the next slow-down. (No pause before reading a
    refused message: the clock moves on only once every message was read.)"""
    app = create_app(tmp_path / "party.sqlite", clock=clock, burst=BURST, rate=10,
                     flood_pause=0)
    with at(app, ROUTER) as tc:
        code = tc.post("/api/rooms", json={"game": "derby"}).json()["code"]
        phone = Client(tc, code, None)
        for _ in range(2):
            for k in range(BURST + 3):
                phone.ws.send_json({"type": "ping", "ref": k})
            answers = [phone.receive() for _ in range(BURST + 1)]
            assert [a["type"] for a in answers] == ["pong"] * BURST + ["error"]
            clock.now += 10  # calm: the allowance is full again
        phone.ws.send_json({"type": "ping", "ref": "last"})
        assert phone.receive() == {"type": "pong", "ref": "last"}  # nothing else was sent


def test_a_bar_reconnecting_after_a_wifi_drop_gets_in(tmp_path: Path, clock: Clock) -> None:
    """Two screens and twelve phones behind one router drop off three times (the pages
    reconnect by themselves) at a clock held still: every handshake is taken; the
    allowance is a bound all the same."""
    # the defaults, but for the bar's own setting: twelve seats of one lobby an address
    app = create_app(tmp_path / "party.sqlite", clock=clock, seats_per_address=PHONES)
    devices = PHONES + 2
    with at(app, ROUTER) as tc:
        room = tc.post("/api/rooms", json={"game": "derby"}).json()
        code = room["code"]
        tokens: list[str | None] = [room["host_token"], None]
        for k in range(PHONES):
            tokens.append(tc.post(f"/api/rooms/{code}/join",
                                  json={"name": f"Guest {k + 1}"}).json()["token"])
        held = [Client(tc, code, token) for token in tokens]
        for _ in range(3):  # the wifi drops; every page reconnects
            for client in held:
                client.close()
            held = [Client(tc, code, token, since=c.seq)
                    for c, token in zip(held, tokens, strict=True)]
            assert all(c.welcome["type"] == "welcome" for c in held)
        opened = 4 * devices
        assert opened <= HANDSHAKE_BURST
        for client in held:
            client.close()
        for _ in range(HANDSHAKE_BURST - opened):  # the rest of the allowance
            Client(tc, code, None).close()
        with pytest.raises(WebSocketDenialResponse) as refused:
            tc.websocket_connect(f"/ws/{code}").__enter__()
        assert refused.value.status_code == 429
        clock.now += 1 / HANDSHAKE_RATE
        assert Client(tc, code, None).welcome["type"] == "welcome"


def test_an_intent_refused_before_the_room_is_touched_needs_no_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spectator's intent or a kind its sender may not send is refused without putting
    the room back from its log (a flood of them cost a replay each); a refusal of the rules
    after the room was touched still puts it back."""
    import raceday.web.rooms as rooms_module
    from raceday.rooms import Actor, RoomError
    from raceday.web.rooms import Rooms

    replays: list[int] = []
    real = rooms_module.replay

    def counted(*args: Any) -> Any:
        replays.append(1)
        return real(*args)

    monkeypatch.setattr(rooms_module, "replay", counted)
    rooms = Rooms(tmp_path / "party.sqlite")
    room, _ = rooms.create("derby", {})
    before, revision = room.logic.to_json(), room.revision
    for actor, intent in ((Actor.spectator(), {"type": "ticket"}),
                          (Actor.host(), {"type": "no such kind"}),
                          (Actor.player(0), {"type": "no such kind"})):
        with pytest.raises(RoomError):
            rooms.apply(room, actor, intent)
    assert replays == [] and room.logic.to_json() == before and room.revision == revision
    with pytest.raises(RoomError):  # the rules refuse it: no one has a seat yet
        rooms.apply(room, Actor.host(), {"type": "start"})
    assert replays == [1] and room.logic.to_json() == before
