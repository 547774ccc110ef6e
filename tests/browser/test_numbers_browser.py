"""Chromium runs a small WielerSIM prediction to the end from the Numbers page (progress
bar, sortable table, chart), and a KEIRIN odds table; screenshots at phone and TV widths."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from tests.browser.shots import keep_shot  # noqa: E402

from raceday.web.app import create_app  # noqa: E402

WIDTHS = ((360, 780), (1920, 1080))
BIBS = "#t-riders tbody td:nth-child(2)"


def test_a_prediction_run_to_the_end(chromium: Any, tmp_path: Path) -> None:
    from raceday.web.server import background_server

    problems: list[str] = []
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        for width, height in WIDTHS:
            page = chromium.new_page(viewport={"width": width, "height": height})
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(f"{base}numbers")
            page.get_by_label("Route").select_option("flat-stage")
            page.locator("#nm-peloton").select_option("small")
            page.locator("#nm-wn").fill("3000")
            page.locator("#nm-wseed").fill("12")
            page.get_by_role("button", name="Predict").click()
            page.wait_for_selector("#job-progress")
            page.wait_for_selector("#t-riders", timeout=120_000)
            assert page.locator("#job-progress").evaluate("p => p.value === p.max")
            assert page.locator("p.status").first.inner_text().startswith("Done in")
            rows = page.locator("#t-riders tbody tr")
            assert rows.count() == 12
            wins = [float(t.split("%")[0]) for t in page.locator(
                "#t-riders tbody td:nth-child(4)").all_inner_texts()]
            assert wins == sorted(wins, reverse=True)  # best chance first
            page.locator("#t-riders th button[data-key=bib]").click()  # sort by bib
            bibs = [int(t) for t in page.locator(BIBS).all_inner_texts()]
            assert bibs == sorted(bibs, reverse=True)
            page.locator("#t-riders th button[data-key=bib]").click()
            bibs = [int(t) for t in page.locator(BIBS).all_inner_texts()]
            assert bibs == sorted(bibs)
            assert page.locator(".chart .whisker").count() == 12 * 2 * 3  # win and podium
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            keep_shot(page, f"numbers-wielersim-{width}.png", full_page=True)
            page.locator("#form-keirin button[type=submit]").click()
            page.wait_for_selector("#t-trifecta")
            assert page.locator("#t-riders tbody tr").count() == 9
            page.close()
    assert problems == []


def test_stop_ends_a_job_and_shows_it_stopped(chromium: Any, tmp_path: Path) -> None:
    """Stop on a long prediction: the page says it stopped, and the server has forgotten
    the job (its address answers 404)."""
    from raceday.web.server import background_server

    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"{base}numbers")
        page.locator("#nm-wn").fill("100000")
        with page.expect_response(lambda r: r.url.endswith("/api/numbers")) as started:
            page.get_by_role("button", name="Predict").click()
        job = started.value.json()["id"]
        page.get_by_role("button", name="Stop").click()
        page.get_by_text("Stopped.").wait_for()
        assert page.request.get(f"{base}api/numbers/{job}").status == 404
        assert page.get_by_role("button", name="Stop").count() == 0
        assert problems == []
        page.close()


def test_keirin_card_bounds_refusal_and_accessible_result(chromium: Any, tmp_path: Path) -> None:
    """KEIRIN's length field has the options model's bounds; a refusal goes at the next
    change of a field; the result's scrolling boxes pass axe (reachable and named)."""
    from tests.browser.a11y import assert_accessible

    from raceday.web.server import background_server

    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{base}numbers")
        length = page.locator("#nm-length")
        page.wait_for_function("() => document.querySelector('#nm-length')?.min === '19'")
        assert length.get_attribute("max") == "1000"
        length.evaluate("input => input.removeAttribute('min')")  # past the page's own check
        length.fill("5")
        page.locator("#form-keirin button[type=submit]").click()
        alert = page.locator("p.error[role=alert]")
        page.wait_for_function("() => document.querySelector('p.error[role=alert]')"
                               ".textContent.includes('length')")
        length.fill("19")
        assert alert.inner_text() == ""
        page.locator("#nm-riders").select_option("6")
        page.locator("#form-keirin button[type=submit]").click()
        page.wait_for_selector("#t-trifecta", timeout=120_000)
        for box in (".chart-box", ".table-box"):
            assert page.locator(box).first.get_attribute("tabindex") == "0"
        assert_accessible(page, "numbers with KEIRIN odds at 390")
        # on a TV the tables are as wide as their columns, side by side, in bigger text
        page.set_viewport_size({"width": 1920, "height": 1080})
        tables = page.locator(".result table").evaluate_all("""(ts) => ts.map((t) => {
            const r = t.getBoundingClientRect(), td = t.querySelector('td');
            return [r.top, r.width, parseFloat(getComputedStyle(td).fontSize)]; })""")
        assert max(w for _y, w, _s in tables) < 700, tables  # not 1,700 px of one row
        assert len({round(y) for y, _w, _s in tables}) < len(tables), tables  # side by side
        assert min(s for _y, _w, s in tables) >= 22, tables
        page.close()
