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
    assert step["room"] == {"races": 4} and step["computers"] == 1
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
    assert step["room"] == {"races": 3, "riders": 6} and step["terminal"] == "own"
    made = client.post("/api/rooms", json={"game": "keirin", "options": step["room"]})
    assert made.status_code == 201, made.text
    info = client.get(f"/api/rooms/{made.json()['code']}").json()
    assert info["game"] == "keirin"


def test_wielersim_step_opens_the_watch_page(client: TestClient) -> None:
    step = play_step(client, "wielersim")
    assert step["watch"] == "/wielersim" and step["room"] is None
    assert step["computers"] == 0 and step["terminal"] == "own"
    page = client.get(step["watch"])
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
