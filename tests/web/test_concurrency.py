"""A room busy applying an intent (a computer thinking) does not hold up the other rooms."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.games.derby.room import DerbyRoom
from raceday.web.rooms import RoomError
from tests.web.conftest import Client, new_room

HANG_GUARD = 60  # seconds; only a room that blocks the others ever waits this long


def test_a_slow_room_does_not_hold_up_another(client: TestClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """An ordering fact, not a timing: the slow room's intent (a computer thinking) stays
    inside the room until the test lets it go, and the test lets it go only after the
    other room has answered. Had the slow room held up the other, the other's answer could
    only come after the hang guard released the slow intent, which the test sees."""
    original = DerbyRoom.handle
    napping = threading.Event()
    wake = threading.Event()

    def handle(self: DerbyRoom, actor: Any, intent: Mapping[str, Any], rng: Any) -> Any:
        if intent.get("type") == "nap":
            napping.set()
            wake.wait(HANG_GUARD)
            raise RoomError("woke up" if wake.is_set() else "woken by the hang guard")
        return original(self, actor, intent, rng)

    monkeypatch.setattr(DerbyRoom, "handle", handle)
    slow_room, quick_room = new_room(client), new_room(client)
    slow = Client(client, slow_room["code"], slow_room["host_token"])
    quick = Client(client, quick_room["code"], quick_room["host_token"])
    answers: dict[str, Any] = {}
    sleeper = threading.Thread(target=lambda: answers.update(nap=slow.send({"type": "nap"})))
    guard = threading.Timer(HANG_GUARD, wake.set)  # a hang guard, far above normal
    guard.start()
    try:
        sleeper.start()
        assert napping.wait(HANG_GUARD), "the slow intent never reached the room"
        answer = quick.send({"type": "start", "computers": 3})  # the other room, meanwhile
        answered_while_napping = not wake.is_set() and "nap" not in answers
        wake.set()
        sleeper.join(HANG_GUARD)
    finally:
        guard.cancel()
        wake.set()
    assert answer["type"] == "ack", answer
    assert answered_while_napping, "the other room answered only after the slow one woke"
    assert answers["nap"]["type"] == "error" and answers["nap"]["message"] == "woke up", answers


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
