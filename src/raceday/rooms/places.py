"""Who plays each place of a turn-based game: a phone that joined, the host screen, or a
computer level (shared by every :class:`~raceday.rooms.turn.TurnRoom`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from raceday.present import refusal
from raceday.rooms.intents import Intent
from raceday.rooms.protocol import JSON, Actor, RoomError

HUMAN = "human"


def check_kinds(kinds: object, levels: tuple[str, ...], low: int, high: int,
                what: str = "players") -> list[str]:
    """The host's list of places (``"human"`` or a computer level), checked."""
    if not isinstance(kinds, list) or not low <= len(kinds) <= high:
        raise refusal(RoomError, "refusal.kinds_exact" if low == high else "refusal.kinds_range",
                      what=what, low=low, high=high, levels=", ".join(levels))
    for k in kinds:
        if k != HUMAN and k not in levels:
            raise refusal(RoomError, "refusal.unknown_kind", kind=repr(k),
                          levels=", ".join(levels))
    if HUMAN not in kinds:
        raise refusal(RoomError, "refusal.no_human")
    return list(kinds)


def intent_int(intent: Mapping[str, Any] | Intent, key: str, what: str) -> int:
    """The whole number ``intent[key]`` (RoomError naming ``what`` otherwise)."""
    value = intent.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise refusal(RoomError, "refusal.whole_number", what=what)
    return value


@dataclass
class Places:
    """Each player's place: a human (a phone that joined, else the host screen) or a
    computer level. Seats are numbered in join order; ``seat_place[seat]`` is the place
    (player number) that seat plays. A phone that joins takes the first human place still
    free; the host screen plays every human place no phone has taken."""

    kinds: list[str]
    names: list[str] = field(default_factory=list)
    seat_place: list[int] = field(default_factory=list)

    def add(self, name: str) -> int:
        free = [p for p, k in enumerate(self.kinds) if k == HUMAN and p not in self.seat_place]
        if not free:
            raise refusal(RoomError, "refusal.places_taken")
        if any(n.lower() == name.lower() for n in self.names):
            raise refusal(RoomError, "refusal.name_taken", name=repr(name))
        self.names.append(name)
        self.seat_place.append(free[0])
        return len(self.names) - 1

    def controller(self, place: int) -> str:
        """``"seat"`` (a phone), ``"screen"`` (the host screen) or ``"computer"``."""
        if self.kinds[place] != HUMAN:
            return "computer"
        return "seat" if place in self.seat_place else "screen"

    def may_play(self, actor: Actor, place: int) -> bool:
        if self.controller(place) == "seat":
            return actor.kind == "seat" and actor.seat is not None and \
                self.seat_place[actor.seat] == place
        return self.controller(place) == "screen" and actor.kind == "host"

    def places_of(self, actor: Actor) -> list[int]:
        return [p for p in range(len(self.kinds)) if self.may_play(actor, p)]

    def humans(self) -> list[int]:
        return [p for p, k in enumerate(self.kinds) if k == HUMAN]

    def name(self, place: int) -> str | None:
        if place in self.seat_place:
            return self.names[self.seat_place.index(place)]
        return None

    def view(self) -> list[JSON]:
        return [{"place": p, "kind": k, "controller": self.controller(p), "name": self.name(p)}
                for p, k in enumerate(self.kinds)]

    def to_json(self) -> JSON:
        return {"kinds": list(self.kinds), "names": list(self.names),
                "seat_place": list(self.seat_place)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Places:
        places = cls([str(k) for k in data["kinds"]], [str(n) for n in data["names"]],
                     [int(p) for p in data["seat_place"]])
        if len(places.names) != len(places.seat_place) or any(
                not 0 <= p < len(places.kinds) for p in places.seat_place):
            raise ValueError("seats and places do not match")
        return places
