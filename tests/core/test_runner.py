"""The seeded runner: results depend on the seed, never on the workers or the scheduler."""

from __future__ import annotations

import sys

import cloudpickle
import numpy as np
import psutil
import pytest

from raceday.core.errors import OptionsError
from raceday.core.runner import check_scheduler, machine_workers, plan_chunks, run_chunks

# the workers of a cluster need not import this test module: ship its functions by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def count_sixes(faces: int, size: int, seed: np.random.SeedSequence) -> int:
    rng = np.random.default_rng(seed)
    return int((rng.integers(1, faces + 1, size) == faces).sum())


def test_chunks_cover_the_total_with_distinct_seeds() -> None:
    chunks = plan_chunks(1050, 250, seed=7)
    assert [c.size for c in chunks] == [250, 250, 250, 250, 50]
    states = {tuple(c.seed.generate_state(4)) for c in chunks}
    assert len(states) == len(chunks)


def test_in_process_and_two_dask_workers_agree_and_progress_is_absolute() -> None:
    seen: list[tuple[int, int]] = []
    one = list(run_chunks(count_sixes, (6,), 5000, seed=3, chunk_size=700, workers=1,
                          progress=lambda done, total: seen.append((done, total))))
    dask_seen: list[tuple[int, int]] = []
    two = list(run_chunks(count_sixes, (6,), 5000, seed=3, chunk_size=700, workers=2,
                          progress=lambda done, total: dask_seen.append((done, total))))
    assert one == two
    assert seen[-1] == (5000, 5000) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert dask_seen[-1] == (5000, 5000) and len(dask_seen) == 8
    other_seed = list(run_chunks(count_sixes, (6,), 5000, seed=4, chunk_size=700))
    assert other_seed != one
    # 5000 throws of a d6: the count of sixes is within 4 standard deviations of 833
    assert abs(sum(one) - 5000 / 6) < 4 * (5000 * (1 / 6) * (5 / 6)) ** 0.5


@pytest.mark.parametrize("workers", [1, None])
def test_in_process_runs_never_import_dask(workers: int | None) -> None:
    """--workers 1, and a cheap job by default (sized to stay in this process)."""
    import subprocess

    code = ("import sys; from raceday.core.runner import run_chunks; "
            f"list(run_chunks(slice, (7,), 100, seed=1, chunk_size=10, workers={workers})); "
            "print('distributed' in sys.modules, 'dask' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_ctrl_c_cancels_the_futures_and_closes_the_local_cluster() -> None:
    before = {p.pid for p in psutil.Process().children(recursive=True)}

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        list(run_chunks(count_sixes, (6,), 4000, seed=1, chunk_size=100, workers=2,
                        progress=interrupt))
    left = [p for p in psutil.Process().children(recursive=True)
            if p.pid not in before and p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert left == []


def test_the_machine_sized_cluster_has_at_least_one_worker() -> None:
    assert 1 <= machine_workers() <= 32


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786",
                                     "tls://scheduler.example:443"])
def test_scheduler_addresses_are_accepted(address: str) -> None:
    assert "://" in check_scheduler(address)


@pytest.mark.parametrize("address", ["", "tcp://", "tcp://host", "tcp://host:0",
                                     "udp://host:8786", "host:99999", "tcp://:8786"])
def test_bad_scheduler_addresses_are_refused(address: str) -> None:
    with pytest.raises(OptionsError, match="--scheduler"):
        check_scheduler(address)


@pytest.mark.parametrize(("total", "chunk", "workers"), [(0, 10, 1), (10, 0, 1), (10, 5, 0),
                                                        (10, 5, 33)])
def test_bad_counts_are_refused(total: int, chunk: int, workers: int) -> None:
    with pytest.raises(OptionsError):
        list(run_chunks(count_sixes, (6,), total, seed=0, chunk_size=chunk, workers=workers))
