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
from raceday.games.keirin.render import commentary, render_track, throw_line
from raceday.games.keirin.rules import (
    DEFAULT_LENGTH,
    DEFAULT_RIDERS,
    KeirinOptions,
    KeirinState,
)
from raceday.games.keirin.simulate import simulate_reference

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
    crossed_in: dict[int, int] = {}

    def show(s: State, events: list[Event]) -> None:
        assert isinstance(s, KeirinState)
        turn_events.extend(events)
        crossed_in.update((e["rider"], e["turn"]) for e in events if e.kind == "place")
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
    table = Table("place", "rider", "crossed in turn", "squares past the line")
    line = options.length
    for place, rider in enumerate(state.ranked, start=1):
        past = str(state.positions[rider - 1] - line)
        table.add_row(str(place), f"R{rider}", str(crossed_in[rider]), past)
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
) -> None:
    """Simulate many races: win, top-2 and top-3 chances with 95% intervals."""
    if n < 1:
        raise OptionsError(f"n must be at least 1, got {n}")
    options = KeirinOptions(riders=riders, length=length, derny=derny)
    with progress_bar("racing", n, enabled=n >= PROGRESS_THRESHOLD and not json_out) as bar:
        task = bar.task_ids[0]
        summary = simulate_reference(
            options, n, _rng(seed), on_progress=lambda done: bar.update(task, completed=done)
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
