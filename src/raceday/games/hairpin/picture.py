"""A Hairpin Racers board drawn from the state's frame (:meth:`HairpinState.frame`): Rich
markup for the terminal and the same picture as plain text (the state's ``str``). It reads
only the frame, so the rules never depend on how a board is drawn."""

from __future__ import annotations

from typing import Any

from raceday.core.events import Message
from raceday.present import render

Frame = dict[str, Any]
RED, BLACK = 0, 1
RED_STYLE = "bold white on red"
BLACK_STYLE = "bold white on grey15"
# The direction Red travels on each row (Black travels the other way).
RED_ARROWS = {0: "→", 1: "←", 2: "→"}
ARROW_LEGEND = "arrows: direction of travel, Red's on the right, Black's on the left"


def _cell(count: int) -> str:
    if count == 0:
        return "[dim] ·  [/]"
    style = RED_STYLE if count > 0 else BLACK_STYLE
    letter = "R" if count > 0 else "B"
    n = abs(count)
    label = f"{letter}{n}" if n > 1 else f"{letter} "
    return f"[{style}] {label} [/]"


def board_markup(frame: Frame) -> str:
    """The board with row 3 on top, Red's direction of travel on the right, Black's on
    the left, and the finish line between f3 and a1 marked."""
    columns, cells = frame["columns"], frame["cells"]
    width = len(columns)
    lines = ["      " + "   ".join(f" {c}" for c in columns)]
    for row in range(frame["rows"] - 1, -1, -1):
        line = " ".join(_cell(cells[row * width + col]) for col in range(width))
        red_arrow = RED_ARROWS[row]
        black_arrow = "←" if red_arrow == "→" else "→"
        lines.append(f" [dim]{black_arrow}[/] {row + 1}  {line}  [dim]{red_arrow}[/]")
    lines.append("      [dim]finish line: between f3 and a1 (Red), a1 and f3 (Black)[/]")
    lines.append(f"      [dim]{ARROW_LEGEND}[/]")
    return "\n".join(lines)


def counters_markup(frame: Frame) -> str:
    """Laps, bumps and pit for both players, against the variant's targets."""
    target = frame["target"]
    parts = []
    for p, name, style in ((RED, "Red", RED_STYLE), (BLACK, "Black", BLACK_STYLE)):
        laps = f"laps {frame['laps'][p]}" + ("" if frame["derby"] else f"/{target}")
        bumps = f"bumps {frame['bumps'][p]}/{target}" if frame["bumping"] else "no bumping"
        pit = f"  pit {frame['pit'][p]}" if frame["pit"][p] else ""
        parts.append(f"[{style}] {name} [/] {laps}  {bumps}{pit}")
    clock = f"   quiet plies {frame['clock']}/{frame['quiet_limit']}" if frame["derby"] else ""
    return "   ".join(parts) + f"   ply {frame['ply']}{clock}"


def frame_markup(frame: Frame) -> str:
    """Board, counters, and who is to move or the result."""
    text = board_markup(frame) + "\n" + counters_markup(frame)
    result = frame["result"]
    if result is not None:
        words = render(Message(result["key"], result["params"]), "en", "hairpin")
        text += f"\n[bold]Game over:[/] {words}"
    elif frame["to_move"] is not None:
        side = "Red" if frame["to_move"] == RED else "Black"
        text += f"\n{side} to move   [dim]{frame['text']}[/]"
    return text


def frame_text(frame: Frame) -> str:
    """The same picture as plain text."""
    from rich.text import Text

    return Text.from_markup(frame_markup(frame)).plain
