"""Replaying PISTARD: a saved race replays from its final position (the default); this
module words the events that rooms written before the room kit logged."""

from __future__ import annotations

from typing import Any

from raceday.core.events import Message

COLOUR_LETTERS = "YGBR"  # the dice in the order of a throw: yellow, green, blue, red


def room_event(event: dict[str, Any], names: list[str]) -> Message | None:
    """A logged event as the track page words it (``pi_ev_*``); None for the room's own
    events (created, joined); the riders' positions are the board's, not words."""
    e = event
    kind = e.get("type")
    if kind == "started":
        return Message("pi_ev_started")
    if kind == "place":
        return Message("pi_ev_place", {"rider": e["rider"], "back": e["behind"],
                                       "lane": e["lane"]})
    if kind == "throw":
        return Message("pi_ev_throw", {"rider": e["rider"], "dice": " ".join(
            f"{COLOUR_LETTERS[i]}{v}" for i, v in enumerate(e["dice"]))})
    if kind == "move":
        words = Message("pi_ev_move", {"rider": e["rider"],
                                       "colour": Message(f"pi_{e['colour']}").to_json(),
                                       "value": e["value"], "n": e["to"][0] - e["from"][0],
                                       "lane": e["to"][1]})
        return Message("replay.with_token", {"move": words.to_json()}) if e.get("token") \
            else words
    if kind == "round":
        return Message("pi_ev_round", {"round": e["round"]})
    if kind == "positions":
        return Message("replay.positions", {"round": e.get("round")})
    return None
