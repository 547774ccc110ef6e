"""Dice Derby's printed parts: the score sheet, the owners' auction sheet, and the host's
whiteboard odds table (exact from the engine, the simplified party board, the x1.5
first-out bonus)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

from pydantic import BaseModel

from raceday.drawing import svg
from raceday.games.derby.rules import DerbyOptions
from raceday.games.derby.session import EveningOptions
from raceday.printing.catalog import Part, PrintOptions, new_page, say
from raceday.printing.grid import fit, table
from raceday.printing.page import Credit, Page

DEFAULT_RACES = 5
PLAYER_ROWS = 14
HORSES = ("d4", "d6", "d8", "d10", "d12", "d20")


CREDIT = Credit("derby", "Dice Derby", "domi", "2016")
PARTS = (
    Part("scores", "Score sheet", "money, tickets and loans race by race", ("races",)),
    Part("auction", "Owners' auction", "sealed bids, buyers and prize money", ("races",)),
    Part("odds", "Whiteboard odds", "exact win and quinella odds, the party version and the "
         "x1.5 first-out bonus", ("margin", "fall_rate")),
)


class Options(PrintOptions):
    """Dice Derby's print options, checked by the evening's and the race's options
    models."""

    checked_by: ClassVar[Mapping[str, type[BaseModel]]] = {
        "races": EveningOptions, "margin": EveningOptions, "fall_rate": DerbyOptions}

    races: int | None = None
    margin: str | None = None
    fall_rate: str | None = None


def _w(options: Options, key: str, **params: object) -> str:
    return say(options, CREDIT.game, key, **params)


def _sheet(options: Options, part: str, races: int) -> Page:
    """A new page of ``part`` for ``races`` races: its title, what it is, and its intro line."""
    page = new_page(CREDIT, options, _w(options, f"print.part.{part}"),
                    _w(options, f"print.{part}.described", races=races))
    x, y, _, _ = page.body
    page.add(svg.text(x, y + 5, _w(options, f"print.{part}.intro"), 3.2))
    return page


def part_scores(options: Options) -> list[Page]:
    races = options.races or DEFAULT_RACES
    page = _sheet(options, "scores", races)
    x, y, w, h = page.body
    header = [_w(options, "print.col.player"), _w(options, "print.col.start")]
    for r in range(1, races + 1):
        header += [_w(options, f"print.col.race_{kind}", race=r)
                   for kind in ("staked", "won", "money")]
    header += [_w(options, "print.col.loans"), _w(options, "print.col.final"),
               _w(options, "print.col.rank")]
    widths = fit([24, 11] + [10] * (3 * races) + [11, 13, 8], w)
    rows = [[""] * len(header) for _ in range(PLAYER_ROWS)]
    row_h = min(12.0, (h - 40) / (PLAYER_ROWS + 1))
    page.add(table(x, y + 10, widths, header, rows, row_height=row_h, header_height=10,
                   header_size=2.6))
    notes = [_w(options, "print.scores.final"), _w(options, "print.scores.award")]
    for i, note in enumerate(notes):
        page.add(svg.text(x, y + h - 6 + 4.5 * i, note, 3.0))
    return [page]


def part_auction(options: Options) -> list[Page]:
    races = options.races or DEFAULT_RACES
    page = _sheet(options, "auction", races)
    x, y, w, h = page.body
    header = [_w(options, "print.col.die"), _w(options, "print.col.bids"),
              _w(options, "print.col.owner"), _w(options, "print.col.price")]
    header += [_w(options, "print.col.race_prize", race=r) for r in range(1, races + 1)]
    header += [_w(options, "print.col.prize_total"), _w(options, "print.col.net")]
    widths = fit([12, 52, 26, 16] + [12] * races + [16, 16], w)
    rows = [[d] + [""] * (len(header) - 1) for d in HORSES]
    page.add(table(x, y + 10, widths, header, rows, row_height=16, header_height=10,
                   header_size=2.8, size=4.5))
    top = y + 10 + 10 + 16 * 6 + 12
    page.add(svg.text(x, top, _w(options, "print.auction.slips"), 3.4, bold=True))
    cols, rows_n = 3, max(1, int((y + h - top - 6) // 22))
    sw = (w - 2 * 4) / cols
    for k in range(cols * rows_n):
        sx, sy = x + (k % cols) * (sw + 4), top + 5 + (k // cols) * 22
        page.add(svg.rect(sx, sy, sw, 18, fill="none", stroke=svg.INK, stroke_width=0.3,
                          stroke_dasharray="2 1"))
        page.add(svg.text(sx + 3, sy + 6, _w(options, "print.auction.slip_die",
                                             dice=" ".join(HORSES)), 3.0))
        page.add(svg.text(sx + 3, sy + 12.5, _w(options, "print.auction.slip_bid"), 3.0))
    return [page]


def board_numbers(margin: Fraction, rate: Fraction) -> dict[str, dict[Any, int]]:
    """Every price on the whiteboard, in tenths, straight from the engine's boards."""
    from raceday.games.derby.odds import ALL_PAIRS, exact_odds, make_board
    from raceday.games.derby.rules import POSTS

    exact = exact_odds(rate)
    board = make_board(exact, margin)
    simple = make_board(exact, margin, simple=True)
    bonus = {h: make_board(exact, margin, first_out_counts={h: 1}).win[h] for h in POSTS}
    bonus_simple = {h: make_board(exact, margin, simple=True, first_out_counts={h: 1}).win[h]
                    for h in POSTS}
    return {
        "win": dict(board.win), "win_party": dict(simple.win), "win_bonus": bonus,
        "win_bonus_party": bonus_simple,
        "quinella": {pr: board.quinella[pr] for pr in ALL_PAIRS},
        "quinella_party": {pr: simple.quinella[pr] for pr in ALL_PAIRS},
    }


def odds_settings(options: Options) -> tuple[Fraction, Fraction]:
    from raceday.games.derby.odds import parse_margin
    from raceday.games.derby.rules import DerbyOptions

    margin = parse_margin(options.margin if options.margin is not None else "0.1")
    rate = DerbyOptions.parse({"fall_rate": options.fall_rate or "0"}).fall_rate
    return margin, rate


def _number(value: Fraction) -> str:
    """0.1 for 1/10; a fraction that has no short decimal stays a fraction (1/3)."""
    text = f"{float(value):g}"
    return text if Fraction(text) == value else str(value)


def part_odds(options: Options) -> list[Page]:
    from raceday.games.derby.odds import exact_odds, format_odds, pair_name
    from raceday.games.derby.rules import POSTS, horse_name

    margin, rate = odds_settings(options)
    described = _w(options, "print.odds.described", margin=_number(margin),
                   rate=_number(rate))
    numbers = board_numbers(margin, rate)
    exact = exact_odds(rate)
    page = new_page(CREDIT, options, _w(options, "print.part.odds"), described)
    x, y, w, h = page.body
    page.add(svg.text(x, y + 6, _w(options, "print.odds.win"), 6, bold=True))
    page.add(svg.text(x + 20, y + 6, _w(options, "print.odds.win_note"), 3.2))
    header = [_w(options, f"print.col.{c}") for c in ("post", "horse", "chance", "price",
                                                      "party_price", "bonus", "bonus_party")]
    widths = fit([14, 20, 26, 28, 28, 28, 28], w)
    rows = []
    for post in POSTS:
        rows.append([str(post), horse_name(post), f"{float(exact.win[post]) * 100:.2f}%",
                     format_odds(numbers["win"][post]), format_odds(numbers["win_party"][post]),
                     format_odds(numbers["win_bonus"][post]),
                     format_odds(numbers["win_bonus_party"][post])])
    page.add(table(x, y + 10, widths, header, rows, row_height=11, header_height=10,
                   header_size=3.0, size=6.0, cls="odds-win"))
    qy = y + 10 + 10 + 11 * 6 + 12
    page.add(svg.text(x, qy, _w(options, "print.odds.quinella"), 6, bold=True))
    page.add(svg.text(x + 36, qy, _w(options, "print.odds.quinella_note"), 3.2))
    qrows = []
    pairs = sorted(numbers["quinella"])
    for pr in pairs:
        qrows.append([pair_name(pr), f"{float(exact.quinella[pr]) * 100:.2f}%",
                      format_odds(numbers["quinella"][pr]),
                      format_odds(numbers["quinella_party"][pr])])
    qw = fit([26, 22, 22, 22], (w - 8) / 2)
    half = (len(qrows) + 1) // 2
    row_h = min(9.0, (y + h - qy - 30) / half)
    qheader = [_w(options, f"print.col.{c}") for c in ("pair", "chance", "price",
                                                       "party_price")]
    page.add(table(x, qy + 4, qw, qheader, qrows[:half], row_height=row_h, header_height=9,
                   header_size=3.0, size=4.6, cls="odds-quinella"))
    page.add(table(x + (w + 8) / 2, qy + 4, qw, qheader, qrows[half:], row_height=row_h,
                   header_height=9, header_size=3.0, size=4.6, cls="odds-quinella"))
    notes = [_w(options, f"print.odds.note_{n}") for n in ("chance", "bonus", "party")]
    for i, note in enumerate(notes):
        page.add(svg.text(x, y + h - 10 + 4.4 * i, note, 2.9))
    return [page]
