"""Play again on the server: once a game is over the host's ``again`` starts a fresh one
with the same seats; a phone keeps its seat and its token (no rejoin: its open connection
sees the new game, and the same token opens it again later); the new game's paced steps
are played by the server's timer, which has nothing set while the game is over."""

from __future__ import annotations

from pathlib import Path

from tests.web.conftest import Client, join, serving
from tests.web.test_timeline import _toy_games, create, next_update, started_guess

__all__ = ["_toy_games"]  # the fixture that serves the kit's toy rooms as games


def test_a_phone_keeps_its_seat_and_token_across_again(db: Path) -> None:
    with serving(db) as tc:
        hub = tc.app.state.hub  # type: ignore[attr-defined]
        code, host, seats = started_guess(tc)
        aki, ben = (Client(tc, code, s["token"]) for s in seats)
        refused = host.send({"type": "again"})
        assert refused["type"] == "error" and refused["words"]["key"] == "refusal.not_over"
        aki.send({"type": "act", "action": 1})
        acked = ben.send({"type": "act", "action": 2})
        ben.until(acked["seq"])
        finished = next_update(ben)  # the server's paced throw ends the game
        assert finished["view"]["phase"] == "finished"
        finale = finished["view"]["finale"]
        assert {p["name"] for p in finale["podium"]} == {"Aki", "Ben"}
        assert finale["again"] is True
        assert code not in hub.timers  # nothing left to play: no timer
        assert aki.send({"type": "again"})["type"] == "error"  # the host's alone
        again = host.send({"type": "again"})
        assert again["type"] == "ack"
        for phone, name in ((aki, "Aki"), (ben, "Ben")):
            phone.until(again["seq"])
            assert phone.view["phase"] == "playing" and phone.view["finale"] is None
            assert phone.view["me"]["name"] == name and phone.view["me"]["may_act"]
        assert [e["type"] for e in host.events[-2:]] == ["again", "started"]
        aki.close()
        back = Client(tc, code, seats[0]["token"])  # the same token, later: the same seat
        assert back.welcome["role"] == {"kind": "seat", "seat": 0}
        assert back.send({"type": "act", "action": 3})["type"] == "ack"
        acked = ben.send({"type": "act", "action": 3})
        ben.until(acked["seq"])
        update = next_update(ben)  # the new game's throw, played by the server's timer
        assert [e["type"] for e in update["events"]] == ["thrown"]
        assert update["view"]["finale"]["podium"][0]["place"] == 1
        info = tc.get(f"/api/rooms/{code}").json()
        assert info["seats"] == ["Aki", "Ben"] and info["finished"] is True


def test_again_in_a_room_played_against_the_computer(db: Path) -> None:
    with serving(db) as tc:
        room = create(tc, "dash", players=["human", "runner"], target=2)
        code = room["code"]
        seat = join(tc, code, "Aki")
        host = Client(tc, code, room["host_token"])
        host.send({"type": "start"})
        host.send({"type": "pace", "seconds": 0.2})
        aki = Client(tc, code, seat["token"])
        for _ in range(200):
            if aki.view["phase"] == "finished":
                break
            if aki.view.get("may_act"):
                aki.send({"type": "move", "action": 1})  # "go" (a lone "stay" is forced)
            else:
                next_update(aki)
        assert aki.view["phase"] == "finished"
        assert host.send({"type": "again"})["type"] == "ack"
        aki.until(host.seq)
        assert aki.view["phase"] == "playing" and aki.view["me"]["name"] == "Aki"


def test_ending_a_paced_game_stops_its_timer_and_again_sets_it(db: Path) -> None:
    with serving(db) as tc:
        hub = tc.app.state.hub  # type: ignore[attr-defined]
        code, host, seats = started_guess(tc)
        # the slowest pace: a timer set stays set while the test looks (10 s)
        assert host.send({"type": "pace", "seconds": 10})["type"] == "ack"
        assert host.send({"type": "pause"})["type"] == "ack"  # the throw waits: no timer
        aki, ben = (Client(tc, code, s["token"]) for s in seats)
        aki.send({"type": "act", "action": 1})
        ben.send({"type": "act", "action": 2})
        assert code not in hub.timers
        assert host.send({"type": "resume"})["type"] == "ack"
        assert code in hub.timers  # the throw is set for the room's pace
        assert host.send({"type": "finish"})["type"] == "ack"  # the host ends it first
        assert code not in hub.timers and host.view["phase"] == "finished"
        assert host.view["finale"] == {"podium": [], "awards": [], "again": True}
        assert host.send({"type": "again"})["type"] == "ack"
        for seat, phone in enumerate((aki, ben)):
            assert phone.send({"type": "act", "action": seat + 1})["type"] == "ack"
        assert code in hub.timers  # the new game's throw, on the server's timeline
        assert host.send({"type": "pace", "seconds": 0.2})["type"] == "ack"
        update = next_update(ben)
        while update["view"]["phase"] != "finished":
            update = next_update(ben)
        assert code not in hub.timers
