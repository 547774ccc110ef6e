"""Twin Dice Dash for the research frameworks (OpenSpiel, PettingZoo, Gymnasium), on
raceday's research kit.

The parameters are the options model's fields with its defaults, checked by the model
(``options_model``: one source); the actions and chance outcomes are the engine's own
numbers (already dense); every tensor and text is read from
:meth:`TwinDashState.observation`, so a player's view never holds the rival's sealed bet.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from raceday.core.protocol import State
from raceday.research import Adapter, ParamValue, Shape
from raceday_twindash.game import GAME, TwinDashOptions
from raceday_twindash.rules import FACES


def obs_size(players: int) -> int:
    """A runner's square, purse, sealed and slipstream flags and the player's own stake
    share on it (5 a runner), the round (1) and the phase bet/roll/over (3)."""
    return 5 * players + 4



class TwinDashAdapter(Adapter):
    name = GAME.name
    title = GAME.title
    player_range = GAME.players
    perfect_information = False  # the bets are sealed
    utility = "constant_sum"  # the winner 1, or 1/2 each for a draw
    utility_sum = 1.0
    options_model = TwinDashOptions  # the kit's parameters: the model's fields, checked
    description = ("Two to four players seal a side bet each round, then every runner rolls "
                   "(one chance node of 6^players outcomes). Actions: pass, or back a runner "
                   "for a stake.")

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        options = GAME.options(self.game_options(params))
        count = options.players
        return Shape(players=count, num_actions=1 + count * options.max_stake,
                     max_chance=FACES ** count, obs_size=obs_size(count),
                     max_length=GAME.max_steps(options), min_utility=0.0, max_utility=1.0)

    @staticmethod
    def _view(state: State, player: int) -> dict[str, Any]:
        """What ``player`` sees (a negative player: the public view)."""
        return state.observation(player if player >= 0 else None)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        view = self._view(state, player)
        course = view["course"]
        richest = course["chips"] + course["rounds"] * course["max_stake"] + course["prize"]
        n = course["players"]
        out[0:n] = np.array(view["squares"]) / course["length"]
        out[n:2 * n] = np.array(view["chips"]) / max(1, richest)
        out[2 * n:3 * n] = np.array(view["sealed"], dtype=np.float64)
        for runner in view["slipstream"]:
            out[3 * n + runner] = 1.0
        bet = view.get("my_bet")
        if bet is not None and bet["stake"] > 0:
            out[4 * n + bet["runner"]] = bet["stake"] / course["max_stake"]
        out[5 * n] = view["round"] / course["rounds"]
        out[5 * n + 1 + ("bet", "roll", "over").index(view["phase"])] = 1.0

    def observation_string(self, state: State, player: int) -> str:
        return json.dumps(self._view(state, player), sort_keys=True)

    def private_string(self, state: State, player: int) -> str:
        return json.dumps(self._view(state, player).get("my_bet"), sort_keys=True)


ADAPTER = TwinDashAdapter()
