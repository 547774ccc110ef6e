"""The stage on the TV: Dice Derby's racecourse (turf, furlong poles, the winning post, horse
figures carrying their dice) and KEIRIN's staged race, with the announcer's headlines at
the moments the server's facts make (a lead change, a fall, a photo-finish, a beaten
favourite, a big payout; the derny pulling off, the bell, the sprint, riders crossing
together), in English and Japanese, and its voice: off until the one button turns it on.

The views are a real room's, tick by tick, fed to the TV page's module: seed 13 of a Derby
evening with falls (0.15) has falls, lead changes and a photo-finish in race 1; a race run
with the host's own dice makes the d4 (the longest odds) win; seed 5 of a
KEIRIN night has the bell, the sprint and riders 2 and 4 crossing level (a photo-finish).
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest

from raceday.games.derby.room import DerbyRoom
from raceday.games.keirin.room import KeirinRoom
from raceday.rooms import JSON, Actor
from raceday.web.app import create_app
from raceday.web.server import background_server

sys.path.insert(0, str(Path(__file__).parent))
from a11y import turn_to, wait_for_style_sheets
from shots import keep_shot

HOST = Actor.host()
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


def copy(view: JSON) -> JSON:
    out: JSON = json.loads(json.dumps(view))
    return out


def bid_through_the_auction(room: DerbyRoom, bids: dict[str, tuple[int, int]],
                            rng: np.random.Generator) -> None:
    """Aki and Ben seal their bids on every lot: ``bids[horse]`` (0 for a horse not named)."""
    while room.phase() == "auction":
        horse = room.public_view()["auction"]["horse"]
        for i in (0, 1):
            me = room.private_view(Actor.player(i))
            assert me is not None
            if me["may_bid"] and me["sealed_bid"] is None:
                amount = bids.get(horse, (0, 0))[i]
                room.handle(Actor.player(i), {"type": "bid", "amount": amount}, rng)


@cache
def derby_views(seat: int | None = None) -> tuple[JSON, ...]:
    """The TV's views of seed 13's first race, from betting to the results tick (the
    phone's of ``seat``, if given, who has bought a win and a quinella ticket first)."""
    room = DerbyRoom.create({"races": 4, "fall_rate": "0.15"}, 13)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(13)
    room.handle(HOST, {"type": "start", "computers": 1}, rng)
    bid_through_the_auction(room, {"d20": (1500, 0), "d12": (0, 900)}, rng)
    if seat is not None:
        for kind, horses in (("win", ["d20"]), ("quinella", ["d12", "d20"])):
            room.handle(Actor.player(seat), {"type": "ticket", "kind": kind, "horses": horses,
                                             "stake": 300}, rng)
    for i in (0, 1):
        room.handle(Actor.player(i), {"type": "done"}, rng)

    def seen() -> JSON:
        return copy(room.public_view() if seat is None else room.view(Actor.player(seat)))

    views = [seen()]
    while not views[-1]["live"]["finished"]:
        room.handle(Actor.timeline(), {"type": "tick"}, rng)
        views.append(seen())
    room.handle(Actor.timeline(), {"type": "tick"}, rng)  # the results, after the finish
    views.append(seen())
    return tuple(views)


@cache
def long_shot_views() -> tuple[JSON, ...]:
    """The TV's views of a race with the host's own dice, made for the outsider to win: the
    d4 (the least likely winner on the board, Aki's) rolls 3 while the five others fall in
    the first furlong, then roll off for the places; from betting to the results tick."""
    room = DerbyRoom.create({"races": 4, "host_dice": True, "fall_rate": "0.15"}, 1)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(1)
    room.handle(HOST, {"type": "start", "computers": 0}, rng)
    bid_through_the_auction(room, {"d4": (700, 0), "d20": (0, 1500)}, rng)
    room.handle(Actor.player(0), {"type": "ticket", "kind": "win", "horses": ["d4"],
                                  "stake": 500}, rng)
    for i in (0, 1):
        room.handle(Actor.player(i), {"type": "done"}, rng)
    views = [copy(room.public_view())]
    rolloff = {"d6": 6, "d8": 5, "d10": 4, "d12": 3, "d20": 2}
    while not views[-1]["live"]["finished"]:
        to_roll = views[-1]["live"]["to_roll"]
        first = "d4" in to_roll
        room.handle(HOST, {"type": "enter", "values": [
            3 if h == "d4" else ("F" if first else rolloff[h]) for h in to_roll]}, rng)
        views.append(copy(room.public_view()))
    room.handle(Actor.timeline(), {"type": "tick"}, rng)  # the results, after the finish
    views.append(copy(room.public_view()))
    return tuple(views)


@cache
def keirin_views(seat: int | None = None) -> tuple[JSON, ...]:
    """The TV's views of seed 5's race (9 riders), step by step to the result (the phone's
    of ``seat``, if given)."""
    room = KeirinRoom.create({"races": 1, "riders": 9}, 5)
    room.add_seat("Aki")
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start"}, rng)
    room.handle(Actor.player(0), {"type": "done"}, rng)
    who = HOST if seat is None else Actor.player(seat)
    views = [copy(room.view(who))]
    while room.phase() == "racing":
        room.handle(Actor.timeline(), {"type": "tick"}, rng)
        views.append(copy(room.view(who)))
    return tuple(views)


@cache
def keirin_results_views() -> tuple[JSON, ...]:
    """Seed 5's race as in keirin_views, in a night of two races where Aki backs its winner,
    rider 2: the TV's views step by step to the results (race 2's betting, race 1's purses)."""
    room = KeirinRoom.create({"races": 2, "riders": 9}, 5)
    room.add_seat("Aki")
    rng = np.random.default_rng(5)
    room.handle(HOST, {"type": "start"}, rng)
    views = [copy(room.view(HOST))]
    room.handle(Actor.player(0), {"type": "ticket", "kind": "win", "riders": [2],
                                  "stake": "100"}, rng)
    room.handle(Actor.player(0), {"type": "done"}, rng)
    views.append(copy(room.view(HOST)))
    while room.phase() == "racing":
        room.handle(Actor.timeline(), {"type": "tick"}, rng)
        views.append(copy(room.view(HOST)))
    assert views[-1]["last"]["ranking"][0] == 2, "seed 5's race has another winner now"
    return tuple(views)


@cache
def derby_lot() -> tuple[JSON, JSON, list[JSON]]:
    """The first lot of seed 13's auction sold (Ben's 900 over Aki's 700 and the computer's
    bid): the TV's view before the last bid, after it, and the events it made."""
    room = DerbyRoom.create({"races": 4}, 13)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(13)
    room.handle(HOST, {"type": "start", "computers": 1}, rng)
    room.handle(Actor.player(0), {"type": "bid", "amount": 700}, rng)
    before = copy(room.public_view())
    events = room.handle(Actor.player(1), {"type": "bid", "amount": 900}, rng)
    return before, copy(room.public_view()), json.loads(json.dumps(events))


# What the page-side scripts below share: ``mountScreen`` mounts a game's screen module
# (its host.js, or play.js as the phone's page holds it) on a fresh <main> and welcomes
# ``first``; ``sheetsLoaded`` waits for the page's style sheets (the game's and the
# announcer's). ``on_page(params, body)`` is a script that starts with them.
SCREEN_HELPERS = """
  const mountScreen = async (module, first, { role = "spectator", big = true, info = {},
                                              phone = false } = {}) => {
    const host = await import(module);
    const root = document.createElement("main");
    document.body.replaceChildren(root);
    if (phone) {  // as the phone's page holds it (not the replay page's big body)
      root.id = "phone";
      document.body.className = "";
    } else if (big) document.body.classList.add("big");
    const screen = host.mount(root, { role, code: "TEST", info, error: { show() {} } });
    screen.welcome(first, []);
    return { root, screen };
  };
  const sheetsLoaded = () => new Promise((done) => {
    const check = () => ([...document.querySelectorAll("link[rel=stylesheet]")]
      .every((link) => link.sheet !== null) ? done() : setTimeout(check, 20));
    check();
  });
"""


def on_page(params: str, body: str) -> str:
    """A page function of ``params`` whose ``body`` may call the shared screen helpers."""
    return "async (" + params + ") => {" + SCREEN_HELPERS + body + "}"


# Mount the game's TV module as a spectator and feed it the views; record after each update
# the announcer's moment and line, the course's shape, and what a stubbed voice was given.
MOUNT = on_page("[game, views, lang, upto]", """
  const i18n = await import("/static/js/i18n.js");
  await i18n.setLanguage(lang);
  const { root, screen } = await mountScreen(`/games/${game}/static/host.js`, views[0]);
  const line = root.querySelector(".announcer");
  const said = [];
  const stages = [];
  for (const v of views.slice(1, upto ?? views.length)) {
    screen.update(v, v.live?.step ?? []);
    said.push({ moment: line.dataset.moment ?? "", text: line.innerText });
    const svg = root.querySelector(".velodrome");
    stages.push(svg ? { bell: svg.classList.contains("is-bell"),
      sprint: svg.classList.contains("is-sprint"),
      pulling: Boolean(root.querySelector(".derny.pulling-off")) } : null);
  }
  return { said, stages };
""")

COURSE = """() => {
  const box = (s) => {
    const r = document.querySelector(s)?.getBoundingClientRect();
    return r && [r.left, r.top, r.width, r.height];
  };
  const main = document.querySelector(".announcer-main") ?? document.body;
  return {
    course: box(".dd-course"),
    figures: document.querySelectorAll(".dd-course .dd-runner svg.dd-horse").length,
    carried: [...document.querySelectorAll(".dd-course .dd-carry")].map((c) => c.textContent),
    poles: document.querySelectorAll(".dd-course .dd-lane[data-horse='d4'] .dd-pole").length,
    posts: document.querySelectorAll(".dd-course .dd-post-pole").length,
    headline: box(".announcer.is-on"),
    title: box(".dd-race > h2"),
    silks: Object.fromEntries([...document.querySelectorAll(".dd-course .dd-lane[data-horse]")]
      .map((lane) => {
      const runner = lane.querySelector(".dd-runner");
      const colour = [...runner.classList].find((c) => c.startsWith("owner-")) ?? "unowned";
      return [lane.dataset.horse, [colour,
        runner.querySelector(".dd-carry-owner")?.textContent ?? "",
        lane.querySelector(".dd-owner").textContent,
        getComputedStyle(runner.querySelector(".dd-silks")).fill]];
    })),
    swatches: [...document.querySelectorAll(".dd-standings tbody th")].map((th) =>
      [th.textContent, th.querySelector(".owner-swatch")?.className ?? ""]),
    headlineSize: parseFloat(getComputedStyle(main).fontSize),
    scrollWidth: document.documentElement.scrollWidth,
  };
}"""

VOICE_STUB = """
  Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
    spoken: [], speak(u) { this.spoken.push([u.text, u.lang]); }, cancel() {} } });
  window.SpeechSynthesisUtterance = class {
    constructor(text) { this.text = text; this.lang = ""; } };
"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with background_server(create_app(tmp_path_factory.mktemp("stage") / "s.sqlite")) as url:
        yield url


def tv_page(chromium: Any, base: str, viewport: dict[str, int] = TV, motion: bool = False,
            voice: bool = False) -> Any:
    context = chromium.new_context(viewport=viewport, locale="en-US",
                                   reduced_motion="no-preference" if motion else "reduce")
    if voice:
        context.add_init_script(VOICE_STUB)
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{base}replay")
    return page


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def apart(a: list[float], b: list[float]) -> bool:
    """Whether two boxes ``[left, top, width, height]`` do not overlap."""
    return (a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0]
            or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1])


def moments(said: list[dict[str, str]]) -> list[str]:
    return [m for s in said for m in s["moment"].split()]


def index_of(said: list[dict[str, str]], moment: str) -> int:
    return next(i for i, s in enumerate(said) if moment in s["moment"].split())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_derby_course_shows_figures_and_the_moments_headlines(chromium: Any, base: str,
                                                              lang: str) -> None:
    views = [*derby_views()]
    finish = next(i for i, v in enumerate(views) if v["live"] and v["live"]["finished"])
    photo = views[finish]["live"]["photo"]
    assert photo and photo["horses"] == ["d10", "d4"], "seed 13 no longer ends in a photo"
    page = tv_page(chromium, base)
    got = page.evaluate(MOUNT, ["derby", views, lang, None])
    said = got["said"]
    seen = moments(said)
    assert {"lead", "fall", "photo", "favourite_beaten", "payout"} <= set(seen), seen
    # the photo-finish is told at the finish frame itself (index = update count - 1)
    assert index_of(said, "photo") == finish - 1
    words = {"en": ["falls!", "leads!", "Photo finish! The d10 beats the d4 by one pip!"],
             "ja": ["落馬！", "先頭", "写真判定！ d10 が d4 を1の目差で制した！"]}[lang]
    text = " ".join(s["text"] for s in said)
    for w in words:
        assert w in text, (w, text)
    # the finish frame's course: six horse figures carrying their dice, poles and the post
    page.evaluate(MOUNT, ["derby", views, lang, finish + 1])
    shape = page.evaluate(COURSE)
    assert shape["figures"] == 6
    assert [c.split()[0] if " " in c else c for c in shape["carried"]]  # labels present
    for die in ("d4", "d6", "d8", "d10", "d12", "d20"):
        assert any(die in c for c in shape["carried"]), (die, shape["carried"])
    assert shape["poles"] == 4 and shape["posts"] == 6
    _left, _top, width, height = shape["course"]
    assert width >= 1800 and height >= 800, shape["course"]  # the course fills the TV
    assert shape["headline"] is not None and shape["headlineSize"] >= 48
    # the headline stands in its own strip: over neither the race's title nor the course
    assert apart(shape["headline"], shape["title"]), shape
    assert apart(shape["headline"], shape["course"]), shape
    # each owned horse in its owner's colours (silks and initial), the others neutral
    players = views[finish]["players"]
    for hs in views[finish]["horses"]:
        colour, initial, label, _fill = shape["silks"][hs["name"]]
        if hs["owner"] is None:
            assert colour == "unowned" and not initial, shape["silks"]
        else:
            owner = players[hs["owner"]]
            assert colour == f"owner-{owner['colour']}", shape["silks"]
            assert initial == owner["name"][0].upper() and label == owner["name"]
    fills = {fill for colour, _i, _l, fill in shape["silks"].values() if colour != "unowned"}
    assert len(fills) == 3, shape["silks"]  # Aki's, Ben's and the computer's: three colours
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_long_shot_winning_is_a_headline(chromium: Any, base: str, lang: str) -> None:
    views = [*long_shot_views()]
    finish = next(i for i, v in enumerate(views) if v["live"] and v["live"]["finished"])
    d4 = next(h for h in views[0]["horses"] if h["name"] == "d4")
    assert views[finish]["live"]["places"]["d4"] == 1
    assert d4["chance"] < 0.1 and d4["chance"] == min(h["chance"] for h in views[0]["horses"])
    page = tv_page(chromium, base)
    got = page.evaluate(MOUNT, ["derby", views, lang, finish + 1])
    said = got["said"]
    # told at the finish itself, as its headline (not after a plain "the d4 wins")
    assert said[finish - 1]["moment"].split()[0] == "long_odds", said[finish - 1]
    assert "favourite_beaten" not in moments(said)  # the long shot says more
    words = {"en": f"A long shot wins: the d4 at {d4['win_text']}!",
             "ja": f"大穴！ d4（{d4['win_text']}倍）が勝った！"}[lang]
    assert words in said[-1]["text"], said[-1]
    shown = page.locator(".announcer.is-on")
    assert shown.is_visible() and words in shown.inner_text()
    keep_shot(page, f"stage/derby-long-shot-{lang}-1920.png")
    assert not page.errors, page.errors
    page.context.close()


def test_derby_course_reads_on_a_phone_watching(chromium: Any, base: str) -> None:
    views = [*derby_views()]
    page = tv_page(chromium, base, PHONE)
    page.evaluate(MOUNT, ["derby", views, "en", 3])
    shape = page.evaluate(COURSE)
    assert shape["scrollWidth"] <= PHONE["width"]
    left, _top, width, height = shape["course"]
    keep_shot(page, "stage/derby-lead-en-390.png")
    # six lanes, each at least a finger's height (44 px) tall, inside the phone's width
    assert left >= 0 and left + width <= PHONE["width"] and height >= 6 * 44, shape["course"]
    assert shape["figures"] == 6
    assert shape["headline"] is not None
    assert apart(shape["headline"], shape["title"]) and apart(shape["headline"], shape["course"])
    page.context.close()


def test_derby_horses_glide_and_the_photo_finish_runs_slower(chromium: Any, base: str) -> None:
    views = [*derby_views()]
    finish = next(i for i, v in enumerate(views) if v["live"] and v["live"]["finished"])
    page = tv_page(chromium, base, motion=True)
    durations = page.evaluate(on_page("[views, finish]", """
      const { root, screen } = await mountScreen("/games/derby/static/host.js", views[0],
                                                 { big: false });
      const runs = [];
      for (const v of views.slice(1, finish + 1)) {
        screen.update(v, []);
        const moving = [...root.querySelectorAll(".dd-runner")].filter((r) => r.style.transition);
        runs.push(moving.length ? parseFloat(moving[0].style.transition.split(" ")[1]) : 0);
      }
      return runs;
    """), [views, finish])
    normal = durations[1]
    assert normal > 0  # a furlong's move eases over part of the tick
    assert durations[-1] == round(normal * 1.7)  # the photo's last furlong, slowed
    page.context.close()


def test_the_voice_is_off_by_default_and_speaks_once_turned_on(chromium: Any, base: str) -> None:
    views = [*derby_views()]
    page = tv_page(chromium, base, voice=True)
    page.evaluate(MOUNT, ["derby", views, "en", 4])
    button = page.locator(".announcer-voice")
    assert button.get_attribute("aria-pressed") == "false"
    assert button.inner_text() == "Announcer's voice: off"
    assert page.evaluate("window.speechSynthesis.spoken") == []
    # on from the keyboard: Tab reaches it, Enter presses it, the choice is remembered
    button.focus()
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('raceday.voice')") == "on"
    page.reload()
    got = page.evaluate(MOUNT, ["derby", views, "ja", 4])
    spoken = page.evaluate("window.speechSynthesis.spoken")
    assert page.locator(".announcer-voice").get_attribute("aria-pressed") == "true"
    lines = [s["text"] for s in got["said"] if s["moment"]]
    assert spoken and all(lang == "ja-JP" for _, lang in spoken)
    assert spoken[-1][0] in lines[-1], (spoken, lines)
    page.context.close()


# The TV notes when the announcer first calls a photo-finish; a phone, when it first shows
# a race's result (Date.now(), from a MutationObserver: no sleeps).
PHOTO_CALLED = """() => {
  window.__photo = null;
  new MutationObserver(() => {
    const line = document.querySelector('.announcer.is-on');
    if (window.__photo === null && line && line.dataset.moment.split(' ').includes('photo'))
      window.__photo = [Date.now(), line.innerText];
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""
RESULT_SHOWN = """() => {
  window.__result = null;
  const note = () => {
    if (window.__result === null && document.body.dataset.result
        && document.querySelector('.dd-my-result, .dd-won-line, .dd-lost-line'))
      window.__result = Date.now();
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true,
    attributes: true, characterData: true});
  note();
}"""
PHOTO_DICE = {"d4": 2, "d6": 3, "d8": 4, "d10": 5, "d12": 7, "d20": 8}
"""The host's dice each furlong: the lowest horse drops out, and the last two, the d20 and
the d12, are a pip apart at the post (a photo-finish)."""


def test_the_photo_finish_is_called_on_the_tv_before_a_phone_shows_the_result(
        open_page: Any, base: str) -> None:
    room = post(f"{base}api/rooms", {"game": "derby",
                                     "options": {"races": 4, "host_dice": True}})
    code = room["code"]
    token = post(f"{base}api/rooms/{code}/join", {"name": "Aki"})["token"]
    phone = open_page(PHONE, f"{base}play/{code}", {f"raceday.seat.{code}": token})
    tv = open_page(TV, f"{base}host/{code}", {f"raceday.host.{code}": room["host_token"]},
                   motion=True)
    tv.locator("#computers").fill("1")
    tv.get_by_role("button", name="Start the evening").click()
    phone.locator("body[data-phase=auction]").wait_for(state="attached")
    while not phone.locator("button.done").count():  # Aki bids nothing on each lot
        before = phone.locator("section.action").inner_html()
        if phone.locator("#bid").count():
            phone.locator("#bid").fill("0")
            phone.locator("form.dd-form button[type=submit]").click()
        phone.wait_for_function("b => document.querySelector('section.action').innerHTML !== b",
                                arg=before)
    tv.evaluate(PHOTO_CALLED)
    phone.evaluate(RESULT_SHOWN)
    phone.locator("button.done").click()
    for furlong in range(1, 6):  # the host types each furlong's dice on the TV
        form = tv.locator("form.dice-entry")
        form.wait_for()
        for box in form.locator("input").all():
            box.fill(str(PHOTO_DICE[box.get_attribute("name") or ""]))
        form.locator("button[type=submit]").click()
        tv.locator(f".dd-track[data-round='{furlong + 1}'], .dd-track[data-finished='1']"
                   ).wait_for(state="attached")
    phone.wait_for_function("() => window.__result !== null", timeout=60_000)
    called, line = tv.evaluate("window.__photo")
    assert "Photo finish! The d20 beats the d12 by one pip!" in line, line
    assert phone.evaluate("window.__result") >= called
    assert tv.js_errors == [] and phone.js_errors == []


KEIRIN_RESULT_SHOWN = """() => {
  window.__result = null;
  const note = () => {
    if (window.__result === null && document.querySelector('.kr-mine'))
      window.__result = Date.now();
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true});
  note();
}"""


def test_keirin_photo_finish_is_called_on_the_tv_before_a_phone_shows_the_result(
        open_page: Any, base: str) -> None:
    import raceday.web.rooms as rooms

    with mock.patch.object(rooms.secrets, "randbits", return_value=5):  # the night's seed
        room = post(f"{base}api/rooms", {"game": "keirin",
                                         "options": {"races": 1, "riders": 9}})
    code = room["code"]  # seed 5: riders 2 and 4 cross level (a photo-finish)
    token = post(f"{base}api/rooms/{code}/join", {"name": "Aki"})["token"]
    phone = open_page(PHONE, f"{base}play/{code}", {f"raceday.seat.{code}": token})
    tv = open_page(TV, f"{base}host/{code}?speed=0.5",
                   {f"raceday.host.{code}": room["host_token"]}, motion=True)
    tv.locator(".controls button.primary").click()  # the night begins: betting opens
    phone.locator("button.done").wait_for()
    tv.evaluate(PHOTO_CALLED)
    phone.evaluate(KEIRIN_RESULT_SHOWN)
    phone.locator("button.done").click()  # Aki bets nothing; the race starts
    phone.wait_for_function("() => window.__result !== null", timeout=120_000)
    called = tv.evaluate("window.__photo")
    assert called is not None, "the TV never called the photo-finish"
    assert "Photo finish" in called[1], called
    assert phone.evaluate("window.__result") >= called[0]
    assert tv.js_errors == [] and phone.js_errors == []


KEIRIN_BOXES = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  };
  return { headline: box(document.querySelector(".announcer.is-on")),
           title: box(document.querySelector(".kr-heading")),
           track: box(document.querySelector(".velodrome")),
           infield: box(document.querySelectorAll(".velodrome .track-edge")[0]) };
}"""


def test_keirin_headline_on_a_phone_has_a_strip_above_the_track(chromium: Any,
                                                                 base: str) -> None:
    views = [*keirin_views()]
    page = tv_page(chromium, base, PHONE)
    said = page.evaluate(MOUNT, ["keirin", views, "en", None])["said"]
    page.evaluate(MOUNT, ["keirin", views, "en", index_of(said, "photo") + 2])
    boxes = page.evaluate(KEIRIN_BOXES)
    keep_shot(page, "stage/keirin-photo-en-390.png")
    assert apart(boxes["headline"], boxes["title"]) and apart(boxes["headline"], boxes["track"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_keirin_stages_the_derny_the_bell_the_sprint_and_the_photo(chromium: Any, base: str,
                                                                   lang: str) -> None:
    views = [*keirin_views()]
    steps = [e for v in views if v["live"] for e in v["live"]["step"]]
    cross = next(e for e in steps if e["type"] == "cross")
    assert cross["riders"][:2] == [2, 4] and cross["past"][:2] == [0, 0], cross
    page = tv_page(chromium, base)
    got = page.evaluate(MOUNT, ["keirin", views, lang, None])
    said, stages = got["said"], got["stages"]
    order = [index_of(said, m) for m in ("derny", "bell", "sprint", "together", "photo", "winner")]
    assert order == sorted(order), order
    assert stages[order[0]]["pulling"]
    assert stages[order[1]]["bell"] and not stages[order[1]]["sprint"]
    assert stages[order[2]]["sprint"]
    # the facts behind them: the bell and the sprint turn true at those very steps
    live = [v["live"] for v in views[1:]]
    assert live[order[1]]["bell"] and not live[order[1] - 1]["bell"]
    assert live[order[2]]["sprint"] and not live[order[2] - 1]["sprint"]
    text = said[order[4]]["text"]
    assert ("Photo finish" in text) if lang == "en" else ("写真判定" in text), text
    # the photo's headline, standing in the infield: over neither the title nor the track
    page.evaluate(MOUNT, ["keirin", views, lang, order[4] + 2])
    boxes = page.evaluate(KEIRIN_BOXES)
    assert apart(boxes["headline"], boxes["title"]), boxes
    left, top, width, height = boxes["infield"]
    h_left, h_top, h_width, h_height = boxes["headline"]
    assert left <= h_left and h_left + h_width <= left + width, boxes
    assert top <= h_top and h_top + h_height <= top + height, boxes
    page.evaluate(MOUNT, ["keirin", views, lang, order[5] + 2])  # up to the finish
    strip = page.locator(".kr-finish .kr-photo-strip li")
    assert strip.count() == len(cross["riders"][:3])  # the places that pay, crossed together
    assert strip.first.inner_text().replace("\n", " ").split() == ["2", "+0"]
    keep_shot(page, f"stage/keirin-finish-{lang}-1920.png")
    page.context.close()


# On a phone (390 px) the race's boxes in the flow, none over another or over the track:
# each shown one as [left, top, width, height], and the photo strip's, with the inside of
# the finish box (within its border) it must lie in.
KEIRIN_PHONE_BOXES = """() => {
  const box = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return r.width && r.height ? [r.left, r.top, r.width, r.height] : null;
  };
  const q = (s) => document.querySelector(s);
  const finish = q(".kr-finish") ?? q(".kr-photo");
  const inner = finish && [finish.getBoundingClientRect().left + finish.clientLeft,
    finish.getBoundingClientRect().top + finish.clientTop, finish.clientWidth, finish.clientHeight];
  return { headline: box(q(".announcer.is-on")), track: box(q(".velodrome")),
           moment: box(finish), inner, strip: box(q(".kr-finish .kr-photo-strip")),
           title: box(q(".kr-heading")), scrollWidth: document.documentElement.scrollWidth };
}"""


def within(inner: list[float], outer: list[float]) -> bool:
    """Whether box ``inner`` lies inside box ``outer`` (both ``[left, top, width, height]``)."""
    return (outer[0] <= inner[0] + 0.5 and inner[0] + inner[2] <= outer[0] + outer[2] + 0.5
            and outer[1] <= inner[1] + 0.5 and inner[1] + inner[3] <= outer[1] + outer[3] + 0.5)


@pytest.mark.parametrize("first", [PHONE, TV], ids=["390", "1920-then-390"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_keirin_finish_on_a_phone_covers_no_track(chromium: Any, base: str, lang: str,
                                                  first: dict[str, int]) -> None:
    """The host's screen on a phone (390 px), loaded there or shrunk from a TV's 1920: at
    the photo-finish and at the finish the moment's box and the headline stand in the flow,
    off the track's drawing, the title and each other, and the finish's photo strip lies
    inside its box's border."""
    views = [*keirin_views()]
    page = tv_page(chromium, base, first)
    said = page.evaluate(MOUNT, ["keirin", views, lang, None])["said"]
    for moment in ("photo", "winner"):
        page.set_viewport_size(first)
        page.evaluate(MOUNT, ["keirin", views, lang, index_of(said, moment) + 2])
        wait_for_style_sheets(page)
        turn_to(page, PHONE)
        boxes = page.evaluate(KEIRIN_PHONE_BOXES)
        keep_shot(page, f"stage/keirin-{moment}-{lang}-390-from-{first['width']}.png",
                  full_page=True)
        shown = {k: boxes[k] for k in ("headline", "track", "moment", "title")}
        assert all(shown.values()), (moment, boxes)
        for a, b in (("moment", "track"), ("headline", "track"), ("moment", "headline"),
                     ("moment", "title"), ("headline", "title")):
            assert apart(shown[a], shown[b]), (moment, a, b, boxes)
        if moment == "winner":
            assert boxes["strip"] is not None, boxes
            assert within(boxes["strip"], boxes["inner"]), boxes
        assert boxes["scrollWidth"] <= PHONE["width"], boxes
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_keirin_photo_strip_stays_inside_the_finish_box_at_every_width(
        chromium: Any, base: str, lang: str) -> None:
    """The finish's photo strip (the margins, with its tick marks) lies inside the finish
    box's border on a TV, a laptop, a narrow window and phones, the window shrunk step by
    step from the TV's 1920 px."""
    views = [*keirin_views()]
    page = tv_page(chromium, base)
    said = page.evaluate(MOUNT, ["keirin", views, lang, None])["said"]
    page.evaluate(MOUNT, ["keirin", views, lang, index_of(said, "winner") + 2])
    wait_for_style_sheets(page)
    for width, height in ((1920, 1080), (1440, 900), (1024, 768), (800, 600), (701, 800),
                          (600, 900), (390, 844), (320, 640)):
        turn_to(page, {"width": width, "height": height})
        boxes = page.evaluate(KEIRIN_PHONE_BOXES)
        assert boxes["strip"] is not None and within(boxes["strip"], boxes["inner"]), \
            (width, boxes)
        assert boxes["scrollWidth"] <= width, (width, boxes)
    page.context.close()


LAPTOP = {"width": 1440, "height": 900}

# What the shown headline lies over: each visible element of `selectors` whose box meets the
# headline's, as [selector, its text]; null when no headline is shown.
UNDER_HEADLINE = """(selectors) => {
  const line = document.querySelector(".announcer.is-on");
  if (!line) return null;
  const h = line.getBoundingClientRect();
  const out = [];
  for (const s of selectors) {
    for (const e of document.querySelectorAll(s)) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height || line.contains(e) || e.contains(line)) continue;
      if (r.right > h.left && h.right > r.left && r.bottom > h.top && h.bottom > r.top)
        out.push([s, (e.innerText ?? e.textContent).slice(0, 40)]);
    }
  }
  return out;
}"""
SWITCH = """async (lang) => {
  const i18n = await import("/static/js/i18n.js");
  await i18n.setLanguage(lang);
}"""


@pytest.mark.parametrize("viewport", [TV, LAPTOP, PHONE], ids=["1920", "1440", "390"])
def test_derby_headlines_hide_nothing(chromium: Any, base: str, viewport: dict[str, int]) -> None:
    views = [*derby_views()]
    finish = next(i for i, v in enumerate(views) if v["live"] and v["live"]["finished"])
    page = tv_page(chromium, base, viewport)
    # the photo-finish: not over the race's title, the course's header row or its lanes
    page.evaluate(MOUNT, ["derby", views, "en", finish + 1])
    assert page.evaluate(UNDER_HEADLINE, [".dd-race > h2", ".dd-course .dd-lane"]) == []
    # the payout after the race: not over the betting board, the last race's card or the news
    said = page.evaluate(MOUNT, ["derby", views, "en", None])["said"]
    assert said[-1]["moment"].split()[0] == "payout", said[-1]
    board = [".dd-stage h2", ".dd-stage h3", ".dd-stage tr", ".dd-stage .card",
             ".dd-stage li", ".dd-ticker-line"]
    assert page.evaluate(UNDER_HEADLINE, board) == []
    keep_shot(page, f"stage/derby-payout-en-{viewport['width']}.png")
    page.context.close()


def test_derby_photo_margin_is_worded_anew_on_a_language_switch(chromium: Any,
                                                                base: str) -> None:
    views = [*derby_views()]
    finish = next(i for i, v in enumerate(views) if v["live"] and v["live"]["finished"])
    page = tv_page(chromium, base)
    page.evaluate(MOUNT, ["derby", views, "en", finish + 1])
    assert "by one pip" in page.locator(".announcer.is-on").inner_text()
    # the banner (behind the headline for now) words the same margin
    assert "by one pip" in page.locator(".dd-photo").text_content()
    page.evaluate(SWITCH, "ja")
    assert "d10 が d4 を1の目差で制した" in page.locator(".announcer.is-on").inner_text()
    banner = page.locator(".dd-photo").text_content()
    assert "を1の目差で制しました" in banner and "pip" not in banner, banner
    page.context.close()


def test_derby_auction_reveal_is_worded_anew_not_played_again(chromium: Any, base: str) -> None:
    before, after, events = derby_lot()
    page = tv_page(chromium, base, motion=True)
    page.evaluate(on_page("[before, after, events]", """
      const { screen } = await mountScreen("/games/derby/static/host.js", before);
      screen.update(after, events);
    """), [before, after, events])
    wait_for_style_sheets(page)  # on a busy machine Derby's sheet may still be on its way
    bids = page.locator(".dd-reveal .dd-bid")
    rising = ("[...document.querySelectorAll('.dd-reveal .dd-bid')]"
              ".map((b) => getComputedStyle(b).animationName)")
    assert set(page.evaluate(rising)) == {"dd-in"}  # the bids come one after another
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    page.evaluate(SWITCH, "ja")
    page.locator(".dd-reveal .dd-verdict", has_text="Ben").wait_for()
    assert "d4" in page.locator(".dd-reveal h3").inner_text()
    assert any("\u3040" <= c <= "\u30ff" for c in page.locator(".dd-verdict").inner_text())
    assert bids.count() == 4  # three bids and the verdict, worded again at once
    assert set(page.evaluate(rising)) == {"none"}
    page.context.close()


@cache
def derby_auction_updates() -> tuple[JSON, tuple[tuple[JSON, list[JSON]], ...]]:
    """Seed 13's auction as the TV is sent it: the first view, then each bid's view and
    events, to the update that sells the last lots and opens betting (Aki buys the d4; Ben's
    900 for the d6 sells it and the lots nobody bids on), then Aki's 'done' in betting."""
    room = DerbyRoom.create({"races": 4}, 13)
    room.add_seat("Aki")
    room.add_seat("Ben")
    rng = np.random.default_rng(13)
    room.handle(HOST, {"type": "start", "computers": 1}, rng)
    first = copy(room.public_view())
    updates: list[tuple[JSON, list[JSON]]] = []
    bids = {"d4": (1200, 800), "d6": (0, 900)}
    while room.phase() == "auction":
        horse = room.public_view()["auction"]["horse"]
        for i in (0, 1):
            me = room.private_view(Actor.player(i))
            assert me is not None
            if room.phase() == "auction" and me["may_bid"] and me["sealed_bid"] is None:
                events = room.handle(Actor.player(i), {"type": "bid",
                                                       "amount": bids.get(horse, (0, 0))[i]}, rng)
                updates.append((copy(room.public_view()), json.loads(json.dumps(events))))
    events = room.handle(Actor.player(0), {"type": "done"}, rng)
    updates.append((copy(room.public_view()), json.loads(json.dumps(events))))
    return first, tuple(updates)


# The Derby TV mounted on `first`; then each update of `updates` in turn, each followed by
# the reveal's bids whose animation starts on that update ([horse of the card, bid's text]),
# once every animation it started has ended.
REVEAL_PLAYS = on_page("[first, updates]", """
  const { screen } = await mountScreen("/games/derby/static/host.js", first);
  await sheetsLoaded();
  let started = [];
  document.addEventListener("animationstart", (e) => {
    if (e.target.classList.contains("dd-bid"))
      started.push([e.target.closest(".dd-reveal").querySelector("h3").textContent,
                    e.target.textContent]);
  }, true);
  const out = [];
  for (const [view, events] of updates) {
    screen.update(view, events);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
    out.push({ phase: view.phase, lots: events.filter((e) => e.type === "lot").length, started });
    started = [];
  }
  return out;
""")


def test_derby_reveal_plays_once_at_its_verdict_and_then_stands_still(chromium: Any,
                                                                      base: str) -> None:
    """Each lot's reveal plays on the update that sells it; betting opening (the card
    moved and shortened beside the odds board) or a player done betting never plays a
    reveal that has played."""
    first, updates = derby_auction_updates()
    assert [u[0]["phase"] for u in updates[-2:]] == ["betting", "betting"]
    page = tv_page(chromium, base, motion=True)
    played = page.evaluate(REVEAL_PLAYS, [first, [*updates]])
    for step in played:
        if step["lots"]:
            assert step["started"], step  # the sale's reveal plays…
            assert len({card for card, _ in step["started"]}) == 1, step  # …one card, once
            texts = [text for _, text in step["started"]]
            assert len(texts) == len(set(texts)), step
        else:
            assert step["started"] == [], step
    sold = [s["phase"] for s in played if s["lots"]]
    assert sold == ["auction", "betting"], played  # the d4, then the rest as betting opens
    # the TV once more on the update that opened betting without selling (a page that
    # missed it): the last reveal, moved beside the board, stands still
    sale = next(i for i, s in enumerate(played) if s["lots"])
    again = page.evaluate(REVEAL_PLAYS, [first, [updates[sale], (updates[-1][0], [])]])
    assert again[0]["started"] and again[1]["started"] == [], again
    page.context.close()


@pytest.mark.parametrize("viewport", [TV, LAPTOP, PHONE], ids=["1920", "1440", "390"])
def test_keirin_headlines_hide_nothing(chromium: Any, base: str, viewport: dict[str, int]) -> None:
    views = [*keirin_results_views()]
    page = tv_page(chromium, base, viewport)
    said = page.evaluate(MOUNT, ["keirin", views, "en", None])["said"]
    assert said[-1]["moment"].split()[0] == "payout", said[-1]
    # the purses after the race, the winning tickets and the news stay in sight
    results = [".kr-heading", ".kr-stage h3", ".kr-stage caption", ".kr-stage tr",
               ".kr-news li", ".kr-status"]
    assert page.evaluate(UNDER_HEADLINE, results) == []
    keep_shot(page, f"stage/keirin-payout-en-{viewport['width']}.png")
    # the photo-finish and the finish: the headline under their box, never over it nor
    # over a rider at the line
    for moment, box in (("photo", ".kr-photo"), ("winner", ".kr-finish")):
        page.evaluate(MOUNT, ["keirin", views, "en", index_of(said, moment) + 2])
        assert page.locator(box).is_visible(), moment
        assert page.evaluate(UNDER_HEADLINE, [box, ".kr-heading", ".velodrome .rider"]) == [], \
            moment
    page.context.close()


# The start line and its label on the TV's velodrome, each as [left, top, width, height],
# once the label has been placed (it is measured on the page, so a frame after mounting).
START_LINE_BOXES = on_page("", """
  await sheetsLoaded();
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(done));
  const box = (s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  };
  return { line: box(".velodrome .start-line"), label: box(".velodrome .start-label"),
           text: document.querySelector(".velodrome .start-label").textContent };
""")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("length", [None, 225], ids=["straight", "bend"])
def test_keirin_derny_start_label_stands_clear_of_the_start_line(
        chromium: Any, base: str, lang: str, length: int | None) -> None:
    """The infield's "derny start" beside its dashed line, not on it: the default race
    starts on the back straight (the line upright), a race of 225 squares on a bend."""
    views = [copy(v) for v in keirin_views()[:3]]
    if length is not None:
        for view in views:
            view["config"]["length"] = length
    page = tv_page(chromium, base)
    page.evaluate(MOUNT, ["keirin", views, lang, None])
    boxes = page.evaluate(START_LINE_BOXES)
    assert boxes["text"] == ("derny start" if lang == "en" else "誘導員スタート"), boxes
    assert boxes["line"][2] + boxes["line"][3] > 0 and boxes["label"][2] > 0, boxes
    assert apart(boxes["line"], boxes["label"]), boxes
    keep_shot(page, f"stage/keirin-start-{lang}-{length or 'default'}.png")
    page.context.close()


# Every line of every headline the announcer shows, step by step through a race on the
# page's own width: each <p> of the headline split where the browser broke it. Given a
# selector (and "play" for the phone's page), the lines of each element it picks instead.
HEADLINE_LINES = on_page(
    '[game, views, lang, selector = ".announcer.is-on p", page = "host"]', """
  const i18n = await import("/static/js/i18n.js");
  await i18n.setLanguage(lang);
  const phone = page === "play";
  const { root, screen } = await mountScreen(`/games/${game}/static/${page}.js`, views[0],
                                             { role: phone ? "player" : "spectator", phone });
  await sheetsLoaded();
  await document.fonts.ready;
  const range = document.createRange();
  const linesOf = (p) => {
    const lines = [];
    let top = null;
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.length; i++) {
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const r = [...range.getClientRects()].find((c) => c.width > 0);
        if (!r) continue;
        if (top === null || r.top > top + r.height / 2) { lines.push(""); top = r.top; }
        lines[lines.length - 1] += n.data[i];
      }
    }
    return lines.map((l) => l.trim());
  };
  const shown = [];
  for (const v of views.slice(1)) {
    screen.update(v, v.live?.step ?? []);
    for (const p of root.querySelectorAll(selector)) shown.push(linesOf(p));
  }
  return shown;
""")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", ["keirin", "derby"])
def test_headlines_on_a_phone_leave_no_word_alone(chromium: Any, base: str, game: str,
                                                  lang: str) -> None:
    """On a 390 px screen a headline that wraps leaves no last line of one to three
    characters (a lone syllable such as KEIRIN's 「す！」)."""
    page = tv_page(chromium, base, PHONE)
    views = keirin_results_views() if game == "keirin" else derby_views()
    shown = page.evaluate(HEADLINE_LINES, [game, [*views], lang])
    assert len(shown) >= 6, shown  # KEIRIN's derny, bell, sprint…; the Derby's lead changes…
    wrapped = [lines for lines in shown if len(lines) > 1]
    assert wrapped, "no headline wrapped at 390 px: the test checks nothing"
    short = [lines for lines in wrapped if min(len(line) for line in lines) < 4]
    assert short == [], short
    page.context.close()



# Japanese words Chromium's phrase breaking cut on a 390 px phone, by page: (the game, its
# page, what of it) -> the elements. 「第 | 2ハロン」 in the phone's race heading,
# 「払 | 戻 1,320」 in its tickets, 「す。」 alone under KEIRIN's odds note on the host's page.
JA_WORDS = {
    ("derby", "play", ".dd-phone-race h2"): "the phone's race heading",
    ("derby", "play", ".dd-phone-race .tickets li"): "the phone's tickets",
    ("keirin", "host", ".kr-status"): "KEIRIN's odds note",
    ("keirin", "play", ".feed"): "the phone's news line (「…もう一度振る！」)",
}


# The units no line may cut: a number with its counter (「第2ハロン」, 「第1レース」) and a
# payout with its amount (「払戻 1,320」).
WHOLE = re.compile(r"第\d+(?:ハロン|レース)|払戻\s?[\d,]+")


@pytest.mark.parametrize(("game", "page", "selector"), list(JA_WORDS))
def test_japanese_on_a_phone_keeps_words_whole(chromium: Any, base: str, game: str, page: str,
                                               selector: str) -> None:
    """At 390 px in Japanese, step by step through a race: no line of these elements is
    shorter than 3 characters (a lone syllable) and none cuts a number from its counter."""
    tv = tv_page(chromium, base, PHONE)
    views = {("derby", "host"): derby_views, ("derby", "play"): lambda: derby_views(0),
             ("keirin", "host"): keirin_results_views,
             ("keirin", "play"): lambda: keirin_views(0)}[game, page]()
    shown = [lines for lines in tv.evaluate(HEADLINE_LINES, [game, [*views], "ja", selector, page])
             if lines]  # an element drawn empty at a step has no lines
    assert shown, f"no {JA_WORDS[game, page, selector]} shown: the test checks nothing"
    assert any(len(lines) > 1 for lines in shown), \
        f"{JA_WORDS[game, page, selector]} never wrapped at 390 px: the test checks nothing"
    short = [lines for lines in shown if min(len(line) for line in lines) < 3]
    assert short == [], short
    cut = [(word, lines) for lines in shown for word in WHOLE.findall("".join(lines))
           if not any(word in line for line in lines)]
    assert cut == [], cut
    tv.context.close()


def test_the_derby_race_tables_headers_stay_on_one_line_in_japanese(chromium: Any,
                                                                      base: str) -> None:
    """The Derby host's race table at 390 px in Japanese: each column header on one line
    (「出目」 wrapped to 「出 | 目」 in its narrow die column)."""
    tv = tv_page(chromium, base, PHONE)
    heads = ".dd-course .dd-head :is(.dd-label, .dd-die, .dd-status)"
    shown = tv.evaluate(HEADLINE_LINES, ["derby", [*derby_views()], "ja", heads, "host"])
    assert any("出目" in "".join(lines) for lines in shown), shown
    assert [lines for lines in shown if len(lines) > 1] == [], shown
    tv.context.close()

# The Derby's big screen mounted as the host's on a phone (a phone as the big screen): the
# lobby of `view` with its join box, news line and start form, in `lang`; the first
# drawing is made at 1920 px, then the window is turned to the phone's width (as a host
# who turns a tablet), and a page drawn straight at the phone's width is checked too.
HOST_LOBBY = on_page("[view, lang]", """
  const i18n = await import("/static/js/i18n.js");
  await i18n.setLanguage(lang);
  const { screen } = await mountScreen("/games/derby/static/host.js", view, { role: "host",
    info: { join_url: "http://192.168.1.20:8000/play/TEST", watch_url: "/watch/TEST" } });
  screen.update(view, [{ type: "joined", name: "Chie" }]);
  await sheetsLoaded();
""")

# Which of the lobby's pieces overlap another ([a, b] by selector), and the text of each
# element that is cut (its text wider or taller than its box, hidden).
LOBBY_OVERLAPS = """() => {
  const pieces = [".dd-lobby .join-box", ".dd-lobby .seats", ".dd-ticker",
                  ".dd-controls label", ".dd-controls input", ".dd-controls button"];
  const boxes = pieces.map((s) => [s, document.querySelector(s)?.getBoundingClientRect()]);
  const out = [];
  for (const [a, ra] of boxes) for (const [b, rb] of boxes) {
    if (a >= b || !ra || !rb || !ra.height || !rb.height) continue;
    if (ra.right > rb.left && rb.right > ra.left && ra.bottom > rb.top && rb.bottom > ra.top)
      out.push([a, b]);
  }
  return { overlaps: out, missing: boxes.filter(([, r]) => !r).map(([s]) => s),
           ticker: document.querySelector(".dd-ticker").innerText,
           wide: document.documentElement.scrollWidth };
}"""

CUT_OWNERS = """() => [...document.querySelectorAll(".dd-course .dd-owner")]
  .filter((o) => o.scrollWidth > o.clientWidth + 1 || o.scrollHeight > o.clientHeight + 1
    || getComputedStyle(o).textOverflow === "ellipsis" && o.scrollWidth > o.clientWidth)
  .map((o) => o.textContent)"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_derby_host_screen_on_a_phone_cuts_no_name_and_overlaps_nothing(
        chromium: Any, base: str, lang: str) -> None:
    """A phone as the Derby's big screen (390 px): the lobby's join text, the players and
    "Computer players" each in a box of their own (also after the window turned from a TV's
    width to the phone's), and every owner's name whole in the course's lanes."""
    room = DerbyRoom.create({"races": 4}, 13)
    for name in ("Aki", "Ben", "Chie"):
        room.add_seat(name)
    lobby = copy(room.public_view())
    for first in (TV, PHONE):
        page = tv_page(chromium, base, first)
        page.evaluate(HOST_LOBBY, [lobby, lang])
        if first is TV:
            page.set_viewport_size(PHONE)
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() =>"
                          " requestAnimationFrame(done)))")
        got = page.evaluate(LOBBY_OVERLAPS)
        assert got["missing"] == [] and got["overlaps"] == [], got
        assert "Chie" in got["ticker"] and got["wide"] <= PHONE["width"], got
        keep_shot(page, f"stage/derby-host-lobby-{lang}-390-from-{first['width']}.png")
        page.context.close()
    # the race: Aki, Ben, the computer and the house own the six horses
    views = [*derby_views()]
    page = tv_page(chromium, base, PHONE)
    page.evaluate(MOUNT, ["derby", views, lang, 4])
    owners = page.locator(".dd-course .dd-owner")
    assert owners.count() == 6
    names = [owners.nth(i).text_content() for i in range(6)]
    assert any("CPU" in n for n in names) and "Aki" in names, names
    assert page.evaluate(CUT_OWNERS) == [], names
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_shot(page, f"stage/derby-host-race-{lang}-390.png")
    page.context.close()


# Each lane's horse label (the die and owner it carries) against its own lane's turf and
# die column: [horse, label's right, turf's right, die's left] where the label leaves the
# turf or lies over the die column.
LABELS_ON_TURF = """() => [...document.querySelectorAll(".dd-course .dd-lane[data-horse]")]
  .map((lane) => {
    const carry = lane.querySelector(".dd-carry").getBoundingClientRect();
    const run = lane.querySelector(".dd-run").getBoundingClientRect();
    const die = lane.querySelector(".dd-die").getBoundingClientRect();
    return [lane.dataset.horse, carry.right, run.right, die.left, carry.left, run.left];
  })
  .filter(([, right, runRight, dieLeft, left, runLeft]) =>
    right > runRight + 0.5 || right > dieLeft + 0.5 || left < runLeft - 0.5)"""


@pytest.mark.parametrize("viewport", [TV, LAPTOP, PHONE], ids=["1920", "1440", "390"])
def test_derby_horse_labels_stay_on_the_turf_at_the_post(chromium: Any, base: str,
                                                          viewport: dict[str, int]) -> None:
    """The winner's label ("d10 5 C") at the post stays on the turf: it covered the die
    it rolled, in the column beside the post."""
    views = [*derby_views()]
    finish = next(i for i, v in enumerate(views) if v["live"] and v["live"]["finished"])
    page = tv_page(chromium, base, viewport)
    for lang in ("en", "ja"):
        page.evaluate(MOUNT, ["derby", views, lang, finish + 1])
        assert page.locator(".dd-course .dd-lane.is-winner").count() == 1
        assert page.evaluate(LABELS_ON_TURF) == [], lang
        keep_shot(page, f"stage/derby-post-{lang}-{viewport['width']}.png")
    page.context.close()
