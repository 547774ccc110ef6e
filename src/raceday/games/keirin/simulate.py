"""Monte Carlo: win / top-2 / top-3 frequencies and race length.

Two engines give the same distribution: the reference rules engine (every rule, every event,
about a thousand races a second) and the compiled sampler of :mod:`raceday.games.keirin.fast`
(a million or so a second, first three places only). ``tests/games/keirin/test_fast.py``
checks that they agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from raceday.analysis.stats import mean_interval, wilson_interval
from raceday.core.errors import OptionsError
from raceday.core.play import play_game
from raceday.games.keirin.rules import KeirinOptions, KeirinState

ENGINES = ("fast", "reference")


@dataclass(frozen=True)
class SimulationSummary:
    """Counts of places by rider over ``n`` races (``places[r][k]`` = times rider r was k+1)."""

    options: KeirinOptions
    n: int
    places: np.ndarray  # shape (riders, riders): rider index x place index
    turns: np.ndarray  # turns of the deciding turn (when the winner crossed), per race
    resolved: int = 0  # places counted (0 = all); the fast engine stops after the third

    def top(self, rider: int, k: int) -> int:
        """Races in which ``rider`` finished in the first ``k`` places."""
        if self.resolved and k > self.resolved:
            raise ValueError(f"only the first {self.resolved} places were simulated")
        return int(self.places[rider - 1, :k].sum())

    def rate(self, rider: int, k: int) -> float:
        return self.top(rider, k) / self.n

    def interval(self, rider: int, k: int, confidence: float = 0.95) -> tuple[float, float]:
        return wilson_interval(self.top(rider, k), self.n, confidence)

    def mean_turns(self) -> float:
        return float(self.turns.mean())

    def mean_turns_interval(self) -> tuple[float, float, float]:
        return mean_interval(self.turns.astype(float))

    def to_json(self) -> dict[str, object]:
        riders = range(1, self.options.riders + 1)
        return {
            "game": "keirin",
            "n": self.n,
            "riders": self.options.riders,
            "length": self.options.length,
            "derny": self.options.derny,
            "win": {str(r): self.rate(r, 1) for r in riders},
            "win_ci95": {str(r): list(self.interval(r, 1)) for r in riders},
            "top2": {str(r): self.rate(r, 2) for r in riders},
            "top2_ci95": {str(r): list(self.interval(r, 2)) for r in riders},
            "top3": {str(r): self.rate(r, 3) for r in riders},
            "top3_ci95": {str(r): list(self.interval(r, 3)) for r in riders},
            "mean_turns": self.mean_turns(),
        }


def simulate_reference(
    options: KeirinOptions,
    n: int,
    rng: np.random.Generator,
    on_progress: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Run ``n`` full races on the reference engine (every rule, every event)."""
    riders = options.riders
    places = np.zeros((riders, riders), dtype=np.int64)
    turns = np.zeros(n, dtype=np.int64)
    for i in range(n):
        state = KeirinState(options)
        record = play_game(state, [], rng, max_steps=options.max_steps())
        for place, rider in enumerate(state.ranked):
            places[rider - 1, place] += 1
        turns[i] = next(e["turn"] for e in record.events if e.kind == "place")
        if on_progress is not None:
            on_progress(i + 1)
    return SimulationSummary(options=options, n=n, places=places, turns=turns)


def simulate_fast(
    options: KeirinOptions,
    n: int,
    rng: np.random.Generator,
    on_progress: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Sample ``n`` races with the compiled sampler (first three places)."""
    from raceday.games.keirin.fast import sample_races  # compiles on first use: import late

    resolved = min(3, options.riders)
    races = sample_races(options, n, rng, places=resolved, on_progress=on_progress)
    riders = options.riders
    places = np.zeros((riders, riders), dtype=np.int64)
    for place in range(resolved):
        places[:, place] = np.bincount(races.ranking[:, place], minlength=riders + 1)[1:]
    return SimulationSummary(
        options=options, n=n, places=places, turns=races.turns.astype(np.int64),
        resolved=resolved,
    )


def simulate(
    options: KeirinOptions,
    n: int,
    rng: np.random.Generator,
    engine: str = "fast",
    on_progress: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Simulate ``n`` races on the chosen engine ("fast" or "reference")."""
    if engine == "fast":
        return simulate_fast(options, n, rng, on_progress)
    if engine == "reference":
        return simulate_reference(options, n, rng, on_progress)
    raise OptionsError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
