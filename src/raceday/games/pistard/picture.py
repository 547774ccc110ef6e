"""A PISTARD race drawn from the state's frame (:meth:`PistardState.frame`): the lap as
an oval in two straights (Rich) with the standings, and the same picture as plain text
(:func:`text_picture`). It reads only the frame, so the rules never depend on how a race is drawn.

The first half of the lap runs left to right with the outer lane on top, the second half
runs back right to left below it with the inner lane on top, so the infield lies between
them. Squares are shown in their colours; riders by their numbers.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.text import Text

from raceday.games.pistard.track import LANES, LETTERS

if TYPE_CHECKING:
    from raceday.games.pistard.state import PistardState

Frame = dict[str, Any]
RACE = "race"

SQUARE_STYLE = {
    0: "black on yellow",
    1: "black on green3",
    2: "white on blue",
    3: "white on red3",
}


def _cell(frame: Frame, column: int, lane: int,
          occupants: dict[tuple[int, int], int], highlight: int | None) -> Text:
    colour = frame["grid"][lane - 1][column]
    style = SQUARE_STYLE[colour]
    ident = occupants.get((column, lane))
    if ident is None:
        return Text(f" {LETTERS[colour].lower()}", style="dim " + style)
    bold = "bold reverse " if ident == highlight else "bold "
    return Text(f"{ident:>2}", style=bold + style)


def board(frame: Frame, highlight: int | None = None) -> Group:
    """The whole lap as two straights, riders by number (``highlight`` shown reversed)."""
    length = frame["length"]
    half = length // 2
    occupants = {(r["col"], r["lane"]): r["rider"] for r in frame["riders"]
                 if r["status"] == RACE}
    lines: list[Text] = []
    ruler = Text("       ")
    for column in range(half):
        ruler.append(f"{column:<4}" if column % 2 == 0 else "", style="dim")
    lines.append(ruler)
    for lane in range(LANES, 0, -1):
        row = Text(f"lane {lane} |", style="dim")
        for column in range(half):
            row.append_text(_cell(frame, column, lane, occupants, highlight))
        lines.append(row)
    lines.append(Text("       " + "infield".center(2 * half), style="dim italic"))
    for lane in range(1, LANES + 1):
        row = Text(f"lane {lane}  ", style="dim")
        for column in range(length - 1, half - 1, -1):
            row.append_text(_cell(frame, column, lane, occupants, highlight))
        lines.append(row)
    ruler = Text("       ")
    for column in range(length - 1, half - 1, -2):
        ruler.append(f"{column:<4}", style="dim")
    lines.append(ruler)
    lines.append(Text("  the lap runs left to right on top, then right to left below; the "
                      "line is just before column 0 (top left); y g b r = yellow green blue "
                      "red", style="dim"))
    return Group(*lines)


def standings(frame: Frame) -> Text:
    """Riders in race order with distance to go, lane and their player's tokens."""
    out = Text()
    for row in frame["standings"]:
        to_go = row["to_go"]
        where = f"{to_go:>3} to go" if to_go > 0 else f"over the line, {-to_go} past"
        extra = f", {row['points']} pts" if row["points"] is not None else ""
        out.append(f"  rider {row['rider']:>2}: lane {row['lane']}, {where}; player "
                   f"{row['owner'] + 1}, tokens {row['tokens']}{extra}\n")
    return out


def frame_text(frame: Frame) -> str:
    """The board and the standings as plain text (no colour codes): empty squares show
    their colour's letter, riders their numbers."""
    out = io.StringIO()
    width = 2 * frame["length"] + 40
    plain = Console(file=out, width=width, color_system=None, force_terminal=False,
                    highlight=False, emoji=False)
    plain.print(board(frame))
    if frame["phase"] != "place":
        plain.print(standings(frame), end="")
    return out.getvalue()


def text_picture(state: PistardState) -> str:
    """The state's picture as plain text: board and standings (the game's ``picture`` face,
    :func:`raceday.present.pictures.text_picture`)."""
    return frame_text(state.frame())
