"""KEIRIN's printed parts: the track in two halves, riders and derny, betting slips and the
odds sheet (exact prices from the engine for all five bet types)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, ClassVar

from pydantic import BaseModel, BeforeValidator, Field

from raceday.core.errors import OptionsError
from raceday.drawing import svg
from raceday.games.keirin import drawing as draw
from raceday.games.keirin.rules import KeirinOptions
from raceday.printing.catalog import Part, PrintOptions, new_page
from raceday.printing.flow import Cell, Flow
from raceday.printing.page import Credit, Page

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
        raise OptionsError(f"--margin must be a number such as 0.1, got {text!r}") from None
    if not (math.isfinite(value) and 0 <= value < 1):
        raise OptionsError(f"--margin must be at least 0 and below 1 for KEIRIN, got {text}")
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


BET_NOTES = {
    "win": "the winner",
    "exacta": "1st-2nd in that order",
    "quinella": "1st and 2nd, any order",
    "trifecta": "1st-2nd-3rd in that order",
    "trio": "the first three, any order",
}


def _square_size(width: float, height: float) -> float:
    """The largest square (mm along the centre line) for which a half fits the body."""
    by_width = (width / 2 - draw.LANE / 2 - 10) * 3.141592653589793 / draw.BEND
    by_height = (height - draw.LANE / 2 - 24) / (draw.BEND / 3.141592653589793 + draw.STRAIGHT)
    return min(by_width, by_height, 11.0)


def part_track(options: Options) -> list[Page]:
    length = options.length or DEFAULT_LENGTH
    described = (f"finish line {length} squares after the derny's start (square 0 of half A)"
                 + (f", {length // 100} full lap(s) before it" if length >= 100 else ""))
    line_half, line_square = divmod(length % 100, 50)
    pages = []
    for half, name, first in ((0, "A", 0), (1, "B", 50)):
        page = new_page(CREDIT, options, f"Track, half {name}", described)
        x, y, w, h = page.body
        sq = _square_size(w, h)
        probe = draw.HalfTrack(sq, 0, 0)
        cx = x + w / 2
        cy = y + 14 + probe.radius + draw.LANE / 2
        track = draw.HalfTrack(sq, cx, cy)
        finish = line_square if line_half == half else None
        page.add(draw.half_track(track, f"half {name}", first, finish))
        other = "B" if name == "A" else "A"
        notes = [f"Square 49 of this half meets square 0 of half {other}, and square 0 meets "
                 f"square 49 of half {other}: lay the two halves end to end.",
                 "Riders travel up the right-hand straight and round the bend (arrow)."]
        if name == "A":
            notes.append("The derny starts on square 0 of this half; riders line up behind "
                         "it every 3 squares (square -3 is square 47 of half B).")
        for i, note in enumerate(notes):
            page.add(svg.text(x, y + h - 4 - 4.6 * (len(notes) - 1 - i), note, 3.1))
        pages.append(page)
    return pages


def part_counters(options: Options) -> list[Page]:
    page = new_page(CREDIT, options, "Riders and derny",
                    "riders 1-9 in keirin jersey colours, the derny; two sets")
    x, y, w, _h = page.body
    sq = _square_size(w, page.body[3])
    page.add(svg.text(x, y + 5, "Cut out along the outlines. A rider is three squares long, "
                      "as in the rules; the arrow points forward.", 3.4))
    length = 3 * sq + 6
    for copy in range(2):
        top = y + 14 + copy * 80
        page.add(svg.text(x, top, f"Set {copy + 1}", 3.6, bold=True))
        for rider in range(1, 10):
            col, row = divmod(rider - 1, 5)
            page.add(draw.rider_counter(x + col * (length + 8), top + 6 + row * 13, rider, sq))
        page.add(draw.derny_counter(x + 2 * (length + 8), top + 6, sq))
    return [page]


def part_slip(options: Options) -> list[Page]:
    riders = options.riders or DEFAULT_RIDERS
    page = new_page(CREDIT, options, "Betting slips", f"{riders} riders; six slips a page")
    x, y, w, h = page.body
    cols, rows = 2, 3
    sw, sh = (w - 6) / cols, (h - 8) / rows
    for k in range(cols * rows):
        sx, sy = x + (k % cols) * (sw + 6), y + (k // cols) * (sh + 4)
        page.add(_slip(sx, sy, sw, sh, riders))
    return [page]


def _slip(x: float, y: float, w: float, h: float, riders: int) -> str:
    parts = [svg.rect(x, y, w, h, fill=svg.WHITE, stroke=svg.INK, stroke_width=0.4,
                      stroke_dasharray="2 1"),
             svg.text(x + 4, y + 7, "KEIRIN betting slip", 4.2, bold=True),
             svg.text(x + 4, y + 14, "Race no. ______   Name ____________________", 3.2)]
    ty = y + 22
    parts.append(svg.text(x + 4, ty, "Tick one bet:", 3.0, bold=True))
    for i, kind in enumerate(BET_NOTES):
        bx = x + 4 + i * (w - 8) / 5
        parts.append(svg.rect(bx, ty + 3, 3.5, 3.5, fill="none", stroke=svg.INK,
                              stroke_width=0.3))
        parts.append(svg.text(bx + 5, ty + 6.2, kind, 3.0))
    py = ty + 14
    for place, label in enumerate(("1st", "2nd", "3rd")):
        row_y = py + place * 8
        parts.append(svg.text(x + 4, row_y + 4, label, 3.2, bold=True))
        for r in range(1, riders + 1):
            cx = x + 16 + (r - 1) * 8.5
            parts.append(svg.circle(cx, row_y + 2.9, 3.2, fill="none", stroke=svg.INK,
                                    stroke_width=0.3))
            parts.append(svg.centred_text(cx, row_y + 2.9, str(r), 3.0))
    sy = py + 28
    parts.append(svg.text(x + 4, sy, "Stake ________   Price ________", 3.2))
    parts.append(svg.text(x + 4, sy + 7, "Returns (stake x price) ______________", 3.2))
    parts.append(svg.text(x + 4, y + h - 3, "Circle one rider a place: win 1st only; "
                          "exacta/quinella 1st and 2nd; trifecta/trio all three.", 2.4,
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
    described = (f"{riders} riders, finish {length} squares after the derny's start, derny "
                 f"thrown with 3 dice, margin {margin:g}: price = (1 - margin) / exact "
                 "probability, rounded down to 0.01 as on the tickets")
    table = prices(riders, length, margin)

    def page() -> Page:
        return new_page(CREDIT, options, "Odds sheet", described)

    flow = Flow(page, columns=5, row_height=4.3, size=3.0)
    width = flow.column_width
    for kind, combos in table.items():
        joiner = "-" if kind in ("exacta", "trifecta") else "="
        flow.heading(kind.upper(), BET_NOTES[kind])
        for i, (combo, price) in enumerate(sorted(combos.items())):
            shown = format_odds(price) if price is not None else "-"
            flow.row([Cell(0, joiner.join(map(str, combo)), cls="combo"),
                      Cell(width - 1, shown, anchor="end", bold=True, cls="price")],
                     shade=i % 2 == 1, class_="entry", data_bet=kind)
        flow.space()
    return flow.pages
