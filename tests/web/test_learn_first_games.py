"""The browser's last lesson step for Dice Derby, KEIRIN and WielerSIM (#48): the step's
answer gives the room options (Derby, KEIRIN), the computers its host page starts with,
the watch page (WielerSIM) and what the terminal plays; the rooms the page creates from
them are made, and Derby's starts with one cautious computer beside the learner."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from raceday.core.lesson import load_lesson
from tests.web.conftest import Client, join


def play_step(tc: TestClient, game: str) -> dict[str, Any]:
    answer = tc.get(f"/api/learn/{game}/{len(load_lesson(game).steps)}")
    assert answer.status_code == 200, answer.text
    body = dict(answer.json())
    assert body["play"] is True
    return body


def test_derby_step_makes_a_room_that_starts_with_the_cautious_computer(
        client: TestClient) -> None:
    step = play_step(client, "derby")
    assert step["room"] == {"races": 4, "hints": True} and step["computers"] == 1
    assert step["watch"] is None and step["terminal"] == "own"
    made = client.post("/api/rooms", json={"game": "derby", "options": step["room"]})
    assert made.status_code == 201, made.text
    room = made.json()
    join(client, room["code"], "You")
    host = Client(client, room["code"], room["host_token"])
    answer = host.send({"type": "start", "computers": step["computers"]})
    assert answer["type"] == "ack", answer
    started = next(e for e in host.events if e.get("type") == "started")
    assert started["players"] == ["You", "CPU 1"] and started["computers"] == 1
    # the computer seat plays at the lesson's level
    level = load_lesson("derby").steps[-1].play.level  # type: ignore[union-attr]
    assert [(p["name"], p["kind"]) for p in host.view["players"]] == [
        ("You", "human"), ("CPU 1", level)]
    host.close()


def test_keirin_step_makes_a_room_of_the_lessons_night(client: TestClient) -> None:
    step = play_step(client, "keirin")
    assert step["room"] == {"races": 3, "riders": 6, "hints": True} and step["computers"] == 1
    assert step["terminal"] == "own"
    made = client.post("/api/rooms", json={"game": "keirin", "options": step["room"]})
    assert made.status_code == 201, made.text
    info = client.get(f"/api/rooms/{made.json()['code']}").json()
    assert info["game"] == "keirin"


def test_wielersim_step_opens_the_watch_page_on_the_lessons_race(client: TestClient) -> None:
    step = play_step(client, "wielersim")
    assert step["watch"] == "/wielersim?lesson=wielersim" and step["room"] is None
    assert step["computers"] == 0 and step["terminal"] == "own"
    page = client.get(step["watch"])
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    route = load_lesson("wielersim").steps[-1].play.options["route"]  # type: ignore[union-attr]
    race = client.get("/api/wielersim/lesson").json()
    assert race["route"]["name"] == route["name"] == "Eerste koers"
    assert [s["name"] for s in race["route"]["sections"]] == [s["name"] for s in route["sections"]]
    assert race["route"]["distance"] == sum(s["length"] for s in route["sections"])


def test_the_lessons_watch_room_rides_the_lessons_route_and_takes_none_sent(
        client: TestClient) -> None:
    route = load_lesson("wielersim").steps[-1].play.options["route"]  # type: ignore[union-attr]
    # a route named in the request is not the server's to take: refused, in words
    refused = client.post("/api/wielersim/lesson", json={"route": "flanders"})
    assert refused.status_code == 400 and "route" in refused.text
    made = client.post("/api/wielersim/lesson", json={})
    assert made.status_code == 201, made.text
    room = made.json()
    assert room["host_url"] == f"/host/{room['code']}"
    host = Client(client, room["code"], room["host_token"])
    film = host.view["film"]
    assert film["route"]["name"] == "Eerste koers" and film["lesson"] is True
    assert [s["name"] for s in film["route"]["sections"]] == [s["name"] for s in route["sections"]]
    assert film["route_name"] is None  # a route table, not a shipped route
    answer = host.send({"type": "start"})
    assert answer["type"] == "ack", answer
    host.close()
