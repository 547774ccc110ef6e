"""`raceday pistard …` commands: play a race, simulate computer races, show a track."""

from __future__ import annotations

import json
from typing import Annotated, Any

import numpy as np
import typer
from rich.rule import Rule
from rich.table import Table

from raceday.cli.common import console, default_delay, pause, print_json, progress_bar
from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.events import Event
from raceday.core.protocol import Action
from raceday.core.serialize import dumps_state, loads_state
from raceday.games.pistard.agents import LEVELS, make_agent
from raceday.games.pistard.render import (
    board,
    commentary,
    dice_line,
    move_label,
    standings,
)
from raceday.games.pistard.rules import (
    CHOOSE_BASE,
    PHASE_PLACE,
    PLACE_BASE,
    START_ZONE,
    VARIANTS,
    PistardOptions,
    PistardState,
)
from raceday.games.pistard.simulate import simulate as run_simulation
from raceday.games.pistard.track import COLOURS, LANES, colour_index, load_track
from raceday.store.sessions import SessionStore

HELP = ("PISTARD (Anki Toner): track cycling for 2–5 players on a coloured four-lane "
        "velodrome, in six race variants.")

app = typer.Typer(help=HELP, no_args_is_help=True)
GAME = "pistard"
KINDS = ("human", *LEVELS)
KIND_ALIASES = {"h": "human", "you": "human", "e": "easy", "m": "medium", "x": "hard"}

VariantOpt = Annotated[
    str,
    typer.Option("--variant", "-v",
                 help="Race: scratch, points, elimination, sprint, ttt (team time trial) "
                      "or pursuit (team pursuit)."),
]
RidersOpt = Annotated[
    int | None,
    typer.Option("--riders-per-player", "-k",
                 help="Riders each player controls (default: 4 with 2 players, 3 with 3, "
                      "2 with 4-5; 1 in the sprint; 4 in team races)."),
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", "-s", help="Random seed; the same seed replays the race.")
]
LapsOpt = Annotated[
    int | None, typer.Option("--laps", help="Points race only: laps to ride (10 or 20 typical).")
]
TokensOpt = Annotated[
    int, typer.Option("--tokens", help="Energy tokens per player (0 plays the token-free game).")
]
TrackOpt = Annotated[
    str, typer.Option("--track", help="Shipped track (default, short) or a TOML track file.")
]


def parse_players(spec: str | None, variant: str) -> list[str]:
    """``human,medium,hard`` -> the kind of each player (h/e/m/x abbreviations allowed)."""
    if spec is None:
        return {"ttt": ["human"], "sprint": ["human", "medium"],
                "pursuit": ["human", "medium"]}.get(variant, ["human", "medium", "medium"])
    kinds = []
    for raw in spec.split(","):
        key = raw.strip().lower()
        kind = KIND_ALIASES.get(key, key)
        if kind not in KINDS:
            raise OptionsError(
                f"unknown player {raw.strip()!r} in --players; use human, easy, medium or hard "
                "separated by commas, e.g. human,medium,hard"
            )
        kinds.append(kind)
    return kinds


def _options(variant: str, players: int, riders: int | None, laps: int | None, tokens: int,
             track: str) -> PistardOptions:
    return PistardOptions(variant=variant, players=players, riders_per_player=riders, laps=laps,
                          tokens=tokens, track=track)


# --- play ---------------------------------------------------------------------------------
class _EndOfInput(Exception):
    """stdin closed: save and stop."""


def _ask(prompt: str) -> str:
    try:
        return console.input(f"[bold]{prompt}[/] ")
    except EOFError:
        raise _EndOfInput() from None


@app.command()
def play(
    variant: VariantOpt = "scratch",
    players: Annotated[
        str | None,
        typer.Option("--players", "-p",
                     help="Comma-separated players: human, easy, medium, hard (2-5; the team "
                          "time trial has one). Default: human against medium computers."),
    ] = None,
    riders_per_player: RidersOpt = None,
    seed: SeedOpt = None,
    laps: LapsOpt = None,
    tokens: TokensOpt = 3,
    track: TrackOpt = "default",
    session: Annotated[
        str, typer.Option("--session", help="Name the game is saved under after every move.")
    ] = "pistard",
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the saved game named by --session.")
    ] = False,
    db: Annotated[
        str | None, typer.Option("--db", help="Session database file (default: user data dir).")
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(help="Seconds between computer moves; default a short pause in a "
                          "terminal, none when piped."),
    ] = None,
) -> None:
    """Play a race in the terminal: humans choose moves from the listed ones, computers ride."""
    if delay is not None and delay < 0:
        raise OptionsError(f"delay must be 0 or more seconds, got {delay}")
    store = SessionStore(db)
    if resume:
        doc, _rev = store.load(GAME, session)
        try:
            state_any = loads_state(str(doc["state"]))
            kinds = [str(k) for k in doc["players"]]
            rng = np.random.default_rng()
            rng.bit_generator.state = doc["rng"]
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"saved session {session!r} is corrupt: {exc}") from None
        if not isinstance(state_any, PistardState):
            raise SaveFormatError(f"session {session!r} is not a PISTARD game")
        state = state_any
        if state.is_terminal():
            console.print(f"session {session!r} is already over")
            _print_result(state)
            return
        console.print(f"resuming {session!r}: {state.options.variant}, round {state.round}")
    else:
        if variant not in VARIANTS:
            raise OptionsError(f"unknown variant {variant!r}; choose one of "
                               f"{', '.join(VARIANTS)}")
        kinds = parse_players(players, variant)
        options = _options(variant, len(kinds), riders_per_player, laps, tokens, track)
        state = PistardState(options, load_track(track))
        rng = np.random.default_rng(seed)
    agents = {p: make_agent(kind) for p, kind in enumerate(kinds) if kind != "human"}
    wait = default_delay(delay)

    def save(log_entry: dict[str, Any] | None = None) -> None:
        document = {"state": dumps_state(state), "players": kinds,
                    "rng": rng.bit_generator.state}
        store.save(GAME, session, document, log_entry=log_entry)

    opts = state.options
    console.print(Rule(f"PISTARD — {opts.variant}, {opts.num_players} player(s), "
                       f"{opts.total_riders} riders, track {state.track.name!r} "
                       f"({state.track.length} squares a lap)"))
    for p, kind in enumerate(kinds):
        idents = [r.ident for r in state.riders if r.owner == p]
        console.print(f"player {p + 1} ({kind}): riders {', '.join(map(str, idents))}")
    shown_round = -1
    try:
        while not state.is_terminal():
            if state.phase != PHASE_PLACE and state.round != shown_round and not any(
                k == "human" for k in kinds
            ):
                shown_round = state.round
                console.print(Rule(f"round {state.round}"))
                console.print(board(state))
            if state.is_chance_node():
                draw = state.sample_chance(rng)
                events = state.apply_action(draw.outcome, draw.detail)
                _narrate(events)
                continue
            player = state.current_player()
            if player in agents:
                action = agents[player].choose(state, rng)
                events = state.apply_action(action)
                _narrate(events)
                pause(wait)
                continue
            action = _human_turn(state, player)
            events = state.apply_action(action)
            _narrate(events)
            save()
    except _EndOfInput:
        save()
        console.print(f"\ninput ended; game saved as {session!r} — continue with "
                      f"`raceday pistard play --resume --session {session}`")
        return
    console.print(board(state))
    _print_result(state)
    save({"result": state.outcome().description, "ranking": list(state.outcome().ranking)})


def _narrate(events: list[Event]) -> None:
    for event in events:
        line = commentary(event)
        if line:
            console.print(line)


def _human_turn(state: PistardState, player: int) -> Action:
    """Show the position and ask the human until a legal choice is given."""
    if state.phase == PHASE_PLACE:
        return _ask_placement(state, player)
    if state.mover is None:
        return _ask_next_rider(state, player)
    return _ask_move(state, player)


def _ask_placement(state: PistardState, player: int) -> Action:
    rider = state.riders[state.place_queue[0]]
    console.print(board(state, highlight=None))
    legal = set(state.legal_actions())
    while True:
        text = _ask(f"player {player + 1}: place rider {rider.ident} — columns behind the "
                    f"line (1-{START_ZONE}) and lane (1-{LANES}), e.g. '1 4':")
        parts = text.replace(",", " ").split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            console.print("[red]refused:[/] type two numbers: columns behind the line, lane")
            continue
        back, lane = int(parts[0]), int(parts[1])
        if not 1 <= back <= START_ZONE:
            console.print(f"[red]refused:[/] riders start 1 to {START_ZONE} columns behind the "
                          "line")
            continue
        if not 1 <= lane <= LANES:
            console.print(f"[red]refused:[/] lanes are 1 (inner) to {LANES} (outer)")
            continue
        action = PLACE_BASE + 10 * back + lane
        if action not in legal:
            console.print("[red]refused:[/] that square is taken")
            continue
        return action


def _ask_next_rider(state: PistardState, player: int) -> Action:
    idents = [state.riders[i].ident for i in state.choosable()]
    console.print(board(state))
    while True:
        text = _ask(f"player {player + 1}: which rider throws next? "
                    f"({', '.join(map(str, idents))}, or 1-{len(idents)} in that order; "
                    "the others wait)").strip()
        if text.isdigit() and int(text) in idents:
            return CHOOSE_BASE + int(text)
        if text.isdigit() and 1 <= int(text) <= len(idents):
            return CHOOSE_BASE + idents[int(text) - 1]
        console.print(f"[red]refused:[/] choose one of {', '.join(map(str, idents))}")


def _ask_move(state: PistardState, player: int) -> Action:
    assert state.mover is not None and state.dice is not None
    rider = state.riders[state.mover]
    console.print(board(state, highlight=rider.ident))
    console.print(standings(state))
    console.print(dice_line(state.dice))
    actions = state.legal_actions()
    table = state.move_table()
    for n, action in enumerate(actions, start=1):
        label = move_label(state, action, table.get(action))
        console.print(f"  {n:>2}. ", end="")
        console.print(label)
    tokens = state.tokens[player]
    while True:
        text = _ask(f"player {player + 1}, rider {rider.ident} (tokens {tokens}): move number, "
                    "or a die like 'green 5':").strip().lower()
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(actions):
                return actions[n - 1]
            console.print(f"[red]refused:[/] {n} is not on the list (choose 1 to "
                          f"{len(actions)})")
            continue
        if text in ("stay", "stand", "sur place"):
            if state.stay_action() in actions:
                return state.stay_action()
            if state.options.variant == "sprint":
                console.print("[red]refused:[/] after two stand-stills in a row you must move")
            else:
                console.print("[red]refused:[/] you have a legal move, so you must move")
            continue
        reason, chosen = _match_die(state, text, actions)
        if chosen is not None:
            return chosen
        console.print(f"[red]refused:[/] {reason}")


def _match_die(state: PistardState, text: str,
               actions: list[Action]) -> tuple[str, Action | None]:
    """Interpret 'green 5' (or 'g5'): the one listed move that die allows, or why not."""
    assert state.dice is not None and state.mover is not None
    compact = text.replace(" ", "")
    digits = "".join(ch for ch in compact if ch.isdigit())
    letters = compact[: len(compact) - len(digits)] if digits else compact
    if not digits or not letters or not compact.endswith(digits):
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
    outcome = state.outcome()
    console.print(Rule("result"))
    console.print(outcome.description)
    if state.options.variant == "pursuit":
        for t, rounds, past, _lane in state.team_times:
            console.print(f"team {t + 1}: third rider over the line after {rounds} turns, "
                          f"{past} past")
        return
    table = Table("place", "rider", "player", "score")
    for place, ident in enumerate(outcome.ranking, start=1):
        owner = next(r.owner for r in state.riders if r.ident == ident)
        score = outcome.scores.get(ident, "")
        table.add_row(str(place), str(ident), str(owner + 1), str(score))
    console.print(table)


# --- simulate -----------------------------------------------------------------------------
@app.command()
def simulate(
    n: Annotated[int, typer.Option("-n", "--races", help="Number of races to simulate.")] = 200,
    variant: VariantOpt = "scratch",
    players: Annotated[
        str, typer.Option("--players", "-p",
                          help="Computer players by level, comma-separated: easy, medium, hard.")
    ] = "easy,medium",
    riders_per_player: RidersOpt = None,
    seed: SeedOpt = None,
    laps: LapsOpt = None,
    tokens: TokensOpt = 3,
    track: TrackOpt = "default",
    simulations: Annotated[
        int | None, typer.Option("--simulations", help="MCTS simulations per move for 'hard'.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
) -> None:
    """Computer-only races: win rate by starting lane and by level, race length in turns."""
    if n < 1:
        raise OptionsError(f"-n must be at least 1 race, got {n}")
    if variant not in VARIANTS:
        raise OptionsError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    kinds = parse_players(players, variant)
    if "human" in kinds:
        raise OptionsError("simulate plays computers only: use easy, medium or hard")
    options = _options(variant, len(kinds), riders_per_player, laps, tokens, track)
    track_obj = load_track(track)
    with progress_bar("simulating", n, enabled=not as_json) as bar:
        task = bar.task_ids[0]
        result = run_simulation(options, kinds, n, seed, track_obj,
                                on_race=lambda done: bar.update(task, completed=done),
                                simulations=simulations)
    summary = result.to_json()
    summary["options"] = {"variant": variant, "players": kinds,
                          "riders": options.total_riders, "track": track_obj.name}
    if as_json:
        print_json(summary)
        return
    console.print(Rule(f"PISTARD {variant}: {n} races, players {', '.join(kinds)}"))
    lanes = Table("start lane", "riders", "wins", "win rate", "95% interval")
    for lane, row in summary["win_rate_by_start_lane"].items():
        lo, hi = row["ci95"]
        lanes.add_row(lane, str(row["starts"]), str(row["wins"]), f"{row['rate']:.1%}",
                      f"{lo:.1%}–{hi:.1%}")
    if variant != "pursuit":
        console.print(lanes)
    levels = Table("level", "seats", "wins", "win rate", "95% interval")
    for level, row in summary["win_rate_by_level"].items():
        lo, hi = row["ci95"]
        levels.add_row(level, str(row["entries"]), f"{row['wins']:g}", f"{row['rate']:.1%}",
                       f"{lo:.1%}–{hi:.1%}")
    console.print(levels)
    turns = summary["turns"]
    if summary["team_time"] is not None:
        tt = summary["team_time"]
        console.print(f"team time: {tt['mean']:.2f} rounds (95% {tt['ci95'][0]:.2f}–"
                      f"{tt['ci95'][1]:.2f}; best {tt['min']:.2f})")
    console.print(f"race length: {turns['mean']:.2f} turns (95% {turns['ci95'][0]:.2f}–"
                  f"{turns['ci95'][1]:.2f}; min {turns['min']:g}, max {turns['max']:g}), "
                  f"{summary['throws']['mean']:.1f} throws; stopped by the round cap: "
                  f"{summary['stopped_by_round_cap']}")


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
        print_json(track_obj.to_json())
        return
    state = PistardState(PistardOptions(), track_obj)
    for r in state.riders:
        r.status = "out"
    console.print(Rule(f"{track_obj.name}: {track_obj.length} squares a lap"))
    console.print(board(state))
    console.print(json.dumps({"line": track_obj.line}))
