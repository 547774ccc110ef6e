"""Hairpin Racers by Phil Leduc (2004/2024): a diceless two-player race on a 3x6 double
hairpin. Programmed for this project's study; the designer reserves the right to program
or sell the game (see docs/rules/hairpin.md)."""

from typing import Any

from raceday.core.registry import GameSpec, register
from raceday.games.hairpin.rules import MAX_STEPS, HairpinState, Position, Rules, new_game

# Every variant word, alone and in the combinations that interact (short game with the
# derby's bump target, random setup with the v1 cruise rule).
_HARNESS_CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"variant": "short"},
    {"variant": "nobump"},
    {"variant": "derby"},
    {"variant": "v1"},
    {"variant": "random"},
    {"variant": "short+derby+random"},
    {"variant": "v1+nobump+random"},
)

SPEC = register(
    GameSpec(
        name="hairpin",
        title="Hairpin Racers",
        designer="Phil Leduc",
        new_initial_state=new_game,
        state_from_json=HairpinState.from_json,
        max_steps=MAX_STEPS,
        harness_configs=_HARNESS_CONFIGS,
        harness_games=50,
    )
)

__all__ = ["SPEC", "HairpinState", "Position", "Rules", "new_game"]
