"""`raceday keirin …` commands."""

from __future__ import annotations

from typing import Annotated

import numpy as np
import typer
from rich.rule import Rule
from rich.table import Table

from raceday.cli.common import (
    PROGRESS_THRESHOLD,
    console,
    default_delay,
    pause,
    print_json,
    progress_bar,
)
from raceday.core.errors import OptionsError
from raceday.core.events import Event
from raceday.core.play import play_game
from raceday.core.protocol import State
from raceday.games.keirin.odds import BET_TYPES, KeirinOdds, race_odds
from raceday.games.keirin.render import commentary, render_track, throw_line
from raceday.games.keirin.rules import (
    DEFAULT_LENGTH,
    DEFAULT_RIDERS,
    KeirinOptions,
    KeirinState,
)
from raceday.games.keirin.simulate import ENGINES
from raceday.games.keirin.simulate import simulate as run_simulation

HELP = "KEIRIN (Anki Toner): 6–9 track riders sprint for the line after the derny leaves."

app = typer.Typer(help=HELP, no_args_is_help=True)

RidersOpt = Annotated[
    int, typer.Option("--riders", "-r", help="Number of riders, 6–9 (drops the highest numbers).")
]
LengthOpt = Annotated[
    int,
    typer.Option(
        "--length", "-l", help="Squares from the derny's start to the finish line (100 = a lap)."
    ),
]
DernyOpt = Annotated[
    int | None,
    typer.Option("--derny", help="Fix the derny's 3d6 advance (3–18) to ask 'what if'."),
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", "-s", help="Random seed; the same seed replays the race.")
]


def _rng(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(seed)


@app.command()
def watch(
    seed: SeedOpt = None,
    riders: RidersOpt = DEFAULT_RIDERS,
    length: LengthOpt = DEFAULT_LENGTH,
    derny: DernyOpt = None,
    delay: Annotated[
        float | None,
        typer.Option(
            help="Seconds between turns; 0 prints at once. Default: a short pause in a "
            "terminal, none when piped."
        ),
    ] = None,
) -> None:
    """Watch one race turn by turn, with commentary and the final ranking."""
    options = KeirinOptions(riders=riders, length=length, derny=derny)
    if delay is not None and delay < 0:
        raise OptionsError(f"delay must be 0 or more seconds, got {delay}")
    wait = default_delay(delay)
    state = KeirinState(options)
    console.print(Rule(f"KEIRIN — {riders} riders, finish {length} squares from the derny's start"))
    turn_events: list[Event] = []

    def show(s: State, events: list[Event]) -> None:
        assert isinstance(s, KeirinState)
        turn_events.extend(events)
        boundary = any(e.kind in ("turn", "slipstream", "result") for e in events)
        if not boundary:
            return
        title = "Start" if s.turn <= 1 and any(e.kind == "slipstream" for e in events) else None
        console.print(Rule(title or f"Turn {turn_label(turn_events)}", style="grey50"))
        line = throw_line(turn_events)
        if line.plain:
            console.print(line)
        console.print(render_track(s))
        for text in commentary(turn_events):
            console.print(f"  {text}")
        turn_events.clear()
        pause(wait)

    play_game(state, [], _rng(seed), max_steps=options.max_steps(), on_events=show)
    if turn_events:
        for text in commentary(turn_events):
            console.print(f"  {text}")
    console.print(Rule("Result"))
    table = Table("place", "rider", "squares past the line")
    line = options.length
    for place, rider in enumerate(state.ranked, start=1):
        table.add_row(str(place), f"R{rider}", str(state.positions[rider - 1] - line))
    console.print(table)
    console.print(f"[bold]Rider {state.ranked[0]} wins.[/]")


def turn_label(events: list[Event]) -> str:
    turns = [e["turn"] for e in events if "turn" in e.data]
    return str(turns[-1]) if turns else "?"


@app.command()
def simulate(
    n: Annotated[int, typer.Option("-n", "--races", help="Number of races to simulate.")] = 10_000,
    seed: SeedOpt = None,
    riders: RidersOpt = DEFAULT_RIDERS,
    length: LengthOpt = DEFAULT_LENGTH,
    derny: DernyOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    engine: Annotated[
        str,
        typer.Option(
            help="fast: the compiled sampler (first three places); reference: the rules "
            "engine, every event (slow, for checking)."
        ),
    ] = "fast",
) -> None:
    """Simulate many races: win, top-2 and top-3 chances with 95% intervals."""
    if n < 1:
        raise OptionsError(f"n must be at least 1, got {n}")
    if engine not in ENGINES:
        raise OptionsError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    options = KeirinOptions(riders=riders, length=length, derny=derny)
    show_bar = n >= PROGRESS_THRESHOLD * (1 if engine == "reference" else 500) and not json_out
    with progress_bar("racing", n, enabled=show_bar) as bar:
        task = bar.task_ids[0]
        summary = run_simulation(
            options, n, _rng(seed), engine=engine,
            on_progress=lambda done: bar.update(task, completed=done),
        )
    if json_out:
        print_json(summary.to_json())
        return
    table = Table(title=f"KEIRIN: {n:,} races, {riders} riders, length {length}")
    for col in ("rider", "win", "95% CI", "top 2", "top 3"):
        table.add_column(col, justify="right")
    for r in range(1, riders + 1):
        lo, hi = summary.interval(r, 1)
        table.add_row(
            f"R{r}",
            f"{summary.rate(r, 1):.3%}",
            f"{lo:.3%} – {hi:.3%}",
            f"{summary.rate(r, 2):.3%}",
            f"{summary.rate(r, 3):.3%}",
        )
    console.print(table)
    mean, lo, hi = summary.mean_turns_interval()
    console.print(f"Average race length: {mean:.2f} turns (95% CI {lo:.2f} – {hi:.2f}).")


TOP_DEFAULT = 10


def _combo(kind: str, combo: tuple[int, ...]) -> str:
    sep = "-" if kind in ("exacta", "trifecta") else "="
    return sep.join(str(r) for r in combo)


def odds_table(odds: KeirinOdds, kind: str, top: int | None, margin: float = 0.0) -> Table:
    """A Rich table of one bet type: combination, probability, fair (or offered) odds."""
    table = odds.bet(kind)
    ranked = sorted(table.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ranked if top is None else ranked[:top]
    title = f"{kind} ({len(shown)} of {len(ranked)})" if len(shown) < len(ranked) else kind
    out = Table(title=title, title_justify="left")
    out.add_column("bet", justify="left")
    out.add_column("probability", justify="right")
    out.add_column("fair odds" if margin == 0 else "offered odds", justify="right")
    for combo, p in shown:
        price = (1 - margin) / p if p > 0 else float("inf")
        out.add_row(_combo(kind, combo), f"{p:.4%}", f"{price:,.2f}" if p > 0 else "—")
    return out


@app.command()
def odds(
    riders: RidersOpt = DEFAULT_RIDERS,
    length: LengthOpt = DEFAULT_LENGTH,
    derny: DernyOpt = None,
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet", "-b", help="Bet type(s) to show: win, exacta, quinella, trifecta, trio "
            "(repeat the option; default all)."
        ),
    ] = None,
    top: Annotated[
        int, typer.Option(help="Rows shown for the large bet types (exacta and beyond).")
    ] = TOP_DEFAULT,
    show_all: Annotated[
        bool, typer.Option("--all", help="Show every combination of every bet type.")
    ] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object with every probability.")
    ] = False,
) -> None:
    """Exact odds of every bet on the first three (win, exacta, quinella, trifecta, trio)."""
    kinds = bet or list(BET_TYPES)
    unknown = [k for k in kinds if k not in BET_TYPES]
    if unknown:
        raise OptionsError(
            f"unknown bet type {unknown[0]!r}; choose from {', '.join(BET_TYPES)}"
        )
    if top < 1:
        raise OptionsError(f"top must be at least 1, got {top}")
    options = KeirinOptions(riders=riders, length=length, derny=derny)
    result = race_odds(options)
    if json_out:
        print_json(result.to_json())
        return
    pull = f"derny fixed at {derny}" if derny is not None else "derny 3d6"
    console.print(
        Rule(f"KEIRIN exact odds — {riders} riders, finish at {length}, {pull}")
    )
    for kind in kinds:
        limit = None if show_all or kind == "win" else top
        console.print(odds_table(result, kind, limit))
    console.print("Fair odds = 1 / probability (decimal odds: the return per unit staked).")
