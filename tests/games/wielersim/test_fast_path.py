"""The fast path (buffered dice, no events) against the reference protocol path."""

from __future__ import annotations

import math

import numpy as np

from raceday.core.play import play_game
from raceday.games.wielersim.game import new_race
from raceday.games.wielersim.predict import add_result, count_races, predict
from raceday.games.wielersim.rules import peloton_spec, route_spec

ROUTE = "ardennes"
PELOTON = "small"
Z_999 = 3.29  # two-sided 99.9 % normal quantile


def test_fast_path_matches_protocol_path_win_distribution_by_rider_type() -> None:
    """Two-proportion z-tests at 99.9 % confidence (fixed seeds) for each rider type's
    share of wins, protocol path (sample_chance, apply_action) vs the fast path."""
    n_protocol, n_fast = 600, 3000
    proto = np.zeros((3, 12), dtype=np.int64)
    rng = np.random.default_rng(20261122)
    for _ in range(n_protocol):
        state = new_race({"route": ROUTE, "peloton": PELOTON})
        play_game(state, [], rng)
        add_result(proto, state)
    fast = count_races(route_spec(ROUTE), peloton_spec(PELOTON), n_fast,
                       np.random.SeedSequence(7))
    kinds = new_race({"route": ROUTE, "peloton": PELOTON}).kind
    for t in set(kinds):
        idx = [i for i, k in enumerate(kinds) if k == t]
        p1 = proto[0, idx].sum() / n_protocol
        p2 = fast[0, idx].sum() / n_fast
        pooled = (proto[0, idx].sum() + fast[0, idx].sum()) / (n_protocol + n_fast)
        se = math.sqrt(pooled * (1 - pooled) * (1 / n_protocol + 1 / n_fast))
        assert se == 0 or abs(p1 - p2) / se < Z_999, (t, p1, p2)
    # the podium counts agree too, summed over the leaders
    leaders = [i for i, k in enumerate(kinds) if k == 0]
    q1, q2 = proto[1, leaders].sum() / n_protocol, fast[1, leaders].sum() / n_fast
    assert abs(q1 - q2) < 3 * Z_999 * math.sqrt(0.25 / n_protocol)


def test_prediction_does_not_depend_on_the_number_of_workers() -> None:
    r, p = route_spec("flat-stage"), peloton_spec(PELOTON)
    one = predict(r, p, 300, seed=3, workers=1)
    two = predict(r, p, 300, seed=3, workers=2)
    assert (one.wins == two.wins).all() and (one.top10 == two.top10).all()
    assert one.wins.sum() == 300 and one.podiums.sum() == 900
    data = one.to_json()
    assert data["game"] == "wielersim" and data["n"] == 300
    assert abs(sum(data["win"].values()) - 1) < 1e-9


def test_stopping_after_the_top_ten_leaves_those_places_unchanged() -> None:
    from raceday.games.wielersim.dice import DiceBuffer
    from raceday.games.wielersim.rules import run_race_fast

    for seed in range(3):
        full = run_race_fast(new_race({"route": "flanders", "peloton": "classics"}),
                             DiceBuffer(np.random.default_rng(seed)))
        short = run_race_fast(new_race({"route": "flanders", "peloton": "classics"}),
                              DiceBuffer(np.random.default_rng(seed)), places=10)
        assert len(short.results) >= 10 and not short.is_terminal()
        assert short.results[:10] == full.results[:10]


# --- record for record: the fast path is the reference engine without checks or events ------
import pytest  # noqa: E402

from raceday.games.wielersim.dice import DiceBuffer  # noqa: E402
from raceday.games.wielersim.route import SHIPPED_ROUTES  # noqa: E402
from raceday.games.wielersim.rules import run_race_fast, run_race_reference  # noqa: E402


@pytest.mark.parametrize("route", SHIPPED_ROUTES)
def test_fast_path_rides_the_same_race_as_the_reference_engine(route: str) -> None:
    """Same seed, same dice: the fast path (no checks, no events) and the reference path
    (apply_action checking every value, recording every event) end in equal states, with
    the same places, gaps, turns, sprint and climb places, squares and lanes."""
    for seed in (1, 2, 3, 2012):
        for peloton in ("classics", "small"):
            options = {"route": route, "peloton": peloton}
            fast = run_race_fast(new_race(options), DiceBuffer(np.random.default_rng(seed)))
            reference = new_race(options)
            events = run_race_reference(reference, DiceBuffer(np.random.default_rng(seed)))
            assert fast.is_terminal() and reference.is_terminal()
            assert reference.to_json() == fast.to_json(), (route, seed, peloton)
            assert fast.results == reference.results and len(fast.results) == fast.n
            finishes = [(e["rider"], e["gap"], e["turn"]) for e in events
                        if e.kind == "finish"]
            assert finishes == [(fast.num(r), g, t) for r, g, t in fast.results]
            throws = sum(1 for e in events if e.kind == "throw")
            assert throws > 5 * fast.n  # a whole race was ridden, throw by throw


def test_stage_race_fast_path_gives_the_reference_records() -> None:
    """A whole stage race (prologue and six stages) on one generator: every stage record
    is the same on the fast path and on the reference path."""
    from raceday.games.wielersim.stage import resolve_tour, tour_records

    tour, pel = resolve_tour("ronde-van-belgie"), peloton_spec(PELOTON)
    for seed in (5, 6):
        fast = tour_records(tour, pel, np.random.default_rng(seed))
        reference = tour_records(tour, pel, np.random.default_rng(seed),
                                 engine=run_race_reference)
        assert len(fast) == len(tour["stages"]) + int(tour["prologue"])
        assert fast == reference
