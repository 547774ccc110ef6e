"""The odds tables of ``raceday keirin odds`` and the betting board, drawn with Rich alone.

Apart from :mod:`raceday.games.keirin.cli` so that the fast start
(:mod:`raceday.games.keirin.quick`) draws the very same tables without importing the full
command line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from raceday.games.keirin.odds import KeirinOdds

MAX_TOP = 1_000  # more rows than any bet type has (504 trifectas with 9 riders)
TOP_DEFAULT = 10


def combo_text(kind: str, combo: tuple[int, ...]) -> str:
    """A bet's riders as written on a ticket: ordered bets with '-', unordered with '='."""
    sep = "-" if kind in ("exacta", "trifecta") else "="
    return sep.join(str(r) for r in combo)


def odds_table(
    odds: KeirinOdds, kind: str, top: int | None, margin: float | None = None,
    words: Mapping[str, str] | None = None,
) -> Table:
    """A Rich table of one bet type: combination, probability and fair odds (1/p), or with
    ``margin`` the odds a bookmaker offers (as quoted on tickets: rounded down). ``words``
    gives the headings in another language (the kind's name, "bet", "probability", "fair
    odds", "offered odds", "of" as in "8 of 36"); English by default."""
    said = dict(words or {})
    table = odds.bet(kind)
    ranked = sorted(table.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ranked if top is None else ranked[:top]
    name = said.get(kind, kind)
    title = (f"{name} ({len(shown)} {said.get('of', 'of')} {len(ranked)})"
             if len(shown) < len(ranked) else name)
    out = Table(title=title, title_justify="left")
    out.add_column(said.get("bet", "bet"), justify="left")
    out.add_column(said.get("probability", "probability"), justify="right")
    price_heading = "fair odds" if margin is None else "offered odds"
    out.add_column(said.get(price_heading, price_heading), justify="right")
    for combo, p in shown:
        if margin is None:
            price = f"{1 / p:,.2f}" if p > 0 else "—"
        else:
            from raceday.games.keirin.betting import format_odds, quoted_odds

            quoted = quoted_odds(p, margin)
            price = format_odds(quoted) if quoted is not None else "—"
        out.add_row(combo_text(kind, combo), f"{p:.4%}", price)
    return out


def print_odds(console: Console, odds: KeirinOdds, kinds: Sequence[str], top: int,
               show_all: bool, words: Mapping[str, str] | None = None) -> None:
    """The whole ``raceday keirin odds`` printout: a heading, one table per bet type (every
    win row; ``top`` rows of the others unless ``show_all``) and how to read the odds.
    ``words``: the heading (``heading``), the last line (``fair``) and the tables' words
    (see :func:`odds_table`) in another language; English by default (the fast start
    prints the English without loading the message tables)."""
    said = dict(words or {})
    pull = f"derny fixed at {odds.derny}" if odds.derny is not None else "derny 3d6"
    console.print(Rule(said.get("heading", f"KEIRIN exact odds — {odds.riders} riders, "
                                           f"finish at {odds.length}, {pull}")))
    for kind in kinds:
        limit = None if show_all or kind == "win" else top
        console.print(odds_table(odds, kind, limit, words=said))
    console.print(said.get("fair", "Fair odds = 1 / probability (decimal odds: the return "
                                   "per unit staked)."))


# --- the betting board fitted to a space (the terminal's `keirin play`) ---------------------
BOARD_KINDS = ("win", "quinella", "exacta", "trio", "trifecta")
# The words of the fitted board; the betting night passes its own language's.
BOARD_WORDS = {"win": "win", "quinella": "quinella", "exacta": "exacta", "trio": "trio",
               "trifecta": "trifecta", "odds": "odds", "chance": "%",
               "more": "odds: every row of every board"}


def _price(odds: KeirinOdds, kind: str, combo: tuple[int, ...], p: float,
           margin: float | None) -> str:
    if margin is None:
        return f"{1 / p:,.2f}" if p > 0 else "—"
    from raceday.games.keirin.betting import format_odds, quoted_odds

    quoted = quoted_odds(p, margin)
    return format_odds(quoted) if quoted is not None else "—"


def fitted_board(
    odds: KeirinOdds,
    width: int,
    height: int,
    *,
    margin: float | None = None,
    words: dict[str, str] | None = None,
    highlight: tuple[str, tuple[int, ...]] | None = None,
    kinds: Sequence[str] = BOARD_KINDS,
) -> Table:
    """The odds board in ``width`` x ``height`` cells: one block of columns per bet type side
    by side (the win block first, every rider when the height allows; then the most likely
    rows of the others), as many blocks as fit the width, with the chances when there is
    room for them. ``highlight`` = (kind, combination) is shown reversed (a ticket being
    chosen). The last line says where the rest is (the ``odds`` command)."""
    said = {**BOARD_WORDS, **(words or {})}
    rows = max(1, height - 2)  # the header line and the last line
    ranked = {kind: sorted(odds.bet(kind).items(), key=lambda kv: (-kv[1], kv[0]))[:rows]
              for kind in kinds}
    shown_rows = max(len(v) for v in ranked.values())

    def cells(kind: str, chances: bool) -> list[list[str]]:
        out = []
        for combo, p in ranked[kind]:
            row = [combo_text(kind, combo), _price(odds, kind, combo, p, margin)]
            if chances:
                row.insert(1, f"{p:.1%}")
            out.append(row)
        return out

    def heads(kind: str, chances: bool) -> list[str]:
        return [said[kind], said["chance"], said["odds"]] if chances else [said[kind],
                                                                           said["odds"]]

    def block_width(kind: str, chances: bool) -> int:
        from rich.cells import cell_len

        body = cells(kind, chances)
        return sum(max([cell_len(h)] + [cell_len(r[i]) for r in body])
                   for i, h in enumerate(heads(kind, chances))) + len(heads(kind, chances)) - 1

    def chosen(with_chances: Sequence[str]) -> list[str]:
        out: list[str] = []
        used = 0
        for kind in kinds:
            used += block_width(kind, kind in with_chances) + (3 if out else 0)
            if used > width:
                break
            out.append(kind)
        return out

    # the chances of every block if they all fit so; else of the win block alone; else none
    for with_chances in (tuple(kinds), tuple(kinds[:1]), ()):
        picked = chosen(with_chances)
        if len(picked) == len(kinds):
            break
    if not picked:
        picked, with_chances = list(kinds[:1]), ()
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1),
                  header_style="bold cyan", collapse_padding=True)
    data: list[list[list[str]]] = []
    for number, kind in enumerate(picked):
        chances = kind in with_chances
        table.add_column(said[kind], justify="left", style="bold", no_wrap=True)
        if chances:
            table.add_column(said["chance"], justify="right", style="grey62", no_wrap=True)
        table.add_column(said["odds"], justify="right", no_wrap=True)
        if number < len(picked) - 1:
            table.add_column("", width=1, no_wrap=True, style="grey50")
        data.append(cells(kind, chances))
    for i in range(shown_rows):
        row: list[str | Text] = []
        for number, (kind, block) in enumerate(zip(picked, data, strict=True)):
            combo = ranked[kind][i][0] if i < len(ranked[kind]) else None
            marked = highlight is not None and highlight == (kind, combo)
            values = block[i] if i < len(block) else [""] * len(heads(kind, kind in
                                                                        with_chances))
            row.extend(Text(v, style="reverse") if marked else v for v in values)
            if number < len(picked) - 1:
                row.append("│")
        table.add_row(*row)
    hidden = [k for k in kinds if k not in picked]
    cut = any(len(odds.bet(k)) > len(ranked[k]) for k in picked)
    if hidden or cut:
        table.caption = said["more"]
        table.caption_justify = "left"
        table.caption_style = "grey62"
    return table
