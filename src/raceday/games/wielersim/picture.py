"""The road around the front as a picture in text: riders by number and team colour.

The road runs left to right; the six lanes are drawn top (left side of the road) to
bottom (right side). Above the road: squares to go, markers and the section colours.
Drawn from what a race shows (:class:`RoadView`), so the plain-text picture
(:func:`text_picture`) and the terminal share it without the rules importing a face.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from rich.cells import cell_len
from rich.text import Text

from raceday.games.wielersim.model import COBBLES, EMPTY, TYPE_COLOURS, UPHILL
from raceday.games.wielersim.peloton import Peloton
from raceday.games.wielersim.route import CompiledRoute
from raceday.present import render

if TYPE_CHECKING:
    from raceday.games.wielersim.rules import WielersimState

GAME = "wielersim"

CELL = 3

# the free square of a cobbled lane, by its roughness (what it takes off a throw)
ROUGH_GLYPHS = {0: "·", 1: "░", 2: "▒", 3: "▓", 4: "█"}
FREE = "·"
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


def road_labels(lang: str) -> tuple[list[str], str, str, int]:
    """The lanes', ruler's and terrain row's labels in ``lang``, and the width of their column."""
    lanes = [render("road.lane", lang, GAME, {"lane": lane}) for lane in range(6)]
    to_go = render("road.ruler", lang, GAME)
    terrain = render("road.terrain", lang, GAME)
    # the labels make a column; the ruler's numbers end one cell further left
    label = max(cell_len(to_go) + 2, cell_len(terrain) + 1, *(cell_len(t) + 1 for t in lanes))
    return lanes, to_go, terrain, label


def road_text(state: RoadView, squares: int = 24, lang: str = "en") -> Text:
    """The road from ``squares`` squares behind the front to just past it: the ruler (squares
    to go), the marks (S sprint, ^1 climb top with its category, F finish), the sections'
    colours, the terrain row (/5 a climb's steepness, ## cobbles), then the six lanes with
    riders and free squares (see the module text)."""
    route = state.route
    start, end = window(state, squares)
    shown = range(start, end + 1)
    lanes, to_go, terrain, label = road_labels(lang)
    out = Text()
    ruler = Text(pad(to_go, label - 1), style="dim")
    for p in shown:
        ruler.append(f"{route.distance - p:>{CELL}}"
                     if (route.distance - p) % 5 == 0 and p <= route.distance
                     else " " * CELL, style="dim")
    out.append_text(ruler)
    out.append("\n")
    marks = Text(" " * label)
    sprint_lines = set(route.sprints)
    tops = {c.top: c for c in route.climbs}
    for p in shown:
        if p == route.distance:
            marks.append(" F ", style="bold white on black")
        elif p in sprint_lines:
            marks.append(" S ", style="bold green")
        elif p in tops:
            marks.append(f"^{tops[p].category or '-':<2}", style="bold red")
        else:
            marks.append(" " * CELL)
    out.append_text(marks)
    out.append("\n")
    colours = Text(" " * label)
    for p in shown:
        colours.append("▀" * CELL, style=TYPE_STYLE[TYPE_COLOURS[route.colour[p]]])
    out.append_text(colours)
    out.append("\n")
    ground = Text(pad(terrain, label), style="dim")
    for p in shown:
        if route.road[p] == UPHILL:
            ground.append(f"{'/' + str(route.steepness[p]):>{CELL}}", style="bold red")
        elif route.road[p] == COBBLES:
            ground.append(" ##", style="bold")
        else:
            ground.append(" " * CELL)
    out.append_text(ground)
    out.append("\n")
    riders = state.peloton.riders
    team_colour = state.peloton.team_colours
    for lane in range(6):
        line = Text(pad(lanes[lane], label), style="dim")
        for p in shown:
            r = state.cells[p][lane]
            if r != EMPTY:
                line.append(f"{riders[r].number:>{CELL}}",
                            style=f"bold {team_colour[riders[r].team]}")
            elif lane >= route.width[p]:
                line.append(" " * CELL)
            elif route.road[p] == COBBLES:
                rough = state.rough[p][lane] if state.rough else 0
                glyph = ROUGH_GLYPHS.get(rough, ROUGH_GLYPHS[4])
                line.append(f"{glyph * 2:>{CELL}}", style="grey62")
            else:
                line.append(f"{FREE:>{CELL}}", style="red" if route.road[p] == UPHILL
                            else "grey42")
        out.append_text(line)
        if lane < 5:
            out.append("\n")
    return out


def draw_road(state: RoadView, width: int = 30, lang: str = "en") -> Text:
    """The road of the state's text picture: :func:`road_text` over ``width`` squares."""
    return road_text(state, width, lang)


def pad(text: str, cells: int) -> str:
    """``text`` followed by spaces to fill ``cells`` terminal cells (wide letters count two)."""
    return text + " " * max(0, cells - cell_len(text))


def text_picture(state: WielersimState) -> str:
    """The road around the front as plain text, with the race's standing above it (the
    game's ``picture`` face, :func:`raceday.present.pictures.text_picture`)."""
    from raceday.games.wielersim.rules import BOARD, GRID, WEATHER

    head = repr(state)
    if state.phase in (BOARD, WEATHER, GRID) or not state.on_road():
        return head
    return f"{head}\n{draw_road(state).plain}"
