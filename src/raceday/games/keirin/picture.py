"""The picture of a KEIRIN race: one lane per rider, the finish line, the gap to the front.

Drawn from what any race state shows (positions, placed riders, the options): plain text
here (:func:`text_picture`, for replays and research), and the terminal's
:mod:`raceday.games.keirin.render` draws the same picture in colour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from raceday.games.keirin.night import NightState
    from raceday.games.keirin.rules import KeirinState


class RaceLike(Protocol):
    """What the picture reads from a race state."""

    options: Any  # .riders, .length
    positions: list[int]
    ranked: list[int]

    def active_riders(self) -> list[int]: ...


RIDER_STYLES = {
    1: "bold white on grey23",
    2: "bold black on white",
    3: "bold white on red",
    4: "bold white on blue",
    5: "bold black on yellow",
    6: "bold white on green",
    7: "bold black on dark_orange",
    8: "bold white on magenta",
    9: "bold black on cyan",
}
VIEW_WIDTH = 64  # cells shown at once (a cell is one square unless the field is spread out)
LAP = 100  # squares in one lap of the track


def track_window(state: RaceLike, width: int = VIEW_WIDTH) -> tuple[int, int, int]:
    """(first square, last square, squares per cell) of a view that holds every rider and the
    finish line in at most ``width`` cells: one square per cell while the field fits, else
    several (a long race, --length 100, strings the field out)."""
    line = state.options.length
    positions = state.positions or [line]
    first = min(min(positions), line) - 1
    last = max(max(positions), line) + 1
    span = last - first + 1
    if span <= width:  # keep the view anchored at the right, as on a finish camera
        return last - width + 1, last, 1
    scale = -(-span // width)
    return first, first + scale * width - 1, scale


def render_track(state: RaceLike, width: int = VIEW_WIDTH,
                 words: dict[str, str] | None = None, derny: int | None = None) -> Table:
    """One lane per rider: a marker at the rider's square, the finish line, gap to the front.

    The whole field is always in view: when it is spread over more than ``width`` squares,
    each cell stands for several squares (said in the header). ``words`` gives the
    headings, the front's marks and the scale in another language ("rider", "gap", "lead",
    "level", "scale" with ``{scale}`` where the number goes); English by default. With
    ``derny`` (a square), a first lane ``D`` shows the derny there (before its throw)."""
    said = {"rider": "rider", "gap": "gap", "lead": "lead", "level": "level",
            "scale": "1 cell = {scale} squares", **(words or {})}
    line = state.options.length
    positions = state.positions
    active = state.active_riders()
    front = max((positions[r - 1] for r in active), default=line)
    leaders = [r for r in active if positions[r - 1] == front]
    first, last, scale = track_window(state, width)
    cells = (last - first + 1) // scale
    line_cell = (line - first) // scale
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column(said["rider"], justify="right")
    note = said["scale"].replace("{scale}", str(scale))
    table.add_column(_ruler(first, cells, scale, line_cell, note), no_wrap=True)
    table.add_column(said["gap"], justify="right", no_wrap=True)
    if derny is not None:
        table.add_row("D", _lane(first, cells, scale, line_cell, (derny - first) // scale,
                                 Text("D", style="bold black on white")), Text(""))
    for rider in range(1, state.options.riders + 1):
        pos = positions[rider - 1]
        lane = _lane(first, cells, scale, line_cell, (pos - first) // scale,
                     Text(str(rider), style=RIDER_STYLES[rider]))
        if rider in state.ranked:
            gap = Text(f"#{state.ranked.index(rider) + 1}", style="bold green")
        elif pos == front:
            gap = Text(said["lead"] if len(leaders) == 1 else said["level"])  # never two 'lead'
        else:
            gap = Text(f"-{front - pos}")
        table.add_row(f"R{rider}", lane, gap)
    return table


def _lane(first: int, cells: int, scale: int, line_cell: int, mine: int, mark: Text) -> Text:
    """One lane of the track: ``mark`` at cell ``mine``, the finish line, the ticks."""
    lane = Text()
    for cell in range(cells):
        lo = first + cell * scale
        if cell == mine:
            lane.append(mark)
        elif cell == line_cell:
            lane.append("┃", style="bold red")
        else:
            tick = any(sq % 5 == 0 for sq in range(lo, lo + scale))
            lane.append("╌" if tick else "·", style="grey50")
    return lane


def track_text(state: RaceLike, width: int = VIEW_WIDTH, words: dict[str, str] | None = None,
               derny: int | None = None) -> str:
    """:func:`render_track` as plain text (no colour codes), e.g. for :func:`text_picture`."""
    import io

    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=width + 16, color_system=None, force_terminal=False,
            highlight=False).print(render_track(state, width, words, derny))
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


def _ruler(first: int, cells: int, scale: int, line_cell: int, note: str) -> str:
    marks = []
    for cell in range(cells):
        lo = first + cell * scale
        tens = any(sq % 10 == 0 for sq in range(lo, lo + scale)) if scale < 10 else cell % 5 == 0
        marks.append("F" if cell == line_cell else ("|" if tens else " "))
    text = "".join(marks)
    if scale > 1:  # the note covers as many cells as it takes (a wide character two)
        note = f" {note} "
        width = cell_len(note)
        text = note + text[width:] if len(text) > width + 2 else text
    return text




def text_picture(state: KeirinState | NightState) -> str:
    """The state as plain text: its one-line summary, and the track once the derny has
    left, one lane per rider (the game's ``picture`` face,
    :func:`raceday.present.pictures.text_picture`); a betting night's window: the win odds,
    each player's money and tickets (the race's track while it is run)."""
    from raceday.games.keirin.night import NightState
    from raceday.games.keirin.rules import PHASE_DERNY

    if isinstance(state, NightState):
        return night_text(state)
    if state.phase == PHASE_DERNY:
        return repr(state)
    return f"{state!r}\n{track_text(state)}"


def night_text(night: NightState) -> str:
    """A betting night as plain text: its summary, the race's track while it is run, else
    the win odds and each player's money and open tickets (numbered as the take-backs)."""
    from raceday.games.keirin.betting import format_money, format_odds

    lines = [repr(night)]
    if night.race is not None:
        return "\n".join([*lines, text_picture(night.race)])
    prices = []
    for rider in range(1, night.options.riders + 1):
        price = night.price("win", (rider,))
        prices.append(f"{rider}: {format_odds(price) if price is not None else '-'}")
    lines.append("win odds  " + "   ".join(prices))
    for seat, name in enumerate(night.names):
        lines.append(f"{name}: {format_money(night.accounts[seat].bankroll)}")
        lines += [f"  ticket {n}. {t.describe()}"
                  for n, t in enumerate(night.mine(seat), start=1)]
    return "\n".join(lines)
