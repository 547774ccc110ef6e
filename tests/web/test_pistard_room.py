"""PISTARD through the party server: a whole race of two phones and a computer rider with
a restart in the middle, every variant to its result, live standings, and every refusal
(wrong token, out of turn, illegal choice) changing nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from raceday.games.pistard.moves import CHOOSE_BASE, PLACE_BASE
from raceday.games.pistard.room import PistardRoom
from raceday.present import render
from raceday.rooms import Actor, RoomError
from tests.web.conftest import Client, join
from tests.web.test_hairpin_room import (  # noqa: F401 (client is a fixture)
    client,
    connect,
    fast_app,
    handled,
    ok,
    refused,
)

SHORT = {"variant": "scratch", "riders_per_player": 1, "track": "short"}


def new_pistard(tc: TestClient, **options: Any) -> dict[str, Any]:
    r = tc.post("/api/rooms", json={"game": "pistard", "options": options})
    assert r.status_code == 201, r.text
    return dict(r.json())


def pick(view: dict[str, Any]) -> int:
    """A scripted rider: the move furthest ahead (then the outer lane), the front of the
    grid, or the first rider offered."""
    ch = view["choices"]
    if ch["kind"] == "move":
        if not ch["items"]:
            return int(ch["stay"]["action"])
        return int(max(ch["items"], key=lambda c: (c["ahead"], c["lane"]))["action"])
    if ch["kind"] == "place":
        return int(min(ch["items"], key=lambda c: (c["back"], -c["lane"]))["action"])
    return int(ch["items"][0]["action"])


def test_a_whole_race_of_two_phones_and_a_computer_with_a_restart(db: Path) -> None:
    with TestClient(fast_app(db)) as tc:
        room = new_pistard(tc, **SHORT, players=["human", "medium", "human"])
        code = room["code"]
        aki, ben = join(tc, code, "Aki"), join(tc, code, "Ben")
        host = Client(tc, code, room["host_token"])
        seats = [Client(tc, code, aki["token"]), Client(tc, code, ben["token"])]
        everyone = [host, *seats]
        try:
            assert [p["controller"] for p in host.view["players"]] == ["seat", "computer", "seat"]
            assert seats[1].view["me"]["place"] == 2  # the second phone takes player 3
            ok(host, {"type": "start"}, everyone)
            assert host.view["choices"]["kind"] == "place"
            steps = 0
            while steps < 6:
                seat = next(s for s in seats if s.view["may_act"])
                ok(seat, {"type": "move", "action": pick(seat.view)}, everyone)
                steps += 1
            seq, riders = host.seq, host.view["riders"]
        finally:
            for c in everyone:
                c.close()
    with TestClient(fast_app(db)) as tc:
        host = Client(tc, code, room["host_token"])
        seats = [Client(tc, code, aki["token"]), Client(tc, code, ben["token"])]
        everyone = [host, *seats]
        try:
            assert host.seq == seq and host.view["riders"] == riders
            while host.view["phase"] == "racing":
                mover = host.view["to_act"]
                seat = next(s for s in seats if s.view["may_act"])
                assert seat.view["me"]["place"] == mover
                if seat.view["choices"]["kind"] == "move":
                    assert seat.view["dice"] is not None and len(seat.view["dice"]) == 4
                ok(seat, {"type": "move", "action": pick(seat.view)}, everyone)
                steps += 1
                assert steps < 200
            result = host.view["result"]
            assert [r["rider"] for r in result["ranking"]] == \
                [s["rider"] for s in host.view["standings"]]
            assert sorted(r["rider"] for r in result["ranking"]) == [11, 21, 31]
            assert render(result["message"], "en", "pistard") == \
                f"Rider {result['ranking'][0]['rider']} wins"
            assert "description" not in result  # words come from the tables, not the room
            assert any(e["type"] == "move" and e["rider"] == 21 for e in host.events)
            refused(seats[0], {"type": "move", "action": 0}, everyone, "over")
        finally:
            for c in everyone:
                c.close()
    with sqlite3.connect(db) as conn:
        actors = [json.loads(a)["kind"] for (a,) in conn.execute(
            "SELECT actor FROM room_events WHERE code = ? ORDER BY seq", (code,))]
    # created, two joins, start, pace, one row per choice; the computer's moves are the
    # server's own steps (ticks), a row each
    ticks = actors.count("timeline")
    assert ticks > 0 and len(actors) - ticks == 1 + 2 + 1 + 1 + steps


def test_refusals_change_nothing(client: TestClient) -> None:  # noqa: F811
    room = new_pistard(client, **SHORT, players=["human", "human"])
    code = room["code"]
    aki, ben = join(client, code, "Aki"), join(client, code, "Ben")
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Chie"})
    assert r.status_code == 409 and "every human place is taken" in r.json()["error"]
    host = connect(client, code, room["host_token"])
    one, two = connect(client, code, aki["token"]), connect(client, code, ben["token"])
    watcher = connect(client, code, None)
    everyone = [host, one, two, watcher]
    refused(one, {"type": "move", "action": PLACE_BASE + 11}, everyone, "not started")
    ok(host, {"type": "start"}, everyone)
    legal = [c["action"] for c in one.view["choices"]["items"]]
    assert one.view["may_act"] and not two.view["may_act"] and not host.view["may_act"]
    refused(two, {"type": "move", "action": legal[0]}, everyone, "player 1's turn, not yours")
    refused(host, {"type": "move", "action": legal[0]}, everyone, "player 1's turn")
    refused(watcher, {"type": "move", "action": legal[0]}, everyone, "spectators watch")
    refused(one, {"type": "move", "action": CHOOSE_BASE + 11}, everyone, "not a legal choice")
    refused(one, {"type": "move", "action": 1.5}, everyone, "whole number")
    refused(one, {"type": "undo"}, everyone, "cannot send 'undo'")
    refused(host, {"type": "start"}, everyone, "already started")
    bad = connect(client, code, "someone-elses-token-123")
    assert bad.welcome["type"] == "error" and "not a seat" in bad.welcome["message"]
    ok(host, {"type": "finish"}, everyone)
    assert host.view["phase"] == "finished" and host.view["abandoned"]


def play_out(room: PistardRoom, rng: np.random.Generator, bound: int = 3000) -> PistardRoom:
    """Every human choice made on the host screen, the room saved and restored after each;
    returns the room at the end."""
    steps = 0
    while not room.finished():
        view = room.view(Actor.host())
        assert view["may_act"]
        handled(room, Actor.host(), {"type": "move", "action": pick(view)}, rng)
        room = PistardRoom.from_json(json.loads(json.dumps(room.to_json())))
        steps += 1
        assert steps < bound
    return room


@pytest.mark.parametrize("options", [
    {"variant": "scratch", "players": ["human", "easy", "medium", "human", "easy"],
     "riders_per_player": 1, "track": "short"},
    {"variant": "points", "players": ["human", "medium"], "laps": 2, "riders_per_player": 2,
     "track": "short"},
    {"variant": "elimination", "players": ["human", "easy", "human"], "riders_per_player": 1,
     "track": "short"},
    {"variant": "sprint", "players": ["human", "medium"], "track": "short"},
    {"variant": "ttt", "players": ["human"], "riders_per_player": 3, "track": "short"},
    {"variant": "pursuit", "players": ["medium", "human"], "riders_per_player": 3,
     "track": "short"},
])
def test_every_variant_plays_to_its_result(options: dict[str, Any]) -> None:
    room = PistardRoom.create(options, 1)
    rng = np.random.default_rng(11)
    handled(room, Actor.host(), {"type": "start"}, rng)
    room = play_out(room, rng)
    view = room.view(Actor.host())
    result = view["result"]
    assert view["phase"] == "finished" and render(result["message"], "en", "pistard")
    variant = options["variant"]
    if variant == "ttt":
        assert result["team_time"] > 0 and result["team_times"]
    elif variant == "pursuit":
        assert result["winner"] in (0, 1, None)
    else:
        assert len(result["ranking"]) == len(options["players"]) * view["config"]["riders_each"]
    if variant == "points":
        assert all(s for s in view["sprints"])  # both lap sprints were ridden
        assert [r["points"] for r in result["ranking"]] == \
            sorted((r["points"] for r in result["ranking"]), reverse=True)
    if variant == "elimination":
        assert len(view["eliminated"]) == 2
        assert [r["out_heat"] for r in result["ranking"]] == [None, 2, 1]


def test_the_view_shows_the_track_dice_and_moves() -> None:
    room = PistardRoom.create({"variant": "scratch", "players": ["human", "human"]}, 1)
    rng = np.random.default_rng(5)
    lobby = room.view(Actor.host())
    assert lobby["track"]["length"] == 56 and len(lobby["track"]["grid"]) == 4
    assert all(len(row) == 56 and set(row) <= set("YGBR") for row in lobby["track"]["grid"])
    handled(room, Actor.host(), {"type": "start"}, rng)
    for _ in range(8):  # four riders each placed
        view = room.view(Actor.host())
        handled(room, Actor.host(), {"type": "move", "action": pick(view)}, rng)
    view = room.view(Actor.host())
    ch = view["choices"]
    assert ch["kind"] == "move" and view["dice"] is not None
    mover = next(r for r in view["riders"] if r["rider"] == view["mover"])
    for c in ch["items"]:  # each destination is reached with one of the thrown dice
        thrown = view["dice"][["yellow", "green", "blue", "red"].index(c["colour"])]
        assert c["value"] == thrown + int(c["token"])
        assert c["col"] == (mover["col"] + c["ahead"]) % 56
        assert c["behind"] or view["track"]["grid"][c["lane"] - 1][c["col"]] == \
            c["colour"][0].upper()
    places = [s["place"] for s in view["standings"]]
    assert places == list(range(1, 9))


@pytest.mark.parametrize(("options", "words"), [
    ({"variant": "keirin"}, "unknown variant"),
    ({"players": ["human"] * 6}, "2 to 5 entries"),
    ({"variant": "sprint", "players": ["human", "human", "easy"]}, "2 entries"),
    ({"players": ["easy", "hard"]}, "at least one player must be human"),
    ({"track": "/etc/passwd"}, "track must be one of default, short"),
    ({"laps": 3}, "laps can only be chosen for the points race"),
    ({"riders_per_player": 9}, "riders_per_player: must be from 1 to 6"),
    ({"colour": "red"}, "unknown PISTARD option(s): colour"),
])
def test_bad_options_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RoomError) as err:
        PistardRoom.create(options, 1)
    assert words in str(err.value)
