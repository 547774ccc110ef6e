"""Replays: finished rooms from their event log (public events only), and what the CLI
saved for each game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient

from raceday.core.agents import RandomAgent
from raceday.games.derby.session import Payout, RaceRecord
from raceday.games.hairpin import GAME as HAIRPIN
from raceday.games.keirin.saved_night import Settlement
from raceday.present import describe_outcome
from raceday.present.pictures import text_picture
from raceday.present.replay import step_text
from raceday.store.sessions import SessionStore
from tests.web.conftest import Client, join, new_room, serving


def test_a_finished_room_replays_its_public_events(client: TestClient, db: Path) -> None:
    tc = client
    room = new_room(tc, races=4)
    code = room["code"]
    tokens = [join(tc, code, name)["token"] for name in ("Aki", "Ben")]
    host = Client(tc, code, room["host_token"])
    started = host.send({"type": "start", "computers": 0})
    assert started["type"] == "ack", started
    seat = Client(tc, code, tokens[0])
    bid = seat.send({"type": "bid", "amount": 4700})
    assert bid["type"] == "ack", bid
    early = tc.get(f"/api/replay/room/{code}")
    assert early.status_code == 409 and f"/watch/{code}" in early.json()["error"]
    with sqlite3.connect(db) as conn:  # the evening ends (as the room logic would mark it)
        conn.execute("UPDATE rooms SET finished = 1 WHERE code = ?", (code,))
    with serving(db) as tc:
        listed = tc.get("/api/replays").json()["rooms"]
        assert [(r["name"], r["game"]) for r in listed] == [(code, "derby")]
        data = tc.get(f"/api/replay/room/{code.lower()}").json()
        steps = data["steps"]
        assert [s["seq"] for s in steps] == list(range(1, len(steps) + 1))
        assert steps[0]["events"] == [{"key": "event.created", "params": {"game": "derby"}}]
        assert [s["events"][0] for s in steps[1:3]] == [
            {"key": "event.joined", "params": {"seat": 0, "name": "Aki"}},
            {"key": "event.joined", "params": {"seat": 1, "name": "Ben"}}]
        assert [step_text(s, "derby") for s in steps[:3]] == [
            ["The room is opened"], ["Aki joins"], ["Ben joins"]]
        assert step_text(steps[1], "derby", "ja") == ["Aki が参加"]
        assert steps[3]["who"] == {"kind": "host"}
        assert steps[4]["who"] == {"kind": "seat", "seat": 0, "name": "Aki"}
        assert "4700" not in tc.get(f"/api/replay/room/{code}").text  # a sealed bid
        assert tc.get("/api/replay/room/ZZZZ").status_code == 404
        assert tc.get(f"/replay/room/{code}").status_code == 200


def test_cli_sessions_replay_from_what_they_saved(db: Path) -> None:
    store = SessionStore(db)
    record = HAIRPIN.play(None, [RandomAgent(), RandomAgent()], rng=3)
    final = record.final_state
    store.save("hairpin", "done", {"state": final.to_json(), "red": "random",
                                   "black": "random", "undo": [], "rng": {}})
    start = HAIRPIN.new_state(None)
    store.save("hairpin", "open", {"state": start.to_json(), "red": "human",
                                   "black": "easy", "undo": [], "rng": {}})
    race = RaceRecord(race=1, first=6, second=5, first_out=(1,),
                      payouts=(Payout(0, "win ticket", 3000),), tickets=())
    store.save("derby", "party", {"players": [{"name": "Aki"}]}, log_entry={"race": race.to_json()})
    night = Settlement(race=2, ranking=[3, 1, 7], derny=11, tickets=[], returns=[])
    store.save("keirin", "night", {"version": 1}, log_entry=night.log_entry({"Aki": 123_450}))
    with serving(db) as tc:
        listed = {(s["game"], s["name"]) for s in tc.get("/api/replays").json()["sessions"]}
        assert listed == {("hairpin", "done"), ("derby", "party"), ("keirin", "night")}
        hp = tc.get("/api/replay/hairpin/done").json()["steps"]
        assert len(hp) == 1 and step_text(hp[0], "hairpin") == [
            "Final position", describe_outcome("hairpin", final.outcome())]
        assert hp[0]["board"] == text_picture(final) and hp[0]["frame"] == final.frame()
        unfinished = tc.get("/api/replay/hairpin/open")
        assert unfinished.status_code == 409 and "not finished" in unfinished.json()["error"]
        dd = tc.get("/api/replay/derby/party").json()["steps"]
        assert [step_text(step, "derby") for step in dd] == [[
            "Race 1", "1st d20, 2nd d12", "First out: d4", "Aki: win ticket 3,000"]]
        kr = tc.get("/api/replay/keirin/night").json()["steps"]
        assert step_text(kr[0], "keirin") == [
            "Race 2", "Order: 3-1-7 (derny 11)", "Purses: Aki 1,234.50"]
        assert tc.get("/api/replay/chess/x").status_code == 404
        assert tc.get("/api/replay/derby/nobody").status_code == 404


def test_a_stage_race_replays_stage_by_stage(client: TestClient) -> None:
    key = client.post("/api/wielersim/campaigns", json={
        "tour": "ronde-van-belgie", "peloton": "small", "name": "rvb"}).json()["key"]
    assert client.get("/api/replay/wielersim/rvb").status_code == 409  # nothing ridden
    for stage in (0, 1):
        client.post("/api/wielersim/campaigns/rvb/ride", json={"stage": stage},
                    headers={"x-campaign-key": key})
    steps = client.get("/api/replay/wielersim/rvb").json()["steps"]
    assert [step_text(s, "wielersim")[0] for s in steps] == [
        "Prologue", "Stage 1: Brugge - Oostende (flat)"]
    assert steps[1]["url"] == "/replay/wielersim/rvb/1"
    film = client.get("/api/replay/wielersim/rvb/1").json()
    assert film == client.get("/api/wielersim/campaigns/rvb/stages/1").json()
    assert client.get("/api/replay/wielersim/rvb/2").status_code == 404  # not ridden
    refused = client.get("/api/replay/wielersim/rvb/x1")
    assert refused.status_code == 400 and "'x1'" in refused.json()["error"]
    assert client.get("/api/replay/wielersim/nobody/0").status_code == 404
    store = SessionStore(client.app.state.rooms.store.path)  # type: ignore[attr-defined]
    store.save("hairpin", "done", {"state": HAIRPIN.new_state(None).to_json()})
    no_parts = client.get("/api/replay/hairpin/done/0")
    assert no_parts.status_code == 404 and "has no parts" in no_parts.json()["error"]
