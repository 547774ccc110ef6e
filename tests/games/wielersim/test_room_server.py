"""The party server plays a WielerSIM watch room's film by itself: with the host's page
closed, every screen still gets one frame an update, in order, each once, to the finish;
a stage race's next stage becomes a watch room through /api/wielersim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from raceday.core.events import Message
from raceday.present import render
from tests.web.conftest import Client, join, serving


def next_update(client: Client) -> dict[str, Any]:
    """The next update this screen is sent (waiting for it: nobody sends anything)."""
    while True:
        message = client.receive()
        if message["type"] == "update":
            return message


def test_the_film_plays_to_the_end_with_no_page_driving_it(tmp_path: Path) -> None:
    with serving(tmp_path / "party.sqlite") as tc:
        made = tc.post("/api/rooms", json={"game": "wielersim", "options": {
            "route": "flat-stage", "peloton": "small", "seed": 5}})
        assert made.status_code == 201, made.text
        code = made.json()["code"]
        seat = join(tc, code, "Aki")
        host = Client(tc, code, made.json()["host_token"])
        assert host.send({"type": "start"})["type"] == "ack"
        assert host.send({"type": "pace", "seconds": 0.2})["type"] == "ack"
        host.close()  # the big screen is switched off: nothing sends anything now
        phone = Client(tc, code, seat["token"])
        watcher = Client(tc, code, None)
        shown = phone.view["shown"]
        for _ in range(200):  # a hang guard far above the film's length
            updates = [next_update(phone), next_update(watcher)]
            assert updates[0]["seq"] == updates[1]["seq"]  # both screens, the same step
            assert updates[0]["view"]["frame"] == updates[1]["view"]["frame"]
            assert [e["type"] for e in updates[0]["events"]] == ["film_frame"]
            assert updates[0]["view"]["shown"] == shown + 1  # the next frame, once
            shown += 1
            if updates[0]["view"]["phase"] == "finished":
                break
        view = phone.view
        assert view["phase"] == "finished" and view["standings"][0]["place"] == 1
        assert view["timeline"]["running"] is False
        assert view["finale"]["podium"][0]["place"] == 1


def test_a_stage_race_stage_becomes_a_watch_room(tmp_path: Path) -> None:
    with serving(tmp_path / "party.sqlite") as tc:
        made = tc.post("/api/wielersim/campaigns", json={
            "tour": "ronde-van-belgie", "peloton": "small", "name": "spring", "seed": 3})
        assert made.status_code == 201, made.text
        mine = {"x-campaign-key": made.json()["key"]}  # the campaign's owner key
        # the prologue has no road: no film, a 400 with words, and nothing is ridden
        refused = tc.post("/api/wielersim/campaigns/spring/watch", json={"stage": 0}, headers=mine)
        assert refused.status_code == 400 and "prologue" in refused.json()["error"]
        # in words of the game's table, which the page renders in its reader's language
        words = refused.json()["words"]
        assert words["key"] == "wielersim.refusal.prologue_no_film"
        assert render(Message(words["key"], words["params"]), "ja", "wielersim").startswith(
            "プロローグ")
        assert tc.get("/api/wielersim/campaigns/spring").json()["done"] == 0
        assert tc.post("/api/wielersim/campaigns/spring/ride", json={"stage": 0},
                       headers=mine).status_code == 200
        room = tc.post("/api/wielersim/campaigns/spring/watch", json={"stage": 1},
                       headers=mine)
        assert room.status_code == 201, room.text
        assert tc.get("/api/wielersim/campaigns/spring").json()["done"] == 2  # ridden, saved
        host = Client(tc, room.json()["code"], room.json()["host_token"])
        film = host.view["film"]
        assert film["campaign"] == "spring" and film["stage"] == 1 and film["title"]
        assert host.send({"type": "start"})["type"] == "ack"
        assert host.send({"type": "skip"})["type"] == "ack"
        saved = tc.get("/api/wielersim/campaigns/spring/stages/1").json()
        assert host.view["standings"] == saved["result"]
        # a stage beyond the next one is not ridden: refused, and nothing is ridden
        assert tc.post("/api/wielersim/campaigns/spring/watch",
                       json={"stage": 5}, headers=mine).status_code == 404
        assert tc.get("/api/wielersim/campaigns/spring").json()["done"] == 2
        assert tc.post("/api/wielersim/campaigns/nosuch/watch",
                       json={"stage": 0}).status_code == 403  # no key opens it
