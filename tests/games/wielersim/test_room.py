"""The WielerSIM watch room: the server rides the race one turn a paced step (a tick), with
the race's own generator, so a room shows the very frames of the REST film and of a saved
stage; pause stops the ticks, skip rides to the finish, a save mid-race goes on the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from raceday.core.registry import get_game
from raceday.games.wielersim.choices import RaceBody
from raceday.games.wielersim.room import LOGIC, WatchRoom
from raceday.games.wielersim.watch import race_film, stage_film, stage_room_options
from raceday.rooms import Actor, RoomError
from raceday.store.sessions import SessionStore

RACE = {"route": "flat-stage", "peloton": "small", "seed": 5}


def started(options: dict[str, Any] | None = None) -> WatchRoom:
    room = WatchRoom.create(options or RACE, 99)
    room.handle(Actor.host(), {"type": "start"}, np.random.default_rng(1))
    return room


def tick(room: WatchRoom) -> list[dict[str, Any]]:
    return room.handle(Actor.timeline(), {"type": "tick"}, np.random.default_rng(2))


def test_the_game_declares_the_watch_room() -> None:
    assert LOGIC is WatchRoom and get_game("wielersim").name == WatchRoom.game


def test_each_tick_is_the_next_frame_of_the_film_in_order() -> None:
    room = started()
    assert room.phase() == "racing" and room.frame is None and room.next_tick() == 1.5
    film = race_film(RaceBody(**RACE))
    turns = []
    for expected in film["frames"]:
        events = tick(room)
        assert room.frame == expected
        assert [e["type"] for e in events] == ["film_frame"]
        turns.append(events[0]["turn"])
    assert turns == sorted(turns) and len(turns) == len(film["frames"]) > 5
    assert room.finished() and room.next_tick() is None
    view = room.view(Actor.spectator())
    assert view["phase"] == "finished" and view["standings"] == film["result"]
    with pytest.raises(RoomError):
        tick(room)  # nothing left to play


def test_the_ticker_keeps_the_last_items_with_their_turn() -> None:
    room = started()
    for _ in range(6):
        tick(room)
    film = race_film(RaceBody(**RACE))
    said = [{"turn": f["turn"], **item} for f in film["frames"][:6] for item in f["items"]]
    assert room.view(Actor.spectator())["ticker"] == said[-12:]


def test_pause_stops_the_ticks_and_resume_starts_them() -> None:
    room = started()
    tick(room)
    room.handle(Actor.host(), {"type": "pause"}, np.random.default_rng(3))
    assert room.next_tick() is None and room.view(Actor.host())["timeline"]["paused"]
    room.handle(Actor.host(), {"type": "pace", "seconds": 0.2}, np.random.default_rng(3))
    room.handle(Actor.host(), {"type": "resume"}, np.random.default_rng(3))
    assert room.next_tick() == 0.2


def test_skip_rides_to_the_finish_and_gives_the_same_result() -> None:
    room = started()
    tick(room)
    room.handle(Actor.host(), {"type": "skip"}, np.random.default_rng(4))
    film = race_film(RaceBody(**RACE))
    assert room.finished() and room.frame == film["frames"][-1]
    assert room.shown == len(film["frames"])
    finale = room.view(Actor.spectator())["finale"]
    first = film["riders"][[r["number"] for r in film["riders"]].index(
        film["result"][0]["number"])]["name"]
    assert finale["podium"][0]["place"] == 1 and finale["podium"][0]["name"].startswith(first)


def test_a_room_saved_mid_race_goes_on_with_the_same_frames() -> None:
    room = started()
    for _ in range(3):
        tick(room)
    again = WatchRoom.from_json(json.loads(json.dumps(room.to_json())))
    for _ in range(4):
        tick(room)
        tick(again)
        assert again.frame == room.frame
    assert again.view(Actor.spectator())["ticker"] == room.view(Actor.spectator())["ticker"]


def test_no_seed_rides_with_the_rooms_own_and_the_seed_decides_the_race() -> None:
    a = WatchRoom.create({"route": "flat-stage", "peloton": "small"}, 7)
    assert a.watch.seed == 7
    b = started({**RACE, "seed": 6})
    c = started({**RACE, "seed": 6})
    tick(b)
    tick(c)
    assert b.frame == c.frame


def test_a_phone_only_watches_and_bad_options_are_refused() -> None:
    room = WatchRoom.create(RACE, 1)
    seat = room.add_seat("Aki")
    room.handle(Actor.host(), {"type": "start"}, np.random.default_rng(1))
    with pytest.raises(RoomError):
        room.handle(Actor.player(seat), {"type": "skip"}, np.random.default_rng(1))
    for bad in ({"route": "/etc/passwd"}, {"peloton": "../x.csv"}, {"seed": -1},
                {"stage": "x"}, {"colour": "red"}):
        with pytest.raises(RoomError):
            WatchRoom.create({**RACE, **bad}, 1)


def test_a_stage_room_rides_the_saved_stage(tmp_path: Path) -> None:
    from raceday.games.wielersim.campaign import new_campaign
    from raceday.games.wielersim.rules import peloton_spec
    from raceday.games.wielersim.stage import resolve_tour, ride_stage

    store = SessionStore(tmp_path / "s.sqlite")
    c = new_campaign(store, "spring", resolve_tour("ronde-van-belgie"), peloton_spec("small"), 11)
    for i in range(2):  # the prologue, then the first road stage
        c.add_record(ride_stage(c.tour, c.peloton_spec, i, c.records, c.seed))
    with pytest.raises(Exception, match="prologue"):
        stage_room_options(store, "spring", 0)
    options = stage_room_options(store, "spring", 1)
    room = WatchRoom.create(options, 3)
    room.handle(Actor.host(), {"type": "start"}, np.random.default_rng(1))
    room.handle(Actor.host(), {"type": "skip"}, np.random.default_rng(1))
    saved = stage_film(store, "spring", 1)  # checked against the saved record
    assert room.frame == saved["frames"][-1]
    assert room.view(Actor.spectator())["standings"] == saved["result"]
    assert room.view(Actor.spectator())["film"]["title"] == saved["stage_name"]


def test_play_again_is_another_race_on_the_same_route() -> None:
    room = started()
    room.handle(Actor.host(), {"type": "skip"}, np.random.default_rng(4))
    if "again" not in room.handlers(Actor.host()):
        pytest.fail("the kit's 'again' intent is missing")
    room.handle(Actor.host(), {"type": "again"}, np.random.default_rng(4))
    assert room.phase() == "racing" and room.frame is None and room.shown == 0
    assert room.watch.seed != RACE["seed"] and room.watch.route == RACE["route"]
    tick(room)
    assert room.frame is not None and room.frame["turn"] >= 0
