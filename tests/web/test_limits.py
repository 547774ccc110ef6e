"""Per-address limits with the server's DEFAULT allowances: a bar of twelve phones behind one
router (one address) joins a party without a single 429, while scripted floods from one
address (guessing codes, creating rooms, filling a lobby, opening sockets) are refused.

Every allowance refills by an injected clock that the tests hold still, so what is counted is
how many requests an address may make at once, never how fast this machine is."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from raceday.web.app import create_app
from raceday.web.guard import MISS_COST
from tests.web.conftest import Client, closing_sockets

PHONES = 12
ROUTER = ("203.0.113.7", 50000)  # the bar's one public address
ELSEWHERE = ("198.51.100.9", 50000)  # someone else, on another address
DEFAULTS = {name: p.default for name, p in inspect.signature(create_app).parameters.items()
            if p.default is not inspect.Parameter.empty}


class Clock:
    """A clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(tmp_path: Path, clock: Clock) -> Any:
    return create_app(tmp_path / "party.sqlite", clock=clock)  # the defaults, frozen


@contextmanager
def at(app: Any, address: tuple[str, int]) -> Iterator[TestClient]:
    """A test client whose every request comes from ``address``."""
    with closing_sockets(app, address) as tc:
        yield tc


@pytest.fixture
def bar(app: Any) -> Iterator[TestClient]:
    with at(app, ROUTER) as tc:
        yield tc


def codes_of(answers: list[Any]) -> dict[int, int]:
    seen: dict[int, int] = {}
    for answer in answers:
        seen[answer.status_code] = seen.get(answer.status_code, 0) + 1
    return seen


def load_page(tc: TestClient, kind: str, code: str, statuses: list[int]) -> dict[str, Any]:
    """What a page does when it opens: the HTML, then the room's data (openRoom)."""
    statuses.append(tc.get(f"/{kind}/{code}", headers={"accept": "text/html"}).status_code)
    info = tc.get(f"/api/rooms/{code}")
    statuses.append(info.status_code)
    return dict(info.json())


def test_twelve_phones_behind_one_router_join_with_no_429(tmp_path: Path,
                                                          clock: Clock) -> None:
    # a bar's phones share one public address: the venue raises the seats one address may
    # take in a lobby (raceday serve --seats-per-address 12); every other allowance is the
    # default
    app = create_app(tmp_path / "party.sqlite", clock=clock, seats_per_address=PHONES)
    with at(app, ROUTER) as bar:
        twelve_phones(bar)


def twelve_phones(bar: TestClient) -> None:
    statuses: list[int] = []
    made = bar.post("/api/rooms", json={"game": "derby"})
    statuses.append(made.status_code)
    room = made.json()
    code = room["code"]
    # the big screen: its page, the room, the QR code, its socket; a screen that watches too
    load_page(bar, "host", code, statuses)
    statuses.append(bar.get(f"/api/rooms/{code}/qr.svg").status_code)
    host = Client(bar, code, room["host_token"])
    load_page(bar, "watch", code, statuses)
    screen = Client(bar, code, None)
    phones: list[Client] = []
    tokens: list[str] = []
    for k in range(PHONES):  # each phone scans the QR: page, room, join, socket
        load_page(bar, "play", code, statuses)
        joined = bar.post(f"/api/rooms/{code}/join", json={"name": f"Guest {k + 1}"})
        statuses.append(joined.status_code)
        tokens.append(joined.json()["token"])
        phones.append(Client(bar, code, tokens[-1]))
    for _ in range(2):  # every phone reloads its page twice (a reconnect or two each)
        for k in range(PHONES):
            phones[k].close()
            info = load_page(bar, "play", code, statuses)
            assert len(info["seats"]) == PHONES
            phones[k] = Client(bar, code, tokens[k], since=phones[k].seq)
    host.close()  # and the big screen reloads once
    load_page(bar, "host", code, statuses)
    statuses.append(bar.get(f"/api/rooms/{code}/qr.svg").status_code)
    host = Client(bar, code, room["host_token"])
    assert 429 not in statuses and set(statuses) <= {200, 201}, statuses
    welcomes = [c.welcome for c in (host, screen, *phones)]
    assert all(w["type"] == "welcome" for w in welcomes), welcomes
    assert [p.welcome["role"]["seat"] for p in phones] == list(range(PHONES))
    # and the evening starts: every phone hears it
    start = host.send({"type": "start", "computers": 0})
    assert start["type"] == "ack", start
    for phone in phones:
        phone.until(start["seq"])
        assert phone.view["phase"] != "lobby"


def test_guessing_codes_from_one_address_is_refused(app: Any, clock: Clock) -> None:
    with at(app, ROUTER) as guesser:
        real = guesser.post("/api/rooms", json={"game": "derby"}).json()["code"]
        guesses = [f"Z{a}{b}{c}" for a in "BCDFG" for b in "HJKLM" for c in "NPQRS"]
        answers = [guesser.get(f"/api/rooms/{g}") for g in guesses[:100]]
        seen = codes_of(answers)
        misses = DEFAULTS["lookup_burst"] // MISS_COST
        assert seen == {404: misses, 429: 100 - misses}, seen
        assert all(a.headers["retry-after"].isdigit() for a in answers if a.status_code == 429)
        # every other way of naming a code is spent too: the room itself, its QR, a join,
        # its replay, a socket
        assert guesser.get(f"/api/rooms/{real}").status_code == 429
        assert guesser.get(f"/api/rooms/{real}/qr.svg").status_code == 429
        assert guesser.post(f"/api/rooms/{real}/join", json={"name": "X"}).status_code == 429
        assert guesser.get(f"/api/replay/room/{guesses[100]}").status_code == 429
        with guesser.websocket_connect(f"/ws/{guesses[101]}") as ws:
            assert "too many" in ws.receive_json()["message"]
        # time pays it back: one more guess after MISS_COST tokens' worth of refill
        clock.now += MISS_COST / DEFAULTS["lookup_rate"]
        assert guesser.get(f"/api/rooms/{guesses[102]}").status_code == 404
        assert guesser.get(f"/api/rooms/{guesses[103]}").status_code != 404
    with at(app, ELSEWHERE) as other:  # another address is not held up
        assert other.get(f"/api/rooms/{real}").status_code == 200


def test_guessing_codes_through_the_replay_is_refused(app: Any) -> None:
    with at(app, ROUTER) as guesser:
        answers = [guesser.get(f"/api/replay/room/Z{a}{b}B") for a in "BCDFGH" for b in "JKLMN"]
        seen = codes_of(answers)
        misses = DEFAULTS["lookup_burst"] // MISS_COST
        assert seen == {404: misses, 429: len(answers) - misses}, seen


def test_a_room_creation_flood_is_refused(app: Any, clock: Clock) -> None:
    with at(app, ROUTER) as flooder:
        answers = [flooder.post("/api/rooms", json={"game": "derby"}) for _ in range(60)]
        seen = codes_of(answers)
        allowed = int(DEFAULTS["create_burst"])
        assert seen == {201: allowed, 429: 60 - allowed}, seen
        refused = answers[-1]
        assert refused.json()["error"].startswith("too many")
        assert int(refused.headers["retry-after"]) >= 1
        # the rooms made are all there and open: the allowance is a bound, not a lockout
        made = [a.json()["code"] for a in answers if a.status_code == 201]
        assert all(flooder.get(f"/api/rooms/{c}").status_code == 200 for c in made)
        clock.now += 1 / DEFAULTS["create_rate"]  # one more room's worth of time
        again = [flooder.post("/api/rooms", json={"game": "derby"}) for _ in range(3)]
        assert [a.status_code for a in again] == [201, 429, 429]
    with at(app, ELSEWHERE) as host:  # another host elsewhere still can
        assert host.post("/api/rooms", json={"game": "derby"}).status_code == 201


def test_a_join_flood_into_one_room_is_refused(app: Any) -> None:
    with at(app, ELSEWHERE) as host:
        code = host.post("/api/rooms", json={"game": "derby"}).json()["code"]
    with at(app, ROUTER) as flooder:
        answers = [flooder.post(f"/api/rooms/{code}/join", json={"name": f"bot{k}"})
                   for k in range(300)]
        seen = codes_of(answers)
    with at(app, ELSEWHERE) as host:
        info = host.get(f"/api/rooms/{code}").json()
    seats = DEFAULTS["seats_per_address"]  # one address fills at most its share
    assert seats < info["max_seats"]
    assert len(info["seats"]) == seats
    assert seen.get(201) == seats, seen
    assert seen.get(429, 0) == 300 - seats, seen


def test_one_address_holds_a_bounded_number_of_sockets(tmp_path: Path, clock: Clock) -> None:
    app = create_app(tmp_path / "party.sqlite", clock=clock, max_sockets=3)
    with at(app, ROUTER) as tc:
        code = tc.post("/api/rooms", json={"game": "derby"}).json()["code"]
        held = [Client(tc, code, None) for _ in range(3)]
        with pytest.raises(WebSocketDenialResponse) as refused:
            tc.websocket_connect(f"/ws/{code}").__enter__()
        assert refused.value.status_code == 429
        assert refused.value.json()["error"].startswith("too many")
        held.pop().close()  # a socket closed frees its place
        held.append(Client(tc, code, None))
        assert held[-1].welcome["type"] == "welcome"
    with at(app, ELSEWHERE) as other:  # per address, not for everyone
        assert Client(other, code, None).welcome["type"] == "welcome"


def test_the_default_socket_cap_holds_a_bar_and_more() -> None:
    """Two screens and twelve phones are far under the default cap; the cap is there for a
    script, so it must hold several parties in one bar (a club night of four rooms)."""
    assert DEFAULTS["max_sockets"] >= 4 * (PHONES + 2)


def test_a_flood_behind_a_trusted_proxy_is_counted_by_its_client(tmp_path: Path,
                                                                  clock: Clock) -> None:
    """Behind the proxy every connection comes from 127.0.0.1; the flood is still counted
    by the address the proxy names, so the bar next door keeps its allowance."""
    app = create_app(tmp_path / "party.sqlite", clock=clock, trusted_proxies="127.0.0.1",
                     seats_per_address=PHONES)  # the bar's twelve phones share its address
    with at(app, ("127.0.0.1", 40000)) as proxy:
        flood = {"x-forwarded-for": "192.0.2.66"}
        answers = [proxy.post("/api/rooms", json={"game": "derby"}, headers=flood)
                   for _ in range(30)]
        assert codes_of(answers)[429] == 30 - DEFAULTS["create_burst"]
        bar = {"x-forwarded-for": ROUTER[0]}
        made = proxy.post("/api/rooms", json={"game": "derby"}, headers=bar)
        assert made.status_code == 201
        code = made.json()["code"]
        for k in range(PHONES):
            assert proxy.get(f"/api/rooms/{code}", headers=bar).status_code == 200
            joined = proxy.post(f"/api/rooms/{code}/join", json={"name": f"P{k}"},
                                headers=bar)
            assert joined.status_code == 201, joined.text


def test_a_real_server_refuses_the_socket_over_the_cap(tmp_path: Path, clock: Clock) -> None:
    """Through uvicorn (not the in-process client): the refused handshake is an HTTP 429,
    which a browser sees as a failed connection and retries later (the pages back off)."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from raceday.web.server import background_server

    app = create_app(tmp_path / "party.sqlite", clock=clock, max_sockets=2)
    with background_server(app) as base:
        import httpx

        code = httpx.post(f"{base}api/rooms", json={"game": "derby"}, timeout=30).json()["code"]
        url = base.replace("http://", "ws://") + f"ws/{code}"

        def hello(ws: Any) -> None:
            ws.send('{"type": "hello", "token": null}')
            assert '"welcome"' in str(ws.recv(timeout=30))

        with connect(url, open_timeout=30) as second:
            with connect(url, open_timeout=30) as first:
                hello(first)
                hello(second)
                with pytest.raises(InvalidStatus) as refused:
                    connect(url, open_timeout=30)
                assert refused.value.response.status_code == 429
            third = None
            for _ in range(300):  # until the server has seen the first close (a hang guard)
                try:
                    third = connect(url, open_timeout=30)
                except InvalidStatus:
                    threading.Event().wait(0.1)
                else:
                    break
            assert third is not None
            with third:
                hello(third)
