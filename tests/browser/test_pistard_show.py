"""PISTARD as a show, in Chromium: a phone racing a computer with the TV showing the race,
through every phase — the lobby, the phone placing its riders, the phone's dice, the
computer thinking (held by pausing the room's timeline), the result with the finale and
"play again" — each checked with axe and for fitting its screen (a phone: no sideways
scroll, the track first, zoomed on the choice, and the choices right under it; the TV: no
scrolling at 1920x1080, body text of 28 px or more); the riders' moves traced and
animated; labels on the zoomed track that never run together; focus on the next choice;
who won said from each screen's own seat; and a phone used as the host screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import assert_accessible
from turn_show import TV, fits_phone, fits_tv, host_page, new_room, pause, settled

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 360, "height": 740}
CHOICE = ".pi-choices button, .pi-place-grid button"
TV_TEXT = ".pi-standings td, .pi-recent li, .pi-head, .pi-turn, .pi-result td, .pi-result p"
BOARD = ".pi-track"  # the room's board on a screen


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(tmp_path / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def updates(page: Any) -> int:
    return int(page.get_attribute(".pi-stage", "data-updates") or 0)


def choose(page: Any) -> None:
    """The front of the start grid, or the choice that goes furthest; then wait until the
    server's answer has been drawn."""
    grid = page.locator(".pi-place-grid button")
    moves = page.locator(".pi-choices button:not(.pi-stay)")
    if grid.count():
        target = grid.first
    elif moves.count():
        target = moves.last
    else:
        target = page.locator(".pi-choices button").first
    drawn = updates(page)
    target.click()
    page.wait_for_function(
        f"() => Number(document.querySelector('.pi-stage').dataset.updates || 0) > {drawn}")


def focused(page: Any) -> str:
    return str(page.evaluate("""() => { const a = document.activeElement;
        return a === document.body ? 'body' : (a.closest('.pi-choices, .pi-place-grid')
          ? 'choice' : a.tagName); }"""))


def labels_apart(page: Any) -> None:
    """The choices' labels on the zoomed track do not touch one another."""
    boxes = [b for b in (r.bounding_box() for r in page.locator(".pi-target-label rect").all())
             if b]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (a, b)


def first_screen(page: Any, selector: str) -> None:
    """The track comes before ``selector`` (the choices), and the first of them is on the
    phone's first screen, no scrolling needed."""
    track = page.locator(".pi-track").bounding_box()
    first = page.locator(selector).first.bounding_box()
    assert track["y"] + track["height"] <= first["y"], (track, first)
    assert first["y"] + first["height"] <= PHONE["height"], first


def test_every_phase_fits_is_accessible_and_animated(open_page: Any, server: str) -> None:
    room = new_room(server, "pistard", variant="scratch", players=["human", "medium"],
                    riders_per_player=2, track="short")
    code, token = room["code"], room["host_token"]
    tv = host_page(open_page, TV, server, room, motion=True)
    phone = open_page(PHONE, f"{server}play/{code}", motion=True)
    phone.fill("#name", "Aki")
    phone.keyboard.press("Enter")
    tv.get_by_text("P1 Aki").wait_for()
    phone.get_by_text("Waiting for the host").wait_for()
    assert_accessible(tv, "pistard TV lobby")
    assert_accessible(phone, "pistard phone lobby")
    fits_phone(phone)
    fits_tv(tv, ".gp-places li, .join-box p")
    tv.click("#start")
    # the phone places its rider: the track (zoomed) first, a compact grid under it
    phone.locator(".pi-place-grid button").first.wait_for()
    assert phone.locator(".pi-track.is-zoomed").count() == 1
    assert phone.locator(".pi-place-grid button").count() <= 24
    first_screen(phone, ".pi-place-grid button")
    assert focused(phone) == "choice"
    assert_accessible(phone, "pistard phone placing")
    assert_accessible(tv, "pistard TV, placing")
    fits_phone(phone)
    fits_tv(tv, TV_TEXT)
    for _ in range(20):
        phone.wait_for_selector(CHOICE)
        if phone.locator(".pi-dice").count():
            break
        choose(phone)
    # the phone's dice: zoomed track, labels apart, choices under it, focus on the first
    phone.locator(".pi-dice").wait_for()
    assert phone.locator(".pi-track.is-zoomed .pi-square.is-target").count() >= 1
    labels_apart(phone)
    first_screen(phone, ".pi-choices button")
    assert focused(phone) == "choice"
    assert_accessible(phone, "pistard phone, your dice")
    assert_accessible(tv, "pistard TV, the phone's dice")
    fits_phone(phone)
    fits_tv(tv, TV_TEXT)
    # the computer thinking, held there by pausing the timeline; the move is traced
    pause(tv, server, code, token, "pause", BOARD)
    for _ in range(20):  # the phone moves until the computer's turn comes (held there)
        rider = phone.inner_text(".pi-controls h2").split(" ")[1].rstrip(":")
        drawn = updates(phone)
        phone.keyboard.press("Enter")  # the focused choice: playable from the keys
        phone.wait_for_function(
            f"() => Number(document.querySelector('.pi-stage').dataset.updates || 0) > {drawn}")
        phone.wait_for_selector(".pi-turn.thinking, .pi-controls .pi-dice")
        if phone.locator(".pi-turn.thinking").count():
            break
        assert focused(phone) == "choice"
    for page in (phone, tv):
        page.locator(".pi-turn.thinking").wait_for()
        page.locator(f".pi-trail[data-rider='{rider}']").wait_for()
    assert int(phone.get_attribute(".pi-stage", "data-animated") or 0) >= 1
    assert_accessible(phone, "pistard phone, computer thinking")
    assert_accessible(tv, "pistard TV, computer thinking")
    fits_phone(phone)
    fits_tv(tv, TV_TEXT)
    pause(tv, server, code, token, "resume", BOARD)
    for _ in range(400):
        phone.wait_for_selector(CHOICE + ", .pi-result")
        if phone.locator(".pi-result").count():
            break
        choose(phone)
    tv.locator(".pi-result").wait_for()
    # the end: who won from each seat, the finale, everything on the screen
    winner = tv.inner_text(".pi-result-head").split(" ")[1]
    mine = phone.inner_text(".pi-result tr.mine >> nth=0").split()
    said = phone.inner_text(".pi-result-head")
    if winner.startswith("1"):  # the phone's rider (11 or 12) won
        assert said == f"You won! Rider {winner} wins", said
    else:
        assert said.startswith(f"You lost — rider {winner} won ("), said
    assert mine and "this screen" not in phone.inner_text(".pi-result")
    # the winner is said once (a scratch race has no more to say under it), capitalised
    for page in (phone, tv):
        result = page.inner_text(".pi-result")
        assert result.count(f"ider {winner} w") == 1, result
        assert not page.locator(".pi-result p").count()
    for page in (phone, tv):
        page.locator(".finale .podium").wait_for()
        assert f"rider {winner}" in page.inner_text(".finale .step-1")
        # each player named as the result table names him: "P2 computer (medium)" (P2's
        # two riders cannot both miss three places when P1 has two)
        podium = page.inner_text(".finale .podium")
        assert "Computer (" not in podium and "P2 computer (medium)" in podium, podium
    settled(phone)
    assert_accessible(phone, "pistard phone, result")
    settled(tv)
    assert_accessible(tv, "pistard TV, result")
    fits_phone(phone)
    fits_tv(tv, TV_TEXT)
    # play again with the same seats: the phone places a rider again without rejoining
    tv.click(".finale button.again")
    phone.locator(".pi-place-grid button").first.wait_for()
    assert not phone.locator(".pi-result").count()
    assert not phone.locator(".pi-trail").count()
    for page in (phone, tv):
        assert page.js_errors == []


def test_a_phone_used_as_the_host_gets_squares_a_thumb_can_hit(open_page: Any,
                                                                server: str) -> None:
    room = new_room(server, "pistard", variant="scratch", players=["human", "easy"],
                    riders_per_player=1)
    page = host_page(open_page, PHONE, server, room)
    page.click("#start")
    page.locator(".pi-place-grid button").first.wait_for()
    for _ in range(10):
        if page.locator(".pi-dice").count():
            break
        choose(page)
        page.wait_for_selector(CHOICE)
    for phase in ("placing", "dice"):
        targets = [b for b in (g.bounding_box() for g in
                               page.locator(".pi-square.is-target polygon").all()) if b]
        assert targets and min(max(b["width"], b["height"]) for b in targets) >= 36, targets
        assert page.locator(".pi-track.is-zoomed").count() == 1
        fits_phone(page)
        labels_apart(page)
        assert_accessible(page, f"pistard phone as the host, {phase}")
        if phase == "placing":
            page.locator(".pi-dice").wait_for()
    assert page.js_errors == []


@pytest.mark.parametrize("options", [
    {"variant": "scratch", "players": ["human", "easy", "easy", "easy"], "riders_per_player": 3},
    {"variant": "points", "players": ["human", "easy", "easy", "easy", "easy"],
     "riders_per_player": 2, "laps": 3},
], ids=["12-riders", "points-5-players"])
def test_a_crowded_race_played_on_the_tv_fits_it(open_page: Any, server: str,
                                                 options: dict[str, Any]) -> None:
    room = new_room(server, "pistard", **options)
    tv = host_page(open_page, TV, server, room)
    tv.click("#start")
    for phase in ("placing", "dice"):
        tv.locator(CHOICE).first.wait_for()
        fits_tv(tv, TV_TEXT)
        assert_accessible(tv, f"pistard TV playing a crowded race, {phase}")
        while phase == "placing" and not tv.locator(".pi-dice").count():
            choose(tv)
            tv.wait_for_selector(CHOICE)
    assert tv.locator(".pi-standings tbody tr").count() == 12 if "laps" not in options else 10
    assert tv.js_errors == []
