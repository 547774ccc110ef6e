"""KEIRIN's finale in the hardest case, a pool night where every pool was refunded and all
seven players tie: the TV at 1920x1080 shows the whole finale (one "=1st" step with the
seven names, the awards, Play again) without scrolling, text of 28 px or more, in English
and Japanese; the host on a 390x844 phone and a player's phone reach it without sideways
scrolling; the awards say the tie and give no "Biggest return" for refunded stakes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import wait_for_style_sheets
from keirin_ties import NAMES, store_tied_night
from shots import keep_shot

from raceday.web.app import create_app
from raceday.web.server import background_server

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

# Every box of the finale (and the page's own size) against the viewport, and the smallest
# font of any text in it.
MEASURE = """() => {
  const finale = document.querySelector(".finale");
  const boxes = [...finale.querySelectorAll("*")].map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  const texts = [...finale.querySelectorAll("*")].filter((e) =>
    [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()));
  return {
    bottom: Math.max(...boxes.map((r) => r.bottom)), right: Math.max(...boxes.map((r) => r.right)),
    top: Math.min(...boxes.map((r) => r.top)), left: Math.min(...boxes.map((r) => r.left)),
    scrollHeight: document.documentElement.scrollHeight,
    scrollWidth: document.documentElement.scrollWidth,
    smallest: Math.min(...texts.map((e) => parseFloat(getComputedStyle(e).fontSize))),
  };
}"""


@pytest.fixture(scope="module")
def tied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str, list[str]]]:
    db: Path = tmp_path_factory.mktemp("ties") / "party.sqlite"
    code, host, seats = store_tied_night(db)
    with background_server(create_app(db), host="127.0.0.1") as url:
        yield url, code, host, seats


def open_finale(open_page: Any, url: str, path: str, storage: dict[str, str],
                viewport: dict[str, int], lang: str) -> Any:
    page = open_page(viewport, f"{url}{path}", storage={**storage, "raceday.lang": lang})
    page.console_errors = []
    page.on("console", lambda m: page.console_errors.append(m.text)
            if m.type == "error" else None)
    page.locator(".finale .podium .step").wait_for()
    return page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_seven_way_tie_fits_the_tv(tied: tuple[str, str, str, list[str]],
                                       open_page: Any, lang: str) -> None:
    url, code, host, _ = tied
    tv = open_finale(open_page, url, f"host/{code}", {f"raceday.host.{code}": host}, TV, lang)
    keep_shot(tv, f"keirin/finale-tie-1920-{lang}.png")
    steps = tv.locator(".podium .step")
    assert steps.count() == 1  # one shared step, not seven
    assert steps.locator(".step-name").all_inner_texts() == NAMES
    assert steps.locator(".step-place").inner_text() == ("=1st" if lang == "en" else "同率1着")
    size = tv.evaluate(MEASURE)
    assert size["scrollHeight"] <= TV["height"] and size["scrollWidth"] <= TV["width"]
    assert size["top"] >= 0 and size["left"] >= 0
    assert size["bottom"] <= TV["height"] and size["right"] <= TV["width"], size
    assert size["smallest"] >= 28, size
    again = tv.locator("button.again").bounding_box()
    assert again is not None and again["y"] + again["height"] <= TV["height"]
    if lang == "en":
        assert tv.locator(".kr-heading").inner_text().startswith("The night is over")
        awards = tv.locator(".finale .awards li")
        assert awards.count() == 1  # refunds returned nothing won, nobody hit a ticket
        boldest = awards.first.inner_text()
        assert boldest.startswith("Boldest bettor") and "Tied, each 100.00" in boldest
        assert all(name in boldest for name in NAMES)
    assert tv.js_errors == [] and tv.console_errors == []


def test_the_seven_way_tie_is_reachable_on_phones(tied: tuple[str, str, str, list[str]],
                                                  open_page: Any) -> None:
    url, code, host, seats = tied
    for path, storage, who in ((f"host/{code}", {f"raceday.host.{code}": host}, "host"),
                               (f"play/{code}", {f"raceday.seat.{code}": seats[0]}, "play")):
        page = open_finale(open_page, url, path, storage, PHONE, "en")
        keep_shot(page, f"keirin/finale-tie-390-{who}.png", full_page=True)
        size = page.evaluate(MEASURE)
        assert size["scrollWidth"] <= PHONE["width"] and size["right"] <= PHONE["width"]
        last = page.locator("button.again" if who == "host" else ".finale-wait")
        last.scroll_into_view_if_needed()
        box = last.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        assert page.js_errors == [] and page.console_errors == []


# The header grows by 9 px (as when the game's style sheet or a font arrives after the
# first drawing), measured in the same task, before any script could resize the screen.
GROWN = """() => {
  document.querySelector("header.bar").style.paddingBottom = "9px";
  return { bottom: document.querySelector(".kr-tv").getBoundingClientRect().bottom,
           again: document.querySelector("button.again").getBoundingClientRect().bottom,
           scrollHeight: document.documentElement.scrollHeight };
}"""


def test_the_tv_fits_in_the_same_layout_as_a_header_that_grows(
        tied: tuple[str, str, str, list[str]], open_page: Any) -> None:
    """KEIRIN's screen is the window below the header in the layout itself: a header that
    grows never pushes it (or Play again) past the window's bottom, not even for a frame."""
    url, code, host, _ = tied
    tv = open_finale(open_page, url, f"host/{code}", {f"raceday.host.{code}": host}, TV, "ja")
    wait_for_style_sheets(tv)
    grown = tv.evaluate(GROWN)
    assert grown["bottom"] <= TV["height"] + 0.5, grown
    assert grown["again"] <= TV["height"] and grown["scrollHeight"] <= TV["height"], grown
