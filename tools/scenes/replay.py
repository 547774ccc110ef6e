"""Replays of every game, at the start, in the middle and at the end, on a phone and a TV:
rooms of Hairpin, PISTARD, KEIRIN and Dice Derby played to their end, and a WielerSIM stage
race's list and one stage's film. The rooms are played in-process into a database of this
scene's own (tests/web/test_replay_frames.play_room), served by a second loopback server."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("hairpin", "pistard", "keirin", "derby")


def _database(folder: Path) -> tuple[Path, dict[str, str]]:
    """A database with a finished room of each game and a stage race of 2 stages."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from fastapi.testclient import TestClient
    from tests.web.test_replay_frames import play_room

    from raceday.web.app import create_app

    db = folder / "replays.sqlite"
    codes = {game: play_room(db, game, seed=7) for game in GAMES}
    with TestClient(create_app(db)) as tc:
        key = tc.post("/api/wielersim/campaigns", json={
            "tour": "ronde-van-belgie", "peloton": "classics", "seed": 4,
            "name": "rvb"}).json()["key"]
        for stage in range(2):  # riding a stage takes the key its creator was given
            tc.post("/api/wielersim/campaigns/rvb/ride", json={"stage": stage},
                    headers={"x-campaign-key": key}).raise_for_status()
    return db, codes


def _steps(page: Any) -> int:
    page.wait_for_selector(".replay-controls input[type=range]")
    return int(page.get_attribute(".replay-controls input[type=range]", "max"))


def scenes(shot: Any) -> None:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    with tempfile.TemporaryDirectory(prefix="raceday-replay-shots-") as folder:
        db, codes = _database(Path(folder))
        with background_server(create_app(db)) as base:
            served = shot.base
            shot.base = base.rstrip("/")
            try:
                page = shot.page("tv", "/replay")
                page.wait_for_selector(".replays li")
                shot.snap(page, "list", scroll="top")
                page.context.close()
                for game in GAMES:
                    path = f"/replay/room/{codes[game]}"
                    page = shot.page("tv", path)
                    total = _steps(page)
                    for phase, step in (("start", 1), ("middle", (total + 1) // 2),
                                        ("end", total)):
                        page.goto(f"{shot.base}{path}#step={step}")
                        page.reload()
                        page.wait_for_selector(
                            f".replay-controls .status:text-is('Step {step} of {total}')")
                        shot.snap(page, f"{game}-{phase}", scroll="top")
                    page.context.close()
                page = shot.page("tv", "/replay/wielersim/rvb/1")
                total = _steps(page)
                page.keyboard.press("End")
                page.wait_for_selector(".film-result table")
                shot.snap(page, "wielersim-end", scroll="top")
                page.goto(f"{shot.base}/replay/wielersim/rvb/1#step={total // 2}")
                page.reload()
                page.wait_for_selector(".replay-board .profile")
                shot.snap(page, "wielersim-middle", scroll="top")
                page.context.close()
                page = shot.page("tv", f"/replay/room/{codes['keirin']}#step=9")
                page.wait_for_selector(".replay-board svg")
                shot.snap(page, "keirin", scroll="top")
                page.context.close()
            finally:
                shot.base = served
