"""A room closed after a long time without play, opened in Chromium: the big screen, the
spectators' screen and the phone say it is closed (an alert in the reader's language) and
offer the landing page; a finished room also offers its replay, which opens. Screenshots at
390x844 and 1920x1080 go to pytest's temporary directory."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from a11y import assert_accessible
from tests.browser.shots import keep_shot

from raceday.web.app import create_app
from raceday.web.rooms import Rooms
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
SCREEN = {"width": 1920, "height": 1080}


@dataclass
class Closed:
    url: str
    quiet: str  # closed before its evening was over
    over: str  # closed after it


@pytest.fixture
def closed(tmp_path: Path) -> Iterator[Closed]:
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    quiet, _ = rooms.create("derby", {})
    over, _ = rooms.create("derby", {})
    rooms.join(over.code, "Aki")
    rooms.close(quiet)
    rooms.close(over)
    rooms.store.close()
    conn = sqlite3.connect(db)
    with conn:  # its evening ended before it closed (as the room logic marks it)
        conn.execute("UPDATE rooms SET finished = 1 WHERE code = ?", (over.code,))
    conn.close()
    with background_server(create_app(db)) as url:
        yield Closed(url, quiet.code, over.code)


@pytest.mark.parametrize("kind", ["host", "watch", "play"])
def test_a_closed_room_says_so_and_offers_the_way_on(open_page: Any, closed: Closed,
                                                     kind: str, tmp_path: Path) -> None:
    viewport = PHONE if kind == "play" else SCREEN
    page = open_page(viewport, f"{closed.url}{kind}/{closed.quiet}")
    try:
        alert = page.locator("#app section.closed-room p.error[role=alert]")
        alert.wait_for(timeout=15_000)
        assert "was closed after a long time without play" in alert.inner_text()
        assert closed.quiet in alert.inner_text()
        assert page.locator("#app a[href='/']").inner_text() == "Start or join another party"
        assert page.locator("#app a[href^='/replay/']").count() == 0  # nothing to replay
        assert page.locator("header.bar").count() == 0  # no room drawn
        keep_shot(page, f"closed-{kind}-{viewport['width']}.png")
        assert page.js_errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("viewport", [PHONE, SCREEN], ids=["phone", "screen"])
def test_a_finished_closed_room_links_its_replay(open_page: Any, closed: Closed,
                                                 viewport: dict[str, int],
                                                 tmp_path: Path) -> None:
    page = open_page(viewport, f"{closed.url}play/{closed.over}")
    try:
        alert = page.locator("#app section.closed-room p.error[role=alert]")
        alert.wait_for(timeout=15_000)
        assert "its replay is kept" in alert.inner_text()
        link = page.locator(f"#app a[href='/replay/room/{closed.over}']")
        assert link.inner_text() == f"Watch the replay of room {closed.over}"
        keep_shot(page, f"closed-finished-{viewport['width']}.png")
        assert_accessible(page, f"closed room, finished, {viewport['width']}px")
        link.click()
        page.wait_for_url(f"**/replay/room/{closed.over}", timeout=15_000)
        assert page.js_errors == []
    finally:
        page.context.close()


def test_the_notice_reads_in_the_readers_language(open_page: Any, closed: Closed) -> None:
    page = open_page(PHONE, f"{closed.url}play/{closed.over}", storage={"raceday.lang": "ja"})
    try:
        alert = page.locator("#app section.closed-room p.error[role=alert]")
        alert.wait_for(timeout=15_000)
        assert "リプレイは残っています" in alert.inner_text()
        link = page.locator(f"#app a[href='/replay/room/{closed.over}']")
        assert link.inner_text() == f"ルーム{closed.over}のリプレイを見る"
        assert page.js_errors == []
    finally:
        page.context.close()


def test_a_phone_that_slept_through_the_close_shows_the_notice(
        open_page: Any, tmp_path: Path) -> None:
    """A phone holds its seat; the server stops; the room is closed meanwhile (as the
    idle sweep marks it); the server starts again on the same port: the phone's reconnect
    is refused, and it shows the closed-room notice instead of a lost seat."""
    from raceday.web.server import free_port

    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    room, _ = rooms.create("derby", {})
    _, _, token, _ = rooms.join(room.code, "Aki")
    rooms.store.close()
    port = free_port()
    storage = {f"raceday.seat.{room.code}": token}
    with background_server(create_app(db, idle_close=None), port=port) as url:
        page = open_page(PHONE, f"{url}play/{room.code}", storage=storage)
        page.locator("p.status[data-state=connected]").wait_for(timeout=30_000)
    try:
        conn = sqlite3.connect(db)
        with conn:
            conn.execute("UPDATE rooms SET closed = 1 WHERE code = ?", (room.code,))
        conn.close()
        with background_server(create_app(db, idle_close=None), port=port):
            notice = page.locator("#app section.closed-room p.error[role=alert]")
            notice.wait_for(timeout=30_000)  # Live reconnects by itself
            assert "was closed after a long time without play" in notice.inner_text()
            assert page.locator("#app a[href='/']").count() == 1
            assert page.locator("header.bar").count() == 0  # the notice is the whole page
            keep_shot(page, "closed-slept-390.png")
        assert page.js_errors == []
    finally:
        page.context.close()
