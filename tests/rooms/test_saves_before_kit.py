"""Room databases written by the per-game rooms before the room kit (tests/fixtures/saves/
rooms_before_kit.*: a Hairpin game of two phones, a Hairpin game against the computer with
moves to undo, a PISTARD race of a phone, a computer and the host screen) load with the
kit, show what the old code showed, and play on to the end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from raceday.present import render
from raceday.rooms import Actor
from raceday.web.rooms import Room, Rooms

SAVES = Path(__file__).parents[1] / "fixtures" / "saves"
BEFORE = json.loads((SAVES / "rooms_before_kit.json").read_text(encoding="utf-8"))


@pytest.fixture
def rooms(tmp_path: Path) -> Rooms:
    db = tmp_path / "party.sqlite"
    shutil.copy(SAVES / "rooms_before_kit.sqlite", db)
    return Rooms(db)


# Fields the old views wrote in English that the views now send as a message to render:
# the old field's text must be what the message says in English.
AS_MESSAGES = {"warning": "warning_message"}


def same_as_before(old: Any, new: Any, where: str = "view") -> None:
    """Every field the old view had is there with the same value (a dict, also one in a
    list, may have gained fields, such as the board frame's or a move's message), or, for
    an English sentence the view now sends as a message, a message that says it."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key in AS_MESSAGES and key not in new:
                message = new[AS_MESSAGES[key]]
                said = None if message is None else render(
                    message["key"], "en", "hairpin", message.get("params"))
                assert said == value, f"{where}.{key}"
                continue
            assert key in new, f"{where}.{key}"
            same_as_before(value, new[key], f"{where}.{key}")
    elif isinstance(old, list) and isinstance(new, list):
        assert len(new) == len(old), where
        for k, (was, now) in enumerate(zip(old, new, strict=True)):
            same_as_before(was, now, f"{where}[{k}]")
    else:
        assert new == old, where


def play_on(rooms: Rooms, room: Room, field: str, choices: str) -> None:
    steps = 0
    while not room.logic.finished():
        if room.logic.next_tick() is not None:  # a computer's move, on the timeline
            rooms.apply(room, Actor.timeline(), {"type": "tick"})
            continue
        view = room.logic.view(Actor.host())
        actor = Actor.host() if view[field.replace("to_", "may_")] else next(
            Actor.player(s) for s in range(len(room.logic.seat_names()))
            if room.logic.view(Actor.player(s))[field.replace("to_", "may_")])
        items = view[choices] if choices == "moves" else (
            view[choices]["items"] or [view[choices]["stay"]])
        rooms.apply(room, actor, {"type": "move", "action": items[-1]["action"]})
        steps += 1
        assert steps < 1000


@pytest.mark.parametrize("name", ["hairpin", "hairpin_vs_computer"])
def test_a_hairpin_room_saved_before_the_kit_resumes(rooms: Rooms, name: str) -> None:
    saved = BEFORE[name]
    room = rooms.get(saved["code"])
    assert room.revision == saved["revision"]
    view = room.logic.view(Actor.host())
    same_as_before(saved["host_view"], view)
    assert view["board"]["text"] == saved["text"]
    if name == "hairpin_vs_computer":
        assert view["may_undo"]
        rooms.apply(room, Actor.host(), {"type": "undo"})
        assert room.logic.view(Actor.host())["board"]["ply"] < view["board"]["ply"]
    play_on(rooms, room, "to_move", "moves")
    assert room.logic.view(Actor.host())["result"]["termination"] in ("laps", "disqualified")


def test_a_pistard_room_saved_before_the_kit_resumes(rooms: Rooms) -> None:
    saved = BEFORE["pistard"]
    room = rooms.get(saved["code"])
    assert room.revision == saved["revision"]
    view = room.logic.view(Actor.host())
    same_as_before(saved["host_view"], view)
    assert view["riders"] == saved["riders"]
    play_on(rooms, room, "to_act", "choices")
    result = room.logic.view(Actor.host())["result"]
    assert sorted(r["rider"] for r in result["ranking"]) == [11, 21, 31]
