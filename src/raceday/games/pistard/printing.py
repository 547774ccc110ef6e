"""PISTARD's printed parts: the velodrome in tiles (with an assembly map) and counters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, Field

from raceday.drawing import svg
from raceday.games.pistard import drawing as draw
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.track import LANES, SHIPPED_TRACKS, Track, load_track
from raceday.printing.catalog import FILES, Part, PrintOptions, new_page
from raceday.printing.page import Credit, Page

PLAYERS = 5
RIDERS_EACH = 6  # the team races allow up to 6 riders a player
TOKENS_EACH = 3


CREDIT = Credit("pistard", "PISTARD", "Anki Toner", "2009, version 2.12 2010")
PARTS = (
    Part("track", "Velodrome", "the track cut into tiles that fit the paper, with an "
         "assembly map", ("track",)),
    Part("counters", "Counters", "rider counters for 5 players and energy tokens"),
)


class Options(PrintOptions):
    """PISTARD's print options: the track, checked by the race's options model."""

    checked_by: ClassVar[Mapping[str, type[BaseModel]]] = {"track": PistardOptions}

    track: str | None = Field(None, json_schema_extra={FILES: True,
                                                       "enum": list(SHIPPED_TRACKS)})


def _track(options: Options) -> tuple[Track, str]:
    name = options.track or "default"
    track = load_track(name)  # InputFileError for a bad file
    return track, f"track {name} ({track.name}, {track.length} columns, line before column 0)"


def tiles(track: Track, width: float, height: float) -> list[tuple[int, int]]:
    return draw.tile_plan(draw.Velodrome(track.length), width, height)


def part_track(options: Options) -> list[Page]:
    track, described = _track(options)
    v = draw.Velodrome(track.length)
    probe = new_page(CREDIT, options, "Velodrome", described)
    _, _, bw, bh = probe.body
    plan = draw.tile_plan(v, bw, bh)
    n = len(plan)
    pages = [_assembly_map(track, v, plan, options, described)]
    for i, (q0, q1) in enumerate(plan):
        page = new_page(CREDIT, options, f"Velodrome tile {i + 1} of {n}", described)
        x, y, w, h = page.body
        found = draw.placement(v, q0, q1, w, h)
        assert found is not None  # tile_plan only keeps tiles that fit
        angle, (bx, by), _box = found
        cx, cy = x + w / 2, y + h / 2
        start, end = draw.joint_label(i), draw.joint_label((i + 1) % n)
        first, last = v.column(q0), v.column(q1 - 1)
        page.add(svg.group([draw.tile(track, v, q0, q1, start, end)],
                           transform=f"translate({svg.num(cx - bx)} {svg.num(cy - by)}) "
                                     f"rotate({svg.num(angle)})",
                           class_="placed-tile", data_tile=i + 1,
                           data_columns=f"{first}-{last}"))
        page.add(svg.text(x, y + h - 1, f"Tile {i + 1}: columns {first} to {last}. Joins the "
                          f"previous tile at mark {start} and the next at mark {end}.", 3.0,
                          fill=svg.GREY))
        pages.append(page)
    return pages


def _assembly_map(track: Track, v: draw.Velodrome, plan: list[tuple[int, int]],
                  options: Options, described: str) -> Page:
    page = new_page(CREDIT, options, "Velodrome: how to assemble it", described)
    x, y, w, h = page.body
    width, height = v.size
    text_room = 52.0
    scale = min(w / width, (h - text_room) / height)
    ox, oy = x + (w - width * scale) / 2, y + text_room
    outlines = []
    for i, (q0, q1) in enumerate(plan):
        points = v.outline(q0, q1, draw.INFIELD_MARGIN, draw.OUTSIDE_MARGIN, steps=2)
        outlines.append(svg.polygon(points, fill="#fafafa", stroke=svg.INK, stroke_width=0.6))
        mid = v.point((q0 + q1) / 2, v.width / 2)
        outlines.append(svg.centred_text(mid[0], mid[1], str(i + 1), 16, bold=True))
        label = v.point(q0, v.width + draw.OUTSIDE_MARGIN + 9)
        outlines.append(svg.centred_text(label[0], label[1], draw.joint_label(i), 11))
    line_a = v.point(v.start_offset, 0)
    line_b = v.point(v.start_offset, v.width)
    outlines.append(svg.line(*line_a, *line_b, stroke_width=3))
    arrow_a = v.point(1, -18)
    arrow_b = v.point(v.straight - 1, -18)
    outlines.append(svg.arrow(*arrow_a, *arrow_b, head=12, stroke_width=3))
    page.add(svg.group(outlines, transform=f"translate({svg.num(ox)} {svg.num(oy)}) "
                                           f"scale({svg.num(scale)})"))
    full_w, full_h = width / 10, height / 10
    lines = [
        f"{track.name}: {track.length} columns by {LANES} lanes, {len(plan)} tiles. "
        f"Assembled it measures about {full_w:.0f} x {full_h:.0f} cm.",
        "1. Print every tile at 100% (no 'fit to page'): a straight square is 24 mm long.",
        "2. Cut each tile along its dashed outline.",
        "3. Lay the tiles in number order, riding anticlockwise; each lettered mark meets the",
        "   same letter on the next tile. Tape the joints on the back.",
        "Lane 1 is the inner lane, next to the infield. Each square shows its colour's letter",
        "(Y yellow, G green, B blue, R red) and, small, its lane. Grey numbers are columns",
        "counted from the start/finish line (thick line on the map).",
    ]
    for i, text_line in enumerate(lines):
        page.add(svg.text(x, y + 5 + 5.2 * i, text_line, 3.4 if i else 3.8, bold=i == 0))
    return page


def part_counters(options: Options) -> list[Page]:
    described = (f"rider counters for {PLAYERS} players ({RIDERS_EACH} each, numbered player "
                 f"then rider as in the rules: 33 is player 3's third rider), "
                 f"{TOKENS_EACH} energy tokens a player")
    page = new_page(CREDIT, options, "Rider counters and energy tokens", described)
    x, y, w, _h = page.body
    step = draw.COUNTER + 6
    page.add(svg.text(x, y + 5, "Riders: cut out along the circles. Counters are 18 mm "
                      "across, for 24 mm squares.", 3.4))
    top = y + 12
    for player in range(1, PLAYERS + 1):
        cy = top + (player - 1) * step + step / 2
        page.add(svg.text(x, cy + 1.2, f"Player {player}", 3.6, bold=True))
        for rider in range(1, RIDERS_EACH + 1):
            cx = x + 30 + (rider - 1) * step + step / 2
            page.add(draw.rider_counter(cx, cy, player, rider))
    ty = top + PLAYERS * step + 10
    page.add(svg.text(x, ty, "Energy tokens: spend one to add 1 pip to one die (never above "
                      "6), at most one a throw.", 3.4))
    for player in range(1, PLAYERS + 1):
        cy = ty + 12 + (player - 1) * 18
        page.add(svg.text(x, cy + 1.2, f"Player {player}", 3.6, bold=True))
        for k in range(TOKENS_EACH):
            page.add(draw.energy_token(x + 40 + k * 20, cy, player))
    _ = w
    return [page]
