"""Heavy work (print pages, PDFs, race films, numbers jobs) from strangers: a pool of its
own, a fair share and an allowance per address, and one cached answer for identical
requests (raceday.web.heavy). Addresses come from X-Forwarded-For of a trusted proxy (the
test client's 127.0.0.1). Work that must stay put blocks on an Event in a thread pool, so
every ordering below is decided by the test, never by how fast the machine is."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from raceday.web import print_pages
from raceday.web.app import create_app
from raceday.web.heavy import Answer, AnswerCache, Heavy, HeavyLimits

from .conftest import closing_sockets

HANG = 120.0  # seconds: a hang guard only, far above any normal wait
RACE = {"route": "flat-stage", "peloton": "small"}


def serve(db: Path, **limits: Any) -> Any:
    """A test server whose heavy work has ``limits``, reached through a trusted proxy."""
    app = create_app(db, trusted_proxies="127.0.0.1", clock=lambda: 0.0,
                     heavy=HeavyLimits(**limits))
    return closing_sockets(app, ("127.0.0.1", 50000))


def by(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address}


def until(check: Callable[[], bool]) -> None:
    """Wait (bounded) for ``check``; what it waits for is set off by the test itself."""
    deadline = time.monotonic() + HANG
    while not check():
        assert time.monotonic() < deadline, "hang guard"
        time.sleep(0.005)


class Gate:
    """A work function that waits for the test to open it, recording the order in which
    computations started (their query)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.started: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, kind: str, game: str, query: str) -> Answer:
        with self.lock:
            self.started.append(query)
        assert self.open.wait(HANG), "hang guard"
        return Answer(200, f"{kind} {game} {query}".encode(), "text/plain")


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    blocked = Gate()
    monkeypatch.setattr(print_pages, "printed_answer", blocked)
    try:
        yield blocked
    finally:
        blocked.open.set()


class Asking:
    """A request made in a thread of its own (the TestClient's loop serves them all)."""

    def __init__(self, tc: TestClient, url: str, address: str) -> None:
        self.answer: httpx.Response | None = None
        self.thread = threading.Thread(target=self._ask, args=(tc, url, address), daemon=True)
        self.thread.start()

    def _ask(self, tc: TestClient, url: str, address: str) -> None:
        self.answer = tc.get(url, headers=by(address))

    def done(self) -> bool:
        return self.answer is not None

    def wait(self) -> httpx.Response:
        self.thread.join(HANG)
        assert self.answer is not None, "hang guard"
        return self.answer


def test_the_same_pdf_is_made_once_in_the_process_pool(db: Path) -> None:
    with serve(db, workers=1) as tc:
        heavy: Heavy = tc.app.state.heavy
        first = tc.get("/print/hairpin.pdf", params={"paper": "letter"})
        assert first.status_code == 200 and first.content.startswith(b"%PDF-")
        assert heavy.computed == 1 and type(heavy.pool()).__name__ == "ProcessPoolExecutor"
        again = tc.get("/print/hairpin.pdf", params={"paper": "letter"}, headers=by("10.0.0.9"))
        assert again.content == first.content and heavy.computed == 1  # not made again
        assert again.headers["content-type"] == "application/pdf"
        assert again.headers["content-disposition"] == 'inline; filename="hairpin.pdf"'
        other = tc.get("/print/hairpin.pdf", params={"paper": "a4"})
        assert other.status_code == 200 and heavy.computed == 2
        bad = tc.get("/print/hairpin.pdf", params={"paper": "a4", "nope": "1"})
        assert bad.status_code == 400 and "nope" in bad.text
        assert tc.get("/print/hairpin.pdf", params={"paper": "a4", "nope": "1"}
                      ).status_code == 400 and heavy.computed == 4  # a refusal is not kept


def test_races_are_cached_by_the_seed_they_name_and_fresh_ones_never(db: Path) -> None:
    with serve(db, processes=False) as tc:
        heavy: Heavy = tc.app.state.heavy
        a = tc.post("/api/wielersim/race", json={**RACE, "seed": 2012})
        b = tc.post("/api/wielersim/race", json={**RACE, "seed": "2012"})
        assert a.status_code == b.status_code == 200 and a.content == b.content
        assert heavy.computed == 1
        fresh = [tc.post("/api/wielersim/race", json=RACE).json() for _ in range(2)]
        assert heavy.computed == 3 and fresh[0]["seed"] != fresh[1]["seed"]
        bad = tc.post("/api/wielersim/race", json={**RACE, "seed": -1})
        assert bad.status_code == 400 and heavy.computed == 3  # refused before any work


def test_identical_requests_at_once_share_one_computation(db: Path, gate: Gate) -> None:
    with serve(db, processes=False) as tc:
        heavy: Heavy = tc.app.state.heavy
        asks = [Asking(tc, "/print/keirin.pdf?paper=a4", f"10.0.0.{i}") for i in (1, 2, 3)]
        until(lambda: heavy.computed == 1 and heavy.shared == 2)
        assert not any(ask.done() for ask in asks)
        gate.open.set()
        bodies = {ask.wait().content for ask in asks}
        assert bodies == {b"pdf keirin paper=a4"} and gate.started == ["paper=a4"]
        assert heavy.computed == 1


def test_the_heavy_allowance_refuses_one_address_and_serves_another(db: Path) -> None:
    with serve(db, processes=False, burst=3, rate=0.01) as tc:
        heavy: Heavy = tc.app.state.heavy
        for seed in (1, 2, 3):
            r = tc.post("/api/wielersim/race", json={**RACE, "seed": seed},
                        headers=by("10.0.0.1"))
            assert r.status_code == 200, r.text
        refused = tc.post("/api/wielersim/race", json={**RACE, "seed": 4},
                          headers=by("10.0.0.1"))
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.json()["words"]["key"] == "refusal.heavy_many"
        assert "\n" not in refused.json()["error"]
        assert tc.post("/api/wielersim/race", json={**RACE, "seed": 4},
                       headers=by("10.0.0.2")).status_code == 200
        # what is cached costs nothing: the refused address still gets it
        assert tc.post("/api/wielersim/race", json={**RACE, "seed": 4},
                       headers=by("10.0.0.1")).status_code == 200
        assert heavy.computed == 4
        # the cheap allowance is another one: rooms are still made
        assert tc.post("/api/rooms", json={"game": "derby"},
                       headers=by("10.0.0.1")).status_code == 201


def test_one_address_holds_one_worker_and_a_small_queue(db: Path, gate: Gate) -> None:
    with serve(db, processes=False, workers=2, per_address=2) as tc:
        heavy: Heavy = tc.app.state.heavy
        a1 = Asking(tc, "/print/keirin.pdf?a=1", "10.0.0.1")
        until(lambda: gate.started == ["a=1"])
        a2 = Asking(tc, "/print/keirin.pdf?a=2", "10.0.0.1")
        until(lambda: len(heavy.waiting.get("10.0.0.1", ())) == 1)
        # a free worker, but A already runs one: A's second waits
        assert gate.started == ["a=1"]
        a3 = tc.get("/print/keirin.pdf?a=3", headers=by("10.0.0.1"))
        assert a3.status_code == 429 and a3.json()["words"]["key"] == "refusal.heavy_yours"
        assert a3.headers["retry-after"].isdigit()
        # another address gets the free worker before A's waiting one
        b1 = Asking(tc, "/print/keirin.pdf?b=1", "10.0.0.2")
        until(lambda: gate.started == ["a=1", "b=1"])
        assert not (a1.done() or a2.done() or b1.done())
        gate.open.set()
        assert [x.wait().status_code for x in (a1, a2, b1)] == [200, 200, 200]
        assert gate.started == ["a=1", "b=1", "a=2"]
        assert heavy.busy == 0 and not heavy.running and not any(heavy.waiting.values())


def test_cheap_requests_never_wait_behind_another_address_heavy_ones(db: Path,
                                                                     gate: Gate) -> None:
    with serve(db, processes=False, workers=1, per_address=3) as tc:
        heavy: Heavy = tc.app.state.heavy
        heavy_asks = [Asking(tc, f"/print/keirin.pdf?n={i}", "10.0.0.1") for i in range(3)]
        until(lambda: heavy.busy == 1 and len(heavy.waiting.get("10.0.0.1", ())) == 2)
        guest = "10.0.0.2"
        assert tc.get("/api/games", headers=by(guest)).status_code == 200
        assert tc.get("/api/messages/en", headers=by(guest)).status_code == 200
        room = tc.post("/api/rooms", json={"game": "derby"}, headers=by(guest)).json()
        assert tc.get(f"/play/{room['code']}", headers=by(guest)).status_code == 200
        with tc.websocket_connect(f"/ws/{room['code']}", headers=by(guest)) as ws:
            ws.send_json({"type": "hello", "token": room["host_token"]})
            assert ws.receive_json()["type"] == "welcome"
            ws.send_json({"type": "ping", "ref": 1})
            assert ws.receive_json() == {"type": "pong", "ref": 1}
        assert not any(ask.done() for ask in heavy_asks)  # all of A's still blocked
        gate.open.set()
        assert [ask.wait().status_code for ask in heavy_asks] == [200, 200, 200]


def test_the_queue_of_all_addresses_is_bounded(db: Path, gate: Gate) -> None:
    with serve(db, processes=False, workers=1, queue=1) as tc:
        heavy: Heavy = tc.app.state.heavy
        first = Asking(tc, "/print/keirin.pdf?q=1", "10.0.0.1")
        until(lambda: heavy.busy == 1)
        second = Asking(tc, "/print/keirin.pdf?q=2", "10.0.0.2")
        until(lambda: sum(len(q) for q in heavy.waiting.values()) == 1)
        full = tc.get("/print/keirin.pdf?q=3", headers=by("10.0.0.3"))
        assert full.status_code == 429 and full.json()["words"]["key"] == "refusal.heavy_busy"
        gate.open.set()
        assert first.wait().status_code == second.wait().status_code == 200


def test_the_cache_is_bounded_by_bytes_and_entries() -> None:
    cache = AnswerCache(most_bytes=400, most_entries=3)
    for key in "abc":
        cache.put(key, Answer(200, b"x" * 100, "text/plain"))
    assert cache.get("a") is not None  # a is now the most recently used
    cache.put("d", Answer(200, b"x" * 100, "text/plain"))
    assert set(cache.answers) == {"a", "c", "d"} and cache.bytes == 300
    cache.put("e", Answer(200, b"x" * 101, "text/plain"))  # above a quarter: not kept
    assert "e" not in cache.answers
    cache.put("f", Answer(200, b"x" * 50, "text/plain"))
    assert len(cache.answers) == 3 and cache.bytes <= 400


# one address cannot take every numbers slot: tests/web/test_numbers.py
BIG_JOB = {"game": "wielersim", "route": "flanders", "peloton": "classics", "n": 100_000}


def test_an_identical_seeded_job_is_the_same_job(db: Path) -> None:
    with serve(db, processes=False) as tc:
        jobs = tc.app.state  # the job table is made on first use
        seeded = {**BIG_JOB, "seed": "7"}
        a = tc.post("/api/numbers", json=seeded, headers=by("10.0.0.1")).json()
        b = tc.post("/api/numbers", json={**seeded, "seed": "7"},
                    headers=by("10.0.0.2")).json()
        assert a["id"] == b["id"] and jobs.numbers_jobs.computed == 1
        # one of the two asking to stop it does not stop it for the other
        tc.delete(f"/api/numbers/{a['id']}", headers=by("10.0.0.1"))
        assert not jobs.numbers_jobs.jobs[a["id"]].stop.is_set()
        job = jobs.numbers_jobs.jobs[a["id"]]
        tc.delete(f"/api/numbers/{a['id']}", headers=by("10.0.0.2"))
        assert job.stop.is_set()  # stopped, and forgotten
        assert tc.get(f"/api/numbers/{a['id']}").status_code == 404
        until(lambda: not jobs.numbers_jobs.running())
        odds = {"game": "keirin", "mode": "odds", "riders": 6, "length": 30}
        c = tc.post("/api/numbers", json=odds, headers=by("10.0.0.3")).json()
        until(lambda: tc.get(f"/api/numbers/{c['id']}").json()["status"] == "done")
        d = tc.post("/api/numbers", json=odds, headers=by("10.0.0.4")).json()
        assert d["id"] == c["id"] and d["status"] == "done" and "result" in d
        assert jobs.numbers_jobs.computed == 2
        # a simulation without a seed is a fresh one every time
        fresh = {"game": "derby", "mode": "simulate", "n": 1000}
        e = tc.post("/api/numbers", json=fresh, headers=by("10.0.0.5")).json()
        until(lambda: tc.get(f"/api/numbers/{e['id']}").json()["status"] == "done")
        f = tc.post("/api/numbers", json=fresh, headers=by("10.0.0.5")).json()
        assert f["id"] != e["id"] and jobs.numbers_jobs.computed == 4


# --- raceday serve --limit heavy-... ----------------------------------------------------
def test_serve_limits_for_heavy_work_and_the_guide_gives_their_defaults() -> None:
    import dataclasses
    import re

    from raceday.cli.serve import HEAVY_LIMITS, heavy_limits, parse_limit

    given = dict(parse_limit(text) for text in (
        "heavy-workers=2", "heavy-burst=5", "heavy-rate=0.5", "heavy-share=8",
        "heavy-queue=10", "heavy-cache-mb=16", "numbers-share=2", "rest-rate=2"))
    limits = heavy_limits(given)
    assert limits == HeavyLimits(workers=2, burst=5, rate=0.5, per_address=8, queue=10,
                                 cache_bytes=16 * 2**20, numbers_per_address=2)
    assert given == {"rest_rate": 2}  # the others stay the app's keywords
    assert heavy_limits({"rest_rate": 2}) is None
    guide = (Path(__file__).resolve().parents[2] / "docs" / "usage" / "hosting.md"
             ).read_text(encoding="utf-8").split("## Heavy work", 1)[1]
    table = dict(re.findall(r"^\| `([a-z-]+)` \| ([^|]+?) \|", guide, re.MULTILINE))
    assert set(table) == set(HEAVY_LIMITS)
    defaults = {f.name: f.default for f in dataclasses.fields(HeavyLimits)}
    for name, field in HEAVY_LIMITS.items():
        if field == "workers":
            continue  # the machine's: half its cores
        expected = defaults[field] // 2**20 if field == "cache_bytes" else defaults[field]
        assert float(table[name]) == expected, name


@pytest.mark.parametrize("value", ["heavy-workers=0", "heavy-workers=65", "heavy-share=1.5",
                                   "heavy-rate=0", "heavy-queue=-1", "heavy-cache-mb=x",
                                   "numbers-share=0"])
def test_serve_refuses_a_bad_heavy_limit(value: str) -> None:
    from raceday.cli.serve import parse_limit

    with pytest.raises(ValueError, match=value.split("=")[0]):
        parse_limit(value)


# --- the pool's processes end with the server ---------------------------------------------
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_the_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    from raceday.web.server import free_port

    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    server = subprocess.Popen([sys.executable, "-m", "raceday.web.server",
                               str(tmp_path / "party.sqlite"), str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            try:
                return httpx.get(base + "/api/games").status_code == 200
            except httpx.HTTPError:
                return False

        until(answers)
        assert httpx.get(base + "/print/hairpin.pdf", timeout=HANG).status_code == 200
        task = Path(f"/proc/{server.pid}/task/{server.pid}/children")
        workers = task.read_text().split()
        assert workers  # the pool's worker (and multiprocessing's resource tracker)
    finally:
        server.send_signal(signal.SIGKILL)  # no time to stop anything
        server.wait(HANG)
    until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers))


def crash() -> Answer:
    """A work function whose worker process dies (as one killed for its memory would)."""
    import os

    os._exit(3)


def test_a_dead_worker_is_one_refusal_and_the_pool_starts_again() -> None:
    import asyncio

    from raceday.web.heavy import Refused

    heavy = Heavy(HeavyLimits(workers=1))
    try:
        with pytest.raises(Refused) as refused:
            asyncio.run(heavy.run("10.0.0.1", None, crash))
        assert refused.value.status == 503 and refused.value.words.key == "refusal.internal"
        assert heavy.busy == 0 and not heavy.running
        answer = asyncio.run(heavy.run("10.0.0.1", None, print_pages.printed_answer, "pdf",
                                       "hairpin", ""))
        assert answer.status == 200 and answer.body.startswith(b"%PDF-")
    finally:
        heavy.close()
