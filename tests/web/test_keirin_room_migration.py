"""KEIRIN rooms saved before the night was a protocol state (format 1, a session document
and the room's own tickets) open as they stood, every screen seeing the same view, and go on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.core.events import Event
from raceday.games.keirin.replay import current_shape
from raceday.games.keirin.track import stage_marks
from raceday.present import describe_event
from tests.web.conftest import Client, serving

SAVES = Path(__file__).parents[1] / "fixtures" / "saves" / "keirin"
BEFORE = json.loads((SAVES / "rooms_before_night.json").read_text())


@pytest.fixture
def old_rooms(tmp_path: Path) -> TestClient:
    db = tmp_path / "rooms.sqlite"
    shutil.copy(SAVES / "rooms_before_night.sqlite", db)
    with serving(db, burst=1000, rate=1000) as tc:  # closes every client, failing or not
        yield tc


def _with_todays_facts(view: dict[str, Any]) -> dict[str, Any]:
    """A saved view whose race step (if any) has the facts today's words use added: the
    saved facts stay as they were, the new ones are only added. A started night's view
    also shows the room's timeline now: its own pace, running (an old room was not paused),
    and a pool night's tote only once betting has closed; and nobody away, nobody's seat
    given to a stand-in (the computer bettors' levels, or passing), no computer bettors
    and no hints."""
    view = {**view, "away": [], "stand_ins": [], "levels": ["cautious", "sharp", "pass"],
            "computers": [], "hints": False}
    if view.get("phase") != "lobby":
        running = view.get("phase") == "racing"
        view = {**view, "timeline": {"pace": 2.2, "paused": False, "running": running}}
    if "tote" in view:  # a pool night: its pools are sealed until betting closes
        sealed = view.get("phase") == "betting"
        view = {**view, "tote": None if sealed else view["tote"], "tote_sealed": sealed}
    live = view.get("live")
    if live and "to_go" in live:  # the staged moments the TV draws, facts of the distance
        riders = len(live["positions"])
        live = {**live, **stage_marks(live["to_go"], riders)}
        view = {**view, "live": live}
    if not live or not live.get("step"):
        return view
    step = [current_shape(e) for e in live["step"]]
    for old, new in zip(live["step"], step, strict=True):
        assert new.items() >= old.items()
    return {**view, "live": {**live, "step": step}}


def _without_finale(view: dict[str, Any], saved: dict[str, Any]) -> dict[str, Any]:
    """Today's view without the finale the kit added since (checked here: none before the
    night is over; once it is, a podium of the night's players and Play again)."""
    view = dict(view)
    finale = view.pop("finale", None)  # a lobby shows none
    if saved["host_view"].get("phase") != "finished":
        assert finale is None
    else:
        assert finale["again"] is True and finale["podium"]
        assert {p["name"] for p in finale["podium"]} <= {
            p["name"] for p in saved["host_view"]["players"]}
    return view


@pytest.mark.parametrize("label", sorted(BEFORE))
def test_an_old_room_shows_every_screen_what_it_showed(old_rooms: TestClient, label: str
                                                       ) -> None:
    saved = BEFORE[label]
    host = Client(old_rooms, saved["code"], saved["host"])
    assert host.seq == saved["revision"]
    assert _without_finale(host.view, saved) == _with_todays_facts(saved["host_view"])
    for token, view in zip(saved["seats"], saved["seat_views"], strict=True):
        seat = Client(old_rooms, saved["code"], token)
        assert _without_finale(seat.view, saved) == _with_todays_facts(view)
        seat.close()
    host.close()


def test_an_old_rooms_race_step_reads_in_todays_words(old_rooms: TestClient) -> None:
    saved = BEFORE["racing"]
    host = Client(old_rooms, saved["code"], saved["host"])
    turn = host.view["live"]["step"][-1]
    assert turn["type"] == "turn" and turn["level"] is False and turn["chasing"] is False
    event = Event("turn", {k: v for k, v in turn.items() if k != "type"})
    assert describe_event("keirin", event) == "After turn 1, R1 leads."
    host.close()


def _ok(client: Client, intent: dict[str, object], everyone: list[Client]) -> None:
    answer = client.send(intent)
    assert answer["type"] == "ack", answer
    for c in everyone:
        c.until(answer["seq"])


def test_an_old_room_goes_on_to_the_end_of_its_night(old_rooms: TestClient) -> None:
    saved = BEFORE["racing"]  # pool mode, race 2 of 3 running
    host = Client(old_rooms, saved["code"], saved["host"])
    seats = [Client(old_rooms, saved["code"], t) for t in saved["seats"]]
    everyone = [host, *seats]
    locked = sum(t["stake"] for t in seats[0].view["me"]["tickets"])
    _ok(host, {"type": "pause"}, everyone)  # the test plays the race's steps itself
    while host.view["phase"] == "racing":
        _ok(host, {"type": "advance"}, everyone)
    last = host.view["last"]
    assert last["race"] == 2 and host.view["phase"] == "betting"
    aki = next(p for p in last["players"] if p["name"] == "Aki")
    assert aki["staked"] == locked == 1000  # race 2's locked ticket was paid on, once
    for s in seats:
        _ok(s, {"type": "done"}, everyone)
    while host.view["phase"] == "racing":
        _ok(host, {"type": "advance"}, everyone)
    assert host.view["phase"] == "finished" and host.view["settled"] == 3
    for c in everyone:
        c.close()
