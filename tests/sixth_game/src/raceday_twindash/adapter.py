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
from raceday_twindash.rules import FACES, PLAYERS

OBS_SIZE = 15
"""Squares (2), purses (2), round (1), who has sealed (2), slipstream none/Red/Blue (3),
phase bet/roll/over (3), and the player's own bet as its stake share on Red or Blue (2)."""


class TwinDashAdapter(Adapter):
    name = GAME.name
    title = GAME.title
    player_range = GAME.players
    perfect_information = False  # the bets are sealed
    utility = "constant_sum"  # the winner 1, or 1/2 each for a draw
    utility_sum = 1.0
    options_model = TwinDashOptions  # the kit's parameters: the model's fields, checked
    description = ("Two players seal a side bet each round, then both runners roll (one "
                   "chance node of 36 outcomes). Actions: pass, or back a runner for a stake.")

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        options = GAME.options(self.game_options(params))
        return Shape(players=PLAYERS, num_actions=1 + PLAYERS * options.max_stake,
                     max_chance=FACES * FACES, obs_size=OBS_SIZE,
                     max_length=GAME.max_steps(options), min_utility=0.0, max_utility=1.0)

    @staticmethod
    def _view(state: State, player: int) -> dict[str, Any]:
        """What ``player`` sees (a negative player: the public view)."""
        return state.observation(player if player >= 0 else None)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        view = self._view(state, player)
        course = view["course"]
        richest = course["chips"] + course["rounds"] * course["max_stake"] + course["prize"]
        out[0:2] = np.array(view["squares"]) / course["length"]
        out[2:4] = np.array(view["chips"]) / max(1, richest)
        out[4] = view["round"] / course["rounds"]
        out[5:7] = np.array(view["sealed"], dtype=np.float64)
        out[7 + (0 if view["slipstream"] is None else 1 + view["slipstream"])] = 1.0
        out[10 + ("bet", "roll", "over").index(view["phase"])] = 1.0
        bet = view.get("my_bet")
        if bet is not None and bet["stake"] > 0:
            out[13 + bet["runner"]] = bet["stake"] / course["max_stake"]

    def observation_string(self, state: State, player: int) -> str:
        return json.dumps(self._view(state, player), sort_keys=True)

    def private_string(self, state: State, player: int) -> str:
        return json.dumps(self._view(state, player).get("my_bet"), sort_keys=True)


ADAPTER = TwinDashAdapter()
