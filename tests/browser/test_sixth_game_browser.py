"""The sixth game (Twin Dice Dash, its own installed distribution) in real browsers: the
server finds its room, its JS module and its words through discovery; a big screen and two
phones play a whole race with sealed bets in any order, the host rolls, no sealed bet ever
reaches another screen before the roll, and the finished room replays."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.sixth_game_install import play_a_room

PHONE = {"width": 360, "height": 740}
TV = {"width": 1280, "height": 800}
BLUE_STAKE = re.compile(r'"stake"\s*:\s*2\b')



@pytest.fixture
def server(site: Path, tmp_path: Path) -> Iterator[str]:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    app = create_app(tmp_path / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def join(page: Any, name: str) -> None:
    page.fill("#name", name)
    page.click("button[type=submit]")
    page.wait_for_selector(".td-screen")


def seal(page: Any, wording: str) -> None:
    """Press the choice button whose words are ``wording`` (as the page renders them)."""
    page.locator("button.td-choice", has_text=wording).first.click()
    page.wait_for_selector(".td-my-bet")


def roll(tv: Any) -> None:
    """The host rolls; wait until the screen has left the roll (the next round's bets or
    the end). Waits are selectors: the pages' content policy refuses script predicates."""
    tv.wait_for_selector('.td-screen[data-phase="roll"]')
    tv.click("#td-roll")
    tv.wait_for_selector('.td-screen:not([data-phase="roll"])')


def test_a_whole_race_of_three_players_with_sealed_bets(open_page: Any, server: str) -> None:
    """Three phones, the big screen and a spectator: three lanes, each runner's odds, and
    a sealed stake sent to no screen but its own phone until the roll."""
    created = httpx.post(f"{server}api/rooms", json={"game": "twindash", "options": {
        "rounds": 2, "length": 30}}, timeout=10)
    assert created.status_code == 201, created.text
    room = created.json()
    code = room["code"]
    tv = open_page(TV, f"{server}host/{code}",
                   {f"raceday.host.{code}": room["host_token"]})
    red = open_page(PHONE, f"{server}play/{code}")
    blue = open_page(PHONE, f"{server}play/{code}")
    green = open_page(PHONE, f"{server}play/{code}")
    audience = open_page(TV, f"{server}watch/{code}")
    join(red, "Aki")
    join(blue, "Ben")
    join(green, "Chi")
    tv.wait_for_selector("#td-start:not([disabled])")
    tv.click("#td-start")
    red.wait_for_selector("button.td-choice")
    assert red.inner_text(".td-you") == "You run Red."
    assert blue.inner_text(".td-you") == "You run Blue."
    assert green.inner_text(".td-you") == "You run Green."
    tv.wait_for_selector('.td-lane[data-runner="2"]')
    assert tv.locator(".td-lane").count() == 3 and tv.locator(".td-chances li").count() == 4

    # Round 1: Red and Green pass first, then Blue backs itself for 2; until the roll no
    # other phone, the big screen nor a spectator is sent Blue's stake, and only Blue's
    # page shows it.
    seal(red, "pass (no bet)")
    seal(green, "pass (no bet)")
    others = (red, green, tv, audience)
    seen = [len(page.frames_received) for page in others]
    seal(blue, "back Blue for 2 chips")
    for page in others:
        page.wait_for_selector('.td-purse[data-runner="1"][data-sealed="true"]')
    assert blue.inner_text(".td-my-bet") == "Your bet is sealed: back Blue for 2 chips."
    assert red.inner_text(".td-my-bet") == "Your bet is sealed: pass (no bet)."
    assert tv.locator(".td-my-bet").count() == 0 == audience.locator(".td-my-bet").count()
    assert audience.locator("#td-roll").count() == 0
    sent = [page.frames_received[n:] for page, n in zip(others, seen, strict=True)]
    assert all(sent)  # each screen was told that Blue has sealed
    assert [f for frames in sent for f in frames if BLUE_STAKE.search(f)] == []
    roll(tv)
    assert "Blue backed Blue for 2" in tv.inner_text(".td-recent")
    assert tv.inner_text(".td-round") == "Round 2 of 2"
    blue.click("button.lang")  # the phone in Japanese: the same view, the game's words
    blue.wait_for_selector(".td-you:text-is('あなたは青です。')")
    assert blue.inner_text(".td-round") == "第2ラウンド（全2）"

    # Round 2, in the other order: Blue first, then Green and Red; the host rolls the last.
    blue.wait_for_selector("button.td-choice")
    seal(blue, "見送り（賭けない）")
    seal(green, "back Green for 1 chip")
    seal(red, "back Red for 1 chip")
    roll(tv)
    for page in (tv, red, green, audience):
        page.wait_for_selector(".td-result")
        assert re.search(r"wins|draw", page.inner_text(".td-result"), re.IGNORECASE)
    blue.wait_for_selector(".td-result")
    assert re.search(r"勝ち|引き分け", blue.inner_text(".td-result"))
    assert all(page.js_errors == [] for page in (tv, red, blue, green, audience))

    # The finished room replays: its steps are the events as the game's messages.
    data = httpx.get(f"{server}api/replay/room/{code}", timeout=10).json()
    keys = [e["key"] for step in data["steps"] for e in step["events"]]
    assert data["game"] == "twindash"
    assert keys.count("event.sealed") == 6 and keys.count("event.revealed") == 2
    assert "event.finished" in keys
    tv.goto(f"{server}replay/room/{code}")
    tv.wait_for_selector("h2:has-text('Twin Dice Dash')")
    tv.click("button[data-act=end]")
    tv.wait_for_selector(".step li:has-text('The race is over.')")
    assert tv.js_errors == []


def test_the_landing_page_offers_the_game_and_opens_its_room(open_page: Any,
                                                             server: str) -> None:
    """The landing page draws the game's card from its own setup.js and its options
    model's schema; the room it opens has the options chosen there."""
    page = open_page(TV, server)
    page.wait_for_selector("#twindash-create")
    page.fill("#twindash-rounds", "3")
    page.select_option("#twindash-max_stake", "2")
    assert page.input_value("#twindash-length") == "20"  # the model's default
    page.click("button.lang")  # the card in Japanese keeps what was chosen
    page.wait_for_selector("#twindash-setup h2:text-is('ツインダイス・ダッシュ')")
    assert page.input_value("#twindash-rounds") == "3"
    assert page.input_value("#twindash-max_stake") == "2"
    page.click("#twindash-create button[type=submit]")
    page.wait_for_url(re.compile(r".*/host/[A-Z0-9]+$"))
    page.wait_for_selector(".td-course")
    assert page.inner_text(".td-course") == ("ゴールまで20マス、最大3ラウンド、チップ各5枚、"
                                             "賭けは2まで、賞金3。")
    code = page.url.rsplit("/", 1)[1]
    assert httpx.get(f"{server}api/rooms/{code}", timeout=10).json()["game"] == "twindash"
    assert page.js_errors == []


def test_the_print_page_prints_it(server: str) -> None:
    """The server's print pages find the game's printing face too (PDF and inline SVG)."""
    pdf = httpx.get(f"{server}print/twindash.pdf", params={"rounds": "4"}, timeout=60)
    assert pdf.status_code == 200, pdf.text[:300]
    assert pdf.content.startswith(b"%PDF")
    pages = httpx.get(f"{server}print/twindash", params={"part": "track", "length": "30"},
                      timeout=60)
    assert pages.status_code == 200 and "Track of 30 squares" in pages.text
    assert "Round sheet" not in pages.text  # the one part asked for
    refused = httpx.get(f"{server}print/twindash.pdf", params={"length": "3"}, timeout=60)
    assert refused.status_code == 400 and "length" in refused.text


def test_the_room_refuses_bad_options_and_a_fifth_player(server: str) -> None:
    bad = httpx.post(f"{server}api/rooms", json={"game": "twindash", "options": {
        "length": 2}}, timeout=10)
    assert bad.status_code == 400 and "length" in bad.json()["error"]
    seats_say = httpx.post(f"{server}api/rooms", json={"game": "twindash", "options": {
        "players": 3}}, timeout=10)  # the seats taken say how many play, not the host
    assert seats_say.status_code == 400 and "players" in seats_say.json()["error"]
    room = httpx.post(f"{server}api/rooms", json={"game": "twindash", "options": {}},
                      timeout=10).json()
    for name in ("Aki", "Ben", "Cy", "Dai"):
        assert httpx.post(f"{server}api/rooms/{room['code']}/join", json={"name": name},
                          timeout=10).status_code == 201
    fifth = httpx.post(f"{server}api/rooms/{room['code']}/join", json={"name": "Eve"},
                       timeout=10)
    assert fifth.status_code == 409 and "full" in fifth.json()["error"]


def test_a_finished_rooms_replay_draws_the_games_own_board(open_page: Any, server: str,
                                                            tmp_path: Path) -> None:
    """The replay page imports the drawer module the server names (the game's
    static/frame.js) and draws each step's board with it: the room's track, the runners
    on their squares (a room of three seats: three lanes)."""
    code = play_a_room(tmp_path / "party.sqlite",  # the server's own database
                       names=("Aki", "Ben", "Chi"))
    data = httpx.get(f"{server}api/replay/room/{code}", timeout=30).json()
    last = data["steps"][-1]["frame"]["runners"]
    page = open_page(TV, f"{server}replay/room/{code}")
    page.wait_for_selector(".replay-board .td-track")
    page.click("button[data-act=end]")
    for runner in last:
        lane, square = runner["id"], runner["square"]
        page.wait_for_selector(f'.replay-board .td-lane[data-runner="{lane}"]'
                               f'[data-square="{square}"]')
    assert page.locator(".replay-board .td-lane").count() == 3
    assert page.js_errors == []
