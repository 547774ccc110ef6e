"""A Dice Derby evening for the docs' screenshots: the TV (1920×1080) and three phones
(390×844), one of them in Japanese, at every phase: lobby, the auction (a lot revealed bid
by bid), betting, the race, the finish, the results and the finale. The race runs on the
server's timeline; the host pauses it to catch a furlong and the finish."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def _room(base: str) -> dict[str, Any]:
    req = urllib.request.Request(f"{base.rstrip('/')}/api/rooms", json.dumps(
        {"game": "derby", "options": {"races": 4}}).encode(),
        {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        room: dict[str, Any] = json.loads(r.read())
        return room


def _join(shot: Any, code: str, name: str, lang: str = "en") -> Any:
    phone = shot.page("phone", f"play/{code}", lang=lang)
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
    shot.snap(page, phase, settle_ms=settle_ms)


def scenes(shot: Any) -> None:
    room = _room(shot.base)
    code = room["code"]
    tv = shot.page("tv", "/", storage={f"raceday.host.{code}": room["host_token"]})
    tv.goto(f"{shot.base.rstrip('/')}/host/{code}")
    tv.locator(".big-code").wait_for()
    aki = _join(shot, code, "Aki")
    ben = _join(shot, code, "Ben")
    chie = _join(shot, code, "Chie", lang="ja")
    tv.locator(".dd-seat-list li").nth(2).wait_for()
    shot.snap(tv, "lobby")
    _snap(shot, aki, "lobby")
    tv.locator("#computers").fill("2")
    tv.locator(".controls button.primary").click()
    for p in (aki, ben, chie):
        _phase(p, "auction")
    _snap(shot, aki, "auction")
    _snap(shot, chie, "auction-ja")
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
    tv.get_by_role("button", name="Switch to Japanese").click()  # the sofa reads Japanese
    tv.locator(".dd-betting h2", has_text="馬券発売中").wait_for()
    shot.snap(tv, "betting-ja")
    tv.locator("button.lang").click()
    tv.locator(".dd-betting h2", has_text="Betting").wait_for()
    _snap(shot, aki, "betting")
    _snap(shot, chie, "betting-ja")
    for p in (aki, ben, chie):
        p.locator("button.done").click()
    _phase(tv, "racing")
    tv.locator(".dd-track[data-round='3']").wait_for(state="attached")
    tv.locator("button[aria-pressed=false]").click()  # pause mid-race
    tv.locator("button[aria-pressed=true]").wait_for()
    shot.snap(tv, "race", settle_ms=1200)
    _snap(shot, aki, "race")
    tv.locator("button[aria-pressed=true]").click()  # resume
    tv.locator(".dd-track[data-finished='1']").wait_for(state="attached")
    tv.locator("button[aria-pressed=false]").click()  # hold the results back a while
    tv.locator("button[aria-pressed=true]").wait_for()
    shot.snap(tv, "finish", settle_ms=1200)
    _snap(shot, aki, "finish")
    tv.locator("button[aria-pressed=true]").click()
    for p in (tv, aki, chie):
        _phase(p, "betting")
    aki.locator(".dd-my-result").wait_for()
    chie.locator(".dd-my-result").wait_for()
    shot.snap(tv, "results")
    _snap(shot, aki, "results")
    _snap(shot, chie, "results-ja")
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
    _snap(shot, chie, "finale-ja", settle_ms=2500)
    for page in (tv, aki, ben, chie):
        page.context.close()
