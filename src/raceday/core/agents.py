"""Generic agents that work on every game through the protocol alone."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from raceday.core.protocol import Action, State


class Agent(Protocol):
    """Chooses an action for the player to move."""

    def choose(self, state: State, rng: np.random.Generator) -> Action: ...


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        actions = state.legal_actions()
        return actions[int(rng.integers(len(actions)))]


def random_rollout(state: State, rng: np.random.Generator, max_steps: int = 100_000) -> list[float]:
    """Play ``state`` (a clone is used) to the end at random; return the players' returns."""
    s = state.clone()
    steps = 0
    while not s.is_terminal() and steps < max_steps:
        if s.is_chance_node():
            draw = s.sample_chance(rng)
            s.apply_action(draw.outcome, draw.detail)
        else:
            acts = s.legal_actions()
            s.apply_action(acts[int(rng.integers(len(acts)))])
        steps += 1
    if not s.is_terminal():
        return [0.5] * s.num_players
    return s.returns()


@dataclass
class _Node:
    visits: int = 0
    value: float = 0.0  # summed return of the player who chose the move into this node
    # Keyed by (player, action): open-loop over chance, the same decision sequence can
    # reach nodes where different players move, and their statistics must not mix.
    children: dict[tuple[int, Action], _Node] = field(default_factory=dict)


class MCTSAgent:
    """Upper-confidence tree search (UCT) with random rollouts.

    Chance is handled open-loop: each simulation draws fresh chance outcomes, so a node
    stands for a sequence of decisions. Because the legal actions after chance may differ
    from one simulation to the next, selection only considers actions legal in the
    simulation at hand and expands any legal action not yet tried. Works for any number of
    players: a node's value is kept for the player who chose the move into it.
    """

    def __init__(
        self,
        simulations: int = 400,
        exploration: float = 1.4,
        rollout: Callable[[State, np.random.Generator], list[float]] | None = None,
    ) -> None:
        self.simulations = simulations
        self.exploration = exploration
        self.rollout = rollout if rollout is not None else random_rollout
        self.name = f"mcts{simulations}"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = _Node()
        for _ in range(self.simulations):
            self._simulate(state.clone(), root, rng)
        player = state.current_player()

        def visits(a: Action) -> int:
            child = root.children.get((player, a))
            return child.visits if child is not None else -1

        return max(legal, key=visits)

    def _simulate(self, state: State, root: _Node, rng: np.random.Generator) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        while True:
            _skip_chance(state, rng)
            if state.is_terminal():
                returns = state.returns()
                break
            player = state.current_player()
            legal = state.legal_actions()
            fresh = [a for a in legal if (player, a) not in node.children]
            if fresh:
                action = fresh[int(rng.integers(len(fresh)))]
                child = node.children[(player, action)] = _Node()
                state.apply_action(action)
                path.append((child, player))
                returns = self.rollout(state, rng)
                break
            action = self._select(node, player, legal)
            child = node.children[(player, action)]
            state.apply_action(action)
            path.append((child, player))
            node = child
        root.visits += 1
        for child, mover in path:
            child.visits += 1
            child.value += returns[mover]

    def _select(self, node: _Node, player: int, legal: list[Action]) -> Action:
        log_n = math.log(max(1, sum(node.children[(player, a)].visits for a in legal)))
        best_score = -math.inf
        best = legal[0]
        for action in legal:
            child = node.children[(player, action)]
            score = child.value / child.visits + self.exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best_score, best = score, action
        return best


def _skip_chance(state: State, rng: np.random.Generator) -> None:
    while state.is_chance_node():
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
