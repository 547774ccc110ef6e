"""WielerSIM by Ludo Nauws: a solo road-cycling race simulation (classics, stage races)."""

from typing import Any

from raceday.core.registry import GameSpec, register
from raceday.games.wielersim.route import SHIPPED_ROUTES, shipped_route
from raceday.games.wielersim.rules import WielerState, max_steps, new_race

_HARNESS_CONFIGS: tuple[dict[str, Any], ...] = (
    *({"route": name, "peloton": "classics"} for name in SHIPPED_ROUTES),
    {"route": "flanders", "peloton": "small", "board": 7},
    # the 4D6 start variant, with the jersey on a sprinter
    {"route": {**shipped_route("flat-stage"), "start_dice": "d6"}, "peloton": "small",
     "jersey": 52},
)

SPEC = register(
    GameSpec(
        name="wielersim",
        title="WielerSIM",
        designer="Ludo Nauws",
        new_initial_state=new_race,
        state_from_json=WielerState.from_json,
        max_steps=max(max_steps(c) for c in _HARNESS_CONFIGS),
        harness_configs=_HARNESS_CONFIGS,
        harness_games=3,
    )
)

__all__ = ["SPEC", "WielerState", "new_race"]
