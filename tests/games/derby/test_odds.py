"""Exact odds against hand computation, brute force, the engine's own chance tree, and
simulation; the odds board's rounding, the simplified board and the first-out bonus."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest

from raceday.core.protocol import State
from raceday.games.derby.fast import sample_results, simulate_odds
from raceday.games.derby.odds import (
    ALL_PAIRS,
    drop_distribution,
    exact_odds,
    make_board,
    parse_margin,
    quinella_probabilities,
    round_tenths,
    simplify_tenths,
    win_probabilities,
)
from raceday.games.derby.rules import FACES, POSTS, DerbyOptions, DerbyState, new_race

# Chi-square critical values at the 99.9% level (standard tables), for fixed-seed tests.
CHI2_999 = {5: 20.515, 14: 36.123}


def chi_square(counts: np.ndarray, probs: np.ndarray) -> float:
    expected = probs * counts.sum()
    return float(((counts - expected) ** 2 / expected).sum())


def test_two_horses_by_hand() -> None:
    # d4 against d6, no falls: the d6 drops when it shows no more than the d4 (ties: the
    # bigger die drops), so P(d4 wins) = (1 + 2 + 3 + 4) / (6 * 4) = 10/24.
    assert win_probabilities(frozenset({1, 2}), Fraction(0))[1] == Fraction(5, 12)
    # With falls f: the round counts unless both fall; one fall gives the other horse the win.
    f = Fraction(1, 10)
    expected = ((1 - f) ** 2 * Fraction(5, 12) + f * (1 - f)) / (1 - f * f)
    assert win_probabilities(frozenset({1, 2}), f)[1] == expected


def test_drop_distribution_matches_brute_force_over_all_460800_rolls() -> None:
    grids = np.meshgrid(*[np.arange(1, n + 1) for n in FACES], indexing="ij")
    rolls = np.stack([g.ravel() for g in grids], axis=1)
    # key: lowest number first; among equal numbers the die with more faces (later post)
    key = rolls * 8 + (7 - np.arange(6))
    counts = np.bincount(key.argmin(axis=1), minlength=6)
    total = int(np.prod(FACES))
    brute = {post: Fraction(int(counts[post - 1]), total) for post in POSTS}
    assert drop_distribution(frozenset(POSTS)) == brute


def test_probabilities_sum_to_one_and_are_exact_fractions() -> None:
    for rate in ("0", "0.05", "1/3", "0.5"):
        odds = exact_odds(rate)
        assert sum(odds.win.values()) == 1
        assert sum(odds.quinella.values()) == 1
        assert set(odds.quinella) == set(ALL_PAIRS)
        assert all(isinstance(p, Fraction) and p > 0 for p in odds.win.values())
        # a horse's win chance cannot exceed its chance of being in the winning pair
        for h in POSTS:
            assert odds.win[h] <= sum(p for pr, p in odds.quinella.items() if h in pr)


def test_bigger_dice_win_more_often_and_falls_even_the_field() -> None:
    plain, falls = exact_odds(0), exact_odds("0.2")
    assert [plain.win[h] for h in POSTS] == sorted(plain.win.values())
    assert falls.win[1] > plain.win[1] and falls.win[6] < plain.win[6]


def _engine_exact(state: State) -> dict[tuple[int, int, int], Fraction]:
    """Walk the engine's (finite, fall-free) chance tree exactly, merging equal states,
    and collect the distribution of (1st, 2nd, first-out count) from the engine itself."""
    frontier: dict[str, tuple[State, Fraction]] = {"start": (state, Fraction(1))}
    result: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    for _ in range(400):
        if not frontier:
            break
        nxt: dict[str, tuple[State, Fraction]] = {}
        for s, p in frontier.values():
            for action, q in s.chance_outcomes():
                child = s.clone()
                child.apply_action(action)
                if child.is_terminal():
                    assert isinstance(child, DerbyState)
                    out = child.outcome().ranking
                    result[(out[0], out[1], len(child.first_out()))] += p * q
                    continue
                key = json.dumps(child.to_json(), sort_keys=True)
                if key in nxt:
                    nxt[key] = (nxt[key][0], nxt[key][1] + p * q)
                else:
                    nxt[key] = (child, p * q)
        frontier = nxt
    assert not frontier, "the tree should be exhausted"
    return result


@pytest.mark.parametrize("group", [(4, 5, 6), (1, 2, 6)])
def test_dp_matches_the_engines_chance_tree_for_three_horses_with_falls(
    group: tuple[int, ...],
) -> None:
    # A late-race position with three horses left. Without falls the engine's tree is
    # finite and walked directly; with falls, re-rolls loop back to the same position, so
    # the engine's tree is solved as an absorbing chain (see _engine_exact_absorbing).
    for rate in (Fraction(0), Fraction(1, 3)):
        state = DerbyState(DerbyOptions(rate))
        state.group = list(group)
        state.to_roll = list(group)
        state.places = {p: 7 - i for i, p in enumerate(p for p in POSTS if p not in group)}
        state.round = 4
        dist = _engine_exact(state) if rate == 0 else _engine_exact_absorbing(state)
        engine_win: dict[int, Fraction] = defaultdict(Fraction)
        engine_pair: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (first, second, _), p in dist.items():
            engine_win[first] += p
            engine_pair[(min(first, second), max(first, second))] += p
        assert dict(engine_win) == {
            h: p for h, p in win_probabilities(frozenset(group), rate).items() if p
        }
        assert dict(engine_pair) == {
            pr: p for pr, p in quinella_probabilities(frozenset(group), rate).items() if p
        }


def _engine_exact_absorbing(state: DerbyState) -> dict[tuple[int, int, int], Fraction]:
    """Like :func:`_engine_exact` but treats "the same position after a re-roll" as a
    loop: a state seen before at the start of its round is solved as an absorbing chain
    by dividing by (1 - probability of returning)."""
    memo: dict[str, dict[tuple[int, int, int], Fraction]] = {}

    def solve(s: DerbyState) -> dict[tuple[int, int, int], Fraction]:
        key = json.dumps({**s.to_json(), "rerolls": 0}, sort_keys=True)
        if key in memo:
            return memo[key]
        start_key = key
        # expand one full round from s; outcomes that come back to s are the loop
        frontier: list[tuple[DerbyState, Fraction]] = [(s, Fraction(1))]
        result: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
        back = Fraction(0)
        while frontier:
            cur, p = frontier.pop()
            for action, q in cur.chance_outcomes():
                child = cur.clone()
                child.apply_action(action)
                if child.is_terminal():
                    out = child.outcome().ranking
                    result[(out[0], out[1], len(child.first_out()))] += p * q
                elif child.rolls:
                    frontier.append((child, p * q))
                else:  # a new round starts
                    ckey = json.dumps({**child.to_json(), "rerolls": 0}, sort_keys=True)
                    if ckey == start_key:
                        back += p * q
                    else:
                        for k, v in solve(child).items():
                            result[k] += p * q * v
        solved = {k: v / (1 - back) for k, v in result.items()}
        memo[key] = solved
        return solved

    return solve(state)


def test_fast_sampler_agrees_with_exact_odds_chi_square_999() -> None:
    # Fixed seed; chi-square goodness of fit at the 99.9% level for wins (5 degrees of
    # freedom) and quinella pairs (14), with and without falls.
    for rate, seed in (("0", 11), ("0.15", 12)):
        first, second = sample_results(120_000, np.random.default_rng(seed), rate)
        odds = exact_odds(rate)
        wins = np.bincount(first, minlength=7)[1:]
        assert chi_square(wins, np.array([float(odds.win[h]) for h in POSTS])) < CHI2_999[5]
        lo, hi = np.minimum(first, second), np.maximum(first, second)
        pairs = np.array([np.sum((lo == a) & (hi == b)) for a, b in ALL_PAIRS])
        probs = np.array([float(odds.quinella[pr]) for pr in ALL_PAIRS])
        assert chi_square(pairs, probs) < CHI2_999[14]
        assert np.all(first != second)


def test_reference_engine_agrees_with_exact_odds_chi_square_999() -> None:
    rng = np.random.default_rng(2016)
    odds = exact_odds("0.1")
    wins = np.zeros(6)
    for _ in range(2500):
        state = new_race({"fall_rate": "0.1"})
        while not state.is_terminal():
            draw = state.sample_chance(rng)
            state.apply_action(draw.outcome)
        wins[state.outcome().ranking[0] - 1] += 1
    assert chi_square(wins, np.array([float(odds.win[h]) for h in POSTS])) < CHI2_999[5]


def test_simulated_intervals_cover_the_exact_values_at_95_percent_mostly() -> None:
    # 21 intervals at 95%: expect about one miss; more than four misses has probability
    # about 0.3% (binomial 21, 0.05, treating the intervals as independent). Fixed seed.
    sim = simulate_odds(60_000, np.random.default_rng(7), "0.05")
    odds = exact_odds("0.05")
    misses = sum(not (e.low <= float(odds.win[h]) <= e.high) for h, e in sim.win.items())
    misses += sum(
        not (e.low <= float(odds.quinella[pr]) <= e.high) for pr, e in sim.quinella.items()
    )
    assert misses <= 4
    assert sim.to_json()["n"] == 60_000


# --- the board ----------------------------------------------------------------------------


def test_board_is_fair_odds_times_one_minus_margin_to_one_decimal() -> None:
    assert round_tenths(Fraction(27, 10)) == 27
    assert round_tenths(Fraction(2_65, 100)) == 27  # half rounds up
    odds = exact_odds(0)
    board = make_board(odds, parse_margin("0.1"))
    for h in POSTS:
        fair_times = Fraction(9, 10) / odds.win[h]
        assert abs(Fraction(board.win[h], 10) - fair_times) <= Fraction(1, 20)
    zero = make_board(odds, parse_margin(0))
    assert all(zero.win[h] >= board.win[h] for h in POSTS)
    assert board.payout(500, 27) == 1350


def test_simplified_board_uses_easy_numbers_not_above_the_standard_board() -> None:
    assert simplify_tenths(368) == 300
    assert simplify_tenths(151) == 150
    assert simplify_tenths(59) == 50
    assert simplify_tenths(11) == 11
    assert simplify_tenths(123456) == 100000
    odds = exact_odds(0)
    std = make_board(odds, parse_margin("0.1"))
    simple = make_board(odds, parse_margin("0.1"), simple=True)
    easy = {11, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500,
            600, 800, 1000, 1500, 2000, 3000, 5000, 10000, 20000, 50000, 100000}
    for h in POSTS:
        assert simple.win[h] <= std.win[h] and simple.win[h] in easy
    for pr in ALL_PAIRS:
        assert simple.quinella[pr] <= std.quinella[pr] and simple.quinella[pr] in easy


def test_first_out_bonus_multiplies_win_odds_by_one_and_a_half_per_race() -> None:
    odds = exact_odds(0)
    base = make_board(odds, parse_margin("0.1"))
    assert base.win[4] == 59  # the d10 at 5.9 (0.9 / 0.1532...)
    once = make_board(odds, parse_margin("0.1"), first_out_counts={4: 1})
    twice = make_board(odds, parse_margin("0.1"), first_out_counts={4: 2})
    assert once.win[4] == 89  # 5.9 x 1.5 = 8.85 -> 8.9
    assert twice.win[4] == 133  # 5.9 x 2.25 = 13.275 -> 13.3
    assert once.win[6] == base.win[6] and once.quinella == base.quinella
    simple = make_board(odds, parse_margin("0.1"), simple=True, first_out_counts={4: 1})
    assert simple.win[4] == 80  # 8.9 snapped down to the easy 8


def test_margin_validation() -> None:
    from raceday.core.errors import OptionsError

    for bad in ("-0.1", "0.9", "abc"):
        with pytest.raises(OptionsError):
            parse_margin(bad)


def test_exact_json_has_the_documented_shape() -> None:
    doc = exact_odds(0).to_json()
    assert list(doc) == ["game", "win", "quinella"]
    assert list(doc["win"]) == ["d4", "d6", "d8", "d10", "d12", "d20"]  # type: ignore[arg-type]
    assert list(doc["quinella"])[:2] == ["d4-d6", "d4-d8"]  # type: ignore[arg-type]
    names = [f"d{FACES[a - 1]}-d{FACES[b - 1]}" for a, b in itertools.combinations(POSTS, 2)]
    assert list(doc["quinella"]) == names  # type: ignore[arg-type]
