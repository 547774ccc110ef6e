"""Monte Carlo: win / top-2 / top-3 frequencies and race length.

Two engines give the same distribution: the reference rules engine (every rule, every event,
about a thousand races a second) and the compiled sampler of :mod:`raceday.games.keirin.fast`
(a million or so a second, first three places only). ``tests/games/keirin/test_fast.py``
checks that they agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from raceday.analysis.stats import wilson_interval, z_value
from raceday.core.errors import OptionsError
from raceday.core.game import ProgressCallback
from raceday.core.play import play_game
from raceday.games.keirin.game import GAME
from raceday.games.keirin.rules import KeirinOptions

ENGINES = ("fast", "reference")


@dataclass(frozen=True)
class SimulationSummary:
    """Counts of places by rider over ``n`` races (``places[r][k]`` = times rider r was k+1)."""

    options: KeirinOptions
    n: int
    places: np.ndarray  # shape (riders, riders): rider index x place index
    turn_counts: np.ndarray  # turn_counts[t] = races whose winner crossed in turn t
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
        t = np.arange(len(self.turn_counts), dtype=float)
        return float((t * self.turn_counts).sum() / self.n)

    def turns_std(self) -> float:
        """Sample standard deviation of the winner's turn (ddof 1; 0 for a single race)."""
        if self.n < 2:
            return 0.0
        t = np.arange(len(self.turn_counts), dtype=float)
        mean = self.mean_turns()
        return math.sqrt(float((self.turn_counts * (t - mean) ** 2).sum()) / (self.n - 1))

    def mean_turns_interval(self, confidence: float = 0.95) -> tuple[float, float, float]:
        """Mean turns with a normal-approximation interval (as :func:`mean_interval`)."""
        mean = self.mean_turns()
        half = z_value(confidence) * self.turns_std() / math.sqrt(self.n)
        return mean, mean - half, mean + half

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
    progress: ProgressCallback | None = None,
) -> SimulationSummary:
    """Run ``n`` full races on the reference engine (every rule, every event)."""
    riders = options.riders
    places = np.zeros((riders, riders), dtype=np.int64)
    turn_counts = np.zeros(options.max_turns() + 2, dtype=np.int64)
    for i in range(n):
        state = GAME.new_state(options)
        record = play_game(state, [], rng, max_steps=GAME.max_steps(options))
        for place, rider in enumerate(state.ranked):
            places[rider - 1, place] += 1
        turn_counts[next(e["turn"] for e in record.events if e.kind == "place")] += 1
        if progress is not None:
            progress(i + 1, n)
    return SimulationSummary(options=options, n=n, places=places, turn_counts=turn_counts)


def simulate_fast(
    options: KeirinOptions,
    n: int,
    rng: np.random.Generator,
    progress: ProgressCallback | None = None,
) -> SimulationSummary:
    """Sample ``n`` races with the compiled sampler (first three places), batch by batch:
    only counts are kept, so memory stays flat whatever ``n`` is."""
    from raceday.games.keirin.fast import iter_race_batches  # compiles on first use: late

    resolved = min(3, options.riders)
    riders = options.riders
    places = np.zeros((riders, riders), dtype=np.int64)
    turn_counts = np.zeros(options.max_turns() + 2, dtype=np.int64)
    done = 0
    for batch in iter_race_batches(options, n, rng, places=resolved):
        for place in range(resolved):
            places[:, place] += np.bincount(batch.ranking[:, place], minlength=riders + 1)[1:]
        turn_counts += np.bincount(batch.turns, minlength=len(turn_counts))[: len(turn_counts)]
        done += len(batch.turns)
        if progress is not None:
            progress(done, n)
    return SimulationSummary(
        options=options, n=n, places=places, turn_counts=turn_counts, resolved=resolved,
    )


def simulate(
    options: KeirinOptions,
    n: int,
    rng: np.random.Generator,
    engine: str = "fast",
    progress: ProgressCallback | None = None,
) -> SimulationSummary:
    """Simulate ``n`` races on the chosen engine ("fast" or "reference"); ``progress(done,
    n)`` after every race (reference) or batch (fast)."""
    if engine == "fast":
        return simulate_fast(options, n, rng, progress)
    if engine == "reference":
        return simulate_reference(options, n, rng, progress)
    raise OptionsError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
