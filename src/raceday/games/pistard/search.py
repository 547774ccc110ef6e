"""Search over the compiled PISTARD engine (:mod:`raceday.games.pistard.fast`): the easy and
medium riders' rules as compiled policies, whole races played out by them, and a Monte Carlo
search that tries a decision's candidate actions by playing each out to the end of the race.

The compiled policies score actions exactly like :class:`raceday.games.pistard.agents.GreedyRider`
(tests/games/pistard/test_search.py checks it). The search values a finished race for the
searching player: 1 for a win (his rider or team wins; a tied pursuit is half), plus a small
share for how high his best rider placed, so that among equally winning moves the one that
places better is kept; in the team time trial, a faster time.

This module imports numba: import it lazily.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from raceday.core.fastrng import random_below, random_unit
from raceday.core.kernels import kernel
from raceday.games.pistard import fast
from raceday.games.pistard.fast import (
    CHANCE_NODE,
    DIST,
    I_AHEAD,
    I_BEHIND,
    I_LANE,
    I_TOKEN,
    IDENT,
    INFO_SIZE,
    LANE,
    MAXM,
    MOVER,
    NRANK,
    NRIDERS,
    NTT,
    OFFSET,
    OWNER,
    P_CAP,
    P_LAPS,
    P_LENGTH,
    P_VARIANT,
    PH_PLACE,
    PHASE,
    PQ,
    RANK,
    RTOT,
    ST_RACE,
    STATUS,
    TERMINAL_NODE,
    TT,
    V_ELIM,
    V_POINTS,
    V_PURSUIT,
    V_SCRATCH,
    V_SPRINT,
    V_TTT,
    WORK_SIZE,
    decide,
    legal_ws,
    throw,
)
from raceday.games.pistard.moves import THROWS

# the medium rider's weights (agents.py holds the same numbers for the reference riders)
LANE_WEIGHT = 0.45
SHELTER_WEIGHT = 0.7
TOKEN_VALUE_EARLY = 1.6
TOKEN_VALUE_LATE = 0.3
EASY_NOISE = 2.5

PLACE_SHARE = 0.1  # weight of the best rider's place beside a win


@kernel
def _occupied_at(st: np.ndarray, length: int, col: int, lane: int) -> Any:
    for i in range(st[NRIDERS]):
        if st[STATUS + i] == ST_RACE and (st[DIST + i] + st[OFFSET + i]) % length == col \
                and st[LANE + i] == lane:
            return True
    return False


@kernel
def _rider_at(st: np.ndarray, length: int, col: int, lane: int, exclude: int) -> Any:
    """The racing rider on the square (``col``, ``lane``) other than ``exclude``, or -1."""
    for i in range(st[NRIDERS]):
        if i != exclude and st[STATUS + i] == ST_RACE and st[LANE + i] == lane \
                and (st[DIST + i] + st[OFFSET + i]) % length == col:
            return i
    return -1


@kernel
def _leads_team(st: np.ndarray, mover: int) -> Any:
    """Whether ``mover`` is (level with) the furthest racing rider of his player."""
    for i in range(st[NRIDERS]):
        if st[OWNER + i] == st[OWNER + mover] and st[STATUS + i] == ST_RACE \
                and st[DIST + i] > st[DIST + mover]:
            return False
    return True


# A greedy rider's weights: W_TACTICAL 0 is the easy rider (distance, noise), 1 the
# tactical evaluation of the medium rider (and of the tuned riders of the search).
(W_TACTICAL, W_NOISE, W_LANE, W_SHELTER, W_TOKEN_EARLY, W_TOKEN_LATE, W_LATE, W_LANE_LATE,
 W_PLACE_LANE, W_PLACE_BACK, W_PLACE_SHELTER, W_STAY, W_STAY_TO_GO, W_SHELTER_LATE,
 W_BLOCK, W_FRONT_OWN, W_SUPPORT) = range(17)
WEIGHTS = 17
EASY_WEIGHTS = np.array([0, EASY_NOISE, 0, 0, 0, 0, 14, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0],
                        dtype=np.float64)
MEDIUM_WEIGHTS = np.array([1, 0, LANE_WEIGHT, SHELTER_WEIGHT, TOKEN_VALUE_EARLY,
                           TOKEN_VALUE_LATE, 14, LANE_WEIGHT, 1.0, 0.6, 0.5, 2.5, 10,
                           SHELTER_WEIGHT, 0, 0, 0], dtype=np.float64)
# The former tuned rule (tuned against medium, compiled scratch races): still the best of
# our rules in the elimination race, the team pursuit and the team time trial.
TUNED_WEIGHTS = np.array([1, 0, 0.595, 0.0, 2.84, 1.309, 11.132, 0.377, 0.719, 0.6, 0.002, 2.5,
                          10, 0.0, 0, 0, 0], dtype=np.float64)
# the searching riders' rule in the scratch and points races: tuned against easy and medium
# together, with the blocking and team terms (bench/bench_pistard.py --only tune); 40,000
# compiled 2 x 4 scratch races: 84.2% against easy, 69.3% against medium (the former rule:
# 80.5% and 69.6%). A rule tuned against this one from another start reached 50.5% against
# it: the greedy rules have levelled off.
HARD_WEIGHTS = np.array([1, 0, 0.53, -0.013, 2.415, 0.742, 8.95, 0.281, 1.05, 2.325, -0.211, 2.5,
                         10, -0.112, -0.016, 0.02, 0.433], dtype=np.float64)
# the sprint, tuned on its own (2026-11-26: 400 hill-climb steps of 2 x 20,000 compiled
# sprints against easy and medium; 60,000 fresh sprints: 78.5% / 59.6% against easy /
# medium, the former sprint rule 77.7% / 58.1%; bench/bench_pistard.py --only rules).
# Standing still lost its value: the tuned rule never does it.
SPRINT_WEIGHTS = np.array([1, 0, 0.804, 0.34, 1.709, 1.034, 30.643, 0.564, 0.719, 0.764, 0.002,
                           -0.103, 27.171, -0.044, 0, 0, 0], dtype=np.float64)
# the team pursuit, tuned on its own the same way (300 steps of 2 x 10,000 compiled races;
# 20,000 fresh races: 90.1% / 65.0% against easy / medium, the former tuned rule 88.2% /
# 60.7%). The two standing-still weights do not act outside the sprint.
PURSUIT_WEIGHTS = np.array([1, 0, 0.794, -0.207, 2.931, 1.749, 11.426, 0.689, 0.39, 0.6, -0.33,
                            2.5, 10, 0.393, 0.041, -0.149, -0.112], dtype=np.float64)
# the elimination race with one rider a player, tuned on its own (300 steps of 2 x 10,000
# compiled 3 x 1 races; share of wins with 3 / 4 / 5 players, fresh races, against easy:
# 70.5% / 63.1% / 56.3%, against medium: 43.2% / 37.6% / 31.7%; the former tuned rule
# 68.1% / 62.0% / 55.8% and 38.8% / 34.6% / 29.7%). With two or more riders a player the
# former rule stays better (2 x 2: 84.6% / 64.7% against 83.7% / 60.8%). These figures:
# bench/bench_pistard.py --only rules.
ELIMINATION_SOLO_WEIGHTS = np.array([1, 0, 0.694, 0.281, 1.705, 1.571, 13.942, 0.38, 0.405,
                                     0.407, -1.818, 2.557, 19.862, 0.157, 0.254, -0.024,
                                     -0.268], dtype=np.float64)


def weights_for(params: np.ndarray, st: np.ndarray | None = None) -> np.ndarray:
    """The tuned weights the searching riders play a race with: the sprint, the team
    pursuit and the elimination race with one rider a player (told by the race ``st``) have
    their own, the scratch and points races :data:`HARD_WEIGHTS`, the other races the
    former tuned rule (which is better there: measured in compiled races)."""
    variant = params[P_VARIANT]
    if variant == V_SPRINT:
        return SPRINT_WEIGHTS
    if variant == V_PURSUIT:
        return PURSUIT_WEIGHTS
    if variant in (V_SCRATCH, V_POINTS):
        return HARD_WEIGHTS
    if variant == V_ELIM and st is not None and st[NRIDERS] <= params[fast.P_PLAYERS]:
        return ELIMINATION_SOLO_WEIGHTS
    return TUNED_WEIGHTS


@kernel
def score(st: np.ndarray, par: np.ndarray, act: int, row: np.ndarray, w: np.ndarray) -> Any:
    """A greedy rider's evaluation of one legal action (``row`` is its info row; ``w``
    its weights: :data:`MEDIUM_WEIGHTS` is exactly the medium rider's rule, and
    :data:`EASY_WEIGHTS` the easy rider's without its noise)."""
    length = par[P_LENGTH]
    tactical = w[W_TACTICAL] > 0
    if st[PHASE] == PH_PLACE:
        back = row[I_AHEAD]
        lane = row[I_LANE]
        if not tactical:
            return -float(back) if back <= 3 else -10.0
        col = (st[OFFSET + st[PQ]] - back) % length
        shelter = w[W_PLACE_SHELTER] if _occupied_at(st, length, (col + 1) % length, lane) \
            else 0.0
        return w[W_PLACE_LANE] * lane - w[W_PLACE_BACK] * back + shelter
    mover = st[MOVER]
    if mover < 0:
        i = row[I_AHEAD]
        return float(st[LANE + i] * 10 + st[DIST + i])
    if row[I_AHEAD] < 0:  # standing still
        if par[P_VARIANT] != V_SPRINT:
            return 1.0 if tactical else 0.0
        other = 1 - mover
        to_go = length - st[DIST + mover]
        if tactical and st[STATUS + other] == ST_RACE and st[DIST + mover] >= st[DIST + other] \
                and to_go > w[W_STAY_TO_GO]:
            return w[W_STAY]
        return 0.0
    ahead = row[I_AHEAD]
    value = float(ahead)
    if not tactical:
        return value - (0.5 if row[I_TOKEN] else 0.0)
    to_go = par[P_LAPS] * length - (st[DIST + mover] + ahead)
    if to_go <= 0:
        return 100.0 + value
    if w[W_SUPPORT] != 0.0 and not _leads_team(st, mover):
        value *= 1.0 - w[W_SUPPORT]
    if w[W_BLOCK] != 0.0 or w[W_FRONT_OWN] != 0.0:
        col = (st[DIST + mover] + st[OFFSET + mover] + ahead - 1) % length
        behind = _rider_at(st, length, col, row[I_LANE], mover)
        if behind >= 0:
            if st[OWNER + behind] == st[OWNER + mover]:
                value += w[W_FRONT_OWN]
            else:
                value += w[W_BLOCK]
    late = to_go <= w[W_LATE]
    value += (w[W_LANE_LATE] if late else w[W_LANE]) * (row[I_LANE] - 1)
    if row[I_BEHIND]:
        value += w[W_SHELTER_LATE] if late else w[W_SHELTER]
    if row[I_TOKEN]:
        value -= w[W_TOKEN_LATE] if late else w[W_TOKEN_EARLY]
    return value


@kernel
def pick(st: np.ndarray, par: np.ndarray, acts: np.ndarray, info: np.ndarray, n: int,
         w: np.ndarray, rs: np.ndarray) -> Any:
    """The index of the action a greedy rider with weights ``w`` takes (noise
    ``w[W_NOISE]`` added to each score, as the easy rider does); ties broken at random."""
    if n == 1:
        return 0
    best = -1e18
    count = 0
    chosen = 0
    noise = w[W_NOISE]
    for k in range(n):
        v = score(st, par, acts[k], info[k], w)
        if noise > 0:
            v += noise * random_unit(rs)
        if v > best + 1e-9:
            best = v
            count = 1
            chosen = k
        elif v >= best - 1e-9:
            count += 1  # reservoir sampling among the tied best
            if random_below(rs, count) == 0:
                chosen = k
    return chosen


@kernel
def _hash(x: Any) -> Any:
    z = np.uint64(x) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel
def dice_for(dice_seed: int, st: np.ndarray) -> Any:
    """The throw of the rider about to throw, fixed by the stream, the round, the heat and
    the rider: two play-outs from one stream give each rider the same dice in the same
    round, whatever happened before (so the candidates' play-outs differ by their choices
    rather than by their luck)."""
    key = (st[fast.HEAT] * 65536 + st[RTOT]) * 256 + st[IDENT + st[MOVER]]
    return np.int64(_hash(_hash(dice_seed) ^ np.uint64(key)) % np.uint64(THROWS))


@kernel
def next_decision(st: np.ndarray, par: np.ndarray, grid: np.ndarray, dice_seed: int,
                  acts: np.ndarray, info: np.ndarray, ws: np.ndarray) -> Any:
    """``(player, n)``: the player to decide next and his ``n`` legal actions (filled in
    ``acts`` and ``info``), a pending throw made first with the dice of ``dice_seed``
    (:func:`dice_for`); ``(TERMINAL_NODE, 0)`` once the race is over."""
    player = fast.current_player(st, par)
    if player == TERMINAL_NODE:
        return player, 0
    if player == CHANCE_NODE:
        n = throw(st, par, grid, dice_for(dice_seed, st), acts, info, ws)
        return fast.current_player(st, par), n
    return player, legal_ws(st, par, grid, acts, info, ws)


@kernel
def play_out(st: np.ndarray, par: np.ndarray, grid: np.ndarray, weights: np.ndarray,
             rs: np.ndarray, dice_seed: int, acts: np.ndarray, info: np.ndarray,
             ws: np.ndarray) -> None:
    """Play ``st`` to the end in place, player ``p`` by the greedy rule with weights
    ``weights[p]``; the throws come
    from ``dice_seed`` (:func:`dice_for`), the riders' tie-breaks from ``rs``."""
    while True:
        player, n = next_decision(st, par, grid, dice_seed, acts, info, ws)
        if player == TERMINAL_NODE:
            return
        if n > 0:
            decide(st, par, acts[pick(st, par, acts, info, n, weights[player], rs)])


@kernel
def value(st: np.ndarray, par: np.ndarray, player: int) -> Any:
    """The search's value of a finished race for ``player``."""
    variant = par[P_VARIANT]
    if variant == V_TTT:
        rounds = float(par[P_CAP])
        if st[NTT] > 0:
            rounds = st[TT + 1] - st[TT + 2] / 7.0
        return 10.0 / (10.0 + max(0.0, rounds))
    if variant == V_PURSUIT:
        if st[NRANK] == 0:
            return 0.5
        return 1.0 if st[RANK] == player else 0.0
    n = st[NRANK]
    if n == 0:
        return 0.0
    if st[OWNER + st[RANK]] == player:
        return 1.0 + PLACE_SHARE
    for place in range(1, n):
        if st[OWNER + st[RANK + place]] == player:
            return PLACE_SHARE * (n - 1 - place) / (n - 1)
    return 0.0


@kernel(nogil=True)
def rollouts(st0: np.ndarray, par: np.ndarray, grid: np.ndarray, cand: np.ndarray,
             weights: np.ndarray, player: int, seed: int, first: int, out: np.ndarray) -> None:
    """Play races after each candidate action and put the values for ``player`` in
    ``out[c, j]``; race ``j`` uses stream ``first + j``, the same throws for every
    candidate (common random numbers, :func:`dice_for`)."""
    acts = np.empty(MAXM, dtype=np.int64)
    info = np.empty((MAXM, INFO_SIZE), dtype=np.int64)
    ws = np.empty(WORK_SIZE, dtype=np.int64)
    rs = np.empty(1, dtype=np.uint64)
    st = st0.copy()
    for c in range(cand.shape[0]):
        for j in range(out.shape[1]):
            stream = first + j
            st[:] = st0
            rs[0] = np.uint64(seed + 7919 * stream + 1)
            decide(st, par, cand[c])
            play_out(st, par, grid, weights, rs, seed * 1_000_003 + stream, acts, info, ws)
            out[c, j] = value(st, par, player)


@kernel
def ranked(st: np.ndarray, par: np.ndarray, grid: np.ndarray, acts: np.ndarray,
           info: np.ndarray, w: np.ndarray) -> Any:
    """Fill the legal actions, best first by a greedy rider's evaluation; return the count."""
    ws = np.empty(WORK_SIZE, dtype=np.int64)
    n = legal_ws(st, par, grid, acts, info, ws)
    scores = np.empty(n)
    for k in range(n):
        scores[k] = score(st, par, acts[k], info[k], w)
    order = np.argsort(-scores, kind="mergesort")
    acts[:n] = acts[:n][order]
    return n


@kernel
def greedy_match(st0: np.ndarray, par: np.ndarray, grid: np.ndarray, wa: np.ndarray,
                 wb: np.ndarray, seed: int, games: int) -> Any:
    """Greedy riders with weights ``wa`` against ``wb`` (every other player), seats
    alternating, game ``g`` with throws from stream ``seed + g``: A's share of the wins."""
    acts = np.empty(MAXM, dtype=np.int64)
    info = np.empty((MAXM, INFO_SIZE), dtype=np.int64)
    ws = np.empty(WORK_SIZE, dtype=np.int64)
    rs = np.empty(1, dtype=np.uint64)
    weights = np.empty((fast.MAXP, WEIGHTS))
    st = st0.copy()
    players = par[fast.P_PLAYERS]
    won = 0.0
    for g in range(games):
        a_seat = g % players
        for p in range(fast.MAXP):
            weights[p] = wa if p == a_seat else wb
        st[:] = st0
        rs[0] = np.uint64(seed + 7919 * g + 1)
        play_out(st, par, grid, weights, rs, seed + g, acts, info, ws)
        if par[P_VARIANT] == V_TTT:
            continue
        if par[P_VARIANT] == V_PURSUIT:
            won += 0.5 if st[NRANK] == 0 else (1.0 if st[RANK] == a_seat else 0.0)
        elif st[OWNER + st[RANK]] == a_seat:
            won += 1.0
    return won / games
