"""Text pictures of a KEIRIN race (from :mod:`raceday.games.keirin.picture`) and commentary
lines from its events (faces only)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from raceday.core.events import Event
from raceday.games.keirin.picture import (
    LAP,
    RIDER_STYLES,
    VIEW_WIDTH,
    render_track,
    track_text,
    track_window,
)


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


__all__ = ["LAP", "RIDER_STYLES", "VIEW_WIDTH", "commentary", "describe", "joined", "plural",
           "render_track", "throw_line", "track_text", "track_window"]
