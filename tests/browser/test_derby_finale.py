"""Dice Derby's finale in the hardest case, an evening that ties all seven players: the TV
at 1920x1080 shows everything (one "=1st" step with the seven names, the award, Play
again, the final standings) inside the screen, text of 28 px or more, in English and
Japanese; the host on a 390x844 phone reaches Play again without sideways scrolling."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import wait_for_style_sheets
from derby_ties import store_tied_evening
from keirin_ties import NAMES
from shots import keep_shot
from test_keirin_finale import PHONE, TV, open_finale
from tv_text import small_tv_text

from raceday.web.app import create_app
from raceday.web.server import background_server

# Every box drawn on the page that reaches outside the viewport (screen-reader text, a
# pixel wide, aside), and the page's own size.
OUTSIDE = """() => {
  const out = [];
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || e.getClientRects().length === 0) continue;
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1)
      out.push(`${e.tagName}.${e.className} ${Math.round(r.right)}x${Math.round(r.bottom)}`);
  }
  const d = document.documentElement;
  return {outside: out.slice(0, 5), scrollHeight: d.scrollHeight, scrollWidth: d.scrollWidth};
}"""


@pytest.fixture(scope="module")
def tied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    db: Path = tmp_path_factory.mktemp("derby-ties") / "party.sqlite"
    code, host, _seats = store_tied_evening(db)
    with background_server(create_app(db), host="127.0.0.1") as url:
        yield url, code, host


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_seven_way_tie_fits_the_tv(tied: tuple[str, str, str], open_page: Any,
                                       lang: str) -> None:
    url, code, host = tied
    tv = open_finale(open_page, url, f"host/{code}", {f"raceday.host.{code}": host}, TV, lang)
    tv.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    keep_shot(tv, f"derby/finale-tie-1920-{lang}.png")
    steps = tv.locator(".podium .step")
    assert steps.count() == 1  # one shared step, not seven
    assert steps.locator(".step-name").all_inner_texts() == NAMES
    assert steps.locator(".step-place").inner_text() == ("=1st" if lang == "en" else "同率1着")
    assert tv.locator(".dd-standings tbody tr").count() == len(NAMES)
    size = tv.evaluate(OUTSIDE)
    assert size["outside"] == [], size
    assert size["scrollHeight"] <= TV["height"] and size["scrollWidth"] <= TV["width"], size
    assert small_tv_text(tv) == []
    again = tv.locator("button.again").bounding_box()
    assert again is not None and again["y"] + again["height"] <= TV["height"]
    assert tv.js_errors == [] and tv.console_errors == []


def test_the_seven_way_tie_is_reachable_on_the_hosts_phone(tied: tuple[str, str, str],
                                                            open_page: Any) -> None:
    url, code, host = tied
    page = open_finale(open_page, url, f"host/{code}", {f"raceday.host.{code}": host},
                       PHONE, "ja")
    keep_shot(page, "derby/finale-tie-390-host-ja.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    again = page.locator("button.again")
    again.scroll_into_view_if_needed()
    box = again.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert page.js_errors == [] and page.console_errors == []


# The header grows by 9 px (as it does when the game's style sheet or a font arrives after
# the first drawing) and the screen is measured in the same task, before any observer's
# callback could run: the screen's bottom and the page's height then.
GROWN = """() => {
  document.querySelector("header.bar").style.paddingBottom = "9px";
  const bottom = document.querySelector(".dd-tv").getBoundingClientRect().bottom;
  return { bottom, scrollHeight: document.documentElement.scrollHeight };
}"""


def test_the_tv_fits_in_the_same_layout_as_a_header_that_grows(
        tied: tuple[str, str, str], open_page: Any) -> None:
    """The Derby's screen is the window below the header in the layout itself: a header
    that grows (the Japanese finale once ran to 1089 px under load) never pushes it past
    the window's bottom, not even for a frame."""
    url, code, host = tied
    tv = open_finale(open_page, url, f"host/{code}", {f"raceday.host.{code}": host}, TV, "ja")
    wait_for_style_sheets(tv)
    before = tv.evaluate(OUTSIDE)
    assert before["scrollHeight"] <= TV["height"], before
    grown = tv.evaluate(GROWN)
    assert grown["bottom"] <= TV["height"] + 0.5 and grown["scrollHeight"] <= TV["height"], grown
    again = tv.locator("button.again").bounding_box()
    assert again is not None and again["y"] + again["height"] <= TV["height"]
