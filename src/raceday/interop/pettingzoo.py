"""PettingZoo AEC environments for the multi-player games: Hairpin, PISTARD, and the KEIRIN
and Dice Derby betting games (WielerSIM has no players, so it has no environment).

``env = raceday.interop.pettingzoo.env("hairpin", variant="short")``. Agents are
``player_0``, ``player_1``, ...; each observation is a dict with ``observation`` (the
adapter's tensor, float32) and ``action_mask`` (int8, 1 for legal ids); actions are the
adapter's dense ids. Chance nodes (dice) are resolved inside the environment with its own
generator, seeded by ``reset(seed=...)``. Rewards come only at the end: the engine's
returns (Hairpin, PISTARD) or the money won in stake units (betting games). ``record()``
gives the episode so far as a record (:mod:`raceday.core.record`, ``Face`` "research",
``Seed`` the seed ``reset`` was given), which replays through the rules to its state.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from raceday.core.errors import OptionsError
from raceday.core.protocol import State
from raceday.core.record import Record, Recorder
from raceday.interop.adapters import Adapter, adapter, games_with_players
from raceday.present.pictures import text_picture


class RacedayAEC(AECEnv):  # type: ignore[misc]
    """One game as an agent-environment-cycle environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "raceday_v0",
                                          "is_parallelizable": False}

    def __init__(self, game: str = "hairpin", render_mode: str | None = None,
                 **params: Any) -> None:
        super().__init__()
        if game not in games_with_players():
            raise OptionsError(f"no PettingZoo environment for {game!r}; choose from "
                               f"{', '.join(games_with_players())}")
        if render_mode not in (None, "ansi"):
            raise OptionsError("render_mode must be None or 'ansi'")
        self.game = game
        self.adapter: Adapter = adapter(game)
        self.params = self.adapter.check_params(params)
        self.shape = self.adapter.shape(self.params)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"raceday_{game}_v0"}  # type: ignore[misc]
        self.possible_agents = [f"player_{p}" for p in range(self.shape.players)]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        obs = gymnasium.spaces.Box(-np.inf, np.inf, (self.shape.obs_size,), np.float32)
        mask = gymnasium.spaces.Box(0, 1, (self.shape.num_actions,), np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": obs, "action_mask": mask})
            for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.shape.num_actions)
                              for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state_: State = self.adapter.new_state(self.params)
        self._recorder: Recorder | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the cycle --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.state_ = self.adapter.new_state(self.params)
        self._recorder = self._follow(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._run_chance()
        self._select()

    def _follow(self, seed: int | None) -> Recorder:
        from raceday.interop.records import follow

        return follow(self.adapter, self.params, self.state_, seed=seed,
                      seats=[{"name": a, "player": "agent"} for a in self.possible_agents])

    def record(self) -> Record:
        """The episode so far as a record: it replays through the rules to the
        environment's state (:func:`raceday.core.record.replay`)."""
        if self._recorder is None:
            self._recorder = self._follow(None)
        return self._recorder.record(self._rng)

    def _run_chance(self) -> None:
        state = self.state_
        while state.is_chance_node():
            draw = state.sample_chance(self._rng)
            state.apply_action(draw.outcome, draw.detail)

    def _select(self) -> None:
        state = self.state_
        if state.is_terminal():
            utilities = self.adapter.utilities(state)
            for a in self.agents:
                self.rewards[a] = float(utilities[self._index[a]])
                self.terminations[a] = True
            self.agent_selection = self.agents[0] if self.agents else ""
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
            for a in self.agents:
                self.infos[a] = {"action_mask": self._mask(a)}

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.shape.num_actions, dtype=np.int8)
        if self.state_.current_player() == self._index[agent]:
            mask[self.adapter.legal_ids(self.state_)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        out = np.zeros(self.shape.obs_size, dtype=np.float64)
        self.adapter.observe(self.state_, self._index[agent], out)
        return {"observation": out.astype(np.float32), "action_mask": self._mask(agent)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise OptionsError("a live agent must act (action None is for finished agents)")
        legal = self.adapter.legal_ids(self.state_)
        if int(action) not in legal:
            raise OptionsError(f"action {action} is not legal for {agent}")
        self._cumulative_rewards[agent] = 0.0
        self.adapter.apply_id(self.state_, int(action))
        self._run_chance()
        for a in self.agents:
            self.rewards[a] = 0.0
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi')")
            return None
        return text_picture(self.state_)

    def close(self) -> None:
        pass


def env(game: str = "hairpin", render_mode: str | None = None, **params: Any) -> RacedayAEC:
    """An AEC environment wrapped in PettingZoo's usual checks (order, bounds)."""
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

    raw = RacedayAEC(game, render_mode=render_mode, **params)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw))  # type: ignore[no-any-return]


__all__ = ["RacedayAEC", "env"]
