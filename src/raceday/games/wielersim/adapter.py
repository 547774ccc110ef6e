"""WielerSIM for the research frameworks: a race of dice alone (no decision-making
players), so that chance-only analyses can sample and serialise it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from raceday.core.protocol import State
from raceday.games.wielersim.game import GAME, WielersimOptions
from raceday.research import Adapter, ParamValue, Shape


class WielersimAdapter(Adapter):
    game = GAME

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        from raceday.games.wielersim import dice

        opts = self.options_as(params, WielersimOptions)
        top = max(v for kind in dice.KINDS for v, _ in dice.outcome_table(kind))
        riders = len(opts.peloton["riders"])
        return Shape(0, 1, top + 1, 2 * riders, GAME.max_steps(opts), 0.0, 1.0)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        s: Any = state
        distance = max(1, s.route.distance)
        n = s.n
        out[:n] = np.asarray(s.pos, dtype=np.float64) / distance
        out[n:2 * n] = np.asarray(s.finished, dtype=np.float64)


ADAPTER = WielersimAdapter()
