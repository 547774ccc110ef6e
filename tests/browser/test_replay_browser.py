"""Chromium steps through a replay (buttons and keys), plays it, jumps to the end, and
opens a stage's film from its shareable link; screenshots at phone and TV widths."""

from __future__ import annotations

import os
import sqlite3
import warnings
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from raceday.web.app import create_app  # noqa: E402

WIDTHS = ((360, 780), (1920, 1080))


def make_replays(db: Path) -> str:
    """A finished Dice Derby room (joins and a start) and a stage race with 3 stages."""
    with TestClient(create_app(db)) as tc:
        room = tc.post("/api/rooms", json={"game": "derby", "options": {"races": 4}}).json()
        for name in ("Aki", "Ben", "Chie"):
            assert tc.post(f"/api/rooms/{room['code']}/join", json={"name": name}).is_success
        tc.post("/api/wielersim/campaigns", json={"tour": "ronde-van-belgie",
                                                  "peloton": "classics", "seed": 4,
                                                  "name": "rvb"})
        for stage in range(3):
            tc.post("/api/wielersim/campaigns/rvb/ride", json={"stage": stage})
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rooms SET finished = 1")
    return str(room["code"])


def test_a_replay_stepped_through(chromium: Any, tmp_path: Path) -> None:
    from raceday.web.server import background_server

    db = tmp_path / "party.sqlite"
    code = make_replays(db)
    shots = Path(os.environ.get("RACEDAY_SHOTS", str(tmp_path)))
    problems: list[str] = []
    with background_server(create_app(db)) as base:
        for width, height in WIDTHS:
            page = chromium.new_page(viewport={"width": width, "height": height})
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(f"{base}replay")
            page.get_by_role("link", name=f"Dice Derby — {code}").click()
            page.wait_for_selector(".step")
            assert page.url.endswith(f"/replay/room/{code}")
            status = page.locator("p.status")
            assert status.inner_text() == "Step 1 of 4"
            assert "The room is opened" in page.inner_text(".step")
            page.get_by_role("button", name="Next").click()
            assert status.inner_text() == "Step 2 of 4"
            assert "Aki joins" in page.inner_text(".step")
            page.keyboard.press("ArrowRight")
            assert "Ben joins" in page.inner_text(".step")
            page.keyboard.press("ArrowLeft")
            assert status.inner_text() == "Step 2 of 4"
            page.get_by_role("button", name="To the end").click()
            assert status.inner_text() == "Step 4 of 4"
            assert page.get_by_role("button", name="To the end").is_disabled()
            page.get_by_role("button", name="Back").click()
            page.get_by_role("button", name="Play").click()
            page.wait_for_function(
                "document.querySelector('p.status').textContent === 'Step 4 of 4'")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(shots / f"replay-room-{width}.png"), full_page=True)
            page.goto(f"{base}replay/wielersim/rvb")  # the shared link of a stage race
            page.wait_for_selector(".step")
            page.get_by_role("button", name="To the end").click()
            page.locator(".step").get_by_role("link", name="Watch this stage").click()
            page.wait_for_selector(".profile")
            assert page.url.endswith("/replay/wielersim/rvb/2")
            page.get_by_role("button", name="To the end").click()
            page.wait_for_selector(".film-result table")
            page.screenshot(path=str(shots / f"replay-stage-{width}.png"))
            page.close()
    assert problems == []


def test_a_finished_game_replays_its_board_and_result_in_both_languages(
        chromium: Any, tmp_path: Path) -> None:
    from raceday.core.agents import RandomAgent
    from raceday.games.hairpin import GAME as HAIRPIN
    from raceday.present import describe_result
    from raceday.store.sessions import SessionStore
    from raceday.web.server import background_server

    db = tmp_path / "party.sqlite"
    final = HAIRPIN.play(None, [RandomAgent(), RandomAgent()], rng=3).final_state
    with TestClient(create_app(db)):
        pass  # the server makes its tables
    SessionStore(db).save("hairpin", "done", {"state": final.to_json(), "red": "random",
                                              "black": "random", "undo": [], "rng": {}})
    problems: list[str] = []
    with background_server(create_app(db)) as base:
        page = chromium.new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"{base}replay/hairpin/done")
        page.wait_for_selector(".step .replay-board")
        step = page.inner_text(".step")
        assert "Final position" in step and describe_result(final, "en") in step
        assert "{" not in step
        board = page.locator(".step .replay-board svg.hp-board")  # Hairpin's frame.js draws it
        board.wait_for()
        assert board.get_attribute("data-ply") == str(final.frame()["ply"])
        assert page.locator(".step .replay-board [data-square]").count() == 18
        page.locator("button.lang").click()
        page.wait_for_selector(".step h3:text-is('最終局面')")
        assert describe_result(final, "ja") in page.inner_text(".step")
        page.close()
    assert problems == []
