"""Hairpin Racers' printed parts: the board with its barriers, and a lap/bump tally.

Every page carries the designer's rights note (docs/rules/hairpin.md): the rules and the
game belong to Phil Leduc, who reserves programming and selling it.
"""

from __future__ import annotations

from raceday.drawing import svg
from raceday.games.hairpin import drawing as draw
from raceday.printing.catalog import Part, PrintOptions, new_page
from raceday.printing.grid import fit, table
from raceday.printing.page import Credit, Page

CREDIT = Credit("hairpin", "Hairpin Racers", "Phil Leduc", "designed 2004, published 2024")
PARTS = (
    Part("board", "Board", "the 3x6 double hairpin with its barriers"),
    Part("tally", "Lap and bump tally", "laps and bumps of several games"),
)


class Options(PrintOptions):
    """Hairpin's parts take no option but the paper."""


RIGHTS_NOTE = ("Hairpin Racers © Phil Leduc, designed 2004, published 2024. All rights to "
               "the game and its rule text belong to the designer, who reserves the right to "
               "program or sell it in any form; ask him for permission or a licence. This "
               "sheet is for playing at home; it does not reproduce his rules.")


def _page(options: Options, part: str, described: str) -> Page:
    page = new_page(CREDIT, options, part, described)
    page.note = RIGHTS_NOTE
    return page


def part_board(options: Options) -> list[Page]:
    page = _page(options, "Board", "the 3x6 double hairpin; 5 red and 5 black racers")
    x, y, w, _h = page.body
    size = min(30.0, (w - 34) / 6)
    bx = x + (w - 6 * size) / 2
    page.add(draw.board(bx, y + 14, size))
    page.add(svg.text(x, y + 6, "Barriers (thick lines) make the double hairpin. Red starts "
                      "on a1-e1, Black on f3-b3; arrows show Red's way.", 3.2))
    ry = y + 14 + 3 * size + 20
    page.add(svg.text(x, ry, "Racers (cut out):", 3.4, bold=True))
    for i in range(5):
        page.add(draw.racer(x + 10 + i * 17, ry + 12, draw.RED, "R"))
        page.add(draw.racer(x + 10 + i * 17, ry + 28, draw.BLACK, "B"))
    return [page]


def part_tally(options: Options) -> list[Page]:
    page = _page(options, "Lap and bump tally", "standard game: 5 laps win, the 5th bump "
                 "loses (short game: 3 and 3)")
    x, y, w, h = page.body
    page.add(svg.text(x, y + 6, "Tick a box for every lap completed and every opponent "
                      "racer bumped.", 3.2))
    header = ["Game", "Variant", "Player", "Laps 1", "2", "3", "4", "5", "Bumps 1", "2", "3",
              "4", "5", "Result"]
    widths = fit([12, 24, 16, 12, 8, 8, 8, 8, 14, 8, 8, 8, 8, 22], w)
    games = max(1, int((h - 30) // 24))
    rows = []
    for g in range(games):
        rows.append([str(g + 1), "", "Red"] + [""] * 11)
        rows.append(["", "", "Black"] + [""] * 11)
    page.add(table(x, y + 12, widths, header, rows, row_height=10, header_height=9,
                   header_size=2.8))
    return [page]
