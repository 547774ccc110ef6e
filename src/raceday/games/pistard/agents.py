"""Computer riders for PISTARD.

* ``easy`` — a greedy rider that goes as far as it can (a little noise, tokens only when it
  must), and places at random near the front.
* ``medium`` — a greedy rider with a tactical evaluation: distance, outer lanes (more dice
  usable next turn), shelter directly behind another rider, energy tokens kept for the end.
* ``hard`` — :class:`FastSearchRider`: a Monte Carlo search over the compiled engine
  (:mod:`raceday.games.pistard.search`): the best few actions by hard's tuned greedy rule
  (:data:`raceday.games.pistard.search.HARD_WEIGHTS`: tuned against easy and medium, with
  terms for blocking a rival and for riders behind their team's leader), each played out to
  the end of the race by that rule with shared throws; the rule's choice stands unless a
  play-out mean beats it clearly (a win, then how high the player's best rider placed).
* ``expert`` — the same search with more candidates and play-outs, within 0.35 s a decision.

:class:`SearchRider` (the core's open-loop MCTS over :class:`SearchView`, scored by
:func:`estimate_returns` and :func:`shaped_returns`) was the hard rider before the compiled
engine; it stays for the research interfaces and comparison.
"""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Any, Self

import numpy as np

from raceday.core.agents import MCTSAgent
from raceday.core.errors import OptionsError
from raceday.core.events import Event
from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, State
from raceday.games.pistard.moves import chosen_rider, placement_of
from raceday.games.pistard.state import PHASE_OVER, PHASE_PLACE, PistardState
from raceday.games.pistard.variants import RACE, TEAM_COUNTS

LEVELS = ("easy", "medium", "hard", "expert")
HARD_ROLLOUTS, HARD_CANDIDATES = 96, 4
EXPERT_ROLLOUTS, EXPERT_CANDIDATES = 2048, 6
LANE_WEIGHT = 0.45  # a lane further out: more of next turn's dice usable
SHELTER_WEIGHT = 0.7  # directly behind a rider: may stop there with any die
TOKEN_VALUE_EARLY = 1.6  # a token kept while far from the line
TOKEN_VALUE_LATE = 0.3
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
            rider = next(r for r in s.riders if r.ident == chosen_rider(action))
            return rider.lane * 10 + rider.dist  # outer riders first, as the text advises
        return self._move_score(s, action)

    def _place_score(self, s: PistardState, action: Action) -> float:
        back, lane = placement_of(action)
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
        value += LANE_WEIGHT * (info.lane - 1)
        if info.behind:
            value += SHELTER_WEIGHT
        if info.token:
            value -= TOKEN_VALUE_EARLY if to_go > 14 else TOKEN_VALUE_LATE
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


def shaped_returns(s: PistardState) -> list[float]:
    """The search's value of a finished race, finer than the game's own returns (the
    winners share 1): 1 for the owner of the winning rider, else up to 0.5 for how high the
    player's best rider placed; pursuit 1/0 (0.5 each on a tie); the team time trial
    10 / (10 + team time), so a faster time is always worth more."""
    n = s.num_players
    variant = s.options.variant
    if variant == "pursuit":
        if not s.ranking:
            return [0.5, 0.5]
        return [1.0 if p == s.ranking[0] else 0.0 for p in range(n)]
    if variant == "ttt":
        return [10.0 / (10.0 + max(0.0, s.team_time()))]
    out = [0.0] * n
    count = len(s.ranking)
    for place, i in enumerate(s.ranking):
        owner = s.riders[i].owner
        value = 1.0 if place == 0 else 0.5 * (count - 1 - place) / max(1, count - 1)
        out[owner] = max(out[owner], value)
    return out


def estimate_returns(s: PistardState) -> list[float]:
    """A quick estimate of each player's value of a position (:func:`shaped_returns` at
    the end)."""
    if s.phase == PHASE_OVER:
        return shaped_returns(s)
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
    finish = s.options.race_laps * length
    occ = s.occupancy()
    strengths = []
    lead = max(r.dist for r in s.riders if r.status == RACE)
    for i, r in enumerate(s.riders):
        if r.status != RACE:
            continue
        to_go = finish - r.dist
        col, lane = s.square_of(r)
        value = float(r.dist)
        if to_go > 0:  # the medium rider's features: lanes, shelter, tokens kept
            value += LANE_WEIGHT * (lane - 1)
            if ((col + 1) % length, lane) in occ:
                value += SHELTER_WEIGHT
            value += (TOKEN_VALUE_EARLY if to_go > 14 else TOKEN_VALUE_LATE) * min(
                1, s.tokens[r.owner])
        if variant == "points":
            value = 0.6 * s.points[i] + 0.2 * r.dist
        strengths.append((r.owner, value))
    top = max(v for _, v in strengths)
    # the further from the line, the less a column of lead is worth
    spread = max(1.0, 0.6 * math.sqrt(max(0.0, finish - lead)))
    weights = [(owner, math.exp((v - top) / spread)) for owner, v in strengths]
    total = sum(w for _, w in weights)
    out = [0.0] * n
    for owner, w in weights:
        out[owner] += w / total
    return out


class SearchView(PistardState):
    """The position as the search rider sees it.

    After the searcher's root decision every other decision (other riders, his own later
    riders) is a chance node whose outcomes are the medium rider's choice (a softmax of its
    evaluation), and the position becomes terminal ``horizon`` rounds later, scored by
    :func:`estimate_returns`. So the core's open-loop MCTS branches only on the root decision
    and samples everything else: the riders' dice (exact 1/1296 throws) and their replies.
    """

    horizon_round: int = 0
    decided: bool = False
    temperature: float = 0.5
    candidates: int = 3  # root moves searched: the medium rider's best few
    blend: float = 0.5  # weight of the (noise-free) estimate right after the root decision
    root_estimate: list[float] | None = None
    _policy = GreedyRider(tactical=True)

    @classmethod
    def of(cls, state: PistardState, horizon: int) -> SearchView:
        """The view of ``state`` (copied: the search never touches the real race) until
        ``horizon`` rounds from now."""
        view = cls.copy_of(state)
        view.horizon_round = state.rounds_total + horizon
        view.decided = False
        view.root_estimate = None
        return view

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        twin = type(self).copy_of(self)
        twin.horizon_round = self.horizon_round
        twin.decided = self.decided
        twin.root_estimate = self.root_estimate
        return twin

    def current_player(self) -> int:
        player = self.raw_player()
        if not self.decided or player == TERMINAL:
            return player
        if self.rounds_total >= self.horizon_round:
            return TERMINAL
        return CHANCE

    def _policy_node(self) -> bool:
        return self.decided and self.raw_player() >= 0

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self._policy_node():
            return super().chance_outcomes()
        actions = self.decision_actions()
        weights = self._policy_weights(actions)
        total = sum(weights)
        probs = [Fraction(w / total).limit_denominator(10**6) for w in weights]
        pairs = [(a, p) for a, p in zip(actions, probs, strict=True) if p > 0]
        norm = sum(p for _, p in pairs)
        return [(a, p / norm) for a, p in pairs]

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        if not self._policy_node():
            return super().sample_chance(rng)
        actions = self.decision_actions()
        weights = self._policy_weights(actions)
        u = float(rng.random()) * sum(weights)
        acc = 0.0
        for action, w in zip(actions, weights, strict=True):
            acc += w
            if u < acc:
                return ChanceDraw(action)
        return ChanceDraw(actions[-1])

    def _policy_weights(self, actions: list[Action]) -> list[float]:
        scores = [self._policy.score(self, a) for a in actions]
        top = max(scores)
        return [math.exp((v - top) / self.temperature) for v in scores]

    def legal_actions(self) -> list[Action]:
        """Before the root decision: the medium rider's best ``candidates`` moves (the search
        picks among sensible moves instead of spreading its simulations over poor ones)."""
        if self.decided:
            return []
        actions = super().legal_actions()
        if len(actions) <= self.candidates:
            return actions
        ranked = sorted(actions, key=lambda a: -self._policy.score(self, a))
        keep = set(ranked[: self.candidates])
        return [a for a in actions if a in keep]

    def apply_action(self, action: Action, detail: Mapping[str, Any] | None = None
                     ) -> list[Event]:
        # the search only applies actions it drew from this view: skip re-validation
        if not self.decided and self.raw_player() >= 0:
            self.decided = True
            events = self._apply(action, detail)
            self.root_estimate = estimate_returns(self)
            return events
        return self._apply(action, detail)

    def returns(self) -> list[float]:
        """The search's evaluation (not the game's returns): the estimate at the horizon
        (:func:`shaped_returns` if the race ended), blended with the one right after the
        root decision (which has no dice noise) to steady the search's averages."""
        later = estimate_returns(self)
        if self.root_estimate is None or self.phase == PHASE_OVER:
            return later
        return [self.blend * a + (1 - self.blend) * b
                for a, b in zip(self.root_estimate, later, strict=True)]


def _no_rollout(state: State, rng: np.random.Generator) -> list[float]:
    """The view is played to its horizon by the search's own chance sampling."""
    s = state.clone()
    while not s.is_terminal():
        draw = s.sample_chance(rng)
        s.apply_action(draw.outcome, draw.detail)
    return s.returns()


class SearchRider:
    """The core's MCTS over :class:`SearchView` (root decision, then sampled play)."""

    def __init__(self, simulations: int = 120, horizon: int = 1) -> None:
        self.mcts = MCTSAgent(simulations=simulations, exploration=0.5, rollout=_no_rollout)
        self.horizon = horizon
        self.fallback = GreedyRider(tactical=True)
        self.name = "hard"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        s = _as_pistard(state)
        if s.phase == PHASE_PLACE or s.mover is None:
            return self.fallback.choose(s, rng)  # placement and order: the tactical rule
        return self.mcts.choose(SearchView.of(s, self.horizon), rng)


def make_agent(level: str, simulations: int | None = None
               ) -> GreedyRider | TunedRider | FastSearchRider | SolvedSprintRider:
    """A computer rider of the given level (``easy``, ``medium``, ``hard`` or ``expert``);
    ``simulations`` sets the play-outs per candidate action of the searching levels."""
    if level == "easy":
        return GreedyRider(tactical=False, noise=2.5)
    if level == "medium":
        return GreedyRider(tactical=True)
    if level == "hard":
        return FastSearchRider("hard", rollouts=simulations or HARD_ROLLOUTS,
                               candidates=HARD_CANDIDATES, budget=0.2)
    if level == "tuned":
        return TunedRider()
    if level == "solved":
        return SolvedSprintRider()
    if level == "expert":
        return FastSearchRider("expert", rollouts=simulations or EXPERT_ROLLOUTS,
                               candidates=EXPERT_CANDIDATES, budget=0.35, threads=2)
    raise OptionsError(f"unknown computer level {level!r}; choose easy, medium, hard or expert")


class CompiledRider(ABC):
    """A rider that decides on the compiled engine's arrays (:func:`_compiled`); a
    decision with a single legal action needs no thinking."""

    name: str

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        s = _as_pistard(state)
        actions = s.legal_actions()
        if len(actions) == 1:
            return actions[0]
        engine, st, acts, info = _compiled(s)
        return self.decide(s, engine, st, acts, info, rng)

    @abstractmethod
    def decide(self, s: PistardState, engine: Any, st: np.ndarray, acts: np.ndarray,
               info: np.ndarray, rng: np.random.Generator) -> Action:
        """The action for ``s`` (two or more to choose from), with ``acts`` and ``info``
        as scratch for the legal actions."""


class TunedRider(CompiledRider):
    """The greedy rule with the search's tuned weights (compiled): what ``hard`` plays when
    it has no time to search, and the rule its candidates and play-outs follow."""

    def __init__(self, name: str = "tuned") -> None:
        self.name = name

    def decide(self, s: PistardState, engine: Any, st: np.ndarray, acts: np.ndarray,
               info: np.ndarray, rng: np.random.Generator) -> Action:
        from raceday.games.pistard import fast, search

        n = fast.legal_actions(st, engine.params, engine.grid, acts, info)
        rs = np.array([int(rng.integers(1, 2**63 - 1))], dtype=np.uint64)
        return int(acts[search.pick(st, engine.params, acts, info, n,
                                    search.weights_for(engine.params, st), rs)])


class SolvedSprintRider:
    """Best play in the sprint, from its exact solution (:mod:`sprint_solver`): every
    action is valued by the chance of winning with best play by both from there. Used by
    the benchmarks to measure how far the levels are from best play; not a level of its
    own, since the first decision waits for the solution (some 15 s on 2 cores)."""

    def __init__(self, name: str = "solved") -> None:
        self.name = name

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        s = _as_pistard(state)
        from raceday.games.pistard import fast, sprint_solver

        if s.options.variant != "sprint":
            raise OptionsError(f"the solved rider plays only the sprint, not the "
                               f"{s.options.variant}")
        actions = s.legal_actions()
        if len(actions) == 1:
            return actions[0]
        engine, st, acts, info = _compiled(s)
        table = sprint_solver.table_for(engine.grid, s.track.length, s.options.tokens)
        n = fast.legal_actions(st, engine.params, engine.grid, acts, info)
        values = sprint_solver.decision_values(table, st, engine.params, engine.grid, acts, n)
        return int(acts[int(np.argmax(values))])


class FastSearchRider(CompiledRider):
    """Monte Carlo search over the compiled engine (:mod:`raceday.games.pistard.search`).

    The greedy rider's best ``candidates`` actions (by the search's tuned weights) are each
    played out to the end of the race, every rider by the tuned greedy rule and the throws at
    random, the candidates' play-outs sharing their throws (common random numbers); the best
    mean value for the player wins (:func:`raceday.games.pistard.search.value`: a win, then
    how high his best rider placed). Play-outs go in batches of ``batch``; after each batch a
    candidate clearly behind the best (by ``prune`` standard errors of the paired
    differences) is dropped, until ``rollouts`` play-outs per candidate or ``budget``
    seconds are spent. The greedy rule's first choice stands unless another candidate
    beats it by ``margin`` standard errors. With ``threads`` > 1 each batch's play-outs are
    shared between that many threads (the values do not depend on the split).
    """

    def __init__(self, name: str = "hard", rollouts: int = 160, candidates: int = 4,
                 budget: float = 0.4, batch: int = 32, prune: float = 3.0,
                 margin: float = 1.0, threads: int = 1) -> None:
        self.name, self.threads = name, max(1, threads)
        self.rollouts, self.batch, self.budget = rollouts, batch, budget  # how long it thinks
        self.candidates, self.prune, self.margin = candidates, prune, margin  # how it chooses

    def decide(self, s: PistardState, engine: Any, st: np.ndarray, acts: np.ndarray,
               info: np.ndarray, rng: np.random.Generator) -> Action:
        from raceday.games.pistard import fast, search

        start = time.perf_counter()
        weights = search.weights_for(engine.params, st)
        n = search.ranked(st, engine.params, engine.grid, acts, info, weights)
        cand = acts[:min(n, self.candidates)].copy()
        alive = np.arange(len(cand))
        everyone = np.tile(weights, (fast.MAXP, 1))
        seed = int(rng.integers(1, 2**31))
        values = np.zeros((len(cand), 0))
        player = s.current_player()
        batch = min(8, self.batch)  # a small first batch measures the play-outs' cost
        played = 0
        while values.shape[1] < self.rollouts and len(alive) > 1:
            done = values.shape[1]
            more = min(batch, self.rollouts - done)
            chunk = _play_outs(st, engine, cand[alive], everyone, player, seed, done, more,
                               self.threads)
            played += chunk.size
            out = np.zeros((len(cand), done + more))
            out[:, :done] = values
            out[alive, done:] = chunk
            values = out
            alive = _survivors(values, alive, self.prune)
            spent = time.perf_counter() - start
            each = spent / played  # seconds a play-out
            left = self.budget - spent
            batch = min(self.batch, int(left / (each * len(alive) * 1.5)))
            if batch < 1:
                break
        if len(alive) == 1:
            return int(cand[alive[0]])
        return int(cand[_choice(values, alive, self.margin)])


_POOL: ThreadPoolExecutor | None = None


def _play_outs(st: np.ndarray, engine: Any, cand: np.ndarray, everyone: np.ndarray,
               player: int, seed: int, first: int, count: int, threads: int) -> np.ndarray:
    """Play-outs ``first .. first + count - 1`` of every candidate (rows), split over
    ``threads`` threads (the compiled play-outs release the GIL); the streams, and so the
    values, are the same however they are split."""
    from raceday.games.pistard import search

    global _POOL
    parts = min(threads, count)
    bounds = [first + count * k // parts for k in range(parts + 1)]
    chunks = [np.zeros((len(cand), bounds[k + 1] - bounds[k])) for k in range(parts)]
    if parts == 1:
        search.rollouts(st, engine.params, engine.grid, cand, everyone, player, seed, first,
                        chunks[0])
        return chunks[0]
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="pistard-search")
    jobs = [_POOL.submit(search.rollouts, st, engine.params, engine.grid, cand, everyone,
                         player, seed, bounds[k], chunks[k]) for k in range(parts)]
    for job in jobs:
        job.result()
    return np.hstack(chunks)


def _choice(values: np.ndarray, alive: np.ndarray, margin: float) -> int:
    """The candidate with the best mean, unless the greedy rule's first choice (candidate 0)
    is still alive and the best one is not ahead of it by ``margin`` standard errors of the
    paired differences: the search overrules the rule only when it has seen enough."""
    means = values[alive].mean(axis=1)
    best = int(alive[int(np.argmax(means))])
    if best == 0 or 0 not in alive:
        return best
    diff = values[best] - values[0]
    se = float(diff.std(ddof=1)) / np.sqrt(len(diff)) if len(diff) > 1 else 0.0
    return best if diff.mean() > margin * se else 0


def _survivors(values: np.ndarray, alive: np.ndarray, prune: float) -> np.ndarray:
    """The candidates not clearly behind the best one (paired differences)."""
    means = values[alive].mean(axis=1)
    best = alive[int(np.argmax(means))]
    keep = []
    count = values.shape[1]
    for c in alive:
        if c == best:
            keep.append(c)
            continue
        diff = values[best] - values[c]
        se = float(diff.std(ddof=1)) / np.sqrt(count) if count > 1 else 0.0
        if diff.mean() <= prune * se:
            keep.append(c)
    return np.asarray(keep)


_ENGINES: dict[tuple[int, int], Any] = {}


def _engine(s: PistardState) -> Any:
    """The compiled engine's constants for a race (kept per options and track)."""
    from raceday.games.pistard import fast

    key = (id(s.options), id(s.track))
    found = _ENGINES.get(key)
    if found is None or found.options is not s.options or found.track is not s.track:
        if len(_ENGINES) > 64:
            _ENGINES.clear()
        found = _ENGINES[key] = fast.Engine.of(s)
    return found


def _compiled(s: PistardState) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray]:
    """``s`` for the compiled engine: its constants (:func:`_engine`), the encoded state,
    and empty buffers for its legal actions and their move details."""
    from raceday.games.pistard import fast

    st = fast.encode(s)
    acts = np.empty(fast.MAXM, dtype=np.int64)
    info = np.empty((fast.MAXM, fast.INFO_SIZE), dtype=np.int64)
    return _engine(s), st, acts, info
