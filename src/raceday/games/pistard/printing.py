"""PISTARD's printed parts: the velodrome in tiles (with an assembly map) and counters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel, Field

from raceday.drawing import svg
from raceday.games.pistard import drawing as draw
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.track import LANES, SHIPPED_TRACKS, Track, load_track
from raceday.printing.catalog import DEFAULT_CHOICE, FILES, Part, PrintOptions, new_page, say
from raceday.printing.page import Credit, Page, worded, wrap

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

    track: str | None = Field(None, json_schema_extra={
        FILES: True, "enum": list(SHIPPED_TRACKS), DEFAULT_CHOICE: "default"})


def _w(options: Options, key: str, **params: object) -> str:
    return say(options, CREDIT.game, key, **params)


def _track(options: Options) -> tuple[Track, str, str]:
    """The track, its name in the options' language (a shipped track's is in the tables;
    a file's is its own) and the header's description of it."""
    name = options.track or "default"
    track = load_track(name)  # InputFileError for a bad file
    called = (worded(CREDIT.game, f"print.track_name.{name}", options.lang, track.name)
              if name in SHIPPED_TRACKS else track.name)
    return track, called, _w(options, "print.track.described", name=name, called=called,
                             length=track.length)


def tiles(track: Track, width: float, height: float) -> list[tuple[int, int]]:
    return draw.tile_plan(draw.Velodrome(track.length), width, height)


def part_track(options: Options) -> list[Page]:
    track, called, described = _track(options)
    v = draw.Velodrome(track.length)
    probe = new_page(CREDIT, options, _w(options, "print.part.track"), described)
    _, _, bw, bh = probe.body
    plan = draw.tile_plan(v, bw, bh)
    n = len(plan)
    pages = [_assembly_map(track, called, v, plan, options, described)]
    for i, (q0, q1) in enumerate(plan):
        page = new_page(CREDIT, options, _w(options, "print.tile.title", n=i + 1, total=n),
                        described)
        x, y, w, h = page.body
        found = draw.placement(v, q0, q1, w, h)
        assert found is not None  # tile_plan only keeps tiles that fit
        angle, (bx, by), _box = found
        cx, cy = x + w / 2, y + h / 2
        start, end = draw.joint_label(i), draw.joint_label((i + 1) % n)
        first, last = v.column(q0), v.column(q1 - 1)
        page.add(svg.group([draw.tile(track, v, q0, q1, start, end,
                                      _w(options, "print.tile.line"))],
                           transform=f"translate({svg.num(cx - bx)} {svg.num(cy - by)}) "
                                     f"rotate({svg.num(angle)})",
                           class_="placed-tile", data_tile=i + 1,
                           data_columns=f"{first}-{last}"))
        page.add(svg.text(x, y + h - 1, _w(options, "print.tile.note", n=i + 1, first=first,
                                           last=last, start=start, end=end), 3.0,
                          fill=svg.GREY))
        pages.append(page)
    return pages


def _assembly_map(track: Track, called: str, v: draw.Velodrome, plan: list[tuple[int, int]],
                  options: Options, described: str) -> Page:
    page = new_page(CREDIT, options, _w(options, "print.assembly.title"), described)
    x, y, w, h = page.body
    width, height = v.size
    full_w, full_h = width / 10, height / 10
    heading = _w(options, "print.assembly.heading", name=called, length=track.length,
                 lanes=LANES, tiles=len(plan), width=f"{full_w:.0f}", height=f"{full_h:.0f}")
    lines = [(line, 3.8, True) for line in wrap(heading, w, 3.8)]
    for step in ("print", "cut", "lay", "lanes"):
        lines += [(line, 3.4, False) for line in wrap(_w(options, f"print.assembly.{step}"),
                                                     w, 3.4)]
    for i, (text_line, size, bold) in enumerate(lines):
        page.add(svg.text(x, y + 5 + 5.2 * i, text_line, size, bold=bold,
                          class_="assembly-heading" if bold else "assembly-text"))
    text_room = 5.2 * len(lines) + 10  # the map's joint letters stand above its outline
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
                                           f"scale({svg.num(scale)})", class_="assembly-map"))
    return page


def part_counters(options: Options) -> list[Page]:
    described = _w(options, "print.counters.described", players=PLAYERS, riders=RIDERS_EACH,
                   tokens=TOKENS_EACH)
    page = new_page(CREDIT, options, _w(options, "print.counters.title"), described)
    x, y, w, _h = page.body
    step = draw.COUNTER + 6
    page.add(svg.text(x, y + 5, _w(options, "print.counters.riders"), 3.4))
    top = y + 12
    for player in range(1, PLAYERS + 1):
        cy = top + (player - 1) * step + step / 2
        page.add(svg.text(x, cy + 1.2, _w(options, "print.counters.player", n=player), 3.6,
                          bold=True))
        for rider in range(1, RIDERS_EACH + 1):
            cx = x + 30 + (rider - 1) * step + step / 2
            page.add(draw.rider_counter(cx, cy, player, rider,
                                        _w(options, "print.counters.on_counter")))
    ty = top + PLAYERS * step + 10
    page.add(svg.text(x, ty, _w(options, "print.counters.tokens"), 3.4))
    for player in range(1, PLAYERS + 1):
        cy = ty + 12 + (player - 1) * 18
        page.add(svg.text(x, cy + 1.2, _w(options, "print.counters.player", n=player), 3.6,
                          bold=True))
        for k in range(TOKENS_EACH):
            page.add(draw.energy_token(x + 40 + k * 20, cy, player))
    _ = w
    return [page]
