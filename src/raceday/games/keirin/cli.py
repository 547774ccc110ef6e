"""`raceday keirin …` commands.

Only what `keirin odds` needs is imported up front (it must start fast): the race viewer
and betting sessions (:mod:`raceday.games.keirin.interactive`), the simulator, the session
store and the compiled sampler are imported by the commands that use them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import numpy as np
import typer
from rich.rule import Rule
from rich.table import Table

from raceday.core.errors import OptionsError
from raceday.games.keirin.night import NightOptions
from raceday.games.keirin.odds import BET_TYPES, race_odds
from raceday.games.keirin.odds_view import MAX_TOP, TOP_DEFAULT, print_odds
from raceday.games.keirin.rules import KeirinOptions, KeirinState
from raceday.store.names import MAX_SESSION_NAME
from raceday.terminal import common
from raceday.terminal.options import GIVEN, GivenOptions, game_options

if TYPE_CHECKING:
    from raceday.core.events import Event
    from raceday.core.protocol import State

HELP = "KEIRIN (Anki Toner): 6–9 track riders sprint for the line after the derny leaves."

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False)

# Documented caps (also in docs/usage/keirin-analysis.md): beyond them a typo is likelier
# than a wish, and the work or the memory would not be bounded.
MAX_SIMULATIONS = 1_000_000_000  # fast engine: counts only, flat memory (about 20 min/1e9)
MAX_REFERENCE_SIMULATIONS = 1_000_000  # the reference engine runs ~1,000 races a second
MAX_PLAYERS = 20

RaceOptions = GivenOptions[KeirinOptions]  # --riders, --length, --derny (the model's)
TopOpt = Annotated[
    int,
    typer.Option(
        "--top", callback=common.in_range(1, MAX_TOP, "rows"),
        help=f"Rows shown for the large bet types (exacta and beyond), 1–{MAX_TOP:,}.",
    ),
]


@app.command()
@game_options(KeirinOptions)
def watch(
    race: RaceOptions = GIVEN,
    seed: common.SeedOpt = None,
    delay: common.DelayOpt = None,
) -> None:
    """Watch one race turn by turn, with commentary and the final ranking."""
    from raceday.core.play import play_game
    from raceday.games.keirin.game import GAME
    from raceday.games.keirin.interactive import show_race

    options = race.parse()
    wait = common.default_delay(delay)
    used = common.fresh_seed(seed)
    common.console.print(Rule(f"KEIRIN — {options.riders} riders, finish {options.length} squares "
                              "from the derny's start"))
    rng = np.random.default_rng(used)

    def run(on_events: Callable[[State, list[Event]], None]) -> KeirinState:
        # KeirinState(options) is GAME.new_state(options) for checked options; it is called
        # by this name so that tests/cli can interrupt the race here.
        state = KeirinState(options)
        play_game(state, [], rng, max_steps=GAME.max_steps(options), on_events=on_events)
        return state

    show_race(run, wait)
    common.console.print(common.seed_line(used))


@app.command()
@game_options(KeirinOptions)
def simulate(
    n: Annotated[
        int,
        typer.Option(
            "-n", "--races", "--simulations", callback=common.in_range(1, MAX_SIMULATIONS, "races"),
            help=f"Number of races to simulate, 1–{MAX_SIMULATIONS:,} (the reference engine: "
            f"at most {MAX_REFERENCE_SIMULATIONS:,}). Memory stays flat at any count.",
        ),
    ] = 10_000,
    seed: common.SeedOpt = None,
    race: RaceOptions = GIVEN,
    json_out: common.JsonOpt = False,
    engine: Annotated[
        str,
        typer.Option(
            help="fast: the compiled sampler (first three places); reference: the rules "
            "engine, every event (slow, for checking)."
        ),
    ] = "fast",
) -> None:
    """Simulate many races: win, top-2 and top-3 chances with 95% intervals."""
    from raceday.games.keirin.simulate import ENGINES
    from raceday.games.keirin.simulate import simulate as run_simulation

    if engine not in ENGINES:
        raise OptionsError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "reference" and n > MAX_REFERENCE_SIMULATIONS:
        raise OptionsError(f"the reference engine runs at most {MAX_REFERENCE_SIMULATIONS:,} "
                           f"races (about 1,000 a second), got {n:,}; use --engine fast")
    options = race.parse()
    riders, length = options.riders, options.length
    used = common.fresh_seed(seed)
    bar_from = common.PROGRESS_THRESHOLD * (1 if engine == "reference" else 500)
    show_bar = n >= bar_from and not json_out
    with common.progress_bar("racing", n, enabled=show_bar) as bar:
        task = bar.task_ids[0]
        summary = run_simulation(
            options, n, np.random.default_rng(used), engine=engine,
            progress=lambda done, _total: bar.update(task, completed=done),
        )
    if json_out:
        data = summary.to_json()
        common.print_json({"game": data.pop("game"), "n": data.pop("n"), "seed": used, **data})
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
    common.console.print(table)
    mean, lo, hi = summary.mean_turns_interval()
    common.console.print(f"Average race length: {mean:.2f} turns (95% CI {lo:.2f} – {hi:.2f}).")
    common.console.print(common.seed_line(used, "numbers"))


@app.command()
@game_options(KeirinOptions)
def odds(
    race: RaceOptions = GIVEN,
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet", "-b", help="Bet type(s) to show: win, exacta, quinella, trifecta, trio "
            "(repeat the option; default all)."
        ),
    ] = None,
    top: TopOpt = TOP_DEFAULT,
    show_all: Annotated[
        bool, typer.Option("--all", help="Show every combination of every bet type.")
    ] = False,
    json_out: common.JsonOpt = False,
) -> None:
    """Exact odds of every bet on the first three (win, exacta, quinella, trifecta, trio)."""
    kinds = bet or list(BET_TYPES)
    unknown = [k for k in kinds if k not in BET_TYPES]
    if unknown:
        raise OptionsError(
            f"unknown bet type {unknown[0]!r}; choose from {', '.join(BET_TYPES)}"
        )
    result = race_odds(race.parse())
    if json_out:
        common.print_json(result.to_json())
        return
    print_odds(common.console, result, kinds, top, show_all)


@app.command()
@game_options(NightOptions)
def play(
    player: Annotated[
        list[str] | None,
        typer.Option("--player", "-p",
                     help=f"Players' names: repeat -p or separate names with commas (at "
                     f"most {MAX_PLAYERS} players, {common.MAX_PLAYER_NAME} characters a name)."),
    ] = None,
    bankroll: Annotated[
        str, typer.Option(help="Each player's starting bankroll (digits, at most two "
                          "decimals).")
    ] = "10000",
    pool: Annotated[
        bool, typer.Option("--pool", help="Pari-mutuel: winners share each bet type's pool.")
    ] = False,
    session_name: Annotated[
        str | None, typer.Option("--session", callback=common.check_session_name_option,
                                 help=f"Name of a new session, at most {MAX_SESSION_NAME} "
                                 "characters (default: dated).")
    ] = None,
    resume: Annotated[
        str | None, typer.Option(help="Resume the saved session of this name.")
    ] = None,
    db: common.DbOpt = None,
    seed: common.SeedOpt = None,
    night: GivenOptions[NightOptions] = GIVEN,
    top: Annotated[
        int, typer.Option(callback=common.in_range(1, MAX_TOP, "rows"),
                          help=f"Rows of the quinella, exacta, trio and trifecta boards, "
                          f"1–{MAX_TOP:,}.")
    ] = 8,
    delay: common.DelayOpt = None,
    list_sessions: Annotated[
        bool, typer.Option("--list", help="List the saved sessions and stop.")
    ] = False,
) -> None:
    """Bet on races with friends: odds board, tickets, the race, payouts, race after race.

    Saved after every race; resume an interrupted session with --resume NAME.
    """
    from raceday.games.keirin.interactive import run_bet

    options = night.parse(mode="pool" if pool else "fixed")  # the night's rules, checked
    run_bet(player=player, bankroll=bankroll, margin=options.margin, pool=pool,
            allow_debt=options.allow_debt, session_name=session_name, resume=resume, db=db,
            seed=seed, riders=options.riders, length=options.length, derny=options.derny,
            top=top, delay=delay, list_sessions=list_sessions)


common.add_alias(app, "bet", "play", play)

__all__ = ["app"]
