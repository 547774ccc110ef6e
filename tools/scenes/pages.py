"""The pages every game shares: the landing page (in English and Japanese, and with a setup
field refused by the app's own validation), replays, numbers, print (its index, a game's
sheets and a refused request), not found, a room code nobody holds (host, watch, play), and
the finale of a real game (a short Hairpin game against the computer, played to its end)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import connect

HANG_GUARD = 300.0  # seconds for the short game; it takes a few


def _finished_hairpin(base: str) -> dict[str, Any]:
    """A short Hairpin game, the big screen playing red against the easy computer at the
    fastest pace, played to its end through the server; the room as created."""
    made = httpx.post(f"{base}api/rooms", json={"game": "hairpin", "options": {
        "variant": "short", "black": "easy"}}).json()
    with connect(f"ws{base.removeprefix('http')}ws/{made['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": made["host_token"], "since": -1}))
        view = json.loads(ws.recv(timeout=30))["view"]
        ws.send(json.dumps({"type": "start", "ref": "start"}))
        ws.send(json.dumps({"type": "pace", "seconds": 0.2, "ref": "pace"}))
        pending, after = False, 0
        deadline = time.monotonic() + HANG_GUARD
        while view["phase"] != "finished" and time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=HANG_GUARD))
            if message["type"] == "ack" and message["ref"] == "move":
                pending, after = False, message["seq"]
            if message["type"] != "update":
                continue
            view = message["view"]
            if view.get("may_move") and view["moves"] and not pending and \
                    message["seq"] >= after:
                ahead = max(view["moves"], key=lambda m: (m["lap"] or 0, m["kind"] != "stay"))
                ws.send(json.dumps({"type": "move", "action": ahead["action"], "ref": "move"}))
                pending = True
    return dict(made)


def _still(page: Any) -> None:
    """Wait for the page's animations (the podium rising in) to end."""
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")


def scenes(shot: Any) -> None:
    # paths are relative to the server's address (which ends with a slash)
    for path, phase in [("", "landing"), ("replay", "replays"), ("numbers", "numbers"),
                        ("print", "print"), ("print/hairpin", "print-sheets"),
                        ("print/hairpin?nosuch=1", "print-refused"), ("nosuchpage", "notfound"),
                        ("host/ZZZZ", "unknown-host"), ("watch/ZZZZ", "unknown-watch"),
                        ("play/ZZZZ", "unknown-play")]:
        page = shot.page("tv", path)
        page.wait_for_load_state("networkidle")
        shot.snap(page, phase, scroll="top")
        page.context.close()
    page = shot.page("phone", "")  # a setup field out of its range, worded by the app
    tokens = page.locator("#pistard-setup input[name=tokens]")
    tokens.fill("99")
    page.locator("#pistard-setup button[type=submit]").click()
    page.locator("#pistard-setup .field-error").wait_for()
    shot.snap(page, "validation", scroll="#pistard-setup")
    page.context.close()
    made = _finished_hairpin(shot.base)
    code = made["code"]
    host = {f"raceday.host.{code}": made["host_token"]}
    for phase, storage in (("finale", host), ("finale-watch", None)):
        path = f"host/{code}" if storage else f"watch/{code}"
        page = shot.page("tv", path, "en", storage)
        page.locator(".finale .podium").wait_for()
        _still(page)
        shot.snap(page, phase, scroll=".finale")
        page.context.close()
    page = shot.page("tv", "numbers")  # the numbers page with an answer: KEIRIN's odds
    page.locator("#form-keirin button[type=submit]").click()
    page.wait_for_selector("#t-trifecta", timeout=180_000)
    shot.snap(page, "numbers-keirin", scroll="#t-riders")
    page.context.close()
