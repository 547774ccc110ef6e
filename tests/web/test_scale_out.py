"""Two server processes behind two Caddy entry points (docs/usage/scale-out.md).

``raceday serve --shard 0/2`` and ``--shard 1/2`` run as real processes on one SQLite file;
two Caddy processes, each on a port of its own, route by the Caddyfile that ``raceday
caddyfile`` writes. Rooms made through entry A land on both shards and play to the end
over real sockets through the proxy; a phone that loses its socket and comes back through
entry B with its token gets its own seat and plays on; each shard refuses the other's
rooms (421); a Numbers job (what is not a room) lives on shard 0 whichever entry asks; and
when a shard stops, new rooms are made on the other. Every wait is bounded; the processes
are ended in ``finally``."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from raceday.web.server import free_port
from raceday.web.shards import owner
from tests.web.conftest import Client
from tests.web.test_party import NAMES, play_some

CADDY = shutil.which("caddy") or "/usr/bin/caddy"
HANG = 120.0  # seconds: a hang guard only, far above what any step takes
SLOW_DOWN_RETRIES = 200  # a script may outrun a socket's allowance of intents: wait, resend


class _Socket:
    """A real WebSocket with the methods of Starlette's test socket that ``Client`` uses."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    def receive_json(self) -> Any:
        return json.loads(self.ws.recv(timeout=HANG))

    def send_json(self, data: Any) -> None:
        self.ws.send(json.dumps(data))

    def send_text(self, text: str) -> None:
        self.ws.send(text)


class _Entry:
    """An entry point in the place of a TestClient: its sockets are real, through Caddy,
    with the Origin of a page loaded from that entry point."""

    def __init__(self, base: str) -> None:
        self.base = base

    @contextmanager
    def websocket_connect(self, path: str) -> Iterator[_Socket]:
        url = self.base.replace("http://", "ws://") + path.lstrip("/")
        with connect(url, proxy=None, open_timeout=HANG, compression=None,
                     origin=Origin(self.base.rstrip("/"))) as ws:
            yield _Socket(ws)


class NetClient(Client):
    """A phone or big screen over a real socket through entry point ``base`` (the in-process
    test client, driven by the same ``play_some``)."""

    def __init__(self, base: str, code: str, token: str | None, since: int = -1) -> None:
        super().__init__(_Entry(base), code, token, since)  # type: ignore[arg-type]

    def send(self, intent: dict[str, Any]) -> dict[str, Any]:
        """Send an intent; the ack or error answering it (sent again after a slow-down:
        a script may outrun a socket's allowance of intents, a person does not)."""
        for _ in range(SLOW_DOWN_RETRIES):
            answer = super().send(intent)
            if answer.get("words", {}).get("key") != "refusal.slow_down":
                return answer
            time.sleep(0.2)  # the allowance refills with time; nothing else waits on this
        raise AssertionError("the socket never took the intent")


def _start(args: list[str], log: Path, env: dict[str, str] | None = None
           ) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, env=env)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End a process we started: politely (its own clean-up runs), then for sure."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


@contextmanager
def _running(args: list[str], log: Path, ready: str,
             env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """``args`` as a process, once ``ready`` (a URL) answers 200; ended on the way out."""
    process = _start(args, log, env)
    try:
        deadline = time.monotonic() + HANG
        with httpx.Client(trust_env=False, timeout=5) as http:
            while True:
                assert process.poll() is None, log.read_text(errors="replace")
                try:
                    if http.get(ready).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, log.read_text(errors="replace")
                time.sleep(0.1)
        yield process
    finally:
        _stop(process)


def _caddy_env(home: Path) -> dict[str, str]:
    home.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data")}


def test_two_shards_behind_two_entry_points(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    shard_ports = [free_port(), free_port()]
    entries = [free_port(), free_port()]
    upstreams = [f"127.0.0.1:{p}" for p in shard_ports]
    a, b = (f"http://127.0.0.1:{port}/" for port in entries)
    with ExitStack() as stack:
        shards = []
        for k, port in enumerate(shard_ports):
            shards.append(stack.enter_context(_running(
                [sys.executable, "-m", "raceday", "serve", "--host", "127.0.0.1", "--port",
                 str(port), "--db", str(db), "--shard", f"{k}/2",
                 "--trusted-proxy", "127.0.0.1", "--public-url", a, "--allow-origin", b],
                tmp_path / f"shard{k}.log", f"http://127.0.0.1:{port}/api/games")))
        for e, port in enumerate(entries):
            config = tmp_path / f"Caddyfile.{e}"
            made = subprocess.run(
                [sys.executable, "-m", "raceday", "caddyfile", "--site",
                 f"http://127.0.0.1:{port}", "--bind", "127.0.0.1", "--admin", "off",
                 *[a for u in upstreams for a in ("--shard-address", u)], "--out", str(config)],
                capture_output=True, text=True, timeout=HANG, check=False)
            assert made.returncode == 0, made.stderr
            stack.enter_context(_running(
                [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                tmp_path / f"caddy{e}.log", f"http://127.0.0.1:{port}/api/games",
                _caddy_env(tmp_path / f"caddy{e}")))
        http = stack.enter_context(httpx.Client(trust_env=False, timeout=HANG))

        # rooms made through entry A land on both shards (round robin over them)
        codes: dict[int, str] = {}
        for _ in range(8):
            made_room = http.post(f"{a}api/rooms", json={"game": "derby",
                                                        "options": {"races": 4}})
            assert made_room.status_code == 201, made_room.text
            room = made_room.json()
            assert room["join_url"] == f"{a}play/{room['code']}"  # the address people used
            shard = owner(room["code"], 2)
            assert shard is not None
            codes.setdefault(shard, room["code"])
            codes.setdefault(-1 - shard, room["host_token"])
            if 0 in codes and 1 in codes:
                break
        assert set(codes) >= {0, 1}, codes
        # each process keeps its own rooms and refuses the other's
        for k, port in enumerate(shard_ports):
            direct = f"http://127.0.0.1:{port}/api/rooms/"
            assert http.get(direct + codes[k]).status_code == 200
            refused = http.get(direct + codes[1 - k])
            assert refused.status_code == 421, refused.text
            assert refused.json()["words"]["key"] == "refusal.misrouted"

        # both rooms play to the end through the proxy; a phone comes back through B
        for k in (0, 1):
            code, host_token = codes[k], codes[-1 - k]
            joined = [http.post(f"{a}api/rooms/{code}/join", json={"name": n})
                      for n in NAMES]
            assert [j.status_code for j in joined] == [201] * 3, [j.text for j in joined]
            tokens = [j.json()["token"] for j in joined]
            host = NetClient(a, code, host_token)
            seats = [NetClient(a, code, t) for t in tokens]
            try:
                assert host.welcome["role"] == {"kind": "host", "seat": None}
                ack = host.send({"type": "start", "computers": 2})
                assert ack["type"] == "ack", ack
                for c in [host, *seats]:
                    c.until(ack["seq"])
                play_some(host, seats, 12)  # the auction and a little more
                assert host.view["phase"] != "finished"
                lost = seats[1]
                lost.close()  # the phone's socket is gone (a tunnel, a locked screen)
                back = NetClient(b, code, tokens[1], since=lost.seq)
                assert back.welcome["role"] == {"kind": "seat", "seat": 1}
                assert back.welcome["seq"] >= lost.seq
                assert back.view["me"]["seat"] == 1
                seen = [e for c in back.welcome["catchup"] for e in c["events"]]
                assert all(c["seq"] > lost.seq for c in back.welcome["catchup"]), seen
                seats[1] = back
                assert play_some(host, seats, 600) < 600
                assert host.view["phase"] == "finished"
                host.until(max(s.seq for s in seats))
                for s in seats:
                    s.until(host.seq)
                    assert s.view["phase"] == "finished"
            finally:
                for c in [host, *seats]:
                    c.close()
            # the finished room, through the other entry point: its page data and replay
            info = http.get(f"{b}api/rooms/{code}").json()
            assert info["finished"] is True and info["seats"][:3] == NAMES
            replay = http.get(f"{b}api/replay/room/{code}")
            assert replay.status_code == 200, replay.text
            assert http.get(f"{b}api/rooms/{code.lower()}").status_code == 200  # any case

        # what is not a room has one home, shard 0: a Numbers job made through A is
        # found through B
        job = http.post(f"{a}api/numbers", json={"game": "derby", "mode": "odds",
                                                  "fall_rate": "1/20"})
        assert job.status_code == 202, job.text
        job_id = job.json()["id"]
        assert http.get(f"{b}api/numbers/{job_id}").json()["id"] == job_id
        assert http.get(f"http://127.0.0.1:{shard_ports[1]}/api/numbers/{job_id}"
                        ).status_code == 404  # shard 1 never heard of it

        # a shard stops: its rooms wait for it, new rooms go to the shard still there
        _stop(shards[1])
        for _ in range(4):
            made_room = http.post(f"{b}api/rooms", json={"game": "derby", "options": {}})
            assert made_room.status_code == 201, made_room.text
            assert owner(made_room.json()["code"], 2) == 0
        assert http.get(f"{a}api/rooms/{codes[0]}").status_code == 200
