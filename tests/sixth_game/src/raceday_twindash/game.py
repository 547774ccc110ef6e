"""Twin Dice Dash as a :class:`raceday.core.game.Game`: options, players, the harness."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field

from raceday.core.game import Game, GameOptions
from raceday_twindash.rules import GAME_NAME, MAX_PLAYERS, PLAYERS, Course, TwinDashState


class RaceOptions(GameOptions):
    """The race a host chooses: the track, the round limit, the purses and the top stake
    (a browser room is created from these; its seats say how many play)."""

    game_title: ClassVar[str] = "Twin Dice Dash"

    length: int = Field(20, ge=6, le=60, description="Squares to the finish line.")
    rounds: int = Field(8, ge=1, le=30, description="Rounds at most; the race ends sooner "
                        "when a runner reaches the line.")
    chips: int = Field(5, ge=0, le=50, description="Chips each player starts with.")
    max_stake: int = Field(3, ge=1, le=5, description="The most chips one bet may stake.")
    prize: int = Field(3, ge=0, le=20, description="Chips for the runner ahead at the end.")


class TwinDashOptions(RaceOptions):
    """A game of Twin Dice Dash: the race and how many play (each runs a runner)."""

    players: int = Field(PLAYERS, ge=PLAYERS, le=MAX_PLAYERS,
                         description="Players, each running a runner of their own.")

    def course(self) -> Course:
        """The fixed numbers these options describe."""
        return Course(length=self.length, rounds=self.rounds, chips=self.chips,
                      max_stake=self.max_stake, prize=self.prize, players=self.players)


class TwinDashGame(Game[TwinDashOptions, TwinDashState]):
    """Twin Dice Dash: a runner and a die each, sealed side bets on who moves furthest."""

    name = GAME_NAME
    title = "Twin Dice Dash"
    designer = "the raceday project (a test game)"
    Options = TwinDashOptions
    state_class = TwinDashState  # restored by its from_json
    players = (PLAYERS, MAX_PLAYERS)
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"length": 6, "rounds": 2, "chips": 0},
        {"length": 60, "rounds": 30, "chips": 50, "max_stake": 5, "prize": 20},
        {"prize": 0},
        {"players": 3, "rounds": 4},
        {"players": MAX_PLAYERS, "length": 6, "rounds": 3, "chips": 1},
    )
    harness_games = 200

    def _new_state(self, options: TwinDashOptions, seed: int | None) -> TwinDashState:
        return TwinDashState(options.course())  # the rules take their fixed numbers

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        # a sealed bet a player and one roll a round
        checked = self.options(options)
        return (checked.players + 1) * checked.rounds


GAME = TwinDashGame()
