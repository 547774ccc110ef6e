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
from raceday.printing.catalog import Part, PrintOptions, new_page
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


def part_scores(options: Options) -> list[Page]:
    races = options.races or DEFAULT_RACES
    page = new_page(CREDIT, options, "Score sheet",
                    f"{races} races; everyone starts with 10,000; stakes in hundreds")
    x, y, w, h = page.body
    page.add(svg.text(x, y + 5, "Each race: what a player staked, what came back (winning "
                      "tickets and prize money) and the money held after it.", 3.2))
    header = ["Player", "Start"]
    for r in range(1, races + 1):
        header += [f"R{r}\nstaked", f"R{r}\nwon", f"R{r}\nmoney"]
    header += ["Loans\nowed", "Final\n(net)", "Rank"]
    widths = fit([24, 11] + [10] * (3 * races) + [11, 13, 8], w)
    rows = [[""] * len(header) for _ in range(PLAYER_ROWS)]
    row_h = min(12.0, (h - 40) / (PLAYER_ROWS + 1))
    page.add(table(x, y + 10, widths, header, rows, row_height=row_h, header_height=10,
                   header_size=2.6))
    notes = ["Final (net) = money held minus loans owed; the most money wins.",
             "Owners' award: the owner with the most prize money (see the auction sheet)."]
    for i, note in enumerate(notes):
        page.add(svg.text(x, y + h - 6 + 4.5 * i, note, 3.0))
    return [page]


def part_auction(options: Options) -> list[Page]:
    races = options.races or DEFAULT_RACES
    page = new_page(CREDIT, options, "Owners' auction",
                    f"{races} races; dice auctioned from the d4 up; prize 2,000 for 1st and "
                    "1,000 for 2nd")
    x, y, w, h = page.body
    page.add(svg.text(x, y + 5, "Sealed bids per die (a bid of 0 is no bid); the highest "
                      "buys it. Prize money race by race.", 3.2))
    header = ["Die", "Bids\n(name: amount)", "Owner", "Price"]
    header += [f"R{r}\nprize" for r in range(1, races + 1)]
    header += ["Prize\ntotal", "Net\n(- price)"]
    widths = fit([12, 52, 26, 16] + [12] * races + [16, 16], w)
    rows = [[d] + [""] * (len(header) - 1) for d in HORSES]
    page.add(table(x, y + 10, widths, header, rows, row_height=16, header_height=10,
                   header_size=2.8, size=4.5))
    top = y + 10 + 10 + 16 * 6 + 12
    page.add(svg.text(x, top, "Bid slips (cut out; one per bidder and die):", 3.4, bold=True))
    cols, rows_n = 3, max(1, int((y + h - top - 6) // 22))
    sw = (w - 2 * 4) / cols
    for k in range(cols * rows_n):
        sx, sy = x + (k % cols) * (sw + 4), top + 5 + (k // cols) * 22
        page.add(svg.rect(sx, sy, sw, 18, fill="none", stroke=svg.INK, stroke_width=0.3,
                          stroke_dasharray="2 1"))
        page.add(svg.text(sx + 3, sy + 6, "Die: d4 d6 d8 d10 d12 d20", 3.0))
        page.add(svg.text(sx + 3, sy + 12.5, "Name __________ Bid ______", 3.0))
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
    described = (f"margin {_number(margin)} (board = fair odds x (1 - margin), rounded half "
                 f"up to 0.1, at least 1.1); fall rate {_number(rate)}; party prices rounded "
                 "down to easy numbers")
    numbers = board_numbers(margin, rate)
    exact = exact_odds(rate)
    page = new_page(CREDIT, options, "Whiteboard odds", described)
    x, y, w, h = page.body
    page.add(svg.text(x, y + 6, "WIN", 6, bold=True))
    page.add(svg.text(x + 20, y + 6, "pays stake x price when the horse finishes 1st", 3.2))
    header = ["Post", "Horse", "Chance", "Price", "Party\nprice", "x1.5 first\nout",
              "x1.5\nparty"]
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
    page.add(svg.text(x, qy, "QUINELLA", 6, bold=True))
    page.add(svg.text(x + 36, qy, "1st and 2nd in either order", 3.2))
    qrows = []
    pairs = sorted(numbers["quinella"])
    for pr in pairs:
        qrows.append([pair_name(pr), f"{float(exact.quinella[pr]) * 100:.2f}%",
                      format_odds(numbers["quinella"][pr]),
                      format_odds(numbers["quinella_party"][pr])])
    qw = fit([26, 22, 22, 22], (w - 8) / 2)
    half = (len(qrows) + 1) // 2
    row_h = min(9.0, (y + h - qy - 30) / half)
    qheader = ["Pair", "Chance", "Price", "Party\nprice"]
    page.add(table(x, qy + 4, qw, qheader, qrows[:half], row_height=row_h, header_height=9,
                   header_size=3.0, size=4.6, cls="odds-quinella"))
    page.add(table(x + (w + 8) / 2, qy + 4, qw, qheader, qrows[half:], row_height=row_h,
                   header_height=9, header_size=3.0, size=4.6, cls="odds-quinella"))
    notes = ["Chance: the exact probability from the rules (falls, re-rolls and roll-offs "
             "included), shown to 0.01%.",
             "x1.5 first out: the win price of a horse that dropped out first in an earlier "
             "race (again x1.5 for each further time).",
             "Party prices never pay more than the board: use them when arithmetic is hard."]
    for i, note in enumerate(notes):
        page.add(svg.text(x, y + h - 10 + 4.4 * i, note, 2.9))
    return [page]
