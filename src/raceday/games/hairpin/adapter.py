"""Hairpin Racers for the research frameworks (OpenSpiel, PettingZoo, Gymnasium): the
engine's action numbers as they are, and an observation tensor read from the compiled
engine's array form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from raceday.core.errors import OptionsError
from raceday.core.protocol import State
from raceday.core.registry import get_game
from raceday.games.hairpin.game import HairpinOptions
from raceday.games.hairpin.tensor import HAIRPIN_OBS, hairpin_tensor
from raceday.research import Adapter, ParamValue, Shape


class HairpinAdapter(Adapter):
    name = "hairpin"
    title = "Hairpin Racers"
    player_range = (2, 2)
    utility = "constant_sum"
    utility_sum = 1.0
    options_model = HairpinOptions
    own_params: ClassVar[Mapping[str, ParamValue]] = {"engine": "fast"}

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, ParamValue]:
        out = super().check_params(params)
        if out["engine"] not in ("fast", "reference"):
            raise OptionsError(f"hairpin engine must be 'fast' or 'reference', got "
                               f"{out['engine']!r}")
        return out

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        from raceday.games.hairpin.rules import KINDS, SKIP_ORIGIN

        steps = get_game(self.name).max_steps(self.game_options(params))
        return Shape(2, (SKIP_ORIGIN + 1) * KINDS, 6, HAIRPIN_OBS, steps, 0.0, 1.0)

    def has_chance(self, params: Mapping[str, ParamValue]) -> bool:
        """Dice roll only in the random setup, and not from a given position."""
        opts = self.options_as(params, HairpinOptions)
        return bool(opts.rules().setup == "random" and opts.position is None)

    def openspiel_state(self, game: Any) -> Any:
        """With ``engine=fast``, a state on the compiled engine's array (same rules, same
        action numbers, a few microseconds a step); else the generic one."""
        if game.params["engine"] != "fast":
            return None
        from raceday.games.hairpin.spiel import FastState

        return FastState(game)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        from raceday.games.hairpin import fast

        rules = state.rules  # type: ignore[attr-defined]
        hairpin_tensor(fast.encode(state.position), rules.target,  # type: ignore[attr-defined]
                       rules.quiet_limit, out)
        out[45] = float(state.in_setup)  # type: ignore[attr-defined]


ADAPTER = HairpinAdapter()
