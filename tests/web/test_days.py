"""Games played over days (the host's option ``days`` of Hairpin and PISTARD rooms): such a
room is never closed for idleness while its game is unfinished, survives a restart between
two moves a day apart, follows the usual lifecycle once over; and ``POST /api/my-games``
("my games") tells each key only what it may see, refusing bad input with a 4xx."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.games.pistard.room import PistardRoom
from raceday.present import render
from raceday.rooms import Actor, RoomError
from raceday.web.api_models import MAX_HELD
from raceday.web.app import create_app
from tests.web.conftest import OPEN, Client, join, new_room, serving, worded
from tests.web.test_lifecycle import Clock, closed_column, sweep
from tests.web.test_pistard_room import SHORT, pick

DAY = 24.0  # hours


@contextmanager
def server(db: Path, clock: Clock) -> Iterator[TestClient]:
    """The party server on ``db`` with the default idle close (12 hours) by ``clock``."""
    app = create_app(db, clock=clock, burst=10_000, rate=10_000, seats_per_address=100)
    with TestClient(app) as tc:
        try:
            yield tc
        finally:
            while OPEN:
                OPEN.pop().close()




def pistard(tc: TestClient, **options: Any) -> dict[str, Any]:
    answer = tc.post("/api/rooms", json={"game": "pistard", "options": {
        **SHORT, "players": ["human", "human"], **options}})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def started(tc: TestClient, room: dict[str, Any]) -> list[str]:
    """Aki and Ben join ``room``, the host starts it; the two seats' tokens."""
    tokens = [join(tc, room["code"], name)["token"] for name in ("Aki", "Ben")]
    host = Client(tc, room["code"], room["host_token"])
    assert host.send({"type": "start"})["type"] == "ack"
    host.close()
    return tokens


def move(tc: TestClient, code: str, tokens: list[str]) -> int:
    """The seat whose turn it is makes one move (each phone connects only for it, as a
    phone that opens its link does); the room's revision after it."""
    phones = [Client(tc, code, token) for token in tokens]
    try:
        mover = next(p for p in phones if p.view["may_act"])
        answer = mover.send({"type": "move", "action": pick(mover.view)})
        assert answer["type"] == "ack", answer
        return int(answer["seq"])
    finally:
        for phone in phones:
            phone.close()


def test_a_days_room_survives_a_restart_between_two_moves_a_day_apart(db: Path) -> None:
    clock = Clock()
    with server(db, clock) as tc:
        days = pistard(tc, days=True)
        ordinary = pistard(tc)
        assert days["days"] is True and ordinary["days"] is False
        days_seats, ordinary_seats = started(tc, days), started(tc, ordinary)
        first = move(tc, days["code"], days_seats)
        move(tc, ordinary["code"], ordinary_seats)
        assert sweep(tc) == []
        clock.advance(DAY)  # a day without play: the ordinary room closes, not this one
        assert sweep(tc) == [ordinary["code"]]
        assert sweep(tc) == []
        assert closed_column(db) == {days["code"]: 0, ordinary["code"]: 1}
    restarted = Clock()
    restarted.now = clock.now
    with server(db, restarted) as tc:  # the same file, a new server
        info = tc.get(f"/api/rooms/{days['code']}")
        assert info.status_code == 200 and info.json()["days"] is True
        assert info.json()["phase"] == "racing"
        gone = tc.get(f"/api/rooms/{ordinary['code']}")
        assert gone.status_code == 404
        assert gone.json()["words"]["key"] == "refusal.room_closed"
        assert sweep(tc) == []
        restarted.advance(DAY)  # another day: still no sweep closes it
        assert sweep(tc) == []
        assert move(tc, days["code"], days_seats) > first  # the second move is taken
        assert closed_column(db) == {days["code"]: 0, ordinary["code"]: 1}


def test_a_days_room_follows_the_usual_lifecycle_once_its_game_is_over(db: Path) -> None:
    clock = Clock()
    with server(db, clock) as tc:
        room = tc.post("/api/rooms", json={"game": "hairpin", "options": {
            "variant": "short", "red": "human", "black": "easy", "days": True}}).json()
        host = Client(tc, room["code"], room["host_token"])
        assert host.send({"type": "start"})["type"] == "ack"
        host.close()
        assert sweep(tc) == []
        clock.advance(3 * DAY)
        assert sweep(tc) == []  # three days without a move: still open
        host = Client(tc, room["code"], room["host_token"])
        assert host.send({"type": "finish"})["type"] == "ack"  # the host ends the game
        host.close()
        assert sweep(tc) == []  # over from this sweep on: idle time counts from here
        clock.advance(11.9)
        assert sweep(tc) == []
        clock.advance(0.2)
        assert sweep(tc) == [room["code"]]
        answer = tc.get(f"/api/rooms/{room['code']}")
        assert answer.json()["words"]["key"] == "refusal.room_closed_finished"


def test_a_days_room_never_gives_way_to_a_newcomer(db: Path) -> None:
    clock = Clock()
    app = create_app(db, clock=clock, max_rooms=2, reclaim_after=60)
    with TestClient(app) as tc:
        kept = tc.post("/api/rooms", json={"game": "hairpin", "options": {
            "red": "human", "black": "easy", "days": True}}).json()
        plain = tc.post("/api/rooms", json={"game": "hairpin", "options": {}}).json()
        clock.advance(1)
        made = tc.post("/api/rooms", json={"game": "hairpin", "options": {}})
        assert made.status_code == 201, made.text  # the plain room nobody joined gave way
        assert tc.get(f"/api/rooms/{plain['code']}").status_code == 404
        assert tc.get(f"/api/rooms/{kept['code']}").status_code == 200
        full = tc.post("/api/rooms", json={"game": "hairpin", "options": {}})
        assert full.status_code == 409  # the newest is too young, the days room stays
        assert tc.get(f"/api/rooms/{kept['code']}").status_code == 200


@pytest.mark.parametrize(("game", "options", "key"), [
    ("pistard", {"days": "yes"}, "refusal.days_switch"),
    ("hairpin", {"days": 1}, "refusal.days_switch"),
    ("derby", {"days": True}, None),  # not a turn-based game: an option it does not know
])
def test_the_days_option_is_checked(client: TestClient, game: str, options: dict[str, Any],
                                    key: str | None) -> None:
    answer = client.post("/api/rooms", json={"game": game, "options": options})
    assert answer.status_code == 400, answer.text
    worded(answer.json())
    if key is not None:
        assert answer.json()["words"]["key"] == key
        assert render(answer.json()["words"], "ja") != answer.json()["error"]
    else:
        assert "days" in answer.json()["error"]


def test_the_days_switch_is_saved_with_the_room_and_only_when_on() -> None:
    on = PistardRoom.create({"players": ["human", "easy"], "days": True}, seed=1)
    off = PistardRoom.create({"players": ["human", "easy"]}, seed=1)
    assert on.days and not off.days
    assert on.to_json()["days"] is True and "days" not in off.to_json()
    assert PistardRoom.from_json(on.to_json()).days is True
    assert PistardRoom.from_json(off.to_json()).days is False
    with pytest.raises(RoomError):
        PistardRoom.create({"days": None}, seed=1)


def test_the_room_options_schema_offers_the_switch(client: TestClient) -> None:
    for game in ("hairpin", "pistard"):
        schema = client.get(f"/api/games/{game}/options", params={"for": "room"}).json()
        assert schema["properties"]["days"]["type"] == "boolean"
        assert schema["properties"]["days"]["default"] is False
    derby = client.get("/api/games/derby/options", params={"for": "room"}).json()
    assert "days" not in derby["properties"]
    plain = client.get("/api/games/pistard/options").json()  # the game's own model
    assert "days" not in plain["properties"]


# --- "my games" -------------------------------------------------------------------------
def mine(tc: TestClient, *held: tuple[str, str]) -> list[dict[str, Any]]:
    answer = tc.post("/api/my-games", json={"rooms": [
        {"code": code, "token": token} for code, token in held]})
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    return list(answer.json()["rooms"])


def test_my_games_tells_each_key_its_own_glance(client: TestClient) -> None:
    room = pistard(client, days=True)
    code = room["code"]
    lobby = mine(client, (code, room["host_token"]))[0]
    assert lobby["phase"] == "lobby" and lobby["to_act"] is None
    assert lobby["your_turn"] is False and lobby["role"] == "host"
    aki, ben = started(client, room)
    host, first, second = mine(client, (code, room["host_token"]), (code, aki),
                               (code.lower(), ben))
    assert [g["role"] for g in (host, first, second)] == ["host", "seat", "seat"]
    assert (first["seat"], first["name"], second["seat"], second["name"]) == (0, "Aki", 1, "Ben")
    for glance in (host, first, second):
        assert glance["found"] is True and glance["game"] == "pistard"
        assert glance["phase"] == "racing" and glance["finished"] is False
        assert glance["days"] is True and glance["code"] == code
        assert [p["name"] for p in glance["players"]] == ["Aki", "Ben"]
    assert [p["mine"] for p in first["players"]] == [True, False]
    assert [p["mine"] for p in second["players"]] == [False, True]
    assert [p["mine"] for p in host["players"]] == [False, False]  # phones play both
    to_act = first["to_act"]
    assert to_act in (0, 1) and second["to_act"] == host["to_act"] == to_act
    assert (first["your_turn"], second["your_turn"]) == (to_act == 0, to_act == 1)
    assert host["your_turn"] is False
    move(client, code, [aki, ben])
    after = mine(client, (code, aki), (code, ben))
    assert [g["your_turn"] for g in after].count(True) == 1


def test_my_games_with_the_host_playing_a_place_on_its_screen(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"game": "hairpin", "options": {
        "red": "human", "black": "medium", "days": True}}).json()
    host = Client(client, room["code"], room["host_token"])
    assert host.send({"type": "start"})["type"] == "ack"
    host.close()
    (glance,) = mine(client, (room["code"], room["host_token"]))
    assert [(p["controller"], p["mine"]) for p in glance["players"]] == [
        ("screen", True), ("computer", False)]
    assert glance["to_act"] == 0 and glance["your_turn"] is True
    assert glance["seat"] is None and glance["name"] is None


def test_my_games_tells_nothing_to_a_key_that_is_not_the_rooms(client: TestClient) -> None:
    one = pistard(client, days=True)
    other = new_room(client)  # a Dice Derby evening
    aki = join(client, one["code"], "Aki")["token"]
    answers = mine(client, (one["code"], other["host_token"]),  # another room's key
                   (one["code"], "x" * 22),  # a made-up key
                   ("ZZZZ", aki),  # no such room
                   (one["code"], ""),  # no key at all
                   (other["code"], other["host_token"]))
    for answer, code in zip(answers[:4], [one["code"], one["code"], "ZZZZ", one["code"]],
                            strict=True):
        assert answer == {"code": code, "found": False}
    derby = answers[4]
    assert derby["found"] is True and derby["game"] == "derby" and derby["role"] == "host"
    assert derby["players"] is None and derby["days"] is False  # not a turn-based game
    assert mine(client) == []


def test_a_closed_room_is_not_found_in_my_games(db: Path) -> None:
    clock = Clock()
    with server(db, clock) as tc:
        room = pistard(tc)
        assert sweep(tc) == []
        clock.advance(13)
        assert sweep(tc) == [room["code"]]
        assert mine(tc, (room["code"], room["host_token"])) == [
            {"code": room["code"], "found": False}]


@pytest.mark.parametrize("body", [
    {},
    {"rooms": "BCDF"},
    {"rooms": [{"code": "BCDF"}]},
    {"rooms": [{"code": "BCDF", "token": 5}]},
    {"rooms": [{"code": "BCDF", "token": "x" * 300}]},
    {"rooms": [{"code": "B" * 40, "token": "t" * 22}]},
    {"rooms": [{"code": "BCDF", "token": "t" * 22, "seat": 1}]},
    {"rooms": [], "extra": True},
    {"rooms": [{"code": "BCDF", "token": "t" * 22}] * (MAX_HELD + 1)},
])
def test_my_games_refuses_bad_input_in_words(client: TestClient, body: dict[str, Any]
                                             ) -> None:
    answer = client.post("/api/my-games", json=body)
    assert answer.status_code == 400, answer.text
    worded(answer.json())


def test_my_games_refuses_what_is_not_json_and_a_get(client: TestClient) -> None:
    assert client.post("/api/my-games", content=b"{nope",
                       headers={"content-type": "application/json"}).status_code == 400
    assert client.post("/api/my-games", content=b"{}",
                       headers={"content-type": "text/plain"}).status_code == 415
    answer = client.get("/api/my-games")  # keys travel in a body, never in an address
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"
    worded(answer.json())


def test_my_games_counts_each_room_as_a_lookup(db: Path) -> None:
    """Guessing keys costs like guessing codes: a miss costs more, then 429."""
    with serving(db, lookup_burst=12, lookup_rate=0.001) as tc:
        room = pistard(tc)
        held = [(room["code"], room["host_token"])]
        assert mine(tc, *held)[0]["found"] is True
        wrong = tc.post("/api/my-games", json={"rooms": [
            {"code": room["code"], "token": f"guess{n:04d}xxxxxxxx"} for n in range(MAX_HELD)]})
        assert wrong.status_code == 429 and "Retry-After" in wrong.headers
        worded(wrong.json())


def test_the_glance_of_a_turn_room_holds_no_more_than_its_view() -> None:
    import numpy as np

    room = PistardRoom.create({"players": ["human", "human"], **SHORT, "days": True}, seed=3)
    room.add_seat("Aki")
    room.add_seat("Ben")
    room.handle(Actor.host(), {"type": "start"}, np.random.default_rng(3))
    for actor in (Actor.player(0), Actor.player(1), Actor.host(), Actor.spectator()):
        glance, view = room.glance(actor), room.view(actor)
        assert glance["phase"] == view["phase"] and glance["to_act"] == view["to_act"]
        assert glance["your_turn"] == view["may_act"]
        assert [p["mine"] for p in glance["players"]] == [
            p["place"] in view["mine"] for p in view["players"]]
