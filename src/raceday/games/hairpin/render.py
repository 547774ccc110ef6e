"""A terminal picture of a Hairpin Racers position (Rich markup), with the counters."""

from __future__ import annotations

from raceday.games.hairpin.rules import (
    BLACK,
    COLUMNS,
    RED,
    ROWS,
    WIDTH,
    HairpinState,
)

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


def board_markup(state: HairpinState) -> str:
    """The board with row 3 on top, Red's direction of travel on the right, Black's on
    the left, and the finish line between f3 and a1 marked."""
    pos = state.position
    lines = ["      " + "   ".join(f" {c}" for c in COLUMNS)]
    for row in range(ROWS - 1, -1, -1):
        cells = " ".join(_cell(pos.cells[row * WIDTH + col]) for col in range(WIDTH))
        red_arrow = RED_ARROWS[row]
        black_arrow = "←" if red_arrow == "→" else "→"
        lines.append(f" [dim]{black_arrow}[/] {row + 1}  {cells}  [dim]{red_arrow}[/]")
    lines.append("      [dim]finish line: between f3 and a1 (Red), a1 and f3 (Black)[/]")
    lines.append(f"      [dim]{ARROW_LEGEND}[/]")
    return "\n".join(lines)


def counters_markup(state: HairpinState) -> str:
    """Laps, bumps and pit for both players, against the variant's targets."""
    pos, rules = state.position, state.rules
    parts = []
    for p, name, style in ((RED, "Red", RED_STYLE), (BLACK, "Black", BLACK_STYLE)):
        laps = f"laps {pos.laps[p]}" + ("" if rules.derby else f"/{rules.target}")
        bumps = f"bumps {pos.bumps[p]}/{rules.target}" if rules.bumping else "no bumping"
        pit = f"  pit {pos.pit[p]}" if pos.pit[p] else ""
        parts.append(f"[{style}] {name} [/] {laps}  {bumps}{pit}")
    clock = f"   quiet plies {pos.clock}/{rules.quiet_limit}" if rules.derby else ""
    return "   ".join(parts) + f"   ply {pos.ply}{clock}"


def state_markup(state: HairpinState) -> str:
    """Board, counters, and who is to move or the result."""
    text = board_markup(state) + "\n" + counters_markup(state)
    if state.is_terminal():
        text += f"\n[bold]Game over:[/] {state.outcome().description}"
    elif not state.in_setup:
        side = "Red" if state.position.side == RED else "Black"
        text += f"\n{side} to move   [dim]{state.position_text()}[/]"
    return text
