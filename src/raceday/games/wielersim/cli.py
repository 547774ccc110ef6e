"""`raceday wielersim ...`: watch a race, predict one, ride a stage race."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.table import Table

from raceday.cli.common import console, default_delay, pause, print_json, progress_bar
from raceday.core.errors import OptionsError
from raceday.core.events import Event
from raceday.games.wielersim.commentary import Commentator
from raceday.games.wielersim.predict import Prediction, predict
from raceday.games.wielersim.render import draw_road, group_summary, result_table, scoring_lines
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.rules import WielerState, new_race, peloton_spec, route_spec

HELP = "WielerSIM (Ludo Nauws): watch and predict one-day races and stage races."

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False)

ROUTE_HELP = (f"Route schedule (TOML file) or a shipped route: {', '.join(SHIPPED_ROUTES)}.")
PELOTON_HELP = "Peloton file (CSV or TOML) or a shipped peloton: classics, small."


def _seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbelow(2**31)
    if seed < 0:
        raise OptionsError(f"--seed must be 0 or more, got {seed}")
    return seed


def watch_race(state: WielerState, rng: np.random.Generator, *, delay: float, width: int,
               show_road: bool = True) -> list[Event]:
    """Play ``state`` to the end, drawing the road and commentary after every turn."""
    commentator = Commentator()
    pending: list[Event] = []
    log: list[Event] = []
    turn = state.turn
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        events = state.apply_action(draw.outcome, draw.detail)
        pending.extend(events)
        log.extend(events)
        if state.turn != turn or state.is_terminal():
            if turn == 0:
                console.print(f"Flying start: {state.n} riders on the road, "
                              f"{state.route.distance} squares to go.")
                for line in commentator.comment(state, pending):
                    console.print(line)
            else:
                _show_turn(state, turn, pending, commentator, width, show_road)
            pending = []
            turn = state.turn
            pause(delay)
    return log


def _show_turn(state: WielerState, turn: int, events: list[Event], commentator: Commentator,
               width: int, show_road: bool) -> None:
    road = state.on_road()
    front = max((state.pos[r] for r in road), default=state.route.distance)
    weather = "rain" if state.rain else "dry"
    console.rule(f"Turn {turn}: {max(0, state.route.distance - front)} squares to go, {weather}")
    if show_road and road:
        console.print(draw_road(state, width))
        for line in group_summary(state):
            console.print(f"  {line}", style="dim")
    for line in commentator.comment(state, events):
        console.print(f"  {line}")


@app.command()
def race(
    route: str = typer.Argument(..., help=ROUTE_HELP),
    peloton: str = typer.Argument(..., help=PELOTON_HELP),
    seed: int | None = typer.Option(None, "--seed", help="Seed for a reproducible race."),
    delay: float | None = typer.Option(
        None, "--delay", help="Seconds between turns (default 0.6 on a terminal, else 0)."),
    width: int | None = typer.Option(
        None, "--width", help="Squares of road drawn around the front (default: fit screen)."),
    road: bool = typer.Option(True, "--road/--no-road", help="Draw the road every turn."),
) -> None:
    """Watch one race turn by turn, with commentary and the final result."""
    if width is None:
        width = max(10, min(60, (console.width - 8) // 3))
    if not 10 <= width <= 120:
        raise OptionsError(f"--width must be 10 to 120 squares, got {width}")
    used = _seed(seed)
    state = new_race({"route": route, "peloton": peloton})
    console.print(f"[bold]{state.route.name}[/]: {state.route.distance} squares, "
                  f"{state.route.finish} finish, {state.n} riders (seed {used})")
    watch_race(state, np.random.default_rng(used), delay=default_delay(delay), width=width,
               show_road=road)
    console.print(result_table(state, limit=None))
    for line in scoring_lines(state):
        console.print(line)


def _prediction_table(pred: Prediction, top: int) -> Table:
    table = Table(title=f"Predicted from {pred.n} simulated races (95% intervals)")
    for col in ("rider", "bib", "type", "win", "podium", "top 10"):
        table.add_column(col, justify="left" if col in ("rider", "type") else "right")
    order = sorted(range(len(pred.names)), key=lambda i: (-pred.wins[i], -pred.podiums[i], i))

    def cell(count: Any) -> str:
        lo, hi = pred.interval(int(count))
        return f"{count / pred.n:6.1%} [{lo:.1%}-{hi:.1%}]"

    for i in order[:top]:
        table.add_row(pred.names[i], str(pred.numbers[i]), pred.types[i], cell(pred.wins[i]),
                      cell(pred.podiums[i]), cell(pred.top10[i]))
    return table


def _type_table(pred: Prediction) -> Table:
    table = Table(title="By rider type")
    for col in ("type", "win", "podium places"):
        table.add_column(col)
    for t, (wins, podiums) in pred.by_type().items():
        lo, hi = pred.interval(wins)
        table.add_row(t, f"{wins / pred.n:.1%} [{lo:.1%}-{hi:.1%}]",
                      f"{podiums / pred.n:.2f} per race")
    return table


@app.command("predict")
def predict_command(
    route: str = typer.Argument(..., help=ROUTE_HELP),
    peloton: str = typer.Argument(..., help=PELOTON_HELP),
    n: int = typer.Option(2000, "-n", help="Number of races to simulate."),
    seed: int = typer.Option(0, "--seed", help="Seed (same seed and n, same answer)."),
    json_out: bool = typer.Option(False, "--json", help="Print the probabilities as JSON."),
    plot_file: str | None = typer.Option(
        None, "--plot", help="Draw the route profile and win chances to this PNG file."),
    workers: int = typer.Option(2, "--workers", help="Worker processes (cores) to use."),
    top: int = typer.Option(15, "--top", help="Riders shown in the table."),
) -> None:
    """Simulate many races: each rider's chance to win, reach the podium and the top 10."""
    r_spec, p_spec = route_spec(route), peloton_spec(peloton)
    plot = Path(plot_file) if plot_file else None
    if n < 1:
        raise OptionsError(f"-n must be at least 1, got {n}")
    if plot is not None and plot.suffix.lower() != ".png":
        raise OptionsError("--plot needs a file name ending in .png")
    with progress_bar("simulating races", n, enabled=not json_out and n >= 500) as bar:
        task = bar.task_ids[0]
        pred = predict(r_spec, p_spec, n, seed=_seed(seed), workers=workers,
                       on_progress=lambda k: bar.advance(task, k))
    if plot is not None:
        from raceday.games.wielersim.plots import plot_prediction

        plot_prediction(r_spec, pred, plot)
    if json_out:
        data = pred.to_json()
        print_json({"game": data["game"], "n": data["n"], "win": data["win"],
                    "podium": data["podium"], "top10": data["top10"],
                    "win_by_type": data["win_by_type"]})
        return
    console.print(_prediction_table(pred, top))
    console.print(_type_table(pred))
    if plot is not None:
        console.print(f"plot written to {plot}")
