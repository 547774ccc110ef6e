"""axe-core (through axe-playwright-python) on a page as it is now: every browser test that
reaches a phase of a game calls :func:`assert_accessible` there, so every page is checked in
every phase it shows. Serious and critical violations fail the test; minor and moderate ones
are the authors' to judge."""

from __future__ import annotations

from typing import Any

BLOCKING = ("serious", "critical")


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


def violations(page: Any, impacts: tuple[str, ...] = BLOCKING) -> list[str]:
    """The page's axe violations of the given impacts, one readable line each (rule, impact,
    the first few offending elements)."""
    from axe_playwright_python.sync_playwright import Axe

    settle_animations(page)
    results = Axe().run(page)
    lines: list[str] = []
    for violation in results.response["violations"]:
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
