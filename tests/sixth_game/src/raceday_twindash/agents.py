"""Computer players for Twin Dice Dash: ``bookie`` bets by the exact odds, ``random`` not."""

from __future__ import annotations

import numpy as np

from raceday.core.agents import Agent, RandomAgent
from raceday.core.errors import OptionsError
from raceday.core.protocol import Action, State
from raceday_twindash.rules import PASS, TwinDashState, bet_action

LEVELS = ("bookie", "random")


class BookieAgent:
    """Backs the runner most likely to move furthest this round (the exact chances of
    :meth:`TwinDashState.further_chances`) with the largest stake allowed; passes when two
    runners share the best chance (all level), where no bet is worth more than nothing."""

    name = "bookie"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        assert isinstance(state, TwinDashState)
        player = state.current_player()
        *chances, _tie = state.further_chances()
        best = max(chances)
        if chances.count(best) > 1:
            return PASS
        favourite = chances.index(best)
        stake = min(state.course.max_stake, state.chips[player])
        return bet_action(favourite, stake, state.course.max_stake) if stake else PASS


def make_agent(level: str) -> Agent:
    """The computer player named ``level`` (one of :data:`LEVELS`)."""
    if level == "bookie":
        return BookieAgent()
    if level == "random":
        return RandomAgent()
    raise OptionsError(f"unknown twindash computer player {level!r}; choose one of "
                       f"{', '.join(LEVELS)}")
