"""Every registered game passes the invariant harness (raceday.testing), each of its option
sets a test of its own (so the two workers of ``make test`` share a game's sets)."""

from __future__ import annotations

import pytest

from raceday.core.game import AnyGame
from raceday.core.registry import all_games
from raceday.testing import check_random_games

GAMES = all_games()
CONFIGS = [(game, index) for game in GAMES for index in range(len(game.harness_configs))]


@pytest.mark.parametrize(("game", "config"), CONFIGS,
                         ids=[f"{g.name}-{i}" for g, i in CONFIGS])
def test_random_games_keep_every_invariant(game: AnyGame, config: int) -> None:
    played = check_random_games(game, configs=[config])
    assert played == game.harness_games


def test_every_option_set_of_every_game_is_played() -> None:
    for game in GAMES:
        assert game.harness_games >= 1 and game.harness_configs
        assert sum(1 for g, _ in CONFIGS if g is game) == len(game.harness_configs)


def test_keirin_is_registered_with_at_least_1000_harness_races() -> None:
    keirin = next(g for g in GAMES if g.name == "keirin")
    assert keirin.harness_games * len(keirin.harness_configs) >= 1000
