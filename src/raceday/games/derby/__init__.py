"""Dice Derby by domi (2016): a party horse-race betting game with d4, d6, d8, d10, d12, d20."""

from typing import Any

from raceday.core.registry import GameSpec, register
from raceday.games.derby.rules import STEP_BOUND, DerbyOptions, DerbyRaceState, new_race

_HARNESS_CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"fall_rate": "0.05"},
    {"fall_rate": "0.3"},
    {"fall_rate": "1/2"},
)

SPEC = register(
    GameSpec(
        name="derby",
        title="Dice Derby",
        designer="domi",
        new_initial_state=new_race,
        state_from_json=DerbyRaceState.from_json,
        max_steps=STEP_BOUND,
        harness_configs=_HARNESS_CONFIGS,
        harness_games=250,
    )
)

__all__ = ["SPEC", "DerbyOptions", "DerbyRaceState", "new_race"]
