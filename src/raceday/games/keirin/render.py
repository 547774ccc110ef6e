"""Text pictures of a KEIRIN race (from :mod:`raceday.games.keirin.picture`) and the
commentary: its events worded from the message tables (faces only)."""

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
from raceday.present import describe_event, render

# The terminal shows each throw in the throw line, not as a sentence of its own.
UNSPOKEN = frozenset({"throw"})


def track_words(lang: str = "en") -> dict[str, str]:
    """The track picture's headings, marks and scale (:func:`render_track`) in ``lang``."""
    return {w: render(f"term.track.{w}", lang, game="keirin",
                      params={"scale": "{scale}"} if w == "scale" else {})
            for w in ("rider", "gap", "lead", "level", "scale")}


def describe(event: Event, lang: str = "en") -> str | None:
    """The commentary line of one event in ``lang``: its ``event.<kind>`` from the message
    tables, or None for the events the throw line shows instead."""
    return None if event.kind in UNSPOKEN else describe_event("keirin", event, lang)


def commentary(events: Iterable[Event], lang: str = "en") -> list[str]:
    """The commentary lines of ``events`` in ``lang``, in order; a photo-finish's throws
    are indented under it."""
    return [("  " if e.kind == "photo_throw" else "") + line
            for e in events if (line := describe(e, lang)) is not None]


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


__all__ = ["LAP", "RIDER_STYLES", "VIEW_WIDTH", "commentary", "describe",
           "render_track", "throw_line", "track_text", "track_window", "track_words"]
