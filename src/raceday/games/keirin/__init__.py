"""KEIRIN by Anki Toner: 6–9 track riders sprint after the derny leaves."""

from typing import Any

from raceday.core.registry import GameSpec, register
from raceday.games.keirin.rules import KeirinOptions, KeirinState, new_race

_HARNESS_CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"riders": 6},
    {"riders": 7, "length": 100},
    {"riders": 9, "derny": 18},
)

SPEC = register(
    GameSpec(
        name="keirin",
        title="KEIRIN",
        designer="Anki Toner",
        new_initial_state=new_race,
        state_from_json=KeirinState.from_json,
        max_steps=max(KeirinOptions(**c).max_steps() for c in _HARNESS_CONFIGS),
        harness_configs=_HARNESS_CONFIGS,
        harness_games=250,
    )
)

__all__ = ["SPEC", "KeirinOptions", "KeirinState", "new_race"]
