"""Helpers for driving the party server in-process with FastAPI's TestClient."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from raceday.web.app import create_app  # noqa: E402

OPEN: list[Client] = []


class Client:
    """One WebSocket client (host, seat or spectator) that tracks what it was sent."""

    def __init__(self, tc: TestClient, code: str, token: str | None, since: int = -1) -> None:
        self.closed = False
        OPEN.append(self)
        self._cm = tc.websocket_connect(f"/ws/{code}")
        self.ws = self._cm.__enter__()
        self.ws.send_json({"type": "hello", "token": token, "since": since})
        self.welcome = self.ws.receive_json()
        self.view: dict[str, Any] = self.welcome.get("view", {})
        self.seq = self.welcome.get("seq", -1)
        self.events: list[dict[str, Any]] = [e for c in self.welcome.get("catchup", [])
                                            for e in c["events"]]
        self.messages: list[dict[str, Any]] = [self.welcome]
        self.ref = 0

    def receive(self) -> dict[str, Any]:
        msg = self.ws.receive_json()
        self.messages.append(msg)
        if msg["type"] == "update":
            self.seq = msg["seq"]
            self.view = msg["view"]
            self.events.extend(msg["events"])
        return msg

    def until(self, seq: int) -> None:
        while self.seq < seq:
            self.receive()

    def send(self, intent: dict[str, Any]) -> dict[str, Any]:
        """Send an intent; return the ack or error answering it."""
        self.ref += 1
        self.ws.send_json({**intent, "ref": self.ref})
        while True:
            msg = self.receive()
            if msg["type"] == "error" and msg.get("ref") is None:
                return msg  # refused before it was read (rate limit): no ref to echo
            if msg["type"] in ("ack", "error", "pong") and msg.get("ref") == self.ref:
                if msg["type"] == "ack":
                    self.until(msg["seq"])  # the update with its own new view follows
                return msg

    def send_raw(self, text: str) -> dict[str, Any]:
        self.ws.send_text(text)
        while True:
            msg = self.receive()
            if msg["type"] == "error":
                return msg

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._cm.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "party.sqlite"


@contextmanager
def serving(db: Path, **limits: float) -> Iterator[TestClient]:
    """A test server on ``db``. Scripts act faster than thumbs, so the message allowance
    is generous unless ``limits`` say otherwise, and so is the seats one address (every
    test phone's) may take in one lobby. Every client is closed before the server
    stops, also when the test fails: an open WebSocket session would keep the TestClient
    from stopping, and a failed assertion would hang instead of being reported."""
    allowance = {"burst": 500.0, "rate": 500.0, "seats_per_address": 100, **limits}
    with closing_sockets(create_app(db, **allowance)) as tc:
        yield tc


@contextmanager
def closing_sockets(app: Any, address: tuple[str, int] | None = None) -> Iterator[TestClient]:
    """A test client of ``app`` (every request from ``address``, if given) whose open
    sockets are closed before it stops: an open one would keep the TestClient from
    stopping, and a failed assertion would hang instead of being reported."""
    with (TestClient(app) if address is None else TestClient(app, client=address)) as tc:
        try:
            yield tc
        finally:
            while OPEN:
                OPEN.pop().close()


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    # only the flooding tests (which make their own app) meet the rate limit
    with serving(db) as tc:
        yield tc


def new_room(tc: TestClient, **options: Any) -> dict[str, Any]:
    r = tc.post("/api/rooms", json={"game": "derby", "options": options})
    assert r.status_code == 201, r.text
    return dict(r.json())


def join(tc: TestClient, code: str, name: str) -> dict[str, Any]:
    r = tc.post(f"/api/rooms/{code}/join", json={"name": name})
    assert r.status_code == 201, r.text
    return dict(r.json())


def worded(body: dict[str, Any], *, required: bool = True) -> str:
    """A refusal's body is one line of English and the same in words, a key that both
    languages' tables have (``required=False``: words where the refusal has them, for the
    research layer's own refusals, still English only); returns the English line."""
    from raceday.present import table

    assert set(body) == {"error", "words"} if required else set(body) <= {"error", "words"}, \
        body
    if "words" in body:
        key = body["words"]["key"]
        assert all(table(lang).has(key) for lang in ("en", "ja")), key
    assert "\n" not in body["error"]
    return str(body["error"])
