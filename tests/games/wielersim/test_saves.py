"""Saves written before issue #31 (stage races in a session database, a race stopped half
way) still load, show the same tables and ride on to the same results."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from raceday.core.events import event_log_text
from raceday.games.wielersim.campaign import load_campaign
from raceday.games.wielersim.rules import EVENT_KINDS, WielersimState
from raceday.games.wielersim.stage import ride_stage
from raceday.games.wielersim.watch import campaign_view, stage_film
from raceday.present import render
from raceday.store.sessions import SessionStore

SAVES = Path(__file__).parents[2] / "fixtures" / "saves" / "wielersim"


def saved_store(tmp_path: Path) -> SessionStore:
    shutil.copy(SAVES / "campaigns.sqlite", tmp_path / "campaigns.sqlite")
    return SessionStore(tmp_path / "campaigns.sqlite")


def expected() -> dict[str, Any]:
    return json.loads((SAVES / "campaigns_views.json").read_text(encoding="utf-8"))


def test_saved_stage_races_show_the_same_tables(tmp_path: Path) -> None:
    store = saved_store(tmp_path)
    views = expected()
    for name in ("half way", "all done"):
        view = campaign_view(store, name)
        # since #32 each stage also says whether it is the prologue (which has no film)
        flags = [stage.pop("prologue") for stage in view["stages"]]
        assert flags == [i == 0 for i in range(len(flags))]
        # each stage's name also comes as a message, for a reader of any language
        words = [render(stage.pop("words"), "en", "wielersim") for stage in view["stages"]]
        assert words == [stage["name"] for stage in view["stages"]]
        assert view == views[name]


def test_a_saved_stage_rides_again_as_the_same_film(tmp_path: Path) -> None:
    film = stage_film(saved_store(tmp_path), "half way", 1)
    old = expected()["stage_film"]
    assert film["result"] == old["result"] and film["route"] == old["route"]
    assert [(f["turn"], f["riders"], f["groups"], f["finished"]) for f in film["frames"]] == \
        [(f["turn"], f["riders"], f["groups"], f["finished"]) for f in old["frames"]]
    # the ticker tells the same things (now as messages), and also a hard acceleration,
    # as the terminal always did
    assert [[it["k"] for it in f["items"] if it["k"] != "accelerate"] for f in film["frames"]] \
        == [[it["k"] for it in f["items"]] for f in old["frames"]]


def test_a_saved_stage_race_rides_on(tmp_path: Path) -> None:
    store = saved_store(tmp_path)
    c = load_campaign(store, "half way")
    assert c.next_stage == 3
    c.add_record(ride_stage(c.tour, c.peloton_spec, c.next_stage, c.records, c.seed))
    assert load_campaign(store, "half way").next_stage == 4


def _logged_today(old_log: str) -> str:
    """A log written before the throw's die was a fact of its own: its line ``"kind": "2d6"``
    (the die hid the event's kind) is today's ``"kind": "throw", "die": "2d6"``."""
    lines = [json.loads(line) for line in old_log.splitlines()]
    for line in lines:
        if "purpose" in line and line["kind"] not in EVENT_KINDS:
            line["die"], line["kind"] = line["kind"], "throw"
    return "".join(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n"
                   for line in lines)


def test_a_race_saved_half_way_ends_as_it_did() -> None:
    saved = json.loads((SAVES / "race_mid_way.json").read_text(encoding="utf-8"))
    state = WielersimState.from_json(saved["state"])
    rng = np.random.default_rng()
    rng.bit_generator.state = saved["rng_state"]
    events = []
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        events += state.apply_action(draw.outcome, draw.detail)
    assert saved["events_after"].count('"kind":"2d6"') > 100  # the old lines, read as today's
    assert event_log_text(events) == _logged_today(saved["events_after"])
    assert state.to_json() == saved["final"]
