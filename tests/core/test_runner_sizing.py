"""The runner's default sizes the executor to the job: small jobs in this process, a
cluster only when its start-up clearly pays; results never depend on the choice.

No test here times anything: the cost of a job is injected (a fake clock, or numbers
given to the decision function), and the tests assert on which executor was chosen.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import cloudpickle
import numpy as np
import pytest

from raceday.core.runner import (
    CLUSTER_MARGIN,
    CLUSTER_STARTUP,
    Executor,
    choose_executor,
    idle_cores,
    run_chunks,
)

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers need not import us


def count_sixes(faces: int, size: int, seed: np.random.SeedSequence) -> int:
    rng = np.random.default_rng(seed)
    return int((rng.integers(1, faces + 1, size) == faces).sum())


def fake_clock(seconds_per_call: float) -> Callable[[], float]:
    """A clock that advances ``seconds_per_call`` every time it is read: each chunk run here
    seems to take ``seconds_per_call`` (it is read once before and once after a chunk)."""
    now = [0.0]

    def clock() -> float:
        now[0] += seconds_per_call / 2
        return now[0]

    return clock


# --- the decision function, with injected costs -------------------------------------------

def test_a_small_job_stays_here() -> None:
    assert choose_executor(1.0, 8, cores=2).kind == "here"
    # 2,000 Flanders races (~0.6 s) even on a big machine: start-up alone costs more
    assert choose_executor(0.6, 8, cores=32).kind == "here"


def test_a_big_job_goes_to_a_cluster_sized_to_the_machine_and_the_chunks() -> None:
    assert choose_executor(60.0, 400, cores=2) == Executor("local", 2, reason=(
        "about 60.0 s here, 33.0 s on 2 workers with their start-up"))
    assert choose_executor(60.0, 3, cores=8).workers == 3  # no more workers than chunks


def test_the_threshold_is_start_up_plus_the_shared_work_with_a_margin() -> None:
    # 2 cores: a cluster takes S + T/2; it is chosen when (S + T/2)(1 + m) <= T
    s, m = 3.0, CLUSTER_MARGIN
    threshold = s * (1 + m) / (1 - (1 + m) / 2)
    assert choose_executor(threshold * 1.01, 100, cores=2, startup=s).kind == "local"
    assert choose_executor(threshold * 0.99, 100, cores=2, startup=s).kind == "here"
    # a dearer start-up (compiled code loaded in every worker) moves the threshold up
    assert choose_executor(threshold * 1.01, 100, cores=2, startup=s + 2).kind == "here"


def test_one_core_or_one_chunk_never_starts_a_cluster() -> None:
    assert choose_executor(1e6, 100, cores=1).kind == "here"
    assert choose_executor(1e6, 1, cores=8).kind == "here"


def test_the_default_start_up_cost_is_a_few_seconds() -> None:
    assert 1.0 <= CLUSTER_STARTUP <= 10.0


# --- run_chunks with workers=None (the default of the commands) ---------------------------

def test_a_machine_other_jobs_keep_busy_has_no_idle_core_for_a_cluster(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("raceday.core.runner.machine_workers", lambda: 2)
    for load, idle in ((0.1, 2), (1.0, 2), (1.6, 1), (2.0, 1), (5.0, 1)):
        monkeypatch.setattr("os.getloadavg", lambda load=load: (load, load, load))
        assert idle_cores() == idle, load
    # an expensive job on a busy machine stays here
    seen: list[Executor] = []
    list(run_chunks(count_sixes, (6,), 3000, seed=9, chunk_size=500, workers=None,
                    chosen=seen.append, clock=fake_clock(1000.0)))
    assert seen == [Executor("here", reason="one idle core or one chunk")]


def test_a_cheap_job_runs_here_and_says_why() -> None:
    seen: list[Executor] = []
    here = list(run_chunks(count_sixes, (6,), 5000, seed=3, chunk_size=500, workers=None,
                           chosen=seen.append, clock=fake_clock(0.01), cores=lambda: 8))
    assert [e.kind for e in seen] == ["here"]
    assert "would not pay" in seen[0].describe()
    assert here == list(run_chunks(count_sixes, (6,), 5000, seed=3, chunk_size=500))


def chunk_clock(*seconds: float) -> Callable[[], float]:
    """A clock read twice a chunk, around it: chunk ``i`` seems to take ``seconds[i]``
    (the last figure for every later chunk)."""
    now, reads = [0.0], [0]

    def clock() -> float:
        if reads[0] % 2:
            now[0] += seconds[min(reads[0] // 2, len(seconds) - 1)]
        reads[0] += 1
        return now[0]

    return clock


def test_the_first_chunks_one_time_work_counts_against_the_cluster() -> None:
    # 38 chunks left at 2 s each: 76 s here, 3 + 38 s on two workers: a cluster pays...
    assert choose_executor(2.0 * 38, 38, cores=2).kind == "local"
    # ...unless the first chunk took 60 s more than the others (loading compiled code,
    # say): every new worker would pay that again, so the job stays here
    seen: list[Executor] = []
    list(run_chunks(count_sixes, (6,), 4000, seed=3, chunk_size=100, workers=None,
                    chosen=seen.append, clock=chunk_clock(62.0, 2.0), cores=lambda: 2))
    assert [e.kind for e in seen] == ["here"]
    assert "start-up (63.0 s) would not pay" in seen[0].reason


def test_explicit_workers_one_is_obeyed_whatever_the_size() -> None:
    seen: list[Executor] = []
    list(run_chunks(count_sixes, (6,), 10, seed=3, chunk_size=5, workers=1,
                    chosen=seen.append, clock=fake_clock(1e6)))
    assert seen == [Executor("here", reason="one worker")]


def test_an_expensive_job_moves_to_a_cluster_after_two_chunks_with_the_same_results(
        ) -> None:
    seen: list[Executor] = []
    progress: list[int] = []
    auto = list(run_chunks(count_sixes, (6,), 3000, seed=9, chunk_size=500, workers=None,
                           chosen=seen.append, clock=fake_clock(1000.0), cores=lambda: 2,
                           progress=lambda done, total: progress.append(done)))
    assert seen == [Executor("local", 2, reason=seen[0].reason)]
    here = list(run_chunks(count_sixes, (6,), 3000, seed=9, chunk_size=500, workers=1))
    assert auto == here  # the same seed gives the same counts, whoever ran each chunk
    assert progress[:2] == [500, 1000]  # the two chunks measured here
    assert progress[-1] == 3000 and progress == sorted(progress)


# --- WielerSIM predictions: the same seed, the same numbers, whichever executor ------------

def test_a_prediction_is_the_same_here_on_a_forced_cluster_and_by_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from raceday.games.wielersim.predict import predict
    from raceday.games.wielersim.rules import peloton_spec, route_spec

    route, peloton = route_spec("flanders"), peloton_spec("flanders")
    one = predict(route, peloton, 800, seed=11, workers=1, chunk=200)
    default = predict(route, peloton, 800, seed=11, workers=None, chunk=200)  # stays here
    assert default.extra["executor"].startswith("in this process")
    monkeypatch.setattr("raceday.core.runner.choose_executor",
                        lambda *a, **k: Executor("local", 2, reason="forced by the test"))
    moved = predict(route, peloton, 800, seed=11, workers=None, chunk=200)  # 2 here, 2 on Dask
    assert moved.extra["executor"].startswith("on a local Dask cluster of 2 workers")
    for pred in (default, moved):
        assert (pred.wins == one.wins).all() and (pred.podiums == one.podiums).all()
        assert (pred.top10 == one.top10).all()
        assert pred.to_json() == one.to_json()
