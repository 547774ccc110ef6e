"""Race predictions: many simulated races, with confidence intervals.

Two engines ride the same races for the same seed (the same dice, throw for throw):
``fast``, the compiled engine of :mod:`raceday.games.wielersim.fast` (numba, the
default), and ``reference``, the rules engine's own fast path
(:func:`raceday.games.wielersim.rules.run_race_fast`, pure Python, thirty times slower).

The races run in chunks through the shared seeded runner (:func:`raceday.core.runner.
run_chunks`, in-process or on Dask): chunk ``i`` rides with the ``i``-th seed spawned from
one :class:`numpy.random.SeedSequence`, so a prediction depends only on the seed and ``n``,
never on the number of workers, the order in which chunks finish, or the scheduler.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from raceday.analysis.stats import wilson_interval
from raceday.core.errors import OptionsError
from raceday.core.game import ProgressCallback
from raceday.core.runner import Executor, run_chunks
from raceday.games.wielersim.dice import DiceBuffer
from raceday.games.wielersim.game import GAME
from raceday.games.wielersim.model import RIDER_TYPES
from raceday.games.wielersim.rules import WielersimState, fresh_race, run_race_fast

CHUNK = 250
TOP_PLACES = 10
PODIUM = 3
MAX_RACES = 1_000_000  # 1 to 3 minutes on two cores (reference engine: an hour); no more
ENGINES = ("fast", "reference")


@dataclass
class Prediction:
    """Counts over ``n`` races: wins, podiums and top-10 places per rider (peloton order)."""

    n: int
    numbers: list[int]
    names: list[str]
    types: list[str]
    wins: np.ndarray
    podiums: np.ndarray
    top10: np.ndarray
    confidence: float = 0.95
    extra: dict[str, Any] = field(default_factory=dict)

    def interval(self, count: int) -> tuple[float, float]:
        return wilson_interval(int(count), self.n, self.confidence)

    def by_type(self) -> dict[str, tuple[int, int]]:
        """Wins and podium places per rider type."""
        out: dict[str, tuple[int, int]] = {}
        for t in RIDER_TYPES:
            idx = [i for i, x in enumerate(self.types) if x == t]
            if idx:
                out[t] = (int(self.wins[idx].sum()), int(self.podiums[idx].sum()))
        return out

    def order(self) -> list[int]:
        """Rider indices by chance to win, then podium, then top 10 (best first)."""
        return sorted(range(len(self.names)), key=lambda i: (
            -self.wins[i], -self.podiums[i], -self.top10[i], i))

    def to_json(self) -> dict[str, Any]:
        """Chances per rider name, each table listed from the highest chance down."""

        def table(counts: np.ndarray) -> dict[str, float]:
            order = sorted(range(len(self.names)), key=lambda i: (-counts[i], i))
            return {self.names[i]: float(counts[i]) / self.n for i in order}

        types = sorted(self.by_type().items(), key=lambda kv: -kv[1][0])
        intervals = {self.names[i]: {key: list(self.interval(int(counts[i])))
                                     for key, counts in (("win", self.wins),
                                                         ("podium", self.podiums),
                                                         ("top10", self.top10))}
                     for i in self.order()}
        return {
            "game": "wielersim",
            "n": self.n,
            "win": table(self.wins),
            "podium": table(self.podiums),
            "top10": table(self.top10),
            "intervals": intervals,
            "win_by_type": {t: w / self.n for t, (w, _) in types},
        }


def count_races(route: Mapping[str, Any], peloton: Mapping[str, Any], n: int,
                seed: np.random.SeedSequence) -> np.ndarray:
    """Run ``n`` races on the fast path; return a (3, riders) array of win/podium/top-10."""
    rng = np.random.default_rng(seed)
    throws = DiceBuffer(rng)
    template = GAME.new_state({"route": route, "peloton": peloton})
    counts = np.zeros((3, template.n), dtype=np.int64)
    for _ in range(n):
        state = fresh_race(template)
        run_race_fast(state, throws, places=TOP_PLACES)
        add_result(counts, state)
    return counts


def add_result(counts: np.ndarray, state: WielersimState) -> None:
    """Count one finished race into a (3, riders) win/podium/top-10 array."""
    for place, (r, _, _) in enumerate(state.results[:TOP_PLACES]):
        if place == 0:
            counts[0, r] += 1
        if place < PODIUM:
            counts[1, r] += 1
        counts[2, r] += 1


def _chunk_job(route: Mapping[str, Any], peloton: Mapping[str, Any], engine: str, n: int,
               seed: np.random.SeedSequence) -> tuple[np.ndarray, float]:
    """One chunk for the runner: its counts and the CPU seconds it took."""
    start = time.process_time()
    if engine == "fast":
        from raceday.games.wielersim.fast import count_races_compiled

        counts = count_races_compiled(route, peloton, n, seed, places=TOP_PLACES)
    else:
        counts = count_races(route, peloton, n, seed)
    return counts, time.process_time() - start


def predict(route: Mapping[str, Any], peloton: Mapping[str, Any], n: int, seed: int = 0,
            workers: int | None = 1, progress: ProgressCallback | None = None,
            scheduler: str | None = None, chunk: int = CHUNK, engine: str = "fast"
            ) -> Prediction:
    """Simulate ``n`` races and count the results; ``progress(done, n)`` as chunks finish.

    ``workers``: 1 runs in this process, more on a local Dask cluster of that many
    processes, ``None`` decides from the size of the job (in this process unless a local
    cluster sized to the machine clearly pays for its start-up, the compiled engine's
    loading in each worker included, as the first chunk here measures it:
    :func:`raceday.core.runner.run_chunks`);
    ``scheduler`` (``tcp://HOST:PORT``) on an existing Dask cluster. The numbers depend on
    ``seed``, ``n`` and ``chunk`` only, never on where the chunks ran nor on ``engine``
    (``fast``: compiled; ``reference``: the rules engine's Python fast path; both ride the
    same races). ``extra["executor"]`` says where the chunks ran."""
    if not 1 <= n <= MAX_RACES:
        raise OptionsError(f"-n must be 1 to {MAX_RACES:,} races, got {n:,}")
    if engine not in ENGINES:
        raise OptionsError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    template = GAME.new_state({"route": route, "peloton": peloton})
    if engine == "fast" and workers is not None and workers > 1 and scheduler is None:
        from raceday.games.wielersim.fast import warm_up

        warm_up()  # compiled once here (or loaded from numba's cache), not in each worker
    # by default the first chunks run here, which loads (or compiles) the engine here first
    total = np.zeros((3, template.n), dtype=np.int64)
    cpu = 0.0
    executors: list[Executor] = []
    for counts, seconds in run_chunks(_chunk_job, (dict(route), dict(peloton), engine), n,
                                      seed=seed, chunk_size=chunk, workers=workers,
                                      progress=progress, scheduler=scheduler,
                                      chosen=executors.append):
        total += counts
        cpu += seconds
    riders = template.peloton.riders
    return Prediction(n=n, numbers=[r.number for r in riders], names=[r.name for r in riders],
                      types=[r.type_name for r in riders], wins=total[0], podiums=total[1],
                      top10=total[2], extra={"cpu_seconds": cpu, "engine": engine,
                                             "executor": executors[0].describe()})
