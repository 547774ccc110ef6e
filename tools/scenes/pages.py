"""The pages every game shares: the landing page (in English and Japanese, and with a setup
field refused by the app's own validation), replays, numbers, print (its index, a game's
sheets and a refused request), not found, a room's header with the Sound toggle, and the
finale of a real game (a short Hairpin game against the computer, played to its end)."""

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
    for path, phase, lang in [("", "landing", "en"), ("", "landing-ja", "ja"),
                              ("replay", "replays", "en"), ("numbers", "numbers", "en"),
                              ("print", "print", "en"), ("print/hairpin", "print-sheets", "en"),
                              ("print/hairpin", "print-sheets-ja", "ja"),
                              ("print/hairpin?nosuch=1", "print-refused", "en"),
                              ("nosuchpage", "notfound", "en")]:
        for page in shot.pair(path, lang):
            page.wait_for_load_state("networkidle")
            shot.snap(page, phase)
            page.context.close()
    for size in ("phone", "tv"):  # a setup field out of its range, worded by the app
        page = shot.page(size, "")
        tokens = page.locator("#pistard-setup input[name=tokens]")
        tokens.fill("99")
        page.locator("#pistard-setup button[type=submit]").click()
        page.locator("#pistard-setup .field-error").wait_for()
        page.evaluate("document.querySelector('#pistard-setup').scrollIntoView()")
        shot.snap(page, "validation")
        page.context.close()
    made = _finished_hairpin(shot.base)
    code = made["code"]
    host = {f"raceday.host.{code}": made["host_token"]}
    for size in ("phone", "tv"):
        for lang, phase, storage in (("en", "finale", host), ("ja", "finale-ja", host),
                                     ("en", "finale-watch", None)):
            path = f"host/{code}" if storage else f"watch/{code}"
            page = shot.page(size, path, lang, storage)
            page.locator(".finale .podium").wait_for()
            _still(page)
            page.evaluate("document.querySelector('.finale').scrollIntoView()")
            shot.snap(page, phase)
            page.context.close()
