"""The kit's party room over a toy game of sealed guesses: the seats' names become the
players, seats act in any order, each screen sees only what the state's observation gives
it, the host draws the waited-for chance, undoes and finishes, and the room saves."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from raceday.rooms import Actor, PartyRoom, RoomError
from tests.rooms.toy import GUESS, GuessState

HOST = Actor.host()


class GuessRoom(PartyRoom[GuessState]):
    game = "guess"
    GAME = GUESS
    title = "Guess"
    max_seats = 4
    min_seats = 2
    allows_undo = True

    def waits_for_host(self, state: GuessState) -> bool:
        return True


def seated(*names: str) -> GuessRoom:
    room = GuessRoom.create({"rounds": 1}, 1)
    for name in names:
        room.add_seat(name)
    return room


def roundtrip(room: GuessRoom) -> GuessRoom:
    return GuessRoom.from_json(json.loads(json.dumps(room.to_json())))


def test_names_become_players_and_seats_act_in_any_order() -> None:
    room = seated("Aki", "Ben", "Chie")
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start"}, rng)
    assert room.state is not None and room.state.options.names == ["Aki", "Ben", "Chie"]
    assert room.public_view()["acting"] == [0, 1, 2]
    events = room.handle(Actor.player(2), {"type": "act", "action": 3}, rng)
    assert events == [{"type": "sealed", "player": 2, "by": 2, "forced": False}]
    room = roundtrip(room)
    room.handle(Actor.player(0), {"type": "act", "action": 1}, rng)
    with pytest.raises(RoomError, match="not your turn"):
        room.handle(Actor.player(0), {"type": "act", "action": 2}, rng)
    room.handle(Actor.player(1), {"type": "act", "action": 2}, rng)
    # every guess is in: the room waits for the host's roll
    assert room.public_view()["may_advance"] and room.public_view()["acting"] == []
    with pytest.raises(RoomError, match="cannot send 'advance'"):
        room.handle(Actor.player(0), {"type": "advance"}, rng)
    events = room.handle(HOST, {"type": "advance"}, rng)
    thrown = events[0]["value"]
    assert events == [{"type": "thrown", "value": thrown}]
    result = room.view(HOST)["result"]
    winners = [p for p, g in enumerate([1, 2, 3]) if g == thrown]
    assert result["winning_players"] == winners and result["termination"] == "guessed"
    assert room.finished() and room.phase() == "finished"


def test_a_seat_sees_its_own_secret_and_nobody_elses() -> None:
    room = seated("Aki", "Ben")
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(Actor.player(0), {"type": "act", "action": 3}, rng)
    mine = room.view(Actor.player(0))
    theirs = room.view(Actor.player(1))
    assert mine["me"]["observation"]["mine"] == 3 and not mine["me"]["may_act"]
    assert theirs["me"]["observation"]["mine"] is None and theirs["me"]["may_act"]
    assert [c["action"] for c in theirs["me"]["choices"]] == [1, 2, 3]
    assert theirs["me"]["choices"][0]["message"]["key"] == "action"
    for view in (room.view(HOST), room.view(Actor.spectator()), theirs):
        assert "3" not in json.dumps(view["observation"])  # Aki's guess is nowhere public
    assert room.view(Actor.player(1)) == {**room.public_view(),
                                          "me": room.private_view(Actor.player(1))}


def test_the_host_undoes_and_finishes() -> None:
    room = seated("Aki", "Ben")
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(Actor.player(1), {"type": "act", "action": 2}, rng)
    assert room.public_view()["may_undo"]
    with pytest.raises(RoomError, match="cannot send 'undo'"):
        room.handle(Actor.player(1), {"type": "undo"}, rng)
    assert room.handle(HOST, {"type": "undo"}, rng) == [{"type": "undone"}]
    assert room.public_view()["acting"] == [0, 1]
    with pytest.raises(RoomError, match="nothing to advance"):
        room.handle(HOST, {"type": "advance"}, rng)
    room.handle(HOST, {"type": "finish"}, rng)
    assert room.finished() and room.view(HOST)["abandoned"]


@pytest.mark.parametrize(("names", "intent", "words"), [
    (["Aki"], {"type": "start"}, "Guess needs at least 2 players; 1 joined"),
])
def test_start_needs_enough_players(names: list[str], intent: dict[str, Any],
                                    words: str) -> None:
    room = seated(*names)
    with pytest.raises(RoomError) as err:
        room.handle(HOST, intent, np.random.default_rng(1))
    assert words in str(err.value)
    assert room.state is None


def test_lobby_refusals() -> None:
    room = seated("Aki", "Ben", "Chie", "Dai")
    with pytest.raises(RoomError, match="room is full"):
        room.add_seat("Eri")
    with pytest.raises(RoomError, match="already called"):
        seated("Aki").add_seat("aki")
    with pytest.raises(RoomError, match="come from the seats"):
        GuessRoom.create({"names": ["x", "y"]}, 1)
    with pytest.raises(RoomError, match="rounds"):
        GuessRoom.create({"rounds": 9}, 1)
    assert roundtrip(room).seat_names() == ["Aki", "Ben", "Chie", "Dai"]
