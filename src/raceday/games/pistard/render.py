"""Text pictures of a PISTARD race for the terminal (Rich), and one-line commentary; the
board itself is the state's frame drawn by :mod:`raceday.games.pistard.picture`."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from raceday.core.events import Event
from raceday.games.pistard import picture
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import COLOURS
from raceday.games.pistard.variants import OUT
from raceday.present import describe_event, render

DIE_STYLE = {0: "bold black on yellow", 1: "bold black on green3", 2: "bold white on blue",
             3: "bold white on red3"}


def die_text(colour: int, value: int, lang: str = "en") -> Text:
    """A die as a coloured value, e.g. a green 5."""
    name = render(f"pi_{COLOURS[colour]}", lang, "pistard")
    return Text(f" {name} {value} ", style=DIE_STYLE[colour])


def dice_line(dice: Sequence[int], lang: str = "en") -> Text:
    out = Text(render("hint.dice", lang, "pistard") + " ")
    for colour, value in enumerate(dice):
        out.append_text(die_text(colour, value, lang))
        out.append(" ")
    return out


def board(state: PistardState, highlight: int | None = None) -> Group:
    """The whole lap as two straights, riders by number (``highlight`` shown reversed)."""
    return picture.board(state.frame(), highlight)


def board_text(state: PistardState) -> str:
    """The board and the standings as plain text (no colour codes)."""
    return picture.frame_text(state.frame())


def standings(state: PistardState) -> Text:
    """Riders in race order with distance to go, lane and their player's tokens."""
    return picture.standings(state.frame())


def _place(n: int) -> str:
    """A place in words (the shared ``place_*`` keys: 1st, 2nd, 3rd, 4th)."""
    return render(f"place_{n}" if n <= 3 else "place_n", "en", params={"n": n})


def _line(key: str, **params: object) -> str:
    """The English of one of the result's lines (``lines.<key>`` of PISTARD's table)."""
    return render(f"lines.{key}", "en", "pistard", params)


def _past(squares: int) -> str:
    return _line("past_one" if squares == 1 else "past_many", n=squares)


def result_lines(state: PistardState) -> list[RenderableType]:
    """The result of a finished race: who won and how, and a table that fits the variant
    (places only where only places mean something; points, heats or the team's time
    where those are the result)."""
    variant = state.options.variant
    turns = state.rounds_total
    out: list[RenderableType] = []
    stopped = _line("stopped", turns=turns) if state.stopped else ""
    if variant == "pursuit":
        outcome = state.outcome()
        out.append(Text(_line("pursuit_tie", stopped=stopped) if outcome.winner is None
                        else _line("pursuit_won", team=outcome.winner + 1, stopped=stopped)))
        times = {row[0]: row for row in state.team_times}
        for t in range(state.num_players):
            if t not in times:
                out.append(Text(_line("team_not_over", team=t + 1)))
                continue
            _t, rounds, past, _lane = times[t]
            out.append(Text(_line("team_over", team=t + 1, rounds=rounds, past=_past(past))))
        return out
    if variant == "ttt":
        time = f"{state.team_time():.2f}"
        if not state.team_times:
            out.append(Text(_line("ttt_capped", stopped=stopped, time=time)))
            return out
        _t, rounds, past, _lane = state.team_times[0]
        out.append(Text(_line("ttt", time=time, rounds=rounds, past=_past(past),
                              stopped=stopped)))
        return out
    riders = state.riders
    first = riders[state.ranking[0]]
    points = (_line("with_points", points=state.points[state.ranking[0]])
              if variant == "points" else "")
    fell = (_line("other_fell") if variant == "sprint"
            and any(riders[i].status == OUT for i in state.ranking) else "")
    out.append(Text(_line("winner", rider=first.ident, player=first.owner + 1,
                          title=state.rules.title, turns=turns, points=points, fell=fell,
                          stopped=stopped)))
    columns = ["place", "rider", "player"]
    if variant == "points":
        columns += ["points", "laps"]
    if variant == "elimination":
        columns.append("out")
    table = Table(*(_line(f"col_{c}") for c in columns))
    heat_out = {i: k + 1 for k, i in enumerate(state.eliminated)}
    for place, i in enumerate(state.ranking, start=1):
        r = riders[i]
        row = [_place(place), str(r.ident), str(r.owner + 1)]
        if variant == "points":
            delta = state.laps_delta[i]
            row += [str(state.points[i]), f"{delta:+d}" if delta else "0"]
        if variant == "elimination":
            row.append(_line("out_heat", n=heat_out[i]) if i in heat_out else _line("not_out"))
        table.add_row(*row)
    out.append(table)
    return out


def move_label(state: PistardState, action: int, lang: str = "en") -> Text:
    """A listed move: die (coloured), destination and why it may end there (the facts of
    the state's ``action_message``, worded by the table's ``hint.*`` keys)."""
    facts = state.action_message(action).params
    if "colour" not in facts:
        return Text(render(f"pi_stay_{facts['why']}", lang, "pistard"))
    text = die_text(COLOURS.index(facts["colour"]), facts["value"], lang)
    words = [render("hint.token", lang, "pistard")] if facts["token"] else []
    words.append(render("hint.move", lang, "pistard", facts))
    why = render("hint.behind" if facts["behind"] else "hint.on_colour", lang, "pistard")
    text.append(f" {' '.join(words)}, {why}")
    return text


# Events worth a line of commentary (the others: the board shows them).
SAID_EVENTS = frozenset({"place", "token", "move", "no_move", "stand_still", "fall",
                         "lap_gained", "lap_lost", "sprint", "heat", "team_time", "result"})


def commentary(event: Event, lang: str = "en") -> str | None:
    """One line about an event (its message ``event.<kind>`` in ``lang``), or None for
    events not worth a line."""
    return describe_event("pistard", event, lang) if event.kind in SAID_EVENTS else None
