"""WielerSIM's printed parts: the route schedule (the rule text's template columns, plus a
profile), the track markers a route needs, and the rider/team sheet of a peloton."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from raceday.drawing import svg
from raceday.games.wielersim import drawing as draw
from raceday.games.wielersim.peloton import SHIPPED_PELOTONS, START_LISTS
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.printing.catalog import DEFAULT_CHOICE, FILES, Part, PrintOptions, new_page, say
from raceday.printing.grid import fit, table
from raceday.printing.page import Credit, Page, wrap

CREDIT = Credit("wielersim", "WielerSIM", "Ludo Nauws", "2012")
PARTS = (
    Part("schedule", "Route schedule", "the route schedule and its profile", ("route",)),
    Part("markers", "Track markers", "start, finish, climb, sprint, zone, distance and "
         "steepness markers for the route", ("route",)),
    Part("riders", "Rider sheet", "teams and riders of a peloton with columns for the race",
         ("peloton",)),
)


class Options(PrintOptions):
    """WielerSIM's print options: a route and a peloton by name or file (read, and
    refused with the file's problem, when the part is made)."""

    route: str | None = Field(None, description=(
        "A shipped route, a route file, or a .gpx/.csv track to import (default flanders)."),
        json_schema_extra={FILES: True, "enum": list(SHIPPED_ROUTES),
                           DEFAULT_CHOICE: "flanders"})
    peloton: str | None = Field(None, description=(
        "A shipped peloton or start list, or a peloton file (default classics)."),
        json_schema_extra={FILES: True, "enum": [*SHIPPED_PELOTONS, *START_LISTS],
                           DEFAULT_CHOICE: "classics"})


DEFAULT_ROUTE = "flanders"
DEFAULT_PELOTON = "classics"
CATEGORY_TEXT = {"HC": "HC", "1": "C1", "2": "C2", "3": "C3"}


def _w(options: Options, key: str, **params: object) -> str:
    return say(options, CREDIT.game, key, **params)


def _type(options: Options, kind: int) -> str:
    """A rider type's name (leader, climber, sprinter, helper) in the options' language."""
    from raceday.games.wielersim.model import RIDER_TYPES

    return _w(options, f"wv_type_{RIDER_TYPES[kind]}")


def _category(options: Options, category: str | None) -> str:
    return CATEGORY_TEXT.get(category or "") or _w(options, "print.top")


@dataclass(frozen=True)
class LoadedRoute:
    spec: dict[str, Any]
    described: str
    km_per_square: float | None = None  # known for a route imported from a real track
    start_km: float = 0.0


def load_route(arg: str | None, options: Options | None = None) -> LoadedRoute:
    """A shipped route, a route file, or a .gpx/.csv track imported with the project's
    gradient mapping (then the template's km column is filled in)."""
    name = arg or DEFAULT_ROUTE
    if Path(name).suffix.lower() in (".gpx", ".csv") and not Path(name).is_dir():
        from raceday.games.wielersim.importer import build_route, default_squares, read_track

        points = read_track(name)
        squares = default_squares(points)
        spec = build_route(points, Path(name).stem, squares)
        from raceday.games.wielersim.route import normalise_route

        total = points[-1].km - points[0].km
        said = (_w(options, "print.route_imported", name=name) if options is not None
                else f"route imported from {name}")
        return LoadedRoute(normalise_route(spec), said, total / squares, points[0].km)
    from raceday.games.wielersim.route import resolve_route

    said = _w(options, "print.route", name=name) if options is not None else f"route {name}"
    return LoadedRoute(resolve_route(name), said)


def schedule_rows(loaded: LoadedRoute, options: Options | None = None
                  ) -> list[tuple[str, str, str, int, int]]:
    """(location, km, event, squares to go, section colour) rows of the route schedule,
    from the start to the finish, worded in the options' language."""
    from raceday.games.wielersim.model import COBBLES, UPHILL
    from raceday.games.wielersim.route import compile_route

    route = compile_route(loaded.spec)
    n = route.distance

    def km(square: int) -> str:
        if loaded.km_per_square is None:
            return ""
        return f"{loaded.start_km + square * loaded.km_per_square:.0f}"

    worded_in = options or Options(route=None, peloton=None)

    def w(key: str, **params: object) -> str:
        return _w(worded_in, key, **params)

    rows: list[tuple[int, int, tuple[str, str, str, int, int]]] = []
    for order, section in enumerate(route.sections):
        event = {COBBLES: w("print.cobbles_start"), UPHILL: w("print.col_start")
                 }.get(section.road, "")
        name = section.name or (w("print.start") if section.start == 0 else "")
        rows.append((section.start, 2 * order, (name, km(section.start), event,
                                                n - section.start, section.colour)))
        if section.road == COBBLES:
            rows.append((section.end, 2 * order + 1, ("", km(section.end),
                                                      w("print.cobbles_end"),
                                                      n - section.end, section.colour)))
    for climb in route.climbs:
        label = f"{_category(worded_in, climb.category)} ({climb.max_steepness})"
        rows.append((climb.top, -1, (w("print.climb_top", name=climb.name), km(climb.top),
                                     label,
                                     n - climb.top, route.colour[min(climb.top, n - 1)])))
    for sprint in route.sprints:
        rows.append((sprint, -2, (w("print.sprint"), km(sprint), "Sp", n - sprint,
                                  route.colour[sprint])))
    rows.append((n, 10**6, (w("print.finish"), km(n),
                            w("print.finish_kind", kind=w(f"surface.{route.finish}")), 0,
                            route.colour[n - 1])))
    rows.sort(key=lambda r: (r[0], r[1]))
    return [r[2] for r in rows]


def part_schedule(options: Options) -> list[Page]:
    from raceday.games.wielersim.route import compile_route

    loaded = load_route(options.route, options)
    route = compile_route(loaded.spec)
    described = _w(options, "print.schedule.described", route=loaded.described,
                   name=route.name, distance=route.distance,
                   finish=_w(options, f"surface.{route.finish}"), dice=route.start_dice)
    rows = schedule_rows(loaded, options)
    title = _w(options, "print.part.schedule")
    pages: list[Page] = []
    x, y, w, h = new_page(CREDIT, options, title, described).body
    widths = fit([62, 16, 38, 18, 38], w)
    row_h = 6.6
    first_rows = max(1, int((h - 100) // row_h))
    other_rows = max(1, int((h - 30) // row_h))
    chunks: list[list[tuple[str, str, str, int, int]]] = []
    at = 0
    while at < len(rows):
        take = first_rows if not chunks else other_rows
        chunks.append(rows[at:at + take])
        at += take
    for index, chunk in enumerate(chunks):
        page = new_page(CREDIT, options, title, described)
        x, y, w, h = page.body
        top = y
        if index == 0:
            page.add(svg.text(x, y + 7, route.name, 6, bold=True))
            page.add(draw.profile(route, x, y + 11, w, 62))
            top = y + 80
        cells = [[loc, km, event, str(sqr), _w(options, f"print.zone.{col}",
                                               type=_type(options, col))]
                 for loc, km, event, sqr, col in chunk]
        header = [_w(options, f"print.col.{c}") for c in ("location", "km", "event", "sqr",
                                                          "sec")]
        page.add(table(x, top, widths, header, cells,
                       row_height=row_h, header_height=7, size=3.0, cls="schedule"))
        for r, (*_, col) in enumerate(chunk):
            sx = x + sum(widths[:4])
            page.add(svg.rect(sx + widths[4] - 7, top + 7 + r * row_h + 1.2, 5.5, row_h - 2.4,
                              fill=draw.TYPE_FILL[col], stroke=svg.INK, stroke_width=0.2))
        if index == len(chunks) - 1:
            end = top + 7 + len(chunk) * row_h
            hierarchy = _w(options, "print.hierarchy", types=[_type(options, t)
                                                               for t in route.hierarchy])
            page.add(svg.text(x, end + 7, f"> {hierarchy}", 3.6, bold=True))
            notes = [line for key in ("print.schedule.legend", "print.schedule.climbs")
                     for line in wrap(_w(options, key), w, 2.8)]
            for i, note in enumerate(notes):
                page.add(svg.text(x, end + 12 + 4.5 * i, note, 2.8))
        pages.append(page)
    return pages


def part_markers(options: Options) -> list[Page]:
    from raceday.games.wielersim.model import COBBLES, MAX_ROUGHNESS, UPHILL
    from raceday.games.wielersim.route import compile_route

    loaded = load_route(options.route, options)
    route = compile_route(loaded.spec)
    n = route.distance
    described = _w(options, "print.markers.described", route=loaded.described,
                   name=route.name, distance=n)
    title = _w(options, "print.part.markers")
    pages = [new_page(CREDIT, options, title, described)]
    cursor = {"x": 0.0, "y": 0.0, "row": 0.0}

    def start_block(title: str, height: float) -> None:
        page = pages[-1]
        x, y, _w, h = page.body
        if cursor["y"] == 0.0:
            cursor["y"] = y
        if cursor["y"] + 8 + height > y + h:
            pages.append(new_page(CREDIT, options, title, described))
            cursor["y"] = pages[-1].body[1]
        pages[-1].add(svg.text(x, cursor["y"] + 5, title, 3.6, bold=True))
        cursor["y"] += 8
        cursor["x"] = x
        cursor["row"] = height

    def place(element_at: Any, width: float) -> None:
        x, _y, w, _h = pages[-1].body
        if cursor["x"] + width > x + w:
            cursor["x"] = x
            cursor["y"] += cursor["row"] + 3
        pages[-1].add(element_at(cursor["x"], cursor["y"]))
        cursor["x"] += width + 3

    def end_block() -> None:
        cursor["y"] += cursor["row"] + 6

    def left(squares: int) -> str:
        return _w(options, "print.to_go", n=squares)

    start_block(_w(options, "print.markers.points"), 14)
    place(lambda x, y: draw.point_marker(x, y, _w(options, "print.marker.start"), left(n),
                                         svg.BLUE, svg.WHITE), 34)
    place(lambda x, y: draw.point_marker(
        x, y, _w(options, "print.marker.finish"),
        f"{left(0)} ({_w(options, f'surface.{route.finish}')})", svg.YELLOW, svg.INK), 34)
    for climb in route.climbs:
        detail = (f"{_category(options, climb.category)} ({climb.max_steepness}), "
                  f"{left(n - climb.top)}")
        place(lambda x, y, d=detail: draw.point_marker(
            x, y, _w(options, "print.marker.mountain"), d, svg.RED, svg.WHITE), 34)
    for sprint in route.sprints:
        place(lambda x, y, s=sprint: draw.point_marker(
            x, y, _w(options, "print.marker.sprint"), left(n - s), svg.GREEN, svg.WHITE), 34)
    end_block()
    start_block(_w(options, "print.markers.zones"), 14)
    for section in route.sections:
        place(lambda x, y, s=section: draw.zone_marker(
            x, y, s.colour, n - s.start, name=_type(options, s.colour).capitalize(),
            from_word=_w(options, "print.marker.zone_from")), 34)
    end_block()
    start_block(_w(options, "print.markers.distance"), 12)
    for to_go in range(n - n % 20 if n % 20 else n - 20, 0, -20):
        place(lambda x, y, t=to_go: draw.round_marker(x + 6, y + 6, str(t), svg.WHITE,
                                                      svg.INK), 12)
    end_block()
    steps = []
    for p in range(n):
        if route.road[p] == UPHILL and (p == 0 or route.road[p - 1] != UPHILL
                                        or route.steepness[p] != route.steepness[p - 1]):
            steps.append((p, route.steepness[p]))
    if steps:
        start_block(_w(options, "print.markers.steepness"), 16)
        for p, value in steps:
            def marker(x: float, y: float, p: int = p, value: int = value) -> str:
                return svg.group([draw.round_marker(x + 6, y + 6, f"-{value}", svg.RED,
                                                    svg.WHITE),
                                  svg.centred_text(x + 6, y + 14.5, left(n - p), 2.2)])
            place(marker, 12)
        end_block()
    if any(route.road[p] == COBBLES for p in range(n)):
        start_block(_w(options, "print.markers.roughness"), 12)
        for value in range(1, MAX_ROUGHNESS + 1):
            for _ in range(6):
                place(lambda x, y, v=value: draw.round_marker(x + 6, y + 6, f"-{v}", "#7a6a55",
                                                              svg.WHITE), 12)
        end_block()
    start_block(_w(options, "print.markers.places"), 12)
    for place_no in range(1, 11):
        place(lambda x, y, k=place_no: draw.round_marker(x + 6, y + 6, str(k), svg.GREEN,
                                                         svg.WHITE), 12)
    end_block()
    return pages


def _team_colour(name: str) -> str:
    from rich.color import Color

    r, g, b = Color.parse(name).get_truecolor()
    return f"#{r:02x}{g:02x}{b:02x}"


def part_riders(options: Options) -> list[Page]:
    from raceday.games.wielersim.peloton import peloton_from_spec, resolve_peloton

    name = options.peloton or DEFAULT_PELOTON
    peloton = peloton_from_spec(resolve_peloton(name))
    described = _w(options, "print.riders.described", name=name, riders=len(peloton.riders),
                   teams=len(peloton.teams)) + (
        "" if peloton.jersey is None else _w(options, "print.riders.jersey_is",
                                             number=peloton.jersey))
    pages: list[Page] = []
    header = [_w(options, f"print.col.{c}") for c in (
        "bib", "rider", "team", "type", "climb", "cobbles", "sprint", "start_square",
        "mountain_points", "sprint_points", "place", "time")]
    jersey = _w(options, "print.riders.jersey")
    rows = []
    for rider in peloton.riders:
        ratings = rider.ratings or ("", "", "")
        worn = jersey if rider.number == peloton.jersey else ""
        rows.append([str(rider.number), rider.name[:28] + worn, peloton.teams[rider.team][:16],
                     _type(options, rider.kind), *(str(v) for v in ratings), "", "", "", "",
                     ""])
    title = _w(options, "print.part.riders")
    probe = new_page(CREDIT, options, title, described)
    _, _, _, h = probe.body
    row_h = max(5.2, min(6.4, (h - 24) / max(1, len(rows))))
    per_page = max(1, int((h - 24) // row_h))
    for start in range(0, len(rows), per_page):
        page = new_page(CREDIT, options, title, described)
        x, y, w, _ = page.body
        widths = fit([10, 40, 22, 22, 8, 10, 13, 11, 14, 14, 8, 11], w)  # room for ja
        chunk = rows[start:start + per_page]
        page.add(table(x, y + 4, widths, header, chunk, row_height=row_h, header_height=8,
                       header_size=2.5, size=2.7, cls="riders"))
        for r, rider in enumerate(peloton.riders[start:start + per_page]):
            ty = y + 4 + 8 + r * row_h
            tx = x + sum(widths[:3]) - 4
            page.add(svg.rect(tx, ty + 1.4, 3, row_h - 2.8, fill=_team_colour(
                peloton.team_colours[rider.team]), stroke=svg.INK, stroke_width=0.2))
            page.add(svg.rect(x + sum(widths[:4]) - 4, ty + 1.4, 3, row_h - 2.8,
                              fill=draw.TYPE_FILL[rider.kind], stroke=svg.INK,
                              stroke_width=0.2))
        for i, note in enumerate(wrap(_w(options, "print.riders.legend"), w, 2.8)):
            page.add(svg.text(x, y + 4 + 8 + len(chunk) * row_h + 6 + 4.5 * i, note, 2.8))
        pages.append(page)
    return pages
