"""Text pictures of a KEIRIN race (from :mod:`raceday.games.keirin.picture`) and commentary
lines from its events (faces only)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text

from raceday.core.events import Event, Message
from raceday.games.keirin.picture import (
    LAP,
    RIDER_STYLES,
    VIEW_WIDTH,
    render_track,
    track_text,
    track_window,
)
from raceday.present import render


def _count(n: int, unit: str) -> dict[str, Any]:
    """``1 lap`` / ``3 laps`` as a message (the table words the plural)."""
    return {"key": f"keirin.{unit}.{'one' if n == 1 else 'many'}", "params": {"n": n}}


def _riders(parts: list[Any]) -> Any:
    """R1 / R1 and R2 / R1, R2 and R3, as the table joins them."""
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return {"key": "keirin.and_list", "params": {"rest": parts[:-1], "last": parts[-1]}}


def _rider_names(riders: Iterable[int]) -> Any:
    return _riders([{"key": "keirin.rider", "params": {"n": r}} for r in riders])


def commentary_message(event: Event) -> Message | None:
    """The commentary line of one event as a message, or None for events not worth a line."""
    kind = event.kind
    if kind == "derny":
        dice = event.get("dice")
        if dice:
            return Message("keirin.commentary.derny",
                           {"roll": event["roll"], "dice": " + ".join(map(str, dice))})
        return Message("keirin.commentary.derny_fixed", {"roll": event["roll"]})
    if kind == "lineup":
        lead = event["positions"][0] if event["positions"] else 0
        laps, rest = divmod(event["finish"] - lead, LAP)
        distance: Any = _count(rest, "squares")
        if laps:
            distance = _count(laps, "laps") if not rest else {
                "key": "keirin.laps_and_squares",
                "params": {"laps": _count(laps, "laps"), "squares": distance}}
        return Message("keirin.commentary.lineup", {"distance": distance})
    if kind == "slipstream":
        return Message("keirin.commentary.slipstream", {"from": event["from"], "to": event["to"]})
    if kind == "overtake":
        return Message("keirin.commentary.overtake",
                       {"rider": event["rider"], "passed": _rider_names(event["passed"])})
    if kind == "turn":
        leaders = event["leaders"]
        if len(leaders) == 1:
            return Message("keirin.commentary.lead", {"turn": event["turn"], "rider": leaders[0]})
        return Message("keirin.commentary.side_by_side",
                       {"turn": event["turn"], "riders": _rider_names(leaders)})
    if kind == "cross":
        parts = [{"key": "keirin.crossed_by", "params": {"rider": r, "past": d}}
                 for r, d in zip(event["riders"], event["past"], strict=True)]
        return Message("keirin.commentary.cross", {"turn": event["turn"], "riders": _riders(parts)})
    if kind == "photo_finish":
        return Message("keirin.commentary.photo_finish",
                       {"place": event["for_place"], "riders": _rider_names(event["riders"])})
    if kind == "photo_throw":
        return Message("keirin.commentary.photo_throw",
                       {"rider": event["rider"], "advance": event["advance"]})
    if kind == "place":
        return Message("keirin.commentary.place", {"place": event["place"], "rider": event["rider"],
                                                   "turns": _count(event["turn"], "turns")})
    if kind == "result":
        return Message("keirin.commentary.result",
                       {"order": " ".join(f"R{r}" for r in event["ranking"])})
    return None


def describe(event: Event, lang: str = "en") -> str | None:
    """A commentary line for one event in ``lang`` (from the message tables), or None for
    events not worth a line."""
    message = commentary_message(event)
    return None if message is None else render(message, lang, game="keirin")


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


__all__ = ["LAP", "RIDER_STYLES", "VIEW_WIDTH", "commentary", "describe",
           "render_track", "throw_line", "track_text", "track_window"]
