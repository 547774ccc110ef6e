"""The WielerSIM watch page's API: films of races and stages, and one saved stage race
ridden in turn by the terminal and by the browser."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from raceday.cli.main import app as cli
from raceday.core.events import Message
from raceday.games.wielersim.campaign import load_campaign
from raceday.present import LANGUAGES, render
from raceday.store.sessions import SessionStore
from raceday.web.app import create_app


def tour(db: Path, *args: str, answers: str = "") -> str:
    result = CliRunner().invoke(cli, ["wielersim", "tour", *args, "--db", str(db),
                                      "--delay", "0"], input=answers)
    assert result.exit_code == 0, result.output
    return result.output


def test_one_campaign_two_faces(db: Path) -> None:
    # the terminal rides the prologue and stops; the browser rides stages 1 and 2; the
    # terminal finishes: the records equal those of the same race ridden in the terminal
    tour(db, "ronde-van-belgie", "small", "--seed", "5", "--save", "both", answers="c\ns\n")
    # a campaign of the terminal has no owner key: the server's own machine rides it
    with TestClient(create_app(db), client=("127.0.0.1", 50000)) as tc:
        listed = tc.get("/api/wielersim/campaigns").json()["campaigns"]
        assert listed == [{"name": "both", "tour": "Ronde van Belgie", "done": 1, "total": 6,
                           "finished": False, "owner": False}]
        for stage in (1, 2):
            r = tc.post("/api/wielersim/campaigns/both/ride", json={"stage": stage})
            assert r.status_code == 200, r.text
            assert r.json()["done"] == stage + 1
        again = tc.post("/api/wielersim/campaigns/both/ride", json={"stage": 2})
        assert again.status_code == 409 and "not the next stage" in again.json()["error"]
    out = tour(db, "--resume", "both", "--auto")
    assert "3 of 6 stages done" in out
    tour(db, "ronde-van-belgie", "small", "--seed", "5", "--save", "terminal", "--auto")
    store = SessionStore(db)
    both, terminal = load_campaign(store, "both"), load_campaign(store, "terminal")
    assert both.records == terminal.records  # each stage's result
    # and each stage's record, throw by throw, whichever face rode it
    assert [[m.text() for m in r.moves] for r in both.stages] == \
        [[m.text() for m in r.moves] for r in terminal.stages]
    with TestClient(create_app(db), client=("127.0.0.1", 50000)) as tc:
        view = tc.get("/api/wielersim/campaigns/both").json()
        assert view["finished"] and view["done"] == 6
        assert [s["ridden"] for s in view["stages"]] == [True] * 6
        gc = view["stages"][-1]["gc"]
        assert gc[0]["gap"] == 0 and gc == sorted(gc, key=lambda r: r["gap"])
        chart = view["gc_chart"]
        assert len(chart) == 8 and all(len(s["gaps"]) == 6 for s in chart)
        assert chart[0]["gaps"][-1] == 0  # the final leader leads at the end
        done = tc.post("/api/wielersim/campaigns/both/ride", json={"stage": 6})
        assert done.status_code == 409 and "is over" in done.json()["error"]


def test_a_stage_film_is_the_saved_stage(client: TestClient) -> None:
    r = client.post("/api/wielersim/campaigns", json={"tour": "ronde-van-belgie",
                                                      "peloton": "small", "seed": 11,
                                                      "name": "rvb"})
    assert r.status_code == 201, r.text
    mine = {"x-campaign-key": r.json()["key"]}
    assert client.get("/api/wielersim/campaigns/rvb/stages/0").status_code == 404
    for stage in (0, 1):
        assert client.post("/api/wielersim/campaigns/rvb/ride",
                           json={"stage": stage}, headers=mine).status_code == 200
    # the stage as the address numbers it (0 for the first), not one more
    missing = client.get("/api/wielersim/campaigns/rvb/stages/99")
    assert missing.status_code == 404
    assert "stage 99 of 'rvb' has not been ridden yet (2 done)" in missing.json()["error"]
    prologue = client.get("/api/wielersim/campaigns/rvb/stages/0").json()
    assert prologue["prologue"] and prologue["frames"] == []
    film = client.get("/api/wielersim/campaigns/rvb/stages/1").json()
    view = client.get("/api/wielersim/campaigns/rvb").json()
    saved = view["stages"][1]["result"]
    assert [r["number"] for r in film["result"][:10]] == [r["number"] for r in saved]
    assert [r["gap"] for r in film["result"][:10]] == [r["gap"] for r in saved]
    # every rider is on the road or finished in every frame, and all finish at the end
    riders = len(film["riders"])
    for f in film["frames"]:
        assert len(f["riders"]) + f["finished"] == riders
        assert sum(len(g[2]) for g in f["groups"]) == len(f["riders"])
    assert film["frames"][-1]["finished"] == riders == len(film["result"])
    kinds = {it["k"] for f in film["frames"] for it in f["items"]}
    assert {"weather", "sprint", "finish"} <= kinds
    for item in (it for f in film["frames"] for it in f["items"]):  # words from the tables
        for lang in LANGUAGES:
            text = render(Message(item["key"], item["params"]), lang, "wielersim")
            assert "{" not in text and not text.startswith("ticker."), text
    assert film["route"]["svg"].startswith("<g") and len(film["route"]["surface"]) == \
        film["route"]["distance"]


def test_one_race_is_a_function_of_its_seed(client: TestClient) -> None:
    body = {"route": "flat-stage", "peloton": "small", "seed": "2012"}
    a = client.post("/api/wielersim/race", json=body).json()
    b = client.post("/api/wielersim/race", json={**body, "seed": 2012}).json()
    assert a == b and a["seed"] == "2012"
    c = client.post("/api/wielersim/race", json={**body, "seed": 2013}).json()
    assert a["result"] != c["result"]
    fresh = client.post("/api/wielersim/race", json={"route": "flat-stage",
                                                      "peloton": "small"}).json()
    assert int(fresh["seed"]) < 2**53  # exact in a browser's numbers


def test_bad_requests_are_one_clear_error(client: TestClient) -> None:
    for body, message in (
        ({"route": "/etc/passwd", "peloton": "small"}, "route must be one of"),
        ({"route": "flanders", "peloton": "nobody"}, "peloton must be one of"),
        ({"route": "flanders", "peloton": "small", "seed": -1}, "seed must be"),
        ({"route": "flanders", "peloton": "small", "x": 1}, "unknown field(s): x"),
    ):
        r = client.post("/api/wielersim/race", json=body)
        assert r.status_code == 400 and message in r.json()["error"], r.text
    r = client.get("/api/wielersim/campaigns/nothing")
    assert r.status_code == 404 and "no saved wielersim session" in r.json()["error"]
    client.post("/api/wielersim/campaigns", json={"tour": "ronde-van-belgie",
                                                  "peloton": "small", "name": "x"})
    r = client.post("/api/wielersim/campaigns", json={"tour": "ronde-van-belgie",
                                                      "peloton": "small", "name": "x"})
    assert r.status_code == 409 and "already saved" in r.json()["error"]
    r = client.post("/api/wielersim/campaigns/x/ride", json={"stage": "1"})
    assert r.status_code == 400 and "stage must be" in r.json()["error"]
    assert client.get("/wielersim").status_code == 200
