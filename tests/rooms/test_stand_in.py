"""Replacing a player who left: the host gives an absent seat to a computer at a level, the
computer plays that seat's turns, and the host hands it back once the person is back; the
refusals change nothing, and the stand-in survives a save (older saves have none)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from raceday.games.derby.room import DerbyRoom
from raceday.games.keirin.room import KeirinRoom
from raceday.rooms import Actor, RefusedUnread, RoomError
from tests.rooms.test_again import two_phones
from tests.rooms.test_party_room import seated
from tests.rooms.test_turn_room import DashRoom, roundtrip
from tests.rooms.toy import GO

HOST, AKI, BEN = Actor.host(), Actor.player(0), Actor.player(1)


def dash_for_two() -> tuple[DashRoom, np.random.Generator]:
    return two_phones(target=30, seed=3)


def refused(room: object, actor: Actor, intent: dict[str, object],
            rng: np.random.Generator) -> str:
    """The message key of the refusal of ``intent``; the room's save is unchanged."""
    assert isinstance(room, DashRoom | DerbyRoom | KeirinRoom)
    before = json.dumps(room.to_json())
    with pytest.raises((RoomError, RefusedUnread)) as caught:
        room.handle(actor, intent, rng)
    assert json.dumps(room.to_json()) == before
    message = caught.value.message
    assert message is not None
    return message.key


def test_a_computer_plays_the_absent_seat_until_the_host_hands_it_back() -> None:
    room, rng = dash_for_two()
    room.present = {0, 1}
    assert refused(room, HOST, {"type": "replace", "seat": 1, "level": "runner"}, rng) == \
        "refusal.seat_present"
    room.present = {0}  # Ben's phone closed
    assert room.view(HOST)["away"] == [1]
    assert refused(room, HOST, {"type": "replace", "seat": 1, "level": "hard"}, rng) == \
        "refusal.unknown_level"
    assert refused(room, HOST, {"type": "replace", "seat": 5, "level": "runner"}, rng) == \
        "refusal.no_such_seat"
    assert refused(room, AKI, {"type": "replace", "seat": 1, "level": "runner"}, rng) == \
        "refusal.cannot_send"
    events = room.handle(HOST, {"type": "replace", "seat": 1, "level": "runner"}, rng)
    assert events[0] == {"type": "stand_in", "seat": 1, "name": "Ben", "level": "runner",
                         "computer": {"key": "level_runner", "params": {}}}
    assert room.view(HOST)["stand_ins"] == [{"seat": 1, "level": "runner"}]
    assert refused(room, HOST, {"type": "replace", "seat": 1, "level": "runner"}, rng) == \
        "refusal.stood_in_already"
    room = roundtrip(room)  # the stand-in is saved with the room
    room.present = {0}
    # Aki moves; the computer answers for Ben's place at once (the toy room is not paced)
    assert room.view(AKI)["may_act"]
    events = room.handle(AKI, {"type": "move", "action": GO}, rng)
    moves = [e for e in events if e["type"] == "move"]
    assert moves[-1]["by"] == 1 and not moves[-1]["forced"]
    assert room.view(AKI)["may_act"] and not room.view(BEN)["may_act"]
    assert refused(room, BEN, {"type": "move", "action": GO}, rng) == "refusal.stood_in"
    assert refused(room, HOST, {"type": "hand_back", "seat": 1}, rng) == "refusal.still_away"
    assert refused(room, HOST, {"type": "hand_back", "seat": 0}, rng) == "refusal.not_stood_in"
    room.present = {0, 1}  # Ben is back
    events = room.handle(HOST, {"type": "hand_back", "seat": 1}, rng)
    assert events == [{"type": "handed_back", "seat": 1, "name": "Ben"}]
    assert room.view(HOST)["stand_ins"] == []
    room.handle(AKI, {"type": "move", "action": GO}, rng)
    assert room.view(BEN)["may_act"]  # Ben plays on himself
    room.handle(BEN, {"type": "move", "action": GO}, rng)
    assert room.view(AKI)["may_act"]


def test_a_save_from_before_stand_ins_loads_with_none() -> None:
    room, _ = dash_for_two()
    old = room.to_json()
    del old["stand_ins"]
    assert DashRoom.from_json(old).stand_ins == {}


def test_a_game_without_computers_refuses_a_replacement() -> None:
    room = seated("Aki", "Ben")
    rng = np.random.default_rng(1)
    room.handle(HOST, {"type": "start"}, rng)
    room.present = {0}
    with pytest.raises(RoomError) as caught:
        room.handle(HOST, {"type": "replace", "seat": 1, "level": "easy"}, rng)
    assert caught.value.message is not None
    assert caught.value.message.key == "refusal.no_computers"


def test_derby_a_cautious_computer_bids_and_bets_for_the_seat() -> None:
    room = DerbyRoom.create({"races": 4}, 7)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(7)
    room.handle(HOST, {"type": "start", "computers": 0}, rng)
    room.present = {0}
    room.handle(HOST, {"type": "replace", "seat": 1, "level": "cautious"}, rng)
    assert room.thinks()  # the server applies intents off its loop while a computer plays
    assert refused(room, BEN, {"type": "bid", "amount": 0}, rng) == "refusal.stood_in"
    while room.phase() == "auction":  # only Aki bids: the computer seals Ben's bids
        room.handle(AKI, {"type": "bid", "amount": 0}, rng)
    assert room.phase() == "betting"
    assert room.state is not None and 1 in room.state.done  # the computer is done betting
    room.present = {0, 1}
    room.handle(HOST, {"type": "hand_back", "seat": 1}, rng)
    assert room.public_view()["stand_ins"] == []
    me = room.private_view(BEN)
    assert me is not None and "may_bid" in me  # Ben's own phone view again


def test_keirin_an_absent_bettor_passes() -> None:
    room = KeirinRoom.create({"races": 2, "riders": 6}, 5)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start"}, rng)
    room.present = {0}
    assert refused(room, HOST, {"type": "replace", "seat": 1, "level": "easy"}, rng) == \
        "refusal.unknown_level"
    room.handle(HOST, {"type": "replace", "seat": 1, "level": "pass"}, rng)
    assert room.phase() == "betting"  # Aki still bets
    room.handle(AKI, {"type": "done"}, rng)
    assert room.phase() == "racing"  # Ben's seat passed: nobody waits for Ben
