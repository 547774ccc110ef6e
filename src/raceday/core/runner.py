"""One seeded runner for many games or races: in-process, or on a Dask cluster.

Work is cut into chunks; chunk ``i`` gets the ``i``-th child of one
:class:`numpy.random.SeedSequence`, so the combined result depends only on the seed, the
total and the chunk size, never on the number of workers, the order chunks finish in, or
whether the cluster is this machine or another one.

``workers == 1`` runs every chunk in this process and never imports Dask. Otherwise the
chunks run on Dask distributed: an embedded :class:`distributed.LocalCluster` of
``workers`` single-threaded processes bound to 127.0.0.1 (started and closed here, nothing
to start by hand), or, with ``scheduler="tcp://HOST:PORT"``, an existing cluster of any
size. Dask is imported lazily, so a command's start-up does not pay for it.
"""

from __future__ import annotations

import logging
import os
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from raceday.core.errors import OptionsError
from raceday.core.game import ProgressCallback

T = TypeVar("T")

MAX_WORKERS = 32
CONNECT_TIMEOUT = 20  # seconds to reach a remote scheduler before giving up
DASK_LOGGERS = ("distributed", "dask", "tornado", "asyncio", "bokeh")


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


def machine_workers() -> int:
    """Worker processes for a cluster sized to this machine: the cores this process may
    use (at most :data:`MAX_WORKERS`)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


def check_scheduler(address: str) -> str:
    """A Dask scheduler address ``tcp://HOST:PORT`` (or ``HOST:PORT``), checked."""
    text = address.strip()
    if "://" not in text:
        text = f"tcp://{text}"
    scheme, _, rest = text.partition("://")
    host, _, port = rest.rpartition(":")
    if scheme not in ("tcp", "tls") or not host or not port.isdigit() or \
            not 1 <= int(port) <= 65535:
        raise OptionsError(f"--scheduler must look like tcp://HOST:PORT, got {address!r}")
    return text


def run_chunks(
    task: Callable[..., T],
    args: Sequence[Any],
    total: int,
    *,
    seed: int,
    chunk_size: int,
    workers: int | None = 1,
    progress: ProgressCallback | None = None,
    scheduler: str | None = None,
) -> Iterator[T]:
    """Yield ``task(*args, size, seed_sequence)`` for every chunk, in chunk order.

    ``workers == 1`` (and no ``scheduler``) runs in this process; ``workers=None`` means a
    cluster sized to the machine. Otherwise the chunks are Dask futures, so ``task`` and
    ``args`` must be picklable (module-level functions and plain data) and importable on
    the workers. ``progress(done, total)`` is called as chunks finish (absolute counts).
    Ctrl-C (or closing the generator early) cancels the outstanding futures and closes the
    client and any cluster started here.
    """
    if workers is None:
        workers = machine_workers()
    if not 1 <= workers <= MAX_WORKERS:
        raise OptionsError(f"workers must be 1 to {MAX_WORKERS}, got {workers}")
    address = None if scheduler is None else check_scheduler(scheduler)
    chunks = plan_chunks(total, chunk_size, seed)
    if address is None and (workers == 1 or len(chunks) == 1):
        yield from _run_here(task, tuple(args), chunks, total, progress)
        return
    yield from _run_dask(task, tuple(args), chunks, total, progress, workers, address)


def _run_here(task: Callable[..., T], args: tuple[Any, ...], chunks: list[Chunk], total: int,
              progress: ProgressCallback | None) -> Iterator[T]:
    done = 0
    for chunk in chunks:
        result = task(*args, chunk.size, chunk.seed)
        done += chunk.size
        if progress is not None:
            progress(done, total)
        yield result


def quiet_dask() -> None:
    """Keep Dask's start-up, shutdown and connection chatter off the terminal."""
    for name in DASK_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    import dask

    dask.config.set({"logging.distributed": "critical", "distributed.admin.tick.limit": "1h"})


def _run_dask(task: Callable[..., T], args: tuple[Any, ...], chunks: list[Chunk], total: int,
              progress: ProgressCallback | None, workers: int, address: str | None
              ) -> Iterator[T]:
    quiet_dask()
    from distributed import Client, LocalCluster, as_completed

    with ExitStack() as stack:
        if address is None:
            with warnings.catch_warnings():  # e.g. "port 8787 in use": nothing for the user
                warnings.simplefilter("ignore")
                cluster = stack.enter_context(LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=min(workers, len(chunks)), threads_per_worker=1,
                    processes=True, dashboard_address=None, host="127.0.0.1",
                    silence_logs=logging.CRITICAL))
            client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
        else:
            try:
                client = stack.enter_context(
                    Client(address, timeout=CONNECT_TIMEOUT))  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError) as exc:
                raise OptionsError(f"cannot reach the Dask scheduler at {address}: "
                                   f"{exc}") from None
        run = uuid.uuid4().hex[:12]  # keys unique on a cluster shared with other runs
        futures = [client.submit(task, *args, c.size, c.seed, pure=False,
                                 key=f"raceday-{run}-chunk-{c.index}") for c in chunks]
        index = {f.key: i for i, f in enumerate(futures)}
        results: dict[int, T] = {}
        next_out = done = 0
        try:
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                i = index[future.key]
                results[i] = future.result()
                done += chunks[i].size
                if progress is not None:
                    progress(done, total)
                while next_out in results:  # hand results on in chunk order
                    yield results.pop(next_out)
                    next_out += 1
        except BaseException:
            client.cancel([f for f in futures if not f.done()], force=True)
            raise
