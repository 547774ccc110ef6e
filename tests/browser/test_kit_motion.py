"""The kit's small page helpers in Chromium: motion.js slides a piece from where it was to
where it is drawn now (and does nothing for a reader who asked for reduced motion), and
common.js's worded() rewords a line from its kept facts after a language switch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
SLIDE = """async () => {
  const m = await import("/static/js/motion.js");
  const piece = document.createElement("div");
  piece.style.cssText = "position: absolute; left: 200px; top: 100px; width: 20px; height: 20px";
  document.body.append(piece);
  const moving = m.animateMove(piece, {x: 40, y: 300}, m.where(piece), 1000);
  if (!moving) return null;
  moving.pause();
  moving.currentTime = 0;
  const start = m.where(piece);
  moving.currentTime = 1000;
  const end = m.where(piece);
  return {start, end, still: m.animateMove(piece, m.where(piece), m.where(piece))};
}"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("motion") / "party.sqlite"
    with background_server(create_app(db)) as url:
        yield url


def test_a_piece_slides_from_where_it_was(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}nosuchpage", motion=True)
    page.locator("button.lang").wait_for()
    got = page.evaluate(SLIDE)
    assert got["start"] == {"x": 40, "y": 300}  # drawn where it was at first
    assert got["end"] == {"x": 200, "y": 100}  # and where it is at the end
    assert got["still"] is None  # nothing to move: no animation


def test_reduced_motion_moves_nothing(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}nosuchpage")  # reduced motion, as a person asked
    page.locator("button.lang").wait_for()
    assert page.evaluate(SLIDE) is None


def test_a_worded_line_follows_the_language(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}nosuchpage")
    page.locator("button.lang").wait_for()
    page.evaluate("""async () => {
      const { worded } = await import("/static/js/common.js");
      const { t } = await import("/static/js/i18n.js");
      const line = worded(document.createElement("p"));
      line.node.id = "line";
      document.querySelector("main").append(line.node);
      const event = {key: "event.again", params: {}};  // kept as a fact, not a string
      line.set(() => t(event.key, event.params));
    }""")
    assert page.locator("#line").inner_text() == "A new game with the same seats"
    page.locator("button.lang").click()
    page.locator("#line", has_text="同じ席で新しいゲーム").wait_for()
