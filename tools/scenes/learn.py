"""The lessons (/learn and /learn/<game>): the list, then every step of every game's lesson
as it opens and once its expected move is played (the board's answer and the reason), the
first step after a wrong try (the hint), and the last step's first game."""

from __future__ import annotations

from typing import Any

import httpx

from raceday.core.lesson import load_lesson


def scenes(shot: Any) -> None:
    page = shot.page("tv", "learn")
    page.locator(".learn-games a").first.wait_for()
    shot.snap(page, "list", scroll="top")
    page.context.close()
    games = [g["game"] for g in httpx.get(shot.url("api/learn"), timeout=30).json()["games"]]
    for game in games:
        lesson = load_lesson(game)
        for number, step in enumerate(lesson.steps, start=1):
            page = shot.page("tv", f"learn/{game}", "en",
                             {f"raceday.learn.{game}": str(number)})
            page.locator("#learn-step-title").wait_for()
            phase = f"{game}-{number:02d}"
            if step.play is not None:
                shot.snap(page, f"{phase}-play", scroll="top")
                page.context.close()
                continue
            page.locator(".learn-move").first.wait_for()
            shot.snap(page, phase, scroll="top")
            if number == 1:  # a wrong try: the hint
                names = page.eval_on_selector_all(
                    ".learn-move", "(bs) => bs.map((b) => b.dataset.move)")
                others = [n for n in names if n not in step.expect]
                if others:
                    page.locator(f'.learn-move[data-move="{others[0]}"]').click()
                    page.locator(".learn-wrong").wait_for()
                    shot.snap(page, f"{phase}-wrong", scroll="#learn-feedback")
            page.locator(f'.learn-move[data-move="{step.expect[0]}"]').click()
            page.locator("#learn-next, #learn-all").first.wait_for()
            shot.snap(page, f"{phase}-right", scroll="#learn-feedback")
            page.context.close()
