"""Screens at the sizes other than a TV's where `make screenshots` found them broken:
Dice Derby's betting board on a 1440×900 laptop (its quinella grid ran under the ticker and
the controls), KEIRIN's host screen on a 390 px phone (the TV's two columns and 28 px text
laid the heading, the buttons, the join code and the odds over one another), a turn-based
game's player on a laptop (its board kept to a phone's column, then PISTARD's whole track
pushing the choices off the window) and the replay list's notes on a TV."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from a11y import wait_for_style_sheets

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1440, "height": 900}

BOX = """(s) => { const r = document.querySelector(s)?.getBoundingClientRect();
  return r ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom } : null; }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(tmp_path_factory.mktemp("sizes") / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def room_with_aki(server: str, open_page: Any, game: str, viewport: dict[str, int],
                  options: dict[str, Any], aki_viewport: dict[str, int] = PHONE
                  ) -> tuple[Any, Any]:
    """A room of ``game``: its host screen at ``viewport`` and Aki's page (a phone unless
    ``aki_viewport``), in the lobby."""
    room = httpx.post(f"{server}api/rooms", json={"game": game, "options": options},
                      timeout=10).json()
    code = room["code"]
    host = open_page(viewport, f"{server}host/{code}",
                     {f"raceday.host.{code}": room["host_token"]})
    phone = open_page(aki_viewport, f"{server}play/{code}")
    phone.fill("#name", "Aki")
    phone.keyboard.press("Enter")
    host.get_by_text("Aki").first.wait_for(state="attached")
    return host, phone


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] | None = page.evaluate(BOX, selector)
    assert found is not None, selector
    return found


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
            or a["right"] <= b["left"] or b["right"] <= a["left"])


def test_derby_betting_board_fits_a_laptop(open_page: Any, server: str) -> None:
    tv, phone = room_with_aki(server, open_page, "derby", LAPTOP, {"races": 4})
    tv.locator(".controls button.primary").click()  # start, with the computers
    close = tv.get_by_role("button", name=re.compile("Close bids"))
    for _lot in range(6):  # every lot closed without bids: the house runs them
        if tv.locator("body[data-phase=betting]").count():
            break
        close.click()
        tv.wait_for_timeout(200)
    tv.locator(".dd-quinella li").nth(14).wait_for()
    grid, ticker = box(tv, ".dd-quinella"), box(tv, ".dd-ticker")
    controls = box(tv, ".dd-bottom")
    assert grid["bottom"] <= ticker["top"] + 1, (grid, ticker)
    assert controls["bottom"] <= LAPTOP["height"], controls
    odds = tv.locator(".dd-qgrid li").evaluate_all(
        "(items) => items.map((li) => li.scrollWidth - li.clientWidth)")
    assert max(odds) <= 0, odds  # no odds cut at the cell's edge
    assert tv.js_errors == [] and phone.js_errors == []


def test_keirin_host_screen_on_a_phone_is_one_column(open_page: Any, server: str) -> None:
    host, phone = room_with_aki(server, open_page, "keirin", PHONE, {"races": 2})
    head, code, qr = box(host, ".kr-head"), box(host, ".kr-lobby .big-code"), \
        box(host, ".kr-lobby .qr")
    assert apart(head, code) and apart(code, qr), (head, code, qr)
    assert qr["left"] >= 0 and qr["right"] <= PHONE["width"], qr
    host.locator(".kr-head button.primary").click()  # open the betting
    host.locator("body[data-phase=betting]").wait_for(state="attached")
    host.locator(".kr-side table").first.wait_for()
    main, side = box(host, ".kr-main"), box(host, ".kr-side")
    assert side["top"] >= main["bottom"] - 1, (main, side)  # the odds below, not over it
    assert side["right"] <= PHONE["width"], side
    assert host.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert host.js_errors == [] and phone.js_errors == []


def test_keirin_tv_scales_to_a_laptop_and_shows_every_line(open_page: Any, server: str) -> None:
    tv, phone = room_with_aki(server, open_page, "keirin", LAPTOP, {"races": 2})
    tv.locator(".kr-head button.primary").click()  # open the betting
    phone.locator("#kr-stake").fill("10")
    phone.locator("form.ticket-form button[type=submit]").click()
    tv.locator(".kr-news li", has_text="ticket").first.wait_for()
    # the news lines and the side's tables end inside the window, nothing cut at its edge
    bottoms = tv.evaluate("""() => [...document.querySelectorAll(
        '.kr-news li, .kr-status, .kr-side tr')].map((e) => e.getBoundingClientRect().bottom)""")
    assert len(bottoms) >= 10 and max(bottoms) <= LAPTOP["height"], bottoms
    size = tv.evaluate("parseFloat(getComputedStyle(document.querySelector('.kr-tv')).fontSize)")
    assert 16 <= size < 24, size  # the TV's 28 px, scaled with the window
    assert tv.js_errors == [] and phone.js_errors == []


def test_a_turn_based_players_board_uses_a_laptops_width(open_page: Any, server: str) -> None:
    host, player = room_with_aki(server, open_page, "hairpin", PHONE, {
        "variant": "short", "red": "human", "black": "easy"}, aki_viewport=LAPTOP)
    host.click("#start")
    player.locator(".hp-board").wait_for()
    board = box(player, ".hp-board")
    assert board["right"] - board["left"] >= 600, board  # a 36rem column left it 340 px
    assert board["right"] <= LAPTOP["width"]
    assert player.js_errors == [] and host.js_errors == []


def test_the_replay_lists_notes_grow_with_it_on_a_tv(open_page: Any, server: str) -> None:
    page = open_page({"width": 1920, "height": 1080}, f"{server}replay")
    page.locator(".replay-main .note").first.wait_for()
    sizes = page.locator(".replay-main .note").evaluate_all(
        "(notes) => notes.map((n) => parseFloat(getComputedStyle(n).fontSize))")
    assert min(sizes) >= 22, sizes  # 0.9rem (14 px) beside 28 px headings before
    assert page.js_errors == []


def test_a_pistard_players_choices_fit_under_the_track_on_a_laptop(open_page: Any,
                                                                    server: str) -> None:
    host, player = room_with_aki(server, open_page, "pistard", PHONE, {
        "variant": "scratch", "players": ["human", "easy"], "riders_per_player": 1,
        "track": "short"}, aki_viewport=LAPTOP)
    host.click("#start")
    player.locator(".pi-place-grid button").last.wait_for()
    last = player.locator(".pi-place-grid button").last.bounding_box()
    assert last["y"] + last["height"] <= LAPTOP["height"], last  # no scrolling to choose
    assert player.js_errors == [] and host.js_errors == []



@pytest.mark.parametrize("game", ["hairpin", "pistard"])
def test_a_turn_based_host_lobby_scales_to_a_laptop(open_page: Any, server: str,
                                                    game: str) -> None:
    options = {"hairpin": {"variant": "short", "red": "human", "black": "medium"},
               "pistard": {"variant": "scratch", "players": ["human", "medium"]}}[game]
    room = httpx.post(f"{server}api/rooms", json={"game": game, "options": options},
                      timeout=10).json()
    storage = {f"raceday.host.{room['code']}": room["host_token"]}
    sizes = {}
    for viewport in (LAPTOP, {"width": 1920, "height": 1080}):
        host = open_page(viewport, f"{server}host/{room['code']}", storage)
        start = host.locator("#start")
        start.wait_for()
        wait_for_style_sheets(host)  # measured in the game's own styles, not before them
        # and once the button is drawn with its words (a busy machine can ask in between)
        host.wait_for_function("(b) => b.isConnected && b.textContent.trim() !== '' && "
                               "b.getClientRects().length > 0", arg=start.element_handle())
        sizes[viewport["width"]] = host.evaluate(
            "parseFloat(getComputedStyle(document.body).fontSize)")
        lines = start.evaluate("""(b) => { const range = document.createRange();
            range.selectNodeContents(b); return new Set([...range.getClientRects()]
              .map((r) => Math.round(r.top))).size; }""")
        assert lines == 1, (viewport, lines)  # "Start the game" on one line
        heading = host.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.bar h1')).fontSize)")
        assert heading == sizes[viewport["width"]], heading  # the room's name as big
        assert host.js_errors == []
    assert sizes[1920] == 28 and sizes[1440] < 24, sizes  # the TV keeps its 28 px


def test_a_wielersim_host_lobby_lists_its_phones_on_a_laptop(open_page: Any,
                                                             server: str) -> None:
    host, aki = room_with_aki(server, open_page, "wielersim", LAPTOP,
                              {"route": "flanders", "peloton": "small", "seed": 3})
    chie = open_page(PHONE, host.url.replace("/host/", "/play/"))
    chie.fill("#name", "Chie")
    chie.keyboard.press("Enter")
    seats = host.locator(".wv-seat-list li")
    seats.nth(1).wait_for()
    for k in range(2):  # each phone's Remove button on the first screen
        remove = box(host, f".wv-seat-list li:nth-child({k + 1}) button")
        assert remove["bottom"] <= LAPTOP["height"], remove
    # each seat's number beside its name, not across the column from it
    gaps = seats.evaluate_all("""(items) => items.map((li) => {
        const range = document.createRange();
        range.selectNodeContents(li.firstChild);
        return range.getBoundingClientRect().left - li.getBoundingClientRect().left; })""")
    size = seats.first.evaluate("(li) => parseFloat(getComputedStyle(li).fontSize)")
    assert max(gaps) < size, (gaps, size)
    assert host.js_errors == [] and aki.js_errors == [] and chie.js_errors == []
