"""`raceday twindash ...`: play Twin Dice Dash in the terminal, or watch two computers.

Built on raceday's terminal kit (:mod:`raceday.terminal.common`) and its presentation
layer: every line shown is a message of this game's tables, rendered in English or
Japanese; a bet is shown by :meth:`TwinDashState.action_message`, never decoded here.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import typer
from rich.markup import escape

from raceday.core.agents import Agent
from raceday.core.digits import ascii_int
from raceday.core.errors import OptionsError
from raceday.core.events import Event, Message
from raceday.present import LANGUAGES, describe_action, describe_event, describe_outcome, render
from raceday.terminal.common import (
    DIGITS_ONLY,
    DelayOpt,
    JsonOpt,
    SeedOpt,
    console,
    default_delay,
    foreign_digits,
    fresh_seed,
    pause,
    print_json,
    read_line,
    read_secret,
)
from raceday.terminal.options import GIVEN, GivenOptions, game_options
from raceday_twindash.agents import LEVELS, make_agent
from raceday_twindash.game import GAME, TwinDashOptions
from raceday_twindash.rules import GAME_NAME, PLAYERS, TwinDashState, runner_name

HELP = "Twin Dice Dash: a two-player dice race with sealed side bets (a game of its own package)."
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
    """What one game in the terminal needs: the state, the language, the seats, the dice."""

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

    def show(self, text: str) -> None:
        console.print(escape(text), soft_wrap=True)

    def show_events(self, events: list[Event]) -> None:
        for event in events:
            self.show(describe_event(GAME_NAME, event, self.lang))
        pause(self.delay)

    def show_board(self) -> None:
        frame = self.state.frame()
        red, blue = frame["runners"]
        self.show(self.say("ui.board", round=frame["round"], rounds=frame["rounds"],
                           name0=red["name"], square0=red["square"], chips0=red["chips"],
                           name1=blue["name"], square1=blue["square"], chips1=blue["chips"],
                           length=frame["length"]))
        p0, p1, tie = self.state.further_chances()
        self.show(self.say("ui.chance", name0=runner_name(0), name1=runner_name(1),
                           p0=str(p0), p1=str(p1), tie=str(tie)))

    def ask(self, player: int) -> int:
        """The bet of a person at the keyboard: a number from the menu of legal bets."""
        actions = self.state.legal_actions_for(player)
        for number, action in enumerate(actions, start=1):
            self.show(f"  {number}. {describe_action(self.state, action, self.lang)}")
        prompt = self.say("ui.choose", name=runner_name(player)) + " "
        secret = len(self.humans) == PLAYERS  # the other player is at the same keyboard
        while True:
            try:
                text = (read_secret if secret else read_line)(escape(prompt))
            except EOFError:
                raise typer.Abort() from None
            if foreign_digits(text):
                self.show(DIGITS_ONLY)
                continue
            chosen = ascii_int(text)
            if chosen is not None and 1 <= chosen <= len(actions):
                return actions[chosen - 1]
            self.show(self.say("ui.not_a_choice"))

    def round(self) -> None:
        """Both bets, sealed in seat order (neither shown to the other), then the dice."""
        self.show_board()
        for player in self.state.acting_players():
            if player in self.agents:
                assert self.state.current_player() == player  # bets are asked in seat order
                action = self.agents[player].choose(self.state, self.rng)
            else:
                if len(self.humans) == PLAYERS:
                    self.show(self.say("ui.hand_over", name=runner_name(player)))
                action = self.ask(player)
            self.show_events(self.state.apply_action_for(player, action))
        draw = self.state.sample_chance(self.rng)
        self.show_events(self.state.apply_action(draw.outcome, draw.detail))

    def play(self) -> None:
        for player in self.humans:
            if len(self.humans) == 1:
                self.show(self.say("ui.you_are", name=runner_name(player)))
        while not self.state.is_terminal():
            self.round()
        self.show(describe_outcome(GAME_NAME, self.state.outcome(), self.lang))


@app.command("play")
@game_options(TwinDashOptions)
def play_command(
    red: Annotated[str, _seat_option("--red", "Red")] = HUMAN,
    blue: Annotated[str, _seat_option("--blue", "Blue")] = "bookie",
    course: CourseOptions = GIVEN,
    seed: SeedOpt = None,
    lang: LangOpt = "en",
    delay: DelayOpt = None,
) -> None:
    """Play against the computer (--blue bookie) or a second person (--blue human)."""
    options = course.parse()
    Table(options, [red, blue], fresh_seed(seed), lang, default_delay(delay, 0.0)).play()


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
) -> None:
    """Watch two computer players race (the same seed gives the same race)."""
    if HUMAN in (red, blue):
        raise OptionsError("watch is for computer players; use 'raceday twindash play' to "
                           "take a seat")
    options = course.parse()
    table = Table(options, [red, blue], fresh_seed(seed), lang,
                  0.0 if json_out else default_delay(delay))
    if json_out:
        record = GAME.play(options, [make_agent(red), make_agent(blue)], table.rng)
        result = record.final_state.outcome()
        print_json({"termination": result.termination, "winner": result.winner,
                    "scores": {str(k): v for k, v in result.scores.items()},
                    "events": [e.to_dict() for e in record.events]})
        return
    table.play()
