"""Twin Dice Dash's printed parts, on raceday's print kit: the track with two lanes and the
runners to cut out, and a round sheet (sealed bets, dice, purses) with the exact odds.

Every option is a field of the game's options model, checked by it (``checked_by``); the
odds come from the rules (:meth:`TwinDashState.further_chances`), never worked out here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pydantic import BaseModel

from raceday.drawing import svg
from raceday.present import render
from raceday.printing.catalog import Part, PrintOptions, new_page
from raceday.printing.grid import fit, table
from raceday.printing.page import Credit, Page, wrap
from raceday_twindash.game import GAME, RaceOptions, TwinDashOptions
from raceday_twindash.rules import GAME_NAME, PLAYERS, TwinDashState

CREDIT = Credit(GAME_NAME, GAME.title, "the raceday project", "2026, a test game")
PARTS = (
    Part("track", "Track", "two lanes to the finish line and the runners to cut out",
         ("length",)),
    Part("sheet", "Round sheet", "sealed bets, dice and purses round by round, with the "
         "exact odds", ("length", "rounds", "chips", "max_stake", "prize")),
)
COLOURS = ("#c62828", "#1565c0")


class Options(PrintOptions):
    """The race's options that the parts use, each checked by the game's options model
    (the printed track and sheet are for two players, Red and Blue)."""

    checked_by: ClassVar[Mapping[str, type[BaseModel]]] = {
        name: TwinDashOptions for name in RaceOptions.model_fields}

    length: int | None = None
    rounds: int | None = None
    chips: int | None = None
    max_stake: int | None = None
    prize: int | None = None


def _course(options: Options) -> TwinDashOptions:
    """The game's options these print options describe (the model's defaults elsewhere)."""
    given = {k: v for k, v in options.given().items() if k in TwinDashOptions.model_fields}
    return GAME.options(given)


def _words(key: str, **params: object) -> str:
    return render(key, "en", GAME_NAME, params)


def part_track(options: Options) -> list[Page]:
    course = _course(options)
    page = new_page(CREDIT, options, _words("print.track", length=course.length),
                    f"length {course.length}")
    x, y, w, h = page.body
    per_row = 10
    rows = -(-(course.length + 1) // per_row)
    room_for_lanes = h - 8 - 30 - PLAYERS * 16  # the cut-out runners below
    size = min(16.0, w / per_row, room_for_lanes / (PLAYERS * rows))
    top = y + 8
    for runner in range(PLAYERS):
        lane_top = top + runner * (rows * size + 16)
        page.add(svg.text(x, lane_top - 2, _words(f"runner.{runner}"), 4.0, bold=True,
                          fill=COLOURS[runner]))
        for square in range(course.length + 1):
            row, col = divmod(square, per_row)
            sx, sy = x + col * size, lane_top + row * size
            finish = square == course.length
            page.add(svg.rect(sx, sy, size, size, fill="none", stroke=svg.INK,
                              stroke_width=1.2 if finish else 0.3))
            page.add(svg.centred_text(sx + size / 2, sy + size / 2,
                                      "FINISH" if finish else str(square),
                                      2.6 if finish else 3.2, bold=finish))
    cut = top + PLAYERS * (rows * size + 16) + 4
    page.add(svg.text(x, cut, "Runners (cut out):", 3.4, bold=True))
    for runner in range(PLAYERS):
        page.add(svg.circle(x + 10 + runner * 20, cut + 10, 6, fill=COLOURS[runner]),
                 svg.centred_text(x + 10 + runner * 20, cut + 10, "RB"[runner], 4.0,
                                  bold=True, fill=svg.WHITE))
    return [page]


def part_sheet(options: Options) -> list[Page]:
    course = _course(options)
    page = new_page(CREDIT, options, "Round sheet", f"length {course.length}, rounds "
                    f"{course.rounds}, chips {course.chips}, top stake {course.max_stake}, "
                    f"prize {course.prize}")
    x, y, w, h = page.body
    rules = _words("print.rules", max_stake=course.max_stake, length=course.length,
                   rounds=course.rounds, prize=course.prize)
    for i, line in enumerate(wrap(rules, w, 3.0)[:2]):
        page.add(svg.text(x, y + 4 + 4 * i, line, 3.0))
    level = TwinDashState(course.course())
    behind = TwinDashState(course.course())
    behind.squares = [0, 1]
    odds = [("level", level.further_chances()), ("Red behind", behind.further_chances())]
    lines = [f"{label}: Red further {a}, Blue further {b}, tie {tie}"
             for label, (a, b, tie) in odds]
    for i, line in enumerate(lines):
        page.add(svg.text(x, y + 13 + 5 * i, line, 3.0))
    header = ["Round", "Red's bet", "Blue's bet", "Dice R-B", "Red square", "Blue square",
              "Red chips", "Blue chips"]
    widths = fit([14, 30, 30, 20, 20, 20, 20, 20], w)
    rows = [[str(r + 1)] + [""] * 7 for r in range(course.rounds)]
    start = ["start", "", "", "", "0", "0", str(course.chips), str(course.chips)]
    end = [f"+{course.prize}", "", "", "", "", "", "", ""]  # the prize, then the purses
    height = min(8.0, (h - 30) / (len(rows) + 3))
    page.add(table(x, y + 26, widths, header, [start, *rows, end], row_height=height,
                   header_height=8, header_size=2.8))
    return [page]
