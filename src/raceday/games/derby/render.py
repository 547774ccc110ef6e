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
from raceday.games.derby.rules import POSTS, DerbyState, horse_name, place_message
from raceday.present import describe_event, render

GAME = "derby"
SHOWN = ("roll", "round", "reroll", "quinella", "quinella_paid", "result")  # called out


def words(key: str, lang: str = "en", **params: object) -> str:
    """The game's message ``key`` with ``params`` in ``lang``."""
    return render(Message(f"{GAME}.{key}", params), lang)


def computer_seats(count: int, lang: str = "en") -> list[tuple[str, str]]:
    """``count`` computer players' seats, alternately cautious and bold, named in the
    reader's language ("Computer 1", 「コンピューター1」)."""
    return [(words("computer.name", lang, number=k + 1), ("cautious", "bold")[k % 2])
            for k in range(count)]


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


# --- the terminal's boards (line mode prints them; a full-screen view keeps them fixed) ----

FURLONGS = 5
HIGHLIGHT = "bold reverse"


def odds_panel(board: OddsBoard, title: str, lang: str = "en", *,
               highlight: Sequence[int] = ()) -> Table:
    """The odds board in one compact table: each horse's win odds, then the quinella grid
    beside them (9 lines, about 60 columns). ``highlight`` marks a ticket's horses: one
    post lights its win odds, two posts their quinella cell."""
    from rich import box
    from rich.text import Text

    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1),
                  title_justify="left")
    table.add_column(words("column.post", lang), justify="right")
    table.add_column(words("column.horse", lang))
    table.add_column(words("column.win_odds", lang), justify="right")
    for b in POSTS[1:]:
        table.add_column(horse_name(b), justify="right")
    pair = tuple(sorted(highlight)) if len(highlight) == 2 else None
    for h in POSTS:
        bonus = board.bonus.get(h, 0)
        win = format_odds(board.win[h]) + ("" if not bonus else " ×1.5" * min(bonus, 2))
        win_cell = Text(win, style=HIGHLIGHT if tuple(highlight) == (h,) else "")
        cells: list[Text] = []
        for b in POSTS[1:]:
            if b <= h:
                cells.append(Text("·" if b == h else "", style="dim"))
                continue
            style = HIGHLIGHT if pair == (h, b) else ""
            cells.append(Text(format_odds(board.quinella[(h, b)]), style=style))
        table.add_row(str(h), horse_name(h), win_cell, *cells)
    return table


def odds_caption(lang: str = "en") -> str:
    """What the compact odds board's columns mean (one line)."""
    return words("board.caption", lang)


def race_rows(race: DerbyState) -> list[tuple[int, int, int | None, bool, int | None]]:
    """(post, furlongs run, place, fell this round, shown) for each horse of ``race``."""
    rows = []
    for p in POSTS:
        dropped = race.dropped_in.get(p)
        if race.places.get(p) == 1 or (dropped is None and not race.to_roll):
            run = FURLONGS
        elif dropped is not None:
            run = dropped - 1
        else:
            run = min(race.round - 1, FURLONGS)
        shown = race.rolls.get(p, -1)
        fell = p in race.rolls and shown is None
        rows.append((p, run, race.places.get(p), fell, None if shown in (None, -1) else shown))
    return rows


def track_panel(race: DerbyState, title: str, lang: str = "en", *,
                owners: dict[int, str] | None = None,
                last_rolls: dict[str, int | None] | None = None) -> Table:
    """The track: each horse's furlongs run as a bar of five, its die this round (else, in
    dim, what it showed in the round just resolved: ``last_rolls`` by horse name), its
    place once it has one, and its owner (7 lines plus a title)."""
    from rich import box
    from rich.text import Text

    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1),
                  title_justify="left")
    table.add_column(words("column.post", lang), justify="right")
    table.add_column(words("column.horse", lang))
    table.add_column(words("column.furlongs", lang))
    table.add_column(words("column.shows", lang), justify="right")
    table.add_column(words("column.place", lang))
    if owners is not None:
        table.add_column(words("owner", lang))
    rolling = race.roller
    earlier = last_rolls if not race.rolls and last_rolls else {}
    for post, run, place, fell, shown in race_rows(race):
        bar = Text("■" * run, style="green") + Text("·" * (FURLONGS - run), style="dim")
        name = horse_name(post)
        if fell or (name in earlier and earlier[name] is None):
            roll = Text("F", style="red" if fell else "dim red")
        elif shown is not None:
            roll = Text(str(shown), style="bold")
        else:
            roll = Text(str(earlier.get(name) or ""), style="dim")
        placed = (Text(render(place_message(place), lang),
                       style="bold yellow" if place == 1 else "")
                  if place is not None else Text("◀" if post == rolling else ""))
        row: list[str | Text] = [str(post), horse_name(post), bar, roll, placed]
        if owners is not None:
            row.append(owners.get(post, "—"))
        table.add_row(*row)
    return table
