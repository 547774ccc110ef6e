"""Hairpin as a show, in Chromium: a phone (Red) against the computer with the TV showing
the room, through every phase — the lobby, the phone's move, the computer thinking (held
by pausing the room's timeline), the end with the finale and "play again" — each checked
with axe, for fitting its screen (a phone: no sideways scroll, the board first and the
moves right under it; the TV: no scrolling at 1920x1080, body text of 28 px or more), for
the moves traced and animated, focus on the next useful control, and who won said from
each screen's own seat. Then the smaller promises: reduced motion, the "several moves end
there" note, undo keeping the list, a language switch, a phone used as the host."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import assert_accessible, turn_to
from turn_show import TV, fits_phone, fits_tv, host_page, new_room, pause, settled

from raceday.web.app import create_app
from raceday.web.server import background_server

# Red to move, one lap from winning the short game: the end comes in a few moves
LATE = "..bbbb/r...b./r..rrr r 2-0 0-0 0-0 0 40"
TV_TEXT = ".hp-counter, .hp-recent li, .hp-turn, .hp-why, .hp-finish-note, .hp-moves button"
BOARD = ".hp-board"  # the room's board on a screen


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(tmp_path / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def ply(page: Any) -> int:
    return int(page.get_attribute(".hp-board", "data-ply"))


def wait_ply(page: Any, n: int) -> None:
    page.wait_for_function(
        f"() => Number(document.querySelector('.hp-board')?.dataset.ply) >= {n}")


def focused(page: Any) -> str:
    return str(page.evaluate("""() => { const a = document.activeElement;
        return a === document.body ? 'body'
          : a.tagName + '.' + (a.getAttribute('class') || ''); }"""))


PHONE_WIDTHS = (360, 430)  # the narrowest phone in use and a large one
PHONE_HEIGHT = 740


def at_each_phone_width(phone: Any, where: str, check: Any = None) -> None:
    """The phone's checks of one phase at each of :data:`PHONE_WIDTHS` (the same phone
    turned wider, then back: one game checks both widths): axe, no sideways scroll, and
    ``check(width)`` if given."""
    for width in (*PHONE_WIDTHS[1:], PHONE_WIDTHS[0]):
        turn_to(phone, {"width": width, "height": PHONE_HEIGHT})
        assert_accessible(phone, f"hairpin {where}, {width} px")
        fits_phone(phone)
        if check is not None:
            check(width)


def test_every_phase_fits_is_accessible_and_animated(open_page: Any, server: str) -> None:
    room = new_room(server, "hairpin", variant="short", red="human", black="medium", position=LATE)
    code, token = room["code"], room["host_token"]
    tv = host_page(open_page, TV, server, room, motion=True)
    phone = open_page({"width": PHONE_WIDTHS[0], "height": PHONE_HEIGHT}, f"{server}play/{code}",
                      motion=True)
    phone.fill("#name", "Aki")
    phone.keyboard.press("Enter")
    tv.get_by_text("Red — Aki").wait_for()
    phone.get_by_text("Waiting for the host").wait_for()
    assert_accessible(tv, "hairpin TV lobby")
    at_each_phone_width(phone, "phone lobby")
    fits_tv(tv, ".gp-places li, .join-box p")
    tv.click("#start")
    phone.locator(".hp-turn.yours").wait_for()
    tv.get_by_text("Waiting for Red — Aki").wait_for()
    # the phone's move: the board first, the moves right under it, on the first screen

    def board_first(width: int) -> None:
        board = phone.locator(".hp-board").bounding_box()
        first = phone.locator("button.hp-move").first.bounding_box()
        assert board["y"] + board["height"] <= first["y"] < PHONE_HEIGHT - first["height"], \
            (width, board, first)
        square = phone.locator(".hp-square rect").first.bounding_box()
        assert square["width"] >= 40, (width, square)  # a square a thumb can hit

    at_each_phone_width(phone, "phone, your move", board_first)
    assert_accessible(tv, "hairpin TV, the phone's move")
    fits_tv(tv, TV_TEXT)
    # the computer thinking, held there by pausing the timeline
    pause(tv, server, code, token, "pause", BOARD)
    before = ply(phone)
    phone.locator("button.hp-move").last.focus()
    move = phone.get_attribute("button.hp-move >> nth=-1", "data-action")
    name = phone.inner_text(f"button.hp-move[data-action='{move}']").split(" · ")[0]
    origin, _kind, dest = name.split(" ")[:3]
    phone.keyboard.press("Enter")
    for page in (phone, tv):
        page.locator(".hp-turn.thinking").wait_for()
        wait_ply(page, before + 1)
    # the move is traced from where the racer was to where it went, and it slid there
    for page in (phone, tv):
        trail = page.locator(".hp-trail")
        assert trail.get_attribute("data-from") == origin
        assert trail.get_attribute("data-to") == dest
        assert int(page.get_attribute(".hp-stage", "data-animated") or 0) >= 1
    assert focused(phone) != "body"  # focus stayed on a control (undo, while it waits)
    at_each_phone_width(phone, "phone, computer thinking")
    assert_accessible(tv, "hairpin TV, computer thinking")
    fits_tv(tv, TV_TEXT)
    pause(tv, server, code, token, "resume", BOARD)
    wait_ply(phone, before + 2)
    phone.locator(".hp-turn.yours, .hp-result").first.wait_for()
    # the computer's answer came on its own, animated, and focus is on the next move
    assert phone.locator(".hp-trail").get_attribute("data-from") not in (None, origin)
    if phone.locator(".hp-turn.yours").count():
        assert focused(phone).startswith(("BUTTON.hp-move", "BUTTON.primary hp-pit"))
    for _ in range(60):
        if phone.locator(".hp-result").count():
            break
        phone.wait_for_selector(".hp-turn.yours, .hp-result")
        if phone.locator(".hp-result").count():
            break
        n = ply(phone)
        phone.keyboard.press("Enter")  # the focused move: the game is played from the keys
        phone.wait_for_function(
            f"() => Number(document.querySelector('.hp-board')?.dataset.ply) > {n}"
            " || document.querySelector('.hp-result')")
    tv.locator(".hp-result").wait_for()
    # the end: who won from each seat, the finale, everything on the screen
    won = phone.inner_text(".hp-result-head") == "You won! (Red — Aki)"
    winner, first = ("Red — Aki", "Aki") if won else ("Black — computer, medium", "Computer")
    if not won:
        assert phone.inner_text(".hp-result-head") == f"You lost — {winner} won"
    assert tv.inner_text(".hp-result-head") == f"{winner} wins!"  # the TV plays no place
    for page in (phone, tv):
        page.locator(".finale .podium").wait_for()
        assert first in page.inner_text(".finale .step-1")
    settled(phone)
    at_each_phone_width(phone, "phone, game over")
    settled(tv)
    assert_accessible(tv, "hairpin TV, game over")
    fits_tv(tv, TV_TEXT)
    # play again with the same seats: the phone keeps its place without joining again
    tv.click(".finale button.again")
    phone.locator(".hp-turn.yours").wait_for()
    assert ply(phone) == 0 or phone.locator("button.hp-move").count()
    assert not phone.locator(".hp-result").count()
    assert "Red — Aki" in phone.inner_text(".hp-turn")
    for page in (phone, tv):
        assert page.js_errors == []


def test_reduced_motion_keeps_the_trace_without_sliding(chromium: Any, server: str) -> None:
    room = new_room(server, "hairpin", variant="short", red="human", black="easy")
    code = room["code"]
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                   reduced_motion="reduce")
    context.add_init_script(f"localStorage.setItem('raceday.host.{code}', "
                            f"'{room['host_token']}')")
    page = context.new_page()
    page.goto(f"{server}host/{code}")
    page.click("#start")
    page.locator(".hp-turn.yours").wait_for()
    page.locator("button.hp-move").first.click()
    wait_ply(page, 2)
    assert page.locator(".hp-trail").count() == 1
    assert int(page.get_attribute(".hp-stage", "data-animated") or 0) == 0
    assert page.evaluate("document.getAnimations().filter("
                         "(a) => a.effect?.target?.closest?.('.hp-board')).length") == 0
    context.close()


def test_the_note_clears_undo_keeps_the_list_and_the_words_follow_the_language(
        open_page: Any, server: str) -> None:
    room = new_room(server, "hairpin", variant="short", red="human", black="easy")
    page = host_page(open_page, {"width": 390, "height": 844}, server, room)
    page.click("#start")
    page.locator(".hp-turn.yours").wait_for()
    # a1 cruise b1 and a1 charge b1 end on the same square: the note asks to choose below
    page.locator(".hp-square[data-square=a1]").click()
    page.locator(".hp-square[data-square=b1]").click()
    assert "Several moves end there" in page.inner_text(".hp-note")
    assert focused(page).startswith("BUTTON.hp-move")  # on the moves it asks to choose from
    page.locator(".hp-square[data-square=c1]").click()  # another racer: the note goes
    assert not page.locator(".hp-note").count()
    page.locator(".hp-square[data-square=a1]").click()
    page.locator(".hp-square[data-square=b1]").click()
    page.locator(".hp-note").wait_for()
    page.locator("button.hp-move").first.click()  # a move: the note goes too
    wait_ply(page, 2)
    page.locator(".hp-turn.yours").wait_for()
    assert not page.locator(".hp-note").count()
    page.locator("button.hp-move").first.click()
    wait_ply(page, 4)
    page.locator(".hp-turn.yours").wait_for()
    assert page.locator(".hp-recent li").count() == 4
    page.click(".hp-undo")
    page.wait_for_function("() => Number(document.querySelector('.hp-board').dataset.ply) == 2")
    assert page.locator(".hp-recent li").count() == 2  # the moves before stay listed
    assert focused(page) != "body"
    # a language switch redraws the board, the list of moves and the feed's last line
    feed = page.inner_text(".feed")
    assert feed and feed.isascii(), feed
    page.evaluate("async () => (await import('/static/js/i18n.js')).setLanguage('ja')")
    page.wait_for_function("f => document.querySelector('.feed').textContent !== f", arg=feed)
    assert not page.inner_text(".feed").isascii()
    page.wait_for_function(
        "() => document.querySelector('.hp-board').getAttribute('aria-label') === 'ヘアピンの盤'")
    said = page.inner_text(".hp-recent")
    assert said.count("赤") == 1 and ("クルーズ" in said or "チャージ" in said), said
    assert "cruise" not in page.inner_text(".hp-moves") and "charge" not in said
    assert "直前の手" in page.inner_text(".hp-recent-card h3")
    assert page.js_errors == []


def test_a_phone_used_as_the_host_gets_squares_a_thumb_can_hit(open_page: Any,
                                                                server: str) -> None:
    room = new_room(server, "hairpin", variant="short", red="human", black="human")
    page = host_page(open_page, {"width": 360, "height": 740}, server, room)
    page.click("#start")
    page.locator(".hp-turn.yours").wait_for()
    square = page.locator(".hp-square rect").first.bounding_box()
    assert square["width"] >= 40, square
    fits_phone(page)
    assert_accessible(page, "hairpin phone as the host, pass and play")
    assert page.js_errors == []
