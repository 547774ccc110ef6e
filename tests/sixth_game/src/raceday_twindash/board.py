"""The board in the terminal: two lanes, the purses and who has sealed, drawn from the
state's :meth:`~raceday_twindash.rules.TwinDashState.frame` (the data the browser's
``static/frame.js`` draws), so play, watch and ``raceday replay`` show the same board."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from raceday.present import render
from raceday_twindash.rules import GAME_NAME

STYLES = ("bold red", "bold blue", "bold green", "bold yellow")
LABEL = 6  # columns of a lane's label (the runner's name)


def board(frame: Mapping[str, Any], lang: str,
          chances: Sequence[Fraction] | None = None) -> Callable[[int, int], RenderableType]:
    """The board of ``frame`` in ``lang`` as a function of the space it gets: one lane a
    runner (a square a column, squeezed to fit a narrow terminal), its square and purse,
    and, with ``chances`` (:meth:`~raceday_twindash.rules.TwinDashState.further_chances`),
    each runner's chance to move furthest this round and the chance of a tie."""

    def draw(width: int, height: int) -> RenderableType:
        length = int(frame["length"])
        cells = max(8, min(length + 1, width - LABEL - 2))
        out = Text()
        out.append(render("ui.round", lang, GAME_NAME, {"round": frame["round"],
                                                        "rounds": frame["rounds"]}),
                   style="bold")
        for runner in frame["runners"]:
            name = render(runner["name"], lang, GAME_NAME)
            square = min(int(runner["square"]), length)
            at = round(square * (cells - 1) / length)
            lane = ["·"] * cells
            lane[-1] = "|"
            lane[at] = name[:1]
            style = STYLES[int(runner["id"]) % len(STYLES)]
            out.append("\n")
            out.append(f"{name[:LABEL - 1]:<{LABEL}}", style=style)
            out.append("".join(lane[:at]))
            out.append(lane[at], style=f"reverse {style}")
            out.append("".join(lane[at + 1:]))
            purse = render("ui.purse", lang, GAME_NAME, {"chips": runner["chips"],
                                                          "square": runner["square"],
                                                          "length": length})
            odds = ("" if chances is None else render(
                "ui.odds", lang, GAME_NAME, {"chance": str(chances[int(runner["id"])])}))
            sealed = render("ui.sealed", lang, GAME_NAME) if runner["sealed"] else ""
            out.append(f"\n{'':<{LABEL}}{purse} {odds} {sealed}".rstrip(), style="dim")
        if chances is not None:
            out.append("\n" + render("ui.tie_odds", lang, GAME_NAME,
                                     {"tie": str(chances[-1])}), style="dim")
        return out

    return draw
