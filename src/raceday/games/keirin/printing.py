"""KEIRIN's printed parts: the track in two halves, riders and derny, betting slips and the
odds sheet (exact prices from the engine for all five bet types)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, ClassVar

from pydantic import BaseModel, BeforeValidator, Field

from raceday.core.errors import OptionsError, refusal
from raceday.drawing import svg
from raceday.games.keirin import drawing as draw
from raceday.games.keirin.rules import KeirinOptions
from raceday.printing.catalog import Part, PrintOptions, new_page, say
from raceday.printing.flow import Cell, Flow
from raceday.printing.page import Credit, Page, wrap

DEFAULT_RIDERS = 9
DEFAULT_LENGTH = 50
CREDIT = Credit("keirin", "KEIRIN", "Anki Toner", "2006, revised 2012")
PARTS = (
    Part("track", "Track", "the 100-square track in two halves", ("length",)),
    Part("counters", "Riders", "riders 1-9 and the derny"),
    Part("slip", "Betting slips", "betting slips for the five bet types", ("riders",)),
    Part("odds", "Odds sheet", "exact fixed-odds prices of every bet",
         ("riders", "length", "margin")),
)


def keirin_margin(text: object) -> float:
    """KEIRIN's fixed-odds margin: a number at least 0 and below 1 (default 0)."""
    if text is None:
        return 0.0
    try:
        value = float(str(text))
    except ValueError:
        raise refusal(OptionsError, "keirin.refusal.print_margin_number", got=str(text)
                      ) from None
    if not (math.isfinite(value) and 0 <= value < 1):
        raise refusal(OptionsError, "keirin.refusal.print_margin_range", got=str(text))
    return value


def _margin_text(value: object) -> object:
    keirin_margin(value)  # refused here, before anything is drawn
    return value


class Options(PrintOptions):
    """KEIRIN's print options: the race's riders and length (checked by the race's
    options model) and the odds sheet's fixed-odds margin."""

    checked_by: ClassVar[Mapping[str, type[BaseModel]]] = {"riders": KeirinOptions,
                                                           "length": KeirinOptions}

    riders: int | None = None
    length: int | None = None
    margin: Annotated[str | None, BeforeValidator(_margin_text), Field(
        description="Fixed-odds margin, 0 to below 1 (default 0).")] = None


BET_TYPES = ("win", "exacta", "quinella", "trifecta", "trio")


def _w(options: Options, key: str, **params: object) -> str:
    return say(options, CREDIT.game, key, **params)


def _square_size(width: float, height: float) -> float:
    """The largest square (mm along the centre line) for which a half fits the body."""
    by_width = (width / 2 - draw.LANE / 2 - 10) * 3.141592653589793 / draw.BEND
    by_height = (height - draw.LANE / 2 - 24) / (draw.BEND / 3.141592653589793 + draw.STRAIGHT)
    return min(by_width, by_height, 11.0)


def part_track(options: Options) -> list[Page]:
    length = options.length or DEFAULT_LENGTH
    laps = length // 100
    described = _w(options, "print.track.described", length=length) + (
        "" if laps == 0 else _w(options, "print.track.lap_one" if laps == 1 else
                                "print.track.laps", n=laps))
    line_half, line_square = divmod(length % 100, 50)
    pages = []
    for half, name, first in ((0, "A", 0), (1, "B", 50)):
        page = new_page(CREDIT, options, _w(options, "print.track.title", half=name),
                        described)
        x, y, w, h = page.body
        sq = _square_size(w, h)
        probe = draw.HalfTrack(sq, 0, 0)
        cx = x + w / 2
        cy = y + 14 + probe.radius + draw.LANE / 2
        track = draw.HalfTrack(sq, cx, cy)
        finish = line_square if line_half == half else None
        page.add(draw.half_track(track, _w(options, "print.track.half", half=name), first,
                                 finish, finish_word=_w(options, "print.track.finish")))
        other = "B" if name == "A" else "A"
        notes = [_w(options, "print.track.joins", other=other),
                 _w(options, "print.track.direction")]
        if name == "A":
            notes.append(_w(options, "print.track.derny"))
        for i, note in enumerate(notes):
            page.add(svg.text(x, y + h - 4 - 4.6 * (len(notes) - 1 - i), note, 3.1))
        pages.append(page)
    return pages


def part_counters(options: Options) -> list[Page]:
    page = new_page(CREDIT, options, _w(options, "print.counters.title"),
                    _w(options, "print.counters.described"))
    x, y, w, _h = page.body
    sq = _square_size(w, page.body[3])
    page.add(svg.text(x, y + 5, _w(options, "print.counters.intro"), 3.4))
    length = 3 * sq + 6
    for copy in range(2):
        top = y + 14 + copy * 80
        page.add(svg.text(x, top, _w(options, "print.counters.set", n=copy + 1), 3.6,
                          bold=True))
        for rider in range(1, 10):
            col, row = divmod(rider - 1, 5)
            page.add(draw.rider_counter(x + col * (length + 8), top + 6 + row * 13, rider, sq))
        page.add(draw.derny_counter(x + 2 * (length + 8), top + 6, sq,
                                    _w(options, "print.counters.derny")))
    return [page]


def part_slip(options: Options) -> list[Page]:
    riders = options.riders or DEFAULT_RIDERS
    page = new_page(CREDIT, options, _w(options, "print.part.slip"),
                    _w(options, "print.slip.described", riders=riders))
    x, y, w, h = page.body
    cols, rows = 2, 3
    sw, sh = (w - 6) / cols, (h - 8) / rows
    for k in range(cols * rows):
        sx, sy = x + (k % cols) * (sw + 6), y + (k // cols) * (sh + 4)
        page.add(_slip(options, sx, sy, sw, sh, riders))
    return [page]


def _slip(options: Options, x: float, y: float, w: float, h: float, riders: int) -> str:
    parts = [svg.rect(x, y, w, h, fill=svg.WHITE, stroke=svg.INK, stroke_width=0.4,
                      stroke_dasharray="2 1"),
             svg.text(x + 4, y + 7, _w(options, "print.slip.heading"), 4.2, bold=True),
             svg.text(x + 4, y + 14, _w(options, "print.slip.race_name"), 3.2)]
    ty = y + 22
    parts.append(svg.text(x + 4, ty, _w(options, "print.slip.tick"), 3.0, bold=True))
    for i, kind in enumerate(BET_TYPES):
        bx = x + 4 + i * (w - 8) / 5
        parts.append(svg.rect(bx, ty + 3, 3.5, 3.5, fill="none", stroke=svg.INK,
                              stroke_width=0.3))
        parts.append(svg.text(bx + 5, ty + 6.2, _w(options, f"kr_{kind}"), 3.0))
    py = ty + 14
    for place, label in enumerate(_w(options, f"place_{n}") for n in (1, 2, 3)):
        row_y = py + place * 8
        parts.append(svg.text(x + 4, row_y + 4, label, 3.2, bold=True))
        for r in range(1, riders + 1):
            cx = x + 16 + (r - 1) * 8.5
            parts.append(svg.circle(cx, row_y + 2.9, 3.2, fill="none", stroke=svg.INK,
                                    stroke_width=0.3))
            parts.append(svg.centred_text(cx, row_y + 2.9, str(r), 3.0))
    sy = py + 28
    parts.append(svg.text(x + 4, sy, _w(options, "print.slip.stake_price"), 3.2))
    parts.append(svg.text(x + 4, sy + 7, _w(options, "print.slip.returns"), 3.2))
    note = wrap(_w(options, "print.slip.circle"), w - 8, 2.4)
    for i, line in enumerate(note):
        parts.append(svg.text(x + 4, y + h - 3 - 3 * (len(note) - 1 - i), line, 2.4,
                              fill=svg.GREY))
    return svg.group(parts, class_="slip")


def odds_settings(options: Options) -> tuple[int, int, float]:
    return (options.riders or DEFAULT_RIDERS, options.length or DEFAULT_LENGTH,
            keirin_margin(options.margin))


def prices(riders: int, length: int, margin: float) -> dict[str, dict[tuple[int, ...], int | None]]:
    """Every bet's fixed-odds price in hundredths, as the engine quotes it on a ticket."""
    from raceday.games.keirin.betting import quoted_odds
    from raceday.games.keirin.odds import BET_TYPES, race_odds
    from raceday.games.keirin.rules import KeirinOptions

    odds = race_odds(KeirinOptions.parse({"riders": riders, "length": length}))
    return {kind: {combo: quoted_odds(p, margin) for combo, p in odds.bet(kind).items()}
            for kind in BET_TYPES}


def part_odds(options: Options) -> list[Page]:
    from raceday.games.keirin.betting import format_odds

    riders, length, margin = odds_settings(options)
    described = _w(options, "print.odds.described", riders=riders, length=length,
                   margin=f"{margin:g}")
    table = prices(riders, length, margin)

    def page() -> Page:
        return new_page(CREDIT, options, _w(options, "print.part.odds"), described)

    flow = Flow(page, columns=5, row_height=4.3, size=3.0)
    width = flow.column_width
    for kind, combos in table.items():
        joiner = "-" if kind in ("exacta", "trifecta") else "="
        flow.heading(_w(options, f"kr_{kind}").upper(), _w(options, f"kr_{kind}_hint"))
        for i, (combo, price) in enumerate(sorted(combos.items())):
            shown = format_odds(price) if price is not None else "-"
            flow.row([Cell(0, joiner.join(map(str, combo)), cls="combo"),
                      Cell(width - 1, shown, anchor="end", bold=True, cls="price")],
                     shade=i % 2 == 1, class_="entry", data_bet=kind)
        flow.space()
    return flow.pages
