"""A Dice Derby evening for the screenshots: the TV and three phones, one of them in
Japanese, at every phase: lobby, the auction (a lot revealed bid by bid), betting, the race,
the finish, the results and the finale; then a second evening whose first race ends in a
photo-finish (the room's seed picked, as tests/browser/test_stage_announcer.py plays it).
The race runs on the server's timeline; the host pauses it to catch a furlong and the
finish."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock


@contextmanager
def _seed(seed: int) -> Iterator[None]:
    """Rooms made meanwhile get ``seed`` (the server draws a room's seed with secrets)."""
    import raceday.web.rooms as rooms

    with mock.patch.object(rooms.secrets, "randbits", return_value=seed):
        yield


def _room(base: str, **options: Any) -> dict[str, Any]:
    req = urllib.request.Request(f"{base.rstrip('/')}/api/rooms", json.dumps(
        {"game": "derby", "options": {"races": 4, **options}}).encode(),
        {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        room: dict[str, Any] = json.loads(r.read())
        return room


def _join(shot: Any, code: str, name: str, lang: str = "en") -> Any:
    phone = shot.page("phone", f"play/{code}", lang=lang, role="player")
    phone.locator("#name").fill(name)
    phone.keyboard.press("Enter")
    phone.locator("body[data-phase=lobby]").wait_for(state="attached")
    return phone


def _phase(page: Any, phase: str) -> None:
    page.locator(f"body[data-phase={phase}]").wait_for(state="attached")


def _bid(phone: Any, amount: int) -> None:
    """Seal ``amount`` for the die on offer (the phone's form, as a player types it)."""
    before = phone.locator("section.action").inner_html()
    phone.locator("#bid").fill(str(amount))
    phone.locator("form.dd-form button[type=submit]").click()
    phone.wait_for_function("b => document.querySelector('section.action').innerHTML !== b",
                            arg=before)


def _buy(phone: Any, kind: str, horses: list[str], stake: int) -> None:
    before = phone.locator(".tickets li").count()
    phone.locator("#kind").select_option(kind)
    phone.locator("#horse1").select_option(horses[0])
    if len(horses) > 1:
        phone.locator("#horse2").select_option(horses[1])
    phone.locator("#stake").fill(str(stake))
    phone.locator("form.ticket-form button[type=submit]").click()
    phone.locator(".tickets li").nth(before).wait_for()


def _snap(shot: Any, page: Any, phase: str, settle_ms: int = 400) -> None:
    """Snap ``page`` from its top (a phone's clicks scroll it; its first screen is shown)."""
    page.evaluate("window.scrollTo(0, 0)")
    shot.snap(page, phase, settle_ms=settle_ms, scroll="top")


def _host_with_aki_and_ben(shot: Any, room: dict[str, Any]) -> tuple[Any, Any, Any]:
    """The room's TV, once it shows its code, and the phones of Aki and Ben who joined."""
    code = room["code"]
    tv = shot.page("tv", "/", storage={f"raceday.host.{code}": room["host_token"]})
    tv.goto(f"{shot.base.rstrip('/')}/host/{code}")
    tv.locator(".big-code").wait_for()
    return tv, _join(shot, code, "Aki"), _join(shot, code, "Ben")


def scenes(shot: Any) -> None:
    room = _room(shot.base)
    code = room["code"]
    tv, aki, ben = _host_with_aki_and_ben(shot, room)
    chie = _join(shot, code, "Chie", lang="ja")
    tv.locator(".dd-seat-list li").nth(2).wait_for()
    shot.snap(tv, "lobby")
    _snap(shot, aki, "lobby")
    tv.locator("#computers").fill("2")
    tv.locator(".controls button.primary").click()
    for p in (aki, ben, chie):
        _phase(p, "auction")
    _snap(shot, aki, "auction")
    # the d4: Ben 800, Aki 1,200, Chie nothing -> Aki buys it; the TV reveals it bid by bid
    _bid(ben, 800)
    _bid(aki, 1200)
    _bid(chie, 0)
    tv.locator(".dd-reveal .dd-verdict").wait_for()
    shot.snap(tv, "auction", settle_ms=2500)
    lots = [(0, 900, 0), (0, 0, 1500), (0, 0, 0), (0, 0, 0), (0, 0, 0)]
    for amounts in lots:
        for phone, amount in zip((aki, ben, chie), amounts, strict=True):
            if phone.locator("#bid").count():
                _bid(phone, amount)
        tv.wait_for_timeout(300)
    for p in (tv, aki, ben, chie):
        _phase(p, "betting")
    _buy(aki, "win", ["d20"], 500)
    _buy(aki, "quinella", ["d12", "d20"], 300)
    _buy(ben, "win", ["d12"], 1000)
    _buy(chie, "quinella", ["d10", "d20"], 400)
    shot.snap(tv, "betting")
    _snap(shot, aki, "betting")
    for p in (aki, ben, chie):
        p.locator("button.done").click()
    _phase(tv, "racing")
    tv.locator(".dd-track[data-round='3']").wait_for(state="attached")
    tv.locator("button[aria-pressed=false]:not(.announcer-voice)").click()  # pause mid-race
    tv.locator("button[aria-pressed=true]:not(.announcer-voice)").wait_for()
    shot.snap(tv, "race", settle_ms=1200)
    _snap(shot, aki, "race")
    tv.locator("button[aria-pressed=true]:not(.announcer-voice)").click()  # resume
    tv.locator(".dd-track[data-finished='1']").wait_for(state="attached")
    tv.locator("button[aria-pressed=false]:not(.announcer-voice)").click()  # hold the results
    tv.locator("button[aria-pressed=true]:not(.announcer-voice)").wait_for()
    shot.snap(tv, "finish", settle_ms=1200)
    _snap(shot, aki, "finish")
    tv.locator("button[aria-pressed=true]:not(.announcer-voice)").click()
    for p in (tv, aki, chie):
        _phase(p, "betting")
    aki.locator(".dd-my-result").wait_for()
    chie.locator(".dd-my-result").wait_for()
    shot.snap(tv, "results")
    _snap(shot, aki, "results")
    for _race in range(3):  # the other races at once: the host closes betting and skips
        tv.locator(".controls button.primary").click()
        _phase(tv, "racing")
        tv.get_by_role("button", name="Skip to the results").click()
        tv.wait_for_function("() => document.body.dataset.phase !== 'racing'")
    for p in (tv, aki, chie):
        _phase(p, "finished")
    tv.locator(".finale").first.wait_for()
    shot.snap(tv, "finale", settle_ms=2500)
    _snap(shot, aki, "finale", settle_ms=2500)
    for page in (tv, aki, ben, chie):
        page.context.close()
    _photo_finish(shot)


def _photo_finish(shot: Any) -> None:
    """Seed 13 with falls: race 1 has falls, lead changes and ends in a photo-finish (the
    d10 beats the d4 by one pip) when Aki buys the d20 and Ben the d12 and nobody bets."""
    with _seed(13):
        room = _room(shot.base, fall_rate="0.15")
    tv, aki, ben = _host_with_aki_and_ben(shot, room)
    tv.locator(".dd-seat-list li").nth(1).wait_for()
    tv.locator("#computers").fill("1")
    tv.locator(".controls button.primary").click()
    bids = {"d20": (1500, 0), "d12": (0, 900)}
    for p in (tv, aki, ben):
        _phase(p, "auction")
    for _tries in range(200):  # each lot: whoever may bid seals (0 unless a bid is set)
        if tv.evaluate("document.body.dataset.phase") != "auction":
            break
        bidders = [(i, p) for i, p in enumerate((aki, ben)) if p.locator("#bid").count()
                   and not p.locator("section.action .sealed").count()]
        if not bidders:
            tv.wait_for_timeout(300)
            continue
        offered = re.search(r"d\d+", bidders[0][1].locator("section.action h2").inner_text())
        amounts = bids.get(offered[0] if offered else "", (0, 0))
        for i, phone in bidders:
            _bid(phone, amounts[i])
        tv.wait_for_timeout(300)
    for p in (tv, aki, ben):
        _phase(p, "betting")
    for p in (aki, ben):
        p.locator("button.done").click()
    _phase(tv, "racing")
    tv.locator(".announcer[data-moment~=photo]").wait_for(state="attached", timeout=120_000)
    tv.locator("button[aria-pressed=false]:not(.announcer-voice)").click()  # hold the photo
    tv.locator("button[aria-pressed=true]:not(.announcer-voice)").wait_for()
    shot.snap(tv, "photo-finish", settle_ms=1500)
    _snap(shot, aki, "photo-finish")
    for page in (tv, aki, ben):
        page.context.close()
