"""Commentary: what a turn's events and the changing groups say, as messages.

One commentator for every face: the terminal renders its messages as sentences
(:meth:`Commentator.comment`), the browser film carries them as ticker items
(:meth:`Commentator.ticker`) and renders them with the same tables (``present.js``).
Pure presentation: it reads events and states; the rules are never re-applied here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from raceday.core.events import Event, Message
from raceday.games.wielersim.rules import WielersimState, format_gap, groups_of
from raceday.games.wielersim.stage import written_stage_name
from raceday.present import render

GAME = "wielersim"
BREAK_MAX = 6  # a front group this small, clear of the rest, is "a break"
WATCHED_GROUPS = 3
MOVES = frozenset(("attack", "counter", "accelerate", "acceleration", "steering_error"))
HARD = 10  # an acceleration of this throw is told ("accelerates hard")
PODIUM = 3  # finishers told by name
RIDER_EVENTS = {  # event kind → (ticker item kind, message key), told with the rider alone
    "attack": ("attack", "ticker.attack"),
    "counter": ("counter", "ticker.counter"),
    "evade": ("evade", "ticker.evade"),
    "flat_tyre": ("flat_tyre", "ticker.flat_tyre"),
    "steering_error": ("steering_error", "ticker.steering_error"),
    "acceleration": ("acceleration", "ticker.acceleration"),
}



def stage_name(tour: Mapping[str, Any], index: int, lang: str = "en") -> str:
    """Stage ``index``'s name in ``lang`` (0 is the prologue, if the stage race has one)."""
    name = written_stage_name(tour, index)
    if name is not None and lang == "en":
        return name  # as the stage race's file writes it
    return render(stage_message(tour, index), lang, GAME)


PROFILES = ("flat", "hilly", "cobbles", "mountain", "inline route")  # stage.profile.* keys


def stage_message(tour: Mapping[str, Any], index: int) -> Message:
    """Stage ``index``'s name as a message, for a reader of any language: the prologue;
    a stage race's "Stage 2: Luik - Hoei (hilly)" as its numbering, a summit finish and
    the profile words the tables know (the places keep their names); any other name as
    it is written (``stage.named``)."""
    name = written_stage_name(tour, index)
    return Message("stage.prologue") if name is None else named_stage_message(name)


def named_stage_message(name: str) -> Message:
    """A stage's written name ("Stage 2: Luik - Hoei (hilly)") as a message: see
    :func:`stage_message`."""
    numbered = re.fullmatch(r"Stage (\d+): (.+?)(?: \(([^)]*)\))?", name)
    if numbered is None:
        return Message("stage.named", {"name": name})
    number, places, profile = numbered.groups()
    where: str | Message = places
    summit = re.fullmatch(r"(.+) summit finish", places)
    if summit is not None:  # "Ardennes summit finish": the place keeps its name
        where = Message("stage.summit_finish", {"place": summit.group(1)})
    if profile:
        words = [Message(f"stage.profile.{word}") if word in PROFILES else word
                 for word in profile.split(", ")]
        where = Message("stage.with_profile", {"name": where, "profile": words})
    return Message("stage.numbered", {"n": int(number), "name": where})


@dataclass(frozen=True)
class Said:
    """One thing the commentator says: a ticker kind (the page's styling) and a message."""

    kind: str
    message: Message

    def to_json(self) -> dict[str, Any]:
        return {"k": self.kind, **self.message.to_json()}


@dataclass
class Commentator:
    """Keeps what it said about the groups so that it reports changes only."""

    break_riders: frozenset[int] = field(default_factory=frozenset)

    def said(self, state: WielersimState, events: Sequence[Event]) -> list[Said]:
        """What one turn's events say, then what the groups say at the end of the turn."""
        out: list[Said] = []
        road = state.on_road()
        groups = groups_of(road, state.pos) if road else []
        # moves are told for the riders who matter: the first groups, before the finish
        finished_now = {e["rider"] for e in events if e.kind == "finish"}
        watched = {state.num(r) for g in groups[:WATCHED_GROUPS] for r in g} | finished_now
        if len(state.results) > len(finished_now):  # the race was won before this turn
            watched = set()
        for e in events:
            if e.kind in MOVES and e["rider"] not in watched:
                continue
            item = self.event_item(state, e)
            if item is not None:
                out.append(item)
        out.extend(self.groups(state))
        return out

    def event_item(self, state: WielersimState, e: Event) -> Said | None:
        """What one event says, if it is worth telling."""
        k = e.kind

        def rider(number: int | None) -> Any:
            return "?" if number is None else state.rider_message(state.peloton.index_of(number))

        if k == "weather":
            when = "half" if e["turn"] > 0 else "start"
            return Said("weather", Message(f"ticker.{'rain' if e['rain'] else 'dry'}_{when}"))
        if k in RIDER_EVENTS:
            kind, key = RIDER_EVENTS[k]
            return Said(kind, Message(key, {"rider": rider(e["rider"])}))
        if k == "accelerate" and e["value"] == HARD:
            return Said("accelerate", Message("ticker.accelerate", {"rider": rider(e["rider"])}))
        if k == "crash" and e.get("caused"):
            behind = list(e.get("behind", []))
            key = "ticker.crash_behind" if behind else "ticker.crash"
            return Said("crash", Message(key, {"rider": rider(e["rider"]), "behind": behind}))
        if k == "climb_top":
            key = "ticker.climb" if e["category"] else "ticker.climb_uncategorised"
            return Said("climb", Message(key, {"rider": rider(e["rider"]), "climb": e["climb"],
                                               "category": e["category"]}))
        if k == "sprint_result":
            winner = e["ranking"][0] if e["ranking"] else None
            return Said("sprint", Message("ticker.sprint", {"sprint": e["sprint"],
                                                            "rider": rider(winner)}))
        if k == "finish" and e["place"] == 1:
            return Said("finish", Message("ticker.victory", {"rider": rider(e["rider"])}))
        if k == "finish" and e["place"] <= PODIUM:
            return Said("finish", Message("ticker.place", {
                "rider": rider(e["rider"]), "place": e["place"], "seconds": e["gap"],
                "gap": format_gap(e["gap"])}))
        return None

    def groups(self, state: WielersimState) -> list[Said]:
        """A break forming at the front (a new one only), or the break being caught."""
        road = state.on_road()
        if not road or state.results:
            return []
        groups = groups_of(road, state.pos)
        front = frozenset(groups[0])
        if len(groups) > 1 and len(front) <= BREAK_MAX:
            if front == self.break_riders:
                return []
            self.break_riders = front
            gap = state.pos[groups[0][0]] - state.pos[groups[1][0]]
            key = "ticker.break_alone" if len(front) == 1 else "ticker.break"
            return [Said("break", Message(key, {
                "riders": [state.num(r) for r in sorted(front)], "size": len(front),
                "gap": gap, "n": gap, "time": format_gap(gap * 6)}))]
        if self.break_riders:
            self.break_riders = frozenset()
            return [Said("caught", Message("ticker.caught"))]
        return []

    def comment(self, state: WielersimState, events: Sequence[Event],
                lang: str = "en") -> list[str]:
        """Sentences for one turn's events, then for the groups at the end of the turn."""
        return [render(s.message, lang, GAME) for s in self.said(state, events)]

    def ticker(self, state: WielersimState, events: Sequence[Event]) -> list[dict[str, Any]]:
        """The same as ticker items for the browser film: ``{"k", "key", "params"}``."""
        return [s.to_json() for s in self.said(state, events)]
