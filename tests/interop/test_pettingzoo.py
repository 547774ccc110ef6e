"""PettingZoo's api_test and seed_test for every multi-player game, and the environments'
promises (masks, rewards, refusals). Gymnasium's environments: test_gym.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test

from raceday.core.errors import OptionsError
from raceday.interop.pettingzoo import RacedayAEC, env

CASES: list[tuple[str, dict[str, Any]]] = [
    ("hairpin", {"variant": "short"}),
    ("pistard", {"track": "short", "riders_per_player": 1}),
    ("keirin", {"riders": 6, "length": 30}),
    ("derby", {"bettors": 3, "fall_rate": 0.1}),
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "params"), CASES)
def test_pettingzoo_api_and_seed(game: str, params: dict[str, Any]) -> None:
    api_test(env(game, **params), num_cycles=60, verbose_progress=False)
    seed_test(lambda render_mode=None: env(game, render_mode=render_mode, **params),
              num_cycles=30)


def test_pettingzoo_masks_render_and_final_rewards() -> None:
    e = env("hairpin", render_mode="ansi", variant="short")
    e.reset(seed=4)
    assert "a1" in e.render() or "1" in e.render()
    total: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] = total.get(agent, 0.0) + reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        e.step(int(legal[0]))
    # Hairpin is constant-sum: the winner 1, the loser 0 (a draw 1/2 each)
    assert sorted(total.values()) in ([0.0, 1.0], [0.5, 0.5])


def test_pettingzoo_refuses_games_without_players_and_illegal_actions() -> None:
    with pytest.raises(OptionsError, match="no PettingZoo environment"):
        RacedayAEC("wielersim")
    raw = RacedayAEC("hairpin")
    raw.reset(seed=0)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(OptionsError, match="not legal"):
        raw.step(illegal)
