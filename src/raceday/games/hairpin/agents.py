"""Computer opponents for Hairpin Racers and the difficulty ladder.

- :class:`~raceday.core.agents.RandomAgent` (generic): uniform over legal actions.
- :class:`GreedyAgent`: one ply, picks the move with the best :func:`evaluate`.
- MCTS: the project's generic :class:`~raceday.core.agents.MCTSAgent` with
  :func:`fast_rollout`, a random playout run by the compiled engine.
- :class:`AlphaBetaAgent`: negamax alpha-beta with iterative deepening, a transposition
  table and move ordering, stopped by a node budget and/or a time budget per move.

:data:`LEVELS` maps ``easy | medium | hard | expert`` to these (see :func:`make_agent`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from raceday.core.agents import Agent, MCTSAgent, RandomAgent
from raceday.core.errors import OptionsError
from raceday.core.protocol import Action, State
from raceday.games.hairpin.rules import (
    SIGN,
    SQUARES,
    TRACK_INDEX,
    TRACK_LENGTH,
    TRACKS,
    HairpinState,
    Position,
    Rules,
    apply_move,
    is_over,
    winner_of,
)

if TYPE_CHECKING:
    from types import ModuleType

WIN = 100_000.0
DEFAULT_THINK = 1.0  # seconds per move for the expert
MAX_THINK = 600.0

Clock = Callable[[], float]
"""What a timed search reads its time from: seconds, from any origin. The default is
:func:`time.perf_counter`; tests give a clock that counts the nodes searched
(:attr:`AlphaBetaAgent.nodes`, :attr:`ThinkingAgent.nodes`), so that a time budget
becomes a node budget and the search does the same on a busy machine as on an idle one."""


def _fast() -> ModuleType:
    """The compiled engine, imported on first use (numba takes a while to import, and
    listing commands or reading --help should not wait for it)."""
    from raceday.games.hairpin import fast

    return fast


def _as_hairpin(state: State) -> HairpinState:
    if not isinstance(state, HairpinState):
        raise OptionsError("this agent plays Hairpin Racers only")
    return state


# --- evaluation ----------------------------------------------------------------------
def progress(pos: Position, player: int) -> int:
    """Spaces covered by ``player``'s racers: 18 per lap plus each racer's track index
    (a racer in the pit counts as standing just before its start)."""
    s = SIGN[player]
    index = TRACK_INDEX[player]
    total = TRACK_LENGTH * pos.laps[player] - pos.pit[player]
    for sq in range(SQUARES):
        c = pos.cells[sq] * s
        if c > 0:
            total += c * index[sq]
    return total


def threats(pos: Position, rules: Rules, attacker: int) -> list[int]:
    """Track indices (on the victim's track) of the lone racers ``attacker`` could bump
    with one charge, ignoring whose turn it is. Empty when bumping would be suicide."""
    if not rules.bumping:
        return []
    if not rules.derby and pos.bumps[attacker] >= rules.target - 1:
        return []  # the next bump would disqualify the attacker
    s = SIGN[attacker]
    victim = 1 - attacker
    found: list[int] = []
    track = TRACKS[attacker]
    for sq in range(SQUARES):
        if pos.cells[sq] * s > 0:
            dest = track[(TRACK_INDEX[attacker][sq] + pos.column_count(sq)) % TRACK_LENGTH]
            if pos.cells[dest] * s == -1:
                found.append(TRACK_INDEX[victim][dest])
    return found


def evaluate(pos: Position, rules: Rules, player: int) -> float:
    """A heuristic score of ``pos`` for ``player`` (positive is good).

    Finished games score +-:data:`WIN`. Otherwise: the race lead in spaces; the progress
    at risk from the opponent's bumps (worth more when the opponent moves next); in the
    derby, bumps made count heavily; and being one bump from disqualification costs a
    little flexibility.
    """
    if is_over(pos, rules):
        w = winner_of(pos, rules)
        return 0.0 if w is None else (WIN if w == player else -WIN)
    opp = 1 - player
    score = float(progress(pos, player) - progress(pos, opp))
    if rules.derby:
        score = 0.1 * score + 40.0 * (pos.bumps[player] - pos.bumps[opp])
    my_risk = threats(pos, rules, opp)
    their_risk = threats(pos, rules, player)
    # the side to move can strike now; the other side's threats are only potential
    mine_weight = 0.8 if pos.side == opp else 0.25
    theirs_weight = 0.8 if pos.side == player else 0.25
    loss_mine = max(my_risk, default=-1) + 1
    loss_theirs = max(their_risk, default=-1) + 1
    if rules.derby:
        loss_mine = 40 if my_risk else 0
        loss_theirs = 40 if their_risk else 0
    score += theirs_weight * loss_theirs - mine_weight * loss_mine
    if rules.bumping and not rules.derby:
        score -= 3.0 * (pos.bumps[player] >= rules.target - 1)
        score += 3.0 * (pos.bumps[opp] >= rules.target - 1)
    return score


# --- greedy --------------------------------------------------------------------------
class GreedyAgent:
    """One ply: the move whose result :func:`evaluate` likes best (ties broken at random)."""

    name = "greedy"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        hs = _as_hairpin(state)
        pos, rules, me = hs.position, hs.rules, hs.position.side
        moves = hs.moves()
        scores = [evaluate(apply_move(pos, m, rules), rules, me) for m in moves]
        best = max(scores)
        top = [m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9]
        return top[int(rng.integers(len(top)))].action


# --- MCTS with compiled rollouts -----------------------------------------------------
def fast_rollout(state: State, rng: np.random.Generator) -> list[float]:
    """A uniformly random playout by the compiled engine; the players' returns."""
    hs = _as_hairpin(state)
    if hs.in_setup:
        from raceday.core.agents import random_rollout

        return random_rollout(hs, rng)
    fast = _fast()
    rs = np.array([fast.seed_from(rng)], dtype=np.uint64)
    w = fast.playout(fast.encode(hs.position), fast.encode_rules(hs.rules), rs, 100_000)
    if w == 0:
        return [1.0, 0.0]
    if w == 1:
        return [0.0, 1.0]
    return [0.5, 0.5]


def guided_rollout(state: State, rng: np.random.Generator) -> list[float]:
    """A playout by the compiled engine in which both sides mostly play the greedy move
    (one random move in four), a sharper estimate than uniformly random play."""
    hs = _as_hairpin(state)
    if hs.in_setup:
        return fast_rollout(hs, rng)
    fast = _fast()
    rs = np.array([fast.seed_from(rng)], dtype=np.uint64)
    w = fast.guided_playout(fast.encode(hs.position), fast.encode_rules(hs.rules), rs,
                            100_000, 250)
    if w == 0:
        return [1.0, 0.0]
    if w == 1:
        return [0.0, 1.0]
    return [0.5, 0.5]


def guided_mcts_agent(simulations: int) -> MCTSAgent:
    """The generic MCTS with mostly-greedy compiled playouts."""
    agent = MCTSAgent(simulations=simulations, rollout=guided_rollout)
    agent.name = f"mcts-guided{simulations}"
    return agent


def mcts_agent(simulations: int) -> MCTSAgent:
    """The generic MCTS with compiled random rollouts."""
    return MCTSAgent(simulations=simulations, rollout=fast_rollout)


# --- alpha-beta ----------------------------------------------------------------------
class AlphaBetaAgent:
    """Negamax alpha-beta with iterative deepening, a transposition table (Zobrist
    hashed) and move ordering (table move, then bumps, laps, charges, cruises).

    The search runs in the compiled engine (:func:`raceday.games.hairpin.fast.search_root`)
    with the same
    evaluation as :func:`evaluate`. It deepens one ply at a time until ``max_depth``,
    until ``node_budget`` nodes in total have been searched (the iteration that runs out
    is discarded), or until the next iteration would not fit in ``time_budget`` seconds
    (estimated from the last one), read on ``clock``. With no time budget the choice is
    deterministic for a position; ties at the root are broken with ``rng``.
    """

    def __init__(self, max_depth: int = 40, node_budget: int | None = 200_000,
                 time_budget: float | None = None, clock: Clock = time.perf_counter) -> None:
        if node_budget is None and time_budget is None:
            raise OptionsError("alpha-beta needs a node budget or a time budget")
        fast = _fast()
        self.max_depth = min(max_depth, fast.MAX_SEARCH_DEPTH - 2)
        self.node_budget = node_budget
        self.time_budget = time_budget
        self.clock = clock
        self.name = "alphabeta"
        self.last_depth = 0
        self.last_nodes = 0
        self._counter = np.zeros(3, dtype=np.int64)  # nodes, node limit, stopped
        self._zobrist = fast.make_zobrist()
        size = 1 << fast.TT_BITS
        self._tt_key = np.zeros(size, dtype=np.int64)
        self._tt_val = np.zeros(size, dtype=np.float64)
        self._tt_info = np.zeros((size, 3), dtype=np.int64)

    @property
    def nodes(self) -> int:
        """The nodes searched so far for the current (or last) move."""
        return int(self._counter[0])

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        hs = _as_hairpin(state)
        moves = hs.moves()
        if len(moves) == 1:
            return moves[0].action
        fast = _fast()
        st = fast.encode(hs.position)
        rules = fast.encode_rules(hs.rules)
        self._tt_key[:] = 0
        self._tt_info[:] = 0
        counter = self._counter
        counter[:] = 0
        acts = np.empty(fast.MAX_MOVES, dtype=np.int64)
        vals = np.empty(fast.MAX_MOVES, dtype=np.float64)
        clock = self.clock
        start = clock()
        budget = self.node_budget if self.node_budget is not None else 1 << 60
        best = [moves[0].action]
        self.last_depth = 0
        last_elapsed = 0.0
        for depth in range(1, self.max_depth + 1):
            limit = budget
            if self.time_budget is not None and depth > 1:
                elapsed = clock() - start
                # each iteration costs a few times the previous one
                if elapsed + 4.0 * max(last_elapsed, 1e-4) > self.time_budget:
                    break
                # and it may not run past the deadline: cap its nodes at the rate so far
                rate = counter[0] / max(elapsed, 1e-6)
                limit = min(budget, int(counter[0] + rate * (self.time_budget - elapsed)))
            t0 = clock()
            counter[2] = 0
            n = fast.search_root(st, rules, depth, limit, self._zobrist, self._tt_key,
                                 self._tt_val, self._tt_info, counter, acts, vals)
            last_elapsed = clock() - t0
            if n < 0:
                break
            top = float(vals[:n].max())
            best = sorted(int(acts[i]) for i in range(n) if vals[i] >= top - 1e-9)
            self.last_depth = depth
            if abs(top) >= WIN / 2:
                break  # a forced result
        self.last_nodes = int(counter[0])
        return best[int(rng.integers(len(best)))]


# --- the thinking expert -------------------------------------------------------------
@dataclass
class SearchReport:
    """What one timed search found: each root move's value (best first; exact for all
    moves with ``exact_all``, else only the first), principal variations, depth, work."""

    actions: list[int]
    values: list[float]
    lines: list[list[int]]
    depth: int
    seldepth: int
    nodes: int
    seconds: float

_WARM: list[bool] = []


def think(state: HairpinState, seconds: float, *, exact_all: bool = False,
          max_depth: int = 60, table: Any = None, weights: Any = None,
          pv_moves: int = 1, clock: Clock = time.perf_counter) -> SearchReport:
    """Iterative deepening with the compiled search (:mod:`.search`) for about ``seconds``:
    it deepens one ply at a time and starts an iteration only if it is expected to finish
    in time (iterations grow about threefold); an iteration that is cut off is discarded.
    Stops early at ``max_depth`` or on a forced result. ``pv_moves`` root moves get a
    principal variation. Time is read on ``clock`` (the nodes so far are
    ``table.counter[0]``)."""
    from raceday.games.hairpin import search

    fast = _fast()
    tab = table if table is not None else search.Table()
    w = search.WEIGHTS if weights is None else weights
    st = fast.encode(state.position)
    rules = fast.encode_rules(state.rules)
    counter = tab.counter
    counter[:] = 0
    root_moves = np.zeros(fast.MAX_MOVES, dtype=np.int64)
    root_vals = np.zeros(fast.MAX_MOVES, dtype=np.float64)
    hint = np.zeros(0, dtype=np.int64)
    if not _WARM:
        # the first search in a process loads the compiled code: not thinking time
        counter[1] = 1 << 62
        search.search_root_frames(st, rules, 1, exact_all, hint, w, tab.zobrist, tab.key,
                                  tab.val, tab.info, tab.frames, tab.moves, tab.keys,
                                  tab.killers, counter, root_moves, root_vals)
        search.principal_variation(st, rules, int(root_moves[0]), tab.zobrist, tab.key,
                                   tab.info, tab.frames, tab.moves, root_moves[:2].copy())
        counter[:] = 0
        _WARM.append(True)
    order: list[int] = []
    values: list[float] = []
    depth_done = 0
    start = clock()
    last = 0.0
    for depth in range(1, max(1, min(max_depth, search.MAX_PLY - 2)) + 1):
        elapsed = clock() - start
        if depth > 1:
            if elapsed + 3.0 * last > seconds:
                break
            rate = counter[0] / max(elapsed, 1e-6)
            counter[1] = int(counter[0] + rate * (seconds - elapsed)) + 1
        else:
            counter[1] = 1 << 62  # depth 1 always finishes: a move is always found
        counter[2] = 0
        t0 = clock()
        n = search.search_root_frames(st, rules, depth, exact_all, hint, w, tab.zobrist,
                                      tab.key, tab.val, tab.info, tab.frames, tab.moves,
                                      tab.keys, tab.killers, counter, root_moves, root_vals)
        last = clock() - t0
        if n < 0:
            break
        pairs = sorted(range(n), key=lambda i: -root_vals[i])
        order = [int(root_moves[i]) for i in pairs]
        values = [float(root_vals[i]) for i in pairs]
        hint = np.array(order, dtype=np.int64)
        depth_done = depth
        if abs(values[0]) >= search.MATE and (not exact_all or all(
                abs(v) >= search.MATE for v in values)):
            break  # a forced result
    lines = []
    out = np.zeros(max(depth_done, 1) + 1, dtype=np.int64)
    for move in order[:pv_moves]:
        length = search.principal_variation(st, rules, move, tab.zobrist, tab.key, tab.info,
                                            tab.frames, tab.moves, out)
        lines.append([int(fast.move_action(m)) for m in out[:length]])
    return SearchReport(
        actions=[int(fast.move_action(m)) for m in order], values=values, lines=lines,
        depth=depth_done, seldepth=int(counter[3]), nodes=int(counter[0]),
        seconds=clock() - start,
    )


class ThinkingAgent:
    """The expert: the compiled principal-variation alpha-beta (:mod:`.search`) with
    iterative deepening, a transposition table kept between moves, killer moves, and the
    self-play-tuned evaluation, for ``seconds`` per move (the default 1 s)."""

    def __init__(self, seconds: float = DEFAULT_THINK, weights: Any = None,
                 clock: Clock = time.perf_counter) -> None:
        if not (math.isfinite(seconds) and 0 < seconds <= MAX_THINK):
            raise OptionsError(f"thinking time must be more than 0 and at most "
                               f"{MAX_THINK:g} seconds, got {seconds}")
        self.seconds = seconds
        self.weights = weights
        self.clock = clock
        self.name = f"expert:{seconds:g}s"
        self.last: SearchReport | None = None
        self._table: Any = None
        self._rules: Rules | None = None

    @property
    def nodes(self) -> int:
        """The nodes searched so far for the current (or last) move."""
        return 0 if self._table is None else int(self._table.counter[0])

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        hs = _as_hairpin(state)
        moves = hs.moves()
        if len(moves) == 1:
            return moves[0].action
        if self._table is None or self._rules != hs.rules:
            from raceday.games.hairpin import search

            self._table = search.Table()
            self._rules = hs.rules
        self._table.killers[:] = 0
        self.last = think(hs, self.seconds, table=self._table, weights=self.weights,
                          clock=self.clock)
        return self.last.actions[0]


# --- the ladder ----------------------------------------------------------------------
@dataclass(frozen=True)
class Level:
    """A difficulty level: which agent, with which budget."""

    name: str
    description: str
    make: Callable[[], Agent]


def _alphabeta(nodes: int | None, seconds: float | None) -> Callable[[], Agent]:
    return lambda: AlphaBetaAgent(node_budget=nodes, time_budget=seconds)


LEVELS: dict[str, Level] = {
    "easy": Level("easy", "MCTS, 200 simulations with random playouts", lambda: mcts_agent(200)),
    "medium": Level("medium", "greedy: the best-looking move one ply ahead", GreedyAgent),
    "hard": Level("hard", "alpha-beta search, 5,000 nodes per move", _alphabeta(5_000, None)),
    "expert": Level("expert", "principal-variation alpha-beta, tuned evaluation, 1 s per "
                    "move (--think)", lambda: ThinkingAgent(DEFAULT_THINK)),
}

# The expert before it was given time to think, kept so the strength match can be re-run.
OLD_EXPERT = Level("expert-old", "the former expert: alpha-beta search, 50,000 nodes per move",
                   _alphabeta(50_000, None))

AGENT_NAMES = ("human", *LEVELS, "expert-old", "random", "greedy", "mcts", "alphabeta")


def _seconds(budget: str, what: str) -> float:
    try:
        seconds = float(budget[:-1])
    except ValueError:
        raise OptionsError(f"{what} seconds must be a number, got {budget!r}") from None
    if not 0.01 <= seconds <= MAX_THINK:
        raise OptionsError(f"{what} seconds must be 0.01 to {MAX_THINK:g}")
    return seconds


def make_agent(name: str, think: float | None = None) -> Agent:
    """An agent by level (easy/medium/hard/expert, ``expert:Xs`` for X seconds per move,
    expert-old for the former expert) or kind: random, greedy, ``mcts[:N]``
    (N simulations, random playouts), ``mcts-guided[:N]`` (mostly greedy playouts),
    ``alphabeta[:N]`` (N nodes per move) or ``alphabeta:Xs`` (X seconds
    per move). ``think`` sets the expert's seconds per move (default 1)."""
    key = name.strip().lower()
    kind, _, budget = key.partition(":")
    if kind == "expert" and budget.endswith("s"):
        return ThinkingAgent(_seconds(budget, "expert"))
    if kind == "expert" and not budget:
        return ThinkingAgent(DEFAULT_THINK if think is None else think)
    if kind == OLD_EXPERT.name and not budget:
        return OLD_EXPERT.make()
    if kind in LEVELS and not budget:
        return LEVELS[kind].make()
    if kind == "random" and not budget:
        return RandomAgent()
    if kind == "greedy" and not budget:
        return GreedyAgent()
    if kind == "alphabeta" and budget.endswith("s"):
        return AlphaBetaAgent(node_budget=None, time_budget=_seconds(budget, "alpha-beta"))
    if kind in ("mcts", "mcts-guided", "alphabeta"):
        try:
            amount = int(budget) if budget else None
        except ValueError:
            raise OptionsError(f"agent budget must be a whole number, got {budget!r}") from None
        if amount is not None and not 1 <= amount <= 100_000_000:
            raise OptionsError("agent budget must be 1 to 100,000,000")
        if kind == "mcts":
            return mcts_agent(amount or 300)
        if kind == "mcts-guided":
            return guided_mcts_agent(amount or 300)
        return AlphaBetaAgent(node_budget=amount or 200_000)
    raise OptionsError(
        f"unknown agent {name!r}; use one of easy, medium, hard, expert, expert:Xs, "
        "expert-old, random, greedy, mcts[:N], mcts-guided[:N], alphabeta[:N] or alphabeta:Xs"
    )
