"""Text pictures of a PISTARD race for the terminal (Rich), and one-line commentary; the
board itself is the state's frame drawn by :mod:`raceday.games.pistard.picture`."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from raceday.core.events import Event
from raceday.games.pistard import picture
from raceday.games.pistard.moves import MoveInfo
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import COLOURS
from raceday.games.pistard.variants import OUT
from raceday.present import describe_event, render

DIE_STYLE = {0: "bold black on yellow", 1: "bold black on green3", 2: "bold white on blue",
             3: "bold white on red3"}


def die_text(colour: int, value: int) -> Text:
    """A die as a coloured value, e.g. a green 5."""
    return Text(f" {COLOURS[colour]} {value} ", style=DIE_STYLE[colour])


def dice_line(dice: Sequence[int]) -> Text:
    out = Text("dice: ")
    for colour, value in enumerate(dice):
        out.append_text(die_text(colour, value))
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


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
        row = [_ordinal(place), str(r.ident), str(r.owner + 1)]
        if variant == "points":
            delta = state.laps_delta[i]
            row += [str(state.points[i]), f"{delta:+d}" if delta else "0"]
        if variant == "elimination":
            row.append(_line("out_heat", n=heat_out[i]) if i in heat_out else _line("not_out"))
        table.add_row(*row)
    out.append(table)
    return out


def move_label(state: PistardState, action: int, info: MoveInfo | None) -> Text:
    """A listed move: die (coloured), destination and why it may end there."""
    if info is None:
        what = "sur place (stand still)" if state.options.variant == "sprint" else \
            "stay (keep your tokens)"
        return Text(what)
    assert state.mover is not None
    rider = state.riders[state.mover]
    text = die_text(info.colour, info.value)
    token = " (+1 energy token)" if info.token else ""
    why = "behind a rider" if info.behind else "on its colour"
    text.append(f"{token} → {info.ahead} ahead to lane {info.lane}, square "
                f"{(rider.dist + info.ahead + rider.offset) % state.track.length}, {why}")
    return text


def _word(group: str, word: str) -> str:
    """The English of an event's fact word (``why.line`` → "race over"); an event logged
    before the words became facts holds its sentence, shown as it is."""
    key = f"{group}.{word}"
    text = render(key, "en", "pistard")
    return word if text == key else text


# Events whose line is the message table's own wording of their facts.
WORDED_EVENTS = frozenset({"place", "no_move", "stand_still", "lap_gained", "lap_lost"})


def commentary(event: Event) -> str | None:
    """One line about an event, or None for events not worth a line."""
    k = event.kind
    d = event.data
    if k in WORDED_EVENTS:
        return describe_event("pistard", event)
    if k == "move":
        token = " with an energy token" if d["token"] else ""
        return (f"rider {d['rider']} plays {d['colour']} {d['value']}{token}: "
                f"{d['to'][0] - d['from'][0]} ahead to lane {d['to'][1]}")
    if k == "fall":
        return f"rider {d['rider']} falls ({_word('fall', d['reason'])})"
    if k == "sprint":
        places = ", ".join(f"{_ordinal(place)} rider {ident} ({pts} pts)"
                           for ident, place, pts in d["places"])
        return f"lap {d['lap']} sprint: {places}"
    if k == "heat":
        return (f"heat {d['heat']} finishing order {', '.join(map(str, d['order']))}: "
                f"rider {d['eliminated']} is eliminated")
    if k == "team_time":
        return f"team {d['team'] + 1}'s third rider is over the line after {d['rounds']} turns"
    if k == "result":
        if "teams" in d:
            if d["tie"]:
                return "the pursuit ends in a tie"
            return f"team {d['teams'][0] + 1} wins the pursuit after {d['rounds']} turns"
        why = _word("why", d["why"])
        if d["why"] in ("ttt", "team time trial over"):
            return f"{why} after {d['rounds']} turns"
        ranking = ", ".join(map(str, d["ranking"]))
        return f"{why} after {d['rounds']} turns; finishing order {ranking}"
    return None
