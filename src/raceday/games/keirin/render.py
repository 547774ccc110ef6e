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
VIEW_WIDTH = 64  # squares shown at once


def render_track(state: KeirinState, width: int = VIEW_WIDTH) -> Table:
    """One lane per rider: a marker at the rider's square, the finish line, gap to the front."""
    line = state.options.length
    positions = state.positions
    active = state.active_riders()
    front = max((positions[r - 1] for r in active), default=line)
    last = max(max(positions), line) + 1
    first = last - width + 1
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("rider", justify="right")
    table.add_column(_ruler(first, last, line), no_wrap=True)
    table.add_column("gap", justify="right")
    for rider in range(1, state.options.riders + 1):
        pos = positions[rider - 1]
        lane = Text()
        for square in range(first, last + 1):
            if square == pos:
                lane.append(str(rider), style=RIDER_STYLES[rider])
            elif square == line:
                lane.append("┃", style="bold red")
            else:
                lane.append("·" if square % 5 else "╌", style="grey50")
        if pos < first:  # behind the window: show the rider at its left edge
            lane = Text("◀", style=RIDER_STYLES[rider]) + lane[1:]
        if rider in state.ranked:
            gap = Text(f"#{state.ranked.index(rider) + 1}", style="bold green")
        else:
            gap = Text("lead" if pos == front else f"-{front - pos}")
        table.add_row(f"R{rider}", lane, gap)
    return table


def _ruler(first: int, last: int, line: int) -> str:
    marks = []
    for square in range(first, last + 1):
        marks.append("F" if square == line else ("|" if square % 10 == 0 else " "))
    return "".join(marks)


def describe(event: Event) -> str | None:
    """A commentary line for one event, or None for events not worth a line."""
    kind = event.kind
    if kind == "derny":
        dice = event.get("dice")
        shown = f" ({' + '.join(map(str, dice))})" if dice else ""
        roll = event["roll"]
        return f"The derny throws {roll}{shown} and pulls the riders to square {roll}."
    if kind == "slipstream":
        start, end = event["from"], event["to"]
        return f"The derny pulls off; rider 1 takes its slipstream: {start} → {end}."
    if kind == "overtake":
        passed = ", ".join(f"R{r}" for r in event["passed"])
        return f"R{event['rider']} overtakes {passed}."
    if kind == "turn":
        leaders = event["leaders"]
        if len(leaders) == 1:
            return f"After turn {event['turn']}, R{leaders[0]} leads."
        side = " and ".join(f"R{r}" for r in leaders)
        return f"After turn {event['turn']}, {side} lead side by side."
    if kind == "cross":
        parts = [f"R{r} (+{d})" for r, d in zip(event["riders"], event["past"], strict=True)]
        return f"Across the line in turn {event['turn']}: {', '.join(parts)}."
    if kind == "photo_finish":
        tied = " and ".join(f"R{r}" for r in event["riders"])
        return f"Photo-finish for place {event['for_place']}: {tied} are level and throw again!"
    if kind == "photo_throw":
        return f"  R{event['rider']} throws +{event['advance']} for the photo."
    if kind == "place":
        return f"Place {event['place']}: R{event['rider']}."
    if kind == "result":
        order = " ".join(f"R{r}" for r in event["ranking"])
        return f"Final order: {order}."
    return None


def commentary(events: Iterable[Event]) -> list[str]:
    return [line for line in (describe(e) for e in events) if line is not None]


def throw_line(events: Iterable[Event]) -> Text:
    """The turn's throws in one line: rider, dice and squares gained."""
    text = Text()
    for e in events:
        if e.kind != "throw":
            continue
        dice = e.get("dice")
        faces = "".join(map(str, dice)) if dice else "?"
        text.append(f"R{e['rider']}", style=RIDER_STYLES[e["rider"]])
        text.append(f" {faces}→+{e['advance']}  ")
    return text
