"""A KEIRIN night as a show (#32), in Chromium: nothing early (no phone learns its payout
before the TV has shown the finish, and no frame a phone received before the payout carries
one), screens that fit (the TV at 1920×1080 in every phase with no scrolling and text of at
least 28 px; phones 360 and 430 px wide with no sideways scroll, the betting slip first),
axe on every phase of both, a language switch that rewords the TV, the app's own words
instead of the browser's validation bubbles, and the pool mode's tote board that waits
for a second bettor."""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from raceday.web.app import create_app
from raceday.web.server import background_server

sys.path.insert(0, str(Path(__file__).parent))
from a11y import assert_accessible, wait_for_style_sheets
from keirin_phone import buy
from tv_text import small_tv_text

TV = {"width": 1920, "height": 1080}
PHONES = [{"width": 360, "height": 740}, {"width": 430, "height": 900}]
LONG = 120_000  # ms: a hang guard for a whole race, far above its normal length

# Each page records, with its own clock (Date.now(), one clock for every page of the
# browser), the first moment it shows the finish (TV), a payout (TV's result card, a
# phone's own returns) — a MutationObserver installed before the page's scripts run.
WATCH = """
window.__seen = {};
const mark = (name, selector) => {
  if (!window.__seen[name] && document.querySelector(selector)) window.__seen[name] = Date.now();
};
new MutationObserver(() => {
  mark("finish", "body[data-finish]");
  mark("tv_payout", ".kr-result");
  mark("phone_payout", ".kr-mine");
  mark("phone_wait", ".kr-wait");
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with background_server(create_app(tmp_path / "show.sqlite"), host="127.0.0.1") as url:
        yield url


def new_room(base: str, **options: Any) -> tuple[str, str]:
    body = json.dumps({"game": "keirin", "options": options}).encode()
    request = urllib.request.Request(f"{base}api/rooms", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        room = json.load(answer)
    return str(room["code"]), str(room["host_token"])


def tv_page(open_page: Callable[..., Any], base: str, code: str, token: str,
            speed: str) -> Any:
    page = open_page(TV, f"{base}host/{code}?speed={speed}",
                     storage={f"raceday.host.{code}": token})
    page.add_init_script(WATCH)
    page.reload()
    page.locator(".big-code").wait_for()
    return page


def join(open_page: Callable[..., Any], base: str, code: str, name: str,
         size: dict[str, int]) -> Any:
    phone = open_page(size, f"{base}play/{code}")
    phone.add_init_script(WATCH)
    phone.reload()
    phone.locator("#name").fill(name)
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text(f"You are {name}").wait_for()
    return phone


def phase(page: Any, wanted: str) -> None:
    page.locator(f"body[data-phase={wanted}]").wait_for(state="attached", timeout=LONG)


def frames(page: Any) -> list[dict[str, Any]]:
    return [json.loads(f) for f in page.frames_received if f.startswith("{")]


# --- nothing early --------------------------------------------------------------------------
def test_no_phone_sees_its_payout_before_the_tv_shows_the_finish(
        server: str, open_page: Callable[..., Any]) -> None:
    code, token = new_room(server, races=2, riders=6)
    tv = tv_page(open_page, server, code, token, speed="0.3")  # a pace of 0.66 s
    phones = [join(open_page, server, code, n, PHONES[i % 2])
              for i, n in enumerate(["Aki", "Ben", "Chie"])]
    tv.locator(".seats li").nth(2).wait_for()
    tv.get_by_role("button", name="Start the night").click()
    for phone in phones:
        phase(phone, "betting")
    buy(phones[0], "win", [1], "100")
    buy(phones[1], "trifecta", [1, 2, 3], "20")
    buy(phones[2], "quinella", [1, 2], "30")
    for phone in phones:
        phone.get_by_role("button", name="Done betting").click()
    # the server plays the race; every page waits for the payout of race 1
    tv.locator(".kr-result").wait_for(timeout=LONG)
    for phone in phones:
        phone.locator(".kr-mine").wait_for(timeout=LONG)
    seen_tv = tv.evaluate("window.__seen")
    assert "finish" in seen_tv and "tv_payout" in seen_tv
    assert seen_tv["tv_payout"] >= seen_tv["finish"]
    for phone in phones:
        seen = phone.evaluate("window.__seen")
        assert seen["phone_payout"] >= seen_tv["finish"], (seen, seen_tv)
        # at the finish the phone said the payout comes next, before it came
        assert seen["phone_wait"] <= seen["phone_payout"]
    # what each phone was sent: the order at the finish, then (a frame later) the payout;
    # no frame before the payout's carries a return, a settled race or a moved purse
    for phone in phones:
        got = frames(phone)
        kinds = [[e["type"] for e in f.get("events", [])] for f in got]
        settled = next(i for i, k in enumerate(kinds) if "settled" in k)
        result = next(i for i, k in enumerate(kinds) if "result" in k)
        assert result < settled
        assert "settled" not in kinds[result]
        purses = {json.dumps(f["view"]["standings"]) for f in got[result:settled]
                  if f.get("view")}
        assert len(purses) == 1  # no standing moved between the finish and the payout
        for f in got[:settled]:
            view = f.get("view") or {}
            assert view.get("last") is None, f
            assert not (view.get("me") or {}).get("last"), f
            assert "returned" not in json.dumps(f.get("events", []))
        after = got[settled]["view"]
        assert after["last"]["race"] == 1 and after["me"]["last"]
    for page in (tv, *phones):
        assert page.js_errors == []


# --- screens that fit, axe, words ------------------------------------------------------------
FITS_TV = """() => {
  const d = document.documentElement;
  const cut = [...document.querySelectorAll(".kr-news li")]
    .filter((li) => li.scrollWidth > li.clientWidth + 1
      || getComputedStyle(li).textOverflow === "ellipsis")
    .map((li) => li.textContent.slice(0, 40));
  return { height: d.scrollHeight, inner: innerHeight, width: d.scrollWidth,
           innerW: innerWidth, cut };
}"""

FITS_PHONE = """() => {
  const d = document.documentElement;
  const action = document.querySelector("section.action");
  const info = document.querySelector("section.info");
  return { width: d.scrollWidth, inner: innerWidth,
           actionTop: action ? action.getBoundingClientRect().top : null,
           infoTop: info ? info.getBoundingClientRect().top : null,
           kindTop: document.querySelector("#kr-kind")?.getBoundingClientRect().top ?? null,
           innerH: innerHeight };
}"""


def rider_shown(view: dict[str, Any]) -> bool:
    """A race view with riders on the track."""
    return bool((view.get("live") or {}).get("positions"))


def finish_shown(view: dict[str, Any]) -> bool:
    """A race view whose step is the finish (its result)."""
    return any(e.get("type") == "result" for e in (view.get("live") or {}).get("step", []))


def updates_since(tv: Any, seen: int) -> list[dict[str, Any]]:
    """The updates (views) the page was sent after its first ``seen`` frames."""
    sent = (json.loads(f) for f in tv.frames_received[seen:] if f.startswith("{"))
    return [msg for msg in sent if msg.get("type") == "update"]


def step_until(tv: Any, selector: str, reached: Callable[[dict[str, Any]], bool]) -> None:
    """The host presses "Next step" until the server sends a view that ``reached`` accepts,
    then ``selector`` must show. Each press waits for its update (the intent's ack comes
    first and is not the step): a second press before it would step past the finish card
    on a busy machine. The page is judged after the view says the moment came, because the
    test hears a frame before the page has drawn it."""
    for _ in range(400):
        if any(reached(msg.get("view") or {}) for msg in updates_since(tv, 0)[-1:]):
            tv.locator(selector).first.wait_for(state="attached", timeout=LONG)
            return
        seen = len(tv.frames_received)
        tv.get_by_role("button", name="Next step").click()
        for _ in range(LONG // 20):
            if updates_since(tv, seen):
                break
            tv.wait_for_timeout(20)
        else:
            raise AssertionError(f"no update came after pressing Next step ({selector})")
        if any(reached(msg.get("view") or {}) for msg in updates_since(tv, seen)):
            tv.locator(selector).first.wait_for(state="attached", timeout=LONG)
            return
    raise AssertionError(f"{selector} never showed")


SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running')"


def check_tv(tv: Any, where: str) -> None:
    tv.wait_for_function(SETTLED)  # entrances over: axe judges the colours as they stay
    wait_for_style_sheets(tv)
    got = tv.evaluate(FITS_TV)
    assert got["height"] <= got["inner"], (where, got)
    assert got["width"] <= got["innerW"], (where, got)
    assert not got["cut"], (where, got["cut"])  # each line of news whole
    small = small_tv_text(tv)
    assert not small, (where, small[:6])
    assert_accessible(tv, f"KEIRIN TV {where}")


def check_phone(phone: Any, where: str) -> None:
    phone.wait_for_function(SETTLED)
    got = phone.evaluate(FITS_PHONE)
    assert got["width"] <= got["inner"], (where, got)
    if got["infoTop"] is not None and got["actionTop"] is not None:
        assert got["actionTop"] <= got["infoTop"], (where, got)
    assert_accessible(phone, f"KEIRIN phone {where}")


def test_every_phase_fits_the_tv_and_the_phones(server: str,
                                                open_page: Callable[..., Any]) -> None:
    code, token = new_room(server, races=2, riders=9)
    tv = tv_page(open_page, server, code, token, speed="1")
    phones = [join(open_page, server, code, n, size)
              for n, size in zip(["Aki", "Ben"], PHONES, strict=True)]
    tv.locator(".seats li").nth(1).wait_for()
    check_tv(tv, "lobby")
    for phone in phones:
        check_phone(phone, "lobby")
    tv.get_by_role("button", name="Start the night").click()
    for phone in phones:
        phase(phone, "betting")
        got = phone.evaluate(FITS_PHONE)
        assert got["kindTop"] is not None and got["kindTop"] < got["innerH"]  # the slip first
    buy(phones[0], "trio", [7, 8, 9], "100")
    buy(phones[1], "exacta", [1, 2], "50")
    check_tv(tv, "betting")
    for phone in phones:
        check_phone(phone, "betting")
    # the app's own validation: an empty stake gets our words, not a browser bubble
    aki = phones[0]
    assert aki.locator("form.ticket-form").get_attribute("novalidate") is not None
    aki.locator("#kr-stake").fill("")
    aki.get_by_role("button", name="Buy ticket").click()
    aki.get_by_text("Type a stake, such as 100 or 12.50.").wait_for()
    assert aki.locator("#kr-stake").get_attribute("aria-invalid") == "true"
    # the TV switches to Japanese: the screen and its older lines are reworded, and fit
    tv.get_by_role("button", name="Switch to Japanese").click()
    tv.get_by_text("第1レース（全2）— 発売中").wait_for()
    assert "車券が1枚売れました。" in tv.locator(".kr-news").inner_text()
    check_tv(tv, "betting (Japanese)")
    tv.get_by_role("button", name="英語に切り替え").click()
    tv.get_by_text("Race 1 of 2 — betting open").wait_for()
    for phone in phones:
        phone.get_by_role("button", name="Done betting").click()
    phase(tv, "racing")
    tv.get_by_role("button", name="Pause").click()
    tv.locator("button[aria-pressed=true]").wait_for()
    step_until(tv, ".velodrome .rider[visibility=visible]", rider_shown)
    check_tv(tv, "race")
    for phone in phones:
        phase(phone, "racing")
        check_phone(phone, "race")
    step_until(tv, "body[data-finish]", finish_shown)
    tv.locator(".kr-finish").wait_for(timeout=LONG)
    check_tv(tv, "finish")
    for phone in phones:
        phone.locator(".kr-wait").wait_for(timeout=LONG)
        check_phone(phone, "finish")
    tv.get_by_role("button", name="Next step").click()
    tv.locator(".kr-result").wait_for()
    check_tv(tv, "results")
    for phone in phones:
        phone.locator(".kr-mine").wait_for()
        check_phone(phone, "results")
    tv.get_by_role("button", name="Close betting and start the race").click()
    tv.get_by_role("button", name="Skip to the finish").click()
    phase(tv, "finished")
    tv.locator(".finale .podium").wait_for()
    check_tv(tv, "finale")
    assert tv.locator("body").inner_text().count("The night is over") == 1
    for phone in phones:
        phase(phone, "finished")
        phone.locator(".finale .podium").wait_for()
        check_phone(phone, "finale")
        # the night is said to be over once (the heading), not again by the news line
        assert phone.locator("body").inner_text().count("The night is over") == 1
    # the finale's podium and awards, then another night with the same seats
    assert tv.locator(".finale .podium li").count() >= 1
    assert tv.locator(".finale .awards li").count() >= 1  # both bought tickets: boldest
    tv.get_by_role("button", name="Play again (same seats)").click()
    tv.get_by_text("Race 1 of 2 — betting open").wait_for()
    for phone, name in zip(phones, ["Aki", "Ben"], strict=True):
        phone.get_by_text("Race 1 of 2 — betting open").wait_for()
        assert name in phone.locator(".kr-me").inner_text()
        assert phone.locator("#kr-kind").is_visible()  # still seated: the slip, no join form
    for page in (tv, *phones):
        assert page.js_errors == []


def test_the_pools_stay_sealed_while_betting_is_open(server: str,
                                                   open_page: Callable[..., Any]) -> None:
    """Our completion of the pool mode (docs/rules/keirin.md): with two bettors no pool,
    stake or bet type reaches the TV or a phone before betting closes; the TV says so."""
    code, token = new_room(server, races=1, riders=6, mode="pool", margin=0.1)
    tv = tv_page(open_page, server, code, token, speed="1")
    aki = join(open_page, server, code, "Aki", PHONES[0])
    ben = join(open_page, server, code, "Ben", PHONES[1])
    tv.locator(".seats li").nth(1).wait_for()
    tv.get_by_role("button", name="Start the night").click()
    phase(aki, "betting")
    buy(aki, "win", [4], "250")
    buy(ben, "win", [2], "100")
    tv.locator(".kr-news li", has_text="A ticket is sold.").nth(1).wait_for()
    assert "the pools are sealed until betting closes" in tv.locator(".kr-status").inner_text()
    board = tv.locator(".kr-side").inner_text()
    assert "250.00" not in board and "350.00" not in board
    for page, own in ((tv, None), (aki, "25000"), (ben, "10000")):
        others = "|".join({"25000", "10000"} - {own})
        for frame in page.frames_received:
            assert not re.search(r'"pool"\s*:|"ticket_sold"\s*,\s*"kind"', frame)
            assert not re.search(rf'"stake"\s*:\s*({others})\b', frame)
    assert tv.js_errors == [] and aki.js_errors == []


def test_a_full_room_of_twelve_still_fits_the_tv(server: str,
                                                 open_page: Callable[..., Any]) -> None:
    """Twelve seats (the room's most): the lobby's list, the standings beside the odds board,
    the race and the result still fit the TV without scrolling."""
    code, token = new_room(server, races=2, riders=9)
    for i in range(12):
        body = json.dumps({"name": f"Player {i + 1}"}).encode()
        request = urllib.request.Request(f"{server}api/rooms/{code}/join", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 201
    tv = tv_page(open_page, server, code, token, speed="1")
    tv.locator(".seats li").nth(11).wait_for()
    check_tv(tv, "lobby (12 seats)")
    tv.get_by_role("button", name="Start the night").click()
    phase(tv, "betting")
    assert tv.locator(".kr-standings tbody tr").count() == 12
    check_tv(tv, "betting (12 seats)")
    tv.get_by_role("button", name="Close betting and start the race").click()
    phase(tv, "racing")
    tv.get_by_role("button", name="Pause").click()
    tv.locator("button[aria-pressed=true]").wait_for()
    step_until(tv, ".velodrome .rider[visibility=visible]", rider_shown)
    check_tv(tv, "race (12 seats)")
    step_until(tv, "body[data-finish]", finish_shown)
    check_tv(tv, "finish (12 seats)")
    tv.get_by_role("button", name="Next step").click()
    tv.locator(".kr-result").wait_for()
    check_tv(tv, "results (12 seats)")
    tv.get_by_role("button", name="Close betting and start the race").click()
    tv.get_by_role("button", name="Skip to the finish").click()
    phase(tv, "finished")
    tv.locator(".finale .podium").wait_for()
    check_tv(tv, "finale (12 seats)")
    assert tv.js_errors == []
