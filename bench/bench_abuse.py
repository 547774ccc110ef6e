"""Abuse benchmark of the party server: one honest party plays while other addresses try
to fill, slow or block the server (loopback only: 127.0.0.0/8).

The server runs in its own process (``python -m raceday.web.server``, one uvicorn worker
with the server's DEFAULT limits, as ``raceday serve`` runs it) with its intent timing on.
One honest Dice Derby party (a big screen and 12 phones behind one router: one source
address, as in bench/bench_party.py, whose clients it reuses) plays its evening while
these floods run, each from source addresses of its own (127.20.<flood>.<n>):

* **rooms**: create rooms (``POST /api/rooms``) and WielerSIM watch rooms (a stage race,
  then ``POST /api/wielersim/campaigns/{name}/watch``) as fast as the answers come;
* **pdfs**: 48 concurrent ``GET /print/derby.pdf`` at a time, again and again;
* **campaigns**: new WielerSIM stage races (``POST /api/wielersim/campaigns``);
* **sockets**: 100 WebSockets to the honest party's room (spectators need no key), each
  sending frames as fast as it may (bounded per socket) until the server closes it.

Every flood is bounded in count and in time (it stops when the honest party has finished,
or at --deadline). Then a fresh address creates a room and takes a seat in it.

Printed: the honest party's p95 (an intent sent -> every screen of the room has it, as
bench_party measures a delivery), its errors, what each flood got back (answers by
status, sockets closed by the server and their close codes), whether the newcomer could
create and join, and the verdict: the honest p95 under 100 ms, the party finished without
errors, and the newcomer in.

    .venv/bin/python bench/bench_abuse.py [--races 4] [--pace 0.4] [--deadline 240]
        [--seed 1] [--quick]

``--quick``: 20 flooding sockets, 8 concurrent PDFs (the same figures, smaller).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import http.client
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_party
from bench_party import cpu_seconds, quantile, wait_until_up
from raceday.web.server import free_port

FLOODS = ("rooms", "pdfs", "campaigns", "sockets")
FRAMES_PER_SOCKET = 20_000  # the most a flooding socket sends
clock = time.monotonic


def flood_address(flood: int, n: int = 0) -> str:
    """The source address of flood ``flood``'s ``n``-th client: 127.20.<flood>.<n + 1>."""
    return f"127.20.{flood}.{n % 250 + 1}"


def request(port: int, method: str, path: str, source: str, body: Any = None,
            headers: dict[str, str] | None = None, timeout: float = 30
            ) -> tuple[int, bytes, dict[str, str]]:
    """One HTTP request from ``source``: (status, body, headers); status 0 on a failed
    connection (the body is the error's text)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    try:
        extra = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body)
            extra["Content-Type"] = "application/json"
        conn.request(method, path, data, extra)
        answer = conn.getresponse()
        return answer.status, answer.read(), dict(answer.getheaders())
    except OSError as exc:
        return 0, str(exc).encode(), {}
    finally:
        conn.close()


def flood_rooms(port: int, stop: float, most: int = 5_000) -> dict[str, int]:
    """Rooms and watch rooms from one address, as fast as the answers come."""
    got: Counter[str] = Counter()
    source = flood_address(1)
    for i in range(most):
        if clock() >= stop:
            break
        status, _, _ = request(port, "POST", "/api/rooms", source,
                               {"game": "derby", "options": {"races": 4}})
        got[f"room {status}"] += 1
        if i % 4 == 0:  # the side door: a stage race, then a room to watch its stage
            status, data, _ = request(port, "POST", "/api/wielersim/campaigns", source,
                                      {"tour": "ronde-van-belgie", "peloton": "small"})
            got[f"campaign {status}"] += 1
            if status == 201:
                made = json.loads(data)
                key = made.get("key")
                status, _, _ = request(port, "POST",  # stage 1: the prologue has no film
                                       f"/api/wielersim/campaigns/{quote(made['name'])}/watch",
                                       source, {"stage": 1},
                                       {"X-Campaign-Key": key} if key else None)
                got[f"watch room {status}"] += 1
    return dict(got)


def flood_pdfs(port: int, stop: float, at_once: int, most: int = 2_000
               ) -> dict[str, int]:
    """``at_once`` concurrent PDF requests from one address, again and again."""
    got: Counter[str] = Counter()
    lock = threading.Lock()
    sent = [0]

    def one(n: int) -> None:
        while clock() < stop:
            with lock:
                if sent[0] >= most:
                    return
                sent[0] += 1
            status, _, _ = request(port, "GET", "/print/derby.pdf", flood_address(2, n),
                                   timeout=120)
            with lock:
                got[f"pdf {status}"] += 1

    threads = [threading.Thread(target=one, args=(0,)) for _ in range(at_once)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return dict(got)


def flood_campaigns(port: int, stop: float, most: int = 5_000
                    ) -> dict[str, int]:
    """New stage races from one address, as fast as the answers come."""
    got: Counter[str] = Counter()
    for _ in range(most):
        if clock() >= stop:
            break
        status, _, _ = request(port, "POST", "/api/wielersim/campaigns", flood_address(3),
                               {"tour": "ronde-van-belgie", "peloton": "small"})
        got[f"campaign {status}"] += 1
    return dict(got)


async def _flooding_socket(port: int, path: str, source: str, stop: float,
                           got: Counter[str]) -> None:
    """One WebSocket that says hello as a spectator, then sends intents as fast as it may
    until the server closes it, FRAMES_PER_SOCKET are sent, or ``stop``."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(source, 0))
    except OSError:
        got["connect failed"] += 1
        return
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    status = head.split(b" ", 2)[1].decode()
    if status != "101":
        got[f"handshake {status}"] += 1
        writer.close()
        return
    got["handshake 101"] += 1
    closed = asyncio.Event()
    close_code = ["none"]

    async def read() -> None:
        try:
            while True:
                first = await reader.readexactly(2)
                size = first[1] & 0x7F
                if size == 126:
                    size = int.from_bytes(await reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await reader.readexactly(8), "big")
                payload = await reader.readexactly(size)
                if first[0] & 0x0F == 0x8:  # close
                    close_code[0] = str(int.from_bytes(payload[:2], "big")) if payload else "?"
                    return
                got["frames answered"] += 1
        except (asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            closed.set()

    reading = asyncio.create_task(read())

    def frame(text: str) -> bytes:
        data = text.encode()
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        size = len(data)
        head = bytes([0x81, 0x80 | size]) if size < 126 else \
            bytes([0x81, 0xFE]) + size.to_bytes(2, "big")
        return head + mask + masked

    try:
        writer.write(frame(json.dumps({"type": "hello", "token": None, "since": -1})))
        hammer = frame(json.dumps({"type": "ticket", "kind": "win", "horses": [4],
                                   "amount": 100}))
        for n in range(FRAMES_PER_SOCKET):
            if closed.is_set() or clock() > stop:
                break
            writer.write(hammer)
            got["frames sent"] += 1
            if n % 50 == 49:  # about 1,000 frames a second from each socket
                await writer.drain()
                await asyncio.sleep(0.05)
    except (ConnectionError, RuntimeError):
        pass
    got[f"closed by server {close_code[0]}" if closed.is_set() else "open at the end"] += 1
    reading.cancel()
    writer.close()


def flood_sockets(port: int, code: str, sockets: int, stop: float) -> dict[str, int]:
    """``sockets`` flooding WebSockets to ``/ws/{code}``, from 4 addresses."""
    got: Counter[str] = Counter()

    async def run() -> None:
        await asyncio.gather(*(_flooding_socket(port, f"/ws/{code}", flood_address(4, n % 4),
                                                stop, got) for n in range(sockets)))

    asyncio.run(run())
    return dict(got)


def _flood_job(job: dict[str, Any]) -> dict[str, Any]:
    """One flood in a process of its own."""
    stop = clock() + job["seconds"]
    name, port = job["name"], job["port"]
    started = clock()
    if name == "rooms":
        got = flood_rooms(port, stop)
    elif name == "pdfs":
        got = flood_pdfs(port, stop, job["pdfs"])
    elif name == "campaigns":
        got = flood_campaigns(port, stop)
    else:
        got = flood_sockets(port, job["code"], job["sockets"], stop)
    return {"name": name, "got": got, "seconds": clock() - started}


def newcomer(port: int) -> str:
    """A fresh address creates a room and takes a seat: "ok", or what refused it."""
    source = "127.30.0.1"
    status, data, _ = request(port, "POST", "/api/rooms", source,
                              {"game": "derby", "options": {"races": 4}})
    if status != 201:
        return f"create refused: {status} {data[:120]!r}"
    code = json.loads(data)["code"]
    status, data, _ = request(port, "POST", f"/api/rooms/{code}/join", source,
                              {"name": "Newcomer"})
    return "ok" if status == 201 else f"join refused: {status} {data[:120]!r}"


def run(args: argparse.Namespace) -> bool:
    """The honest party with the floods around it; True if the target was met."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench_abuse.") as tmp:
        db = Path(tmp) / "bench.sqlite"
        timing = Path(tmp) / "timing.txt"
        profile = ["-m", "cProfile", "-o", str(args.profile)] if args.profile else []
        server = subprocess.Popen(
            [sys.executable, *profile, "-m", "raceday.web.server", str(db), str(port)],
            env={**os.environ, "RACEDAY_PARTY_TIMING": str(timing)})
        try:
            wait_until_up(port, server, clock())
            cpu0 = cpu_seconds(server.pid)
            code, host, seats = _honest_room(port, args.races)
            honest = {"port": port, "code": code, "host": host, "seats": seats,
                      "deadline": args.deadline, "pace": args.pace, "seed": args.seed}
            spawn = multiprocessing.get_context("spawn")
            with spawn.Pool(1 + len(args.floods)) as pool:
                party = pool.apply_async(_honest_job, (honest,))
                floods = [pool.apply_async(_flood_job, ({
                    "name": name, "port": port, "seconds": args.flood_seconds,
                    "pdfs": args.pdfs, "sockets": args.sockets, "code": code},))
                    for name in args.floods]
                result = party.get(args.deadline + 60)
                flooded = [f.get(args.flood_seconds + 180) for f in floods]
            came_in = newcomer(port)
            server_cpu = cpu_seconds(server.pid) - cpu0
        finally:  # SIGINT lets cProfile write its file; uvicorn stops on either signal
            server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
    deliveries = [at - result["sent"][(c, s)] for c, s, at, _ in result["received"]
                  if (c, s) in result["sent"]]
    p95 = quantile(deliveries, .95)
    print(f"honest party: {len(deliveries)} deliveries, p50 {quantile(deliveries, .5):.1f} ms,"
          f" p95 {p95:.1f} ms, p99 {quantile(deliveries, .99):.1f} ms; finished "
          f"{result['finished_rooms']}/1, errors {len(result['errors'])}")
    for line in result["errors"][:5]:
        print(f"  error: {line}")
    for f in flooded:
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(f["got"].items()))
        print(f"flood {f['name']:<9} ({f['seconds']:.0f} s): {answers}")
    print(f"newcomer (a fresh address creates a room and joins it): {came_in}")
    print(f"server CPU: {server_cpu:.1f} s")
    met = p95 < 100 and not result["errors"] and result["finished_rooms"] == 1 \
        and came_in == "ok"
    print("target (honest p95 < 100 ms, party finished, newcomer in): "
          + ("met" if met else "NOT met"))
    return met


def _honest_room(port: int, races: int) -> tuple[str, str, list[str]]:
    """The honest party's room made from its router's address: (code, host key, the 12
    seats' keys)."""
    source = bench_party.source_address(0)
    made = bench_party.post(port, "/api/rooms", {"game": "derby", "options": {"races": races}},
                            source)
    seats = [bench_party.post(port, f"/api/rooms/{made['code']}/join", {"name": f"P{i}"},
                              source)["token"] for i in range(12)]
    return made["code"], made["host_token"], seats


def _honest_job(job: dict[str, Any]) -> dict[str, Any]:
    """The honest party's 13 screens in a process of their own (bench_party's clients)."""
    import random

    bench_party.CONFIG["pace"], bench_party.CONFIG["delta"] = job["pace"], True
    stats = bench_party.Stats()
    source = bench_party.source_address(0)

    async def play() -> None:
        start = asyncio.Event()
        tasks = [asyncio.create_task(bench_party.client(
            job["port"], job["code"], job["host"], stats, random.Random(job["seed"]), start,
            source))]
        tasks += [asyncio.create_task(bench_party.client(
            job["port"], job["code"], token, stats, random.Random(job["seed"] * 100 + i),
            None, source)) for i, token in enumerate(job["seats"])]
        await asyncio.sleep(0.5)  # everyone connected
        start.set()
        done, late = await asyncio.wait(tasks, timeout=job["deadline"])
        for t in late:
            t.cancel()
        if late:
            stats.errors.append(f"{len(late)} screen(s) not finished within "
                                f"{job['deadline']:.0f} s")
        stats.errors.extend(repr(t.exception()) for t in done if t.exception() is not None)

    asyncio.run(play())
    return dict(vars(stats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=4)
    parser.add_argument("--pace", type=float, default=0.4,
                        help="seconds a furlong of the honest party's races")
    parser.add_argument("--deadline", type=float, default=240.0,
                        help="seconds the honest party may take (a hang guard)")
    parser.add_argument("--flood-seconds", type=float, default=60.0,
                        help="seconds each flood runs at most")
    parser.add_argument("--sockets", type=int, default=100)
    parser.add_argument("--pdfs", type=int, default=48)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--floods", default=",".join(FLOODS),
                        help=f"the floods to run, comma-separated (of {', '.join(FLOODS)}); "
                             "none: the honest party alone")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--profile", type=Path, help="profile the server into this file")
    args = parser.parse_args()
    args.floods = [f for f in args.floods.split(",") if f]
    unknown = set(args.floods) - set(FLOODS)
    if unknown:
        parser.error(f"unknown flood(s): {', '.join(sorted(unknown))}")
    if args.quick:
        args.sockets, args.pdfs, args.flood_seconds = 20, 8, 30.0
    sys.exit(0 if run(args) else 1)


if __name__ == "__main__":
    main()
