"""A tiny game loop for the terminal kit's tests: a counter races to 5.

Each turn adds 1 or 2 (or 'skip' adds nothing); undo takes back the last step; a secret word
is asked first. The board is a function of its space, so a full-screen view redraws it on
resize; each choice's preview marks where the counter would land.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from rich.text import Text

from raceday.terminal.surface import UNDO, Choice, Prompt, Surface

GOAL = 5


def track(total: int, target: int | None = None) -> Callable[[int, int], RenderableType]:
    def draw(width: int, height: int) -> RenderableType:
        cells = []
        for square in range(GOAL + 1):
            mark = "@" if square == total else ("*" if square == target else ".")
            cells.append(f"[{mark}]")
        lines = [" ".join(cells), f"space {width}x{height}"]
        if target is not None:
            lines.append(f"preview: to {target}")
        return Text("\n".join(lines))

    return draw


def toy_main(surface: Surface, *, secret: bool = True) -> int:
    """Race to 5; exit code 0 on 5 exactly, 3 on overshooting."""
    total = 0
    steps: list[int] = []
    surface.say("Race to 5!")
    if secret:
        word = surface.ask(Prompt("Secret word: ", secret=True, help="Any word; it stays hidden."))
        surface.say(f"The secret has {len(word)} letters.")
    while total < GOAL:
        surface.board(track(total))
        surface.status(f"Counter at {total}")
        surface.moves([f"{i + 1}. +{step}" for i, step in enumerate(steps)])
        choices = [Choice(str(n), f"+{n} to {total + n}", preview=track(total, total + n))
                   for n in (1, 2)] + [Choice("skip", "skip a turn")]
        answer = surface.ask(Prompt("Step (1, 2 or skip): ", choices=choices,
                                    help="Add 1 or 2 to the counter, or skip.", undo=True))
        if answer == UNDO:
            if steps:
                total -= steps.pop()
                surface.say("Took back a step.")
            else:
                surface.say("Nothing to take back here.")
            continue
        if answer == "skip":
            steps.append(0)
            continue
        if answer not in ("1", "2"):
            surface.say(f"Not a step: {answer}")
            continue
        steps.append(int(answer))
        total += int(answer)
    surface.board(track(total))
    surface.say(f"Reached {total} in {len(steps)} steps.")
    return 0 if total == GOAL else 3
