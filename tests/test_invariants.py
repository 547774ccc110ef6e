"""Every registered game passes the invariant harness (raceday.testing)."""

from __future__ import annotations

import pytest

from raceday.core.game import AnyGame
from raceday.core.registry import all_games
from raceday.testing import check_random_games

GAMES = all_games()


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_random_games_keep_every_invariant(game: AnyGame) -> None:
    played = check_random_games(game)
    assert played == game.harness_games * len(game.harness_configs)


def test_keirin_is_registered_with_at_least_1000_harness_races() -> None:
    keirin = next(g for g in GAMES if g.name == "keirin")
    assert keirin.harness_games * len(keirin.harness_configs) >= 1000
