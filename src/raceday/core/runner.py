"""One seeded runner for many games or races: in-process or in worker processes.

Work is cut into chunks; chunk ``i`` gets the ``i``-th child of one
:class:`numpy.random.SeedSequence`, so the combined result depends only on the seed, the
total and the chunk size, never on the number of workers or the order chunks finish in.
This is the single place where a distributed engine plugs in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from raceday.core.errors import OptionsError
from raceday.core.game import ProgressCallback

T = TypeVar("T")

MAX_WORKERS = 32


@dataclass(frozen=True)
class Chunk:
    """One piece of work: ``size`` runs of ``task`` seeded by ``seed``."""

    index: int
    size: int
    seed: np.random.SeedSequence


def plan_chunks(total: int, chunk_size: int, seed: int) -> list[Chunk]:
    """Chunks of ``chunk_size`` (the last one smaller) with seeds spawned from ``seed``."""
    if total < 1:
        raise OptionsError(f"the number of runs must be at least 1, got {total}")
    if chunk_size < 1:
        raise OptionsError(f"chunk size must be at least 1, got {chunk_size}")
    sizes = [chunk_size] * (total // chunk_size)
    if total % chunk_size:
        sizes.append(total % chunk_size)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    return [Chunk(i, size, s) for i, (size, s) in enumerate(zip(sizes, seeds, strict=True))]


def _call(job: tuple[Callable[..., T], tuple[Any, ...], int, np.random.SeedSequence]) -> T:
    task, args, size, seed = job
    return task(*args, size, seed)


def run_chunks(
    task: Callable[..., T],
    args: Sequence[Any],
    total: int,
    *,
    seed: int,
    chunk_size: int,
    workers: int = 1,
    progress: ProgressCallback | None = None,
) -> Iterator[T]:
    """Yield ``task(*args, size, seed_sequence)`` for every chunk, in chunk order.

    With ``workers == 1`` everything runs in this process; otherwise in a pool of worker
    processes started safely (forkserver/spawn), so ``task`` and ``args`` must be
    picklable (module-level functions and plain data). ``progress(done, total)`` is called
    after every chunk.
    """
    if not 1 <= workers <= MAX_WORKERS:
        raise OptionsError(f"workers must be 1 to {MAX_WORKERS}, got {workers}")
    chunks = plan_chunks(total, chunk_size, seed)
    jobs = [(task, tuple(args), c.size, c.seed) for c in chunks]
    done = 0
    if workers == 1 or len(jobs) == 1:
        for job in jobs:
            result = _call(job)
            done += job[2]
            if progress is not None:
                progress(done, total)
            yield result
        return
    from raceday.core.parallel import worker_context

    with worker_context().Pool(processes=min(workers, len(jobs))) as pool:
        for job, result in zip(jobs, pool.imap(_call, jobs), strict=True):
            done += job[2]
            if progress is not None:
                progress(done, total)
            yield result
