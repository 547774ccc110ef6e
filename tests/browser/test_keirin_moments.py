"""KEIRIN's moments on the TV (#32), drawn from a real room's views: the photo-finish the
engine called (its riders and the place they fight for, from the event's facts), and riders
that move at once, without gliding, for a reader who asked for reduced motion."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from raceday.games.keirin.room import KeirinRoom
from raceday.rooms import JSON, Actor
from raceday.web.app import create_app
from raceday.web.server import background_server

HOST = Actor.host()

MOUNT = """async (views) => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.setLanguage("en");
  const host = await import("/games/keirin/static/host.js");
  const root = document.createElement("main");
  root.id = "screen";
  document.body.replaceChildren(root);
  const ctx = { role: "spectator", code: "TEST", info: {}, error: { show() {} } };
  const screen = host.mount(root, ctx);
  screen.welcome(views[0], []);
  const spots = () => [...root.querySelectorAll(".velodrome .rider")]
    .map((g) => g.getAttribute("transform"));
  const out = { before: spots() };
  for (const v of views.slice(1)) screen.update(v, v.live ? v.live.step : []);
  out.after = spots();  // right after the update, before any animation frame
  const photo = root.querySelector(".kr-photo");
  out.photo = photo ? photo.innerText : null;
  out.riders = photo ? [...photo.querySelectorAll(".rider-badge")].map((b) => b.textContent) : [];
  return out;
}"""

FRESH = """async (view) => {
  const host = await import("/games/keirin/static/host.js");
  const root = document.createElement("main");
  document.body.replaceChildren(root);
  const ctx = { role: "spectator", code: "TEST", info: {}, error: { show() {} } };
  host.mount(root, ctx).welcome(view, []);
  return [...root.querySelectorAll(".velodrome .rider")].map((g) => g.getAttribute("transform"));
}"""


def photo_finish_views() -> tuple[JSON, JSON]:
    """The TV's views of seed 0's race (9 riders) just before and at the step in which the
    engine calls a photo-finish (riders 4 and 6 for 2nd place)."""
    room = KeirinRoom.create({"races": 1, "riders": 9}, 0)
    room.add_seat("Aki")
    rng = np.random.default_rng(0)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(Actor.player(0), {"type": "done"}, rng)
    before = room.view(HOST)
    while room.phase() == "racing":
        events = room.handle(Actor.timeline(), {"type": "tick"}, rng)
        if any(e["type"] == "photo_finish" for e in events):
            return before, json.loads(json.dumps(room.view(HOST)))
        before = json.loads(json.dumps(room.view(HOST)))
    raise AssertionError("seed 0 no longer calls a photo-finish")


def test_the_tv_shows_the_photo_finish_the_engine_called(chromium: Any,
                                                          tmp_path: Path) -> None:
    before, photo = photo_finish_views()
    called = next(e for e in photo["live"]["step"] if e["type"] == "photo_finish")
    with background_server(create_app(tmp_path / "m.sqlite")) as base:
        context = chromium.new_context(viewport={"width": 1920, "height": 1080},
                                       reduced_motion="reduce")
        page = context.new_page()
        page.goto(f"{base}replay")
        got = page.evaluate(MOUNT, [before, photo])
        fresh = page.evaluate(FRESH, photo)
        context.close()
    assert got["photo"] is not None and "Photo-finish!" in got["photo"]
    assert f"For {['1st', '2nd', '3rd'][called['for_place'] - 1]} place" in got["photo"]
    assert got["riders"] == [str(r) for r in called["riders"]]
    # reduced motion: the riders stand on their new squares at once, where a screen that
    # opened on this step draws them
    assert got["after"] == fresh and got["after"] != got["before"]
