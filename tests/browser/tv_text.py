"""The TV read from a sofa: every text node on the page (header included) drawn at 28 px
or more at 1920×1080. SVG text counts at the size it is drawn (its font size times the
drawing's scale); text kept for screen readers only (clipped to a pixel) and figures
marked aria-hidden (a runner's shape glyph) are not read from the sofa."""

from __future__ import annotations

from typing import Any

TV_TEXT_MIN_PX = 28

SMALL_TEXT = """(least) => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const owner = node.parentElement;
    if (!owner || owner.closest('[aria-hidden="true"], script, style, title')) continue;
    if (!owner.checkVisibility({ opacityProperty: false, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // a screen reader's text
    let size = parseFloat(getComputedStyle(owner).fontSize);
    if (owner instanceof SVGElement) {
      const m = owner.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    if (size < least - 0.01)
      small.push(`${owner.tagName}.${owner.getAttribute('class')} ${size.toFixed(1)}px ` +
                 `"${node.textContent.trim().slice(0, 30)}"`);
  }
  return small;
}"""


def small_tv_text(page: Any) -> list[str]:
    """Every visible text on ``page`` drawn smaller than 28 px, one line each."""
    found: list[str] = page.evaluate(SMALL_TEXT, TV_TEXT_MIN_PX)
    return found
