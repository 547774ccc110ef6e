"""Helpers that build exact WielerSIM positions for the worked examples and rule tests."""

from __future__ import annotations

from typing import Any

from raceday.games.wielersim.game import new_race
from raceday.games.wielersim.rules import WielersimState


def route(sections: list[dict[str, Any]], hierarchy: list[str], finish: str = "flat",
          sprints: list[int] | None = None) -> dict[str, Any]:
    return {"name": "Test", "finish": finish, "hierarchy": hierarchy, "sections": sections,
            "sprints": sprints or []}


def peloton(teams: list[list[tuple[int, str, str]]], jersey: int | None = None) -> dict[str, Any]:
    """Teams of (number, name, type)."""
    riders = [{"number": n, "name": name, "type": t, "team": ti}
              for ti, team in enumerate(teams) for n, name, t in team]
    return {"teams": [{"name": f"Team {ti}", "colour": "red"} for ti in range(len(teams))],
            "riders": riders, "jersey": jersey}


def state(route_spec: dict[str, Any], peloton_spec: dict[str, Any], **options: Any
          ) -> WielersimState:
    return new_race({"route": route_spec, "peloton": peloton_spec, **options})


def throw(s: WielersimState, rider: int | None, purpose: str, value: int) -> None:
    """Apply the next throw, checking that it is the one the test expects."""
    assert s.pending is not None, "the race expects no throw"
    r, why = s.pending.rider, s.pending.purpose
    who = None if r < 0 else s.num(r)
    assert (who, why) == (rider, purpose), f"expected {rider} {purpose}, pending {who} {why}"
    s.apply_action(value)


def square(s: WielersimState, number: int) -> tuple[int, int]:
    r = s.peloton.index_of(number)
    return s.pos[r], s.lane[r]
