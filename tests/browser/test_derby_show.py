"""A Dice Derby evening as a show, in Chromium (#32): a big screen (1920×1080) and three
phones (360, 430 and 390 px wide, the last in Japanese).

* Nothing early: each page records with ``Date.now()`` (a MutationObserver, no sleeps) when
  the big screen shows a race's finish and when each phone shows that race's result; no
  phone shows it before the big screen reaches the finish, and no frame a phone received
  before the finish frame holds the race's results.
* Screens that fit: the big screen fits 1920×1080 with no scrolling and ≥ 28 px text in every
  phase (every text node of the page, its header too), its cards never run under the news
  line and the news line's lines are never cut; the phones have no sideways scroll and put
  the player's action first, and a phone's result card shows its payout first.
* The auction's reveal: the last lot's bids one beat after another, the lowest first and
  the winning bid last; the whole evening draws with no Content-Security-Policy refusal.
* axe-core finds no serious or critical violation in any phase on any page.
* The forms check amounts in the page's words (no browser bubbles), and a language switch
  redraws the big screen and the phone.
"""

from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from raceday.web.app import create_app
from raceday.web.server import background_server

sys.path.insert(0, str(Path(__file__).parent))
from a11y import assert_accessible, wait_for_style_sheets
from tv_text import small_tv_text

TV = {"width": 1920, "height": 1080}
PHONES = [("Aki", {"width": 360, "height": 740}, "en"),
          ("Ben", {"width": 430, "height": 900}, "en"),
          ("Chie", {"width": 390, "height": 844}, "ja")]
RACES = 4

TV_WATCH = """() => {
  window.__t = {finish: {}, called: {}, standings: []};
  const note = () => {
    const race = document.body.dataset.finish;
    if (race && document.querySelector('.dd-track[data-finished="1"]') && !(race in __t.finish))
      __t.finish[race] = Date.now();
    const called = document.querySelector('.announcer')?.dataset.moment ?? '';
    if (race && /(^| )(photo|winner|long_odds)( |$)/.test(called) && !(race in __t.called))
      __t.called[race] = Date.now();  // the announcer calls the finish
    const rows = document.querySelector('.dd-standings tbody')?.textContent ?? '';
    const last = __t.standings[__t.standings.length - 1];
    const phase = document.body.dataset.phase;
    if (!last || last[1] !== rows) __t.standings.push([Date.now(), rows, phase]);
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true,
    attributes: true, characterData: true});
  note();
}"""

PHONE_WATCH = """() => {
  window.__t = {result: {}};
  const note = () => {
    const race = document.body.dataset.result;
    const shown = document.querySelector('.dd-my-result, .dd-won-line, .dd-lost-line');
    if (race && shown && !(race in __t.result)) __t.result[race] = Date.now();
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true,
    attributes: true, characterData: true});
  note();
}"""

TV_FIT = """() => {
  const d = document.documentElement;
  const clipped = [];  // drawn below or beside the screen, or cut off by its box
  for (const e of document.querySelectorAll('.dd-tv *')) {
    if (e.closest('.dd-sr') || e.getClientRects().length === 0) continue;
    const r = e.getBoundingClientRect();
    if (r.width && (r.bottom > innerHeight + 1 || r.right > innerWidth + 1))
      clipped.push(`${e.tagName}.${e.className} ${Math.round(r.bottom)}`);
  }
  // the stage's cards never run under the news line, and its lines are never cut
  const ticker = document.querySelector('.dd-ticker').getBoundingClientRect();
  const under = [];
  for (const e of document.querySelectorAll('.dd-stage *')) {
    const r = e.getBoundingClientRect();
    if (r.width && r.height && r.bottom > ticker.top + 1 && r.top < ticker.bottom - 1)
      under.push(`${e.tagName}.${e.className} ${Math.round(r.bottom)} > ${Math.round(ticker.top)}`);
  }
  const cut = [...document.querySelectorAll('.dd-ticker, .dd-ticker *')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1
      || getComputedStyle(e).textOverflow === 'ellipsis')
    .map((e) => e.textContent.slice(0, 40));
  return {sh: d.scrollHeight, ih: innerHeight, sw: d.scrollWidth, iw: innerWidth,
          clipped: clipped.slice(0, 5), under: under.slice(0, 5), cut};
}"""

PHONE_FIT = """() => {
  const d = document.documentElement;
  const top = (s) => document.querySelector(s)?.getBoundingClientRect().top ?? null;
  return {sw: d.scrollWidth, iw: innerWidth, action: top('section.action'),
          info: top('section.info')};
}"""


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with background_server(create_app(tmp_path / "show.sqlite")) as url:
        yield url


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def check_screens(tv: Any, phones: list[Any], phase: str) -> None:
    """Every page in ``phase``: the TV fits with big text, the phones do not scroll
    sideways and show the action first, and axe finds nothing serious."""
    for page in (tv, *phones):  # the entrances (reveals, the podium) have ended
        page.wait_for_function("() => document.getAnimations().every("
                               "(a) => a.playState !== 'running')", timeout=30_000)
    wait_for_style_sheets(tv)
    fit = tv.evaluate(TV_FIT)
    assert fit["sh"] <= fit["ih"] and fit["sw"] <= fit["iw"], (phase, fit)
    small = small_tv_text(tv)
    assert not small, (phase, small[:5])
    assert not fit["clipped"], (phase, fit["clipped"])
    assert not fit["under"], (phase, fit["under"])
    assert not fit["cut"], (phase, fit["cut"])
    assert_accessible(tv, f"derby TV {phase}")
    for phone in phones:
        got = phone.evaluate(PHONE_FIT)
        assert got["sw"] <= got["iw"], (phase, got)
        assert got["action"] is not None and got["info"] is not None
        assert got["action"] < got["info"], (phase, got)  # the player's action first
        assert_accessible(phone, f"derby phone {phase} {phone.viewport_size['width']}px")


REVEAL = """() => [...document.querySelectorAll('.dd-reveal .dd-bid')].map((e) => ({
  amount: e.dataset.amount === undefined ? null : Number(e.dataset.amount),
  beat: Number(getComputedStyle(e).getPropertyValue('--i')),
  winning: e.classList.contains('dd-winning'), verdict: e.classList.contains('dd-verdict')}))"""


def check_reveal(tv: Any) -> None:
    """The last lot's sealed bids come one beat after another, the lowest first and the
    winning bid last, then the verdict; the news line does not tell the bids meanwhile."""
    lines = tv.evaluate(REVEAL)
    amounts = [x["amount"] for x in lines if x["amount"] is not None]
    assert len(amounts) >= 2, lines  # two phones and the computers bid
    assert amounts == sorted(amounts), lines
    beats = [x["beat"] for x in lines]
    assert beats == sorted(set(beats)), lines  # one line a beat, in the order shown
    assert lines[-1]["verdict"], lines
    bids = [x for x in lines if x["amount"] is not None]
    assert bids[-1]["winning"] and not any(x["winning"] for x in bids[:-1]), lines
    assert bids[-1]["beat"] > bids[-2]["beat"] + 1  # a beat of suspense before the winner
    assert "Bids:" not in tv.locator(".dd-ticker").inner_text()


def check_result_card(phone: Any) -> None:
    """The phone's result card: what the player won first, then the places, each
    numbered once (by its place word, with no list number before it)."""
    card = phone.evaluate("""() => {
      const c = document.querySelector('.dd-my-result');
      const places = c.querySelector('.dd-places');
      return {kids: [...c.children].map((k) => k.className || k.tagName),
              marker: getComputedStyle(places.querySelector('li')).listStyleType,
              first: places.querySelector('li').textContent.trim()};
    }""")
    kids = card["kids"]
    assert kids.index("order dd-places") == len(kids) - 1 and kids[0] == "H2", card
    assert card["marker"] == "none" and card["first"].startswith("1st"), card


def act(phone: Any, bid: int) -> bool:
    """Whatever this phone can do now, through its forms; True if it did something."""
    action = phone.locator("section.action")
    before = action.inner_html()
    if phone.locator("#bid").count() and not phone.locator(".sealed").count():
        phone.locator("#bid").fill(str(bid))
        phone.locator("form.dd-form button[type=submit]").click()
    elif phone.locator("#stake").count():
        if not phone.locator(".tickets li").count():
            phone.locator("#stake").fill("500")
            phone.locator("form.ticket-form button[type=submit]").click()
        else:
            phone.locator("button.done").click()
    else:
        return False
    phone.wait_for_function("b => document.querySelector('section.action').innerHTML !== b",
                            arg=before, timeout=30_000)
    return True


def frames_of(page: Any) -> list[dict[str, Any]]:
    out = []
    for raw in page.frames_received:
        msg = json.loads(raw)
        if msg.get("type") in ("welcome", "update"):
            out.append(msg)
    return out


def test_a_derby_evening_is_spoiler_free_fits_every_screen_and_is_accessible(
        open_page: Any, base: str) -> None:
    room = post(f"{base}api/rooms", {"game": "derby", "options": {"races": RACES}})
    code = room["code"]
    tv = open_page(TV, f"{base}host/{code}?speed=0.5",
                   storage={f"raceday.host.{code}": room["host_token"]})
    # every Content-Security-Policy refusal of the evening, from the page's first load on
    csp: list[str] = []
    tv.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text else None)
    tv.reload()
    tv.locator(".big-code").wait_for()
    phones = []
    for name, size, lang in PHONES:
        phone = open_page(size, f"{base}play/{code}", storage={"raceday.lang": lang})
        phone.on("console", lambda m: csp.append(m.text)
                 if "Content Security Policy" in m.text else None)
        phone.locator("#name").fill(name)
        phone.keyboard.press("Enter")
        phone.locator("body[data-phase=lobby] .who").wait_for()
        phones.append(phone)
    tv.locator(".dd-seat-list li").nth(2).wait_for()
    check_screens(tv, phones, "lobby")
    tv.evaluate(TV_WATCH)
    for phone in phones:
        phone.evaluate(PHONE_WATCH)

    tv.locator("#computers").fill("2")
    tv.locator(".controls button.primary").click()
    for page in (tv, *phones):
        page.locator("body[data-phase=auction]").wait_for(state="attached")
    check_screens(tv, phones, "auction")
    # the app's own validation: no browser bubble, our words, nothing sent
    aki = phones[0]
    assert aki.locator("form.dd-form").get_attribute("novalidate") is not None
    aki.locator("#bid").fill("150")
    sent = len(aki.frames_received)
    aki.locator("form.dd-form button[type=submit]").click()
    aki.get_by_text("Amounts are in steps of 100.").wait_for()
    assert aki.locator("#bid").get_attribute("aria-invalid") == "true"
    assert "150" not in aki.locator("p.error").inner_text()  # a bid is never echoed
    assert len(aki.frames_received) == sent
    # the auction: each lot's die with its exact chance, then the reveal bid by bid
    assert "%" in tv.locator(".dd-chance").inner_text()
    revealed = False
    seen = {"betting": False}
    while tv.locator("body[data-phase=auction]").count():
        acted = any(act(p, [1200, 800, 0][k]) for k, p in enumerate(phones))
        if not revealed and tv.locator(".dd-reveal .dd-verdict").count():
            revealed = True
            check_screens(tv, phones, "auction reveal")
            check_reveal(tv)
        assert acted or tv.locator("body[data-phase=auction]").count() == 0
    assert revealed

    for race in range(1, RACES + 1):
        for page in (tv, *phones):
            page.locator("body[data-phase=betting]").wait_for(state="attached")
        if not seen["betting"]:
            seen["betting"] = True
            check_screens(tv, phones, "betting")
            # the quinella's first menu names horses without the win odds
            aki.locator("#kind").select_option("quinella")
            assert "(" not in aki.locator("#horse1").inner_text()
            aki.locator("#kind").select_option("win")
            assert "(" in aki.locator("#horse1").inner_text()
        elif race == 2:
            check_screens(tv, phones, "results")
        while tv.locator("body[data-phase=betting]").count():
            if not any(act(p, 0) for p in phones):
                tv.wait_for_function("() => document.body.dataset.phase !== 'betting'",
                                     timeout=30_000)
        tv.locator(".dd-track").wait_for()
        if race == 1:
            tv.locator(".dd-track[data-round='2']").wait_for(state="attached")
            tv.locator(".dd-controls button[aria-pressed=false]").click()  # pause mid-race to look
            tv.locator(".dd-controls button[aria-pressed=true]").wait_for()
            check_screens(tv, phones, "race")
            assert tv.locator("button", has_text="Roll").count() == 0  # no stale roll button
            tv.locator("#dd-pace").select_option(label="Slow")  # time to pause at the finish
            tv.locator(".dd-controls button[aria-pressed=true]").click()
        tv.wait_for_function(f"() => String({race}) in window.__t.finish", timeout=60_000)
        if race == 1:
            # hold the results behind the finish a moment to look at every screen
            tv.locator(".dd-controls button[aria-pressed=false]").click()
            tv.locator(".dd-controls button[aria-pressed=true]").wait_for()
            check_screens(tv, phones, "finish")
            tv.locator("#dd-pace").select_option(label="Fast")
            tv.locator(".dd-controls button[aria-pressed=true]").click()
        for phone in phones:
            phone.wait_for_function(f"() => String({race}) in window.__t.result",
                                    timeout=60_000)
        if race == 1:
            check_result_card(aki)

    for page in (tv, *phones):
        page.locator("body[data-phase=finished]").wait_for(state="attached")
    tv.locator(".finale .podium li").first.wait_for()
    check_screens(tv, phones, "finale")
    # said once, by the phone's card: the news line keeps the event's words to itself
    for phone, (_name, _size, lang) in zip(phones, PHONES, strict=True):
        shown = phone.locator("body").inner_text()
        if lang == "en":
            assert shown.count("The evening is over") == 1, shown
        else:
            assert "これでおしまい" in shown and "今夜の競走は終了" not in shown, shown

    # nothing early: every phone showed each race's result after the big screen's finish
    finish = tv.evaluate("() => window.__t.finish")
    assert sorted(finish, key=int) == [str(r) for r in range(1, RACES + 1)]
    for phone in phones:
        result = phone.evaluate("() => window.__t.result")
        for race, at in finish.items():
            assert result[race] >= at, (race, result[race], at)
    # the announcer called every finish (a photo's included) before any phone showed it
    called = tv.evaluate("() => window.__t.called")
    assert sorted(called, key=int) == sorted(finish, key=int)
    for phone in phones:
        result = phone.evaluate("() => window.__t.result")
        assert all(result[race] >= at for race, at in called.items()), (called, result)
    # nor did the big screen's standings move while a race was on the screen
    standings = tv.evaluate("() => window.__t.standings")
    assert len(standings) > 1 and not [s for s in standings if s[2] == "racing"], standings
    # and no frame a phone received before a race's finish frame holds that race's results
    for phone in phones:
        frames = frames_of(phone)
        for race in range(1, RACES + 1):
            finish_at = next(i for i, m in enumerate(frames)
                             if m["view"]["phase"] == "racing" and m["view"].get("race") == race
                             and m["view"]["live"] and m["view"]["live"]["finished"])
            for m in frames[:finish_at + 1]:
                kinds = {e["type"] for e in m.get("events", [])}
                assert not kinds & {"settled", "quinella_paid", "finished"} or \
                    all(e.get("race", 0) < race for e in m["events"] if e["type"] == "settled")
                last = m["view"].get("last")
                assert last is None or last["race"] < race, (race, last)
            assert "settled" not in {e["type"] for e in frames[finish_at].get("events", [])}
    # play again with the same seats: every phone keeps its seat, a new auction begins
    tv.get_by_role("button", name="Play again (same seats)").click()
    for page in (tv, *phones):
        page.locator("body[data-phase=auction]").wait_for(state="attached")
    aki.get_by_text("You are Aki").wait_for()
    assert tv.locator(".dd-standings tbody tr").count() == 5  # three people, two computers
    for page in (tv, *phones):
        assert not page.js_errors, page.js_errors
    assert csp == [], csp[:3]


def test_a_language_switch_redraws_the_big_screen_and_the_phone(open_page: Any,
                                                                 base: str) -> None:
    room = post(f"{base}api/rooms", {"game": "derby", "options": {"races": RACES}})
    code = room["code"]
    tv = open_page(TV, f"{base}host/{code}", storage={f"raceday.host.{code}": room["host_token"]})
    phone = open_page(PHONES[0][1], f"{base}play/{code}")
    phone.locator("#name").fill("Aki")
    phone.keyboard.press("Enter")
    phone.locator("body[data-phase=lobby] .who").wait_for()
    tv.locator("#computers").fill("1")
    tv.locator(".controls button.primary").click()
    phone.locator("#bid").wait_for()
    tv.locator(".dd-chance").wait_for()
    assert "chance to win" in tv.locator(".dd-chance").inner_text()
    tv.get_by_role("button", name="Switch to Japanese").click()
    tv.locator(".dd-chance", has_text="勝率").wait_for()
    check_screens(tv, [], "auction in Japanese")
    ticker = tv.locator(".dd-ticker").inner_text()  # the news line is worded again too
    assert ticker and any("\u3040" <= c <= "\u30ff" for c in ticker), ticker
    phone.get_by_role("button", name="Switch to Japanese").click()
    phone.locator("label[for=bid]", has_text="入札").wait_for()
    feed = phone.locator(".feed").inner_text()
    assert feed and any("\u3040" <= c <= "\u30ff" for c in feed), feed
    phone.locator("#bid").fill("abc")
    phone.locator("form.dd-form button[type=submit]").click()
    phone.get_by_text("金額は 0〜9 の数字で整数を入力してください。").wait_for()
    assert_accessible(phone, "derby phone auction in Japanese")
    assert not tv.js_errors and not phone.js_errors


def one_phone_evening(open_page: Any, base: str, *, computers: int, speed: str,
                      motion: bool = False) -> tuple[Any, Any]:
    """An evening started on the TV (at ``speed``) with Aki's phone and ``computers``
    computers: the TV's page and the phone's."""
    room = post(f"{base}api/rooms", {"game": "derby", "options": {"races": RACES}})
    code = room["code"]
    tv = open_page(TV, f"{base}host/{code}?speed={speed}", motion=motion,
                   storage={f"raceday.host.{code}": room["host_token"]})
    phone = open_page(PHONES[0][1], f"{base}play/{code}")
    phone.locator("#name").fill("Aki")
    phone.keyboard.press("Enter")
    phone.locator("body[data-phase=lobby] .who").wait_for()
    tv.locator("#computers").fill(str(computers))
    tv.locator(".controls button.primary").click()
    return tv, phone


def test_twelve_players_still_fit_the_big_screen(open_page: Any, base: str) -> None:
    """The most the room seats (one phone and eleven computers): the standings, the chips
    and the payouts still fit 1920×1080 in betting, after a race and at the finale."""
    tv, phone = one_phone_evening(open_page, base, computers=11, speed="0")
    while not tv.locator("body[data-phase=betting]").count():
        act(phone, 0)
    tv.locator(".dd-standings tbody tr").nth(11).wait_for()
    check_screens(tv, [phone], "betting, twelve players")
    for race in range(1, RACES + 1):
        phone.locator("button.done").click()
        tv.locator("body[data-phase=racing]").wait_for(state="attached")
        tv.get_by_role("button", name="Skip to the results").click()
        tv.wait_for_function("() => document.body.dataset.phase !== 'racing'")
        if race == 1:
            tv.locator(".dd-result").wait_for()
            check_screens(tv, [phone], "results, twelve players")
    tv.locator("body[data-phase=finished] .finale .podium li").first.wait_for()
    check_screens(tv, [phone], "finale, twelve players")


def test_the_winner_banner_waits_for_the_horses_to_reach_the_post(open_page: Any,
                                                                  base: str) -> None:
    """With motion on, the finish's banner enters only when the last glide has ended: its
    entrance is delayed by at least as long as the horses that moved take to run."""
    tv, phone = one_phone_evening(open_page, base, computers=2, speed="0.5", motion=True)
    while not tv.locator("body[data-phase=racing]").count():
        if not act(phone, 0):
            phone.wait_for_timeout(100)
    tv.locator(".dd-banner").wait_for(state="attached", timeout=60_000)
    timing = tv.evaluate("""() => {
      const banner = document.querySelector('.dd-banner').getAnimations()[0];
      const glides = [...document.querySelectorAll('.dd-lane.is-moving .dd-runner')]
        .map((r) => parseFloat(getComputedStyle(r).transitionDuration) * 1000);
      return {delay: banner ? banner.effect.getTiming().delay : null, glides};
    }""")
    assert timing["glides"] and timing["delay"] is not None, timing
    assert timing["delay"] >= max(timing["glides"]) > 0, timing
    assert not tv.js_errors
