"""Commentary: sentences from the race's events and from how the groups change.

Pure presentation: it reads events and states; the rules are never re-applied here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from raceday.core.events import Event
from raceday.games.wielersim.rules import WielersimState, format_gap, groups_of

BREAK_MAX = 6  # a front group this small, clear of the rest, is "a break"
WATCHED_GROUPS = 3
MOVES = frozenset(("attack", "counter", "accelerate", "acceleration", "steering_error"))


@dataclass
class Commentator:
    """Keeps what it said about the groups so that it reports changes only."""

    break_riders: frozenset[int] = field(default_factory=frozenset)

    def rider(self, state: WielersimState, number: int | None) -> str:
        if number is None:
            return "?"
        r = state.peloton.index_of(number)
        rider = state.peloton.riders[r]
        return f"{rider.name} ({number}, {state.peloton.teams[rider.team]})"

    def comment(self, state: WielersimState, events: Sequence[Event]) -> list[str]:
        """Sentences for one turn's events, then for the groups at the end of the turn."""
        lines: list[str] = []
        name = self.rider
        road = state.on_road()
        groups = groups_of(road, state.pos) if road else []
        # moves are told for the riders who matter: the first groups, before the finish
        finished_now = {e["rider"] for e in events if e.kind == "finish"}
        watched = {state.num(r) for g in groups[:WATCHED_GROUPS] for r in g} | finished_now
        if len(state.results) > len(finished_now):  # the race was won before this turn
            watched = set()
        for e in events:
            k = e.kind
            if k in MOVES and e["rider"] not in watched:
                continue
            if k == "weather" and e["turn"] > 0:
                lines.append("Half way: it is raining now." if e["rain"] else
                             "Half way: the roads are dry.")
            elif k == "weather":
                lines.append("It is raining at the start." if e["rain"] else
                             "Dry weather at the start.")
            elif k == "attack":
                lines.append(f"ATTACK by {name(state, e['rider'])}!")
            elif k == "counter":
                lines.append(f"{name(state, e['rider'])} counters and jumps across.")
            elif k == "accelerate" and e["value"] == 10:
                lines.append(f"{name(state, e['rider'])} accelerates hard.")
            elif k == "crash" and e.get("caused"):
                who = ", ".join(str(n) for n in e.get("behind", []))
                extra = f"; riders right behind ({who}) are caught up in it" if who else ""
                lines.append(f"CRASH! {name(state, e['rider'])} goes down{extra}.")
            elif k == "evade":
                lines.append(f"{name(state, e['rider'])} swerves round the crash.")
            elif k == "flat_tyre":
                lines.append(f"Flat tyre for {name(state, e['rider'])}.")
            elif k == "steering_error":
                lines.append(f"{name(state, e['rider'])} misjudges a bend.")
            elif k == "acceleration":
                lines.append(f"{name(state, e['rider'])} finds extra speed.")
            elif k == "climb_top":
                cat = f" (cat. {e['category']})" if e["category"] else ""
                lines.append(f"{name(state, e['rider'])} leads over the {e['climb']}{cat}.")
            elif k == "sprint_result":
                winner = e["ranking"][0] if e["ranking"] else None
                lines.append(f"Intermediate sprint {e['sprint']} goes to "
                             f"{name(state, winner)}.")
            elif k == "finish" and e["place"] == 1:
                lines.append(f"VICTORY for {name(state, e['rider'])}!")
            elif k == "finish" and e["place"] <= 3:
                lines.append(f"{name(state, e['rider'])} takes place {e['place']} at "
                             f"{format_gap(e['gap'])}.")
        lines.extend(self.groups(state))
        return [line for line in lines if line]

    def groups(self, state: WielersimState) -> list[str]:
        road = state.on_road()
        if not road or state.results:
            return []
        groups = groups_of(road, state.pos)
        front = frozenset(groups[0])
        lines: list[str] = []
        if len(groups) > 1 and len(front) <= BREAK_MAX:
            if front != self.break_riders:
                gap = state.pos[groups[0][0]] - state.pos[groups[1][0]]
                names = ", ".join(str(state.num(r)) for r in sorted(front))
                what = "alone" if len(front) == 1 else f"a group of {len(front)}"
                lines.append(f"At the front: {what} ({names}), {gap} squares "
                             f"(about {format_gap(gap * 6)}) ahead of the next group.")
                self.break_riders = front
        elif self.break_riders:
            lines.append("The break is caught.")
            self.break_riders = frozenset()
        return lines
