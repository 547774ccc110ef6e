"""The pages every game shares: the landing page, replays, numbers, print, not found."""

from __future__ import annotations

from typing import Any


def scenes(shot: Any) -> None:
    for path, phase in [("/", "landing"), ("/replay", "replays"), ("/numbers", "numbers"),
                        ("/print", "print"), ("/nosuchpage", "notfound")]:
        for page in shot.pair(path):
            page.wait_for_load_state("networkidle")
            shot.snap(page, phase)
            page.context.close()
