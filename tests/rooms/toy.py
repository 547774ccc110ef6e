"""Two toy games of the protocol for the room kit's tests.

*Dash* (turn-based): two runners on a track of ``target`` squares; each turn a die of three
faces is thrown (a chance node), then the runner to move goes the thrown number or stays.
A throw that would overshoot the target leaves only "stay" (a forced move). Exactly on the
target wins; after ``turns`` turns the game is a draw.

*Guess* (a party game): every player seals a guess of the coming throw (1 to 3) in any
order; then the die is thrown; those who guessed it win.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, Self

import numpy as np
from pydantic import Field

from raceday.core.errors import SaveFormatError
from raceday.core.events import Event, Message
from raceday.core.game import Game, GameOptions
from raceday.core.protocol import CHANCE, TERMINAL, Action, Outcome, State, Termination

STAY, GO = 0, 1
THIRD = Fraction(1, 3)


class DashOptions(GameOptions):
    game_title: ClassVar[str] = "Dash"
    target: int = Field(6, ge=2, le=30)
    turns: int = Field(40, ge=1, le=200)


class DashState(State):
    game_name: ClassVar[str] = "dash"

    def __init__(self, options: DashOptions) -> None:
        self.options = options
        self.at = [0, 0]
        self.side = 0
        self.thrown: int | None = None
        self.turn = 0

    @property
    def num_players(self) -> int:
        return 2

    def _winner(self) -> int | None:
        return next((p for p in (0, 1) if self.at[p] == self.options.target), None)

    def current_player(self) -> int:
        if self._winner() is not None or self.turn >= self.options.turns:
            return TERMINAL
        return CHANCE if self.thrown is None else self.side

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        return [(1, THIRD), (2, THIRD), (3, THIRD)]

    def legal_actions(self) -> list[Action]:
        if self.current_player() < 0 or self.thrown is None:
            return []
        fits = self.at[self.side] + self.thrown <= self.options.target
        return [STAY, GO] if fits else [STAY]

    def action_to_string(self, action: Action) -> str:
        if self.is_chance_node():
            return f"throw {action}"
        return "go" if action == GO else "stay"

    def action_message(self, action: Action) -> Message:
        return Message("dash.choice", {"go": action == GO, "squares": self.thrown})

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        if self.thrown is None:
            self.thrown = action
            return [Event("throw", {"player": self.side, "value": action})]
        moved = self.thrown if action == GO else 0
        self.at[self.side] += moved
        event = Event("move", {"player": self.side, "squares": moved})
        self.side, self.thrown, self.turn = 1 - self.side, None, self.turn + 1
        return [event]

    def outcome(self) -> Outcome:
        self.require_over()
        winner = self._winner()
        if winner is None:
            return Outcome((0, 1), None, winning_players=(0, 1), termination=Termination.DRAW)
        return Outcome((winner, 1 - winner), winner, winning_players=(winner,),
                       termination=Termination.FINISH)

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options.to_json(), "at": list(self.at), "side": self.side,
                "thrown": self.thrown, "turn": self.turn}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            state = cls(DashOptions.parse(data["options"]))
            state.at = [int(x) for x in data["at"]]
            state.side, state.turn = int(data["side"]), int(data["turn"])
            state.thrown = None if data["thrown"] is None else int(data["thrown"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"bad dash state: {exc}") from None
        return state


class DashGame(Game[DashOptions, DashState]):
    name: ClassVar[str] = "dash"
    title: ClassVar[str] = "Dash"
    designer: ClassVar[str] = "the tests"
    Options = DashOptions
    players: ClassVar[tuple[int, int]] = (2, 2)

    def _new_state(self, options: DashOptions, seed: int | None) -> DashState:
        return DashState(options)

    def state_from_json(self, data: Mapping[str, Any]) -> DashState:
        return DashState.from_json(data)

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        return 2 * self.options(options).turns


class Runner:
    """A computer runner: always goes when it fits."""

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        return max(state.legal_actions())


class GuessOptions(GameOptions):
    game_title: ClassVar[str] = "Guess"
    names: list[str] = Field(min_length=2, max_length=6)
    rounds: int = Field(1, ge=1, le=5)


class GuessState(State):
    game_name: ClassVar[str] = "guess"

    def __init__(self, options: GuessOptions) -> None:
        self.options = options
        self.guesses: list[int | None] = [None] * len(options.names)
        self.thrown: int | None = None

    @property
    def num_players(self) -> int:
        return len(self.options.names)

    def acting_players(self) -> list[int]:
        if self.thrown is not None:
            return []
        return [p for p, g in enumerate(self.guesses) if g is None]

    def current_player(self) -> int:
        if self.thrown is not None:
            return TERMINAL
        waiting = self.acting_players()
        return waiting[0] if waiting else CHANCE

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        return [(1, THIRD), (2, THIRD), (3, THIRD)]

    def legal_actions(self) -> list[Action]:
        return [1, 2, 3] if self.acting_players() else []

    def legal_actions_for(self, player: int) -> list[Action]:
        return [1, 2, 3] if player in self.acting_players() else []

    def action_to_string(self, action: Action) -> str:
        return f"guess {action}"

    def _apply_for(self, player: int, action: Action) -> list[Event]:
        self.guesses[player] = action
        return [Event("sealed", {"player": player})]  # public: who guessed, not what

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        if self.is_chance_node():
            self.thrown = action
            return [Event("thrown", {"value": action})]
        return self._apply_for(self.current_player(), action)

    def observation(self, player: int | None) -> dict[str, Any]:
        public: dict[str, Any] = {"names": list(self.options.names), "thrown": self.thrown,
                                  "sealed": [g is not None for g in self.guesses]}
        if self.thrown is not None:
            public["guesses"] = list(self.guesses)
        elif player is not None:
            public["mine"] = self.guesses[player]
        return public

    def outcome(self) -> Outcome:
        self.require_over()
        winners = tuple(p for p, g in enumerate(self.guesses) if g == self.thrown)
        ranking = winners + tuple(p for p in range(self.num_players) if p not in winners)
        return Outcome(ranking, winners[0] if len(winners) == 1 else None,
                       winning_players=winners, termination="guessed")

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options.to_json(), "guesses": list(self.guesses),
                "thrown": self.thrown}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        state = cls(GuessOptions.parse(data["options"]))
        state.guesses = list(data["guesses"])
        state.thrown = data["thrown"]
        return state


class GuessGame(Game[GuessOptions, GuessState]):
    name: ClassVar[str] = "guess"
    title: ClassVar[str] = "Guess"
    designer: ClassVar[str] = "the tests"
    Options = GuessOptions
    players: ClassVar[tuple[int, int]] = (2, 6)

    def _new_state(self, options: GuessOptions, seed: int | None) -> GuessState:
        return GuessState(options)

    def state_from_json(self, data: Mapping[str, Any]) -> GuessState:
        return GuessState.from_json(data)

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        return 8


DASH = DashGame()
GUESS = GuessGame()
