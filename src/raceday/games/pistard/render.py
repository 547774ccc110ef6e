"""Text pictures of a PISTARD race for the terminal (Rich), and one-line commentary.

The lap is drawn as an oval in two straights: the first half of the lap runs left to right
with the outer lane on top, the second half runs back right to left below it with the inner
lane on top, so the infield lies between them. Squares are shown in their colours; riders by
their numbers; the start/finish line by a white bar before column 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.text import Text

from raceday.core.events import Event
from raceday.games.pistard.rules import RACE, MoveInfo, PistardState
from raceday.games.pistard.track import COLOURS, LANES, LETTERS

SQUARE_STYLE = {
    0: "black on yellow",
    1: "black on green3",
    2: "white on blue",
    3: "white on red3",
}
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


def _cell(state: PistardState, column: int, lane: int,
          occupants: dict[tuple[int, int], int], highlight: int | None) -> Text:
    colour = state.track.rows[lane - 1][(column + state.track.line) % state.track.length]
    style = SQUARE_STYLE[colour]
    ident = occupants.get((column, lane))
    if ident is None:
        return Text(f" {LETTERS[colour].lower()}", style="dim " + style)
    bold = "bold reverse " if ident == highlight else "bold "
    return Text(f"{ident:>2}", style=bold + style)


def board(state: PistardState, highlight: int | None = None) -> Group:
    """The whole lap as two straights, riders by number (``highlight`` shown reversed)."""
    length = state.track.length
    half = length // 2
    occupants: dict[tuple[int, int], int] = {}
    for r in state.riders:
        if r.status == RACE:
            occupants[state.square_of(r)] = r.ident
    lines: list[Text] = []
    ruler = Text("       ")
    for column in range(half):
        ruler.append(f"{column:<4}" if column % 2 == 0 else "", style="dim")
    lines.append(ruler)
    for lane in range(LANES, 0, -1):
        row = Text(f"lane {lane} |", style="dim")
        for column in range(half):
            row.append_text(_cell(state, column, lane, occupants, highlight))
        lines.append(row)
    lines.append(Text("       " + "infield".center(2 * half), style="dim italic"))
    for lane in range(1, LANES + 1):
        row = Text(f"lane {lane}  ", style="dim")
        for column in range(length - 1, half - 1, -1):
            row.append_text(_cell(state, column, lane, occupants, highlight))
        lines.append(row)
    ruler = Text("       ")
    for column in range(length - 1, half - 1, -2):
        ruler.append(f"{column:<4}", style="dim")
    lines.append(ruler)
    lines.append(Text("  the lap runs left to right on top, then right to left below; the "
                      "line is just before column 0 (top left); y g b r = yellow green blue "
                      "red", style="dim"))
    return Group(*lines)


def standings(state: PistardState) -> Text:
    """Riders in race order with distance to go, lane and their player's tokens."""
    finish = state.options.race_laps * state.track.length
    out = Text()
    for i in state.race_order():
        r = state.riders[i]
        to_go = finish - r.dist
        extra = f" pts {state.points[i]}" if state.options.variant == "points" else ""
        out.append(f"  {r.ident:>2}  lane {r.lane}  {to_go:>4} to go  "
                   f"player {r.owner + 1} tokens {state.tokens[r.owner]}{extra}\n")
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


def commentary(event: Event) -> str | None:
    """One line about an event, or None for events not worth a line."""
    k = event.kind
    d = event.data
    if k == "place":
        return f"rider {d['rider']} lines up {d['behind']} behind the line in lane {d['lane']}"
    if k == "move":
        token = " with an energy token" if d["token"] else ""
        return (f"rider {d['rider']} plays {d['colour']} {d['value']}{token}: "
                f"{d['to'][0] - d['from'][0]} ahead to lane {d['to'][1]}")
    if k == "no_move":
        return f"rider {d['rider']} has no legal move and stays"
    if k == "stand_still":
        return f"rider {d['rider']} stands still"
    if k == "fall":
        return f"rider {d['rider']} falls ({d['reason']})"
    if k == "sprint":
        places = ", ".join(f"{ident} {pts} pts" for ident, _place, pts in d["places"])
        return f"lap {d['lap']} sprint: {places}"
    if k == "lap_gained":
        return f"rider {d['rider']} gains a lap (+{d['bonus']})"
    if k == "lap_lost":
        return f"rider {d['rider']} loses a lap ({d['bonus']})"
    if k == "heat":
        return (f"heat {d['heat']} order {' '.join(map(str, d['order']))}; "
                f"rider {d['eliminated']} is eliminated")
    if k == "team_time":
        return f"team {d['team'] + 1}'s third rider is over the line after {d['rounds']} turns"
    if k == "result":
        if "teams" in d:
            if d["tie"]:
                return "the pursuit ends in a tie"
            return f"team {d['teams'][0] + 1} wins the pursuit after {d['rounds']} turns"
        ranking = " ".join(map(str, d["ranking"]))
        return f"{d['why']} after {d['rounds']} turns: {ranking}"
    return None
