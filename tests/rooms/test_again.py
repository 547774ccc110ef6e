"""The kit's finale and "play again": once a game is over every screen's view holds a
podium (and the game's awards); the host's ``again`` starts a fresh game with the same
seats and options, from the room's generator, in both flavours of room; before the end it
is refused and changes nothing; rooms saved before the finale still load."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from raceday.rooms import Actor, RoomError
from tests.rooms.test_party_room import GuessRoom
from tests.rooms.test_timeline import PacedDashRoom
from tests.rooms.test_turn_room import DashRoom
from tests.rooms.toy import GO, GuessState

HOST, ONE, TWO = Actor.host(), Actor.player(0), Actor.player(1)


def dash_to_the_end(room: DashRoom, rng: np.random.Generator) -> None:
    for _ in range(200):
        if room.finished():
            return
        seat = ONE if room.view(ONE)["may_act"] else TWO
        room.handle(seat, {"type": "move", "action": GO}, rng)
    raise AssertionError("the toy game did not end")


def two_phones(target: int = 5, seed: int = 4) -> tuple[DashRoom, np.random.Generator]:
    """A dash to ``target`` started for Aki and Ben (two people), chance from ``seed``."""
    room = DashRoom.create({"players": ["human", "human"], "target": target}, 1)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(seed)
    room.handle(HOST, {"type": "start"}, rng)
    return room, rng


def test_turn_room_finale_names_the_phones_and_again_keeps_the_seats() -> None:
    room, rng = two_phones()
    assert room.view(HOST)["finale"] is None  # not over yet
    before = json.dumps(room.to_json())
    with pytest.raises(RoomError, match="not over yet"):
        room.handle(HOST, {"type": "again"}, rng)
    assert json.dumps(room.to_json()) == before  # refused: nothing changed
    dash_to_the_end(room, rng)
    result = room.view(HOST)["result"]
    finale = room.view(ONE)["finale"]
    assert finale is not None and finale["again"] is True and finale["awards"] == []
    places = {p["name"]: p for p in finale["podium"]}
    assert set(places) == {"Aki", "Ben"}
    assert places["Aki"]["seat"] == 0 and places["Ben"]["seat"] == 1
    if result["termination"] == "draw":
        assert [p["place"] for p in finale["podium"]] == [1, 1]
    else:
        first = places["Aki" if result["winner"] == 0 else "Ben"]
        assert (first["place"], first["who"]) == (1, None)
    for who in (ONE, Actor.spectator()):
        with pytest.raises(RoomError):
            room.handle(who, {"type": "again"}, rng)
    options = room.options.to_json()
    events = room.handle(HOST, {"type": "again"}, rng)
    assert [e["type"] for e in events[:2]] == ["again", "started"]
    view = room.view(ONE)
    assert view["phase"] == "playing" and view["finale"] is None and view["result"] is None
    assert view["seats"] == ["Aki", "Ben"] and view["me"]["place"] == 0
    assert room.options.to_json() == options and view["recent"] == [e for e in events
                                                                    if e["type"] == "throw"]
    assert room.state is not None and room.state.turn == 0 and room.state.at == [0, 0]
    dash_to_the_end(room, rng)  # the second game plays to its end as the first did
    assert room.view(HOST)["finale"] is not None


def test_a_computer_is_named_by_its_level_and_starts_afresh() -> None:
    room = DashRoom.create({"players": ["human", "runner"], "target": 4}, 1)
    rng = np.random.default_rng(7)
    room.handle(HOST, {"type": "start"}, rng)
    while not room.finished():
        room.handle(HOST, {"type": "move", "action": GO}, rng)
    podium = room.view(HOST)["finale"]["podium"]
    computer = next(p for p in podium if p["seat"] is None and p["who"]["key"] ==
                    "finale_computer")
    assert computer["who"]["params"]["level"] == {"key": "level_runner", "params": {}}
    stale = object()
    room._agents[1] = stale  # type: ignore[assignment]  # the last game's computer
    room.handle(HOST, {"type": "again"}, rng)
    assert room._agents.get(1) is not stale
    assert room.view(HOST)["phase"] == "playing"


def guessed_and_thrown() -> tuple[GuessRoom, np.random.Generator]:
    room = GuessRoom.create({"rounds": 1}, 1)
    for name in ("Aki", "Ben", "Chie"):
        room.add_seat(name)
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start"}, rng)
    for seat, guess in enumerate((1, 2, 3)):  # exactly one of them guesses right
        room.handle(Actor.player(seat), {"type": "act", "action": guess}, rng)
    room.handle(HOST, {"type": "advance"}, rng)
    assert room.finished()
    return room, rng


def test_party_room_finale_puts_the_winner_first_and_again_keeps_names_and_options() -> None:
    room, rng = guessed_and_thrown()
    state = room.state
    assert isinstance(state, GuessState) and state.thrown is not None
    winner = state.thrown - 1  # seat s guessed s + 1
    finale = room.public_view()["finale"]
    assert finale["podium"][0] == {"place": 1, "name": room.names[winner], "seat": winner,
                                   "who": None, "detail": None}
    assert [p["place"] for p in finale["podium"]] == [1, 2, 3]
    assert room.view(Actor.player(2))["finale"] == finale  # the same on every screen
    events = room.handle(HOST, {"type": "again"}, rng)
    assert [e["type"] for e in events] == ["again", "started"]
    assert events[1]["players"] == [{"place": i, "name": n}
                                    for i, n in enumerate(("Aki", "Ben", "Chie"))]
    view = room.view(Actor.player(1))
    assert view["phase"] == "playing" and view["finale"] is None
    assert view["me"]["may_act"] and view["me"]["name"] == "Ben"
    assert view["may_undo"] is False and view["recent"] == []
    assert room.lobby_options == {"rounds": 1} and room.options.names == ["Aki", "Ben", "Chie"]


def test_an_abandoned_game_has_an_empty_finale_and_may_be_played_again() -> None:
    room = GuessRoom.create({"rounds": 1}, 1)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(1)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(HOST, {"type": "finish"}, rng)
    assert room.public_view()["finale"] == {"podium": [], "awards": [], "again": True}
    room.handle(HOST, {"type": "again"}, rng)
    assert not room.abandoned and room.phase() == "playing"


def test_again_in_the_lobby_is_refused() -> None:
    room = GuessRoom.create({"rounds": 1}, 1)
    with pytest.raises(RoomError, match="not over yet"):
        room.handle(HOST, {"type": "again"}, np.random.default_rng(0))


class AwardingGuessRoom(GuessRoom):
    """The toy party room with an award of its own, as a game room declares them."""

    def awards(self, state: GuessState) -> list[dict[str, Any]]:
        return [{"title": {"key": "finale_awards", "params": {}}, "name": self.names[0],
                 "seat": 0, "detail": None}]


def test_a_rooms_awards_are_in_the_finale_and_a_save_keeps_it() -> None:
    room = AwardingGuessRoom.create({"rounds": 1}, 1)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(2)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(ONE, {"type": "act", "action": 1}, rng)
    room.handle(TWO, {"type": "act", "action": 1}, rng)
    room.handle(HOST, {"type": "advance"}, rng)
    saved = json.loads(json.dumps(room.to_json()))
    back = AwardingGuessRoom.from_json(saved)
    assert back.public_view()["finale"] == room.public_view()["finale"]
    assert back.public_view()["finale"]["awards"][0]["name"] == "Aki"
    podium = back.public_view()["finale"]["podium"]
    if room.state is not None and room.state.thrown == 1:  # both right: both first
        assert [p["place"] for p in podium] == [1, 1]
    else:  # both wrong: nobody won, the ranking's order stands
        assert [p["place"] for p in podium] == [1, 2]


def test_a_room_saved_before_the_finale_loads_and_plays_again() -> None:
    room, rng = guessed_and_thrown()
    old = room.to_json()  # the save format did not change: no field to miss
    back = GuessRoom.from_json(json.loads(json.dumps(old)))
    back.handle(HOST, {"type": "again"}, rng)
    assert back.phase() == "playing"


def test_a_paced_game_played_again_has_its_next_tick_and_is_not_paused() -> None:
    room = PacedDashRoom.create({"players": ["human", "runner"], "target": 3}, 1)
    rng = np.random.default_rng(3)
    room.handle(HOST, {"type": "start"}, rng)
    for _ in range(200):
        if room.finished():
            break
        if room.next_tick() is not None:  # the computer's paced move: the host pauses
            room.handle(HOST, {"type": "pause"}, rng)
            assert room.next_tick() is None
        if room.paused and room.view(HOST)["thinking"]:
            room.handle(HOST, {"type": "skip"}, rng)
        else:
            room.handle(HOST, {"type": "move", "action": GO}, rng)
    assert room.finished() and room.paused and room.next_tick() is None  # no timer at the end
    room.handle(HOST, {"type": "again"}, rng)
    assert not room.paused
    # the human moves first; the computer's answer is paced again, at the room's pace
    while room.next_tick() is None and not room.finished():
        room.handle(HOST, {"type": "move", "action": GO}, rng)
    assert room.next_tick() == room.pace
