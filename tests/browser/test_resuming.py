"""After a restart, a race saved mid-way waits for the screens to reconnect, and every
screen of its room says so: the big screen, the spectators' screen and a phone show
"Resuming the race in N s…" in their status line instead of "Connected" (the server's
welcome carries the seconds; the page only draws them)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.shots import keep_shot
from tests.web.test_restart import racing_room

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1920, "height": 1080}
WAIT = 600.0  # the race's wait here: far longer than the test, so it is still waiting


@pytest.fixture
def restarted(tmp_path: Path) -> Iterator[tuple[str, str, str, list[str]]]:
    db = tmp_path / "party.sqlite"
    code, host, seats = racing_room(db)
    with background_server(create_app(db, resume_after=WAIT, idle_close=None)) as url:
        yield url, code, host, seats


@pytest.mark.parametrize("kind", ["host", "watch", "play"])
def test_every_screen_says_the_race_is_resuming(open_page: Any, kind: str,
                                                restarted: tuple[str, str, str, list[str]],
                                                tmp_path: Path) -> None:
    url, code, host, seats = restarted
    storage = {"host": {f"raceday.host.{code}": host},
               "play": {f"raceday.seat.{code}": seats[0]}}.get(kind)
    page = open_page(PHONE if kind == "play" else SCREEN, f"{url}{kind}/{code}", storage)
    try:
        status = page.locator("header.bar p.status[role=status]")
        page.wait_for_function(
            "() => document.querySelector('header.bar p.status')?.dataset.state === 'resuming'",
            timeout=30_000)
        text = status.inner_text()
        found = re.fullmatch(r"Resuming the race in (\d+) s…", text)
        assert found is not None, text
        assert 0 < int(found.group(1)) <= WAIT
        assert "Connected" not in text
        keep_shot(page, f"resuming-{kind}.png")
        assert page.js_errors == []
    finally:
        page.context.close()
