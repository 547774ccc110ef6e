"""Text for Dice Derby: the host's running commentary and the odds board.

Everything here reads events and boards produced by the rules; nothing decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.table import Table

from raceday.core.events import Event
from raceday.games.derby.odds import OddsBoard, format_odds, pair_name
from raceday.games.derby.rules import POSTS, horse_name, ordinal
from raceday.present import describe_event


def _join(names: Sequence[str]) -> str:
    names = [f"the {n}" for n in names]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def round_title(event: Event) -> str:
    """"Furlong 3", or "Roll-off for 2nd" in a roll-off."""
    if event["rolloff"]:
        return f"Roll-off for {ordinal(event['for_place'])}"
    return f"Furlong {event['round']}"


def roll_line(event: Event, previous_to_drop: Sequence[str]) -> str:
    """One die revealed, as a host calls it."""
    horse = event["horse"]
    if event["fall"]:
        return describe_event("derby", event)
    text = f"The {horse} shows {event['value']}"
    to_drop = list(event["to_drop"])
    ties = list(event.get("ties", []))
    if to_drop == [horse] and ties:
        return text + (f" — level with {_join(ties)}, and the die with more faces drops: "
                       "it is now the one to drop.")
    if to_drop == [horse] and list(previous_to_drop) not in ([], [horse]):
        return text + " — it is now the one to drop."
    if to_drop == [horse] and not previous_to_drop:
        return text + "."
    if to_drop == [horse]:
        return text + " — the one to drop."
    if len(to_drop) == 1:
        return text + f"; the {to_drop[0]} is still the one to drop."
    return text + "."


def round_line(event: Event) -> str:
    """How a round ended."""
    kind = event["kind"]
    out = list(event["out"])
    if kind == "drop":
        return f"→ The {out[0]} drops out."
    if kind == "falls":
        verb = "fell and drops out" if len(out) == 1 else "fell and drop out"
        return f"→ {_join(out).capitalize()} {verb}."
    leader = event["leader"]
    place = ordinal(event["for_place"])
    nxt = ordinal(event["for_place"] + 1)
    if len(out) == 1:
        return f"→ The {out[0]} fell: the {leader} takes {place} and the {out[0]} {nxt}."
    return (f"→ Only the {leader} stayed on: it takes {place}! {_join(out).capitalize()} "
            f"roll again for {nxt}.")


def reroll_line(event: Event) -> str:
    return "→ " + describe_event("derby", event)


def event_lines(events: Sequence[Event], state_to_drop: list[str]) -> list[str]:
    """Commentary for a batch of events; ``state_to_drop`` carries the current candidate
    between calls and is updated in place."""
    lines: list[str] = []
    for e in events:
        if e.kind == "roll":
            if not state_to_drop:
                lines.append(round_title(e) + ":")
            lines.append("  " + roll_line(e, state_to_drop))
            state_to_drop[:] = list(e["to_drop"])
        elif e.kind == "round":
            lines.append("  " + round_line(e))
            state_to_drop[:] = []
        elif e.kind == "reroll":
            lines.append("  " + reroll_line(e))
            state_to_drop[:] = []
        elif e.kind == "quinella":
            lines.append(f"  The quinella is decided: {'-'.join(e['pair'])}.")
        elif e.kind == "result":
            lines.extend(result_lines(e))
    return lines


def result_lines(event: Event) -> list[str]:
    order = list(event["order"])
    places: Mapping[str, int] = event["places"]
    out = [f"Result: 1st the {order[0]}, 2nd the {order[1]}."]
    rest = ", ".join(f"{ordinal(places[h])} {h}" for h in order[2:])
    out.append(f"Then: {rest}.")
    posts = {horse_name(p): p for p in POSTS}
    a, b = sorted((posts[order[0]], posts[order[1]]))
    out.append(f"Win: post {posts[order[0]]} ({order[0]}); quinella {a}-{b} "
               f"({pair_name((a, b))}).")
    if event["first_out"]:
        out.append("Out in the first furlong: " + ", ".join(event["first_out"]) + ".")
    return out


def board_tables(board: OddsBoard, title: str = "Odds board") -> tuple[Table, Table]:
    """A win table and a quinella grid for the terminal."""
    win = Table(title=f"{title} — win", show_lines=False)
    win.add_column("Post", justify="right")
    win.add_column("Horse")
    win.add_column("Win odds", justify="right")
    for h in POSTS:
        bonus = board.bonus.get(h, 0)
        mark = f"  (×1.5{'' if bonus == 1 else f' ×{bonus}'} first out)" if bonus else ""
        win.add_row(str(h), horse_name(h), format_odds(board.win[h]) + mark)
    grid = Table(title=f"{title} — quinella (either order)")
    grid.add_column("")
    for b in POSTS[1:]:
        grid.add_column(f"{b} {horse_name(b)}", justify="right")
    for a in POSTS[:-1]:
        cells = [format_odds(board.quinella[(a, b)]) if b > a else "" for b in POSTS[1:]]
        grid.add_row(f"{a} {horse_name(a)}", *cells)
    return win, grid
