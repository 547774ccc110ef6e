"""Refusals on the wire: a method a path does not take is 405 with ``Allow`` (not a 415
about a body nothing would read), and the JSON API's description lists the 404 and 409
its replay and campaign routes answer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import serving, worded


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with serving(tmp_path_factory.mktemp("wire") / "party.sqlite") as tc:
        yield tc


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("PUT", "/api/games", "GET"),
    ("PATCH", "/api/rooms/ABCD", "GET"),
    ("DELETE", "/api/rooms/ABCD", "GET"),
    ("PUT", "/api/replays", "GET"),
    ("PUT", "/api/wielersim/campaigns/x", "GET, DELETE"),
    ("PUT", "/", "GET"),
    ("PATCH", "/static/css/base.css", "GET, HEAD"),
    ("PUT", "/api/numbers/x", "GET, DELETE"),  # two routes at one path: both named
    ("PUT", "/api/wielersim/campaigns", "GET, POST"),
    ("OPTIONS", "/api/numbers/games", "GET"),  # not a job's id, whatever DELETE's path says
])
def test_a_method_a_path_does_not_take_is_405_with_allow(client: TestClient, method: str,
                                                          path: str, allow: str) -> None:
    # a body a state-changing route would refuse (415): here no route would read it
    r = client.request(method, path, content=b"name=x", headers={"content-type": "text/plain"})
    assert r.status_code == 405, (r.status_code, r.text)
    assert r.headers["allow"] == allow
    assert worded(r.json()).startswith("this address does not take")


def test_a_route_that_takes_a_body_still_checks_it_first(client: TestClient) -> None:
    r = client.post("/api/rooms", content=b"game=derby", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.put("/api/nothing/here", content=b"x", headers={"content-type": "text/plain"})
    assert r.status_code == 404


@pytest.mark.parametrize(("path", "statuses"), [
    ("/api/replay/room/{code}", {"404", "409", "429"}),
    ("/api/replay/{game}/{name}", {"404", "409"}),
    ("/api/replay/{game}/{name}/{part}", {"404", "409"}),
    ("/api/wielersim/campaigns/{name}", {"404", "409"}),
    ("/api/wielersim/campaigns/{name}/stages/{index}", {"404", "409"}),
])
def test_the_description_lists_the_refusals_of_replays_and_campaigns(
        client: TestClient, path: str, statuses: set[str]) -> None:
    spec: dict[str, Any] = client.get("/openapi.json").json()
    answers = spec["paths"][path]["get"]["responses"]
    assert statuses <= set(answers), sorted(answers)
    for status in statuses:
        schema = answers[status]["content"]["application/json"]["schema"]
        assert "error" in schema.get("properties", {}) or "$ref" in schema, schema


def test_the_refusals_described_are_the_ones_answered(client: TestClient) -> None:
    """A replay of a room that is not there is the 404 the description lists; a campaign
    likewise."""
    assert client.get("/api/replay/room/ZZZZ").status_code == 404
    assert client.get("/api/replay/derby/no-such-session").status_code == 404
    assert client.get("/api/wielersim/campaigns/no-such-campaign").status_code == 404


def test_a_replay_refused_says_why_in_words_for_the_page(client: TestClient) -> None:
    """The replay page shows a refusal in its reader's language: every replay refusal
    carries its words (a key both tables have), as the room routes' refusals do."""
    from raceday.present import render

    room = client.get("/api/replay/room/ZZZZ").json()
    assert worded(room) == "there is no room 'ZZZZ' on this server"
    assert render(room["words"], "ja") == "このサーバーにルーム'ZZZZ'はありません"
    assert worded(client.get("/api/replay/derby/no-such-session").json()) == \
        "no saved derby session named 'no-such-session'"
    assert worded(client.get("/api/replay/nogame/x").json()).startswith("unknown game 'nogame'")
