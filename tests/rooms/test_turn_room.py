"""The kit's turn-based room over a toy game: lobby and places, chance drawn with the
room's generator, computer and forced moves, undo against the computer, refusals that
change nothing, and the versioned save format with a migration of older saves."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from raceday.core.game import GameOptions
from raceday.rooms import (
    HUMAN,
    KIT_FORMAT,
    UNDO_VS_COMPUTER,
    Actor,
    RoomError,
    TurnRoom,
    check_kinds,
    logic_class,
)
from tests.rooms.toy import DASH, GO, STAY, DashState, Runner

HOST, ONE, TWO = Actor.host(), Actor.player(0), Actor.player(1)


class DashRoom(TurnRoom[DashState]):
    game = "dash"
    GAME = DASH
    title = "Dash"
    max_seats = 2
    LEVELS = ("runner",)
    OPTION_NAMES = ("target", "players")
    undo_rule = UNDO_VS_COMPUTER
    agent_maker = staticmethod(lambda level: Runner())

    @classmethod
    def read_options(cls, options: Mapping[str, Any]) -> tuple[GameOptions, list[str]]:
        kinds = check_kinds(options.get("players", [HUMAN, "runner"]), cls.LEVELS, 2, 2)
        return DASH.options({"target": options.get("target", 6)}), kinds

    def state_view(self, actor: Actor, state: DashState, to_act: int | None) -> dict[str, Any]:
        return {"at": list(state.at), "thrown": state.thrown}

    @classmethod
    def migrate(cls, old: Mapping[str, Any]) -> dict[str, Any]:
        if old.get("format") != "dash-0":
            return super().migrate(old)
        return {"kit": KIT_FORMAT, "game": "dash", "options": old["options"],
                "places": {"kinds": old["kinds"], "names": [], "seat_place": []},
                "state": old["state"], "undo": [], "recent": [], "abandoned": False}


def roundtrip(room: DashRoom) -> DashRoom:
    return DashRoom.from_json(json.loads(json.dumps(room.to_json())))


def test_two_phones_play_a_whole_game_with_chance_drawn_by_the_room() -> None:
    room = DashRoom.create({"players": ["human", "human"], "target": 5}, 1)
    assert room.view(HOST)["phase"] == "lobby"
    assert room.add_seat("Aki") == 0 and room.add_seat("Ben") == 1
    with pytest.raises(RoomError, match="every human place is taken"):
        room.add_seat("Chie")
    rng = np.random.default_rng(4)
    events = room.handle(HOST, {"type": "start"}, rng)
    assert events[0]["type"] == "started" and events[1]["type"] == "throw"
    with pytest.raises(RoomError, match="has started"):
        room.add_seat("Late")
    steps = 0
    while not room.finished():
        view = room.view(HOST)
        seat = ONE if room.view(ONE)["may_act"] else TWO
        assert not view["may_act"]  # both places are on phones
        assert view["thrown"] is not None  # the room threw before asking
        events = room.handle(seat, {"type": "move", "action": GO}, rng)
        assert events[0]["by"] == view["to_act"] and not events[0]["forced"]
        room = roundtrip(room)
        steps += 1
        assert steps < 80
    result = room.view(HOST)["result"]
    assert result["termination"] in ("finish", "draw")
    assert room.view(HOST)["phase"] == "finished"
    with pytest.raises(RoomError, match="over"):
        room.handle(ONE, {"type": "move", "action": GO}, rng)


def test_same_seed_same_game() -> None:
    def play(seed: int) -> list[Any]:
        room = DashRoom.create({"players": ["human", "runner"]}, 1)
        rng = np.random.default_rng(seed)
        log = room.handle(HOST, {"type": "start"}, rng)
        while not room.finished():
            log += room.handle(HOST, {"type": "move", "action": STAY}, rng)
        return log

    assert play(9) == play(9)


def test_computer_and_forced_moves_are_played_by_the_room() -> None:
    room = DashRoom.create({"players": ["runner", "human"]}, 1)
    events = room.handle(HOST, {"type": "start"}, np.random.default_rng(0))
    moves = [e for e in events if e["type"] == "move"]
    assert moves[0]["by"] == 0 and not moves[0]["forced"]  # the computer opened
    assert room.view(HOST)["to_act"] == 1
    # on a target of 2 a throw of 3 leaves only "stay": played at once for the human
    room = DashRoom.create({"players": ["human", "human"], "target": 2}, 1)
    rng = np.random.default_rng(0)
    events = room.handle(HOST, {"type": "start"}, rng)
    forced = [e for e in events if e["type"] == "move" and e["forced"]]
    while not room.finished() and not forced:
        events = room.handle(HOST, {"type": "move", "action": STAY}, rng)
        forced = [e for e in events if e["type"] == "move" and e["forced"]]
    assert forced and all(e["squares"] == 0 for e in forced)
    throws = [e["value"] for e in events if e["type"] == "throw"]
    assert 3 in throws


def test_undo_against_the_computer_takes_back_the_move_and_the_answer() -> None:
    room = DashRoom.create({"players": ["human", "runner"], "target": 30}, 1)
    rng = np.random.default_rng(2)
    room.handle(HOST, {"type": "start"}, rng)
    with pytest.raises(RoomError, match="no move of yours"):
        room.handle(HOST, {"type": "undo"}, rng)
    first = room.view(HOST)
    room.handle(HOST, {"type": "move", "action": GO}, rng)
    assert room.view(HOST)["may_undo"] and room.view(HOST)["at"][1] > 0
    events = room.handle(HOST, {"type": "undo"}, rng)
    assert events == [{"type": "undone"}]
    again = room.view(HOST)
    assert (again["at"], again["thrown"], again["may_undo"]) == (first["at"], first["thrown"],
                                                                 False)
    two_humans = DashRoom.create({"players": ["human", "human"]}, 1)
    two_humans.handle(HOST, {"type": "start"}, rng)
    with pytest.raises(RoomError, match="only for a game against the computer"):
        two_humans.handle(HOST, {"type": "undo"}, rng)


@pytest.mark.parametrize(("actor", "intent", "words"), [
    (Actor.spectator(), {"type": "move", "action": GO}, "spectators watch"),
    (ONE, {"type": "start"}, "a player cannot send 'start' in Dash"),
    (HOST, {"type": "fly"}, "the host cannot send 'fly' in Dash"),
    (HOST, {"type": "move", "action": GO}, "it is player 1's turn, not yours"),
    (ONE, {"type": "move", "action": 7}, "not a legal action now"),
    (ONE, {"type": "move", "action": "go"}, "action must be a whole number"),
    (HOST, {"type": "start"}, "already started"),
])
def test_refusals_name_the_problem_and_change_nothing(
        actor: Actor, intent: dict[str, Any], words: str) -> None:
    room = DashRoom.create({"players": ["human", "human"]}, 1)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(1)
    room.handle(HOST, {"type": "start"}, rng)
    before = json.dumps(room.to_json())
    with pytest.raises(RoomError) as err:
        room.handle(actor, intent, rng)
    assert words in str(err.value)
    assert json.dumps(room.to_json()) == before


@pytest.mark.parametrize(("options", "words"), [
    ({"speed": 1}, "unknown Dash option(s): speed"),
    ({"target": 1}, "target"),  # the engine's own OptionsError, told as a RoomError
    ({"players": ["runner", "runner"]}, "at least one player must be human"),
    ({"players": ["human"]}, "a list of 2 entries"),
])
def test_bad_options_are_room_errors(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RoomError) as err:
        DashRoom.create(options, 1)
    assert words in str(err.value)


def test_the_save_is_versioned_and_older_saves_migrate() -> None:
    room = DashRoom.create({"players": ["human", "runner"]}, 1)
    room.handle(HOST, {"type": "start"}, np.random.default_rng(3))
    saved = room.to_json()
    assert saved["kit"] == KIT_FORMAT and saved["game"] == "dash"
    assert roundtrip(room).view(HOST) == room.view(HOST)
    old = {"format": "dash-0", "options": saved["options"], "kinds": ["human", "runner"],
           "state": saved["state"]}
    assert DashRoom.from_json(old).view(HOST)["at"] == room.view(HOST)["at"]
    with pytest.raises(RoomError, match="unknown Dash room format 7"):
        DashRoom.from_json({"format": 7})
    with pytest.raises(RoomError, match="malformed Dash room"):
        DashRoom.from_json({**saved, "state": {"at": "nowhere"}})
    with pytest.raises(RoomError, match="not a Dash room"):
        DashRoom.from_json({**saved, "game": "hairpin"})
def test_the_server_finds_a_room_in_the_game_package() -> None:
    assert logic_class("hairpin").game == "hairpin"
    with pytest.raises(RoomError, match="cannot be played in the browser"):
        logic_class("nosuchgame")
    with pytest.raises(RoomError, match="unknown game"):
        logic_class("../etc")
