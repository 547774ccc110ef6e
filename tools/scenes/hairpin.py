"""Hairpin Racers in every phase, on a phone at 390 px and a TV at 1920 px: the lobby
(TV with the join code, a phone that joined), the phone's move with a racer chosen, the
computer thinking (only at the size and language it shows: the computer is quick), the
end (the winner's phone, the TV), and a phone used as the host screen for a game on one
device."""

from __future__ import annotations

from typing import Any

READY = ".lobby, .hp-board"  # a phone that joined shows the lobby or the game
# Red to move, one lap from winning the short game: the end comes in a few moves
LATE = "..bbbb/r...b./r..rrr r 2-0 0-0 0-0 0 40"


def _ply(page: Any) -> int:
    return int(page.get_attribute(".hp-board", "data-ply") or 0)


def scenes(shot: Any) -> None:
    # a phone (Red) against the computer (Black), the TV showing the room
    room = shot.room("hairpin", variant="short", red="human", black="medium", position=LATE)
    tv = shot.host("tv", room)
    phone = shot.join(room["code"], "Aki", READY)
    tv.get_by_text("Red — Aki").wait_for()
    shot.snap(tv, "lobby")
    shot.snap(phone, "lobby")
    tv.click("#start")
    phone.locator(".hp-turn.yours").wait_for()
    shot.snap(tv, "waiting")
    phone.locator(".hp-square.is-origin").last.click()
    shot.snap(phone, "move")
    before = _ply(phone)
    phone.locator(".hp-square.is-target").first.click()
    phone.locator(".thinking").wait_for()
    shot.snap(phone, "thinking", settle_ms=100, now_only=True)
    tv.locator(".thinking").wait_for()
    shot.snap(tv, "thinking", settle_ms=100, now_only=True)
    phone.wait_for_function(
        f"() => Number(document.querySelector('.hp-board')?.dataset.ply) > {before + 1}")
    for _ in range(60):
        if phone.locator(".hp-result, .finale").count():
            break
        phone.wait_for_selector(".hp-turn.yours, .hp-result, .finale")
        if phone.locator(".hp-result, .finale").count():
            break
        before = _ply(phone)
        phone.locator("button.hp-move").last.click()
        phone.wait_for_function(
            f"() => Number(document.querySelector('.hp-board')?.dataset.ply) > {before}"
            " || document.querySelector('.hp-result, .finale')")
    tv.locator(".hp-result, .finale").first.wait_for()
    shot.snap(phone, "end", settle_ms=1500)
    shot.snap(tv, "end", settle_ms=1500)
    for page in (tv, phone):
        page.context.close()
    # a phone as the host screen: both colours played on one device, in Japanese too
    room = shot.room("hairpin", variant="short", red="human", black="human")
    host = shot.host("phone", room)
    host.click("#start")
    host.locator(".hp-turn.yours").wait_for()
    shot.snap(host, "host-phone")
    host.context.close()
