"""The last lesson step of each game in a real browser (#48): Derby's makes a room from the
lesson's options (hints on) and opens its host page with the start form set to one computer
(the cautious one), and the learner's phone shows the hint at each bid and round of tickets;
Hairpin's opens a room against the easiest computer that shows the hint; KEIRIN's starts
with one computer bettor and a hint that fills the phone's slip; WielerSIM's opens the watch
page of the lesson's own route. One server for the module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.shots import keep_shot

from raceday.core.lesson import load_lesson

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    app = create_app(tmp_path_factory.mktemp("learnplay") / "party.sqlite", burst=1000,
                     rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def at_last_step(open_page: Any, server: str, game: str,
                 viewport: dict[str, int] = PHONE) -> Any:
    """``game``'s lesson page opened at its last step (its first game) on ``viewport``."""
    last = len(load_lesson(game).steps)
    page = open_page(viewport, f"{server}learn/{game}",
                     storage={f"raceday.learn.{game}": str(last)})
    page.wait_for_selector(".learn-card.is-play")
    return page


def test_derby_first_evening_opens_a_room_with_hints_on_the_learners_phone(
        open_page: Any, server: str) -> None:
    page = at_last_step(open_page, server, "derby")
    assert "cautious" in page.locator("#learn-room-note").inner_text()
    # the lesson's room turns hints on, and the page says what Derby's hints are
    assert "your phone shows a “Hint” panel" in page.locator("#learn-hints-on").inner_text()
    page.click("#learn-play")
    page.wait_for_url("**/host/*?computers=1")
    computers = page.locator("#computers")
    computers.wait_for()
    assert computers.input_value() == "1"
    code = page.url.split("/host/")[1].split("?")[0]
    info = page.request.get(f"{server}api/rooms/{code}").json()
    assert info["game"] == "derby"
    phone = open_page(PHONE, f"{server}play/{code}")
    phone.locator("#name").fill("Aki")
    phone.keyboard.press("Enter")
    phone.get_by_text("You are Aki").wait_for()
    page.get_by_text("Players (1 of 12)").wait_for()
    page.get_by_role("button", name="Start the evening").click()
    # the learner's phone, at its first sealed bid: what the lot's horse is worth
    panel = phone.locator("#hint-panel")
    panel.wait_for()
    text = panel.inner_text()
    assert text.startswith("Hint:") and "comes 1st in" in text and "A bid below that" in text
    assert phone.locator("#hint-panel button").count() == 0  # advice, no move to play
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_shot(phone, "learn/derby-hint-bid-phone.png")
    # bids of nothing until betting opens: then the best-value ticket
    while phone.locator("#stake").count() == 0:
        lot = phone.locator("form.dd-form h2").inner_text()
        phone.locator("#bid").fill("0")
        phone.get_by_role("button", name="Seal bid").click()
        phone.wait_for_function(
            "(lot) => !document.querySelector('#bid')"
            " || document.querySelector('form.dd-form h2')?.textContent !== lot", arg=lot)
    phone.locator("#hint-panel").wait_for()
    assert "The best value on this board is win d" in phone.locator("#hint-panel").inner_text() \
        or "The best value on this board is quinella d" in phone.locator(
            "#hint-panel").inner_text()
    keep_shot(phone, "learn/derby-hint-ticket-phone.png")
    # in Japanese, from the phone's own words
    phone.get_by_role("button", name="Switch to Japanese").click()
    phone.wait_for_function("() => document.querySelector('#hint-panel')?.textContent"
                            ".includes('いちばん割のよい馬券')")
    # only the seat's phone was ever sent a hint: never the big screen
    assert page.locator("#hint-panel").count() == 0
    assert not any("first_game.hint" in f for f in page.frames_received)
    assert any("first_game.hint_bid" in f for f in phone.frames_received)
    assert page.js_errors == [] and phone.js_errors == []


def test_wielersim_first_race_rides_the_lessons_own_route(open_page: Any,
                                                          server: str) -> None:
    route = load_lesson("wielersim").steps[-1].play.options["route"]  # type: ignore[union-attr]
    sections = [s["name"] for s in route["sections"]]
    page = at_last_step(open_page, server, "wielersim")
    link = page.locator("#learn-watch")
    assert link.get_attribute("href") == "/wielersim?lesson=wielersim"
    assert "the lesson's own short route" in page.locator(".learn-card").inner_text()
    assert page.locator("#learn-play").count() == 0
    link.click()
    # the watch page shows the lesson's race, read by the server from the lesson
    page.wait_for_selector("#wv-lesson")
    assert page.locator("#wv-lesson-name").inner_text() == f"Your first race: {route['name']}"
    shown = page.locator(".wv-lesson-sections li")
    assert [shown.nth(i).get_attribute("data-section") for i in range(shown.count())] == sections
    assert "8 squares, cobbles" in page.locator(".wv-lesson-sections").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_shot(page, "learn/wielersim-lesson-phone.png")
    # in Japanese, from the page's language button (the route's own names stay as written)
    page.get_by_role("button", name="Switch to Japanese").click()
    page.wait_for_function("(name) => document.querySelector('#wv-lesson-name')?.textContent"
                           " === `最初のレース：${name}`", arg=route["name"])
    assert "8 マス、石畳" in page.locator(".wv-lesson-sections").inner_text()
    page.click("#wv-lesson-watch")
    page.wait_for_url("**/host/*")
    # the watch room's big screen: the lesson's route, started, with the commentary
    heading = page.locator(".wv-heading")
    heading.wait_for()
    page.wait_for_function("(name) => document.querySelector('.wv-heading')?.textContent === name",
                           arg=route["name"])
    page.click("#wv-start")
    page.locator(".wv-ticker li").first.wait_for()  # the commentary, turn by turn
    page.locator("#wv-skip").click()
    page.locator("#wv-lesson-back").wait_for()
    assert page.locator("#wv-lesson-back").get_attribute("href") == "/learn/wielersim"
    sent = [f for f in page.frames_received if '"film"' in f and '"sections"' in f]
    assert sent and all(f'"name": "{name}"' in sent[-1] or f'"name":"{name}"' in sent[-1]
                        for name in sections)
    assert page.js_errors == []


def test_hairpins_first_game_step_opens_a_room_that_shows_a_hint(open_page: Any,
                                                                  server: str) -> None:
    """Hairpin's last step says hints are on and opens a room against the easiest computer;
    once started, the host screen (playing Red) shows the hint panel — "Hint:" and the move
    in words, a button that plays it — and marks the hinted move's button in words and its
    squares on the board."""
    page = at_last_step(open_page, server, "hairpin")
    page.wait_for_selector("#learn-hints-on")
    assert "Hints are on" in page.locator("#learn-hints-on").inner_text()
    page.click("#learn-play")
    page.wait_for_url("**/host/*")
    page.click("#start")
    panel = page.locator("#hint-panel")
    panel.wait_for()
    text = panel.inner_text()
    assert "Hint:" in text  # in words, not a colour alone
    button = panel.locator("button.hint-play")
    assert button.inner_text() == "Play the hint"
    # the hinted move's own button says so, and the board outlines its squares
    marked = page.locator("button.hp-move.is-hint-move")
    assert marked.count() == 1
    assert "hint" in marked.inner_text()
    assert marked.get_attribute("data-action") == button.get_attribute("data-action")
    assert page.locator(".hp-square.is-hint").count() == 2  # where it starts and ends
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_shot(page, "learn/hairpin-hint-phone.png")
    # reachable by keyboard: a button, focused and pressed with Enter, plays the hint
    ply = int(page.get_attribute(".hp-board", "data-ply"))
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(ply) => Number(document.querySelector('.hp-board')?.dataset.ply) > ply", arg=ply)
    assert page.js_errors == []


def test_keirins_first_night_has_a_cautious_computer_and_a_hint_on_the_phone(
        open_page: Any, server: str) -> None:
    """KEIRIN's last step says hints are on and opens a room whose host page starts with one
    computer bettor (the cautious one); a phone that joins is shown a "Hint" panel (the
    favourite, its fair odds against the board's) that fills its slip, the computer buys its
    own ticket and is done, and the TV marks it "(computer: cautious)"."""
    learn = at_last_step(open_page, server, "keirin", TV)
    learn.wait_for_selector("#learn-hints-on")
    assert "cautious" in learn.locator("#learn-room-note").inner_text()
    learn.click("#learn-play")
    learn.wait_for_url("**/host/*?computers=1")
    host = learn
    assert host.locator("#kr-computers").input_value() == "1"
    code = host.url.split("/host/")[1].split("?")[0]
    phone = open_page(PHONE, f"{server}play/{code}")
    phone.locator("#name").fill("Aki")
    phone.get_by_role("button", name="Join").click()
    phone.get_by_text("You are Aki").wait_for()
    host.get_by_text("Aki").first.wait_for()
    host.get_by_role("button", name="Start").click()
    # the computer bought its ticket and is done at once; the TV says whose chip it is
    chip = host.locator(".chips li", has_text="CPU 1")
    chip.wait_for()
    assert "(computer: cautious)" in chip.inner_text() and "✓" in chip.inner_text()
    assert "(computer: cautious)" in host.locator(".kr-standings").inner_text()
    keep_shot(host, "learn/keirin-first-night-tv.png")
    panel = phone.locator("#kr-hint")
    panel.wait_for()
    text = panel.inner_text()
    assert text.startswith("Hint") and "The favourite is Win" in text and "fair odds" in text
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_shot(phone, "learn/keirin-first-night-phone.png")
    # the hint fills the slip (the learner's stake stays theirs), then the ticket is bought
    favourite = text.split("The favourite is Win ")[1].split(":")[0]
    phone.locator("#kr-kind").select_option("exacta")
    phone.locator("#kr-hint-use").click()
    assert phone.locator("#kr-kind").input_value() == "win"
    assert phone.locator("#kr-rider-0").input_value() == favourite
    phone.get_by_role("button", name="Buy ticket").click()
    phone.locator(".kr-tickets li").first.wait_for()
    phone.get_by_role("button", name="Done betting").click()
    phone.locator("#kr-hint").wait_for(state="detached")  # done: nothing more to buy
    host.locator("body[data-phase=racing]").wait_for(state="attached")
    assert learn.js_errors == [] and phone.js_errors == []
