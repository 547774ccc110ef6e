"""The race in the terminal: the road around the front (:mod:`.picture`), the groups, the
result and the stage-race tables.

Pure presentation: it reads the state and never applies a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import JustifyMethod
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
LEFT: JustifyMethod = "left"  # how a column of words is justified unless told

__all__ = ["draw_road", "gap_cell", "group_summary", "result_table", "rider_type", "say",
           "scoring_lines", "stage_result_table", "standings_tables", "window", "word",
           "words_table"]


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


def say(key: str, lang: str = "en", **params: Any) -> str:
    """The game's message ``key`` in ``lang``, filled with ``params``."""
    return render(key, lang, GAME, params)


def word(key: str) -> dict[str, Any]:
    """Message ``key`` (no parameters) as a parameter of another message."""
    return Message(key).to_json()


def rider_type(kind: str) -> dict[str, Any]:
    """A rider type (leader, climber, sprinter, helper) as a message parameter."""
    return word(f"wv_type_{kind}")


def words_table(title: str, columns: Sequence[str | tuple[str, JustifyMethod]],
                lang: str = "en", *, no_wrap: Iterable[str] = (), **table: Any) -> Table:
    """A table titled ``title`` whose headers are the ``col.<name>`` messages of ``columns``
    (a name, or a name and how its column is justified); ``no_wrap`` names columns kept on
    one line."""
    out = Table(title=title, **table)
    keep = set(no_wrap)
    for column in columns:
        name, justify = (column, LEFT) if isinstance(column, str) else column
        out.add_column(say(f"col.{name}", lang), justify=justify, no_wrap=name in keep)
    return out


def gap_cell(place: int, gap: int, lang: str = "en") -> str:
    """A finisher's gap to the winner; "s.t." (same time) for one after the winner with
    no gap."""
    return say("cell.same_time", lang) if place > 1 and gap == 0 else format_gap(gap)


def result_table(state: WielersimState, limit: int | None = None, lang: str = "en") -> Table:
    """Places, gaps, sprint and mountain points of a finished race."""
    table = words_table(say("table.result", lang, route=state.route.name),
                        [("place", "right"), "rider", ("bib", "right"), "team", "type",
                         ("gap", "right"), ("pts", "right"), ("mtn", "right")], lang,
                        no_wrap=("rider", "team"), show_lines=False, box=None)
    sprint = state.sprint_points()
    mountain = state.mountain_points()
    for place, (r, gap, _) in enumerate(state.results[:limit], start=1):
        rider = state.peloton.riders[r]
        table.add_row(str(place), rider.name, str(rider.number), state.peloton.teams[rider.team],
                      say(f"wv_type_{rider.type_name}", lang), gap_cell(place, gap, lang),
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


def stage_result_table(peloton: Peloton, record: Mapping[str, Any], limit: int = 10,
                       lang: str = "en", name: str | None = None) -> Table:
    """The top of one stage's result, with bonus seconds; ``name`` is the stage's name in
    ``lang`` (by default the name saved with the record)."""
    table = words_table(say("wv_stage_result", lang, name=name or record["name"]),
                        ["place", "rider", "bib", "team", "time", "bonus"], lang,
                        no_wrap=("rider", "team"), box=None)
    for place, (number, gap) in enumerate(record["results"][:limit], start=1):
        rider = peloton.riders[peloton.index_of(number)]
        bonus = record["bonus"].get(str(number))
        table.add_row(str(place), rider.name, str(number), peloton.teams[rider.team],
                      gap_cell(place, gap, lang),
                      say("cell.bonus", lang, seconds=bonus) if bonus else "")
    return table


def standings_tables(peloton: Peloton, st: Standings, limit: int = 10,
                     lang: str = "en") -> list[Table]:
    """GC (gaps to the leader), points, mountains and teams; jersey holders highlighted."""
    def who(number: int) -> tuple[str, str]:
        rider = peloton.riders[peloton.index_of(number)]
        return rider.name, peloton.teams[rider.team]

    gc = words_table(say("wv_gc", lang), ["place", "rider", "bib", "team", "gap"], lang,
                     no_wrap=("rider", "team"), box=None)
    lead = st.gc[0][1] if st.gc else 0
    for place, (number, total) in enumerate(st.gc[:limit], start=1):
        name, team = who(number)
        gc.add_row(str(place), name, str(number), team,
                   format_gap(total - lead) if place > 1 else
                   say("cell.yellow", lang, gap=format_gap(0)),
                   style="bold yellow" if place == 1 else None)
    tables = [gc]
    for title, rows, style in (("wv_points", st.points, "bold green"),
                               ("wv_mountains", st.mountains, "bold red")):
        table = words_table(say(title, lang), ["place", "rider", "bib", "pts"], lang,
                            no_wrap=("rider",), box=None)
        for place, (number, value) in enumerate(rows[: max(3, limit // 2)], start=1):
            table.add_row(str(place), who(number)[0], str(number), str(value),
                          style=style if place == 1 else None)
        tables.append(table)
    teams = words_table(say("table.teams", lang, n=TEAM_COUNTED), ["place", "team", "gap"],
                        lang, box=None)
    best = st.teams[0][1] if st.teams else 0
    for place, (t, total) in enumerate(st.teams[: max(3, limit // 2)], start=1):
        teams.add_row(str(place), peloton.teams[t], format_gap(total - best),
                      style="bold" if place == 1 else None)
    tables.append(teams)
    return tables
