"""`raceday derby …` commands: odds, simulate, watch (a race) and play (a party)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from raceday.core.errors import OptionsError, RacedayError
from raceday.games.derby.odds import exact_odds, format_odds, make_board, pair_name, parse_margin
from raceday.games.derby.rules import POSTS, DerbyOptions, horse_name
from raceday.games.derby.session import MAX_PLAYERS, EveningOptions
from raceday.store.names import MAX_SESSION_NAME
from raceday.terminal import common
from raceday.terminal.options import GIVEN, GivenOptions, game_options

if TYPE_CHECKING:
    from collections.abc import Callable

    from raceday.games.derby.session import Session
    from raceday.store.sessions import SessionStore
    from raceday.terminal.surface import Surface

# Only what `derby odds` needs is imported up front (it must start fast); the party, the
# session store, the sampler and the race commentary are imported by the commands using them.

HELP = "Dice Derby (domi): six dice race five furlongs; bid for horses, bet win and quinella."

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False)

# Documented caps (docs/usage/derby.md): beyond them a typo is likelier than a wish.
MAX_SIMULATIONS = 100_000_000
MAX_COMPUTERS = 20

RaceOptions = GivenOptions[DerbyOptions]  # --fall-rate (the model's)
MarginOpt = Annotated[
    str, typer.Option("--margin", metavar="FRACTION",
                      help="House margin, 0 to 0.5 (0.1 or 1/10): board odds are fair odds "
                      "times (1 - margin), to 0.1.")
]
SimpleOpt = Annotated[
    bool, typer.Option("--simple-odds", help="Round board odds down to easy party numbers.")
]


def _words(lang: str | None) -> Callable[..., str]:
    """Dice Derby's words in the language of ``--lang`` (else the locale's)."""
    from raceday.core.events import Message
    from raceday.present import render

    language = common.resolve_lang(lang)

    def say(key: str, **params: object) -> str:
        return render(Message(f"derby.{key}", params), language)

    return say


@app.command()
@game_options(DerbyOptions)
def odds(
    race: RaceOptions = GIVEN,
    json_out: common.JsonOpt = False,
    margin: MarginOpt = "0.1",
    simple_odds: SimpleOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """Exact win and quinella probabilities, fair odds and the odds board."""
    rate = race.parse().fall_rate
    board_margin = parse_margin(margin)
    exact = exact_odds(rate)
    if json_out:
        common.print_json(exact.to_json())
        return
    from rich.table import Table

    say = _words(lang)
    board = make_board(exact, board_margin, simple=simple_odds)
    win = Table(title=say("odds.win_exact", rate=str(rate)))
    for col in ("post", "horse", "probability", "fair_odds", "board"):
        win.add_column(say(f"column.{col}"), justify="right")
    for h in POSTS:
        p = exact.win[h]
        win.add_row(str(h), horse_name(h), f"{float(p):.6f}", f"{float(1 / p):.2f}",
                    format_odds(board.win[h]))
    quin = Table(title=say("odds.quinella_exact"))
    for col in ("pair", "horses", "probability", "fair_odds", "board"):
        quin.add_column(say(f"column.{col}"), justify="right")
    for pr, p in sorted(exact.quinella.items()):
        quin.add_row(f"{pr[0]}-{pr[1]}", pair_name(pr), f"{float(p):.6f}",
                     f"{float(1 / p):.2f}", format_odds(board.quinella[pr]))
    common.console.print(win)
    common.console.print(quin)


@app.command()
@game_options(DerbyOptions)
def simulate(
    n: Annotated[int, typer.Option(
        "-n", "--races", metavar="N", callback=common.in_range(1, MAX_SIMULATIONS, "races"),
        help=f"Number of races to simulate, 1–{MAX_SIMULATIONS:,}.")] = 100_000,
    seed: common.NumbersSeedOpt = None,
    race: RaceOptions = GIVEN,
    json_out: common.JsonOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """Estimate win and quinella probabilities by simulation, with 95% intervals."""
    import numpy as np

    from raceday.games.derby.fast import simulate_odds

    rate = race.parse().fall_rate
    used = common.fresh_seed(seed)
    rng = np.random.default_rng(used)
    show = n >= common.PROGRESS_THRESHOLD * 50 and not json_out
    from raceday.present import render

    with common.progress_bar(render("tool.progress.simulating", common.resolve_lang(lang)), n,
                             enabled=show) as bar:
        task = bar.task_ids[0]
        sim = simulate_odds(n, rng, rate,
                            progress=lambda done, _total: bar.update(task, completed=done))
    if json_out:
        data = sim.to_json()
        common.print_json({"game": data.pop("game"), "n": data.pop("n"), "seed": used, **data})
        return
    from rich.table import Table

    exact = exact_odds(rate)
    say = _words(lang)
    win = Table(title=say("odds.win_simulated", n=f"{n:,}", rate=str(rate)))
    for col in ("horse", "estimate", "interval", "exact"):
        win.add_column(say(f"column.{col}"), justify="right")
    for h, e in sim.win.items():
        win.add_row(horse_name(h), f"{e.p:.5f}", f"{e.low:.5f}–{e.high:.5f}",
                    f"{float(exact.win[h]):.5f}")
    quin = Table(title=say("odds.quinella_simulated"))
    for col in ("pair", "estimate", "interval", "exact"):
        quin.add_column(say(f"column.{col}"), justify="right")
    for pr, e in sim.quinella.items():
        quin.add_row(pair_name(pr), f"{e.p:.5f}", f"{e.low:.5f}–{e.high:.5f}",
                     f"{float(exact.quinella[pr]):.5f}")
    common.console.print(win)
    common.console.print(quin)
    common.console.print(common.seed_line(used, "numbers", common.resolve_lang(lang)))


@app.command()
@game_options(DerbyOptions)
def watch(
    seed: common.SeedOpt = None,
    race: RaceOptions = GIVEN,
    delay: common.DelayOpt = None,
    lang: common.LangOpt = None,
    plain: common.PlainOpt = False,
) -> None:
    """Run one race furlong by furlong, revealing the dice from the d4 up as a host would."""
    from raceday.games.derby.render import words

    wait = common.default_delay(delay, 0.4)
    options = race.parse()
    used = common.fresh_seed(seed)
    language = common.resolve_lang(lang)
    run_game(watch_loop(options, used, wait, language), title=words("watch.title", language),
             lang=language, plain=plain)


def watch_loop(options: DerbyOptions, seed: int, wait: float, lang: str
               ) -> Callable[[Surface], None]:
    """The loop of `derby watch`: one race of ``options`` drawn from ``seed``, a line for
    each die with ``wait`` seconds between them; the track as the board in full screen."""

    def main(surface: Surface) -> None:
        import numpy as np
        from rich.rule import Rule

        from raceday.core.events import Message
        from raceday.games.derby.game import GAME
        from raceday.games.derby.render import event_lines, track_panel, words

        state = GAME.new_state(options)
        surface.say(Rule(words("watch.title", lang)))
        surface.say(words("watch.posts", lang, posts=[
            Message("derby.post_horse", {"post": p, "horse": horse_name(p)}) for p in POSTS]))
        surface.status(words("watch.status", lang))
        rng = np.random.default_rng(seed)
        to_drop: list[str] = []
        title = words("board.track", lang)
        last: dict[str, int | None] = {}  # the dice of the round just resolved
        while not state.is_terminal():
            if surface.full_screen:
                surface.board(track_panel(state.clone(), title, lang, last_rolls=dict(last)))
            draw = state.sample_chance(rng)
            events = state.apply_action(draw.outcome, draw.detail)
            for e in events:
                if e.kind in ("round", "reroll"):
                    last = dict(e["rolls"])
            for line in event_lines(events, to_drop, lang):
                surface.say(line)
                if surface.full_screen:
                    surface.board(track_panel(state.clone(), title, lang,
                                              last_rolls=dict(last)))
                surface.pause(wait)
        surface.say(common.seed_line(seed, lang=lang))
        surface.status(words("watch.over", lang))

    return main


SaveNameOpt = Annotated[
    str | None,
    typer.Option(
        "--save", metavar="NAME", callback=common.check_session_name_option,
        help=f"Save the new party under NAME (at most {MAX_SESSION_NAME} characters; "
        "default party-1, party-2, ...).",
    ),
]


ResumeOpt = Annotated[str | None, common.resume_option(
    "Go on with the saved party NAME (see --list); NAME may be the path of a "
    "record file of a Dice Derby evening (saved anew under --save NAME).")]


@app.command()
@game_options(EveningOptions)
def play(
    players: common.PlayersOpt = None,
    computers: Annotated[int, typer.Option(
        "--computers", metavar="N",
        callback=common.in_range(0, MAX_COMPUTERS, "computer players"),
        help=f"Computer players to add, 0–{MAX_COMPUTERS} (alternately cautious and bold "
        "bettors).")] = 0,
    resume: ResumeOpt = None,
    save: SaveNameOpt = None,
    list_parties: common.ListOpt = False,
    db: common.DbOpt = None,
    seed: common.SeedOpt = None,
    house_rules: GivenOptions[EveningOptions] = GIVEN,
    delay: common.DelayOpt = None,
    lang: common.LangOpt = None,
    plain: common.PlainOpt = False,
) -> None:
    """A whole party at one terminal: auction, betting, races, standings, awards.

    Saved after every lot and every race; go on with an interrupted party with
    --resume NAME (--list shows the saved ones), or with --resume FILE from the record of
    any Dice Derby evening (`raceday record export`), saved under --save NAME.
    """
    import sys

    from raceday.core.events import Message
    from raceday.core.record import Recorder
    from raceday.games.derby.evening import EveningState
    from raceday.games.derby.party import Party, new_party_name
    from raceday.games.derby.render import computer_seats as named_computers
    from raceday.games.derby.render import words
    from raceday.games.derby.saved import GAME, file_evening, open_party, read_record_file
    from raceday.games.derby.session import Session
    from raceday.store.sessions import ReadOnlyStore, writable_store
    from raceday.terminal.surface import Quit

    language = common.resolve_lang(lang)
    if list_parties:
        _list_parties(ReadOnlyStore(db), language)  # only read: nothing is made
        return
    wait = common.default_delay(delay, 0.3)
    revision: int | None
    recorder: Recorder | None = None
    if resume is not None:
        from_file = _is_record_file(resume, db)
        given_too = [flag for flag, value in (("--players", players),
                                              ("--save", None if from_file else save),
                                              ("--computers", computers or None))
                     if value is not None]
        if given_too:  # a saved party keeps its players, rules and name
            raise OptionsError(f"{', '.join(given_too)} cannot change a saved party; "
                               f"--resume {resume} goes on with the players it was saved "
                               "with")
        state: EveningState | None
        if from_file:  # a record: its moves played through the rules, saved anew
            record = read_record_file(resume)
            state = file_evening(record)
            recorder = Recorder.resuming(record)
            store = writable_store(db)
            name = save or new_party_name(store)
            common.refuse_taken_save(store, GAME, name, "Dice Derby", resume_command(name, db))
            recorder.tags["Name"] = name
            revision = None
        else:
            store = writable_store(db)  # read-only: refused before a bid or ticket is typed
            saved_party = open_party(store, resume)
            evening = saved_party.state()
            assert isinstance(evening, EveningState)
            state, revision = evening, saved_party.revision
            recorder = Recorder.resuming(saved_party.record)
            name = resume
        config = None
        computer_seats: list[tuple[str, str]] = []
    else:
        # Every option is checked before the database is opened or written.
        config = house_rules.parse(seed=common.fresh_seed(seed))
        computer_seats = named_computers(computers, language)
        roster = None if players is None else [*_roster(players), *computer_seats]
        if roster is not None and len(roster) > MAX_PLAYERS:  # said as the options say it
            raise OptionsError(f"--players: at most {MAX_PLAYERS} players with the "
                               f"--computers, got {len(roster)}")
        given = None if roster is None else Session.new(config, roster)
        store = writable_store(db)  # read-only: refused before names are asked
        name = save or new_party_name(store)
        common.refuse_taken_save(store, GAME, name, "Dice Derby", resume_command(name, db))
        state = None if given is None else EveningState.from_session(given)
        revision = None
    resume_line = resume_command(name, db)
    ended: list[str] = []  # how the party stopped before its end: "input" or "quit"

    def main(surface: Surface) -> None:
        nonlocal state
        say = surface.say
        try:
            if resume is not None:
                assert state is not None
                say(words("party.resuming", language, name=name, race=state.ledger.race,
                          races=state.options.races,
                          phase=Message(f"derby.phase.{state.phase}")))
            else:
                assert config is not None
                if state is None:
                    state = EveningState.from_session(
                        _ask_names(surface, config, computer_seats, language))
                session = state.ledger
                count = len(session.players)
                say(words("party.new", language, name=name, n=count, races=config.races,
                          seed=session.config.seed))
                if count < len(POSTS):
                    say(words("party.fewer", language))
            Party(state, store, name, surface, revision, delay=wait,
                  wait_after_race=sys.stdin.isatty(), recorder=recorder).run()
        except EOFError:
            ended.append("input")
        except Quit:
            ended.append("quit")

    try:
        run_game(main, title=words("title", language), lang=language, plain=plain)
    except KeyboardInterrupt:
        with common.on_interrupt(_kept(store, name), resume_line):  # what the database holds
            raise
    if ended:
        # one unbroken line, whatever the width: the command must paste back whole
        line = common.saved_resume_line(name, resume_line, language,
                                        input_ended=ended[0] == "input")
        common.console.print(escape(line), soft_wrap=True)


def _ask_names(surface: Surface, rules: EveningOptions, seats: list[tuple[str, str]],
               lang: str) -> Session:
    """Ask the players' names until they make a party (with the computer ``seats``)."""
    import sys

    from raceday.games.derby.render import words
    from raceday.games.derby.session import Session
    from raceday.present import render
    from raceday.terminal.surface import UNDO, Prompt, refusal_line

    prompt = Prompt(words("party.names_prompt", lang) + " ",
                    help=words("party.names_help", lang))
    echo = not surface.full_screen and not sys.stdin.isatty()
    while True:
        answer = surface.ask(prompt)
        if echo:
            surface.say(answer)
        if answer == UNDO:
            surface.say(refusal_line(words("party.undo_names", lang), lang))
            continue
        try:
            return Session.new(rules, [*_roster([answer]), *seats])
        except OptionsError as exc:  # in the players' language where the rules word it
            said = render(exc.message, lang) if exc.message is not None else str(exc)
            surface.say(refusal_line(said, lang))


def _is_record_file(resume: str, db: Path | None) -> bool:
    """Whether ``--resume`` names a record file rather than a saved party: a file there
    that is no party's name in the database (a saved party of that name comes first)."""
    from raceday.games.derby.saved import GAME
    from raceday.store.sessions import ReadOnlyStore

    if not Path(resume).is_file():
        return False
    try:
        return not ReadOnlyStore(db).exists(GAME, resume)
    except RacedayError:
        return True  # no database to hold a party of that name


def _list_parties(store: SessionStore, lang: str) -> None:
    """One saved party a line: its name, where it stands and its players."""
    from raceday.core.events import Message
    from raceday.games.derby.render import words
    from raceday.games.derby.saved import GAME, saved_evening

    names = store.names(GAME)
    if not names:
        common.console.print(escape(words("party.list_none", lang, path=str(store.path))),
                             soft_wrap=True)
        return
    common.console.print(escape(words("party.list_head", lang, path=str(store.path))),
                         soft_wrap=True)
    for name in names:
        try:
            ledger = saved_evening(store, name).ledger
        except RacedayError as exc:
            common.console.print(escape(f"  {name}  ({exc})"), soft_wrap=True)
            continue
        line = words("party.list_line", lang, name=name, race=ledger.race,
                     races=ledger.config.races, phase=Message(f"derby.phase.{ledger.phase}"),
                     players=[p.name for p in ledger.players])
        common.console.print(escape(line), soft_wrap=True)


def run_game(main: Callable[[Surface], int | None], *, title: str, lang: str,
             plain: bool) -> int:
    """Start a play or watch loop through the terminal kit's one entry point (full screen
    at a real terminal, else line by line)."""
    from raceday.terminal.tui import run_game as kit_run_game

    return kit_run_game(main, title=title, lang=lang, plain=plain, console=common.console)


def resume_command(name: str, db: Path | None) -> str:
    """The exact command that continues a party (with --db when one was given)."""
    return common.resume_command("derby", "play", name, db)


def _kept(store: SessionStore, name: str) -> str:
    """What the database holds for a party, read back from it (not from memory)."""
    from raceday.games.derby.saved import saved_evening

    try:
        saved = saved_evening(store, name).ledger
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
