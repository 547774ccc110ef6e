"""Numbers jobs: the engines' predictions and odds run on the server with progress, are
bounded, can be stopped, and give the engines' own numbers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from raceday.games.derby.odds import exact_odds
from raceday.games.keirin.odds import race_odds
from raceday.games.keirin.rules import KeirinOptions
from raceday.games.wielersim.predict import predict
from raceday.games.wielersim.rules import peloton_spec, route_spec
from raceday.web.app import create_app

from .conftest import closing_sockets


def by(address: str) -> dict[str, str]:
    """A request's address, as the trusted proxy (the test client's 127.0.0.1) names it."""
    return {"x-forwarded-for": address}


def run(client: TestClient, body: dict[str, Any], timeout: float = 120) -> dict[str, Any]:
    r = client.post("/api/numbers", json=body)
    assert r.status_code == 202, r.text
    job = r.json()
    seen = []
    deadline = time.monotonic() + timeout
    while job["status"] == "running":
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        job = client.get(f"/api/numbers/{job['id']}").json()
        seen.append(job["done"])
    assert seen == sorted(seen)  # progress never goes back
    return dict(job)


def test_a_prediction_gives_the_engines_numbers(client: TestClient) -> None:
    job = run(client, {"game": "wielersim", "route": "flat-stage", "peloton": "small",
                       "n": 600, "seed": "7"})
    assert job["status"] == "done" and job["done"] == job["total"] == 600
    pred = predict(route_spec("flat-stage"), peloton_spec("small"), 600, seed=7)
    rows = {r["bib"]: r for r in job["result"]["tables"][0]["rows"]}
    for i, number in enumerate(pred.numbers):
        win = rows[number]["win"]
        assert win[0] == pytest.approx(pred.wins[i] / 600)
        assert (win[1], win[2]) == pytest.approx(pred.interval(int(pred.wins[i])))
        assert win[1] <= win[0] <= win[2]
    assert job["result"]["title"]["seed"] == "7"


def test_odds_tables_are_the_exact_odds(client: TestClient) -> None:
    job = run(client, {"game": "keirin", "mode": "odds", "riders": 7, "length": 30})
    exact = race_odds(KeirinOptions.parse({"riders": 7, "length": 30}))
    tables = {t["id"]: t for t in job["result"]["tables"]}
    assert [r["win"] for r in tables["riders"]["rows"]] == pytest.approx(list(exact.first[:7]))
    assert sum(r["top3"] for r in tables["riders"]["rows"]) == pytest.approx(3.0)
    assert len(tables["trifecta"]["rows"]) == 7 * 6 * 5
    job = run(client, {"game": "derby", "mode": "odds", "fall_rate": "1/20"})
    win = {r["horse"]: r["p"] for r in job["result"]["tables"][0]["rows"]}
    assert win == pytest.approx({k: float(v) for k, v in
                                 {f"d{f}": p for f, p in zip(
                                     (4, 6, 8, 10, 12, 20),
                                     [exact_odds("1/20").win[h] for h in range(1, 7)],
                                     strict=True)}.items()})


def test_simulations_cover_the_exact_chance(client: TestClient) -> None:
    # 95% intervals from fixed seeds: each covers the exact chance (checked once here)
    job = run(client, {"game": "derby", "mode": "simulate", "n": 200_000, "seed": 3})
    for row in job["result"]["tables"][0]["rows"]:
        _, low, high = row["p"]
        assert low <= row["exact"] <= high
    job = run(client, {"game": "keirin", "mode": "simulate", "n": 50_000, "seed": 3,
                       "riders": 6, "length": 30})
    exact = race_odds(KeirinOptions.parse({"riders": 6, "length": 30})).first
    for r, row in enumerate(job["result"]["tables"][0]["rows"]):
        assert row["win"][1] <= exact[r] <= row["win"][2]
    assert job["result"]["notes"][0]["key"] == "nm_mean_turns"


@pytest.mark.parametrize(("body", "message"), [
    ({"game": "wielersim", "route": "flanders", "peloton": "small", "n": 100_001},
     "n (races) must be 1 to 100,000"),
    ({"game": "wielersim", "route": "flanders", "peloton": "small", "n": 0}, "must be 1 to"),
    ({"game": "keirin", "mode": "simulate", "n": 10**8}, "must be 1 to 10,000,000"),
    ({"game": "keirin", "mode": "odds", "riders": 10}, "riders must be 6 to 9"),
    ({"game": "derby", "mode": "odds", "fall_rate": "1/0"}, "fall"),
    ({"game": "derby", "mode": "odds", "margin": "0.9"}, "margin must be between 0 and 0.5"),
    ({"game": "derby", "mode": "guess"}, "mode must be one of odds, simulate"),
    ({"game": "chess"}, "game must be one of"),
    ({"game": "derby", "mode": "odds", "n": "many", "seed": 1, "x": 2}, "unknown field(s): x"),
])
def test_bad_jobs_are_refused_before_running(client: TestClient, body: dict[str, Any],
                                             message: str) -> None:
    r = client.post("/api/numbers", json=body)
    assert r.status_code == 400 and message in r.json()["error"], r.text


def test_jobs_can_be_stopped_and_are_limited(db: Path) -> None:
    from raceday.games.wielersim import fast

    fast.warm_up()  # compiled first: the deadline below is for stopping, not for compiling
    big = {"game": "wielersim", "route": "flanders", "peloton": "classics", "n": 100_000}
    app = create_app(db, trusted_proxies="127.0.0.1")
    with closing_sockets(app, ("127.0.0.1", 50000)) as client:
        stopped_and_limited(client, big)


def stopped_and_limited(client: TestClient, big: dict[str, Any]) -> None:
    """Two addresses fill the server's two slots (one each: a second job of the first
    address is refused); a third address is told the server is busy; both stop."""
    first = client.post("/api/numbers", json=big, headers=by("10.0.0.1")).json()
    mine = client.post("/api/numbers", json=big, headers=by("10.0.0.1"))
    assert mine.status_code == 429 and "your address" in mine.json()["error"]
    second = client.post("/api/numbers", json=big, headers=by("10.0.0.2")).json()
    third = client.post("/api/numbers", json=big, headers=by("10.0.0.3"))
    assert third.status_code == 429 and "already running" in third.json()["error"]
    for job, address in ((first, "10.0.0.1"), (second, "10.0.0.2")):
        stopped = client.delete(f"/api/numbers/{job['id']}", headers=by(address))
        assert stopped.status_code == 200
        assert stopped.json()["status"] == "cancelled" and stopped.json()["done"] < 100_000
        assert client.get(f"/api/numbers/{job['id']}").status_code == 404  # forgotten
    jobs = client.app.state.numbers_jobs  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60  # a hang guard: a job stops at its next report
    while jobs.running():
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert client.get("/api/numbers/nothing").status_code == 404
