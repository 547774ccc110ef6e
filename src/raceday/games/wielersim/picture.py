"""The road around the front as a picture in text: riders by number and team colour.

The road runs left to right; the six lanes are drawn top (left side of the road) to
bottom (right side). Above the road: squares to go, markers and the section colours.
Drawn from what a race shows (:class:`RoadView`), so the state's own ``str`` and the
terminal share it without the rules importing a face.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.cells import cell_len
from rich.text import Text

from raceday.games.wielersim.model import COBBLES, EMPTY, TYPE_COLOURS, UPHILL
from raceday.games.wielersim.peloton import Peloton
from raceday.games.wielersim.route import CompiledRoute
from raceday.present import render

GAME = "wielersim"

CELL = 3
TYPE_STYLE = {"yellow": "yellow", "red": "red", "green": "green", "blue": "blue"}


class RoadView(Protocol):
    """What the picture reads of a race (a :class:`~.rules.WielersimState` has it all)."""

    @property
    def route(self) -> CompiledRoute: ...

    @property
    def peloton(self) -> Peloton: ...

    @property
    def rough(self) -> Sequence[Sequence[int]]: ...

    @property
    def cells(self) -> Sequence[Sequence[int]]: ...

    @property
    def pos(self) -> Sequence[int]: ...

    @property
    def n(self) -> int: ...

    def on_road(self) -> list[int]: ...


def window(state: RoadView, width: int) -> tuple[int, int]:
    """The squares drawn: ending a few squares past the front rider on the road."""
    road = state.on_road() or list(range(state.n))
    front = max(state.pos[r] for r in road)
    end = min(len(state.route.road) - 1, front + 4)
    start = max(0, end - width + 1)
    return start, end


def draw_road(state: RoadView, width: int = 30, lang: str = "en") -> Text:
    """The road from ``width`` squares behind the front to just past it."""
    route = state.route
    start, end = window(state, width)
    squares = range(start, end + 1)
    lanes = [render("road.lane", lang, GAME, {"lane": lane}) for lane in range(6)]
    to_go = render("road.ruler", lang, GAME)
    # the lanes' labels make a column; the ruler's numbers end one cell further left
    label = max(cell_len(to_go) + 2, *(cell_len(text) + 1 for text in lanes))
    out = Text()
    ruler = Text(pad(to_go, label - 1), style="dim")
    for p in squares:
        ruler.append(f"{route.distance - p:>{CELL}}" if (route.distance - p) % 5 == 0
                     else " " * CELL, style="dim")
    out.append_text(ruler)
    out.append("\n")
    marks = Text(" " * label)
    sprint_lines = set(route.sprints)
    tops = {c.top: c for c in route.climbs}
    for p in squares:
        if p == route.distance:
            marks.append(" F ", style="bold white on black")
        elif p in sprint_lines:
            marks.append(" S ", style="bold green")
        elif p in tops:
            cat = tops[p].category or "-"
            marks.append(f"^{cat:<2}", style="bold red")
        else:
            marks.append(" " * CELL)
    out.append_text(marks)
    out.append("\n")
    colours = Text(" " * label)
    for p in squares:
        colours.append("▀" * CELL, style=TYPE_STYLE[TYPE_COLOURS[route.colour[p]]])
    out.append_text(colours)
    out.append("\n")
    riders = state.peloton.riders
    team_colour = state.peloton.team_colours
    for lane in range(6):
        line = Text(pad(lanes[lane], label), style="dim")
        for p in squares:
            r = state.cells[p][lane]
            on_road = lane < route.width[p]
            if r != EMPTY:
                style = f"bold {team_colour[riders[r].team]}"
                line.append(f"{riders[r].number:>{CELL}}", style=style)
            elif not on_road:
                line.append(" " * CELL)
            elif route.road[p] == UPHILL:
                line.append(f"{-route.steepness[p]:>{CELL}}", style="red dim")
            elif route.road[p] == COBBLES:
                rough = state.rough[p][lane] if state.rough else 0
                line.append(f"{-rough:>{CELL}}", style="grey50")
            else:
                line.append("  ·", style="grey30")
        out.append_text(line)
        out.append("\n")
    return out


def pad(text: str, cells: int) -> str:
    """``text`` followed by spaces to fill ``cells`` terminal cells (wide letters count two)."""
    return text + " " * max(0, cells - cell_len(text))
