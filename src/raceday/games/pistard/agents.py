"""Computer riders for PISTARD.

* ``easy`` — a greedy rider that goes as far as it can (a little noise, tokens only when it
  must), and places at random near the front.
* ``medium`` — a greedy rider with a tactical evaluation: distance, outer lanes (more dice
  usable next turn), shelter directly behind another rider, energy tokens kept for the end.
* ``hard`` — the project's generic open-loop MCTS (:class:`raceday.core.agents.MCTSAgent`)
  over the engine's own protocol; the other riders' dice are chance nodes sampled afresh in
  every simulation; rollouts play the medium policy for a few rounds and then score the
  position with :func:`estimate_returns`.
"""

from __future__ import annotations

import math

import numpy as np

from raceday.core.agents import MCTSAgent
from raceday.core.errors import OptionsError
from raceday.core.protocol import Action, State
from raceday.games.pistard.rules import (
    CHOOSE_BASE,
    PHASE_PLACE,
    PLACE_BASE,
    RACE,
    TEAM_COUNTS,
    PistardState,
)

LEVELS = ("easy", "medium", "hard")
MEAN_ADVANCE = 5.0  # columns a leading rider gains per round (measured, see docs)


def _as_pistard(state: State) -> PistardState:
    if not isinstance(state, PistardState):
        raise TypeError("PISTARD agents only play PISTARD states")
    return state


class GreedyRider:
    """One-step greedy choice by a tactical evaluation (``tactical=False``: distance only)."""

    def __init__(self, tactical: bool = True, noise: float = 0.0) -> None:
        self.tactical = tactical
        self.noise = noise
        self.name = "medium" if tactical else "easy"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        s = _as_pistard(state)
        actions = s.legal_actions()
        if len(actions) == 1:
            return actions[0]
        scores = [self.score(s, a) for a in actions]
        if self.noise:
            scores = [v + self.noise * float(rng.random()) for v in scores]
        best = max(scores)
        top = [a for a, v in zip(actions, scores, strict=True) if v >= best - 1e-9]
        return top[int(rng.integers(len(top)))] if len(top) > 1 else top[0]

    # --- evaluations ----------------------------------------------------------------
    def score(self, s: PistardState, action: Action) -> float:
        if s.phase == PHASE_PLACE:
            return self._place_score(s, action)
        if s.mover is None:
            rider = next(r for r in s.riders if r.ident == action - CHOOSE_BASE)
            return rider.lane * 10 + rider.dist  # outer riders first, as the text advises
        return self._move_score(s, action)

    def _place_score(self, s: PistardState, action: Action) -> float:
        back, lane = divmod(action - PLACE_BASE, 10)
        if not self.tactical:
            return -back if back <= 3 else -10.0
        rider = s.riders[s.place_queue[0]]
        occ = s.occupancy()
        length = s.track.length
        col = (rider.offset - back) % length
        shelter = 0.5 if ((col + 1) % length, lane) in occ else 0.0
        return 1.0 * lane - 0.6 * back + shelter

    def _move_score(self, s: PistardState, action: Action) -> float:
        assert s.mover is not None
        rider = s.riders[s.mover]
        length = s.track.length
        finish = s.options.race_laps * length
        if action == s.stay_action():
            return self._stay_score(s)
        info = s.move_table()[action]
        dest = rider.dist + info.ahead
        value = float(info.ahead)
        if not self.tactical:
            return value - (0.5 if info.token else 0.0)
        to_go = finish - dest
        if to_go <= 0:  # crossing the line: distance past it is everything
            return 100.0 + value
        value += 0.45 * (info.lane - 1)
        if info.behind:
            value += 0.7
        if info.token:
            value -= 1.6 if to_go > 14 else 0.3
        return value

    def _stay_score(self, s: PistardState) -> float:
        """Sur place (sprint) or declining a token move: worth holding when leading far out."""
        assert s.mover is not None
        if s.options.variant != "sprint":
            return 1.0 if self.tactical else 0.0
        me = s.riders[s.mover]
        other = next(r for r in s.riders if r is not me)
        to_go = s.track.length - me.dist
        if self.tactical and other.status == RACE and me.dist >= other.dist and to_go > 10:
            return 2.5
        return 0.0


def estimate_returns(s: PistardState) -> list[float]:
    """A quick estimate of each player's return from a position (exact at the end)."""
    if s.is_terminal():
        return s.returns()
    n = s.num_players
    length = s.track.length
    variant = s.options.variant
    if s.phase == PHASE_PLACE:
        return [1.0 / max(1, n)] * n if variant != "ttt" else [0.5]
    if variant in ("ttt", "pursuit"):
        times = []
        for team in range(n):
            mine = sorted((r.dist for r in s.riders if r.owner == team and r.status == RACE),
                          reverse=True)
            third = mine[TEAM_COUNTS - 1] if len(mine) >= TEAM_COUNTS else -length
            times.append(s.round + max(0.0, length - third) / MEAN_ADVANCE)
        if variant == "ttt":
            return [10.0 / (10.0 + times[0])]
        diff = times[1] - times[0]
        p0 = 1.0 / (1.0 + math.exp(-diff / 1.5))
        return [p0, 1.0 - p0]
    strengths = []
    for i, r in enumerate(s.riders):
        if r.status != RACE:
            continue
        value = r.dist + 0.4 * r.lane + 0.5 * s.tokens[r.owner]
        if variant == "points":
            value = 0.6 * s.points[i] + 0.2 * r.dist
        strengths.append((r.owner, value))
    top = max(v for _, v in strengths)
    weights = [(owner, math.exp((v - top) / 2.5)) for owner, v in strengths]
    total = sum(w for _, w in weights)
    out = [0.0] * n
    for owner, w in weights:
        out[owner] += w / total
    return out


class TruncatedRollout:
    """Play ``rounds`` rounds with a fast greedy policy, then estimate the returns."""

    def __init__(self, rounds: int = 2) -> None:
        self.rounds = rounds
        self.policy = GreedyRider(tactical=True, noise=0.6)

    def __call__(self, state: State, rng: np.random.Generator) -> list[float]:
        s = _as_pistard(state).clone()
        stop_round = s.rounds_total + self.rounds
        steps = 0
        while not s.is_terminal() and s.rounds_total < stop_round and steps < 10_000:
            if s.is_chance_node():
                draw = s.sample_chance(rng)
                s._apply(draw.outcome, None)
            else:
                s._apply(self.policy.choose(s, rng), None)
            steps += 1
        return estimate_returns(s)


class SearchRider:
    """MCTS (the core's open-loop UCT) with truncated greedy rollouts."""

    def __init__(self, simulations: int = 120, rollout_rounds: int = 2) -> None:
        self.mcts = MCTSAgent(simulations=simulations, exploration=0.7,
                              rollout=TruncatedRollout(rollout_rounds))
        self.fallback = GreedyRider(tactical=True)
        self.name = "hard"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        s = _as_pistard(state)
        if s.phase == PHASE_PLACE or s.mover is None:
            return self.fallback.choose(s, rng)  # placement and order: the tactical rule
        return self.mcts.choose(s, rng)


def make_agent(level: str, simulations: int | None = None) -> GreedyRider | SearchRider:
    """A computer rider of the given level (``easy``, ``medium`` or ``hard``)."""
    if level == "easy":
        return GreedyRider(tactical=False, noise=2.5)
    if level == "medium":
        return GreedyRider(tactical=True)
    if level == "hard":
        return SearchRider(simulations=simulations or 120)
    raise OptionsError(f"unknown computer level {level!r}; choose easy, medium or hard")
