"""WielerSIM benchmark: one 200-square classic with 40 riders (protocol path, fast path,
compiled engine), and a 10,000-race prediction (compiled engine);
and a measurement of how often the text's finish times and our ``monotonic_gaps`` variant
differ (seeded races with the shipped 36-rider peloton).

Run: .venv/bin/python bench/bench_wielersim.py [--quick] [--gaps-only]
Target: the 10,000-race prediction in under 60 seconds on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

from raceday.core.play import play_game
from raceday.games.wielersim.dice import DiceBuffer
from raceday.games.wielersim.fast import CompiledRaces, warm_up
from raceday.games.wielersim.game import new_race
from raceday.games.wielersim.predict import predict
from raceday.games.wielersim.rules import peloton_spec, route_spec, run_race_fast


def forty_riders() -> dict[str, Any]:
    """The shipped 36-rider peloton plus a tenth team of four."""
    spec = peloton_spec("classics")
    team = len(spec["teams"])
    spec["teams"].append({"name": "Bench", "colour": "bright_cyan"})
    for i, kind in enumerate(("leader", "climber", "sprinter", "helper")):
        spec["riders"].append({"number": 101 + i, "name": f"Bench {kind}", "type": kind,
                               "team": team})
    return spec


def summit(top: int) -> dict[str, Any]:
    """40 flat squares, then a 20-square climb to the line ramping up to ``top``."""
    return {"name": f"summit {top}", "finish": "uphill",
            "hierarchy": ["climber", "leader", "helper", "sprinter"],
            "sections": [{"length": 40, "colour": "helper"},
                         {"length": 20, "colour": "climber", "road": "uphill",
                          "max_steepness": top}]}


def gap_rule_differences(route: Any, races: int, seed: int = 2012) -> tuple[int, int]:
    """Races (of ``races``, seeds ``seed .. seed + races - 1``, classics peloton) in which
    the variant gives at least one rider another time than the text, and riders so
    affected. The variant changes times only (same throws, same places), so its gaps are
    the running maximum of the text's: one race per seed gives both."""
    template = new_race({"route": route, "peloton": "classics"})
    differ = riders = 0
    for k in range(races):
        state = new_race({"route": template.route_spec, "peloton": "classics"})
        run_race_fast(state, DiceBuffer(np.random.default_rng(seed + k)))
        gaps = [g for _, g, _ in state.results]
        running = np.maximum.accumulate(gaps)
        changed = int(np.count_nonzero(running != np.array(gaps)))
        differ += changed > 0
        riders += changed
    return differ, riders


def measure_gap_rules(races: int) -> None:
    print(f"text's finish times against monotonic_gaps, {races} seeded races each "
          "(seeds 2012..), 36 riders:")
    cases: list[tuple[str, Any]] = [(f"summit, top steepness {t}", summit(t))
                                    for t in (6, 5, 4, 3)]
    cases += [(name, name) for name in ("ardennes", "mountain-stage", "flat-stage")]
    for label, route in cases:
        differ, riders = gap_rule_differences(route, races)
        print(f"  {label:28s} {differ / races:6.1%} of races differ "
              f"({differ}/{races}; {riders / races:.2f} riders per race)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="1,000 races instead of 10,000")
    parser.add_argument("--gaps-only", action="store_true",
                        help="only measure how often the two finish-time rules differ")
    args = parser.parse_args()
    measure_gap_rules(200 if args.quick else 2000)
    if args.gaps_only:
        return
    route = route_spec("flanders")
    peloton = forty_riders()
    n_riders = len(peloton["riders"])
    print(f"route {route['name']}: {route['distance']} squares; {n_riders} riders; "
          f"{os.cpu_count()} cpus")

    reps = 5 if args.quick else 20
    start = time.perf_counter()
    steps = 0
    for seed in range(reps):
        state = new_race({"route": route, "peloton": peloton})
        steps += len(play_game(state, [], np.random.default_rng(seed)).actions)
    full = (time.perf_counter() - start) / reps
    print(f"one race, protocol path with events: {full * 1000:.1f} ms "
          f"({steps / reps:.0f} throws per race)")

    start = time.perf_counter()
    throws = DiceBuffer(np.random.default_rng(1))
    for _ in range(reps * 5):
        run_race_fast(new_race({"route": route, "peloton": peloton}), throws)
    fast = (time.perf_counter() - start) / (reps * 5)
    print(f"one race, fast path: {fast * 1000:.2f} ms")

    start = time.perf_counter()
    warm_up()
    print(f"compile/load: {time.perf_counter() - start:.2f} s (the compiled engine's first "
          "race; not in the figures below)", flush=True)
    engine = CompiledRaces(new_race({"route": route, "peloton": peloton}),
                           np.random.default_rng(1))
    start = time.process_time()
    engine.run(reps * 100)
    compiled = (time.process_time() - start) / (reps * 100)
    print(f"one race, compiled engine: {compiled * 1000:.3f} ms CPU (x{fast / compiled:.0f})")

    n = 1_000 if args.quick else 10_000
    start = time.perf_counter()
    result = predict(route, peloton, n, seed=2012, workers=2)
    took = time.perf_counter() - start
    cpu = float(result.extra["cpu_seconds"])
    best = int(np.argmax(result.wins))
    print(f"prediction of {n} races on 2 workers ({result.extra['engine']} engine): "
          f"{took:.1f} s "
          f"({took / n * 1000:.2f} ms per race); favourite {result.names[best]} "
          f"{result.wins[best] / n:.1%}")
    print(f"  worker CPU time {cpu:.1f} s ({cpu / n * 1000:.2f} ms per race per core); "
          f"load average now {os.getloadavg()[0]:.1f}")
    if n == 10_000:
        print("target (< 60 s):", "met" if took < 60 else "NOT met")


if __name__ == "__main__":
    main()
