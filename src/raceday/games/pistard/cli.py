"""`raceday pistard …` commands: play a race, watch computers race, simulate computer races,
show a track."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

from raceday.core.digits import ascii_int
from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.events import Event
from raceday.core.protocol import Action
from raceday.core.serialize import dumps_state, loads_state
from raceday.games.pistard.agents import LEVELS, make_agent
from raceday.games.pistard.game import GAME
from raceday.games.pistard.moves import START_ZONE, choose_action, place_action
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.render import (
    board,
    commentary,
    dice_line,
    move_label,
    result_lines,
    standings,
)
from raceday.games.pistard.simulate import simulate as run_simulation
from raceday.games.pistard.state import PHASE_PLACE, PistardState
from raceday.games.pistard.track import COLOURS, LANES, colour_index, load_track
from raceday.present import describe_outcome
from raceday.store.names import MAX_SESSION_NAME
from raceday.store.sessions import writable_store
from raceday.terminal import common
from raceday.terminal.common import pause
from raceday.terminal.options import GIVEN, GivenOptions, game_options

HELP = ("PISTARD (Anki Toner): track cycling for 2–5 players on a coloured four-lane "
        "velodrome, in six race variants.")

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False)
KINDS = ("human", *LEVELS)
KIND_ALIASES = {"h": "human", "you": "human", "e": "easy", "m": "medium", "x": "hard",
                "xx": "expert"}
MAX_RACES = 100_000
MAX_SIMULATIONS = 10_000
MAX_NAME = MAX_SESSION_NAME
MAX_PLAYERS = 5


def _check_name(value: str) -> str:
    checked = common.check_session_name_option(value)  # the one rule of every game's session names
    assert checked is not None
    return checked


# --variant, --riders-per-player, --tokens, --laps, --lap-points, --track, --max-rounds:
# the options model's fields (the player count comes from --players)
RaceOptions = GivenOptions[PistardOptions]


DEFAULT_PLAYERS = {"ttt": "human", "sprint": "human,medium", "pursuit": "human,medium"}
DEFAULT_COMPUTERS = {"ttt": "medium"}


def parse_players(spec: str | None, variant: str) -> list[str]:
    """``human,medium,hard`` -> the kind of each player (h/e/m/x abbreviations allowed)."""
    if spec is None:
        spec = DEFAULT_PLAYERS.get(variant, "human,medium,medium")
    if not spec.strip():
        raise OptionsError("--players is empty; list the players, e.g. human,medium,hard")
    raw_kinds = spec.split(",")
    if len(raw_kinds) > MAX_PLAYERS:
        raise OptionsError(f"--players lists {len(raw_kinds)} players; a race has 2 to "
                           f"{MAX_PLAYERS} (the team time trial 1)")
    kinds = []
    for raw in raw_kinds:
        key = raw.strip().lower()
        kind = KIND_ALIASES.get(key, key)
        if kind not in KINDS:
            raise OptionsError(
                f"unknown player {raw.strip()!r} in --players; use human, easy, medium, hard "
                "or expert separated by commas, e.g. human,medium,hard"
            )
        kinds.append(kind)
    return kinds


# --- play ---------------------------------------------------------------------------------
class _EndOfInput(Exception):
    """stdin closed: save and stop."""


def _read(prompt: str) -> str:
    """One line of the player's input (tests replace this to script Ctrl-C)."""
    return common.read_line(prompt)


def _ask(prompt: str) -> str:
    try:
        return _read(f"[bold]{escape(prompt)}[/] ")
    except EOFError:
        raise _EndOfInput() from None


PlayersOpt = Annotated[
    str | None,
    typer.Option("--players", "-p",
                 help="Comma-separated players: human, easy, medium, hard, expert (2-5; the team "
                      "time trial has one). Default: human against medium computers. "
                      "Computers only: watch a race (as `watch` does)."),
]
ComputersOpt = Annotated[
    str | None,
    typer.Option("--players", "-p",
                 help="Computer players by level, comma-separated: easy, medium, hard, expert "
                      "(2-5; the team time trial has one). Default: easy,medium (medium "
                      "alone in the team time trial)."),
]
SessionOpt = Annotated[
    str, typer.Option("--session", callback=_check_name,
                      help=f"Name the game is saved under (at most {MAX_NAME} "
                           "characters). A new game never overwrites a saved one: if "
                           "the name is taken it is saved as NAME-2, NAME-3, ...")
]
ResumeOpt = Annotated[
    bool, typer.Option("--resume", help="Continue the saved game named by --session.")
]


def _race_command(command: str, players_option: Any,
                  kinds_of: Callable[[str | None, str], list[str]], doc: str) -> None:
    """Register ``raceday pistard <command>`` (play, watch): a race in the terminal with
    the players ``kinds_of`` reads from ``--players`` (its option ``players_option``)."""

    def run(
        race: RaceOptions = GIVEN,
        players: str | None = None,
        seed: common.SeedOpt = None,
        session: SessionOpt = "pistard",
        resume: ResumeOpt = False,
        db: common.DbOpt = None,
        delay: common.DelayOpt = None,
    ) -> None:
        kinds = None if resume else kinds_of(players, race.get("variant"))
        _race_session(command, kinds, race, seed, session, resume, db, delay)

    run.__annotations__["players"] = players_option
    run.__name__ = run.__qualname__ = command
    run.__doc__ = doc
    app.command(command)(game_options(PistardOptions)(run))


def _computers(players: str | None, variant: str, command: str) -> list[str]:
    kinds = parse_players(DEFAULT_COMPUTERS.get(variant, "easy,medium") if players is None
                          else players, variant)
    if "human" in kinds:
        raise OptionsError(f"{command} plays computers only: use easy, medium, hard or expert "
                           "(humans ride with `raceday pistard play`)")
    return kinds


_race_command("play", PlayersOpt, parse_players,
              "Play a race in the terminal: humans choose moves from the listed ones, "
              "computers ride.")
_race_command("watch", ComputersOpt, partial(_computers, command="watch"),
              "Watch computer riders race, round by round (saved each round; --resume goes on).")


def _race_session(command: str, new_kinds: list[str] | None, race: RaceOptions,
                  seed: int | None, session: str, resume: bool, db: Path | None,
                  delay: float | None) -> None:
    """Play or watch a saved race: a new one from the options, or the saved ``session``."""
    # Every check runs before the store is opened: a bad option writes nothing.
    if new_kinds is not None:
        kinds = new_kinds
        options = race.parse(players=len(kinds))
        state = GAME.new_state(options)
        used_seed = common.fresh_seed(seed)
        rng = np.random.default_rng(used_seed)
    wait = common.default_delay(delay)
    store = writable_store(db)  # a read-only database is refused before the first round
    revision: int | None = None
    if new_kinds is None:
        doc, revision = store.load(GAME.name, session)
        try:
            state_any = loads_state(str(doc["state"]))
            kinds = [str(k) for k in doc["players"]]
            rng = np.random.default_rng()
            rng.bit_generator.state = doc["rng"]
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"saved session {session!r} is corrupt: {exc}") from None
        if not isinstance(state_any, PistardState):
            raise SaveFormatError(f"session {session!r} is not a PISTARD game")
        if len(kinds) != state_any.num_players or any(k not in KINDS for k in kinds):
            raise SaveFormatError(f"session {session!r} is corrupt: bad players {kinds!r}")
        state = state_any
        if state.is_terminal():
            common.console.print(f"session {session!r} is already over")
            _print_result(state)
            return
        common.console.print(f"resuming {session!r}: {state.options.variant}, round {state.round}")
    else:
        wanted, session = session, store.fresh_name(GAME.name, session)
        if session != wanted:
            common.console.print(f"a game is already saved as {wanted!r}; this one is saved as "
                                 f"{session!r} (continue the old one with --session {wanted} "
                                 "--resume)", soft_wrap=True)
    agents = {p: make_agent(kind) for p, kind in enumerate(kinds) if kind != "human"}
    # before a searching rider's first move with a person racing: say so if its compiled
    # engine must be compiled first
    announce = "human" in kinds and any(kind in ("hard", "expert") for kind in kinds)
    if announce:  # and load it while the person thinks, if it is cached
        from raceday.terminal.warm import preload

        preload("pistard")
    resume_cmd = ["raceday", "pistard", command, "--session", session, "--resume"]
    if db is not None:
        resume_cmd += ["--db", str(db)]
    saved_at = [state.round]

    def save(log_entry: dict[str, Any] | None = None) -> None:
        nonlocal revision
        document = {"state": dumps_state(state), "players": kinds,
                    "rng": rng.bit_generator.state}
        revision = store.save(GAME.name, session, document, expected_revision=revision,
                              log_entry=log_entry)
        saved_at[0] = state.round

    if revision is None:
        save()
    opts = state.options
    common.console.print(Rule(f"PISTARD — {opts.variant}, {opts.num_players} player(s), "
                              f"{opts.total_riders} riders, track {state.track.name!r} "
                              f"({state.track.length} squares a lap)"))
    for p, kind in enumerate(kinds):
        idents = [r.ident for r in state.riders if r.owner == p]
        common.console.print(f"player {p + 1} ({kind}): riders {', '.join(map(str, idents))}")
    if new_kinds is not None:
        common.console.print(f"[dim]seed {used_seed}: the same --seed replays the dice[/]")
    watching = "human" not in kinds
    shown_round = -1
    try:
        while not state.is_terminal():
            if watching and state.phase != PHASE_PLACE and state.round != shown_round:
                shown_round = state.round
                save()  # computers only: the race is kept round by round
                common.console.print(Rule(f"round {state.round}"))
                common.console.print(board(state))
            if state.is_chance_node():
                draw = state.sample_chance(rng)
                _narrate(state.apply_action(draw.outcome, draw.detail))
                continue
            player = state.current_player()
            if player in agents:
                if announce:
                    announce = False
                    from raceday.terminal.warm import announce_if_cold

                    announce_if_cold("pistard", common.console.print)
                _narrate(state.apply_action(agents[player].choose(state, rng)))
                pause(wait)
                continue
            _narrate(state.apply_action(_human_turn(state, player)))
            save()
    except _EndOfInput:
        save()
        common.console.print(f"\ninput ended; game saved as {session!r} — continue with "
                             f"`{common.shell_quote(*resume_cmd)}`", soft_wrap=True)
        return
    except KeyboardInterrupt:
        when = "before the first round" if saved_at[0] == 0 else f"in round {saved_at[0]}"
        kept = f"the race is saved as {session!r} as it stood {when}"
        with common.on_interrupt(kept, common.shell_quote(*resume_cmd)):
            raise
    common.console.print(board(state))
    _print_result(state)
    outcome = state.outcome()
    save({"result": describe_outcome("pistard", outcome), "ranking": list(outcome.ranking)})


def _narrate(events: list[Event]) -> None:
    for event in events:
        line = commentary(event)
        if line:
            common.console.print(line)


def _human_turn(state: PistardState, player: int) -> Action:
    """Show the position and ask the human until a legal choice is given."""
    if state.phase == PHASE_PLACE:
        return _ask_placement(state, player)
    if state.mover is None:
        return _ask_next_rider(state, player)
    return _ask_move(state, player)


def _ask_placement(state: PistardState, player: int) -> Action:
    rider = state.riders[state.place_queue[0]]
    common.console.print(board(state, highlight=None))
    legal = set(state.legal_actions())
    while True:
        text = _ask(f"player {player + 1}: place rider {rider.ident} — columns behind the "
                    f"line (1-{START_ZONE}) and lane (1-{LANES}), e.g. '1 4':")
        parts = text.replace(",", " ").split()
        numbers = [ascii_int(p) for p in parts]
        if len(parts) != 2 or None in numbers:
            digits = f" ({common.DIGITS_ONLY})" if common.foreign_digits(text) else ""
            common.console.print("[red]refused:[/] type two numbers: columns behind the line, "
                                 f"lane{digits}")
            continue
        back, lane = (n for n in numbers if n is not None)
        if not 1 <= back <= START_ZONE:
            common.console.print(
                f"[red]refused:[/] riders start 1 to {START_ZONE} columns behind the line")
            continue
        if not 1 <= lane <= LANES:
            common.console.print(f"[red]refused:[/] lanes are 1 (inner) to {LANES} (outer)")
            continue
        action = place_action(back, lane)
        if action not in legal:
            common.console.print("[red]refused:[/] that square is taken")
            continue
        return action


def _ask_next_rider(state: PistardState, player: int) -> Action:
    idents = [state.riders[i].ident for i in state.choosable()]
    common.console.print(board(state))
    while True:
        text = _ask(f"player {player + 1}: which rider throws next? "
                    f"({', '.join(map(str, idents))}, or 1-{len(idents)} in that order; "
                    "the others wait)").strip()
        number = ascii_int(text)
        if number is not None and number in idents:
            return choose_action(number)
        if number is not None and 1 <= number <= len(idents):
            return choose_action(idents[number - 1])
        digits = f" ({common.DIGITS_ONLY})" if common.foreign_digits(text) else ""
        common.console.print(
            f"[red]refused:[/] choose one of {', '.join(map(str, idents))}{digits}")


def _ask_move(state: PistardState, player: int) -> Action:
    assert state.mover is not None and state.dice is not None
    rider = state.riders[state.mover]
    common.console.print(board(state, highlight=rider.ident))
    common.console.print(standings(state))
    common.console.print(dice_line(state.dice))
    actions = state.legal_actions()
    for n, action in enumerate(actions, start=1):
        label = move_label(state, action)
        common.console.print(f"  {n:>2}. ", end="")
        common.console.print(label)
    tokens = state.tokens[player]
    while True:
        text = _ask(f"player {player + 1}, rider {rider.ident} (tokens {tokens}): move number, "
                    "or a die like 'green 5':").strip().lower()
        if common.foreign_digits(text):
            common.console.print(f"[red]refused:[/] {common.DIGITS_ONLY}: a move number from the "
                                 "list, or a die like 'green 5'")
            continue
        number = ascii_int(text)
        if number is not None:
            if 1 <= number <= len(actions):
                return actions[number - 1]
            common.console.print(f"[red]refused:[/] {number} is not on the list (choose 1 to "
                                 f"{len(actions)})")
            continue
        if text in ("stay", "stand", "sur place"):
            if state.stay_action() in actions:
                return state.stay_action()
            if state.options.variant == "sprint":
                common.console.print(
                    "[red]refused:[/] after two stand-stills in a row you must move")
            else:
                common.console.print("[red]refused:[/] you have a legal move, so you must move")
            continue
        reason, chosen = _match_die(state, text, actions)
        if chosen is not None:
            return chosen
        common.console.print(f"[red]refused:[/] {reason}")


def _match_die(state: PistardState, text: str,
               actions: list[Action]) -> tuple[str, Action | None]:
    """Interpret 'green 5' (or 'g5'): the one listed move that die allows, or why not."""
    assert state.dice is not None and state.mover is not None
    compact = text.replace(" ", "")
    letters = compact.rstrip("0123456789")
    digits = compact[len(letters):]
    if not digits or not letters or ascii_int(digits) is None:
        return ("type a move number from the list, or a die like 'green 5'", None)
    try:
        colour = colour_index(letters)
    except ValueError as exc:
        return (str(exc), None)
    value = int(digits)
    thrown = state.dice[colour]
    token = value == thrown + 1
    if value != thrown and not token:
        return (f"you threw {COLOURS[colour]} {thrown}, not {value}", None)
    if token:
        if thrown == 6:
            return ("a die cannot be raised above 6", None)
        if state.tokens[state.riders[state.mover].owner] == 0:
            return ("you have no energy tokens left", None)
    table = state.move_table()
    matches = [a for a in actions if a in table and table[a].colour == colour
               and table[a].value == value and table[a].token == token]
    if not matches:
        return (f"{COLOURS[colour]} {value} has no legal destination (it must end on "
                f"{COLOURS[colour]} or right behind a rider, without passing anyone)", None)
    if len(matches) > 1:
        numbers = ", ".join(str(actions.index(a) + 1) for a in matches)
        return (f"{COLOURS[colour]} {value} reaches several squares: choose by number "
                f"({numbers})", None)
    return ("", matches[0])


def _print_result(state: PistardState) -> None:
    common.console.print(Rule("result"))
    for line in result_lines(state):
        common.console.print(line, soft_wrap=True)


# --- simulate -----------------------------------------------------------------------------
@app.command()
@game_options(PistardOptions)
def simulate(
    n: Annotated[int, typer.Option("-n", "--races", callback=common.in_range(1, MAX_RACES, "races"),
                                   help=f"Number of races to simulate, 1 to {MAX_RACES:,}.")
                 ] = 200,
    race: RaceOptions = GIVEN,
    players: ComputersOpt = None,
    seed: common.SeedOpt = None,
    simulations: Annotated[
        int | None,
        typer.Option("--simulations", callback=common.in_range(1, MAX_SIMULATIONS, "simulations"),
                     help="Play-outs per candidate move for 'hard' and 'expert', 1 to "
                          f"{MAX_SIMULATIONS:,} (default 96 and 2,048).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
) -> None:
    """Computer-only races: win rates by start lane and level (ttt: team time), turns."""
    kinds = _computers(players, race.get("variant"), "simulate")
    options = race.parse(players=len(kinds))
    variant = options.variant
    track_obj = load_track(options.track)
    seed = common.fresh_seed(seed)
    with common.progress_bar("simulating", n, enabled=not as_json) as bar:
        task = bar.task_ids[0]
        result = run_simulation(options, kinds, n, seed, track_obj,
                                progress=lambda done, _total: bar.update(task, completed=done),
                                simulations=simulations)
    summary = result.to_json()
    summary["options"] = {"variant": variant, "players": kinds,
                          "riders": options.total_riders, "track": track_obj.name,
                          "seed": seed}
    if as_json:
        common.print_json(summary)
        return
    common.console.print(Rule(f"PISTARD {variant}: {n} races, players {', '.join(kinds)}"))
    if summary["win_rate_by_start_lane"] is not None:
        lanes = Table("start lane", "riders", "wins", "win rate", "95% interval")
        for lane, row in summary["win_rate_by_start_lane"].items():
            lo, hi = row["ci95"]
            lanes.add_row(lane, str(row["starts"]), str(row["wins"]), f"{row['rate']:.1%}",
                          f"{lo:.1%}–{hi:.1%}")
        common.console.print(lanes)
    if summary["win_rate_by_level"] is not None:
        levels = Table("level", "seats", "wins", "win rate", "95% interval")
        for level, row in summary["win_rate_by_level"].items():
            lo, hi = row["ci95"]
            levels.add_row(level, str(row["entries"]), f"{row['wins']:g}",
                           f"{row['rate']:.1%}", f"{lo:.1%}–{hi:.1%}")
        common.console.print(levels)
    if summary["team_time"] is not None:
        tt = summary["team_time"]
        common.console.print(f"team time (rounds until the third rider is over the line, less 1/7 "
                             f"per square past it): mean {tt['mean']:.2f} (95% {tt['ci95'][0]:.2f}–"
                             f"{tt['ci95'][1]:.2f}), best {tt['min']:.2f}, worst {tt['max']:.2f}",
                             soft_wrap=True)
    turns = summary["turns"]
    common.console.print(f"race length: {turns['mean']:.2f} turns (95% {turns['ci95'][0]:.2f}–"
                         f"{turns['ci95'][1]:.2f}; min {turns['min']:g}, max {turns['max']:g}), "
                         f"{summary['throws']['mean']:.1f} throws; stopped by the round cap: "
                         f"{summary['stopped_by_round_cap']}", soft_wrap=True)
    common.console.print(f"[dim]seed {seed}: the same --seed replays these races[/]")


# --- track --------------------------------------------------------------------------------
@app.command("track")
def show_track(
    track: Annotated[str, typer.Argument(help="Shipped track (default, short) or a TOML file.")]
    = "default",
    as_json: Annotated[bool, typer.Option("--json", help="Print the track as JSON.")] = False,
) -> None:
    """Show (and validate) a track: its colours lane by lane and its line."""
    track_obj = load_track(track)
    if as_json:
        common.print_json(track_obj.to_json())
        return
    state = PistardState(PistardOptions(), track_obj)
    for r in state.riders:
        r.status = "out"
    common.console.print(Rule(f"{track_obj.name}: {track_obj.length} squares a lap"))
    common.console.print(board(state))
    common.console.print(json.dumps({"line": track_obj.line}))
