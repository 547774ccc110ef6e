"""axe-core (through axe-playwright-python) on a page as it is now: every browser test that
reaches a phase of a game calls :func:`assert_accessible` there, so every page is checked in
every phase it shows. Serious and critical violations fail the test; minor and moderate ones
are the authors' to judge."""

from __future__ import annotations

import functools
import json
from typing import Any

BLOCKING = ("serious", "critical")


def wait_for_style_sheets(page: Any) -> None:
    """Wait until every style sheet linked in the page has loaded: a game's sheet is added
    by its module when a room of that game is drawn, and on a busy machine it may still be
    on its way when the elements it styles are already there (a size or a colour measured
    then is the page's plain one)."""
    page.wait_for_function("() => [...document.querySelectorAll('link[rel=stylesheet]')]"
                           ".every((link) => link.sheet !== null)")


def turn_to(page: Any, viewport: dict[str, int]) -> None:
    """Turn ``page`` to another screen size and wait until it is laid out and drawn at it
    (two animation frames), so one walk through a page can check it at every size."""
    page.set_viewport_size(viewport)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() =>"
                  " requestAnimationFrame(done)))")


def settle_animations(page: Any) -> None:
    """Wait until every finite CSS animation and transition on the page has ended, so axe
    measures colours as the reader finally sees them, not half-way through a fade (a podium
    step rising from opacity 0 reads as low contrast). Endless ones (a thinking pulse) are left
    running; a few rounds catch an animation that a re-render starts meanwhile."""
    for _ in range(5):
        pending = page.evaluate(
            """async () => {
                const finite = document.getAnimations().filter(a => {
                    const end = a.effect ? a.effect.getComputedTiming().endTime : 0;
                    return a.playState === 'running' && Number.isFinite(end);
                });
                await Promise.all(finite.map(a => a.finished.catch(() => null)));
                return finite.length;
            }"""
        )
        if not pending:
            return


@functools.cache
def _axe_script() -> str:
    from axe_playwright_python.sync_playwright import Axe

    return str(Axe().axe_script)


def _axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on ``page``, as axe-playwright-python's ``Axe().run`` finds
    them, with axe's script put into the page only once (it is half a megabyte, and a test
    checks the same page in every phase)."""
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS

    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_script())
    found: list[dict[str, Any]] = page.evaluate(
        f"axe.run({json.dumps(DEFAULT_OPTIONS)}).then(results => results)")["violations"]
    return found


def violations(page: Any, impacts: tuple[str, ...] = BLOCKING) -> list[str]:
    """The page's axe violations of the given impacts, one readable line each (rule, impact,
    the first few offending elements)."""
    wait_for_style_sheets(page)
    settle_animations(page)
    lines: list[str] = []
    for violation in _axe_violations(page):
        if violation.get("impact") not in impacts:
            continue
        targets = [" ".join(map(str, node.get("target", []))) for node in violation["nodes"][:4]]
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']} "
                     f"at {'; '.join(targets)}")
    return lines


def assert_accessible(page: Any, where: str) -> None:
    """No serious or critical axe violation on ``page`` now; ``where`` names the page and
    phase in the failure message."""
    found = violations(page)
    assert not found, f"axe on {where}:\n" + "\n".join(found)
