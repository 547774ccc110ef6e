"""Text pictures of a KEIRIN race and commentary lines from its events (faces only)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text

from raceday.core.events import Event
from raceday.games.keirin.rules import KeirinState

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


def track_window(state: KeirinState, width: int = VIEW_WIDTH) -> tuple[int, int, int]:
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


def render_track(state: KeirinState, width: int = VIEW_WIDTH) -> Table:
    """One lane per rider: a marker at the rider's square, the finish line, gap to the front.

    The whole field is always in view: when it is spread over more than ``width`` squares,
    each cell stands for several squares (said in the header)."""
    line = state.options.length
    positions = state.positions
    active = state.active_riders()
    front = max((positions[r - 1] for r in active), default=line)
    leaders = [r for r in active if positions[r - 1] == front]
    first, last, scale = track_window(state, width)
    cells = (last - first + 1) // scale
    line_cell = (line - first) // scale
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("rider", justify="right")
    table.add_column(_ruler(first, cells, scale, line_cell), no_wrap=True)
    table.add_column("gap", justify="right", no_wrap=True)
    for rider in range(1, state.options.riders + 1):
        pos = positions[rider - 1]
        mine = (pos - first) // scale
        lane = Text()
        for cell in range(cells):
            lo = first + cell * scale
            if cell == mine:
                lane.append(str(rider), style=RIDER_STYLES[rider])
            elif cell == line_cell:
                lane.append("┃", style="bold red")
            else:
                tick = any(sq % 5 == 0 for sq in range(lo, lo + scale))
                lane.append("╌" if tick else "·", style="grey50")
        if rider in state.ranked:
            gap = Text(f"#{state.ranked.index(rider) + 1}", style="bold green")
        elif pos == front:
            gap = Text("lead" if len(leaders) == 1 else "level")  # never two 'lead'
        else:
            gap = Text(f"-{front - pos}")
        table.add_row(f"R{rider}", lane, gap)
    return table


def track_text(state: KeirinState, width: int = VIEW_WIDTH) -> str:
    """:func:`render_track` as plain text (no colour codes), e.g. for ``str(state)``."""
    import io

    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=width + 16, color_system=None, force_terminal=False,
            highlight=False).print(render_track(state, width))
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


def _ruler(first: int, cells: int, scale: int, line_cell: int) -> str:
    marks = []
    for cell in range(cells):
        lo = first + cell * scale
        tens = any(sq % 10 == 0 for sq in range(lo, lo + scale)) if scale < 10 else cell % 5 == 0
        marks.append("F" if cell == line_cell else ("|" if tens else " "))
    text = "".join(marks)
    if scale > 1:
        note = f" 1 cell = {scale} squares "
        text = note + text[len(note):] if len(text) > len(note) + 2 else text
    return text


def plural(count: int, word: str, many: str | None = None) -> str:
    """``plural(1, "lap")`` -> "1 lap"; ``plural(3, "lap")`` -> "3 laps"."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def joined(items: Iterable[str]) -> str:
    """"R1", "R1 and R2", "R1, R2 and R3"."""
    names = list(items)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def describe(event: Event) -> str | None:
    """A commentary line for one event, or None for events not worth a line."""
    kind = event.kind
    if kind == "derny":
        dice = event.get("dice")
        shown = f" ({' + '.join(map(str, dice))})" if dice else ""
        roll = event["roll"]
        return f"The derny throws {roll}{shown} and pulls the riders to square {roll}."
    if kind == "lineup":
        lead = event["positions"][0] if event["positions"] else 0
        to_go = event["finish"] - lead
        laps, rest = divmod(to_go, LAP)
        if laps:
            more = f" and {plural(rest, 'square')}" if rest else ""
            return f"Rider 1 lines up {plural(laps, 'lap')}{more} from the finish."
        return f"Rider 1 lines up {plural(to_go, 'square')} from the finish."
    if kind == "slipstream":
        start, end = event["from"], event["to"]
        return f"The derny pulls off; rider 1 takes its slipstream: {start} → {end}."
    if kind == "overtake":
        passed = joined(f"R{r}" for r in event["passed"])
        return f"R{event['rider']} overtakes {passed}."
    if kind == "turn":
        leaders = event["leaders"]
        if len(leaders) == 1:
            return f"After turn {event['turn']}, R{leaders[0]} leads."
        side = joined(f"R{r}" for r in leaders)
        return f"After turn {event['turn']}, {side} lead side by side."
    if kind == "cross":
        parts = [f"R{r} (+{d})" for r, d in zip(event["riders"], event["past"], strict=True)]
        return f"Across the line in turn {event['turn']}: {joined(parts)}."
    if kind == "photo_finish":
        tied = joined(f"R{r}" for r in event["riders"])
        return f"Photo-finish for place {event['for_place']}: {tied} are level and throw again!"
    if kind == "photo_throw":
        return f"  R{event['rider']} throws +{event['advance']} for the photo."
    if kind == "place":
        return f"Place {event['place']}: R{event['rider']} (after {plural(event['turn'], 'turn')})."
    if kind == "result":
        order = " ".join(f"R{r}" for r in event["ranking"])
        return f"Final order: {order}."
    return None


def commentary(events: Iterable[Event]) -> list[str]:
    return [line for line in (describe(e) for e in events) if line is not None]


def throw_line(events: Iterable[Event], width: int = 78) -> Text:
    """The turn's throws: rider, dice and squares gained, broken between riders (never
    inside one) into lines of at most ``width`` characters, so an 80-column terminal never
    wraps it."""
    text = Text()
    column = 0
    for e in events:
        if e.kind != "throw":
            continue
        dice = e.get("dice")
        faces = "".join(map(str, dice)) if dice else "?"
        label = f"R{e['rider']}"
        body = f" {faces}→+{e['advance']}"
        size = len(label) + len(body)
        if column and column + 2 + size > width:
            text.append("\n")
            column = 0
        elif column:
            text.append("  ")
            column += 2
        text.append(label, style=RIDER_STYLES[e["rider"]])
        text.append(body)
        column += size
    return text
