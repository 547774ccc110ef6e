"""A terminal picture of a Hairpin Racers position.

:func:`state_markup` is the line-mode picture (Rich markup, printed in order with the log).
:func:`board_view` is the full-screen board: a function of the space it gets, drawing the
3x6 board with its barriers as large as fits (small cells at 80x24, big ones with the
square names at 120x40), and, for a move being considered, the moving racer's square and
its target highlighted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text

from raceday.games.hairpin.picture import (
    BLACK,
    BLACK_STYLE,
    RED,
    RED_ARROWS,
    RED_STYLE,
    Frame,
    clock_counters,
    frame_markup,
    result_words,
    side_counters,
    side_name,
    words,
)
from raceday.games.hairpin.rules import COLUMNS, ROWS, SQUARES, WIDTH, HairpinState, Move
from raceday.games.hairpin.rules import square_name as name_of_square

ORIGIN_STYLE = "bold black on yellow"  # the racer that would move
TARGET_STYLE = "bold black on green3"  # where it would go
EMPTY_STYLE = "grey50"
WALL_STYLE = "bold bright_white"


def state_markup(state: HairpinState, lang: str = "en") -> str:
    """Board, counters, and who is to move or the result (line mode)."""
    return frame_markup(state.frame(), lang)


@dataclass(frozen=True)
class Layout:
    """How big the full-screen board is drawn."""

    cell: int  # characters per square
    lines: int  # lines per square: 1, or 3 and 5 with the square's name on top
    walls: bool  # lines for the barriers between the rows
    legend: bool  # the finish line and arrow legend under the board

    def width(self) -> int:
        return 6 + WIDTH * self.cell + (WIDTH - 1) + 3

    def height(self, counter_lines: int, legend_lines: int) -> int:
        rows = ROWS * self.lines
        return 1 + rows + (ROWS + 1 if self.walls else 0) + counter_lines + 1 + (
            legend_lines if self.legend else 0)


LAYOUTS = (
    Layout(11, 5, True, True), Layout(11, 3, True, True), Layout(9, 3, True, True),
    Layout(7, 3, True, True), Layout(9, 1, True, True), Layout(7, 1, True, True),
    Layout(5, 1, True, True), Layout(5, 1, True, False), Layout(5, 1, False, False),
)


def _walls() -> set[tuple[int, int]]:
    """(column, row below) pairs where a barrier separates two rows (row 1-based)."""
    from raceday.games.hairpin.drawing import barriers

    return set(barriers())


def _counter_lines(frame: Frame, lang: str, width: int) -> list[Text]:
    parts = []
    for side, style in ((RED, RED_STYLE), (BLACK, BLACK_STYLE)):
        part = Text()
        part.append(f" {side_name(side, lang)} ", style=style)
        part.append(" " + side_counters(frame, side, lang))
        parts.append(part)
    clock = Text(clock_counters(frame, lang), style="dim")
    one = Text("   ").join([*parts, clock])
    if one.cell_len <= width:
        return [one]
    return [*parts, clock]


def _wrapped(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken between words (or anywhere
    in a text without spaces, such as Japanese)."""
    from rich.cells import cell_len

    lines: list[str] = []
    line = ""
    for word in text.split(" ") if " " in text else list(text):
        joined = f"{line} {word}" if line and " " in text else line + word
        if line and cell_len(joined) > width:
            lines.append(line)
            line = word
        else:
            line = joined
    return [*lines, line] if line else lines


def _cell_text(count: int, cell: int) -> tuple[str, str]:
    if count == 0:
        return "·".center(cell), EMPTY_STYLE
    letter = "R" if count > 0 else "B"
    n = abs(count)
    label = f"{letter}{n}" if n > 1 else letter
    return label.center(cell), RED_STYLE if count > 0 else BLACK_STYLE


def draw_board(frame: Frame, width: int, height: int, lang: str = "en",
               highlight: Move | None = None, note: str = "", warning: str = "") -> Text:
    """The board as large as fits in ``width`` x ``height``, with ``highlight``'s origin
    and target squares marked; ``note`` (the move considered) and ``warning`` (what it
    decides) take the place of the line saying who is to move."""
    counters = _counter_lines(frame, lang, width)
    legend = [*_wrapped(words("term.finish_line", lang), max(width, 20)),
              *_wrapped(words("term.arrows", lang), max(width, 20))]
    layout = next((lay for lay in LAYOUTS if lay.width() <= width
                   and lay.height(len(counters), len(legend)) <= height), LAYOUTS[-1])
    cell = layout.cell
    origin = target = -1
    if highlight is not None:
        origin = highlight.origin if highlight.origin < SQUARES else -1
        target = highlight.dest
    walls = _walls()
    cells = frame["cells"]
    out = Text(no_wrap=True, overflow="crop")
    out.append("      " + " ".join(c.center(cell) for c in COLUMNS) + "\n", style="bold")

    def wall_line(row_below: int) -> None:
        # the line over the 1-based row ``row_below`` (0: the bottom edge, 3: the top edge)
        def wall(col: int) -> bool:
            return row_below in (0, ROWS) or (col, row_below) in walls

        out.append("      ")
        for col in range(WIDTH):
            out.append(("━" if wall(col) else " ") * cell, style=WALL_STYLE)
            if col < WIDTH - 1:
                out.append("━" if wall(col) and wall(col + 1) else " ", style=WALL_STYLE)
        out.append("\n")

    if layout.walls:
        wall_line(ROWS)
    for row in range(ROWS - 1, -1, -1):
        red_arrow = RED_ARROWS[row]
        black_arrow = "←" if red_arrow == "→" else "→"
        lines = layout.lines
        for line in range(lines):
            middle = line == lines // 2
            if middle:
                out.append(f" {black_arrow}", style="dim")
                out.append(f" {row + 1}  ", style="bold")
            else:
                out.append("      ")
            for col in range(WIDTH):
                square = row * WIDTH + col
                label, style = _cell_text(cells[square], cell)
                if square == origin:
                    style = ORIGIN_STYLE
                elif square == target:
                    style = TARGET_STYLE
                    if cells[square] == 0:
                        label = "◆".center(cell)
                if not middle:
                    label = (f" {name_of_square(square)}".ljust(cell) if line == 0
                             else " " * cell)
                    if style == EMPTY_STYLE:
                        style = "grey35" if line == 0 else ""
                    else:
                        style = style.replace("bold ", "")
                out.append(label, style=style)
                if col < WIDTH - 1:
                    out.append(" ")
            out.append(f"  {red_arrow}" if middle else "", style="dim")
            out.append("\n")
        if layout.walls:
            wall_line(row)
    for counter in counters:
        out.append_text(counter)
        out.append("\n")
    over = result_words(frame, lang)
    if over is not None:
        out.append(words("term.game_over", lang) + " ", style="bold")
        out.append(over)
    elif note:
        out.append("▶ " + note, style="bold")
        if warning:
            out.append("  ⚠ " + warning, style="bold red")
    elif frame["to_move"] is not None:
        out.append(words("term.to_move", lang, side=side_name(frame["to_move"], lang)))
    if layout.legend:
        for words_line in legend:
            out.append("\n" + words_line, style="dim")
    return out


def board_view(state: HairpinState, lang: str = "en", highlight: Move | None = None,
               note: str = "", warning: str = "") -> Callable[[int, int], RenderableType]:
    """The full-screen board of ``state`` (drawn again for every size it gets), with
    ``highlight``'s squares marked and ``note``/``warning`` under it."""
    frame = state.frame()

    def draw(width: int, height: int) -> RenderableType:
        return draw_board(frame, width, height, lang, highlight, note, warning)

    return draw
