"""What the show's browser tests of the turn rooms (Hairpin, PISTARD) share: a room made
through the API and its host's page, a host intent sent over the room's own WebSocket
(pause and resume the timeline to hold a phase), and the checks that a page fits its
screen."""

from __future__ import annotations

import json
from typing import Any

import httpx
from a11y import wait_for_style_sheets
from websockets.sync.client import connect

TV = {"width": 1920, "height": 1080}
TV_TEXT_PX = 28.0


def new_room(server: str, game: str, **options: Any) -> dict[str, Any]:
    """A room of ``game`` made through the API (201), with its code and host token."""
    r = httpx.post(f"{server}api/rooms", json={"game": game, "options": options}, timeout=10)
    assert r.status_code == 201, r.text
    return dict(r.json())


def host_page(open_page: Any, viewport: dict[str, int], server: str, room: dict[str, Any],
              lang: str = "en", motion: bool = False) -> Any:
    """The room's host screen, holding the host's token, in ``lang`` (with its motion when
    ``motion``: else as for a person who asked for reduced motion)."""
    code = room["code"]
    return open_page(viewport, f"{server}host/{code}",
                     {f"raceday.host.{code}": room["host_token"], "raceday.lang": lang},
                     motion=motion)


def host_says(server: str, code: str, token: str, intent: dict[str, Any]) -> None:
    """Send ``intent`` as the host of room ``code`` and wait for the server's ack."""
    url = server.replace("http://", "ws://").rstrip("/") + f"/ws/{code}"
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
        ws.send(json.dumps({**intent, "ref": 1}))
        for _ in range(100):
            msg = json.loads(ws.recv(timeout=30))
            if msg.get("ref") == 1:
                assert msg["type"] == "ack", msg
                return
    raise AssertionError("no answer to the host's intent")


def fits_phone(page: Any) -> None:
    """No sideways scrolling (the page is no wider than the phone)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width} px wide"


def fits_tv(page: Any, text: str) -> None:
    """The whole page on the TV's screen (no scrolling either way) and every visible piece
    of ``text`` (a CSS selector of the page's body text) at least 28 px."""
    wait_for_style_sheets(page)
    sizes = page.evaluate("""() => [document.documentElement.scrollWidth,
        document.documentElement.scrollHeight, innerWidth, innerHeight]""")
    assert sizes[0] <= sizes[2] and sizes[1] <= sizes[3], f"page {sizes[0]}x{sizes[1]}"
    small = page.evaluate("""([sel, least]) => [...document.querySelectorAll(sel)]
        .filter((e) => e.offsetParent !== null && e.textContent.trim())
        .map((e) => [e.className || e.tagName, parseFloat(getComputedStyle(e).fontSize)])
        .filter(([, px]) => px < least)""", [text, TV_TEXT_PX])
    assert not small, f"text under {TV_TEXT_PX} px: {small[:5]}"
    shown = page.evaluate("(sel) => document.querySelectorAll(sel).length", text)
    assert shown, f"no text {text!r} on the page"


def settled(page: Any) -> None:
    """Wait until the page's entrance animations (a podium rising) have ended, so a check
    sees the page as it stays (endless ones, the thinking dots, do not count)."""
    page.wait_for_function("""() => document.getAnimations().every((a) =>
        a.playState !== "running" || a.effect?.getTiming().iterations === Infinity)""")


def pause(tv: Any, server: str, code: str, token: str, what: str, board: str) -> None:
    """Pause or resume the room's timeline as its host, then take the host's seat back on
    the TV (one device holds a seat at a time: the intent's connection took it) and wait
    for its ``board`` (a selector)."""
    host_says(server, code, token, {"type": what})
    tv.get_by_text("Use it on this device instead").click()
    tv.locator(board).wait_for()
