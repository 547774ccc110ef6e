"""Rooms are records: the room kit writes down every move of the state it plays
(``RoomBase.recorder``), keeps the moves in the room's JSON so they outlive a restart,
takes them back with an undo, and :func:`raceday.rooms.record.room_record` gives the
game's record, which the rules replay to the very state the room stands at."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from raceday.core.record import check_text, parse_record
from raceday.rooms import Actor, RoomError, logic_class
from raceday.rooms.record import room_record

HOST, TIMELINE = Actor.host(), Actor.timeline()


def checked(room: Any) -> Any:
    """The room's record: it passes check_text, replays to the room's state, and a room
    read back from its JSON keeps the same moves."""
    record = room_record(room)
    (done,) = check_text(record.text())
    assert done.state.to_json() == room.state.to_json()
    back = type(room).from_json(json.loads(json.dumps(room.to_json())))
    assert room_record(back).moves == record.moves
    assert back.state.to_json() == room.state.to_json()
    return record


def test_a_hairpin_game_with_undo_is_recorded_move_by_move() -> None:
    room = logic_class("hairpin").create({"red": "human", "black": "easy"}, 1)
    with pytest.raises(RoomError, match="no record"):
        room_record(room)  # the lobby: no game yet
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start"}, rng)
    choose = random.Random(1)
    undone = 0
    for step in range(400):
        if room.finished():
            break
        if room.next_tick() is not None:  # the computer's move, at the room's pace
            room.handle(TIMELINE, {"type": "tick"}, rng)
            checked(room)
            continue
        view = room.view(HOST)
        if step in (6, 7, 15) and view["may_undo"]:
            moves = len(room_record(room).moves)
            room.handle(HOST, {"type": "undo"}, rng)
            assert len(room_record(room).moves) < moves  # the moves left the record
            undone += 1
        else:
            room.handle(HOST, {"type": "move", "action": choose.choice(view["moves"])["action"]},
                        rng)
        checked(room)
    assert room.finished() and undone >= 2
    record = checked(room)
    assert record.tags["Face"] == "room" and record.result != "*"
    assert record.seats == [{"name": "Red", "player": "human"},
                            {"name": "Black", "player": "easy"}]
    assert "Start" not in record.tags  # every move from the first position is known
    again = room.handle(HOST, {"type": "again"}, rng)
    assert again[0]["type"] == "again"
    assert room_record(room).result == "*"  # a new game, a new record
    assert room_record(room).moves != record.moves


def _derby_intent(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    me = view.get("me", {})
    if me.get("may_bid") and me.get("sealed_bid") is None:
        return {"type": "bid", "amount": [3000, 2000][seat]}
    if me.get("may_bet"):
        if not me["tickets"]:
            return {"type": "ticket", "kind": "win", "horses": ["d20"], "stake": 500}
        return {"type": "done"}
    return None


def test_a_derby_evening_is_recorded_as_derby_evening() -> None:
    room = logic_class("derby").create({}, 1)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(3)
    room.handle(HOST, {"type": "start", "computers": 2}, rng)
    for step in range(600):
        if room.finished():
            break
        for seat in (0, 1):
            intent = _derby_intent(room.view(Actor.player(seat)), seat)
            if intent is not None:
                room.handle(Actor.player(seat), intent, rng)
                break
        else:
            assert room.next_tick() is not None, "nobody can act"
            room.handle(TIMELINE, {"type": "tick"}, rng)
        if step % 25 == 0:
            checked(room)
    assert room.finished()
    record = checked(room)
    assert record.game == "derby_evening" and record.result != "*"
    assert [s["name"] for s in record.seats] == ["Aki", "Ben"]
    assert any(m.who == "chance" for m in record.moves)


def test_a_keirin_night_records_the_night_not_the_screens_copy() -> None:
    room = logic_class("keirin").create({"races": 1}, 1)
    for name in ("Aki", "Ben"):
        room.add_seat(name)
    rng = np.random.default_rng(9)
    room.handle(HOST, {"type": "start"}, rng)
    for _ in range(400):
        if room.finished():
            break
        betting = [seat for seat in (0, 1) if room.view(Actor.player(seat))["me"].get(
            "may_bet") and not room.view(Actor.player(seat))["me"].get("done")]
        if betting:
            room.handle(Actor.player(betting[0]), {"type": "done"}, rng)
        elif room.next_tick() is not None:
            room.handle(TIMELINE, {"type": "tick"}, rng)
        else:
            room.handle(HOST, {"type": "advance"}, rng)
        # while the curtain shows the finish (a clone of the night), the record is the
        # night's own: it replays to the state, not to what the screens show
        checked(room)
    assert room.finished()
    assert checked(room).game == "keirin_night"


def test_a_wielersim_watch_room_is_recorded() -> None:
    room = logic_class("wielersim").create({"route": "flat-stage", "peloton": "small",
                                            "seed": 5}, 99)
    room.handle(HOST, {"type": "start"}, np.random.default_rng(1))
    for _ in range(4):
        room.handle(TIMELINE, {"type": "tick"}, np.random.default_rng(2))
    record = checked(room)
    assert record.game == "wielersim" and record.moves


def test_a_room_saved_before_records_starts_its_record_where_it_stood() -> None:
    room = logic_class("hairpin").create({"red": "human", "black": "human"}, 1)
    rng = np.random.default_rng(2)
    room.handle(HOST, {"type": "start"}, rng)
    for _ in range(3):
        room.handle(HOST, {"type": "move", "action": room.view(HOST)["moves"][0]["action"]},
                    rng)
    old = room.to_json()
    for key in ("record", "resume", "undo_marks"):  # what today's rooms did not save
        del old[key]
    back = type(room).from_json(old)
    record = room_record(back)
    assert record.moves == [] and record.tags["Start"] == room.state.to_json()
    back.handle(HOST, {"type": "move", "action": back.view(HOST)["moves"][0]["action"]}, rng)
    (done,) = check_text(room_record(back).text())
    assert done.state.to_json() == back.state.to_json()
    assert len(parse_record(room_record(back).text()).moves) >= 1
