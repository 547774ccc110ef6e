"""The room option ``hints`` of Hairpin and PISTARD rooms (a lesson's first game): a bad
value is refused in words; while it is on, whoever plays the place to move (a human place)
is shown the move of the room's hint level, a legal move with that move's own message, and
nobody else is; a computer's turn has none; the option is saved only when on and the room's
dice are the same with it as without; the lessons' first games create such a room."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from raceday.core.lesson import load_lesson
from raceday.games.hairpin.room import HairpinRoom
from raceday.games.pistard.room import PistardRoom
from raceday.rooms import Actor, RoomError, TurnRoom
from tests.web.conftest import Client, worded
from tests.web.test_hairpin_room import handled

TWO_HUMANS: list[tuple[type[TurnRoom[Any]], dict[str, Any]]] = [
    (HairpinRoom, {"variant": "short", "red": "human", "black": "human"}),
    (PistardRoom, {"variant": "scratch", "players": ["human", "human"],
                   "riders_per_player": 2, "track": "short"}),
]
NAMES = ["hairpin", "pistard"]
EVERYONE = [Actor.host(), Actor.player(0), Actor.player(1), Actor.spectator()]


def seated(room_class: type[TurnRoom[Any]], options: dict[str, Any],
           seed: int = 3) -> tuple[TurnRoom[Any], np.random.Generator]:
    """A room of two phones (seat 0 plays the first place, seat 1 the second), started."""
    room = room_class.create(options, seed)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(seed)
    handled(room, Actor.host(), {"type": "start"}, rng)
    return room, rng


def hinted(room: TurnRoom[Any]) -> dict[Actor, Any]:
    """Each actor's hint in its view."""
    return {actor: room.view(actor)["hint"] for actor in EVERYONE}


@pytest.mark.parametrize("room_class", [HairpinRoom, PistardRoom], ids=NAMES)
@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_a_bad_hints_value_is_refused_in_words(room_class: type[TurnRoom[Any]],
                                               value: Any) -> None:
    with pytest.raises(RoomError) as err:
        room_class.create({"hints": value}, 1)
    assert "the option hints must be true or false" in str(err.value)


@pytest.mark.parametrize(("room_class", "options"), TWO_HUMANS, ids=NAMES)
def test_only_the_seat_to_move_is_shown_a_legal_move_as_its_hint(
        room_class: type[TurnRoom[Any]], options: dict[str, Any]) -> None:
    room, rng = seated(room_class, {**options, "hints": True})
    assert room.view(Actor.spectator())["hints"] is True
    seen = {0: 0, 1: 0}
    for _ in range(12):  # a dozen turns of both players
        state = room.state
        assert state is not None
        if state.is_terminal():
            break
        to_act = state.current_player()
        hints = hinted(room)
        hint = hints[Actor.player(to_act)]
        assert hint is not None
        assert hint["level"] == "medium"
        assert hint["action"] in state.legal_actions()
        assert hint["message"] == state.action_message(hint["action"]).to_json()
        # nobody else: not the other seat, not the host (who plays no place), no spectator
        assert [h for actor, h in hints.items() if actor != Actor.player(to_act)] == \
            [None, None, None]
        seen[to_act] += 1
        legal = state.legal_actions()
        handled(room, Actor.player(to_act),
                {"type": "move", "action": int(legal[int(rng.integers(len(legal)))])}, rng)
    assert seen[0] > 0 and seen[1] > 0  # both seats were to move and shown hints


@pytest.mark.parametrize(("room_class", "options"), TWO_HUMANS, ids=NAMES)
def test_no_hint_when_the_option_is_off_and_it_is_saved_only_when_on(
        room_class: type[TurnRoom[Any]], options: dict[str, Any]) -> None:
    off, _ = seated(room_class, options)
    assert set(hinted(off).values()) == {None}
    assert off.view(Actor.host())["hints"] is False
    assert "hints" not in off.to_json()
    on, _ = seated(room_class, {**options, "hints": True})
    saved = on.to_json()
    assert saved["hints"] is True
    back = room_class.from_json(saved)  # read back: the same hint, worked out again
    assert hinted(back) == hinted(on)
    assert any(h is not None for h in hinted(back).values())


@pytest.mark.parametrize(("room_class", "options"), [
    (HairpinRoom, {"variant": "short", "red": "human", "black": "easy", "hints": True}),
    (PistardRoom, {"variant": "scratch", "players": ["human", "easy"],
                   "riders_per_player": 2, "track": "short", "hints": True}),
], ids=NAMES)
def test_never_a_hint_on_a_computers_turn(room_class: type[TurnRoom[Any]],
                                          options: dict[str, Any]) -> None:
    room = room_class.create(options, 5)
    rng = np.random.default_rng(5)
    room.handle(Actor.host(), {"type": "start"}, rng)
    computer_turns = 0
    for _ in range(40):
        state = room.state
        assert state is not None
        if state.is_terminal():
            break
        if room.next_tick() is not None:  # the computer to move: its move waits its pace
            assert room.level_of(state.current_player()) == "easy"
            assert room.view(Actor.host())["hint"] is None
            computer_turns += 1
            room.handle(Actor.timeline(), {"type": "tick"}, rng)
            continue
        hint = room.view(Actor.host())["hint"]  # the host screen plays the human place
        assert hint is not None and hint["action"] in state.legal_actions()
        room.handle(Actor.host(), {"type": "move", "action": hint["action"]}, rng)
    assert computer_turns > 0


def test_the_hints_leave_the_dice_as_they_were() -> None:
    """The same race with the same choices, hints on and off: the same events (the hint's
    computer draws from a generator of its own, not the room's)."""
    options = TWO_HUMANS[1][1]

    def race(hints: bool) -> list[Any]:
        room, rng = seated(PistardRoom, {**options, "hints": hints}, seed=11)
        events: list[Any] = []
        for _ in range(60):
            state = room.state
            assert state is not None
            if state.is_terminal():
                break
            player = state.current_player()
            events += handled(room, Actor.player(player),
                              {"type": "move", "action": state.legal_actions()[-1]}, rng)
        return events

    with_hints = race(True)
    assert len(with_hints) > 20  # dice thrown and moves made
    assert with_hints == race(False)


@pytest.mark.parametrize("game", NAMES)
def test_the_lessons_first_game_creates_a_room_with_hints(client: TestClient,
                                                          game: str) -> None:
    lesson = load_lesson(game)
    play = lesson.steps[-1].play
    assert play is not None and play.room is not None
    assert play.room["hints"] is True
    answer = client.post("/api/rooms", json={"game": game, "options": dict(play.room)})
    assert answer.status_code == 201, answer.text
    room = answer.json()
    host = Client(client, room["code"], room["host_token"])
    watcher = Client(client, room["code"], None)
    assert host.send({"type": "start"})["type"] == "ack"
    hint = host.view["hint"]
    assert hint is not None and hint["level"] == "medium"
    watcher.until(host.seq)
    assert watcher.view["hint"] is None  # a spectator is never shown it
    # the hint is a move the room takes
    assert host.send({"type": "move", "action": hint["action"]})["type"] == "ack"


def test_a_bad_hints_value_is_a_4xx_in_words(client: TestClient) -> None:
    answer = client.post("/api/rooms", json={"game": "hairpin", "options": {
        "variant": "short", "hints": "please"}})
    assert 400 <= answer.status_code < 500
    assert "the option hints must be true or false" in worded(answer.json())
