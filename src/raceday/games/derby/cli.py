"""`raceday derby …` commands: odds, simulate, watch (a race) and play (a party)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from raceday.core.errors import OptionsError, RacedayError, SaveFormatError
from raceday.games.derby.odds import exact_odds, format_odds, make_board, pair_name, parse_margin
from raceday.games.derby.rules import POSTS, DerbyOptions, horse_name
from raceday.games.derby.session import EveningOptions
from raceday.store.names import MAX_SESSION_NAME
from raceday.terminal import common
from raceday.terminal.options import GIVEN, GivenOptions, game_options

if TYPE_CHECKING:
    from raceday.store.sessions import SessionStore

# Only what `derby odds` needs is imported up front (it must start fast); the party, the
# session store, the sampler and the race commentary are imported by the commands using them.

HELP = "Dice Derby (domi): six dice race five furlongs; bid for horses, bet win and quinella."

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False)

# Documented caps (docs/usage/derby.md): beyond them a typo is likelier than a wish.
MAX_SIMULATIONS = 100_000_000
MAX_COMPUTERS = 20

RaceOptions = GivenOptions[DerbyOptions]  # --fall-rate (the model's)
MarginOpt = Annotated[
    str, typer.Option("--margin", help="Board odds are fair odds times (1 - margin), to 0.1; "
                      "margin 0 to 0.5.")
]
SimpleOpt = Annotated[
    bool, typer.Option("--simple-odds", help="Round board odds down to easy party numbers.")
]


@app.command()
@game_options(DerbyOptions)
def odds(
    race: RaceOptions = GIVEN,
    json_out: common.JsonOpt = False,
    margin: MarginOpt = "0.1",
    simple_odds: SimpleOpt = False,
) -> None:
    """Exact win and quinella probabilities, fair odds and the odds board."""
    rate = race.parse().fall_rate
    board_margin = parse_margin(margin)
    exact = exact_odds(rate)
    if json_out:
        common.print_json(exact.to_json())
        return
    from rich.table import Table

    board = make_board(exact, board_margin, simple=simple_odds)
    win = Table(title=f"Win — exact (fall rate {rate})")
    for col in ("Post", "Horse", "Probability", "Fair odds", "Board"):
        win.add_column(col, justify="right")
    for h in POSTS:
        p = exact.win[h]
        win.add_row(str(h), horse_name(h), f"{float(p):.6f}", f"{float(1 / p):.2f}",
                    format_odds(board.win[h]))
    quin = Table(title="Quinella — exact (1st and 2nd in either order)")
    for col in ("Pair", "Horses", "Probability", "Fair odds", "Board"):
        quin.add_column(col, justify="right")
    for pr, p in sorted(exact.quinella.items()):
        quin.add_row(f"{pr[0]}-{pr[1]}", pair_name(pr), f"{float(p):.6f}",
                     f"{float(1 / p):.2f}", format_odds(board.quinella[pr]))
    common.console.print(win)
    common.console.print(quin)


@app.command()
@game_options(DerbyOptions)
def simulate(
    n: Annotated[int, typer.Option(
        "-n", "--races", "--simulations", callback=common.in_range(1, MAX_SIMULATIONS, "races"),
        help=f"Number of races to simulate, 1–{MAX_SIMULATIONS:,}.")] = 100_000,
    seed: common.SeedOpt = None,
    race: RaceOptions = GIVEN,
    json_out: common.JsonOpt = False,
) -> None:
    """Estimate win and quinella probabilities by simulation, with 95% intervals."""
    import numpy as np

    from raceday.games.derby.fast import simulate_odds

    rate = race.parse().fall_rate
    used = common.fresh_seed(seed)
    rng = np.random.default_rng(used)
    show = n >= common.PROGRESS_THRESHOLD * 50 and not json_out
    with common.progress_bar("Simulating races", n, enabled=show) as bar:
        task = bar.task_ids[0]
        sim = simulate_odds(n, rng, rate,
                            progress=lambda done, _total: bar.update(task, completed=done))
    if json_out:
        data = sim.to_json()
        common.print_json({"game": data.pop("game"), "n": data.pop("n"), "seed": used, **data})
        return
    from rich.table import Table

    exact = exact_odds(rate)
    win = Table(title=f"Win — {n:,} simulated races (fall rate {rate}), 95% intervals")
    for col in ("Horse", "Estimate", "95% interval", "Exact"):
        win.add_column(col, justify="right")
    for h, e in sim.win.items():
        win.add_row(horse_name(h), f"{e.p:.5f}", f"{e.low:.5f}–{e.high:.5f}",
                    f"{float(exact.win[h]):.5f}")
    quin = Table(title="Quinella — simulated, 95% intervals")
    for col in ("Pair", "Estimate", "95% interval", "Exact"):
        quin.add_column(col, justify="right")
    for pr, e in sim.quinella.items():
        quin.add_row(pair_name(pr), f"{e.p:.5f}", f"{e.low:.5f}–{e.high:.5f}",
                     f"{float(exact.quinella[pr]):.5f}")
    common.console.print(win)
    common.console.print(quin)
    common.console.print(common.seed_line(used, "numbers"))


@app.command()
@game_options(DerbyOptions)
def watch(
    seed: common.SeedOpt = None,
    race: RaceOptions = GIVEN,
    delay: common.DelayOpt = None,
) -> None:
    """Run one race furlong by furlong, revealing the dice from the d4 up as a host would."""
    import numpy as np
    from rich.rule import Rule

    from raceday.core.events import Message
    from raceday.games.derby.game import GAME
    from raceday.games.derby.render import event_lines, words

    wait = common.default_delay(delay, 0.4)
    state = GAME.new_state(race.parse())
    used = common.fresh_seed(seed)
    common.console.print(Rule(words("watch.title")))
    common.console.print(words("watch.posts", posts=[
        Message("derby.post_horse", {"post": p, "horse": horse_name(p)}) for p in POSTS]))
    rng = np.random.default_rng(used)
    to_drop: list[str] = []
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        for line in event_lines(state.apply_action(draw.outcome, draw.detail), to_drop):
            common.console.print(line)
            common.pause(wait)
    common.console.print(common.seed_line(used))


PlayersOpt = Annotated[
    list[str] | None,
    typer.Option("--players", "-p",
                 help=f"Player names, separated by commas or -p repeated (each at most "
                 f"{common.MAX_PLAYER_NAME} characters; asked if left out)."),
]


@app.command()
@game_options(EveningOptions)
def play(
    players: PlayersOpt = None,
    computers: Annotated[int, typer.Option(
        callback=common.in_range(0, MAX_COMPUTERS, "computer players"),
        help=f"Computer players to add, 0–{MAX_COMPUTERS} (alternately cautious and bold "
        "bettors).")] = 0,
    resume: Annotated[str | None, typer.Option(
        help="Resume the saved session of this name.")] = None,
    save: Annotated[str | None, typer.Option(
        callback=common.check_session_name_option,
        help=f"Name to save the new session under, at most {MAX_SESSION_NAME} characters "
        "(default party-1, party-2, ...).")] = None,
    db: common.DbOpt = None,
    seed: common.SeedOpt = None,
    house_rules: GivenOptions[EveningOptions] = GIVEN,
    delay: common.DelayOpt = None,
) -> None:
    """A whole party session at one terminal: auction, betting, races, standings, awards."""
    import time

    from raceday.core.events import Message
    from raceday.games.derby.evening import EveningState
    from raceday.games.derby.party import GAME, EndOfInput, Party, Terminal, new_party_name
    from raceday.games.derby.render import words
    from raceday.games.derby.session import Session
    from raceday.store.sessions import writable_store

    term = Terminal(common.console, common.default_delay(delay, 0.3), time.sleep)
    if resume is not None:
        store = writable_store(db)  # read-only: refused before a bid or ticket is typed
        document, revision = store.load(GAME, resume)
        state = EveningState.from_json(document)
        name = resume
        term.say(words("party.resuming", name=name, race=state.ledger.race,
                       races=state.options.races, phase=Message(f"derby.phase.{state.phase}")))
    else:
        # Every option is checked before the database is opened or written.
        config = house_rules.parse(seed=common.fresh_seed(seed))
        computer_seats = [(f"Computer {k + 1}", ("cautious", "bold")[k % 2])
                          for k in range(computers)]
        if save is not None and not save.strip():
            raise OptionsError("--save needs a name")
        given = (None if players is None
                 else Session.new(config, [*_roster(players), *computer_seats]))
        store = writable_store(db)  # read-only: refused before names are asked
        name = save or new_party_name(store)
        if store.exists(GAME, name):
            raise SaveFormatError(f"a session named {name!r} already exists; resume it with "
                                  f"--resume {name} or choose another --save name")
        if given is not None:
            session = given
        else:
            while True:
                try:
                    answer = term.ask(words("party.names_prompt"))
                except EndOfInput:
                    return
                try:
                    session = Session.new(config, [*_roster([answer]), *computer_seats])
                except OptionsError as exc:
                    term.refuse(str(exc))
                    continue
                break
        revision = None
        state = EveningState.from_session(session)
        count = len(session.players)
        term.say(words("party.new", name=name, players=count, races=config.races,
                       seed=session.config.seed))
        if count < len(POSTS):
            term.say(words("party.fewer"))
    resume_line = resume_command(name, db)
    game = Party(state, store, name, term, revision)
    try:
        game.run()
    except EndOfInput:
        # one unbroken line, whatever the width: the command must paste back whole
        term.console.print(escape(f"Input ended. The session is saved as {name!r} (the last "
                                  f"save point); continue with: {resume_line}"), soft_wrap=True)
    except KeyboardInterrupt:
        with common.on_interrupt(_kept(store, name), resume_line):
            raise


common.add_alias(app, "race", "watch", watch)
common.add_alias(app, "party", "play", play)


def resume_command(name: str, db: Path | None) -> str:
    """The exact command that continues a party (with --db when one was given)."""
    extra = ["--db", str(db)] if db is not None else []
    return common.shell_quote("raceday", "derby", "play", "--resume", name, *extra)


def _kept(store: SessionStore, name: str) -> str:
    """What the database holds for a party, read back from it (not from memory)."""
    from raceday.games.derby.evening import EveningState
    from raceday.games.derby.party import GAME

    try:
        document, _ = store.load(GAME, name)
        saved = EveningState.from_json(document).ledger
    except RacedayError:
        return f"party {name!r} was not saved yet"
    where = {
        "auction": f"the auction, {len(saved.lots)} of {len(POSTS)} dice sold or passed",
        "betting": f"race {saved.race} of {saved.config.races}, betting open (tickets typed "
                   "since then are asked again)",
        "racing": f"race {saved.race} of {saved.config.races}, tickets locked (the race runs "
                  "on resume)",
        "finished": "the finished session",
    }[saved.phase]
    return f"party {name!r} saved at {where}"


def _roster(names: list[str]) -> list[tuple[str, str]]:
    """Human players from ``-p`` values or a typed line: comma lists, each name bounded."""
    return [(n, "human") for n in common.player_names(names) or []]
