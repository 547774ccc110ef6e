"""Every registered game passes the invariant harness (raceday.testing)."""

from __future__ import annotations

import pytest

from raceday.core.registry import GameSpec, all_games
from raceday.testing import check_random_games

SPECS = all_games()


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_random_games_keep_every_invariant(spec: GameSpec) -> None:
    played = check_random_games(spec)
    assert played == spec.harness_games * len(spec.harness_configs)


def test_keirin_is_registered_with_at_least_1000_harness_races() -> None:
    keirin = next(s for s in SPECS if s.name == "keirin")
    assert keirin.harness_games * len(keirin.harness_configs) >= 1000
