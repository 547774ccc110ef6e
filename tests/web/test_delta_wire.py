"""Deltas on the wire: over a whole Dice Derby evening a client that asked for patches
("delta": true) holds, at every revision, exactly the view a full-view client is sent, also
across a reconnect (whose welcome brings the whole view); it receives at least five times
fewer bytes per update than whole views as the server first sent them (encoded by the
standard library, with spaces: the protocol before deltas); clients that did not ask get
whole views as before."""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from raceday.rooms import Actor
from raceday.web.delta import apply_patch
from tests.web.conftest import OPEN, Client, join, new_room, serving
from tests.web.test_party import seat_intent

NAMES = ["Aki", "Ben", "Chie"]
MAX_FRAMES = 5000  # a hang guard: a whole evening is a few hundred updates


class CountingClient(Client):
    """A client counting the bytes of its updates; ``take`` keeps each update's view."""

    update_bytes = 0
    updates = 0
    first_protocol_bytes = 0  # the same updates, as the server sent them before deltas

    def receive(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        msg = json.loads(text)
        self.messages.append(msg)
        if msg["type"] == "update":
            self.updates += 1
            self.update_bytes += len(text.encode())
            self.first_protocol_bytes += len(json.dumps(msg).encode())
            self.take(msg)
            self.seq = msg["seq"]
            self.events.extend(msg["events"])
        return msg

    def take(self, msg: dict[str, Any]) -> None:
        raise NotImplementedError


class DeltaClient(CountingClient):
    """A client that opts in to deltas and applies each patch to its copy of the view."""

    def __init__(self, tc: TestClient, code: str, token: str | None, since: int = -1) -> None:
        self.closed = False
        OPEN.append(self)
        self._cm = tc.websocket_connect(f"/ws/{code}")
        self.ws = self._cm.__enter__()
        self.ws.send_json({"type": "hello", "token": token, "since": since, "delta": True})
        self.welcome = self.ws.receive_json()
        self.view = self.welcome["view"]
        self.seq = self.welcome["seq"]
        self.events = []
        self.messages = [self.welcome]
        self.ref = 0
        self.patched = 0  # updates that came as patches

    def take(self, msg: dict[str, Any]) -> None:
        if "patch" in msg:
            assert msg["base"] == self.seq, (msg["base"], self.seq)
            self.view = apply_patch(self.view, msg["patch"])
            self.patched += 1
        else:
            self.view = msg["view"]


class FullClient(CountingClient):
    """A client of the old protocol."""

    def take(self, msg: dict[str, Any]) -> None:
        assert "view" in msg and "patch" not in msg and "base" not in msg
        self.view = msg["view"]


def exact(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def test_a_delta_client_sees_every_view_a_full_client_does(db: Path) -> None:
    with serving(db) as tc:
        room = new_room(tc, races=4)
        code = room["code"]
        tokens = [join(tc, code, n)["token"] for n in NAMES]
        server_room = tc.app.state.rooms.rooms[code]  # type: ignore[attr-defined]
        actors = [Actor.host(), Actor.spectator(), *(Actor.player(i) for i in range(3))]
        expected = record(tc, code, actors)
        # the server's dice go as fast as it can throw them (no pace to wait for)
        next_tick = server_room.logic.next_tick
        server_room.logic.next_tick = lambda: None if next_tick() is None else 0.0

        host = FullClient(tc, code, room["host_token"])
        watcher = FullClient(tc, code, None)
        ben = FullClient(tc, code, tokens[1])
        spectator = DeltaClient(tc, code, None)
        aki = DeltaClient(tc, code, tokens[0])
        chie = DeltaClient(tc, code, tokens[2])
        seats: list[Client] = [aki, ben, chie]
        checked = {"spectator": 0, "aki": 0, "chie": 0}
        reconnected = False

        def catch_up(seq: int) -> None:
            nonlocal spectator, aki
            for c in [host, watcher, *seats, spectator]:
                while c.seq < seq:
                    c.receive()
                    assert len(c.messages) < MAX_FRAMES
                    if isinstance(c, DeltaClient) and c.messages[-1]["type"] == "update":
                        role = (Actor.spectator() if c is spectator
                                else Actor.player(seats.index(c)))
                        assert exact(c.view) == expected[c.seq][role], (role, c.seq)
                        checked["spectator" if c is spectator else NAMES[seats.index(c)]
                                .lower()] += 1
            assert exact(watcher.view) == expected[watcher.seq][Actor.spectator()]

        ack = host.send({"type": "start", "computers": 2})
        catch_up(ack["seq"])
        while host.view["phase"] != "finished":
            acted = False
            for i, c in enumerate(seats):
                intent = seat_intent(c.view, i)
                if intent is not None:
                    answer = c.send(intent)
                    assert answer["type"] == "ack", answer
                    catch_up(answer["seq"])
                    acted = True
                    break
            if not acted:  # a race runs on the server's clock: follow it
                assert host.view["phase"] == "racing", host.view["phase"]
                host.receive()
                assert len(host.messages) < MAX_FRAMES
                catch_up(host.seq)
            if not reconnected and host.view["phase"] == "racing" and host.view["race"] == 2:
                # mid-race, two delta clients leave and come back: whole views first
                reconnected = True
                seq = aki.seq
                aki.close()
                spectator.close()
                aki = DeltaClient(tc, code, tokens[0], since=seq)
                spectator = DeltaClient(tc, code, None, since=seq)
                seats[0] = aki
                for c in (aki, spectator):
                    assert "view" in c.welcome
                    role = Actor.spectator() if c is spectator else Actor.player(0)
                    assert exact(c.view) == expected[c.seq][role]
        catch_up(max(expected))
        assert reconnected
        assert all(n >= 40 for n in checked.values()), checked  # a whole evening
        assert aki.patched == aki.updates > 20  # patches, not whole views, after the welcome
        # bytes per update: at least five times fewer than whole views were
        for delta, full in ((spectator, watcher), (chie, ben)):
            before = full.first_protocol_bytes / full.updates
            ratio = before / (delta.update_bytes / delta.updates)
            print(f"bytes per update: {before:.0f} whole as first sent, "
                  f"{full.update_bytes / full.updates:.0f} whole now, "
                  f"{delta.update_bytes / delta.updates:.0f} patched ({ratio:.1f}x)")
            assert full.update_bytes <= full.first_protocol_bytes
            assert ratio >= 5, ratio


def record(tc: TestClient, code: str, actors: list[Actor]) -> dict[int, dict[Actor, str]]:
    """What a full-view client of each of ``actors`` is sent at each revision of the room
    (its logic's view when the update goes out), filled in as the server broadcasts."""
    hub = tc.app.state.hub  # type: ignore[attr-defined]
    expected: dict[int, dict[Actor, str]] = {}
    broadcast = hub.broadcast

    def recording(room: Any, events: list[Any]) -> tuple[int, int]:
        if room.code == code:
            expected[room.revision] = {a: exact(room.logic.view(a)) for a in actors}
        return broadcast(room, events)

    hub.broadcast = recording
    return expected


def test_a_game_with_one_view_per_actor_is_patched_too(db: Path) -> None:
    """Hairpin Racers (no public/private split): each actor's whole view is diffed."""
    from tests.web.test_hairpin_room import best_move, fast_app, new_hairpin

    with TestClient(fast_app(db)) as tc:
        room = new_hairpin(tc, variant="short", red="human", black="human")
        code = room["code"]
        aki, ben = join(tc, code, "Aki"), join(tc, code, "Ben")
        expected = record(tc, code, [Actor.spectator(), Actor.player(0)])
        host = FullClient(tc, code, room["host_token"])
        red, black = DeltaClient(tc, code, aki["token"]), FullClient(tc, code, ben["token"])
        spectator, watcher = DeltaClient(tc, code, None), FullClient(tc, code, None)
        everyone: list[Client] = [host, red, black, spectator, watcher]
        try:
            assert host.send({"type": "start"})["type"] == "ack"
            for c in everyone:
                c.until(host.seq)
            # the start changes most of the view: it may come whole; every move is a patch
            for c in (red, spectator):
                c.patched = c.updates = 0
            for _ in range(20):
                seat = red if red.view["may_move"] else black
                answer = seat.send({"type": "move", "action": best_move(seat.view)})
                assert answer["type"] == "ack", answer
                for c in everyone:
                    while c.seq < answer["seq"]:
                        c.receive()
                        if c is red and c.messages[-1]["type"] == "update":
                            assert exact(red.view) == expected[red.seq][Actor.player(0)]
                assert exact(spectator.view) == exact(watcher.view)
                if host.view["phase"] == "finished":
                    break
            assert red.patched == red.updates >= 10
            assert spectator.patched == spectator.updates >= 10
        finally:
            for c in everyone:
                c.close()


def test_only_a_true_delta_asks_for_patches(client: TestClient) -> None:
    room = new_room(client)
    code = room["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None, "since": -1, "delta": "yes"})
        assert ws.receive_json()["type"] == "welcome"
        join(client, code, "Aki")
        update = ws.receive_json()
        assert update["type"] == "update"
        assert "view" in update and "patch" not in update and "base" not in update


class Lane(enum.IntEnum):
    INSIDE = 1


class Word(str):
    """A str of the game's own (marshal takes only plain str; JSON writes it as one)."""


def test_views_with_enums_and_other_subclasses_still_go_out(client: TestClient) -> None:
    """A view may hold values json writes but marshal refuses (an IntEnum, a subclass of
    str): every client is still sent every update, as those plain values."""
    room = new_room(client)
    code = room["code"]
    logic = client.app.state.rooms.rooms[code].logic  # type: ignore[attr-defined]
    public_view = logic.public_view
    logic.public_view = lambda: {**public_view(), "lane": Lane.INSIDE, "word": Word("w")}
    full = FullClient(client, code, None)
    delta = DeltaClient(client, code, None)
    join(client, code, "Aki")
    join(client, code, "Ben")
    for c in (full, delta):
        c.until(3)
        assert c.view["lane"] == 1 and c.view["word"] == "w"
        assert c.view["seats"] == ["Aki", "Ben"]
    assert exact(full.view) == exact(delta.view)
