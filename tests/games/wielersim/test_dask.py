"""Predictions on Dask: the same numbers in-process, on a local cluster of two workers, and
on a real ``dask scheduler`` with two ``dask worker`` processes on loopback."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from raceday.core.errors import OptionsError
from raceday.games.wielersim.campaign import predict_tour
from raceday.games.wielersim.predict import Prediction, predict
from raceday.games.wielersim.rules import peloton_spec, route_spec
from raceday.games.wielersim.stage import resolve_tour

BIN = Path(sys.executable).parent
RACES, CHUNK = 120, 30  # four chunks of a small prediction: quick on a loaded machine


def same(a: Prediction, b: Prediction) -> bool:
    return (a.n == b.n and np.array_equal(a.wins, b.wins)
            and np.array_equal(a.podiums, b.podiums) and np.array_equal(a.top10, b.top10))


@pytest.fixture(scope="module")
def in_process() -> Prediction:
    return predict(route_spec("flanders"), peloton_spec("flanders"), RACES, seed=21,
                   workers=1, chunk=CHUNK)


def test_two_local_workers_give_the_in_process_numbers(in_process: Prediction) -> None:
    seen: list[int] = []
    two = predict(route_spec("flanders"), peloton_spec("flanders"), RACES, seed=21,
                  workers=2, chunk=CHUNK, progress=lambda done, total: seen.append(done))
    assert same(two, in_process)
    assert sorted(seen) == seen and seen[-1] == RACES and len(seen) == RACES // CHUNK
    other = predict(route_spec("flanders"), peloton_spec("flanders"), RACES, seed=22,
                    workers=1, chunk=CHUNK)
    assert not same(other, in_process)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real scheduler and two single-threaded workers on 127.0.0.1, always stopped."""
    from distributed import Client

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    where = tmp_path_factory.mktemp("dask")
    procs: list[subprocess.Popen[bytes]] = []

    def start(*args: str) -> None:
        procs.append(subprocess.Popen(
            [str(BIN / "dask"), *args], cwd=where, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True))

    try:
        start("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
        for _ in range(2):
            start("worker", address, "--nthreads", "1", "--nworkers", "1", "--host",
                  "127.0.0.1", "--no-dashboard", "--death-timeout", "60")
        deadline = time.monotonic() + 90
        with Client(address, timeout=60) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(2, timeout=max(1.0, deadline - time.monotonic()))
        yield address
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=15)


def test_a_real_scheduler_with_two_workers_gives_the_same_numbers(
        scheduler: str, in_process: Prediction) -> None:
    remote = predict(route_spec("flanders"), peloton_spec("flanders"), RACES, seed=21,
                     workers=1, chunk=CHUNK, scheduler=scheduler)
    assert same(remote, in_process)
    tour = resolve_tour("ronde-van-belgie")
    here = predict_tour(tour, peloton_spec("small"), 4, seed=5, workers=1, chunk=1)
    there = predict_tour(tour, peloton_spec("small"), 4, seed=5, chunk=1,
                         scheduler=scheduler)
    assert np.array_equal(here.counts, there.counts)
    assert np.array_equal(here.positions, there.positions)


def _client(scheduler: str) -> Any:
    """A client of ``scheduler``. distributed's client expects the scheduler's first batch
    to hold one message; on a loaded machine the scheduler can batch a second one with it
    and the client fails an assert in its handshake (seen once in a whole-suite run), so the
    connection is tried again, at most three times."""
    from distributed import Client

    for _ in range(2):
        with contextlib.suppress(AssertionError):
            return Client(scheduler, timeout=30)  # type: ignore[no-untyped-call]
    return Client(scheduler, timeout=30)  # type: ignore[no-untyped-call]


def test_ctrl_c_cancels_the_futures_on_a_real_scheduler(scheduler: str) -> None:
    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        predict(route_spec("flanders"), peloton_spec("classics"), 40 * 10, seed=1, chunk=10,
                scheduler=scheduler, progress=interrupt)
    with _client(scheduler) as client:
        deadline = time.monotonic() + 30
        left = -1
        while time.monotonic() < deadline:
            left = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
            if left == 0:
                break
            time.sleep(0.2)
        assert left == 0
        assert len(client.scheduler_info()["workers"]) == 2


def test_an_unreachable_scheduler_is_one_options_error(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setattr("raceday.core.runner.CONNECT_TIMEOUT", 2)
    with pytest.raises(OptionsError, match="cannot reach the Dask scheduler"):
        predict(route_spec("flanders"), peloton_spec("small"), 10, seed=1,
                scheduler=f"tcp://127.0.0.1:{_free_port()}")
