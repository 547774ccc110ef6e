"""The Hairpin Racers board: a 3x6 grid whose barriers make a double hairpin (mm).

Row 1 is at the bottom. Red runs a1 to f1, up to f2, back to a2, up to a3 and on to f3,
then over the finish line to a1 again; Black runs the same path the other way. So a
barrier separates rows 1 and 2 except at column f, and rows 2 and 3 except at column a.
"""

from __future__ import annotations

from raceday.drawing import svg
from raceday.games.hairpin.rules import COLUMNS, RED_TRACK, ROWS, WIDTH, square_name

RED = "#c62828"
BLACK = "#212121"


def barriers() -> list[tuple[int, int]]:
    """The barriers as (column, row below it): a wall on the top edge of row ``row``
    (1-based) in column ``column`` (0-based), where the track does not pass."""
    passes = {(RED_TRACK[i], RED_TRACK[i + 1]) for i in range(len(RED_TRACK) - 1)}
    walls = []
    for row in range(ROWS - 1):
        for col in range(WIDTH):
            below, above = row * WIDTH + col, (row + 1) * WIDTH + col
            if (below, above) not in passes and (above, below) not in passes:
                walls.append((col, row + 1))
    return walls


def board(x: float, y: float, size: float, *, red_square: str = "red {n}",
          black_square: str = "black {n}",
          red_finish: str = "Red's finish line: from f3 on to a1",
          black_finish: str = "Black's finish line: from a1 on to f3") -> str:
    """The board with its top-left corner at (x, y) and squares ``size`` mm wide; the
    words (``{n}``: a square's number on a colour's way) in the caller's language."""
    parts = []

    def corner(col: int, row: int) -> tuple[float, float]:  # row 1 at the bottom
        return x + col * size, y + (ROWS - row) * size

    for sq in range(ROWS * WIDTH):
        col, row = sq % WIDTH, sq // WIDTH + 1
        cx, cy = corner(col, row)
        index = RED_TRACK.index(sq)
        parts.append(svg.rect(cx, cy, size, size, fill="#fbfbf7" if (col + row) % 2 else
                              "#f0f0ea", stroke=svg.GREY, stroke_width=0.3, class_="square",
                              data_square=square_name(sq)))
        parts.append(svg.text(cx + 2, cy + 5, square_name(sq), 3.6, bold=True, fill=svg.GREY))
        parts.append(svg.text(cx + size - 2, cy + size - 2.5, red_square.format(n=index + 1), 2.4,
                              anchor="end", fill=RED))
        parts.append(svg.text(cx + 2, cy + size - 2.5, black_square.format(n=18 - index), 2.4,
                              fill=BLACK))
        # direction of travel for Red (Black rides the other way)
        going_right = row != 2
        ay = cy + size / 2
        a, b = (cx + size * 0.35, cx + size * 0.65) if going_right else (cx + size * 0.65,
                                                                        cx + size * 0.35)
        parts.append(svg.arrow(a, ay, b, ay, head=2.2, stroke=RED, stroke_width=0.5))
    for col, row in barriers():
        bx, by = corner(col, row)
        parts.append(svg.rect(bx - 0.6, by - 1.2, size + 1.2, 2.4, fill=svg.INK,
                              class_="barrier", data_between=f"{COLUMNS[col]}{row}-"
                                                         f"{COLUMNS[col]}{row + 1}"))
    parts.append(svg.rect(x, y, WIDTH * size, ROWS * size, fill="none", stroke=svg.INK,
                          stroke_width=2.4))
    # the finish line: leaving f3 (Red) continues at a1; leaving a1 (Black) at f3
    fx, fy = corner(WIDTH, 3)
    parts.append(svg.rect(fx - 1.5, fy, 3, size, fill=svg.WHITE, stroke=svg.INK,
                          stroke_width=0.5, stroke_dasharray="1.5 1.5"))
    sx, sy = corner(0, 1)
    parts.append(svg.rect(sx - 1.5, sy, 3, size, fill=svg.WHITE, stroke=svg.INK,
                          stroke_width=0.5, stroke_dasharray="1.5 1.5"))
    parts.append(svg.text(fx + 2, fy - 2.5, red_finish, 2.8,
                          anchor="end", fill=RED))
    parts.append(svg.text(sx - 2, sy + size + 11, black_finish,
                          2.8))
    for col in range(WIDTH):
        cx, _ = corner(col, 1)
        parts.append(svg.centred_text(cx + size / 2, y + ROWS * size + 5, COLUMNS[col], 4,
                                      bold=True))
    for row in range(1, ROWS + 1):
        _, cy = corner(0, row)
        parts.append(svg.centred_text(x - 4, cy + size / 2 - 8, str(row), 4, bold=True))
    return svg.group(parts, class_="hairpin-board")


def racer(cx: float, cy: float, colour: str, label: str) -> str:
    return svg.group([
        svg.circle(cx, cy, 6.5, fill=colour, stroke=svg.INK, stroke_width=0.4),
        svg.centred_text(cx, cy, label, 3.6, bold=True, fill=svg.WHITE),
    ], class_="racer")
