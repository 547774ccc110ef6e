"""finale.js in Chromium: the podium shows 1st, 2nd and 3rd (2nd, 1st, 3rd from left to
right; listed 1st first for a screen reader), players tied share a step, the awards and the
host's "Play again (same seats)" button, which sends {type: "again"} and shows a refusal in
words; a language switch redraws it; it fits a 1920x1080 TV with text of 28 px or more and
a 360 px phone without sideways scrolling; the steps rise in unless the reader asked for
reduced motion; axe finds nothing serious."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import assert_accessible, wait_for_style_sheets

from raceday.web.app import create_app
from raceday.web.server import background_server

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 360, "height": 740}

FINALE = {
    "podium": [
        {"place": 1, "name": "Aki", "seat": 0, "who": None, "detail": None},
        {"place": 2, "name": "easy computer", "seat": None,
         "who": {"key": "finale_computer", "params": {"level": {"key": "level_easy",
                                                                "params": {}}}},
         "detail": {"key": "place_n", "params": {"n": 7}}},
        {"place": 3, "name": "Bartholomew-Christopherson", "seat": 1, "who": None,
         "detail": None},
        {"place": 3, "name": "Chie", "seat": 2, "who": None, "detail": None},
    ],
    "awards": [{"title": {"key": "finale_awards", "params": {}}, "name": "Chie", "seat": 2,
                "detail": None}],
    "again": True,
}

# Draw the finale into <main> of the page (a TV page when `big`); `send` records each intent
# in window.sent and refuses the first one when `refuse` (as the server would, in words).
DRAW = """async ([finale, isHost, big, refuse, seat]) => {
  const { drawFinale } = await import("/static/js/finale.js");
  if (big) document.body.className = "big";
  window.sent = [];
  const send = (intent) => {
    window.sent.push(intent);
    return refuse && window.sent.length === 1
      ? Promise.reject(new Error("the game is not over yet")) : Promise.resolve({});
  };
  const main = document.querySelector("main");
  main.replaceChildren(drawFinale(finale, { isHost, send, seat }));
}"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("finale") / "party.sqlite"
    with background_server(create_app(db)) as url:
        yield url


def show(open_page: Any, base: str, viewport: dict[str, int], *, host: bool = True,
         refuse: bool = False, seat: int | None = None, reduced: bool = False) -> Any:
    page = open_page(viewport, f"{base}nosuchpage", motion=not reduced)
    page.locator("#lang button").wait_for()
    page.evaluate(DRAW, [FINALE, host, viewport is TV, refuse, seat])
    page.locator(".finale h2").wait_for()
    # the steps have risen in (axe would read a half-faded step as too faint)
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    return page


def test_the_tv_shows_the_podium_in_order_and_fits(open_page: Any, base: str) -> None:
    page = show(open_page, base, TV)
    steps = page.locator(".podium > li")
    assert steps.count() == 3  # the two thirds share a step
    assert [steps.nth(i).get_attribute("data-place") for i in range(3)] == ["1", "2", "3"]
    boxes = [steps.nth(i).bounding_box() for i in range(3)]
    first, second, third = boxes
    assert second["x"] < first["x"] < third["x"]  # 2nd, 1st, 3rd from the left
    blocks = [steps.nth(i).locator(".step-block").bounding_box()["height"] for i in range(3)]
    assert blocks[0] > blocks[1] > blocks[2]  # the winner stands highest
    assert "1st" in steps.nth(0).inner_text() and "Aki" in steps.nth(0).inner_text()
    assert "Computer (easy)" in steps.nth(1).inner_text()
    assert "7th" in steps.nth(1).inner_text()  # the detail, worded
    third_text = steps.nth(2).inner_text()
    assert "Bartholomew-Christopherson" in third_text and "Chie" in third_text
    assert page.locator(".finale .awards li").inner_text().startswith("Awards")
    wait_for_style_sheets(page)
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                         "'.podium .step-name')).fontSize)")
    assert size >= 28
    fits = page.evaluate("document.documentElement.scrollHeight <= innerHeight && "
                         "document.documentElement.scrollWidth <= innerWidth")
    assert fits
    assert_accessible(page, "finale TV host")
    assert page.js_errors == []


def test_the_host_plays_again_and_a_refusal_is_worded(open_page: Any, base: str) -> None:
    page = show(open_page, base, TV, refuse=True)
    button = page.get_by_role("button", name="Play again (same seats)")
    button.click()
    alert = page.locator(".finale [role=alert]")
    alert.filter(has_text="the game is not over yet").wait_for()
    assert page.evaluate("window.sent") == [{"type": "again"}]
    assert button.is_enabled()
    assert page.evaluate("document.activeElement.classList.contains('again')")
    button.click()
    page.locator(".finale button.again:disabled").wait_for()  # sent: no second "again"
    assert page.evaluate("window.sent[1]") == {"type": "again"}
    assert_accessible(page, "finale TV after a refusal")


def test_a_phone_sees_no_button_but_its_own_name_and_fits(open_page: Any, base: str) -> None:
    page = show(open_page, base, PHONE, host=False, seat=2)
    assert page.get_by_role("button", name="Play again (same seats)").count() == 0
    assert "start another game" in page.locator(".finale-wait").inner_text()
    assert page.locator(".finale-you").count() == 2  # on the podium and the award
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    steps = [page.locator(".podium > li").nth(i).bounding_box() for i in range(3)]
    assert all(b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"] for b in steps)
    assert_accessible(page, "finale phone")


def test_a_language_switch_redraws_the_finale(open_page: Any, base: str) -> None:
    page = show(open_page, base, TV)
    page.locator("#lang button").click()
    page.locator(".finale h2", has_text="表彰台").wait_for()
    assert page.get_by_role("button", name="もう一度（同じ席で）").count() == 1
    assert "コンピューター（やさしい）" in page.locator(".podium > li").nth(1).inner_text()
    assert "1着" in page.locator(".podium > li").nth(0).inner_text()
    # re-worded, not played again: the steps stand still, also when the page draws the same
    # finale anew (as the games' screens do on a switch)
    rising = "getComputedStyle(document.querySelector('.podium .step-1')).animationName"
    assert page.evaluate(rising) == "none"
    page.evaluate(DRAW, [FINALE, True, True, False, None])
    assert page.evaluate(rising) == "none"
    assert_accessible(page, "finale TV in Japanese")


def test_the_steps_rise_in_unless_motion_is_reduced(open_page: Any, base: str) -> None:
    animation = ("getComputedStyle(document.querySelector('.podium .step-1'))"
                 ".animationName")
    moving = show(open_page, base, TV)
    assert moving.evaluate(animation) == "finale-rise"
    still = show(open_page, base, TV, reduced=True)
    assert still.evaluate(animation) == "none"


def test_an_abandoned_game_says_there_is_no_result(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}nosuchpage")
    page.locator("#lang button").wait_for()
    page.evaluate(DRAW, [{"podium": [], "awards": [], "again": True}, True, False, False,
                         None])
    text = page.locator(".finale").inner_text()
    assert "ended early" in text and "null" not in text  # no empty part shows as text
    assert page.get_by_role("button", name="Play again (same seats)").count() == 1
