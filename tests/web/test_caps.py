"""Open to strangers (#44): no single address fills, slows or blocks the party server.

One creation allowance per client address for every route that stores something new (a
room, a WielerSIM campaign or watch room, a Numbers job); rooms per address before the
server's cap, and rooms nobody joined giving way to a newcomer; seats per address in one
lobby; campaigns that only their own browser lists, rides and watches. Every allowance
refills by a clock the tests hold still."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.web.app import create_app
from tests.web.conftest import Client, closing_sockets, worded

GUEST = ("203.0.113.7", 50000)
OTHER = ("198.51.100.9", 50000)
THIRD = ("192.0.2.44", 50000)
LOOPBACK = ("127.0.0.1", 50000)
TOUR = {"tour": "ronde-van-belgie", "peloton": "small", "seed": 3}


class Clock:
    """A clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def at(app: Any, address: tuple[str, int]) -> Iterator[TestClient]:
    with closing_sockets(app, address) as tc:
        yield tc


def key_of(answer: Any) -> dict[str, str]:
    assert answer.status_code == 201, answer.text
    return {"x-campaign-key": answer.json()["key"]}


# --- one creation allowance ------------------------------------------------------------------
def test_the_watch_route_takes_from_the_one_creation_allowance(tmp_path: Path) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=Clock(), create_burst=6)
    with at(app, GUEST) as tc:
        mine = key_of(tc.post("/api/wielersim/campaigns", json={**TOUR, "name": "door"}))
        assert tc.post("/api/wielersim/campaigns/door/ride", json={"stage": 0},
                       headers=mine).status_code == 200
        answers = [tc.post("/api/wielersim/campaigns/door/watch", json={"stage": 1},
                           headers=mine) for _ in range(8)]
        assert [a.status_code for a in answers] == [201] * 5 + [429] * 3
        assert worded(answers[-1].json()).startswith("too many")
        # the same allowance: no room, campaign or job either, from this address
        assert tc.post("/api/rooms", json={"game": "derby"}).status_code == 429
        assert tc.post("/api/wielersim/campaigns", json=TOUR).status_code == 429
        job = {"game": "wielersim", "route": "flat-stage", "peloton": "small", "n": 100}
        assert tc.post("/api/numbers", json=job).status_code == 429
    with at(app, OTHER) as tc:  # another address is not held up
        assert tc.post("/api/rooms", json={"game": "derby"}).status_code == 201


def test_watch_rooms_count_against_the_address_rooms(tmp_path: Path) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=Clock(), create_burst=50,
                     rooms_per_address=2)
    with at(app, GUEST) as tc:
        mine = key_of(tc.post("/api/wielersim/campaigns", json={**TOUR, "name": "cap"}))
        tc.post("/api/wielersim/campaigns/cap/ride", json={"stage": 0}, headers=mine)
        made = [tc.post("/api/wielersim/campaigns/cap/watch", json={"stage": 1},
                        headers=mine) for _ in range(2)]
        assert [m.status_code for m in made] == [201, 201]
        refused = tc.post("/api/wielersim/campaigns/cap/watch", json={"stage": 1},
                          headers=mine)
        assert refused.status_code == 429
        assert refused.json()["words"]["key"] == "refusal.rooms_per_address"
        assert tc.post("/api/rooms", json={"game": "derby"}).status_code == 429


# --- rooms per address, the server's cap, and rooms that give way ----------------------------
def test_the_address_cap_comes_before_the_server_cap_and_unjoined_rooms_give_way(
        tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(tmp_path / "party.sqlite", clock=clock, create_burst=50,
                     max_rooms=5, rooms_per_address=3, reclaim_after=300)
    with at(app, GUEST) as tc:
        mine = [tc.post("/api/rooms", json={"game": "derby"}) for _ in range(4)]
        assert [r.status_code for r in mine] == [201, 201, 201, 429]
        assert worded(mine[-1].json()).startswith("this address already holds 3 rooms")
        joined_code = mine[0].json()["code"]
        assert tc.post(f"/api/rooms/{joined_code}/join", json={"name": "Aki"}).status_code \
            == 201
    with at(app, OTHER) as tc:
        theirs = [tc.post("/api/rooms", json={"game": "derby"}) for _ in range(2)]
        assert [r.status_code for r in theirs] == [201, 201]
        watched_code = theirs[0].json()["code"]
        screen = Client(tc, watched_code, None)  # a screen has this one open
        with at(app, THIRD) as newcomer:
            full = newcomer.post("/api/rooms", json={"game": "derby"})
            assert full.status_code == 409
            assert worded(full.json()) == "this server already keeps 5 rooms"
            clock.now += 299  # not yet a few minutes
            assert newcomer.post("/api/rooms", json={"game": "derby"}).status_code == 409
            clock.now += 1
            made = [newcomer.post("/api/rooms", json={"game": "derby"}) for _ in range(4)]
            # the unjoined, unwatched rooms gave way (GUEST's two, OTHER's one): three more,
            # then the newcomer's own cap
            assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert len(app.state.rooms.rooms) == 5
        rooms = app.state.rooms.rooms
        assert joined_code in rooms and watched_code in rooms  # a seat, a screen: kept
        assert screen.view["phase"] == "lobby"
        gone = [r.json()["code"] for r in mine[1:3]]
        assert all(tc.get(f"/api/rooms/{code}").status_code == 404 for code in gone)
    # GUEST holds one room now: the address cap let go too
    assert sum(1 for r in app.state.rooms.rooms.values() if r.owner == GUEST[0]) == 1


def test_an_address_refused_by_its_cap_gets_room_after_its_unjoined_rooms_give_way(
        tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(tmp_path / "party.sqlite", clock=clock, create_burst=50,
                     rooms_per_address=2, reclaim_after=60)
    with at(app, GUEST) as tc:
        assert [tc.post("/api/rooms", json={"game": "derby"}).status_code
                for _ in range(3)] == [201, 201, 429]
        clock.now += 60
        assert tc.post("/api/rooms", json={"game": "derby"}).status_code == 201


# --- seats per address --------------------------------------------------------------------------
def test_one_address_takes_a_bounded_share_of_a_lobby(tmp_path: Path) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=Clock())  # default: 4 an address
    with at(app, OTHER) as host:
        code = host.post("/api/rooms", json={"game": "derby"}).json()["code"]
    with at(app, GUEST) as squatter:
        answers = [squatter.post(f"/api/rooms/{code}/join", json={"name": f"bot{k}"})
                   for k in range(12)]
        assert [a.status_code for a in answers] == [201] * 4 + [429] * 8
        assert "4 seats of this room" in worded(answers[-1].json())
    with at(app, THIRD) as guest:  # the lobby still has room for everyone else
        assert guest.post(f"/api/rooms/{code}/join", json={"name": "Mia"}).status_code == 201
    with at(app, GUEST) as squatter:  # and another room is another share
        other = squatter.post("/api/rooms", json={"game": "derby"}).json()["code"]
        assert squatter.post(f"/api/rooms/{other}/join", json={"name": "bot"}).status_code \
            == 201


def test_a_venue_raises_the_seats_per_address(tmp_path: Path) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=Clock(), seats_per_address=6)
    with at(app, GUEST) as bar:
        code = bar.post("/api/rooms", json={"game": "derby"}).json()["code"]
        answers = [bar.post(f"/api/rooms/{code}/join", json={"name": f"P{k}"})
                   for k in range(7)]
        assert [a.status_code for a in answers] == [201] * 6 + [429]


# --- the host removes a seat ---------------------------------------------------------------------
def test_the_host_removes_a_seat_and_its_key_stops_working(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    app = create_app(db, clock=Clock(), burst=500, rate=500)
    with at(app, GUEST) as tc:
        room = tc.post("/api/rooms", json={"game": "keirin"}).json()
        code = room["code"]
        tokens = [tc.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
                  for n in ("Aki", "Bo", "Cy")]
        host = Client(tc, code, room["host_token"])
        phones = [Client(tc, code, t) for t in tokens]
        refused = host.send({"type": "remove_seat", "seat": 7})
        assert refused["type"] == "error" and refused["words"]["key"] == \
            "refusal.no_such_seat"
        ack = host.send({"type": "remove_seat", "seat": 1})
        assert ack["type"] == "ack", ack
        assert host.view["seats"] == ["Aki", "Cy"]
        told = phones[1].receive()
        assert told["type"] == "error" and told["fatal"] and told["reason"] == "removed"
        assert told["words"]["key"] == "refusal.seat_removed"
        # the seat after it moved up: Cy's phone is seat 1 now and still acts as Cy
        phones[2].until(ack["seq"])
        assert phones[2].view["me"]["seat"] == 1
        assert tc.get(f"/api/rooms/{code}").json()["seats"] == ["Aki", "Cy"]
        again = Client(tc, code, tokens[1])  # the removed key opens nothing
        assert again.welcome["type"] == "error" and again.welcome["fatal"]
        assert again.welcome["words"]["key"] == "refusal.not_a_seat"
        cy = Client(tc, code, tokens[2])
        assert cy.welcome["role"] == {"kind": "seat", "seat": 1}
        assert phones[0].send({"type": "remove_seat", "seat": 0})["type"] == "error"
        assert host.send({"type": "start"})["type"] == "ack"
        late = host.send({"type": "remove_seat", "seat": 0})
        assert late["type"] == "error" and late["words"]["key"] == "refusal.remove_in_lobby"
    # after a restart the seats and their keys still agree
    with at(create_app(db, clock=Clock()), GUEST) as tc:
        cy = Client(tc, code, tokens[2])
        assert cy.welcome["role"] == {"kind": "seat", "seat": 1}
        assert cy.view["me"]["seat"] == 1
        gone = Client(tc, code, tokens[1])
        assert gone.welcome["words"]["key"] == "refusal.not_a_seat"


@pytest.mark.parametrize("game", ["hairpin", "derby"])
def test_every_game_room_lets_the_host_remove_a_seat(tmp_path: Path, game: str) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=Clock(), burst=500, rate=500)
    with at(app, GUEST) as tc:
        options = {"red": "human", "black": "human"} if game == "hairpin" else {}
        room = tc.post("/api/rooms", json={"game": game, "options": options}).json()
        code = room["code"]
        for name in ("Aki", "Bo"):
            assert tc.post(f"/api/rooms/{code}/join", json={"name": name}).status_code == 201
        host = Client(tc, code, room["host_token"])
        assert host.send({"type": "remove_seat", "seat": 0})["type"] == "ack"
        assert tc.get(f"/api/rooms/{code}").json()["seats"] == ["Bo"]
        # the freed place is taken by the next phone
        assert tc.post(f"/api/rooms/{code}/join", json={"name": "Cy"}).json()["seat"] == 1


# --- campaigns and their owner keys ---------------------------------------------------------------
def test_a_browser_lists_only_its_own_campaigns_a_page_at_a_time(tmp_path: Path) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=Clock(), create_burst=50)
    with at(app, GUEST) as tc:
        keys = [key_of(tc.post("/api/wielersim/campaigns", json={**TOUR, "name": f"c{k}"}))
                ["x-campaign-key"] for k in range(5)]
    with at(app, OTHER) as tc:
        key_of(tc.post("/api/wielersim/campaigns", json={**TOUR, "name": "theirs"}))
        assert tc.get("/api/wielersim/campaigns").json()["campaigns"] == []  # no keys sent
        held = {"x-campaign-keys": ",".join(keys[:4])}
        first = tc.get("/api/wielersim/campaigns?limit=3", headers=held).json()
        assert first["total"] == 4 and first["next_offset"] == 3
        rest = tc.get("/api/wielersim/campaigns?limit=3&offset=3", headers=held).json()
        assert rest["next_offset"] is None
        names = [c["name"] for c in first["campaigns"] + rest["campaigns"]]
        assert sorted(names) == ["c0", "c1", "c2", "c3"]
        assert all(c["owner"] for c in first["campaigns"])
        bad = tc.get("/api/wielersim/campaigns?limit=100000")
        assert bad.status_code == 400 and worded(bad.json())


def test_riding_or_watching_another_browsers_campaign_is_403(tmp_path: Path) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=Clock())
    with at(app, GUEST) as tc:
        mine = key_of(tc.post("/api/wielersim/campaigns", json={**TOUR, "name": "mine"}))
    with at(app, OTHER) as tc:
        for path, headers in (("ride", {}), ("ride", {"x-campaign-key": "w" * 22}),
                              ("watch", {})):
            r = tc.post(f"/api/wielersim/campaigns/mine/{path}", json={"stage": 0},
                        headers=headers)
            assert r.status_code == 403, r.text
            assert worded(r.json()).startswith("'mine' is another browser's stage race")
        assert tc.delete("/api/wielersim/campaigns/mine").status_code == 403
        assert tc.post("/api/wielersim/campaigns/mine/ride", json={"stage": 0},
                       headers=mine).status_code == 200  # the key is what opens it
    with at(app, LOOPBACK) as tc:  # the server's own machine: not an owned campaign
        assert tc.post("/api/wielersim/campaigns/mine/ride", json={"stage": 1}) \
            .status_code == 403
    with at(app, GUEST) as tc:
        assert tc.delete("/api/wielersim/campaigns/mine", headers=mine).status_code == 200
        assert tc.get("/api/wielersim/campaigns/mine").status_code == 404


def test_campaigns_are_capped_per_address_then_for_the_server(tmp_path: Path) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=Clock(), create_burst=50,
                     campaigns_per_address=2, max_campaigns=3)
    with at(app, GUEST) as tc:
        made = [tc.post("/api/wielersim/campaigns", json={**TOUR, "seed": s})
                for s in (1, 2, 3)]
        assert [m.status_code for m in made] == [201, 201, 429]
        assert "already started 2 stage races" in worded(made[-1].json())
    with at(app, OTHER) as tc:
        made = [tc.post("/api/wielersim/campaigns", json={**TOUR, "seed": s})
                for s in (4, 5)]
        assert [m.status_code for m in made] == [201, 409]
        assert "already keeps 3 stage races" in worded(made[-1].json())
    with at(app, GUEST) as tc:  # deleting one makes room again
        name = made[0].json()["name"]
        assert tc.delete(f"/api/wielersim/campaigns/{name}").status_code == 403
    with at(app, OTHER) as tc:
        assert tc.delete(f"/api/wielersim/campaigns/{name}",
                         headers=key_of(made[0])).status_code == 200
        assert tc.post("/api/wielersim/campaigns", json={**TOUR, "seed": 6}).status_code \
            == 201


def test_a_terminal_campaign_opens_only_on_the_server_machine(tmp_path: Path) -> None:
    from raceday.games.wielersim.campaign import new_campaign
    from raceday.games.wielersim.rules import peloton_spec
    from raceday.games.wielersim.stage import resolve_tour
    from raceday.store.sessions import SessionStore

    db = tmp_path / "party.sqlite"
    new_campaign(SessionStore(db), "home", resolve_tour("ronde-van-belgie"),
                 peloton_spec("small"), 3)  # as `raceday wielersim tour` saves it
    app = create_app(db, clock=Clock())
    with at(app, GUEST) as tc:
        assert tc.get("/api/wielersim/campaigns").json()["campaigns"] == []
        assert tc.post("/api/wielersim/campaigns/home/ride", json={"stage": 0}) \
            .status_code == 403
    with at(app, LOOPBACK) as tc:
        listed = tc.get("/api/wielersim/campaigns").json()["campaigns"]
        assert [(c["name"], c["owner"]) for c in listed] == [("home", False)]
        assert tc.post("/api/wielersim/campaigns/home/ride", json={"stage": 0}) \
            .status_code == 200
        # a proxy on the same machine is not the server's own user
        assert tc.post("/api/wielersim/campaigns/home/ride", json={"stage": 1},
                       headers={"x-forwarded-for": "203.0.113.9"}).status_code == 403


def test_the_new_refusals_are_declared_in_openapi(tmp_path: Path) -> None:
    with at(create_app(tmp_path / "party.sqlite"), GUEST) as tc:
        paths = tc.get("/openapi.json").json()["paths"]
    assert {"409", "429"} <= set(paths["/api/rooms"]["post"]["responses"])
    watch = paths["/api/wielersim/campaigns/{name}/watch"]["post"]["responses"]
    assert {"403", "409", "429"} <= set(watch)
    assert {"409", "429"} <= set(paths["/api/wielersim/campaigns"]["post"]["responses"])
    assert "403" in paths["/api/wielersim/campaigns/{name}"]["delete"]["responses"]
    assert "429" in paths["/api/rooms/{code}/join"]["post"]["responses"]
