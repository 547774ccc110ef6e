"""Text pictures of a PISTARD race for the terminal (Rich), and one-line commentary; the
board itself is the state's frame drawn by :mod:`raceday.games.pistard.picture`."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from raceday.core.events import Event
from raceday.games.pistard import picture
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import (
    COLOURS,
    LANES,
    LETTERS,
    SHIPPED_TRACKS,
    Track,
    load_track,
)
from raceday.games.pistard.variants import OUT
from raceday.present import describe_event, render

DIE_STYLE = {0: "bold black on yellow", 1: "bold black on green3", 2: "bold white on blue",
             3: "bold white on red3"}


def die_text(colour: int, value: int, lang: str = "en") -> Text:
    """A die as a coloured value, e.g. a green 5."""
    name = render(f"pi_{COLOURS[colour]}", lang, "pistard")
    return Text(f" {name} {value} ", style=DIE_STYLE[colour])


def dice_line(dice: Sequence[int], lang: str = "en", label: str | None = None) -> Text:
    """The four dice, coloured, after ``label`` (default: the table's 'dice:')."""
    out = Text((render("hint.dice", lang, "pistard") if label is None else label) + " ")
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


def _place(n: int, lang: str = "en") -> str:
    """A place in words (the shared ``place_*`` keys: 1st, 2nd, 3rd, 4th)."""
    return render(f"place_{n}" if n <= 3 else "place_n", lang, params={"n": n})


def result_lines(state: PistardState, lang: str = "en") -> list[RenderableType]:
    """The result of a finished race: who won and how, and a table that fits the variant
    (places only where only places mean something; points, heats or the team's time
    where those are the result)."""
    def _line(key: str, **params: object) -> str:
        """One of the result's lines (``lines.<key>`` of PISTARD's table) in ``lang``."""
        return render(f"lines.{key}", lang, "pistard", params)

    def _past(squares: int) -> str:
        return _line("past", n=squares)

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
                          title=_line(f"title.{variant}"), turns=turns, points=points, fell=fell,
                          stopped=stopped)))
    columns = ["place", "rider", "player"]
    if variant == "points":
        columns += ["points", "laps"]
    if variant == "elimination":
        columns.append("out")
    table = Table(*(_line(f"col_{c}") for c in columns), box=box.SIMPLE_HEAD)
    heat_out = {i: k + 1 for k, i in enumerate(state.eliminated)}
    for place, i in enumerate(state.ranking, start=1):
        r = riders[i]
        row = [_place(place, lang), str(r.ident), str(r.owner + 1)]
        if variant == "points":
            delta = state.laps_delta[i]
            row += [str(state.points[i]), f"{delta:+d}" if delta else "0"]
        if variant == "elimination":
            row.append(_line("out_heat", n=heat_out[i]) if i in heat_out else _line("not_out"))
        table.add_row(*row)
    out.append(table)
    return out


def move_short(state: PistardState, action: int, lang: str = "en") -> Text:
    """A listed move, short enough for two columns at 80: the die (coloured), how far and
    to which lane, and marks for a spent token and for ending behind a rider."""
    facts = state.action_message(action).params
    if "colour" not in facts:
        return Text(render(f"pi_stay_{facts['why']}", lang, "pistard"))
    text = die_text(COLOURS.index(facts["colour"]), facts["value"], lang)
    text.append(" " + render("term.move", lang, "pistard", facts))
    marks = [render(f"term.mark_{k}", lang, "pistard") for k in ("behind", "token")
             if facts[k]]
    if marks:
        text.append(" " + render("term.marks", lang, "pistard",
                                 {"marks": render("term.mark_join", lang, "pistard").join(marks)}))
    return text


def standings_line(state: PistardState, lang: str = "en") -> Text:
    """The race order in one or two lines: each rider's number and squares to go (points in
    the points race), then each player's energy tokens."""
    frame = state.frame()
    riders = []
    for row in frame["standings"]:
        to_go = row["to_go"]
        gone = (render("term.to_go", lang, "pistard", {"rider": row["rider"], "n": to_go})
                if to_go > 0 else render("term.over", lang, "pistard", {"rider": row["rider"]}))
        if row["points"] is not None:
            gone += " " + render("term.points", lang, "pistard", {"n": row["points"]})
        riders.append(gone)
    tokens = " · ".join(render("term.tokens_of", lang, "pistard", {"player": p + 1, "n": n})
                        for p, n in enumerate(frame["tokens"]))
    out = Text(render("term.order", lang, "pistard") + " " + " · ".join(riders))
    out.append("\n" + render("term.tokens", lang, "pistard") + " " + tokens, style="dim")
    return out


# Events worth a line of commentary (the others: the board shows them).
SAID_EVENTS = frozenset({"place", "token", "move", "no_move", "stand_still", "fall",
                         "lap_gained", "lap_lost", "sprint", "heat", "team_time", "result"})


def commentary(event: Event, lang: str = "en") -> str | None:
    """One line about an event (its message ``event.<kind>`` in ``lang``), or None for
    events not worth a line."""
    return describe_event("pistard", event, lang) if event.kind in SAID_EVENTS else None


# --- the terminal's board -----------------------------------------------------------------
# Every square keeps its colour's letter, riders stand beside it: a cell is the letter and
# two characters for a rider's number ("G21": player 2's first rider on a green square), so
# a rider never hides the colour under him. A board is drawn for the space it gets: the
# whole lap in two straights where it fits (120x40), else the part of the track around the
# riders as one straight strip (80x24), so the decision screen never scrolls away.
CELL = 3  # a square: its colour letter and a rider's two digits
TARGET_MARK = "**"  # where the move being looked at ends
MOVER_STYLE = "bold reverse "
TARGET_STYLE = "bold reverse underline "


def _word(key: str, lang: str, **params: object) -> str:
    return render(f"term.{key}", lang, "pistard", params)


def track_name(track: Track, lang: str = "en") -> str:
    """A track's name for the reader: a shipped track's from the message table, in
    ``lang``; any other as its file names it."""
    for shipped in SHIPPED_TRACKS:
        if track == load_track(shipped):
            return _word(f"track_name.{shipped}", lang)
    return track.name


def _occupants(frame: picture.Frame) -> dict[tuple[int, int], int]:
    return {(r["col"], r["lane"]): r["rider"] for r in frame["riders"]
            if r["status"] == picture.RACE}


def _square(frame: picture.Frame, column: int, lane: int, cell: int,
            occupants: dict[tuple[int, int], int], highlight: int | None,
            target: tuple[int, int] | None) -> Text:
    """One square: its colour letter, then the rider on it (or the target mark)."""
    colour = frame["grid"][lane - 1][column]
    style = picture.SQUARE_STYLE[colour]
    letter = LETTERS[colour]
    if cell == 2:
        return Text(f"{letter} ", style="dim " + style)
    ident = occupants.get((column, lane))
    out = Text(letter, style=style)
    if (column, lane) == target:
        out.append(TARGET_MARK, style=TARGET_STYLE + style)
    elif ident is None:
        out.append("  ", style=style)
    else:
        out.append(f"{ident:>2}", style=(MOVER_STYLE if ident == highlight else "bold ") + style)
    return out


def _labels(lang: str) -> dict[int, str]:
    return {lane: _word("lane", lang, n=lane) for lane in range(1, LANES + 1)}


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


def _legend(lang: str, target: tuple[int, int] | None, cell: int) -> Text:
    parts = [_word("legend.colours", lang)]
    if cell == CELL:
        parts.append(_word("legend.rider", lang))
    if target is not None:
        parts.append(_word("legend.target", lang, mark=TARGET_MARK))
    return Text(" · ".join(parts), style="dim")


def lap_lines(frame: picture.Frame, lang: str = "en", highlight: int | None = None,
              target: tuple[int, int] | None = None, cell: int = CELL) -> list[Text]:
    """The whole lap in two straights: columns 0 onwards left to right on top (outer lane
    first), the rest back right to left below it (inner lane first), the infield between."""
    length = frame["length"]
    half = (length + 1) // 2
    occupants = _occupants(frame)
    labels = _labels(lang)
    width = max(cell_len(v) for v in labels.values()) + 1
    lines: list[Text] = []

    def ruler(columns: Sequence[int]) -> Text:
        out = Text(" " * (width + 1))
        step = 1 if cell == CELL else 2
        for k, column in enumerate(columns):
            if k % step == 0:
                out.append(f"{column:<{cell * step}}", style="dim")
        return out

    top = list(range(half))
    bottom = list(range(length - 1, half - 1, -1))
    lines.append(ruler(top))
    for lane in range(LANES, 0, -1):
        row = Text(_pad(labels[lane], width) + "|", style="dim")
        for column in top:
            row.append_text(_square(frame, column, lane, cell, occupants, highlight, target))
        lines.append(row)
    lines.append(Text(" " * (width + 1) + _word("infield", lang).center(cell * half),
                      style="dim italic"))
    for lane in range(1, LANES + 1):
        row = Text(_pad(labels[lane], width) + " ", style="dim")
        for column in bottom:
            row.append_text(_square(frame, column, lane, cell, occupants, highlight, target))
        lines.append(row)
    lines.append(ruler(bottom))
    lines.append(Text(_word("lap_direction", lang), style="dim"))
    lines.append(_legend(lang, target, cell))
    return lines


def _window_start(frame: picture.Frame, columns: int, must: Sequence[int]) -> int:
    """The first column of the strip of ``columns`` squares that shows the columns in
    ``must`` and, among those, the most riders, with room ahead of the leaders."""
    length: int = frame["length"]
    if columns >= length:
        return 0
    riders = sorted({r["col"] for r in frame["riders"] if r["status"] == picture.RACE})
    best: tuple[int, int, int] | None = None
    start_at = 0
    for start in range(length):
        inside = [(c - start) % length for c in riders]
        if any((m - start) % length >= columns for m in must):
            continue
        shown = [d for d in inside if d < columns]
        if not shown:
            continue
        # the most riders; then the pack placed a third of the way in (room to ride into)
        first, last = min(shown), max(shown)
        balance = -abs((columns - 1 - last) - 2 * first)
        score = (len(shown), balance, -start)
        if best is None or score > best:
            best, start_at = score, start
    if best is None:  # no rider on the track yet (before the start): the line, from behind
        anchor = must[0] if must else 0
        return (anchor - columns // 2) % length
    return start_at


def _strip(frame: picture.Frame, shown: Sequence[int], lang: str, highlight: int | None,
           target: tuple[int, int] | None) -> list[Text]:
    """The squares of ``shown`` (columns in riding order) as one straight strip, riding
    left to right, the outer lane on top: a ruler, then the four lanes; ``|`` is the line."""
    occupants = _occupants(frame)
    labels = _labels(lang)
    width = max(cell_len(v) for v in labels.values()) + 1
    ruler = Text(_pad(_word("ahead", lang), width + 1), style="dim")
    for k, column in enumerate(shown):
        if k and column == 0:
            ruler.append("|", style="dim")
        ruler.append(f"{column:<{CELL}}", style="bold" if column == 0 else "dim")
    lines = [ruler]
    for lane in range(LANES, 0, -1):
        row = Text(_pad(labels[lane], width) + ("|" if shown[0] == 0 else " "), style="dim")
        for k, column in enumerate(shown):
            if k and column == 0:
                row.append("|", style="bold")
            row.append_text(_square(frame, column, lane, CELL, occupants, highlight, target))
        lines.append(row)
    return lines


def strip_lines(frame: picture.Frame, columns: int, lang: str = "en",
                highlight: int | None = None, target: tuple[int, int] | None = None
                ) -> list[Text]:
    """The part of the track around the riders as one straight strip of ``columns``
    squares (the mover and the target always in it), with the riders it leaves out."""
    length = frame["length"]
    columns = max(1, min(columns, length))
    must = [r["col"] for r in frame["riders"]
            if r["rider"] == highlight and r["status"] == picture.RACE]
    if target is not None:
        must.append(target[0])
    start = _window_start(frame, columns, must)
    shown = [(start + k) % length for k in range(columns)]
    lines = _strip(frame, shown, lang, highlight, target)
    in_view = set(shown)
    off = [str(r["rider"]) for r in frame["riders"]
           if r["status"] == picture.RACE and r["col"] not in in_view]
    if off:
        lines.append(Text(_word("off_view", lang, riders=", ".join(off)), style="dim"))
    lines.append(_legend(lang, target, CELL))
    return lines


def parts_lines(frame: picture.Frame, parts: int, lang: str = "en",
                highlight: int | None = None, target: tuple[int, int] | None = None
                ) -> list[Text]:
    """The whole lap cut into ``parts`` straight strips of (nearly) equal length, one
    under the other, each riding left to right from where the one above ends."""
    length: int = frame["length"]
    size = -(-length // parts)
    lines: list[Text] = []
    for first in range(0, length, size):
        lines.extend(_strip(frame, list(range(first, min(first + size, length))), lang,
                            highlight, target))
    lines.append(Text(_word("parts_direction", lang, n=parts), style="dim"))
    lines.append(_legend(lang, target, CELL))
    return lines


def lap_width(frame: picture.Frame, lang: str = "en", cell: int = CELL) -> int:
    """Columns of text the whole lap needs."""
    labels = _labels(lang)
    width = max(cell_len(v) for v in labels.values()) + 2
    length: int = frame["length"]
    return width + cell * ((length + 1) // 2)


LAP_HEIGHT = 13  # rulers, eight lanes, the infield, the direction and the legend
PART_HEIGHT = 5  # a strip: its ruler and four lanes


def track_view(frame: picture.Frame, width: int, height: int, lang: str = "en",
               highlight: int | None = None, target: tuple[int, int] | None = None
               ) -> Group:
    """The board for a space of ``width`` x ``height``: the whole lap as an oval of two
    straights where that fits, else the whole lap in three or four straight parts, else
    the strip around the riders (the mover and the target always in it)."""
    if width >= lap_width(frame, lang) and height >= LAP_HEIGHT:
        return Group(*lap_lines(frame, lang, highlight, target))
    labels = _labels(lang)
    columns = (width - max(cell_len(v) for v in labels.values()) - 3) // CELL
    length: int = frame["length"]
    if columns > 0:
        parts = -(-length // columns)
        if parts <= 4 and parts * PART_HEIGHT + 2 <= height:
            return Group(*parts_lines(frame, parts, lang, highlight, target))
    return Group(*strip_lines(frame, columns, lang, highlight, target))


def frame_view(frame: picture.Frame, lang: str = "en", highlight: int | None = None,
               target: tuple[int, int] | None = None, extra: Sequence[RenderableType] = ()
               ) -> Callable[[int, int], Group]:
    """The board of ``frame`` as a function of the space it gets (see :func:`track_view`),
    with ``extra`` lines under it (the dice, the standings) that take their share of it."""

    def draw(width: int, height: int) -> Group:
        measure = Console(file=io.StringIO(), width=max(width, 1), color_system=None)
        used = sum(len(measure.render_lines(e, measure.options, pad=False)) for e in extra)
        return Group(track_view(frame, width, height - used, lang, highlight, target), *extra)

    return draw


def result_view(state: PistardState, lang: str = "en",
                head: RenderableType | None = None) -> Callable[[int, int], Group]:
    """The end of a race for a space of ``width`` x ``height``: the track with the result
    under it, or the result alone when both do not fit (it is what matters then)."""
    frame = state.frame()
    result = [*([head] if head is not None else []), *result_lines(state, lang)]

    def draw(width: int, height: int) -> Group:
        measure = Console(file=io.StringIO(), width=max(width, 1), color_system=None)
        used = sum(len(measure.render_lines(e, measure.options, pad=False)) for e in result)
        if height - used >= PART_HEIGHT + 1:
            return Group(track_view(frame, width, height - used, lang), *result)
        return Group(*result)

    return draw


def board_view(state: PistardState, lang: str = "en", highlight: int | None = None,
               target: tuple[int, int] | None = None, extra: Sequence[RenderableType] = ()
               ) -> Callable[[int, int], Group]:
    """The board as a function of the space it gets, drawn from the state as it is now (a
    later change of the state does not change it)."""
    return frame_view(state.frame(), lang, highlight, target, extra)


def board_text_view(state: PistardState, width: int, height: int, lang: str = "en",
                    highlight: int | None = None, target: tuple[int, int] | None = None
                    ) -> str:
    """The board for ``width`` x ``height`` as plain text (no colour codes)."""
    out = io.StringIO()
    plain = Console(file=out, width=width, color_system=None, force_terminal=False,
                    highlight=False, emoji=False)
    plain.print(track_view(state.frame(), width, height, lang, highlight, target))
    return out.getvalue()
