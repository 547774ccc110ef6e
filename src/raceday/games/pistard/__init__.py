"""PISTARD by Anki Toner: track cycling on a coloured four-lane velodrome, six race variants."""

from typing import Any

from raceday.core.registry import GameSpec, register
from raceday.games.pistard.rules import PistardOptions, PistardState, new_race
from raceday.games.pistard.track import default_track

_HARNESS_CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"variant": "scratch", "players": 3, "riders_per_player": 2, "tokens": 1},
    {"variant": "points", "players": 2, "riders_per_player": 2, "laps": 2},
    {"variant": "elimination", "players": 2, "riders_per_player": 2},
    {"variant": "sprint"},
    {"variant": "ttt", "riders_per_player": 3},
    {"variant": "pursuit", "riders_per_player": 3},
)


def _max_steps() -> int:
    length = default_track().length
    return max(PistardOptions.from_mapping(c).max_steps(length) for c in _HARNESS_CONFIGS)


SPEC = register(
    GameSpec(
        name="pistard",
        title="PISTARD",
        designer="Anki Toner",
        new_initial_state=new_race,
        state_from_json=PistardState.from_json,
        max_steps=_max_steps(),
        harness_configs=_HARNESS_CONFIGS,
        harness_games=8,
    )
)

__all__ = ["SPEC", "PistardOptions", "PistardState", "new_race"]
