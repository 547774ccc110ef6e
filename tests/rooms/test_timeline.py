"""The kit's timeline: paced steps (a race's dice, a computer's move) wait for the room's
pace and are played only by the server's ``tick``; the host sets the pace, pauses, resumes
and skips; a refused pace changes nothing; pace and pause are saved, and rooms saved
before the timeline load with the class's pace."""

from __future__ import annotations

import json

import numpy as np
import pytest

from raceday.rooms import HUMAN, Actor, RoomError
from tests.rooms.test_party_room import GuessRoom
from tests.rooms.test_turn_room import DashRoom
from tests.rooms.toy import GuessState

HOST, TIMELINE = Actor.host(), Actor.timeline()


class PacedGuessRoom(GuessRoom):
    """The kit's toy party room, its throw paced instead of waiting for the host."""

    allows_undo = False
    default_pace = 1.5

    def waits_for_host(self, state: GuessState) -> bool:
        return False

    def paces(self, state: GuessState) -> bool:
        return True


class PacedDashRoom(DashRoom):
    """The kit's toy turn-based room, the computer's moves paced."""

    max_seats = 1
    paced_computers = True


def started() -> tuple[PacedGuessRoom, np.random.Generator]:
    room = PacedGuessRoom.create({"rounds": 1}, 1)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(3)
    room.handle(HOST, {"type": "start"}, rng)
    return room, rng


def guessed() -> tuple[PacedGuessRoom, np.random.Generator]:
    """A started room where every seat has guessed: the next step is the paced throw."""
    room, rng = started()
    room.handle(Actor.player(0), {"type": "act", "action": 1}, rng)
    room.handle(Actor.player(1), {"type": "act", "action": 2}, rng)
    return room, rng


def test_a_paced_throw_waits_for_the_timeline_and_only_the_server_plays_it() -> None:
    room = PacedGuessRoom.create({"rounds": 1}, 1)
    assert room.next_tick() is None  # the lobby waits for people
    room, rng = guessed()
    assert room.state is not None and room.state.is_chance_node()  # not drawn with the act
    assert room.next_tick() == 1.5
    timeline = room.public_view()["timeline"]
    assert timeline == {"pace": 1.5, "paused": False, "running": True}
    for who in (HOST, Actor.player(0), Actor.spectator()):
        with pytest.raises(RoomError):
            room.handle(who, {"type": "tick"}, rng)
    events = room.handle(TIMELINE, {"type": "tick"}, rng)
    assert [e["type"] for e in events] == ["thrown"]
    assert room.finished() and room.next_tick() is None
    assert room.public_view()["timeline"]["running"] is False


def test_a_tick_or_skip_with_nothing_paced_is_refused_and_changes_nothing() -> None:
    room, rng = started()  # the seats are guessing
    before = json.dumps(room.to_json())
    with pytest.raises(RoomError, match="no paced step"):
        room.handle(TIMELINE, {"type": "tick"}, rng)
    with pytest.raises(RoomError, match="nothing to skip"):
        room.handle(HOST, {"type": "skip"}, rng)
    assert json.dumps(room.to_json()) == before


def test_the_host_sets_the_pace_pauses_resumes_and_skips() -> None:
    room, rng = guessed()
    assert room.handle(HOST, {"type": "pace", "seconds": 0.5}, rng) == [
        {"type": "pace", "seconds": 0.5}]
    assert room.next_tick() == 0.5
    for bad in (0, 0.1, 11, float("nan")):
        with pytest.raises(RoomError, match="seconds a step"):
            room.handle(HOST, {"type": "pace", "seconds": bad}, rng)
    for bad in ("1", True, None):  # not a number: the kit's check of the intent says so
        with pytest.raises(RoomError, match="seconds has the wrong type"):
            room.handle(HOST, {"type": "pace", "seconds": bad}, rng)
    assert room.pace == 0.5
    with pytest.raises(RoomError):
        room.handle(Actor.player(0), {"type": "pause"}, rng)
    room.handle(HOST, {"type": "pause"}, rng)
    assert room.next_tick() is None and room.public_view()["timeline"]["paused"]
    room.handle(HOST, {"type": "resume"}, rng)
    assert room.next_tick() == 0.5
    # skip: every paced step up to the next choice (here the end), at once
    events = room.handle(HOST, {"type": "skip"}, rng)
    assert [e["type"] for e in events] == ["thrown"]
    assert room.finished() and room.next_tick() is None


def test_pace_and_pause_are_saved_and_older_rooms_load_with_the_class_pace() -> None:
    room, rng = guessed()
    room.handle(HOST, {"type": "pace", "seconds": 3}, rng)
    room.handle(HOST, {"type": "pause"}, rng)
    back = PacedGuessRoom.from_json(json.loads(json.dumps(room.to_json())))
    assert (back.pace, back.paused, back.next_tick()) == (3.0, True, None)
    old = room.to_json()
    del old["pace"], old["paused"]
    before = PacedGuessRoom.from_json(old)
    assert (before.pace, before.paused, before.next_tick()) == (1.5, False, 1.5)
    old["pace"] = "fast"
    with pytest.raises(RoomError, match="seconds a step"):
        PacedGuessRoom.from_json(old)


def test_a_computers_move_comes_on_the_next_tick_with_thinking_shown() -> None:
    room = PacedDashRoom.create({"players": [HUMAN, "runner"]}, 1)
    room.add_seat("Aki")
    rng = np.random.default_rng(11)
    room.handle(HOST, {"type": "start"}, rng)
    state = room.state
    assert state is not None and state.current_player() == 0
    assert room.next_tick() is None and not room.view(HOST)["thinking"]
    events = room.handle(Actor.player(0), {"type": "move", "action": 1}, rng)
    # the human's move and the throw for the computer; its own move waits
    assert [e["type"] for e in events] == ["move", "throw"]
    assert state.current_player() == 1 and room.next_tick() == room.default_pace
    assert room.view(HOST)["thinking"] and room.view(Actor.player(0))["to_act"] == 1
    events = room.handle(TIMELINE, {"type": "tick"}, rng)
    assert events[0]["type"] == "move" and events[0]["by"] == 1
    assert state.current_player() == 0 and room.next_tick() is None
