"""Hairpin Racers' printed parts: the board with its barriers, and a lap/bump tally.

Every page carries the designer's rights note (docs/rules/hairpin.md): the rules and the
game belong to Phil Leduc, who reserves programming and selling it.
"""

from __future__ import annotations

from raceday.drawing import svg
from raceday.games.hairpin import drawing as draw
from raceday.printing.catalog import Part, PrintOptions, new_page, say
from raceday.printing.grid import fit, table
from raceday.printing.page import Credit, Page

CREDIT = Credit("hairpin", "Hairpin Racers", "Phil Leduc", "designed 2004, published 2024")
PARTS = (
    Part("board", "Board", "the 3x6 double hairpin with its barriers"),
    Part("tally", "Lap and bump tally", "laps and bumps of several games"),
)


class Options(PrintOptions):
    """Hairpin's parts take no option but the paper."""


def _w(options: Options, key: str, **params: object) -> str:
    return say(options, CREDIT.game, key, **params)


def _page(options: Options, part: str, described: str) -> Page:
    page = new_page(CREDIT, options, part, described)
    page.note = _w(options, "print.rights")
    return page


def part_board(options: Options) -> list[Page]:
    page = _page(options, _w(options, "print.part.board"), _w(options, "print.board.described"))
    x, y, w, _h = page.body
    size = min(30.0, (w - 34) / 6)
    bx = x + (w - 6 * size) / 2
    page.add(draw.board(bx, y + 14, size, red_square=_w(options, "print.board.red_square"),
                        black_square=_w(options, "print.board.black_square"),
                        red_finish=_w(options, "print.board.red_finish"),
                        black_finish=_w(options, "print.board.black_finish")))
    page.add(svg.text(x, y + 6, _w(options, "print.board.intro"), 3.2))
    ry = y + 14 + 3 * size + 20
    page.add(svg.text(x, ry, _w(options, "print.board.racers"), 3.4, bold=True))
    for i in range(5):
        page.add(draw.racer(x + 10 + i * 17, ry + 12, draw.RED,
                            _w(options, "print.board.red_racer")))
        page.add(draw.racer(x + 10 + i * 17, ry + 28, draw.BLACK,
                            _w(options, "print.board.black_racer")))
    return [page]


def part_tally(options: Options) -> list[Page]:
    page = _page(options, _w(options, "print.part.tally"), _w(options, "print.tally.described"))
    x, y, w, h = page.body
    page.add(svg.text(x, y + 6, _w(options, "print.tally.intro"), 3.2))
    header = [_w(options, "print.col.game"), _w(options, "print.col.variant"),
              _w(options, "print.col.player"), _w(options, "print.col.laps"), "2", "3", "4",
              "5", _w(options, "print.col.bumps"), "2", "3", "4", "5",
              _w(options, "print.col.result")]
    widths = fit([12, 24, 16, 12, 8, 8, 8, 8, 14, 8, 8, 8, 8, 22], w)
    games = max(1, int((h - 30) // 24))
    rows = []
    for g in range(games):
        rows.append([str(g + 1), "", _w(options, "hp_red")] + [""] * 11)
        rows.append(["", "", _w(options, "hp_black")] + [""] * 11)
    page.add(table(x, y + 12, widths, header, rows, row_height=10, header_height=9,
                   header_size=2.8))
    return [page]
