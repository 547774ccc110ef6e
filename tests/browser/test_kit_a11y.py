"""axe-core on the kit's shared pages at a 390x844 phone and a 1920x1080 TV: the landing,
Numbers, Print (its index and a game's sheets) and not-found pages, the setup card's
options form before and after a validation error, and the finale of a real game (a short
Hairpin game against the computer, played to its end through the server) with its podium
and the host's "Play again". No serious or critical violation anywhere."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from a11y import assert_accessible
from websockets.sync.client import connect

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
SIZES = [PHONE, TV]
IDS = ["phone", "tv"]
HANG_GUARD = 600.0  # seconds: far above the game's few seconds at the fastest pace


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("a11y") / "party.sqlite"
    with background_server(create_app(db)) as url:
        yield url


def play_to_the_end(base: str) -> dict[str, Any]:
    """A short Hairpin game, the host screen playing red against the easy computer (its
    moves on the server's timeline at the fastest pace), played to its end; the room."""
    made = httpx.post(f"{base}api/rooms", json={"game": "hairpin", "options": {
        "variant": "short", "black": "easy"}}).json()
    with connect(f"ws{base.removeprefix('http')}ws/{made['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": made["host_token"], "since": -1}))
        view = json.loads(ws.recv(timeout=30))["view"]
        ws.send(json.dumps({"type": "start", "ref": "start"}))
        ws.send(json.dumps({"type": "pace", "seconds": 0.2, "ref": "pace"}))
        pending, after = False, 0  # a move of ours not yet acknowledged; its update's seq
        deadline = time.monotonic() + HANG_GUARD
        while view["phase"] != "finished":
            assert time.monotonic() < deadline, "the game did not end"
            message = json.loads(ws.recv(timeout=HANG_GUARD))
            assert message["type"] != "error", message
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


@pytest.fixture(scope="module")
def finished(base: str) -> dict[str, Any]:
    return play_to_the_end(base)


def settled(page: Any) -> None:
    page.locator("button.lang").first.wait_for()


@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
@pytest.mark.parametrize("path", ["", "numbers", "print", "print/hairpin", "nosuchpage"])
def test_the_shared_pages(open_page: Any, base: str, path: str,
                          viewport: dict[str, int]) -> None:
    page = open_page(viewport, base + path)
    settled(page)
    if path == "":
        page.locator("#pistard-setup form").wait_for()  # the games' setup cards are in
    assert_accessible(page, f"/{path} at {viewport['width']}")


@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_the_options_form_before_and_after_a_validation_error(open_page: Any, base: str,
                                                              viewport: dict[str, int]) -> None:
    page = open_page(viewport, base)
    tokens = page.locator("#pistard-setup input[name=tokens]")
    tokens.wait_for()
    assert_accessible(page, "options form")
    tokens.fill("-1")
    page.locator("#pistard-setup button[type=submit]").click()
    page.locator("#pistard-setup .field-error").wait_for()
    assert_accessible(page, "options form with a validation error")


@pytest.mark.parametrize("viewport", SIZES, ids=IDS)
def test_the_finale_of_a_real_game(open_page: Any, base: str, finished: dict[str, Any],
                                   viewport: dict[str, int]) -> None:
    code = finished["code"]
    page = open_page(viewport, f"{base}host/{code}", {f"raceday.host.{code}":
                                                      finished["host_token"]})
    page.locator(".finale .podium").wait_for()
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    assert page.get_by_role("button", name="Play again (same seats)").count() == 1
    assert_accessible(page, f"Hairpin finale at {viewport['width']}")
    watch = open_page(viewport, f"{base}watch/{code}")
    watch.locator(".finale .podium").wait_for()
    watch.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    assert watch.get_by_role("button", name="Play again (same seats)").count() == 0
    assert_accessible(watch, f"Hairpin finale watched at {viewport['width']}")
