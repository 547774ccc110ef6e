"""One seeded runner for many games or races: in-process, or on a Dask cluster.

Work is cut into chunks; chunk ``i`` gets the ``i``-th child of one
:class:`numpy.random.SeedSequence`, so the combined result depends only on the seed, the
total and the chunk size, never on the number of workers, the order chunks finish in, or
whether the cluster is this machine or another one.

``workers == 1`` runs every chunk in this process and never imports Dask. ``workers > 1``
runs the chunks on Dask distributed: an embedded :class:`distributed.LocalCluster` of
``workers`` single-threaded processes bound to 127.0.0.1 (started and closed here, nothing
to start by hand); ``scheduler="tcp://HOST:PORT"`` runs them on an existing cluster of any
size. Dask is imported lazily, so a command's start-up does not pay for it.

``workers=None`` (the commands' default) decides from the size of the job: starting a
local cluster costs seconds (:data:`CLUSTER_STARTUP`, plus whatever each worker must load
for the task: measured here, as what the first chunk took beyond the others' pace), which
a small job never wins back. So the chunks run here, one after the
other, and from the second one on the time the rest would take here is extrapolated
from the fastest chunk so far; as soon as a cluster of the machine's idle cores
(:func:`idle_cores`: none on a machine other jobs keep busy) would finish the rest
clearly sooner (:func:`choose_executor`: start-up plus the rest shared out, with a margin)
the remaining chunks go to one. Which executor runs a chunk never changes its result.
"""

from __future__ import annotations

import logging
import os
import time
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
# Seconds a local cluster costs before and after its work: importing Dask, starting the
# scheduler and single-threaded worker processes, closing them (measured on an idle 2-core
# machine: about 2.5 s; bench/bench_predict.py prints it). A task whose workers must load
# more (compiled code) adds its own share: ``run_chunks(startup=...)``.
CLUSTER_STARTUP = 3.0
# A cluster is chosen only when it is expected to take at most 1 / (1 + margin) of the
# time in this process: an estimate off by 20 % still never makes the default slower.
CLUSTER_MARGIN = 0.25
# Chunks run here before the first decision: the first chunk of a process often pays for
# one-time work (caches, first calls), so the estimate takes the faster of two.
AUTO_MEASURED = 2
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


def idle_cores() -> int:
    """Cores a cluster started now could have to itself: the cores this process may use
    less the 1-minute load average beyond this process's own (at least 1). On a machine
    other jobs keep busy, more worker processes only queue for the same cores."""
    cores = machine_workers()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average here
        return cores
    return max(1, min(cores, int(cores - max(0.0, load - 1.0) + 0.5)))


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


@dataclass(frozen=True)
class Executor:
    """Where chunks run: ``here`` (this process), ``local`` (a local cluster of ``workers``
    processes started for the job) or ``scheduler`` (an existing cluster at ``address``)."""

    kind: str
    workers: int = 1
    address: str | None = None
    reason: str = ""

    def describe(self) -> str:
        where = {"here": "in this process",
                 "local": f"on a local Dask cluster of {self.workers} workers",
                 "scheduler": f"on the Dask cluster at {self.address}"}[self.kind]
        return f"{where} ({self.reason})" if self.reason else where


def choose_executor(seconds_here: float, chunks: int, *, cores: int,
                    startup: float = CLUSTER_STARTUP, margin: float = CLUSTER_MARGIN
                    ) -> Executor:
    """Where ``chunks`` chunks that would take ``seconds_here`` in this process should run.

    A local cluster of ``k = min(cores, chunks)`` workers is expected to take ``startup +
    seconds_here / k``; it is chosen only when that is at most ``seconds_here / (1 +
    margin)``, so a job the cluster cannot clearly speed up stays here."""
    k = max(1, min(cores, chunks, MAX_WORKERS))
    if k < 2:
        return Executor("here", reason="one idle core or one chunk")
    cluster = startup + seconds_here / k
    if cluster * (1 + margin) <= seconds_here:
        return Executor("local", k, reason=f"about {seconds_here:.1f} s here, "
                        f"{cluster:.1f} s on {k} workers with their start-up")
    return Executor("here", reason=f"about {seconds_here:.1f} s here; a cluster's start-up "
                    f"({startup:.1f} s) would not pay")


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
    startup: float | None = None,
    chosen: Callable[[Executor], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    cores: Callable[[], int] = idle_cores,
) -> Iterator[T]:
    """Yield ``task(*args, size, seed_sequence)`` for every chunk, in chunk order.

    ``workers == 1`` (and no ``scheduler``) runs in this process; ``workers > 1`` on a
    local cluster of that many processes; ``workers=None`` decides from the job's size
    (in this process, switching to a cluster of the idle cores only when that pays:
    see the module's text; ``startup`` is the cluster's start-up cost for this task,
    default :data:`CLUSTER_STARTUP`; ``clock`` times the chunks run here; ``cores()`` says
    how many a cluster could use, default :func:`idle_cores`). On a cluster
    the chunks are Dask futures, so ``task`` and ``args`` must be picklable (module-level
    functions and plain data) and importable on the workers. ``chosen(executor)`` is told
    where the remaining chunks run once that is settled. ``progress(done, total)`` is
    called as chunks finish (absolute counts). Ctrl-C (or closing the generator early)
    cancels the outstanding futures and closes the client and any cluster started here.
    """
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise OptionsError(f"workers must be 1 to {MAX_WORKERS}, got {workers}")
    address = None if scheduler is None else check_scheduler(scheduler)
    chunks = plan_chunks(total, chunk_size, seed)
    args = tuple(args)
    if address is not None:
        executor = Executor("scheduler", address=address, reason="--scheduler")
    elif workers is None:
        yield from _run_auto(task, args, chunks, total, progress, chosen, clock,
                             CLUSTER_STARTUP if startup is None else startup, cores)
        return
    elif workers == 1 or len(chunks) == 1:
        executor = Executor("here", reason="one worker" if workers == 1 else "one chunk")
    else:
        executor = Executor("local", min(workers, len(chunks)), reason="--workers")
    if chosen is not None:
        chosen(executor)
    if executor.kind == "here":
        yield from _run_here(task, args, chunks, total, progress)
    else:
        yield from _run_dask(task, args, chunks, total, progress, executor.workers,
                             executor.address)


def _run_auto(task: Callable[..., T], args: tuple[Any, ...], chunks: list[Chunk], total: int,
              progress: ProgressCallback | None, chosen: Callable[[Executor], None] | None,
              clock: Callable[[], float], startup: float, cores: Callable[[], int]
              ) -> Iterator[T]:
    """Chunks here, one by one, until the rest would clearly finish sooner on a cluster
    (decided from the :data:`AUTO_MEASURED`-th chunk on, by the fastest chunk so far).

    What the first chunk took beyond that pace is this process's one-time work for the
    task (imports, loading compiled code): each new worker pays it again, so it is added
    to the cluster's start-up."""
    done = 0
    per_run = float("inf")
    first = 0.0
    executor = Executor("here", reason="one chunk")
    for i, chunk in enumerate(chunks):
        if i >= AUTO_MEASURED:
            rest = chunks[i:]
            one_time = max(0.0, first - per_run * chunks[0].size)
            decision = choose_executor(per_run * sum(c.size for c in rest), len(rest),
                                       cores=cores(), startup=startup + one_time)
            if decision.kind == "local":
                if chosen is not None:
                    chosen(decision)
                yield from _run_dask(task, args, rest, total, progress, decision.workers,
                                     None, done=done)
                return
            if i == AUTO_MEASURED:  # the verdict on the whole job
                executor = decision
        start = clock()
        result = task(*args, chunk.size, chunk.seed)
        seconds = clock() - start
        first = seconds if i == 0 else first
        per_run = min(per_run, seconds / chunk.size)  # the fastest: no one-time work
        done += chunk.size
        if progress is not None:
            progress(done, total)
        yield result
    if chosen is not None:
        chosen(executor)


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
              progress: ProgressCallback | None, workers: int, address: str | None,
              done: int = 0) -> Iterator[T]:
    """``chunks`` on a cluster, results in their order; ``done`` runs were counted before."""
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
        next_out = 0
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
