"""Gymnasium: every game with players is a single-agent environment (one learner, the other
seats computers) that passes ``check_env``; episodes are fixed by their seed; the learner
sees its own view only; the opponents play; illegal actions forfeit or raise; the KEIRIN
bettor is the KEIRIN night's environment; an installed plugin game is registered too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from raceday.core.agents import RandomAgent
from raceday.core.discovery import game_packages
from raceday.core.errors import OptionsError
from raceday.core.protocol import Action, State
from raceday.interop.adapters import adapter
from raceday.interop.gym import (
    KEIRIN_BETTOR,
    IllegalActionError,
    KeirinBettorEnv,
    RacedayEnv,
    env_id,
)
from tests.sixth_game_install import installed, subprocess_env

ROOT = Path(__file__).resolve().parents[2]

# Every registered id with short games; Hairpin's easiest computer searches on the compiled
# engine, so its checks play the greedy one.
CHEAP: dict[str, dict[str, Any]] = {
    "raceday/Hairpin-v0": {"variant": "short", "opponents": "medium"},
    "raceday/Pistard-v0": {"track": "short", "riders_per_player": 1},
    "raceday/Derby-v0": {"bettors": 3},
    "raceday/Keirin-v0": {"riders": 6, "length": 30},
    KEIRIN_BETTOR: {"riders": 6, "length": 30},
}


class Recording:
    """An opponent that plays the ``pick``-th legal action and notes who it played for."""

    name = "recording"

    def __init__(self, pick: int = 0) -> None:
        self.pick = pick
        self.seats: list[int] = []

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        self.seats.append(state.current_player())
        legal = state.legal_actions()
        return legal[self.pick % len(legal)]


def episode(env: RacedayEnv, seed: int) -> list[bytes]:
    """One episode, the learner choosing uniformly among the legal actions from ``seed``:
    every observation, reward, end flag, mask and picture as bytes."""
    obs, info = env.reset(seed=seed)
    env.action_space.seed(seed)
    seen = [obs.tobytes(), info["action_mask"].tobytes(), str(env.render()).encode()]
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(env.action_space.sample(env.action_masks()))
        assert not truncated
        seen += [obs.tobytes(), np.float64(reward).tobytes(), bytes([done]),
                 info["action_mask"].tobytes(), str(env.render()).encode()]
    return seen


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(CHEAP))
def test_every_registered_environment_passes_check_env(name: str) -> None:
    made = gymnasium.make(name, **CHEAP[name])
    check_env(made.unwrapped)
    assert isinstance(made.unwrapped, RacedayEnv)


def test_the_games_with_players_are_registered_and_wielersim_is_not() -> None:
    packages = game_packages()  # a plugin another test put on the path counts no more
    ours = {i for i, spec in gymnasium.registry.items() if i.startswith("raceday/")
            and packages.get(spec.kwargs.get("game", "keirin"), "").startswith("raceday.")}
    assert ours == set(CHEAP)
    with pytest.raises(OptionsError, match="no Gymnasium environment for 'wielersim'"):
        RacedayEnv("wielersim")
    assert env_id("twin_dash") == "raceday/TwinDash-v0"


@pytest.mark.parametrize(("game", "params"), [
    ("derby", {"bettors": 3}),
    ("pistard", {"track": "short", "riders_per_player": 1}),
])
def test_an_episode_with_a_fixed_seed_is_byte_identical(game: str, params: dict[str, Any]
                                                       ) -> None:
    env = RacedayEnv(game, render_mode="ansi", **params)
    first = episode(env, 11)
    assert first == episode(RacedayEnv(game, render_mode="ansi", **params), 11)
    assert first != episode(env, 12)


@pytest.mark.parametrize(("game", "params"), [
    ("derby", {}),  # the auction's sealed bid
    ("keirin", {"riders": 6, "length": 30}),  # the night's sealed ticket
])
def test_the_learner_never_sees_another_seats_sealed_choice(game: str, params: dict[str, Any]
                                                           ) -> None:
    """Seat 0 seals its choice before the learner in seat 1 acts: the cheapest and the
    dearest choice leave the learner's observation and picture the same."""
    envs = [RacedayEnv(game, seat=1, opponents=Recording(pick), render_mode="ansi", **params)
            for pick in (0, -1)]
    views = [env.reset(seed=5)[0] for env in envs]
    assert all(env.state.current_player() == 1 for env in envs)
    secrets = {adapter(game).private_string(env.state, 0) for env in envs}
    assert len(secrets) == 2  # the two seats 0 did seal different choices
    np.testing.assert_array_equal(views[0], views[1])
    assert envs[0].render() == envs[1].render()


def test_opponents_play_every_other_seat_and_default_to_the_easiest_computer() -> None:
    assert RacedayEnv("pistard").opponents[1].name == "easy"
    assert RacedayEnv("hairpin").opponents[1].name == "easy"
    assert RacedayEnv("keirin").opponents[1].name == "random"  # no computers of its own
    seconds, thirds = Recording(), Recording(1)
    env = RacedayEnv("derby", bettors=3, seat=0, opponents=[seconds, thirds])
    episode(env, 4)
    assert seconds.seats and set(seconds.seats) == {1}
    assert thirds.seats and set(thirds.seats) == {2}
    named = RacedayEnv("pistard", players=3, opponents=["medium", "random"])
    assert [named.opponents[p].name for p in (1, 2)] == ["medium", "random"]
    with pytest.raises(OptionsError, match="one for every other seat"):
        RacedayEnv("derby", bettors=3, opponents=["random"])
    with pytest.raises(OptionsError, match="OpenSpiel bots"):
        RacedayEnv("hairpin", opponents="openspiel-mcts:10")
    with pytest.raises(OptionsError, match="unknown"):
        RacedayEnv("pistard", opponents="grandmaster")
    with pytest.raises(OptionsError, match="seat must be"):
        RacedayEnv("hairpin", seat=2)


def test_an_illegal_action_forfeits_or_raises() -> None:
    env = RacedayEnv("hairpin", variant="short", opponents=RandomAgent())
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and info["illegal_action"] and reward == env.shape.min_utility
    assert not env.action_masks().any()
    with pytest.raises(OptionsError, match="episode is over"):
        env.step(illegal)
    strict = RacedayEnv("hairpin", variant="short", illegal="raise", opponents="random")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match=f"action {illegal} is not legal"):
        strict.step(illegal)
    with pytest.raises(OptionsError, match="action must be 0 to"):
        strict.step(strict.shape.num_actions)


def test_the_keirin_bettor_is_the_nights_environment_and_paid_by_its_odds() -> None:
    """A win ticket of one stake unit on the favourite returns either nothing (-1) or the
    fixed odds its observation shows; over these seeds it both wins and loses."""
    bettor = KeirinBettorEnv(riders=6, length=30, render_mode="ansi")
    assert bettor.game == "keirin" and bettor.opponents == {}
    assert (bettor.params["bettors"], bettor.params["mode"]) == (1, "fixed")
    obs, _ = bettor.reset(seed=0)
    _, reward, done, _, _ = bettor.step(0)  # no ticket: the money stays
    assert done and reward == 0.0
    riders, tickets = 6, bettor.shape.num_actions
    odds_at = 7 + tickets + 2 * riders  # the tensor's offered odds, as chances
    chances = obs[odds_at:odds_at + riders]  # the win tickets come first
    favourite = int(np.argmax(chances))
    assert chances[favourite] > 0
    results = set()
    for seed in range(40):
        bettor.reset(seed=seed)
        _, reward, done, _, _ = bettor.step(1 + favourite * 3)
        assert done
        assert reward == pytest.approx(-1.0) or reward == pytest.approx(
            1 / chances[favourite] - 1, abs=1e-4)
        results.add(reward > 0)
    assert results == {True, False}
    assert "your ticket: win" in str(bettor.render())


def test_an_installed_plugin_game_is_registered_and_passes_check_env(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    site = installed(tmp_path_factory)
    done = subprocess.run([sys.executable, "-c", """
import warnings
warnings.simplefilter("ignore")
import gymnasium
from gymnasium.utils.env_checker import check_env
import raceday.interop.gym
made = gymnasium.make("raceday/Twindash-v0", rounds=3)
check_env(made.unwrapped)
env = made.unwrapped
assert env.opponents[1].name == "bookie", env.opponents
env.reset(seed=2)
done = False
while not done:
    _, reward, done, _, _ = env.step(int(env.action_masks().argmax()))
print("played", reward)
"""], env=subprocess_env(site), capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "played" in done.stdout
