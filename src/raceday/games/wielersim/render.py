"""The race in the terminal: the road around the front (:mod:`.picture`), the groups, the
result and the stage-race tables.

Pure presentation: it reads the state and never applies a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.table import Table

from raceday.core.events import Message
from raceday.games.wielersim.peloton import Peloton
from raceday.games.wielersim.picture import draw_road, window
from raceday.games.wielersim.rules import (
    INTERMEDIATE_POINTS,
    MOUNTAIN_POINTS,
    WielersimState,
    format_gap,
    groups_of,
)
from raceday.games.wielersim.stage import TEAM_COUNTED, Standings
from raceday.present import render

GAME = "wielersim"
SHOWN = 8  # riders of a group named in its summary line

__all__ = ["draw_road", "group_summary", "result_table", "scoring_lines", "stage_result_table",
           "standings_tables", "window"]


def group_summary(state: WielersimState, limit: int = 5, lang: str = "en") -> list[str]:
    """One line per group on the road: size, squares behind the front, a few riders."""
    road = state.on_road()
    if not road:
        return []
    groups = groups_of(road, state.pos)
    front = state.pos[groups[0][0]]
    lines = []
    for i, g in enumerate(groups[:limit]):
        shown = [state.num(r) for r in sorted(g, key=state.order_key)[:SHOWN]]
        more = Message("road.more", {"n": len(g) - SHOWN}).to_json() if len(g) > SHOWN else ""
        key = f"road.{'group' if len(g) > 1 else 'alone'}_{'front' if i == 0 else 'behind'}"
        lines.append(render(Message(key, {
            "size": len(g), "behind": front - state.pos[g[0]],
            "to_go": state.route.distance - state.pos[g[0]], "riders": shown, "more": more}),
            lang, GAME))
    if len(groups) > limit:
        lines.append(render(Message("road.further_back", {
            "riders": sum(len(g) for g in groups[limit:]), "groups": len(groups) - limit}),
            lang, GAME))
    return lines


def result_table(state: WielersimState, limit: int | None = None) -> Table:
    """Places, gaps, sprint and mountain points of a finished race."""
    table = Table(title=f"{state.route.name}: result (pts: sprint points, mtn: mountain "
                  "points)", show_lines=False, box=None)
    for col, justify in (("#", "right"), ("rider", "left"), ("bib", "right"), ("team", "left"),
                         ("type", "left"), ("gap", "right"), ("pts", "right"),
                         ("mtn", "right")):
        table.add_column(col, justify=justify, no_wrap=col in ("rider", "team"))  # type: ignore[arg-type]
    sprint = state.sprint_points()
    mountain = state.mountain_points()
    for place, (r, gap, _) in enumerate(state.results[:limit], start=1):
        rider = state.peloton.riders[r]
        table.add_row(str(place), rider.name, str(rider.number), state.peloton.teams[rider.team],
                      rider.type_name, "s.t." if place > 1 and gap == 0 else format_gap(gap),
                      str(sprint[r] or ""), str(mountain[r] or ""))
    return table


def scoring_lines(state: WielersimState, lang: str = "en") -> list[str]:
    """Who scored at the intermediate sprints and on the climbs."""
    def top(places: list[int], points: tuple[int, ...]) -> list[dict[str, Any]]:
        return [Message("scoring.place", {"rider": state.num(r), "points": pts}).to_json()
                for r, pts in zip(places, points, strict=False)]

    lines = []
    for s, places in enumerate(state.sprint_places):
        if places:
            lines.append(render(Message("scoring.sprint", {
                "sprint": s + 1, "to_go": state.route.distance - state.route.sprints[s],
                "top": top(places, INTERMEDIATE_POINTS)}), lang, GAME))
    for climb, places in zip(state.route.climbs, state.climb_places, strict=True):
        if places and climb.category:
            lines.append(render(Message("scoring.climb", {
                "climb": climb.name, "category": climb.category,
                "top": top(places, MOUNTAIN_POINTS[climb.category])}), lang, GAME))
    return lines


def stage_result_table(peloton: Peloton, record: Mapping[str, Any], limit: int = 10) -> Table:
    """The top of one stage's result, with bonus seconds."""
    table = Table(title=f"{record['name']}: stage result", box=None)
    for col in ("#", "rider", "bib", "team", "time", "bonus"):
        table.add_column(col, no_wrap=col in ("rider", "team"))
    for place, (number, gap) in enumerate(record["results"][:limit], start=1):
        rider = peloton.riders[peloton.index_of(number)]
        bonus = record["bonus"].get(str(number))
        table.add_row(str(place), rider.name, str(number), peloton.teams[rider.team],
                      format_gap(gap) if place == 1 or gap else "s.t.",
                      f"-{bonus}s" if bonus else "")
    return table


def standings_tables(peloton: Peloton, st: Standings, limit: int = 10) -> list[Table]:
    """GC (gaps to the leader), points, mountains and teams; jersey holders highlighted."""
    def who(number: int) -> tuple[str, str]:
        rider = peloton.riders[peloton.index_of(number)]
        return rider.name, peloton.teams[rider.team]

    gc = Table(title="General classification", box=None)
    for col in ("#", "rider", "bib", "team", "gap"):
        gc.add_column(col, no_wrap=col in ("rider", "team"))
    lead = st.gc[0][1] if st.gc else 0
    for place, (number, total) in enumerate(st.gc[:limit], start=1):
        name, team = who(number)
        gc.add_row(str(place), name, str(number), team,
                   format_gap(total - lead) if place > 1 else f"{format_gap(0)} (yellow)",
                   style="bold yellow" if place == 1 else None)
    tables = [gc]
    for title, rows, style, unit in (("Points", st.points, "bold green", "pts"),
                                     ("Mountains", st.mountains, "bold red", "pts")):
        table = Table(title=title, box=None)
        for col in ("#", "rider", "bib", unit):
            table.add_column(col, no_wrap=col == "rider")
        for place, (number, value) in enumerate(rows[: max(3, limit // 2)], start=1):
            table.add_row(str(place), who(number)[0], str(number), str(value),
                          style=style if place == 1 else None)
        tables.append(table)
    teams = Table(title=f"Teams (best {TEAM_COUNTED} GC times)", box=None)
    for col in ("#", "team", "gap"):
        teams.add_column(col)
    best = st.teams[0][1] if st.teams else 0
    for place, (t, total) in enumerate(st.teams[: max(3, limit // 2)], start=1):
        teams.add_row(str(place), peloton.teams[t], format_gap(total - best),
                      style="bold" if place == 1 else None)
    tables.append(teams)
    return tables
