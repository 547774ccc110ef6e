"""`raceday hairpin ...`: play against the computer, run AI matches, count perft."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.markup import escape
from rich.table import Table

from raceday.cli.common import console, default_delay, pause, print_json, progress_bar
from raceday.core.agents import Agent
from raceday.core.errors import IllegalActionError, OptionsError, SaveFormatError
from raceday.core.protocol import Action
from raceday.games.hairpin.agents import LEVELS, make_agent
from raceday.games.hairpin.match import DEFAULT_OPENING_PLIES, MatchResult, play_match
from raceday.games.hairpin.render import state_markup
from raceday.games.hairpin.rules import (
    PLAYER_NAMES,
    HairpinState,
    Rules,
    perft,
    perft_divide,
    position_from_text,
    symmetric_position,
)
from raceday.store.sessions import SessionStore

HELP = "Hairpin Racers (Phil Leduc): a diceless two-player race round a double hairpin."
GAME = "hairpin"

app = typer.Typer(help=HELP, no_args_is_help=True, pretty_exceptions_enable=False)

VARIANT_HELP = (
    "Variant words joined by '+': standard, short (3 laps / 3 bumps), nobump, derby "
    "(win by bumping), v1 (cruise only when neither side can charge), random (random setup)."
)
PLAYER_HELP = (
    "human, easy, medium, hard, expert, or an agent: random, greedy, mcts[:SIMS], "
    "mcts-guided[:SIMS], alphabeta[:NODES] or alphabeta:SECONDSs (e.g. alphabeta:1.5s)."
)


# --- perft ---------------------------------------------------------------------------
@app.command("perft")
def perft_command(
    depth: int = typer.Option(..., "--depth", "-d", help="Plies to search (1 to 8)."),
    position: str | None = typer.Option(
        None, "--position", "-p", help="Start from this position text (default: the start)."
    ),
    variant: str = typer.Option("standard", "--variant", "-v", help=VARIANT_HELP),
    divide: bool = typer.Option(False, "--divide", help="Also print the count under each "
                                "first action."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Count the leaf nodes of the game tree DEPTH plies deep (pins the move generator)."""
    if not 1 <= depth <= 8:
        raise OptionsError(f"--depth must be 1 to 8, got {depth}")
    rules = Rules.from_variant(variant)
    if rules.setup == "random" and position is None:
        raise OptionsError("perft of a random setup needs --position (the setup is chance)")
    pos = position_from_text(position, rules) if position else symmetric_position()
    start = time.perf_counter()
    parts = perft_divide(pos, rules, depth) if divide else []
    total = sum(n for _, n in parts) if divide else perft(pos, rules, depth)
    seconds = time.perf_counter() - start
    if json_out:
        doc: dict[str, Any] = {"depth": depth, "variant": rules.variant_name(), "nodes": total,
                               "seconds": round(seconds, 4)}
        if divide:
            doc["divide"] = dict(parts)
        print_json(doc)
        return
    for name, n in parts:
        console.print(f"{name}: {n}")
    console.print(f"perft({depth}) = {total}   [dim]({seconds:.3f} s)[/]")


# --- play ----------------------------------------------------------------------------
class _Quit(Exception):
    pass


def _read_line(prompt: str) -> str:
    console.print(prompt, end="")
    line = sys.stdin.readline()
    if line == "":
        console.print()
        raise EOFError
    return line.strip()


def _agent_for(name: str) -> Agent | None:
    return None if name.strip().lower() == "human" else make_agent(name)


def _human_turn(state: HairpinState, can_undo: bool) -> Action | str:
    """Ask for a move until a legal one (an action) or a command ('undo', 'quit')."""
    actions = state.legal_actions()
    for i, a in enumerate(actions, 1):
        console.print(f"  [bold]{i:2d}[/]  {escape(state.action_to_string(a))}")
    hint = "number or action name" + (", u = undo" if can_undo else "") + ", q = save and quit"
    while True:
        text = _read_line(f"Your move ({hint}): ")
        low = text.lower()
        if low in ("q", "quit"):
            return "quit"
        if low in ("u", "undo"):
            if can_undo:
                return "undo"
            console.print("[red]Refused:[/] undo is only for games against the computer, "
                          "after your first move.")
            continue
        if low.isdigit():
            k = int(low)
            if 1 <= k <= len(actions):
                return actions[k - 1]
            console.print(f"[red]Refused:[/] choose a number from 1 to {len(actions)}.")
            continue
        try:
            return state.string_to_action(text)
        except IllegalActionError as exc:
            console.print(f"[red]Refused:[/] {escape(exc.reason)}.")


@app.command("play")
def play_command(
    red: str = typer.Option("human", "--red", help=f"Who plays Red: {PLAYER_HELP}"),
    black: str = typer.Option("expert", "--black", help=f"Who plays Black: {PLAYER_HELP}"),
    variant: str = typer.Option("standard", "--variant", "-v", help=VARIANT_HELP),
    seed: int = typer.Option(0, "--seed", help="Seed for the computer players and the setup."),
    position: str | None = typer.Option(None, "--position", help="Start from this position "
                                        "text instead of the setup."),
    save: str = typer.Option("hairpin", "--save", help="Session name the game is saved under "
                             "after every move."),
    resume: bool = typer.Option(False, "--resume", help="Continue the saved session --save "
                                "(its players and variant are used)."),
    db: Path | None = typer.Option(  # noqa: B008
        None, "--db", help="Session database file (default: the user data directory)."
    ),
    delay: float | None = typer.Option(None, "--delay", help="Seconds to pause after each "
                                       "computer move (default: short pause on a terminal)."),
) -> None:
    """Play a game in the terminal: humans pick numbered actions or type their names."""
    store = SessionStore(db)
    if resume:
        doc, revision = store.load(GAME, save)
        try:
            state = HairpinState.from_json(doc["state"])
            red, black = str(doc["red"]), str(doc["black"])
            undo_stack = [HairpinState.from_json(s) for s in doc["undo"]]
            rng = np.random.default_rng()
            rng.bit_generator.state = doc["rng"]
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"saved session {save!r} is not a Hairpin game: {exc}") from None
        console.print(f"Resuming {save!r} at ply {state.position.ply}.")
    else:
        rules = Rules.from_variant(variant)
        state = (HairpinState.from_text(position, rules) if position else HairpinState(rules))
        undo_stack = []
        rng = np.random.default_rng(seed)
        revision = None
    agents = {0: _agent_for(red), 1: _agent_for(black)}
    labels = {0: f"Red ({red})", 1: f"Black ({black})"}
    humans = [p for p in (0, 1) if agents[p] is None]
    vs_computer = len(humans) == 1
    wait = default_delay(delay, 0.3)

    def save_now() -> None:
        nonlocal revision
        document = {"state": state.to_json(), "red": red, "black": black,
                    "undo": [s.to_json() for s in undo_stack],
                    "rng": rng.bit_generator.state}
        revision = store.save(GAME, save, document, expected_revision=revision)

    save_now()
    try:
        while not state.is_terminal():
            if state.is_chance_node():
                draw = state.sample_chance(rng)
                for event in state.apply_action(draw.outcome, draw.detail):
                    console.print(f"Setup roll {event['dice']}: red on {event['red']}, "
                                  f"black on {event['black']}")
                save_now()
                continue
            console.print()
            console.print(state_markup(state))
            player = state.current_player()
            agent = agents[player]
            if agent is None:
                choice = _human_turn(state, vs_computer and bool(undo_stack))
                if choice == "quit":
                    raise _Quit
                if choice == "undo":
                    state = undo_stack.pop()
                    console.print("Undone: back to your previous move.")
                    save_now()
                    continue
                assert isinstance(choice, int)
                if vs_computer:
                    undo_stack.append(state.clone())
                action = choice
            else:
                action = agent.choose(state, rng)
            name = state.action_to_string(action)
            state.apply_action(action)
            console.print(f"{labels[player]} plays [bold]{escape(name)}[/]")
            save_now()
            if agent is not None:
                pause(wait)
    except (EOFError, _Quit):
        save_now()
        console.print(f"Game saved as {save!r}; continue with "
                      f"`raceday hairpin play --save {save} --resume`.")
        return
    console.print()
    console.print(state_markup(state))
    save_now()


# --- match ---------------------------------------------------------------------------
def _results_table(result: MatchResult) -> Table:
    table = Table(title=f"{result.a} vs {result.b}: {result.games} games")
    for col in ("agent", "wins", "losses", "draws", "score", "avg plies"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    for name, wins, losses in ((result.a, result.a_wins, result.b_wins),
                               (result.b, result.b_wins, result.a_wins)):
        score = (wins + 0.5 * result.draws) / result.games
        table.add_row(name, str(wins), str(losses), str(result.draws), f"{score:.3f}",
                      f"{result.average_length:.1f}")
    return table


@app.command("match")
def match_command(
    red: str = typer.Option(..., "--red", help=f"Agent A (Red in the first game): "
                            f"{PLAYER_HELP.replace('human, ', '')}"),
    black: str = typer.Option(..., "--black", help="Agent B (Black in the first game)."),
    games: int = typer.Option(10, "-n", "--games", help="Number of games."),
    variant: str = typer.Option("standard", "--variant", "-v", help=VARIANT_HELP),
    seed: int = typer.Option(0, "--seed", help="Seed of the match (openings and agents)."),
    swap: bool = typer.Option(True, "--swap/--no-swap", help="Swap sides every game (each "
                              "opening is played once from each side)."),
    opening: int = typer.Option(DEFAULT_OPENING_PLIES, "--opening-plies",
                                help="Random plies played before the agents take over, so "
                                "games differ."),
    json_out: bool = typer.Option(False, "--json", help="Print the results as one JSON "
                                  "object."),
) -> None:
    """AI-versus-AI matches with a results table (wins, losses, draws, average length)."""
    if "human" in (red.lower(), black.lower()):
        raise OptionsError("a match is between computer players; use `play` for humans")
    if games < 1 or games > 100_000:
        raise OptionsError(f"-n must be 1 to 100000, got {games}")
    make_agent(red), make_agent(black)  # check the names before starting
    with progress_bar("Match", games, enabled=not json_out) as bar:
        task = bar.task_ids[0]
        result = play_match(
            lambda: make_agent(red), lambda: make_agent(black), games, variant=variant,
            seed=seed, opening_plies=opening, names=(red, black), alternate=swap,
            on_game=lambda _g, _r: bar.advance(task),
        )
    if json_out:
        print_json(result.to_json())
        return
    console.print(_results_table(result))


@app.command("show")
def show_command(
    position: str | None = typer.Option(None, "--position", "-p", help="Position text "
                                        "(default: the symmetric start)."),
    variant: str = typer.Option("standard", "--variant", "-v", help=VARIANT_HELP),
) -> None:
    """Draw a position and list its legal actions."""
    rules = Rules.from_variant(variant)
    state = HairpinState(rules, position_from_text(position, rules) if position
                         else symmetric_position())
    console.print(state_markup(state))
    for i, a in enumerate(state.legal_actions(), 1):
        console.print(f"  [bold]{i:2d}[/]  {escape(state.action_to_string(a))}")


@app.command("levels")
def levels_command() -> None:
    """List the difficulty levels and the agents behind them."""
    for name, level in LEVELS.items():
        console.print(f"[bold]{name:7s}[/] {level.description}")
    console.print(f"--{PLAYER_NAMES[0]}/--{PLAYER_NAMES[1]} also take: {PLAYER_HELP}")
