"""Chromium watches WielerSIM races in watch rooms: the server plays the film, the TV and a
phone show the same frame; every phase fits the TV (1920x1080, no scrolling, 28 px words)
and the phone (no sideways scroll, the film first) and passes axe; a stage of a stage race
is watched the same way and its tables and GC chart follow; words in both languages."""

from __future__ import annotations

import json
import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from playwright.sync_api import expect  # noqa: E402
from tests.browser.shots import keep_shot  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from a11y import assert_accessible, turn_to, wait_for_style_sheets  # noqa: E402
from tv_text import small_tv_text  # noqa: E402

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
PHONES = ({"width": 360, "height": 780}, {"width": 430, "height": 932})
WORDS = ".wv-room .film-where, .wv-room .groups li, .wv-room .wv-ticker li, .wv-room .wv-sub, " \
        ".wv-room .film-legend, .wv-room td, .wv-room .wv-seats, .wv-room .finale li"



def settled(page: Any) -> None:
    """Wait until no CSS animation or transition runs (the finale's entrance, a glide)."""
    for _ in range(200):  # a hang guard far above a finale's second
        if page.evaluate("document.getAnimations().every(a => a.playState !== 'running')"):
            return
        page.wait_for_timeout(50)
    raise AssertionError("animations never settled")


def fits_tv(page: Any, phase: str) -> None:
    wait_for_style_sheets(page)
    height = page.evaluate("[document.documentElement.scrollHeight, innerHeight]")
    assert height[0] <= height[1], f"TV {phase}: {height[0]} px tall"
    sizes = page.evaluate(f"""[...document.querySelectorAll({json.dumps(WORDS)})]
        .filter(e => e.offsetParent !== null && e.textContent.trim())
        .map(e => [e.className || e.tagName, parseFloat(getComputedStyle(e).fontSize)])""")
    assert sizes, f"TV {phase}: no words found"
    small = [s for s in sizes if s[1] < 28]
    assert not small, f"TV {phase}: words under 28 px: {small[:5]}"
    small = small_tv_text(page)  # the header, the profile's labels and discs, the finale too
    assert not small, f"TV {phase}: text under 28 px: {small[:5]}"


def fits_phone(page: Any, phase: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), \
        f"phone {phase}: sideways scroll"


def check(page: Any, kind: str, phase: str) -> None:
    settled(page)
    if kind == "tv":
        fits_tv(page, phase)
    else:
        fits_phone(page, phase)
    assert_accessible(page, f"WielerSIM watch room {kind} {phase}")


def new_race_room(open_page: Callable[..., Any], base: str, query: str) -> tuple[Any, str]:
    """The /wielersim page's watch button: a watch room, its host's screen on the TV."""
    tv = open_page(TV, f"{base}wielersim?{query}")
    tv.locator("#race-form button[type=submit]").click()
    tv.wait_for_url("**/host/*")
    tv.wait_for_selector(".wv-lobby")
    return tv, tv.url.rsplit("/", 1)[1]


def phone_joins(open_page: Callable[..., Any], base: str, code: str, name: str,
                viewport: dict[str, int] = PHONE) -> Any:
    phone = open_page(viewport, f"{base}play/{code}")
    phone.fill("#name", name)
    phone.locator("form.join button[type=submit]").click()
    phone.wait_for_selector(".wv-lobby")
    return phone


def frames_seen(page: Any) -> list[tuple[int, int]]:
    """(seq, frames shown) of every update this page's WebSocket was sent."""
    out = []
    for text in page.frames_received:
        message = json.loads(text)
        if message.get("type") == "update":
            out.append((message["seq"], message["view"].get("shown")))
    return out


def test_the_tv_and_a_phone_see_the_same_frame_at_the_servers_pace(
        open_page: Callable[..., Any], base: str) -> None:
    tv, code = new_race_room(open_page, base, "route=flanders&peloton=classics&seed=5")
    phone = phone_joins(open_page, base, code, "Aki")
    expect(tv.locator(".wv-seat-list")).to_contain_text("Aki")
    check(tv, "tv", "lobby")
    check(phone, "phone", "lobby")
    # a guest's /watch link opened on a phone is a phone's page; cast to the TV, a TV's
    watcher = open_page(PHONE, f"{base}watch/{code}")
    watcher.wait_for_selector(".wv-phone .wv-lobby")
    fits_phone(watcher, "watch link, lobby")
    turn_to(watcher, TV)
    watcher.wait_for_selector(".wv-tv .wv-lobby")
    check(watcher, "tv", "watch link widened, lobby")
    tv.locator("#wv-start").click()
    expect(tv.locator("#wv-pause")).to_be_focused()  # the next useful control
    expect(tv.locator(".film-where")).to_contain_text("Turn 2", timeout=30_000)
    tv.locator("#wv-pause").click()
    expect(tv.locator(".wv-paused")).to_be_visible()
    # paused by the server: both screens stop on the very same frame
    expect(phone.locator(".wv-paused")).to_be_visible()
    where = tv.locator(".film-where").inner_text()
    expect(phone.locator(".film-where")).to_have_text(where)
    assert tv.locator(".grp").count() == phone.locator(".grp").count() > 0
    discs = "els => els.map(e => e.querySelector('text').textContent).join(' ')"
    assert tv.locator(".grp").evaluate_all(discs) == phone.locator(".grp").evaluate_all(discs)
    # a disc's number is always its group's size (the legend says so), never a bib
    last = [json.loads(m) for m in phone.frames_received if '"update"' in m][-1]["view"]["frame"]
    sizes = [len(g[2]) for g in last["groups"]]
    assert phone.locator(".grp text").all_text_contents() == [str(n) for n in sizes]
    assert sum(sizes) == len(last["riders"])
    expect(phone.locator(".film-legend")).to_contain_text("how many riders are in the group")
    check(tv, "tv", "racing")
    check(phone, "phone", "racing")
    # the film first on the phone: the profile's top is on the first screen, above the ticker
    box = phone.locator(".profile-box").bounding_box()
    assert box["y"] < PHONE["height"] / 2 < phone.locator(".wv-ticker").bounding_box()["y"] + 400
    tv.select_option("#wv-pace", "0.2")
    expect(tv.locator("#wv-pace")).to_have_value("0.2")
    tv.locator("#wv-pause").click()  # resume: to the finish at the fastest pace
    tv.wait_for_selector(".wv-finished", timeout=60_000)
    phone.wait_for_selector(".wv-finished", timeout=30_000)
    # every frame came as its own update, once, in order, the same on both screens
    seen_tv = [s for s in frames_seen(tv) if s[1]]
    seen_phone = [s for s in frames_seen(phone) if s[1]]
    shown = sorted({s[1] for s in seen_tv})
    assert shown == list(range(1, shown[-1] + 1))
    assert {s for s in seen_tv if s[1]} >= {s for s in seen_phone if s[1] >= shown[0]}
    assert tv.locator(".finale .podium").count() == 1 == phone.locator(".finale .podium").count()
    first = tv.locator(".result-table tbody tr").first.locator("th").inner_text()
    expect(tv.locator(".finale .step-1")).to_contain_text(first)
    check(tv, "tv", "finished")
    check(phone, "phone", "finished")
    assert tv.js_errors == [] and phone.js_errors == []


def fits_each_phone(page: Any, phase: str, axe: bool = False) -> None:
    """No sideways scroll in ``phase`` at each of :data:`PHONES` (the same page turned to
    each size, the first last: one race checks both)."""
    for viewport in (*PHONES[1:], PHONES[0]):
        turn_to(page, viewport)
        fits_phone(page, f"{phase} at {viewport['width']}")
        if axe:
            assert_accessible(page, f"{phase} at {viewport['width']}")


def test_a_phone_of_any_width_has_no_sideways_scroll(
        open_page: Callable[..., Any], base: str) -> None:
    home = open_page(PHONES[0], f"{base}wielersim")
    home.wait_for_selector("#race-form")
    fits_each_phone(home, "the /wielersim page", axe=True)
    tv, code = new_race_room(open_page, base, "route=ardennes&peloton=small&seed=2")
    assert_accessible(tv, "/wielersim's watch room, just made")
    phone = phone_joins(open_page, base, code, "Ben", PHONES[0])
    fits_each_phone(phone, "lobby")
    tv.locator("#wv-start").click()
    expect(phone.locator(".film-where")).to_contain_text("Turn", timeout=30_000)
    fits_each_phone(phone, "racing")
    tv.locator("#wv-skip").click()
    phone.wait_for_selector(".wv-finished")
    settled(phone)
    fits_each_phone(phone, "finished")
    # play again: the same phone, another race on the same route with a new seed
    seed = tv.locator(".wv-sub").inner_text()
    tv.wait_for_selector(".wv-finished")
    tv.locator(".finale button").click()
    expect(phone.locator(".film-where")).to_contain_text("Turn", timeout=30_000)
    expect(phone.locator(".wv-sub")).not_to_have_text(seed)
    assert phone.locator("body[data-phase=racing]").count() == 1


def test_the_groups_glide_unless_the_reader_asked_for_less_motion(
        chromium: Any, base: str) -> None:
    durations = {}
    for motion in ("no-preference", "reduce"):
        context = chromium.new_context(viewport=TV, reduced_motion=motion)
        page = context.new_page()
        page.goto(f"{base}wielersim?route=flanders&peloton=small&seed=4")
        page.locator("#race-form button[type=submit]").click()
        page.wait_for_selector(".wv-lobby")
        page.locator("#wv-start").click()
        longest = 0.0
        for turn in range(2, 8):  # a disc that stays with its group glides (a new one appears)
            expect(page.locator(".film-where")).to_contain_text(f"Turn {turn}:", timeout=30_000)
            longest = max(longest, *page.locator(".grp").evaluate_all(
                "els => els.map(e => parseFloat(getComputedStyle(e).transitionDuration))"))
        durations[motion] = longest
        context.close()
    assert durations["no-preference"] > 0 and durations["reduce"] == 0


def test_a_stage_is_watched_in_a_room_then_the_tables_and_gc(
        open_page: Callable[..., Any], base: str) -> None:
    tv = open_page(TV, f"{base}wielersim")
    tv.locator("#tour-form input[name=name]").fill("spring")
    tv.locator("#tour-form button[type=submit]").click()
    tv.wait_for_url("**/wielersim?campaign=spring")
    expect(tv.locator("main")).to_contain_text("No stage has been ridden yet")
    tv.get_by_role("button", name="Ride the prologue: Prologue").click()
    # the prologue has no film: its tables at once, no "null", no stale card
    expect(tv.locator(".tables")).to_contain_text("Prologue: stage result")
    text = tv.locator("main").inner_text()
    assert "null" not in text and "not been ridden yet" not in text
    expect(tv.locator("button[data-stage='0']")).to_be_focused()
    tv.get_by_role("button", name=re.compile("Ride and watch: Stage 1")).click()
    tv.wait_for_url("**/host/*")
    expect(tv.locator(".wv-sub")).to_contain_text("spring")
    tv.locator("#wv-start").click()
    expect(tv.locator(".film-where")).to_contain_text("Turn", timeout=30_000)
    tv.locator("#wv-skip").click()
    tv.wait_for_selector(".wv-finished")
    expect(tv.locator("#wv-tables")).to_be_focused()  # the next useful control
    tv.keyboard.press("Enter")
    tv.wait_for_url("**/wielersim?campaign=spring&stage=1")
    expect(tv.locator("main")).to_contain_text("2 of 6 stages ridden")
    expect(tv.locator(".tables")).to_contain_text("Stage 1")
    # the GC chart's legend: a line sample (colour and dash) for every line drawn
    lines = tv.locator(".gc-chart polyline")
    samples = tv.locator(".gc-legend .line-sample line")
    assert lines.count() == samples.count() == 8
    for k in range(8):
        for attr in ("stroke", "stroke-dasharray"):
            assert lines.nth(k).get_attribute(attr) == samples.nth(k).get_attribute(attr)
    # the axis names the stages ridden: the prologue, then stage 1 (not "1", "2")
    assert tv.locator(".gc-chart text.gc-stage").all_text_contents() == ["Prologue", "1"]
    keep_shot(tv, "wielersim-stage-race-1920.png")
    # round ticks: 0'00", then whole steps of seconds or minutes
    ticks = tv.locator(".gc-chart text[text-anchor=end]").all_text_contents()
    values = [int(m) * 60 + int(s) for m, s in (re.findall(r"(\d+)'(\d\d)", x)[0] for x in ticks)]
    step = values[1] - values[0]
    assert values[0] == 0 and step in (5, 10, 15, 20, 30, 60, 120, 180, 300, 600)
    assert values == [k * step for k in range(len(values))]
    # the stage race's page fits the TV too: head, stages, one table, the chart
    wait_for_style_sheets(tv)
    assert tv.evaluate("document.documentElement.scrollHeight <= innerHeight")
    sizes = tv.locator(".campaign td, .campaign .stages li, .gc-legend li").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert sizes and min(sizes) >= 28
    tv.get_by_role("button", name="General classification").click()
    expect(tv.locator(".tables caption")).to_have_text("General classification")
    assert_accessible(tv, "WielerSIM stage race tables")
    phone = open_page(PHONE, tv.url)
    phone.wait_for_selector(".gc-chart")
    fits_phone(phone, "stage race")
    assert_accessible(phone, "WielerSIM stage race tables, phone")
    # in Japanese the stages' numbers and profile words are the tables' (the places keep
    # their names): no "Stage 1:", "(flat)" or "Prologue" from the stage race's file
    tv.locator("header button", has_text="日本語").click()
    expect(tv.locator(".stages")).to_contain_text("第1ステージ")
    japanese = tv.locator("main").inner_text()
    found = re.findall(r"\b(?:Stage|Prologue|flat|hilly|cobbles|mountain|summit)\b", japanese)
    assert not found, found
    assert tv.js_errors == [] and phone.js_errors == []


def test_the_room_speaks_the_readers_language_and_switches(
        open_page: Callable[..., Any], base: str) -> None:
    tv, code = new_race_room(open_page, base, "route=flat-stage&peloton=small&seed=5")
    phone = open_page(PHONE, f"{base}play/{code}", {"raceday.lang": "ja"})
    phone.fill("#name", "Chie")
    phone.locator("form.join button[type=submit]").click()
    phone.wait_for_selector(".wv-lobby")
    tv.locator("#wv-start").click()
    tv.locator("#wv-skip").click()
    phone.wait_for_selector(".wv-finished")
    expect(phone.locator(".result-table caption")).to_have_text("結果")
    tv.wait_for_selector(".wv-finished")
    english = tv.locator(".wv-room").inner_text()
    assert "Result" in english
    tv.locator("header button", has_text="日本語").click()  # the language switch redraws
    expect(tv.locator(".result-table caption")).to_have_text("結果")
    japanese = tv.locator(".wv-room").inner_text()
    assert "Result" not in japanese and "{" not in japanese and "wv_" not in japanese
    expect(tv.locator(".finale h2").first).not_to_have_text("The podium")  # the finale too
    check(tv, "tv", "finished, Japanese")
