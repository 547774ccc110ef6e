"""`raceday twindash ...`: play Twin Dice Dash in the terminal, or watch two computers.

Built on raceday's terminal kit: the loop (:meth:`Table.main`) is a function of a
:class:`~raceday.terminal.surface.Surface` that :func:`raceday.terminal.tui.run_command`
runs in full screen at a terminal and line by line with ``--plain`` or in a pipe, as the
built-in games' loops are. Every line shown is a message of this game's tables, rendered
in English or Japanese; a bet is shown by :meth:`TwinDashState.action_message`, never
decoded here; the board is :mod:`raceday_twindash.board`, drawn from the state's frame.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import typer
from rich.text import Text

from raceday.core.agents import Agent
from raceday.core.digits import ascii_int
from raceday.core.errors import OptionsError
from raceday.core.events import Event, Message
from raceday.present import LANGUAGES, describe_action, describe_event, describe_outcome, render
from raceday.terminal.common import (
    DIGITS_ONLY,
    DelayOpt,
    JsonOpt,
    PlainOpt,
    SeedOpt,
    default_delay,
    foreign_digits,
    fresh_seed,
    print_json,
)
from raceday.terminal.options import GIVEN, GivenOptions, game_options
from raceday.terminal.surface import Choice, Prompt, Surface
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


class Table:
    """One game in the terminal: the state, the language, the seats, the dice. Its loop
    (:meth:`main`) talks only to a :class:`~raceday.terminal.surface.Surface`, so the same
    code runs in full screen and line by line (``--plain``, a pipe)."""

    def __init__(self, options: TwinDashOptions, seats: list[str], seed: int, lang: str,
                 delay: float) -> None:
        self.state: TwinDashState = GAME.new_state(options)
        self.lang = lang
        self.delay = delay
        self.rng = np.random.default_rng(seed)
        self.agents: dict[int, Agent] = {p: make_agent(seat) for p, seat in enumerate(seats)
                                         if seat != HUMAN}
        self.humans = [p for p, seat in enumerate(seats) if seat == HUMAN]

    def say(self, message: Message | str, **params: Any) -> str:
        return render(message, self.lang, GAME_NAME, params)

    def show_events(self, surface: Surface, events: list[Event]) -> None:
        for event in events:
            surface.say(Text(describe_event(GAME_NAME, event, self.lang)))
        surface.pause(self.delay)

    def show_board(self, surface: Surface, status: str | None = None) -> None:
        """The board now; ``status`` is the full screen's status bar (the board itself
        says the round, so line mode prints no second line for it)."""
        chances = None if self.state.is_terminal() else self.state.further_chances()
        surface.board(board(self.state.frame(), self.lang, chances),
                      status if surface.full_screen else None)

    def ask(self, surface: Surface, player: int) -> int:
        """The bet of a person at the keyboard: a number from the menu of legal bets (full
        screen lists them to pick; line mode prints the menu first)."""
        actions = self.state.legal_actions_for(player)
        labels = [describe_action(self.state, action, self.lang) for action in actions]
        if not surface.full_screen:
            for number, label in enumerate(labels, start=1):
                surface.say(Text(f"  {number}. {label}"))
        secret = len(self.humans) > 1  # another player is at the same keyboard
        prompt = Prompt(self.say("ui.choose", name=runner_name(player)) + " ",
                        choices=[Choice(str(n), f"{n}. {label}")
                                 for n, label in enumerate(labels, start=1)],
                        secret=secret, history="twindash-bet")
        if surface.full_screen:  # line mode asks with the same words at the cursor
            surface.status(self.say("ui.choose", name=runner_name(player)))
        while True:
            try:
                text = surface.ask(prompt)
            except EOFError:
                raise typer.Abort() from None
            if foreign_digits(text):
                surface.say(Text(DIGITS_ONLY))
                continue
            chosen = ascii_int(text)
            if chosen is not None and 1 <= chosen <= len(actions):
                return actions[chosen - 1]
            surface.say(Text(self.say("ui.not_a_choice")))

    def round(self, surface: Surface) -> None:
        """Every bet, sealed in seat order (none shown to another player), then the dice."""
        self.show_board(surface, self.say("ui.round", round=self.state.round,
                                          rounds=self.state.course.rounds))
        for player in self.state.acting_players():
            if player in self.agents:
                assert self.state.current_player() == player  # bets are asked in seat order
                action = self.agents[player].choose(self.state, self.rng)
            else:
                if len(self.humans) > 1:
                    surface.say(Text(self.say("ui.hand_over", name=runner_name(player))))
                action = self.ask(surface, player)
            self.show_events(surface, self.state.apply_action_for(player, action))
        draw = self.state.sample_chance(self.rng)
        self.show_events(surface, self.state.apply_action(draw.outcome, draw.detail))

    def main(self, surface: Surface) -> int:
        """The whole race on ``surface``; its result is the last line of the log."""
        if len(self.humans) == 1:
            surface.say(Text(self.say("ui.you_are", name=runner_name(self.humans[0]))))
        while not self.state.is_terminal():
            self.round(surface)
        result = describe_outcome(GAME_NAME, self.state.outcome(), self.lang)
        self.show_board(surface, result)
        surface.say(Text(result, style="bold"))
        return 0


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
) -> None:
    """Play against the computer (--blue bookie) or a second person (--blue human); with
    --players 3 or 4 the computer runs Green and Yellow."""
    options = course.parse()
    table = Table(options, seats(options, red, blue), fresh_seed(seed), lang,
                  default_delay(delay, 0.0))
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
    table = Table(options, seats(options, red, blue), fresh_seed(seed), lang,
                  0.0 if json_out else default_delay(delay))
    if json_out:
        record = GAME.play(options, [make_agent(s) for s in seats(options, red, blue)],
                           table.rng)
        result = record.final_state.outcome()
        print_json({"termination": result.termination, "winner": result.winner,
                    "scores": {str(k): v for k, v in result.scores.items()},
                    "events": [e.to_dict() for e in record.events]})
        return
    run_command(table.main, title=GAME.title, lang=lang, plain=plain)
