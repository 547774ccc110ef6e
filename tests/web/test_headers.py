"""The party server's response headers on a network it does not control: every answer (pages,
the API, files, refusals) carries the security headers, HSTS only behind an ``https`` public
URL, the answers that carry a key are never stored, and no answer ever sets a cookie."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.routing import Route

from raceday.web.app import create_app
from raceday.web.guard import CSP

SECURE = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}
FILLERS = {"game": "derby", "name": "nothing", "part": "1", "job": "nothing",
           "rest": "x", "path": "js/common.js"}


def secure(answer: Any) -> None:
    """The headers every HTTP answer carries, and no cookie."""
    for name, value in SECURE.items():
        assert answer.headers.get(name) == value, (answer.request.url, name)
    policy = answer.headers["permissions-policy"]
    for feature in ("camera", "microphone", "geolocation"):
        assert f"{feature}=()" in policy, policy
    assert "set-cookie" not in answer.headers, answer.request.url


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "party.sqlite")) as tc:
        yield tc


def routes(items: list[Any]) -> Iterator[Route]:
    """The app's routes, also those of the routers it includes (FastAPI may keep an
    included router whole, as one item)."""
    for item in items:
        inner = getattr(item, "original_router", None)
        if inner is not None:
            yield from routes(inner.routes)
        elif isinstance(item, Route):
            yield item


def every_get(tc: TestClient, code: str) -> list[str]:
    """A path for every GET route of the app, a real room's code where a route names one."""
    paths = []
    for route in routes(tc.app.routes):  # type: ignore[attr-defined]
        if "GET" not in (route.methods or ()):
            continue
        path = route.path
        for param in re.findall(r"{(\w+)(?::\w+)?}", path):
            value = code if param == "code" else FILLERS.get(param, "x")
            path = re.sub(r"{" + param + r"(?::\w+)?}", value, path)
        paths.append(path)
    return paths


def test_every_answer_is_secure_and_sets_no_cookie(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "derby"})
    secure(made)
    code = made.json()["code"]
    paths = every_get(client, code)
    assert {f"/api/rooms/{code}", f"/play/{code}", "/", "/openapi.json"} <= set(paths)
    answers = [client.get(p, headers={"accept": "text/html"}) for p in paths]
    answers += [client.get(p) for p in paths]
    answers += [client.get("/static/js/common.js"), client.get("/no/such/page"),
                client.get("/api/rooms/ZZZZ")]
    answers += [client.post(f"/api/rooms/{code}/join", json={"name": "Aki"}),  # a key
                client.post("/api/rooms", json={"game": "derby"},  # refused by the guard
                            headers={"origin": "http://evil.example"}),
                client.post("/api/rooms", content=b"x", headers={"content-type": "text/plain"})]
    assert {a.status_code for a in answers} & {403, 404, 415} == {403, 404, 415}
    assert all(a.status_code < 500 for a in answers), [
        (a.request.url, a.status_code) for a in answers if a.status_code >= 500]
    for answer in answers:
        secure(answer)
    assert not client.cookies  # nothing was ever stored as a cookie


def test_hsts_only_behind_an_https_public_url(tmp_path: Path) -> None:
    for public_url, sent in ((None, False), ("http://192.168.1.20:8000/", False),
                             ("https://party.example.org/", True),
                             ("HTTPS://Party.Example.org", True)):
        with TestClient(create_app(tmp_path / "party.sqlite", public_url=public_url)) as tc:
            for answer in (tc.get("/"), tc.post("/api/rooms", json={"game": "derby"})):
                hsts = answer.headers.get("strict-transport-security")
                if sent:
                    assert hsts is not None and "max-age=31536000" in hsts, public_url
                    assert "includesubdomains" not in hsts.lower()
                else:
                    assert hsts is None, public_url


def test_answers_with_a_key_are_never_stored(client: TestClient) -> None:
    made = client.post("/api/rooms", json={"game": "derby"})
    assert made.json()["host_token"] and made.headers["cache-control"] == "no-store"
    joined = client.post(f"/api/rooms/{made.json()['code']}/join", json={"name": "Aki"})
    assert joined.json()["token"] and joined.headers["cache-control"] == "no-store"
    # a page keeps its own policy (revalidate, so an update reaches phones)
    assert client.get("/").headers["cache-control"] == "no-cache"


def test_a_socket_handshake_sets_no_cookie(client: TestClient) -> None:
    """The only other answers the server gives: a WebSocket's. Its frames carry the keys
    (in the welcome's role), never a cookie."""
    code = client.post("/api/rooms", json={"game": "derby"}).json()["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": None, "since": -1})
        assert ws.receive_json()["type"] == "welcome"
    assert not client.cookies
