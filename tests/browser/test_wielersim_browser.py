"""Chromium watches a WielerSIM stage of a saved stage race to the end, at phone and TV
widths, with screenshots (``RACEDAY_SHOTS=DIR`` keeps them, e.g. for docs/usage/img)."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from playwright.sync_api import expect  # noqa: E402

from raceday.web.app import create_app  # noqa: E402

WIDTHS = ((360, 780), (1920, 1080))


def shots_dir(tmp_path: Path) -> Path:
    return Path(os.environ.get("RACEDAY_SHOTS", str(tmp_path)))


def new_page(browser: Any, width: int, height: int, problems: list[str]) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    return page


def fits(page: Any, width: int) -> None:
    """Nothing sticks out sideways (wide pictures scroll inside their own box)."""
    wide = page.evaluate("""w => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > w + 1
                     && !e.closest('.profile-box, .chart-box, .table-box'))
        .slice(0, 5).map(e => e.tagName + '.' + e.className)""", width)
    assert wide == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def check_shot(path: Path) -> None:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 15_000  # drawn, not blank


def test_a_stage_watched_to_the_end(chromium: Any, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from raceday.cli.main import app as cli

    db = tmp_path / "party.sqlite"
    shots = shots_dir(tmp_path)
    problems: list[str] = []
    for width, _ in WIDTHS:  # one stage race per width, started in the terminal
        result = CliRunner().invoke(cli, ["wielersim", "tour", "ronde-van-belgie", "classics",
                                          "--seed", "7", "--name", f"rvb{width}", "--db",
                                          str(db), "--delay", "0"], input="c\nc\ns\n")
        assert result.exit_code == 0, result.output
    from raceday.web.server import background_server

    with background_server(create_app(db)) as base:
        for width, height in WIDTHS:
            page = new_page(chromium, width, height, problems)
            page.goto(f"{base}wielersim?campaign=rvb{width}")
            page.get_by_role("button", name="Ride and watch: Stage 2: Luik - Hoei (hilly)").click()
            page.wait_for_selector(".film-where")
            page.locator("select.speed").select_option("3")  # the fastest
            page.wait_for_timeout(1200)
            page.screenshot(path=str(shots / f"wielersim-stage-{width}.png"))
            page.wait_for_selector(".film-result table", timeout=60_000)  # to the end
            assert page.locator(".film-progress").evaluate("p => p.value === p.max")
            assert "VICTORY" in page.locator(".wv-ticker").inner_text()
            fits(page, width)
            page.keyboard.press("Tab")  # the controls are reachable from the keyboard
            page.get_by_role("button", name="Show the tables").click()
            page.wait_for_selector(".gc-chart")
            # the saved campaign is read again after the film: wait for it, not for a guess
            expect(page.locator("main")).to_contain_text("3 of 6 stages ridden", timeout=30_000)
            assert page.locator(".gc-chart polyline").count() == 8
            # bonus seconds are worded from the table (wv_bonus), next to the gap
            assert re.search(r"\(−\d+s\)", page.locator(".tables").inner_text())
            fits(page, width)
            page.screenshot(path=str(shots / f"wielersim-tables-{width}.png"), full_page=True)
            page.close()
    assert problems == []
    for width, _ in WIDTHS:
        check_shot(shots / f"wielersim-stage-{width}.png")


def test_the_ticker_speaks_the_readers_language(chromium: Any, tmp_path: Path) -> None:
    # the film's ticker items are the server's messages: the page renders them from the
    # game's message tables, here in Japanese
    from raceday.web.server import background_server

    problems: list[str] = []
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = new_page(chromium, 1280, 900, problems)
        page.add_init_script("localStorage.setItem('raceday.lang', 'ja')")
        page.goto(f"{base}wielersim?route=flat-stage&peloton=small&seed=5")
        page.locator("#race-form button[type=submit]").click()
        page.locator("select.speed").select_option("3")
        page.locator("button[data-act=end]").click()
        page.wait_for_selector(".film-result table", timeout=60_000)
        ticker = page.locator(".wv-ticker")
        expect(ticker).to_contain_text("が優勝！")
        assert "VICTORY" not in ticker.inner_text() and "ticker." not in ticker.inner_text()
        # the film's styles come from the game's package (games/wielersim/static/style.css)
        assert page.locator(".profile-box").evaluate(
            "e => getComputedStyle(e).backgroundColor") == "rgb(244, 241, 232)"
        page.close()
    assert problems == []


def test_a_new_stage_race_from_the_form(chromium: Any, tmp_path: Path) -> None:
    # the stage-race form sends its tour and peloton, and the name only when one is typed
    from raceday.web.server import background_server

    problems: list[str] = []
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = new_page(chromium, 1280, 900, problems)
        page.goto(f"{base}wielersim")
        page.locator("#tour-form input[name=name]").fill("  spring tour  ")
        page.locator("#tour-form button[type=submit]").click()
        page.wait_for_url("**/wielersim?campaign=spring%20tour", timeout=30_000)
        page.goto(f"{base}wielersim")
        page.locator("#tour-form button[type=submit]").click()  # no name: one is made up
        page.wait_for_url("**/wielersim?campaign=*", timeout=30_000)
        assert "spring" not in page.url
        page.goto(f"{base}wielersim")
        expect(page.locator("ul.campaigns li")).to_have_count(2)
        page.close()
    assert problems == []
