"""The odds tables of ``raceday keirin odds`` and the betting board, drawn with Rich alone.

Apart from :mod:`raceday.games.keirin.cli` so that the fast start
(:mod:`raceday.games.keirin.quick`) draws the very same tables without importing the full
command line.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from raceday.games.keirin.odds import KeirinOdds

MAX_TOP = 1_000  # more rows than any bet type has (504 trifectas with 9 riders)
TOP_DEFAULT = 10


def combo_text(kind: str, combo: tuple[int, ...]) -> str:
    """A bet's riders as written on a ticket: ordered bets with '-', unordered with '='."""
    sep = "-" if kind in ("exacta", "trifecta") else "="
    return sep.join(str(r) for r in combo)


def odds_table(
    odds: KeirinOdds, kind: str, top: int | None, margin: float | None = None
) -> Table:
    """A Rich table of one bet type: combination, probability and fair odds (1/p), or with
    ``margin`` the odds a bookmaker offers (as quoted on tickets: rounded down)."""
    table = odds.bet(kind)
    ranked = sorted(table.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ranked if top is None else ranked[:top]
    title = f"{kind} ({len(shown)} of {len(ranked)})" if len(shown) < len(ranked) else kind
    out = Table(title=title, title_justify="left")
    out.add_column("bet", justify="left")
    out.add_column("probability", justify="right")
    out.add_column("fair odds" if margin is None else "offered odds", justify="right")
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
               show_all: bool) -> None:
    """The whole ``raceday keirin odds`` printout: a heading, one table per bet type (every
    win row; ``top`` rows of the others unless ``show_all``) and how to read the odds."""
    pull = f"derny fixed at {odds.derny}" if odds.derny is not None else "derny 3d6"
    console.print(
        Rule(f"KEIRIN exact odds — {odds.riders} riders, finish at {odds.length}, {pull}")
    )
    for kind in kinds:
        limit = None if show_all or kind == "win" else top
        console.print(odds_table(odds, kind, limit))
    console.print("Fair odds = 1 / probability (decimal odds: the return per unit staked).")
