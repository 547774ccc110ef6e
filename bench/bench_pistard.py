"""PISTARD benchmarks: engine speed, computer-rider strength and race length by lap length.

Run: ``.venv/bin/python bench/bench_pistard.py [--quick]`` (under ``nice`` on shared machines).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from raceday.analysis.stats import mean_interval, wilson_interval
from raceday.core.agents import Agent, RandomAgent
from raceday.core.play import play_game
from raceday.games.pistard.agents import make_agent
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import design_track


def timed(label: str, fn: Callable[[], int]) -> None:
    start = time.perf_counter()
    count = fn()
    elapsed = time.perf_counter() - start
    print(f"{label}: {count} in {elapsed:.2f}s = {count / elapsed:,.1f}/s")


def move_generation(positions: int) -> int:
    """Legal-move tables built from positions met in random races."""
    rng = np.random.default_rng(1)
    built = 0
    while built < positions:
        state = PistardState(PistardOptions(players=2))
        while not state.is_terminal() and built < positions:
            if state.is_chance_node():
                draw = state.sample_chance(rng)
                state.apply_action(draw.outcome, draw.detail)
            else:
                acts = state.legal_actions()
                if state.mover is not None:
                    state.invalidate_moves()
                    state.move_table()
                    built += 1
                state.apply_action(acts[int(rng.integers(len(acts)))])
    return built


def races(agents: Callable[[], list[Agent]], n: int, options: PistardOptions) -> int:
    rng = np.random.default_rng(2)
    for _ in range(n):
        play_game(PistardState(options), agents(), rng)
    return n


def match(a: str, b: str, n: int, riders: int, simulations: int | None) -> None:
    """Seat-alternating match; prints a's win rate with a 95% Wilson interval."""
    rng = np.random.default_rng(2024)
    wins = 0
    start = time.perf_counter()
    options = PistardOptions(players=2, riders_per_player=riders)
    for race in range(n):
        first, second = make_agent(a, simulations), make_agent(b, simulations)
        seats = [first, second] if race % 2 == 0 else [second, first]
        state = PistardState(options)
        play_game(state, seats, rng)
        winner = state.outcome().ranking[0]
        owner = next(r.owner for r in state.riders if r.ident == winner)
        wins += seats[owner] is first
    lo, hi = wilson_interval(wins, n)
    per = (time.perf_counter() - start) / n
    print(f"{a} vs {b}, scratch 2x{riders}: {a} wins {wins}/{n} = {wins / n:.1%} "
          f"(95% {lo:.1%}-{hi:.1%}), {per:.2f}s a race")


def hard_decision_time(decisions: int) -> None:
    rng = np.random.default_rng(5)
    agent = make_agent("hard")
    medium = make_agent("medium")
    times = []
    state = PistardState(PistardOptions(players=2))
    while len(times) < decisions:
        if state.is_terminal():
            state = PistardState(PistardOptions(players=2))
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            state.apply_action(draw.outcome, draw.detail)
        elif state.mover is not None and len(state.legal_actions()) > 1:
            start = time.perf_counter()
            action = agent.choose(state, rng)
            times.append(time.perf_counter() - start)
            state.apply_action(action)
        else:
            state.apply_action(medium.choose(state, rng))
    mean, lo, hi = mean_interval(np.asarray(times))
    print(f"hard (MCTS, 120 simulations) decision, 8 riders: {mean * 1000:.0f} ms "
          f"(95% {lo * 1000:.0f}-{hi * 1000:.0f})")


def lap_lengths(n: int) -> None:
    print("lap length -> turns and throws per scratch race (2 players x 4, medium vs easy):")
    for length in (32, 40, 48, 56, 64):
        track = design_track(length, 3)
        turns, throws = [], []
        rng = np.random.default_rng(length)
        for _ in range(n):
            state = PistardState(PistardOptions(players=2), track)
            record = play_game(state, [make_agent("medium"), make_agent("easy")], rng)
            turns.append(state.rounds_total)
            throws.append(sum(1 for e in record.events if e.kind == "throw"))
        print(f"  {length:>3} columns: {np.mean(turns):5.1f} turns, {np.mean(throws):5.1f} throws")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small runs (a few seconds)")
    args = parser.parse_args()
    quick = args.quick
    default = PistardOptions(players=2)
    timed("move tables built", lambda: move_generation(2_000 if quick else 20_000))
    timed("random scratch races (8 riders, full protocol)",
          lambda: races(lambda: [RandomAgent(), RandomAgent()], 20 if quick else 200, default))
    timed("medium-vs-medium scratch races (8 riders)",
          lambda: races(lambda: [make_agent("medium"), make_agent("medium")],
                        20 if quick else 500, default))
    hard_decision_time(10 if quick else 60)
    if quick:
        match("hard", "easy", 10, 2, 40)
        return
    lap_lengths(100)
    match("medium", "easy", 1000, 4, None)
    match("medium", "easy", 1000, 1, None)
    match("hard", "easy", 200, 2, 60)
    match("hard", "medium", 200, 2, 60)


if __name__ == "__main__":
    main()
