"""`raceday keirin …` commands.

Only what `keirin odds` needs is imported up front (it must start fast): the race viewer
and betting sessions (:mod:`raceday.games.keirin.interactive`), the simulator, the session
store and the compiled sampler are imported by the commands that use them.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import numpy as np
import typer
from rich.table import Table

from raceday.core.errors import OptionsError
from raceday.games.keirin.night import NightOptions
from raceday.games.keirin.odds import BET_TYPES, KeirinOdds, race_odds
from raceday.games.keirin.odds_view import MAX_TOP, TOP_DEFAULT, print_odds
from raceday.games.keirin.rules import KeirinOptions, KeirinState
from raceday.terminal import common
from raceday.terminal.options import GIVEN, GivenOptions, game_options
from raceday.terminal.tui import run_command

if TYPE_CHECKING:
    pass

HELP = "KEIRIN (Anki Toner): 6–9 track riders sprint for the line after the derny leaves."

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False)

# Documented caps (also in docs/usage/keirin-analysis.md): beyond them a typo is likelier
# than a wish, and the work or the memory would not be bounded.
MAX_SIMULATIONS = 1_000_000_000  # fast engine: counts only, flat memory (about 20 min/1e9)
MAX_REFERENCE_SIMULATIONS = 1_000_000  # the reference engine runs ~1,000 races a second
MAX_PLAYERS = 20
MAX_COMPUTERS = 8  # computer bettors a terminal night may add

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
    lang: common.LangOpt = None,
    plain: common.PlainOpt = False,
) -> None:
    """Watch one race turn by turn, with commentary and the final ranking."""
    from raceday.games.keirin.interactive import watch_race, watch_title

    options = race.parse()
    wait = common.default_delay(delay)
    used = common.fresh_seed(seed)
    language = common.resolve_lang(lang)
    # KeirinState is looked up here when the race starts, so a test can interrupt it
    main = watch_race(options, used, wait, new_state=lambda o: KeirinState(o))
    run_command(main, title=watch_title(options, language), lang=language, plain=plain)


@app.command()
@game_options(KeirinOptions)
def simulate(
    n: Annotated[
        int,
        typer.Option(
            "-n", "--races", metavar="N", callback=common.in_range(1, MAX_SIMULATIONS, "races"),
            help=f"Number of races to simulate, 1–{MAX_SIMULATIONS:,} (the reference engine: "
            f"at most {MAX_REFERENCE_SIMULATIONS:,}). Memory stays flat at any count.",
        ),
    ] = 10_000,
    seed: common.NumbersSeedOpt = None,
    race: RaceOptions = GIVEN,
    json_out: common.JsonOpt = False,
    engine: Annotated[
        str,
        typer.Option(
            metavar="fast|reference",
            help="fast: the compiled sampler (first three places); reference: the rules "
            "engine, every event (slow, for checking)."
        ),
    ] = "fast",
    lang: common.LangOpt = None,
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
    from raceday.present import render

    with common.progress_bar(render("tool.progress.racing", common.resolve_lang(lang)), n,
                             enabled=show_bar) as bar:
        task = bar.task_ids[0]
        summary = run_simulation(
            options, n, np.random.default_rng(used), engine=engine,
            progress=lambda done, _total: bar.update(task, completed=done),
        )
    if json_out:
        data = summary.to_json()
        common.print_json({"game": data.pop("game"), "n": data.pop("n"), "seed": used, **data})
        return
    language = common.resolve_lang(lang)

    def say(key: str, **params: object) -> str:
        return render(f"term.sim.{key}", language, game="keirin", params=params)

    table = Table(title=say("title", n=f"{n:,}", riders=riders, length=length))
    for col in ("rider", "win", "interval", "top2", "top3"):
        table.add_column(say(col), justify="right")
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
    common.console.print(say("length", mean=f"{mean:.2f}", low=f"{lo:.2f}", high=f"{hi:.2f}"))
    common.console.print(common.seed_line(used, "numbers", language))


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
    lang: common.LangOpt = None,
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
    print_odds(common.console, result, kinds, top, show_all,
               words=_odds_words(result, common.resolve_lang(lang)))


def _odds_words(odds: KeirinOdds, lang: str) -> dict[str, str]:
    """The words of `keirin odds` in ``lang``, from KEIRIN's message tables."""
    from raceday.present import render

    def say(key: str, **params: object) -> str:
        return render(key, lang, game="keirin", params=params)

    pull = (say("term.odds.derny_fixed", derny=odds.derny) if odds.derny is not None
            else say("term.odds.derny_thrown"))
    said = {"heading": say("term.odds.heading", riders=odds.riders, length=odds.length,
                           pull=pull),
            "fair": say("term.odds.fair"), "bet": say("term.col.bet"),
            "probability": say("term.col.probability"),
            "fair odds": say("term.col.fair_odds"),
            "offered odds": say("term.col.offered_odds"), "of": say("term.col.of")}
    if lang != "en":  # English keeps the typed words (win, exacta) as the tables' names
        said.update({kind: say(f"kr_{kind}") for kind in BET_TYPES})
    return said


@app.command()
@game_options(NightOptions)
def play(
    players: common.PlayersOpt = None,
    computers: Annotated[int, typer.Option(
        "--computers", metavar="N", callback=common.in_range(0, MAX_COMPUTERS, "computer bettors"),
        help=f"Computer bettors to add, 0–{MAX_COMPUTERS} (alternately cautious and sharp: "
        "each buys its own tickets from the exact odds).")] = 0,
    bankroll: Annotated[
        str, typer.Option(metavar="AMOUNT", help="Each player's starting bankroll (digits, at "
                          "most two decimals).")
    ] = "10000",
    pool: Annotated[
        bool, typer.Option("--pool", help="Pari-mutuel: winners share each bet type's pool.")
    ] = False,
    save: common.SaveOpt = None,
    resume: common.ResumeOpt = None,
    list_sessions: common.ListOpt = False,
    db: common.DbOpt = None,
    seed: common.SeedOpt = None,
    night: GivenOptions[NightOptions] = GIVEN,
    top: Annotated[
        int, typer.Option(metavar="N", callback=common.in_range(1, MAX_TOP, "rows"),
                          help=f"Rows of the quinella, exacta, trio and trifecta boards that "
                          f"'odds' shows, 1–{MAX_TOP:,}.")
    ] = 8,
    delay: common.DelayOpt = None,
    lang: common.LangOpt = None,
    plain: common.PlainOpt = False,
) -> None:
    """Bet on races with friends: odds board, tickets, the race, payouts, race after race.

    Saved after every race; go on with an interrupted night with --resume NAME, or with
    a night's record file (raceday record export) with --resume FILE.
    """
    from raceday.games.keirin.interactive import list_sessions as show_saved
    from raceday.games.keirin.interactive import play_night, prepare_night

    if list_sessions:
        show_saved(db)
        return
    options = night.parse(mode="pool" if pool else "fixed")  # the night's rules, checked
    language = common.resolve_lang(lang)
    prepared = prepare_night(
        players=players, bankroll=bankroll, margin=options.margin, pool=pool,
        allow_debt=options.allow_debt, save=save, resume=resume, db=db, seed=seed,
        riders=options.riders, length=options.length, derny=options.derny, top=top,
        delay=delay, lang=language, ask_names=sys.stdin.isatty(),  # a person can name them
        computers=computers)
    run_command(lambda surface: play_night(surface, prepared),
                title=f"KEIRIN — {prepared.session.name}", lang=language, plain=plain)


__all__ = ["app"]
