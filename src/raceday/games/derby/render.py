"""Text for Dice Derby: the host's running commentary and the odds board, in the words of
the message tables (:mod:`raceday.present`).

Everything here reads events and boards produced by the rules; nothing decides a rule, and
nothing words a fact itself: each event is ``event.<kind>`` (or the variant a true fact
picks), each heading and column a key of the game's table.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from raceday.core.events import Event, Message
from raceday.games.derby.odds import OddsBoard, format_odds
from raceday.games.derby.rules import POSTS, horse_name, place_message
from raceday.present import describe_event, render

GAME = "derby"
SHOWN = ("roll", "round", "reroll", "quinella", "quinella_paid", "result")  # called out


def words(key: str, lang: str = "en", **params: object) -> str:
    """The game's message ``key`` with ``params`` in ``lang``."""
    return render(Message(f"{GAME}.{key}", params), lang)


def round_title(event: Event, lang: str = "en") -> str:
    """"Furlong 3:", or "Roll-off for 2nd:" in a roll-off."""
    if event["rolloff"]:
        return words("rolloff_head", lang, place=place_message(event["for_place"]))
    return words("round_head", lang, n=event["round"])


def event_lines(events: Sequence[Event], state_to_drop: list[str], lang: str = "en"
                ) -> list[str]:
    """Commentary for a batch of events: a heading as each round starts, then each die,
    how the round ended, the quinella and the result. ``state_to_drop`` carries the horse
    to drop between calls (empty at the start of a round) and is updated in place."""
    lines: list[str] = []
    for e in events:
        if e.kind not in SHOWN:
            continue
        if e.kind == "quinella_paid":  # one line for each who collects (none: no line)
            lines += ["  " + words("event.quinella_paid", lang, paid=[paid]) for paid in e["paid"]]
            continue
        text = describe_event(GAME, e, lang)
        if e.kind == "roll":
            if not state_to_drop:
                lines.append(round_title(e, lang))
            lines.append("  " + text)
            state_to_drop[:] = list(e["to_drop"])
        elif e.kind in ("round", "reroll"):
            lines.append("  → " + text)
            state_to_drop[:] = []
        elif e.kind == "result":
            lines += text.splitlines()
        else:
            lines.append("  " + text)
    return lines


def board_tables(board: OddsBoard, title: str | None = None, lang: str = "en"
                 ) -> tuple[Table, Table]:
    """A win table and a quinella grid for the terminal."""
    title = title or words("board.title", lang)
    win = Table(title=words("board.win", lang, title=title), show_lines=False)
    win.add_column(words("column.post", lang), justify="right")
    win.add_column(words("column.horse", lang))
    win.add_column(words("column.win_odds", lang), justify="right")
    for h in POSTS:
        bonus = board.bonus.get(h, 0)
        mark = ("" if not bonus else "  " + (words("board.first_out", lang) if bonus == 1
                                             else words("board.first_out_times", lang, n=bonus)))
        win.add_row(str(h), horse_name(h), format_odds(board.win[h]) + mark)
    grid = Table(title=words("board.quinella", lang, title=title))
    grid.add_column("")
    for b in POSTS[1:]:
        grid.add_column(f"{b} {horse_name(b)}", justify="right")
    for a in POSTS[:-1]:
        cells = [format_odds(board.quinella[(a, b)]) if b > a else "" for b in POSTS[1:]]
        grid.add_row(f"{a} {horse_name(a)}", *cells)
    return win, grid
