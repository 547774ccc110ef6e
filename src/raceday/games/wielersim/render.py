"""The race in the terminal: the road around the front, with its legend, the groups, the
result and the stage-race tables.

The road (:func:`road_text`) keeps every kind of mark in its own place: the squares to go,
the sprint, climb-top and finish marks and the section colours above the road, the road's
terrain (a climb's steepness ``/5``, cobbles ``##``) in a row of its own, and in the six lanes
only riders (their bib, in the team colour) or the free square under them (``·`` on the flat,
a shade ``░▒▓█`` for the roughness of a cobbled square). No cell holds both a rider and a
terrain mark, and :func:`road_legend` explains every mark that is drawn.

Pure presentation: it reads the state and never applies a rule.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console, Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from raceday.core.events import Message
from raceday.games.wielersim.model import COBBLES, EMPTY, RIDER_TYPES, TYPE_COLOURS, UPHILL
from raceday.games.wielersim.peloton import Peloton
from raceday.games.wielersim.picture import (
    CELL,
    FREE,
    ROUGH_GLYPHS,
    TYPE_STYLE,
    RoadView,
    road_labels,
    road_text,
    window,
)
from raceday.games.wielersim.route import CompiledRoute
from raceday.games.wielersim.rules import (
    INTERMEDIATE_POINTS,
    MOUNTAIN_POINTS,
    WielersimState,
    format_gap,
    groups_of,
)
from raceday.games.wielersim.stage import TEAM_COUNTED, Standings
from raceday.present import render

GAME = "wielersim"
SHOWN = 8  # riders of a group named in its summary line
LEFT: JustifyMethod = "left"  # how a column of words is justified unless told

__all__ = [
    "ROUGH_GLYPHS",
    "RoadSnapshot",
    "draw_road",
    "gap_cell",
    "group_summary",
    "result_table",
    "rider_type",
    "road_board",
    "road_legend",
    "road_text",
    "say",
    "scoring_lines",
    "stage_result_table",
    "standings_tables",
    "window",
    "word",
    "words_table",
]

MIN_SQUARES = 10  # the narrowest road drawn


@dataclass(frozen=True)
class RoadSnapshot:
    """What the road shows at one moment, copied from a race so that it can be drawn again
    later (a full-screen view redraws the board on every resize, while the race rides on in
    another thread). It reads like the state it was taken from (a :class:`RoadView`), and
    keeps the groups' summary lines of that moment."""

    route: CompiledRoute
    peloton: Peloton
    rough: tuple[tuple[int, ...], ...]
    cells: tuple[tuple[int, ...], ...]
    pos: tuple[int, ...]
    n: int
    finished: tuple[bool, ...]
    groups: tuple[str, ...] = ()
    finishers: tuple[str, ...] = ()

    @classmethod
    def of(cls, state: WielersimState, lang: str = "en", groups: int = 5) -> RoadSnapshot:
        return cls(route=state.route, peloton=state.peloton,
                   rough=tuple(tuple(row) for row in state.rough),
                   cells=tuple(tuple(row) for row in state.cells), pos=tuple(state.pos),
                   n=state.n, finished=tuple(bool(f) for f in state.finished),
                   groups=tuple(group_summary(state, groups, lang)) if groups else (),
                   finishers=_finishers(state, lang))

    def on_road(self) -> list[int]:
        return [r for r in range(self.n) if not self.finished[r]]


def _finishers(state: WielersimState, lang: str, most: int = 10) -> tuple[str, ...]:
    """The first ``most`` finishers so far: '1. Name (bib)  gap'."""
    lines = []
    for place, (r, gap, _) in enumerate(state.results[:most], start=1):
        rider = state.peloton.riders[r]
        placed = render("replay.rider_place", lang, GAME,
                        {"place": place, "name": rider.name, "number": rider.number})
        lines.append(f"{placed}  {gap_cell(place, gap, lang)}")
    return tuple(lines)


def road_squares(width: int, lang: str = "en") -> int:
    """How many squares of road fit ``width`` terminal cells (at least :data:`MIN_SQUARES`)."""
    return max(MIN_SQUARES, (width - road_labels(lang)[3]) // CELL)


def road_legend(state: RoadView, squares: int = 24, lang: str = "en") -> Text:
    """What every mark of :func:`road_text` drawn with the same arguments means; only the
    marks that are drawn are explained (the rider numbers and free squares always)."""
    route = state.route
    start, end = window(state, squares)
    shown = range(start, end + 1)
    parts: list[Text] = []

    def part(mark: str, style: str, key: str, **params: Any) -> None:
        piece = Text()
        piece.append(mark, style=style)  # the mark as drawn; its words in plain text
        piece.append(" " + render(key, lang, GAME, params))
        parts.append(piece)

    if any(state.cells[p][lane] != EMPTY for p in shown for lane in range(6)):
        part("12", "bold", "legend.rider")
    if any(route.road[p] != COBBLES for p in shown):
        part(FREE, "grey42", "legend.free")
    steep = sorted({route.steepness[p] for p in shown if route.road[p] == UPHILL})
    if steep:
        part(f"/{steep[-1]}", "bold red", "legend.climb", steepness=steep[-1])
    if any(route.road[p] == COBBLES for p in shown):
        part("##", "bold", "legend.cobbles")
    if any(p in set(route.sprints) for p in shown):
        part("S", "bold green", "legend.sprint")
    for climb in route.climbs:
        if start <= climb.top <= end:
            if climb.category:
                part(f"^{climb.category}", "bold red", "legend.top", climb=climb.name,
                     category=climb.category)
            else:
                part("^-", "bold red", "legend.top_uncategorised", climb=climb.name)
    if start <= route.distance <= end:
        part("F", "bold white on black", "legend.finish")
    colour = Text()
    for i, kind in enumerate(sorted({route.colour[p] for p in shown})):
        style = TYPE_STYLE[TYPE_COLOURS[kind]]
        colour.append("" if i == 0 else "、" if lang == "ja" else ", ")
        colour.append("▀▀", style=style)
        colour.append(" " + render(f"wv_type_{RIDER_TYPES[kind]}", lang, GAME),
                      style=f"bold {style}")
    colour.append(render("legend.colour", lang, GAME))
    parts.append(colour)
    return Text("  ").join(parts)


def draw_road(state: RoadView, width: int = 24, lang: str = "en") -> Text:
    """The road of ``width`` squares with its legend under it (line mode prints this)."""
    out = road_text(state, width, lang)
    out.append("\n")
    out.append_text(road_legend(state, width, lang))
    return out


def road_board(snapshot: RoadSnapshot, lang: str = "en", most: int | None = None
               ) -> Callable[[int, int], RenderableType]:
    """The board of a full-screen watch: the road as wide as the view allows (at most
    ``most`` squares), its legend, and the groups' lines as far as the height allows."""
    def board(width: int, height: int) -> RenderableType:
        squares = road_squares(width, lang)
        if most is not None:
            squares = min(squares, max(MIN_SQUARES, most))
        road = road_text(snapshot, squares, lang)
        legend = road_legend(snapshot, squares, lang)
        parts: list[RenderableType] = [road, legend]
        # the road is 10 lines; the legend wraps to the width; the groups fill what is left
        legend_lines = len(legend.wrap(_console(width), width))
        room = height - 10 - legend_lines
        for line in snapshot.groups[:max(0, room)]:
            parts.append(Text(line, style="dim", overflow="ellipsis", no_wrap=True))
        room -= len(snapshot.groups) + 1
        if snapshot.finishers and room > 0:  # the result so far, as far as it fits
            parts.append(Text(render("wv_result", lang, GAME), style="bold"))
            parts.extend(Text(line, overflow="ellipsis", no_wrap=True)
                         for line in snapshot.finishers[:room])
        return Group(*parts)

    return board


def _console(width: int) -> Console:
    return Console(width=width, file=io.StringIO(), color_system=None)


def group_summary(state: WielersimState, limit: int = 5, lang: str = "en") -> list[str]:
    """One line per group on the road: size, squares behind the front, a few riders."""
    road = state.on_road()
    if not road:
        return []
    groups = groups_of(road, state.pos)
    front = state.pos[groups[0][0]]
    lines = []
    for i, g in enumerate(groups[:limit]):
        shown = [state.num(r) for r in sorted(g, key=state.order_key)[:SHOWN]]
        more = Message("road.more", {"n": len(g) - SHOWN}).to_json() if len(g) > SHOWN else ""
        key = f"road.{'group' if len(g) > 1 else 'alone'}_{'front' if i == 0 else 'behind'}"
        lines.append(render(Message(key, {
            "size": len(g), "behind": front - state.pos[g[0]],
            "to_go": state.route.distance - state.pos[g[0]], "riders": shown, "more": more}),
            lang, GAME))
    if len(groups) > limit:
        riders = sum(len(g) for g in groups[limit:])
        key = ("road.further_back" if len(groups) - limit > 1 else
               "road.further_back_group" if riders > 1 else "road.further_back_one")
        lines.append(render(Message(key, {"riders": riders, "groups": len(groups) - limit}),
                            lang, GAME))
    return lines


def say(key: str, lang: str = "en", **params: Any) -> str:
    """The game's message ``key`` in ``lang``, filled with ``params``."""
    return render(key, lang, GAME, params)


def word(key: str) -> dict[str, Any]:
    """Message ``key`` (no parameters) as a parameter of another message."""
    return Message(key).to_json()


def rider_type(kind: str) -> dict[str, Any]:
    """A rider type (leader, climber, sprinter, helper) as a message parameter."""
    return word(f"wv_type_{kind}")


def words_table(title: str, columns: Sequence[str | tuple[str, JustifyMethod]],
                lang: str = "en", *, no_wrap: Iterable[str] = (), **table: Any) -> Table:
    """A table titled ``title`` whose headers are the ``col.<name>`` messages of ``columns``
    (a name, or a name and how its column is justified); ``no_wrap`` names columns kept on
    one line. The table is at least as wide as its title, which it would otherwise cut
    (a Japanese title is one word to rich)."""
    out = Table(title=title, min_width=cell_len(title), **table)
    keep = set(no_wrap)
    for column in columns:
        name, justify = (column, LEFT) if isinstance(column, str) else column
        out.add_column(say(f"col.{name}", lang), justify=justify, no_wrap=name in keep)
    return out


def gap_cell(place: int, gap: int, lang: str = "en") -> str:
    """A finisher's gap to the winner; "s.t." (same time) for one after the winner with
    no gap."""
    return say("cell.same_time", lang) if place > 1 and gap == 0 else format_gap(gap)


def result_table(state: WielersimState, limit: int | None = None, lang: str = "en") -> Table:
    """Places, gaps, sprint and mountain points of a finished race."""
    table = words_table(say("table.result", lang, route=state.route.name),
                        [("place", "right"), "rider", ("bib", "right"), "team", "type",
                         ("gap", "right"), ("pts", "right"), ("mtn", "right")], lang,
                        no_wrap=("rider", "team"), show_lines=False, box=None)
    sprint = state.sprint_points()
    mountain = state.mountain_points()
    for place, (r, gap, _) in enumerate(state.results[:limit], start=1):
        rider = state.peloton.riders[r]
        table.add_row(str(place), rider.name, str(rider.number), state.peloton.teams[rider.team],
                      say(f"wv_type_{rider.type_name}", lang), gap_cell(place, gap, lang),
                      str(sprint[r] or ""), str(mountain[r] or ""))
    return table


def scoring_lines(state: WielersimState, lang: str = "en") -> list[str]:
    """Who scored at the intermediate sprints and on the climbs."""
    def top(places: list[int], points: tuple[int, ...]) -> list[dict[str, Any]]:
        return [Message("scoring.place", {"rider": state.num(r), "points": pts}).to_json()
                for r, pts in zip(places, points, strict=False)]

    lines = []
    for s, places in enumerate(state.sprint_places):
        if places:
            lines.append(render(Message("scoring.sprint", {
                "sprint": s + 1, "to_go": state.route.distance - state.route.sprints[s],
                "top": top(places, INTERMEDIATE_POINTS)}), lang, GAME))
    for climb, places in zip(state.route.climbs, state.climb_places, strict=True):
        if places and climb.category:
            lines.append(render(Message("scoring.climb", {
                "climb": climb.name, "category": climb.category,
                "top": top(places, MOUNTAIN_POINTS[climb.category])}), lang, GAME))
    return lines


def stage_result_table(peloton: Peloton, record: Mapping[str, Any], limit: int = 10,
                       lang: str = "en", name: str | None = None) -> Table:
    """The top of one stage's result, with bonus seconds; ``name`` is the stage's name in
    ``lang`` (by default the name saved with the record)."""
    table = words_table(say("wv_stage_result", lang, name=name or record["name"]),
                        ["place", "rider", "bib", "team", "time", "bonus"], lang,
                        no_wrap=("rider", "team"), box=None)
    for place, (number, gap) in enumerate(record["results"][:limit], start=1):
        rider = peloton.riders[peloton.index_of(number)]
        bonus = record["bonus"].get(str(number))
        table.add_row(str(place), rider.name, str(number), peloton.teams[rider.team],
                      gap_cell(place, gap, lang),
                      say("cell.bonus", lang, seconds=bonus) if bonus else "")
    return table


def standings_tables(peloton: Peloton, st: Standings, limit: int = 10,
                     lang: str = "en") -> list[Table]:
    """GC (gaps to the leader), points, mountains and teams; jersey holders highlighted."""
    def who(number: int) -> tuple[str, str]:
        rider = peloton.riders[peloton.index_of(number)]
        return rider.name, peloton.teams[rider.team]

    gc = words_table(say("wv_gc", lang), ["place", "rider", "bib", "team", "gap"], lang,
                     no_wrap=("rider", "team"), box=None)
    lead = st.gc[0][1] if st.gc else 0
    for place, (number, total) in enumerate(st.gc[:limit], start=1):
        name, team = who(number)
        gc.add_row(str(place), name, str(number), team,
                   format_gap(total - lead) if place > 1 else
                   say("cell.yellow", lang, gap=format_gap(0)),
                   style="bold yellow" if place == 1 else None)
    tables = [gc]
    for title, rows, style in (("wv_points", st.points, "bold green"),
                               ("wv_mountains", st.mountains, "bold red")):
        table = words_table(say(title, lang), ["place", "rider", "bib", "pts"], lang,
                            no_wrap=("rider",), box=None)
        for place, (number, value) in enumerate(rows[: max(3, limit // 2)], start=1):
            table.add_row(str(place), who(number)[0], str(number), str(value),
                          style=style if place == 1 else None)
        tables.append(table)
    teams = words_table(say("table.teams", lang, n=TEAM_COUNTED), ["place", "team", "gap"],
                        lang, box=None)
    best = st.teams[0][1] if st.teams else 0
    for place, (t, total) in enumerate(st.teams[: max(3, limit // 2)], start=1):
        teams.add_row(str(place), peloton.teams[t], format_gap(total - best),
                      style="bold" if place == 1 else None)
    tables.append(teams)
    return tables
