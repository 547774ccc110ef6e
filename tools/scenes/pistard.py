"""PISTARD in every phase, on a phone at 390 px and a TV at 1920 px: the lobby (TV with the
join code and the track, a phone that joined), a phone placing its rider, a phone choosing
a die on the zoomed track, the computer thinking, the result (the winner's phone, the TV),
a phone used as the host screen, the team pursuit's result, and a points race (its
standings at the start and its result)."""

from __future__ import annotations

from typing import Any

READY = ".lobby, .pi-track"  # a phone that joined shows the lobby or the game
CHOICE = ".pi-choices button, .pi-place-grid button"


def _updates(page: Any) -> int:
    return int(page.get_attribute(".pi-stage", "data-updates") or 0)


def _choose(page: Any) -> None:
    """The front of the grid, or the choice that goes furthest (the last button that is
    not standing still)."""
    buttons = page.locator(".pi-choices button:not(.pi-stay)")
    n = buttons.count()
    target = buttons.nth(n - 1) if n else page.locator(".pi-choices button.pi-stay")
    if page.locator(".pi-place-grid button").count():
        target = page.locator(".pi-place-grid button").first
    drawn = _updates(page)
    target.click()
    page.wait_for_function(
        f"() => Number(document.querySelector('.pi-stage').dataset.updates || 0) > {drawn}")


def _to_the_end(page: Any) -> None:
    for _ in range(400):
        page.wait_for_selector(CHOICE + ", .pi-result")
        if page.locator(".pi-result").count():
            return
        _choose(page)
    raise AssertionError("the race never ended")


def scenes(shot: Any) -> None:
    # a phone and a computer in a scratch race, the TV showing it
    room = shot.room("pistard", variant="scratch", players=["human", "medium"], riders_per_player=2,
                 track="short")
    tv = shot.host("tv", room)
    phone = shot.join(room["code"], "Aki", READY)
    tv.get_by_text("P1 Aki").wait_for()
    shot.snap(tv, "lobby")
    shot.snap(phone, "lobby")
    tv.click("#start")
    phone.locator(CHOICE).first.wait_for()
    shot.snap(phone, "place")
    shot.snap(tv, "place")
    while not phone.locator(".pi-dice").count():
        _choose(phone)
        phone.wait_for_selector(CHOICE + ", .pi-result")
    shot.snap(phone, "move")
    shot.snap(tv, "race")
    for _ in range(30):  # the phone rides until its move hands the turn to the computer
        _choose(phone)
        phone.wait_for_selector(".thinking, .pi-result, " + CHOICE)
        if phone.locator(".thinking").count():
            shot.snap(phone, "thinking", settle_ms=100, now_only=True)
            shot.snap(tv, "thinking", settle_ms=100, now_only=True)
            break
        if phone.locator(".pi-result").count():
            break
    _to_the_end(phone)
    tv.locator(".pi-result").wait_for()
    shot.snap(phone, "end", settle_ms=1500)
    shot.snap(tv, "end", settle_ms=1500)
    for page in (tv, phone):
        page.context.close()
    # a phone as the host screen, placing and racing on one device
    room = shot.room("pistard", variant="scratch", players=["human", "easy"], riders_per_player=1,
                 track="short")
    host = shot.host("phone", room)
    host.click("#start")
    host.locator(CHOICE).first.wait_for()
    shot.snap(host, "host-phone-place")
    while not host.locator(".pi-dice").count():
        _choose(host)
        host.wait_for_selector(CHOICE + ", .pi-result")
    host.locator(".pi-track.is-zoomed").wait_for()  # the dice: zoomed on the choice
    host.context.close()
    # the team pursuit's result: both teams timed, the winners first
    room = shot.room("pistard", variant="pursuit", players=["human", "medium"], riders_per_player=3,
                 track="short")
    host = shot.host("tv", room)
    host.click("#start")
    _to_the_end(host)
    shot.snap(host, "pursuit-end", settle_ms=1500)
    host.context.close()
    # the points race: five riders' standings (points and laps) beside the track
    room = shot.room("pistard", variant="points", riders_per_player=2, laps=2, track="short",
                     players=["human", "easy", "easy", "easy", "easy"])
    host = shot.host("tv", room)
    host.click("#start")
    host.locator(".pi-standings tbody tr").nth(9).wait_for()
    shot.snap(host, "points-race")
    _to_the_end(host)
    shot.snap(host, "points-end", settle_ms=1500)
    host.context.close()
