"""`raceday hairpin ...`: play against the computer, run AI matches, count perft."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
import typer
from rich.markup import escape
from rich.table import Table

from raceday.core.agents import Agent, RandomAgent
from raceday.core.digits import ascii_int
from raceday.core.errors import IllegalActionError, OptionsError, SaveFormatError
from raceday.core.protocol import Action
from raceday.games.hairpin.agents import (
    DEFAULT_THINK,
    LEVELS,
    MAX_THINK,
    OLD_EXPERT,
    GreedyAgent,
    make_agent,
)
from raceday.games.hairpin.game import GAME as HAIRPIN
from raceday.games.hairpin.game import HairpinOptions
from raceday.games.hairpin.match import DEFAULT_OPENING_PLIES, MatchResult, play_match
from raceday.games.hairpin.render import state_markup
from raceday.games.hairpin.rules import (
    ENTER,
    PLAYER_NAMES,
    HairpinState,
    Move,
    perft,
    perft_divide,
    position_from_text,
    symmetric_position,
)
from raceday.present import describe_outcome, render
from raceday.store.names import MAX_SESSION_NAME
from raceday.store.sessions import SessionStore, writable_store
from raceday.terminal import common
from raceday.terminal.options import GIVEN, GivenOptions, field_option, game_options

if TYPE_CHECKING:
    from raceday.games.hairpin.agents import SearchReport

HELP = "Hairpin Racers (Phil Leduc): a diceless two-player race round a double hairpin."
SAVE_KIND = HAIRPIN.name  # sessions of this game in the store

app = typer.Typer(help=HELP, no_args_is_help=True, pretty_exceptions_enable=False,
                  add_completion=False)

MAX_DEPTH = 8
MAX_GAMES = 100_000
MAX_OPENING_PLIES = 40
MAX_NAME = MAX_SESSION_NAME

PLAYER_HELP = (
    "human, easy, medium, hard, expert (thinks --think seconds a move), or an agent: "
    "expert:SECONDSs, expert-old (the former expert), random, greedy, mcts[:SIMS], "
    "mcts-guided[:SIMS], alphabeta[:NODES] or alphabeta:SECONDSs (e.g. alphabeta:1.5s)."
)
MAX_LINES = 64


def _check_name(value: str) -> str:
    checked = common.check_session_name_option(value)  # the one rule of every game's session names
    assert checked is not None
    return checked


def _check_think(value: float | None) -> float | None:
    """Seconds per move: a finite number above 0, at most MAX_THINK."""
    if value is not None and not (math.isfinite(value) and 0 < value <= MAX_THINK):
        raise typer.BadParameter(f"must be a number of seconds above 0 and at most "
                                 f"{MAX_THINK:g}, got {value}")
    return value


def _check_player(value: str) -> str:
    if value.strip().lower() != "human":
        make_agent(value)  # raises the OptionsError naming the agents
    return value


# --variant, --setup, --position: the fields of HairpinOptions, checked by the model
GameOpts = GivenOptions[HairpinOptions]
ThinkOpt = Annotated[
    float,
    typer.Option("--think", callback=_check_think,
                 help=f"Seconds the expert thinks per move (above 0, at most {MAX_THINK:g}).")
]


# --- perft ---------------------------------------------------------------------------
@app.command("perft")
@game_options(HairpinOptions)
def perft_command(
    depth: Annotated[int, typer.Option(
        "--depth", "-d", callback=common.in_range(1, MAX_DEPTH, "plies"),
        help=f"Plies to search (1 to {MAX_DEPTH}).")],
    game: GameOpts = GIVEN,
    divide: Annotated[bool, typer.Option(
        "--divide", help="Also print the count under each first action.")] = False,
    json_out: common.JsonOpt = False,
) -> None:
    """Count the leaf nodes of the game tree DEPTH plies deep (pins the move generator)."""
    options = game.parse()
    rules, position = options.rules(), options.position
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
        common.print_json(doc)
        return
    for name, n in parts:
        common.console.print(f"{name}: {n}")
    common.console.print(f"perft({depth}) = {total}   [dim]({seconds:.3f} s)[/]")


# --- play ----------------------------------------------------------------------------
class _Quit(Exception):
    pass


def _read_line(prompt: str) -> str:
    """One line of the player's input (tests replace this to script Ctrl-C). The prompt is
    plain text: escaped, so a bracket is shown rather than read as markup."""
    return common.read_line(escape(prompt)).strip()


def _agent_for(name: str, think: float = DEFAULT_THINK) -> Agent | None:
    return None if name.strip().lower() == "human" else make_agent(name, think=think)


def bump_warning(state: HairpinState, move: Move) -> str | None:
    """What a bump decides when it is the player's last one allowed (None otherwise), in
    words: the state's own warning rendered from the message tables."""
    warning = state.bump_warning(move)
    return None if warning is None else render(warning, "en", "hairpin")


def _list_actions(state: HairpinState) -> list[Action]:
    """Print the legal actions numbered from 1, each decisive bump marked."""
    actions = state.legal_actions()
    for i, a in enumerate(actions, 1):
        warning = bump_warning(state, state.move_of(a))
        note = f"  [bold red]⚠ {escape(warning)}[/]" if warning else ""
        common.console.print(f"  [bold]{i:2d}[/]  {escape(state.action_to_string(a))}{note}")
    return actions


def _human_turn(state: HairpinState, can_undo: bool) -> Action | str:
    """Ask for a move until a legal one (an action) or a command ('undo', 'quit')."""
    actions = _list_actions(state)
    hint = "number or action name" + (", u = undo" if can_undo else "") + ", q = save and quit"
    while True:
        text = _read_line(f"Your move ({hint}): ")
        low = text.lower()
        if low in ("q", "quit"):
            return "quit"
        if low in ("u", "undo"):
            if can_undo:
                return "undo"
            common.console.print("[red]Refused:[/] undo is only for games against the computer, "
                                 "after your first move.")
            continue
        choice: Action | None = None
        k = ascii_int(low)
        if k is None and common.foreign_digits(low):
            common.console.print(
                f"[red]Refused:[/] {common.DIGITS_ONLY}, e.g. 1 to {len(actions)}.")
            continue
        if k is not None:
            if not 1 <= k <= len(actions):
                common.console.print(f"[red]Refused:[/] choose a number from 1 to {len(actions)}.")
                continue
            choice = actions[k - 1]
        else:
            try:
                choice = state.string_to_action(text)
            except IllegalActionError as exc:
                common.console.print(f"[red]Refused:[/] {escape(exc.reason)}.")
                continue
        warning = bump_warning(state, state.move_of(choice))
        if warning and warning.endswith("lose") and not common.ask_yes_no(
            f"Careful: {warning}. Play it?", default=False, read=_read_line
        ):
            continue
        return choice


def _forced_note(state: HairpinState, action: Action) -> str | None:
    """Why a human's only legal action is played without asking (None: ask as usual)."""
    actions = state.legal_actions()
    if len(actions) != 1 or actions[0] != action:
        return None
    move = state.move_of(action)
    if move.kind == ENTER:
        return "a racer in the pit must re-enter, the only legal move"
    return "the only legal move"


def result_line(state: HairpinState, labels: dict[int, str]) -> str:
    """Who won and why, in one sentence (markup)."""
    out = state.outcome()
    why = escape(describe_outcome("hairpin", out))
    if out.winner is None:
        return f"[bold]Draw:[/] {why}."
    return (f"[bold]{escape(labels[out.winner])} wins[/] — {why} "
            f"(laps {state.position.laps[0]}-{state.position.laps[1]}, bumps "
            f"{state.position.bumps[0]}-{state.position.bumps[1]}, Red-Black).")


@app.command("play")
@game_options(HairpinOptions)
def play_command(
    red: Annotated[str, typer.Option("--red", callback=_check_player,
                                     help=f"Who plays Red: {PLAYER_HELP}")] = "human",
    black: Annotated[str, typer.Option("--black", callback=_check_player,
                                       help=f"Who plays Black: {PLAYER_HELP}")] = "expert",
    game: GameOpts = GIVEN,
    seed: common.SeedOpt = None,
    save: Annotated[str, typer.Option(
        "--save", callback=_check_name,
        help=f"Session name (at most {MAX_NAME} characters) the game is saved under after "
        "every move. A new game never overwrites a saved one: if the name is taken it is "
        "saved as NAME-2, NAME-3, ...")] = "hairpin",
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the saved session --save (its players and variant are "
        "used).")] = False,
    db: common.DbOpt = None,
    delay: common.DelayOpt = None,
    think: ThinkOpt = DEFAULT_THINK,
) -> None:
    """Play a game in the terminal: humans pick numbered actions or type their names."""
    # Every check happens before the store is opened, so a bad option writes nothing.
    if not resume:
        state = HAIRPIN.new_state(game.parse())
        agents = {0: _agent_for(red, think), 1: _agent_for(black, think)}
        rng = np.random.default_rng(common.fresh_seed(seed))
    wait = common.default_delay(delay, 0.3)
    store = writable_store(db)  # a read-only database is refused before the first move
    undo_stack: list[HairpinState] = []
    revision: int | None = None
    if resume:
        doc, revision = store.load(SAVE_KIND, save)
        try:
            state = HairpinState.from_json(doc["state"])
            red, black = str(doc["red"]), str(doc["black"])
            undo_stack = [HairpinState.from_json(s) for s in doc["undo"]]
            rng = np.random.default_rng()
            rng.bit_generator.state = doc["rng"]
            agents = {0: _agent_for(red, think), 1: _agent_for(black, think)}
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"saved session {save!r} is not a Hairpin game: {exc}") from None
        common.console.print(f"Resuming {save!r} at ply {state.position.ply}.")
    else:
        wanted, save = save, store.fresh_name(SAVE_KIND, save)
        if save != wanted:
            common.console.print(f"A game is already saved as {wanted!r}; this one is saved as "
                                 f"{save!r} (continue the old one with --save {wanted} --resume).",
                                 soft_wrap=True)
    labels = {0: f"Red ({red})", 1: f"Black ({black})"}
    humans = [p for p in (0, 1) if agents[p] is None]
    vs_computer = len(humans) == 1
    # before the computer's first move: say so if its compiled engine must be compiled first
    announce = vs_computer and not any(isinstance(a, GreedyAgent | RandomAgent)
                                       for a in agents.values())
    if announce:  # and load it while the person thinks, if it is cached
        from raceday.terminal.warm import preload

        preload("hairpin")
    resume_cmd = ["raceday", "hairpin", "play", "--save", save, "--resume"]
    if db is not None:
        resume_cmd += ["--db", str(db)]

    def save_now() -> None:
        nonlocal revision
        document = {"state": state.to_json(), "red": red, "black": black,
                    "undo": [s.to_json() for s in undo_stack],
                    "rng": rng.bit_generator.state}
        revision = store.save(SAVE_KIND, save, document, expected_revision=revision)

    save_now()
    kept = f"the game is saved as {save!r} up to the last move"
    with common.on_interrupt(kept, common.shell_quote(*resume_cmd)):
        try:
            while not state.is_terminal():
                if state.is_chance_node():
                    draw = state.sample_chance(rng)
                    for event in state.apply_action(draw.outcome, draw.detail):
                        common.console.print(f"Setup roll {event['dice']}: red on {event['red']}, "
                                             f"black on {event['black']}")
                    save_now()
                    continue
                common.console.print()
                common.console.print(state_markup(state))
                player = state.current_player()
                agent = agents[player]
                forced = ""
                if agent is None:
                    only = state.legal_actions()
                    note = _forced_note(state, only[0]) if len(only) == 1 else None
                    if note is not None:
                        action = only[0]
                        forced = f" [dim](played for you: {escape(note)})[/]"
                    else:
                        choice = _human_turn(state, vs_computer and bool(undo_stack))
                        if choice == "quit":
                            raise _Quit
                        if choice == "undo":
                            state = undo_stack.pop()
                            common.console.print("Undone: back to your previous move.")
                            save_now()
                            continue
                        assert isinstance(choice, int)
                        if vs_computer:
                            undo_stack.append(state.clone())
                        action = choice
                else:
                    if announce:
                        announce = False
                        from raceday.terminal.warm import announce_if_cold

                        announce_if_cold("hairpin", common.console.print)
                    action = agent.choose(state, rng)
                name = state.action_to_string(action)
                state.apply_action(action)
                common.console.print(f"{labels[player]} plays [bold]{escape(name)}[/]{forced}",
                                     soft_wrap=True)
                save_now()
                if agent is not None:
                    common.pause(wait)
        except (EOFError, _Quit):
            save_now()
            common.console.print(f"Game saved as {save!r}; continue with "
                                 f"`{common.shell_quote(*resume_cmd)}`.", soft_wrap=True)
            return
    common.console.print()
    common.console.print(state_markup(state))
    common.console.print(result_line(state, labels), soft_wrap=True)
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
    red: Annotated[str, typer.Option("--red", help="Agent A (Red in the first game): "
                                     f"{PLAYER_HELP.replace('human, ', '')}")],
    black: Annotated[str, typer.Option("--black", help="Agent B (Black in the first game).")],
    games: Annotated[int, typer.Option("-n", "--games",
                                       callback=common.in_range(1, MAX_GAMES, "games"),
                                       help=f"Number of games (1 to {MAX_GAMES:,}).")] = 10,
    variant: str = field_option(HairpinOptions, "variant"),
    seed: common.SeedOpt = None,
    swap: Annotated[bool, typer.Option(
        "--swap/--no-swap",
        help="Swap sides every game (each opening is played once from each side).")] = True,
    opening: Annotated[int, typer.Option(
        "--opening-plies", callback=common.in_range(0, MAX_OPENING_PLIES, "plies"),
        help="Random plies played before the agents take over, so games differ "
        f"(0 to {MAX_OPENING_PLIES}).")] = DEFAULT_OPENING_PLIES,
    think: ThinkOpt = DEFAULT_THINK,
    json_out: common.JsonOpt = False,
) -> None:
    """AI-versus-AI matches with a results table (wins, losses, draws, average length)."""
    if "human" in (red.strip().lower(), black.strip().lower()):
        raise OptionsError("a match is between computer players; use `play` for humans")
    make_agent(red, think=think), make_agent(black, think=think)  # check the names first
    seed = common.fresh_seed(seed)
    with common.progress_bar("Match", games, enabled=not json_out) as bar:
        task = bar.task_ids[0]
        result = play_match(
            lambda: make_agent(red, think=think), lambda: make_agent(black, think=think),
            games, variant=variant,
            seed=seed, opening_plies=opening, names=(red, black), alternate=swap,
            on_game=lambda _g, _r: bar.advance(task),
        )
    if json_out:
        common.print_json({**result.to_json(), "seed": seed})
        return
    common.console.print(_results_table(result))
    common.console.print(f"[dim]seed {seed}: the same --seed replays this match[/]")


@app.command("show")
@game_options(HairpinOptions)
def show_command(game: GameOpts = GIVEN) -> None:
    """Draw a position and list its legal actions."""
    state = HAIRPIN.new_state(game.parse(setup=game.get("setup") or "symmetric"))
    common.console.print(state_markup(state))
    _list_actions(state)


@app.command("levels")
def levels_command() -> None:
    """List the difficulty levels and the agents behind them."""
    for name, level in LEVELS.items():
        common.console.print(f"[bold]{name:7s}[/] {level.description}")
    common.console.print(f"[bold]{OLD_EXPERT.name}[/] {OLD_EXPERT.description}")
    common.console.print(f"--{PLAYER_NAMES[0]}/--{PLAYER_NAMES[1]} also take: {PLAYER_HELP}")


# --- analyse -------------------------------------------------------------------------
def value_text(value: float) -> str:
    """A search value for the side to move: a lead in spaces, or a forced result."""
    from raceday.games.hairpin.search import MATE, WIN

    if value >= MATE:
        return f"wins in {round(WIN - value)}"
    if value <= -MATE:
        return f"loses in {round(WIN + value)}"
    return f"{value:+.2f}"


def _report_json(state: HairpinState, report: SearchReport, lines: int) -> dict[str, Any]:
    return {
        "position": state.position_text(), "variant": state.rules.variant_name(),
        "side": PLAYER_NAMES[state.position.side], "depth": report.depth,
        "seldepth": report.seldepth, "nodes": report.nodes,
        "seconds": round(report.seconds, 3),
        "moves": [
            {"move": state.action_to_string(a), "value": round(v, 3), "text": value_text(v),
             "line": _line_names(state, line)}
            for a, v, line in zip(report.actions[:lines], report.values[:lines],
                                  report.lines, strict=False)
        ],
    }


def _line_names(state: HairpinState, line: list[int]) -> list[str]:
    names = []
    walker = state.clone()
    for action in line:
        names.append(walker.action_to_string(action))
        walker.apply_action(action)
    return names


@app.command("analyse")
@game_options(HairpinOptions)
def analyse_command(
    game: GameOpts = GIVEN,
    save: Annotated[str | None, typer.Option(
        "--save", callback=lambda v: None if v is None else _check_name(v),
        help="Analyse the position of this saved session instead (read only).")] = None,
    think: ThinkOpt = DEFAULT_THINK,
    lines: Annotated[int, typer.Option(
        "--lines", callback=common.in_range(1, MAX_LINES, "moves"),
        help=f"How many of the best moves to show (1 to {MAX_LINES}).")] = 5,
    db: common.DbOpt = None,
    json_out: common.JsonOpt = False,
) -> None:
    """The best moves of a position with their values and principal variations, and how
    deep the search went (the expert's search, --think seconds)."""
    from raceday.games.hairpin.agents import think as search_for

    if game.get("position") is not None and save is not None:
        raise OptionsError("give either --position or --save, not both")
    if save is not None:
        doc, _ = SessionStore(db).load(SAVE_KIND, save)
        try:
            state = HairpinState.from_json(doc["state"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"saved session {save!r} is not a Hairpin game: {exc}"
                                  ) from None
    else:
        state = HAIRPIN.new_state(game.parse(setup=game.get("setup") or "symmetric"))
    if state.is_chance_node():
        raise OptionsError("the saved game is still in its random setup; analyse it after "
                           "the setup rolls")
    if state.is_terminal():
        if json_out:
            common.print_json({"position": state.position_text(), "over": True,
                               "result": describe_outcome("hairpin", state.outcome()), "moves": []})
            return
        common.console.print(state_markup(state))
        common.console.print("Nothing to analyse: the game is over.")
        return
    report = search_for(state, think, exact_all=True, pv_moves=lines)
    if json_out:
        common.print_json(_report_json(state, report, lines))
        return
    common.console.print(state_markup(state))
    rate = report.nodes / max(report.seconds, 1e-9)
    common.console.print(f"Searched {report.depth} plies deep (deepest line {report.seldepth}), "
                         f"{report.nodes:,} positions in {report.seconds:.2f} s "
                         f"({rate:,.0f}/s). Values are for {PLAYER_NAMES[state.position.side]}, "
                         "in spaces of race lead.", soft_wrap=True)
    table = Table()
    for col in ("#", "move", "value", "principal variation"):
        table.add_column(col, justify="right" if col in ("#", "value") else "left")
    for rank, (action, value, line) in enumerate(
            zip(report.actions[:lines], report.values[:lines], report.lines, strict=False), 1):
        table.add_row(str(rank), escape(state.action_to_string(action)), value_text(value),
                      escape(", ".join(_line_names(state, line))))
    common.console.print(table)
