"""`raceday twindash ...`: play Twin Dice Dash in the terminal, or watch two computers.

Built on raceday's terminal kit: the loop (:meth:`Table.main`) is a function of a
:class:`~raceday.terminal.surface.Surface` that :func:`raceday.terminal.tui.run_command`
runs in full screen at a terminal and line by line with ``--plain`` or in a pipe, as the
built-in games' loops are. Every line shown is a message of this game's tables, rendered
in English or Japanese; a bet is shown by :meth:`TwinDashState.action_message`, never
decoded here; the board is :mod:`raceday_twindash.board`, drawn from the state's frame.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from raceday.core.agents import Agent
from raceday.core.errors import OptionsError
from raceday.present import LANGUAGES, render
from raceday.store.sessions import SessionStore, writable_store
from raceday.terminal.common import (
    DbOpt,
    DelayOpt,
    JsonOpt,
    PlainOpt,
    SaveOpt,
    SeedOpt,
    default_delay,
    fresh_seed,
    print_json,
)
from raceday.terminal.options import GIVEN, GivenOptions, game_options
from raceday.terminal.session import GameSession
from raceday.terminal.surface import Board, Surface
from raceday.terminal.table import TurnTable, seats_tag
from raceday.terminal.tui import run_command
from raceday_twindash.agents import LEVELS, make_agent
from raceday_twindash.board import board
from raceday_twindash.game import GAME, TwinDashOptions
from raceday_twindash.rules import GAME_NAME, TwinDashState, runner_name

HELP = ("Twin Dice Dash: a dice race for two to four players with sealed side bets (a game of "
        "its own package).")
HUMAN = "human"
SEATS = (HUMAN, *LEVELS)

app = typer.Typer(help=HELP, no_args_is_help=True, pretty_exceptions_enable=False,
                  add_completion=False)


def _check_seat(value: str) -> str:
    if value not in SEATS:
        raise typer.BadParameter(f"must be one of {', '.join(SEATS)}, got {value!r}")
    return value


def _check_lang(value: str) -> str:
    if value not in LANGUAGES:
        raise typer.BadParameter(f"must be one of {', '.join(LANGUAGES)}, got {value!r}")
    return value


CourseOptions = GivenOptions[TwinDashOptions]
LangOpt = Annotated[str, typer.Option("--lang", callback=_check_lang,
                                      help="Language of the commentary: en or ja.")]


def _seat_option(flag: str, runner: str) -> Any:
    return typer.Option(flag, callback=_check_seat,
                        help=f"Who runs {runner}: {', '.join(SEATS)}.")


class Table(TurnTable):
    """Twin Dice Dash on the terminal kit (:class:`~raceday.terminal.table.TurnTable`): the
    kit runs the bets (sealed in seat order), the dice, the computers, undo, the record and
    the save; this declares the game's own words, its computers and its board."""

    game = GAME
    levels = LEVELS
    history = "twindash-bet"
    choose_key = "ui.choose"
    hand_over_key = "ui.hand_over"
    not_a_choice_key = "ui.not_a_choice"
    you_are_key = "ui.you_are"

    def make_agent(self, level: str) -> Agent:
        return make_agent(level)

    def seat_name(self, player: int) -> Any:
        return runner_name(player)  # a message, worded in the table's language

    def board(self, surface: Surface) -> Board:
        state: TwinDashState = self.state
        chances = None if state.is_terminal() else state.further_chances()
        return board(state.frame(), self.lang, chances)

    def turn_status(self) -> str:
        return self.say("ui.round", round=self.state.round, rounds=self.state.course.rounds)


def new_table(options: TwinDashOptions, seats: list[str], seed: int, lang: str,
              delay: float, name: str | None = None, store: SessionStore | None = None
              ) -> Table:
    """A new game on the kit (its record saved as ``name`` in ``store`` when given)."""
    names = [render(runner_name(p), "en", GAME_NAME) for p in range(len(seats))]
    session = GameSession.new(GAME_NAME, options.to_json(), seed=seed, store=store, name=name,
                              seats=seats_tag(names, seats))
    return Table(session, seats, lang, delay)


def seats(options: TwinDashOptions, red: str, blue: str) -> list[str]:
    """Who runs each runner: Red and Blue as chosen, any further runner the computer."""
    return [red, blue, *["bookie"] * (options.players - 2)]


@app.command("play")
@game_options(TwinDashOptions)
def play_command(
    red: Annotated[str, _seat_option("--red", "Red")] = HUMAN,
    blue: Annotated[str, _seat_option("--blue", "Blue")] = "bookie",
    course: CourseOptions = GIVEN,
    seed: SeedOpt = None,
    lang: LangOpt = "en",
    delay: DelayOpt = None,
    plain: PlainOpt = False,
    save: SaveOpt = None,
    db: DbOpt = None,
    resume: Annotated[Path | None, typer.Option(
        "--resume", metavar="FILE", help="Go on with the game of a record FILE "
        "(raceday record export; docs/record-format.md).")] = None,
) -> None:
    """Play against the computer (--blue bookie) or a second person (--blue human); with
    --players 3 or 4 the computer runs Green and Yellow. --save NAME keeps the game's record
    as it is played; --resume FILE goes on from a record."""
    store = writable_store(db) if save is not None else None
    if resume is not None:
        table = Table.resumed(resume, lang, default_delay(delay, 0.0), store=store, name=save)
    else:
        options = course.parse()
        table = new_table(options, seats(options, red, blue), fresh_seed(seed), lang,
                          default_delay(delay, 0.0), save, store)
    run_command(table.main, title=GAME.title, lang=lang, plain=plain)


@app.command("watch")
@game_options(TwinDashOptions)
def watch_command(
    red: Annotated[str, _seat_option("--red", "Red")] = "bookie",
    blue: Annotated[str, _seat_option("--blue", "Blue")] = "random",
    course: CourseOptions = GIVEN,
    seed: SeedOpt = None,
    lang: LangOpt = "en",
    delay: DelayOpt = None,
    json_out: JsonOpt = False,
    plain: PlainOpt = False,
) -> None:
    """Watch computer players race (the same seed gives the same race)."""
    if HUMAN in (red, blue):
        raise OptionsError("watch is for computer players; use 'raceday twindash play' to "
                           "take a seat")
    options = course.parse()
    table = new_table(options, seats(options, red, blue), fresh_seed(seed), lang,
                      0.0 if json_out else default_delay(delay))
    if json_out:
        record = GAME.play(options, [make_agent(s) for s in seats(options, red, blue)],
                           table.session.rng)
        result = record.final_state.outcome()
        print_json({"termination": result.termination, "winner": result.winner,
                    "scores": {str(k): v for k, v in result.scores.items()},
                    "events": [e.to_dict() for e in record.events]})
        return
    run_command(table.main, title=GAME.title, lang=lang, plain=plain)
