"""A KEIRIN room's logged events in today's shape: the room reads old saves through it and
the replay face words old logs with it (one module both import, so neither imports the
other)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def current_shape(event: Mapping[str, Any]) -> dict[str, Any]:
    """A logged event (``{"type": kind, **facts}``) with the facts its words now use: an
    event logged before they existed (the players' names, the distance to go, whether
    riders are level or a place is decided) gets them from its own data."""
    facts = dict(event)
    kind = facts.get("type")
    if kind == "derny":
        facts.setdefault("dice_known", facts.get("dice") is not None)
    elif kind == "lineup":
        facts.setdefault("to_go", facts["finish"] - facts["positions"][0])
    elif kind in ("overtake", "cross"):
        facts.setdefault("several", len(facts["passed" if kind == "overtake" else "riders"]) > 1)
    elif kind == "started":  # the players: names, or {place, name} since the room kit
        facts.setdefault("names", [p.get("name") if isinstance(p, dict) else p
                                   for p in facts["players"]])
    elif kind == "turn":
        for_place = len(facts["positions"]) - len(facts["active"]) + 1
        facts.setdefault("for_place", for_place)
        facts.setdefault("chasing", for_place > 1)
        facts.setdefault("level", len(facts["leaders"]) > 1)
    return facts
