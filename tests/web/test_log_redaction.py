"""No key and no private intent in the server's logs, at uvicorn's most talkative level
(``trace``: every frame and every ASGI scope), and a text frame that is not UTF-8 is one
log line, not a traceback. A real loopback uvicorn; what its loggers write is captured
both through a handler of our own and on stderr."""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import socket
import struct
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import connect

from raceday.web.app import create_app
from raceday.web.redact import HIDDEN, Redact, redact
from raceday.web.server import background_server

HANG = 30.0  # a hang guard only
BID = 918273  # the sealed bid and the stake: numbers no log line has otherwise
STAKE = 564738
CAPTURED = ("uvicorn", "websockets", "raceday")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, io.StringIO]]:
    """A server at the trace level, and what its loggers wrote from its start."""
    app = create_app(tmp_path_factory.mktemp("logs") / "party.sqlite")
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setLevel(1)
    handler.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    with background_server(app, log_level="trace") as base:
        for name in CAPTURED:  # after uvicorn's own set-up, which replaces handlers
            logging.getLogger(name).addHandler(handler)
        try:
            yield base, out
        finally:
            for name in CAPTURED:
                logging.getLogger(name).removeHandler(handler)


def test_keys_bids_and_stakes_are_never_logged(served: tuple[str, io.StringIO],
                                               capfd: pytest.CaptureFixture[str]) -> None:
    base, out = served
    made = httpx.post(f"{base}api/rooms", json={"game": "derby"}, timeout=HANG).json()
    code, host_token = made["code"], made["host_token"]
    seat = httpx.post(f"{base}api/rooms/{code}/join", json={"name": "Aki"},
                      timeout=HANG).json()["token"]
    url = base.replace("http://", "ws://") + f"ws/{code}"
    with connect(f"{url}?token={host_token}", open_timeout=HANG) as host:  # a key in a URL
        host.send(json.dumps({"type": "hello", "token": host_token}))
        assert json.loads(host.recv(timeout=HANG))["type"] == "welcome"
        with connect(url, open_timeout=HANG) as phone:
            phone.send(json.dumps({"type": "hello", "token": seat, "since": -1}))
            assert json.loads(phone.recv(timeout=HANG))["type"] == "welcome"
            for intent in ({"type": "bid", "amount": BID, "ref": 1},
                           {"type": "ticket", "kind": "win", "horses": [1],
                            "stake": STAKE, "ref": 2}):
                phone.send(json.dumps(intent))
                while json.loads(phone.recv(timeout=HANG)).get("ref") != intent["ref"]:
                    pass
    logged = out.getvalue() + capfd.readouterr().err
    assert "TEXT type='hello'" in logged  # the frames were logged, as their kind only
    assert "query_string" in logged  # and the scopes
    for secret in (host_token, seat, str(BID), f"{BID:,}", str(STAKE), f"{STAKE:,}"):
        assert secret not in logged, secret


def _raw_socket(base: str, code: str) -> socket.socket:
    """A WebSocket opened by hand (no client library to refuse a bad frame)."""
    host, port = base.removeprefix("http://").rstrip("/").split(":")
    sock = socket.create_connection((host, int(port)), timeout=HANG)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/{code} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _frame(opcode: int, payload: bytes) -> bytes:
    """A masked client frame (payload under 126 bytes)."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return struct.pack("!BB", 0x80 | opcode, 0x80 | len(payload)) + mask + body


def _read_until_close(sock: socket.socket) -> int:
    """The close code the server sends (frames before it are skipped)."""
    data = b""
    for _ in range(1000):  # a bound; the server closes long before
        while len(data) < 2:
            data += sock.recv(4096)
        length = data[1] & 0x7F
        start = 2
        if length == 126:
            while len(data) < 4:
                data += sock.recv(4096)
            length, start = struct.unpack("!H", data[2:4])[0], 4
        while len(data) < start + length:
            data += sock.recv(65536)
        opcode, payload = data[0] & 0x0F, data[start:start + length]
        data = data[start + length:]
        if opcode == 0x8:
            return int(struct.unpack("!H", payload[:2])[0])
    raise AssertionError("no close frame")


def test_a_text_frame_that_is_not_utf8_is_one_log_line(served: tuple[str, io.StringIO],
                                                      capfd: pytest.CaptureFixture[str]
                                                      ) -> None:
    base, out = served
    code = httpx.post(f"{base}api/rooms", json={"game": "derby"}, timeout=HANG).json()["code"]
    capfd.readouterr()
    before = len(out.getvalue())
    sock = _raw_socket(base, code)
    with sock:
        sock.sendall(_frame(0x1, b'{"type": "hello", "token": null}'))
        sock.sendall(_frame(0x1, b'{"type": "ping", "x": "\xff\xfe"}'))
        assert _read_until_close(sock) == 1007  # invalid frame payload data
    logged = out.getvalue()[before:]
    lines = [line for line in logged.splitlines() if "UTF-8" in line]
    assert len(lines) == 1, logged
    assert "Traceback" not in logged and "UnicodeDecodeError" not in logged
    err = capfd.readouterr().err
    assert "Traceback" not in err and "UnicodeDecodeError" not in err


@pytest.mark.parametrize(("line", "secret"), [
    ('{"type": "hello", "token": "s3cr3tKEY_-x", "since": 4}', "s3cr3tKEY_-x"),
    ("{'host_token': 'abcDEF123', 'code': 'KXQZ'}", "abcDEF123"),
    ("GET /ws/KXQZ?since=3&token=qwerty123 HTTP/1.1", "qwerty123"),
    ("b'key=zzz999'", "zzz999"),
    ('{"type":"bid","amount":3000,"ref":7}', "3000"),
    ('{"type": "ticket", "stake": 1200, "horses": [3, 5]}', "1200"),
    ('{"type": "ticket", "text": "win 1 1", "ref": 2}', "win 1 1"),
    ('{"type": "hello", "token": "cut-off-in-the-midd', "cut-off"),
])
def test_the_filter_hides_each_kind_of_field(line: str, secret: str) -> None:
    hidden = redact(line)
    assert secret not in hidden and HIDDEN in hidden, hidden
    record = logging.LogRecord("uvicorn.error", logging.DEBUG, __file__, 1, "< %s", (line,),
                               None)
    assert Redact().filter(record)
    assert secret not in record.getMessage()


def test_the_filter_keeps_what_is_not_secret() -> None:
    line = '{"type": "ping", "ref": 7, "since": 12} room KXQZ seq 40'
    assert redact(line) == line


def test_a_frame_is_logged_as_its_kind_and_size() -> None:
    from websockets.frames import Frame, Opcode

    data = json.dumps({"type": "bid", "amount": BID}).encode()
    record = logging.LogRecord("uvicorn.error", logging.DEBUG, __file__, 1, "< %s",
                               (Frame(Opcode.TEXT, data),), None)
    Redact().filter(record)
    assert record.getMessage() == f"< TEXT type='bid' [{len(data)} bytes]"

