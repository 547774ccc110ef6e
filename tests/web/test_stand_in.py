"""Replacing a player who left, through the server: the server knows which seats have a
phone connected, so the host may give only an absent seat to a computer; the person's
phone, back with its key, waits until the host hands the seat back; a restart keeps the
stand-in."""

from __future__ import annotations

from pathlib import Path

import pytest

from raceday.web.hub import Hub
from tests.web.conftest import Client, join, new_room, serving


def test_the_host_gives_a_left_seat_to_a_computer_and_back(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Hub, "presence_grace", 0.05)  # a phone counts as gone at once
    with serving(db) as tc:
        room = new_room(tc, races=4)
        code = room["code"]
        tokens = [join(tc, code, name)["token"] for name in ("Aki", "Ben")]
        host = Client(tc, code, room["host_token"])
        aki, ben = (Client(tc, code, t) for t in tokens)
        assert host.send({"type": "start", "computers": 0})["type"] == "ack"
        present = host.send({"type": "replace", "seat": 1, "level": "cautious"})
        assert present["type"] == "error"
        assert present["words"]["key"] == "refusal.seat_present"
        ben.close()  # Ben's phone leaves: the server tells the room
        while host.view["away"] != [1]:
            host.receive()
        assert host.events[-1] == {"type": "seat_left", "seat": 1, "name": "Ben"}
        ack = host.send({"type": "replace", "seat": 1, "level": "cautious"})
        assert ack["type"] == "ack", ack
        assert host.view["stand_ins"] == [{"seat": 1, "level": "cautious"}]
        assert host.events[-1]["type"] == "stand_in"
        assert host.view["players"][1]["name"] == "Ben"  # the seat keeps its name
        first = host.view["auction"]["horse"]
        assert aki.send({"type": "bid", "amount": 0})["type"] == "ack"
        host.until(aki.seq)
        assert host.view["auction"]["horse"] != first  # the computer sealed Ben's bid
        back = Client(tc, code, tokens[1])  # Ben is back with his key
        refused = back.send({"type": "bid", "amount": 0})
        assert refused["type"] == "error" and refused["words"]["key"] == "refusal.stood_in"
    with serving(db) as tc:  # a restart keeps the stand-in
        host = Client(tc, code, room["host_token"])
        assert host.view["stand_ins"] == [{"seat": 1, "level": "cautious"}]
        while host.view["away"] != [0, 1]:  # after a restart nobody's phone is back yet
            host.receive()
        away = host.send({"type": "hand_back", "seat": 1})
        assert away["type"] == "error" and away["words"]["key"] == "refusal.still_away"
        back = Client(tc, code, tokens[1])
        while host.view["away"] != [0]:
            host.receive()
        assert host.send({"type": "hand_back", "seat": 1})["type"] == "ack"
        assert host.view["stand_ins"] == [] and host.events[-1]["type"] == "handed_back"
        again = back.send({"type": "bid", "amount": 0})  # Ben's intents count again
        assert again["type"] == "ack" or again["words"]["key"] != "refusal.stood_in"
