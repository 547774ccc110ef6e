"""A room busy applying an intent (a computer thinking) does not hold up the other rooms."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.web.derby_room import DerbyRoom
from raceday.web.rooms import RoomError
from tests.web.conftest import Client, new_room

NAP = 1.5  # seconds the slow intent takes (as long as a thinking computer player)


def test_a_slow_room_does_not_hold_up_another(client: TestClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    original = DerbyRoom.handle
    napping = threading.Event()

    def handle(self: DerbyRoom, actor: Any, intent: Mapping[str, Any], rng: Any) -> Any:
        if intent.get("type") == "nap":
            napping.set()
            time.sleep(NAP)
            raise RoomError("woke up")
        return original(self, actor, intent, rng)

    monkeypatch.setattr(DerbyRoom, "handle", handle)
    slow_room, quick_room = new_room(client), new_room(client)
    slow = Client(client, slow_room["code"], slow_room["host_token"])
    quick = Client(client, quick_room["code"], quick_room["host_token"])
    answers: dict[str, Any] = {}

    def nap() -> None:
        start = time.monotonic()
        answers["nap"] = slow.send({"type": "nap"})
        answers["nap_seconds"] = time.monotonic() - start

    sleeper = threading.Thread(target=nap)
    sleeper.start()
    assert napping.wait(10), "the slow intent never reached the room"
    start = time.monotonic()
    answer = quick.send({"type": "start", "computers": 3})  # the other room, meanwhile
    quick_seconds = time.monotonic() - start
    still_napping = sleeper.is_alive()
    sleeper.join(20)
    assert answer["type"] == "ack", answer
    assert still_napping and quick_seconds < NAP / 2, quick_seconds
    assert answers["nap"]["type"] == "error" and "woke up" in answers["nap"]["message"]
    assert answers["nap_seconds"] >= NAP


def test_one_room_applies_its_intents_one_at_a_time(client: TestClient,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Two clients of one room: the second intent waits for the first (the room's lock
    holds across the worker thread), and both come back in order."""
    original = DerbyRoom.handle
    inside = 0
    most = 0
    guard = threading.Lock()

    def handle(self: DerbyRoom, actor: Any, intent: Mapping[str, Any], rng: Any) -> Any:
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        try:
            time.sleep(0.3)
            return original(self, actor, intent, rng)
        finally:
            with guard:
                inside -= 1

    monkeypatch.setattr(DerbyRoom, "handle", handle)
    room = new_room(client)
    host = Client(client, room["code"], room["host_token"])
    other = Client(client, room["code"], room["host_token"])
    answers: list[dict[str, Any]] = []
    threads = [threading.Thread(target=lambda c=c: answers.append(c.send({"type": "nap"})))
               for c in (host, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert len(answers) == 2 and all(a["type"] == "error" for a in answers), answers
    assert most == 1
