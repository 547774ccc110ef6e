"""Load benchmark of the party server: 20 rooms x 13 clients (a big screen and 12 phones)
playing whole Dice Derby evenings on loopback (127.0.0.0/8 only).

The server runs in its own process (``python -m raceday.web.server``: uvicorn, one worker,
as ``raceday serve`` runs it, with the server's DEFAULT limits) with its server-side timing
on (RACEDAY_PARTY_TIMING installs raceday.web.timing.Timing as the hub's observer): for
every intent it writes when the intent was read from its socket and when the last update
frame of it was handed to a socket. The clients are lean asyncio WebSocket clients
(:class:`ClientSocket`: frames parsed as they arrive, no task a frame) spread over --procs
processes (each its own event loop; a room's 13 clients share one process): they run on
the server's cores. Rooms start at seeded random moments over --stagger seconds (parties
do not all press "start" in the same second; --stagger 0 starts them together, the worst
case).

One router per party: each room's 13 clients (the REST calls that create the room and
join its 12 seats, and the 13 WebSockets) come from one loopback source address of their
own (127.10.x.y), so the server's per-address limits are measured as a bar full of phones
behind one router meets them; rooms do not share an address.

Deltas: every client opts in (``"delta": true`` in its hello) and applies each update's
JSON Patch to its copy of the view (:func:`raceday.web.delta.apply_patch`); ``--full``
runs the old protocol (a whole view in every update). Bytes per update = bytes of the
update frames received / update frames; beside it, what the same updates weigh as full
views (in delta mode measured on one update in FULL_SAMPLE of every client: the patched
view encoded as the server encodes a full update).

Every phone acts as soon as its view lets it (a sealed bid, one ticket and "done") after a
seeded think time of 0.2-1.2 s (people, not scripts, hold the phones; not counted in any
latency; ``--think`` sets another range); it acts on its newest view, once its previous
intent was answered. The races run
on the server's timeline at the room's own pace (1.6 s a furlong, as a party plays them;
``--pace`` sets another, 0.2 to 10), and every furlong's update goes to all 13 screens
(counted in the messages; the latency figures are of the players' intents).

Figures (all clocks are CLOCK_MONOTONIC, comparable between the processes):
* server: intent read -> last update frame of it written to the sockets (and the part of
  it spent checking, storing and building the 13 views);
* client, per delivery: intent sent -> each client of the room received the update that
  brought that revision (every client, not only the sender; under load the server puts
  the intents applied to a room meanwhile into one update: its seq is the last revision,
  and a client then holds every revision since the one before);
* client, per action: intent sent -> the LAST client of the room received it;
* the split of an action: sent -> read by the server (inbound), server, and last frame
  written -> last client received it (outbound, incl. client-side queueing).
Bounded: each client stops after MAX_ACTIONS intents, each run after --deadline seconds.

``--shards N`` runs N server processes on one database file (``--file-each``: a file
each, as docs/usage/scale-out.md offers when commits queue up), shard K of N each
(:mod:`raceday.web.shards`): party k is created on shard k mod N and its clients talk to
that process, as a proxy hashing on the room code would send them (the server-side figures
and CPU are of all of them; ``--profile`` profiles the first).

``--sweep 20,50,100,200`` runs those room counts one after another (a fresh server and
database each) and prints one table: per delivery p50/p95/p99, server p95, rooms finished,
errors, bytes per update (and as full views), CPU and the load average.

    .venv/bin/python bench/bench_party.py [--quick] [--rooms 20 | --sweep 20,50,100,200]
        [--phones 12] [--races 4] [--procs 2] [--stagger 30] [--seed 1] [--pace SECONDS]
        [--full] [--shards 1] [--file-each] [--think 0.2,1.2] [--deadline 300]
        [--keep-timing FILE] [--profile FILE]

``--quick``: 4 rooms on 2 client processes, started over 5 s (the same figures, smaller).
The server's start (imports, until it answers) is printed apart as "compile/load".
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import gc
import hashlib
import http.client
import json
import multiprocessing
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from raceday.web.server import free_port

MAX_ACTIONS = 3_000  # per client
MAX_SWEEP = 6  # room counts in one --sweep
THINK = (0.2, 1.2)  # seconds a player takes to tap after their screen changes
DEADLINE = 300.0  # seconds for one run (default of --deadline)
FULL_SAMPLE = 64  # in delta mode, one update in this many is also sized as a full view
# (3,600 samples at 100 rooms; encoding them the way whole views were first sent costs the
# clients 0.3 ms each, CPU taken from the server's two cores)
clock = time.monotonic  # CLOCK_MONOTONIC: the server's Timing uses the same clock
# set in each client process from its job: the races' pace (None: the room's), deltas
CONFIG: dict[str, Any] = {"pace": None, "delta": True, "think": THINK}


def source_address(k: int) -> str:
    """Room ``k``'s own loopback address (its party's router): 127.10.<k/250>.<k%250+1>."""
    return f"127.10.{k // 250}.{k % 250 + 1}"


def post(port: int, path: str, body: dict[str, Any], source: str) -> dict[str, Any]:
    """POST JSON to the server on 127.0.0.1:port from the address ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                      source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse()
        data = answer.read()
        if answer.status >= 300:
            raise RuntimeError(f"HTTP {answer.status} from POST {path}: {data[:120]!r}")
        out: dict[str, Any] = json.loads(data)
        return out
    finally:
        conn.close()


WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455's handshake constant


class ClientSocket(asyncio.Protocol):
    """A phone's WebSocket, lean: the handshake, masked text frames out, and whole frames
    in (text kept as bytes; pings answered; a close ends it). The server's two cores run
    the clients too, and the websockets library's client (a task step, a queue and an
    assembler a frame) cost the clients about twice the CPU, taken from the server; a
    phone's browser reads frames in native code. Frames are checked as RFC 6455 says a
    client must: unmasked, final (the server does not fragment), known opcodes."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.frames: collections.deque[bytes | None] = collections.deque()  # None: closed
        self.waiter: asyncio.Future[None] | None = None
        self.transport: asyncio.Transport | None = None
        self.handshake: asyncio.Future[bytes] | None = None
        self.closed = False
        self.error = ""  # a frame the server should not have sent

    @classmethod
    async def connect(cls, port: int, path: str, source: str) -> ClientSocket:
        loop = asyncio.get_running_loop()
        sock = cls()
        sock.handshake = loop.create_future()
        await loop.create_connection(lambda: sock, "127.0.0.1", port,
                                     local_addr=(source, 0))
        key = base64.b64encode(os.urandom(16))
        assert sock.transport is not None
        sock.transport.write(
            b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1:" + str(port).encode()
            + b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
            + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
        head = await asyncio.wait_for(sock.handshake, 30)
        accept = base64.b64encode(hashlib.sha1(key + WS_GUID).digest())
        if not head.startswith(b"HTTP/1.1 101") or accept not in head:
            sock.close()
            raise ConnectionError(f"WebSocket handshake refused: {head[:80]!r}")
        return sock

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is one too

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.handshake is not None:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head, self.buffer = bytes(self.buffer[:end]), self.buffer[end + 4:]
            done, self.handshake = self.handshake, None
            done.set_result(head)
        self._parse()

    def _parse(self) -> None:
        buf = self.buffer
        at, got = 0, False
        while len(buf) - at >= 2:
            first, second = buf[at], buf[at + 1]
            size, start = second & 0x7F, at + 2
            if size == 126:
                if len(buf) - at < 4:
                    break
                size, start = int.from_bytes(buf[at + 2:at + 4], "big"), at + 4
            elif size == 127:
                if len(buf) - at < 10:
                    break
                size, start = int.from_bytes(buf[at + 2:at + 10], "big"), at + 10
            if len(buf) < start + size:
                break
            payload, at = bytes(buf[start:start + size]), start + size
            opcode = first & 0x0F
            if second & 0x80 or not first & 0x80 or opcode not in (1, 8, 9, 10):
                self.frames.append(None)
                self._fail(f"unexpected frame (opcode {opcode}, bits {first:08b})")
                got = True
                break
            if opcode == 1:
                self.frames.append(payload)
                got = True
            elif opcode == 9:  # the server's keep-alive ping
                self._write(10, payload)
            elif opcode == 8:
                self.frames.append(None)
                got = True
                self.close()
                break
        del buf[:at]
        if got and self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def _fail(self, why: str) -> None:
        self.error = why
        self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.handshake is not None and not self.handshake.done():
            self.handshake.set_exception(ConnectionError("closed during the handshake"))
        self.frames.append(None)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def _write(self, opcode: int, payload: bytes) -> None:
        if self.closed or self.transport is None:
            return
        size = len(payload)
        head = bytes([0x80 | opcode])
        if size < 126:
            head += bytes([0x80 | size])
        elif size < 65536:
            head += bytes([0x80 | 126]) + size.to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + size.to_bytes(8, "big")
        mask = os.urandom(4)
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(
            (mask * (size // 4 + 1))[:size], "big")).to_bytes(size, "big")
        self.transport.write(head + mask + masked)

    def send(self, text: str) -> None:
        """One text frame."""
        self._write(1, text.encode())

    async def recv(self) -> bytes | None:
        """The next text frame (None once the socket is closed)."""
        while not self.frames:
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        frame = self.frames.popleft()
        if frame is None:
            self.frames.appendleft(None)  # closed stays closed
        return frame

    def close(self) -> None:
        if not self.closed and self.transport is not None:
            self._write(8, (1000).to_bytes(2, "big"))
            self.closed = True
            self.transport.close()


class Stats:
    """What one client process saw."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}  # (room, seq) -> when its intent left
        self.received: list[tuple[str, int, float, bool]] = []  # (room, seq, when, sender?)
        self.errors: list[str] = []
        self.actions = 0
        self.messages = 0
        self.bytes = 0
        self.updates = 0  # update frames
        self.update_bytes = 0  # their bytes
        self.sampled = 0  # updates also sized as full views
        self.sampled_bytes = 0  # the bytes those updates take on the wire (as received)
        self.sampled_full = 0  # and what they would have taken as full views
        self.finished_rooms = 0


async def client(port: int, code: str, token: str | None, stats: Stats,
                 rng: random.Random, host_start: asyncio.Event | None, source: str) -> None:
    """One screen. A phone acts on its latest view, one intent at a time (it waits for the
    answer to the last one), so it never acts on a stale view."""
    delta = bool(CONFIG["delta"])
    apply_patch = None
    if delta:
        from raceday.web.delta import apply_patch
    ws = await ClientSocket.connect(port, f"/ws/{code}", source)
    try:
        hello: dict[str, Any] = {"type": "hello", "token": token, "since": -1}
        if delta:
            hello["delta"] = True
        ws.send(json.dumps(hello))
        pending: dict[int, float] = {}
        mine: set[int] = set()  # seqs of this client's own intents
        state: dict[str, Any] = {"ref": 0, "actions": 0, "busy": False, "view": {},
                                 "seq": None}
        thinking: set[asyncio.Task[None]] = set()

        def decide(view: dict[str, Any]) -> dict[str, Any] | None:
            me = view.get("me") or {}
            if me.get("may_bid") and me.get("sealed_bid") is None:
                return {"type": "bid", "amount": rng.choice([0, 0, 500, 1000, 2000, 3000])}
            if me.get("may_bet"):
                return ({"type": "ticket", "kind": "win", "horses": [rng.choice(
                    ["d12", "d20", "d10"])], "stake": 500} if not me["tickets"]
                    else {"type": "done"})
            return None

        async def send(intent: dict[str, Any]) -> None:
            state["ref"] += 1
            state["actions"] += 1
            stats.actions += 1
            pending[state["ref"]] = clock()
            ws.send(json.dumps({**intent, "ref": state["ref"]}))

        async def think_then_act() -> None:
            await asyncio.sleep(rng.uniform(*CONFIG["think"]))  # a thumb on a phone
            intent = decide(state["view"])  # the newest view, after thinking
            if intent is None or state["view"].get("phase") == "finished":
                state["busy"] = False
                return
            await send(intent)

        while (raw := await ws.recv()) is not None:
            now = clock()
            stats.messages += 1
            stats.bytes += len(raw)
            msg = orjson.loads(raw)  # a phone parses with its browser's native JSON
            kind = msg["type"]
            if kind == "error":
                stats.errors.append(msg["message"])
                pending.pop(msg.get("ref"), None)
                state["busy"] = False
                continue
            if kind == "ack":
                stats.sent[(code, msg["seq"])] = pending.pop(msg["ref"])
                mine.add(msg["seq"])
                state["busy"] = False  # its update follows at once
                continue
            if kind not in ("welcome", "update"):
                continue
            if kind == "update":
                stats.updates += 1
                stats.update_bytes += len(raw)
                if "view" in msg:
                    state["view"] = msg["view"]
                else:  # a patch on the view of seq "base", which must be the one we hold
                    if msg.get("base") != state["seq"] or apply_patch is None:
                        stats.errors.append(f"room {code}: patch on seq {msg.get('base')}, "
                                            f"held {state['seq']}")
                        break
                    # in place, as a page patches the one view it holds
                    state["view"] = apply_patch(state["view"], msg["patch"], in_place=True)
                if not delta:
                    stats.sampled += 1
                    stats.sampled_bytes += len(raw)
                    stats.sampled_full += len(raw)
                elif stats.updates % FULL_SAMPLE == 0:
                    stats.sampled += 1
                    stats.sampled_bytes += len(raw)
                    stats.sampled_full += len(orjson.dumps(  # as the server encodes it
                        {"type": "update", "seq": msg["seq"], "events": msg["events"],
                         "view": state["view"]}))
                # an update brings every revision since the one held (several when the
                # server put intents applied together into one update)
                held = state["seq"]
                for seq in range(msg["seq"] if held is None else held + 1, msg["seq"] + 1):
                    stats.received.append((code, seq, now, seq in mine))
            else:
                state["view"] = msg["view"]
            state["seq"] = msg["seq"]
            if state["view"].get("phase") == "finished":
                if host_start is not None:
                    stats.finished_rooms += 1
                break
            if host_start is not None:
                if kind == "welcome":
                    await host_start.wait()
                    await send({"type": "start", "computers": 0})
                    if CONFIG["pace"] is not None:
                        await send({"type": "pace", "seconds": CONFIG["pace"]})
                continue
            if state["busy"] or state["actions"] >= MAX_ACTIONS:
                continue
            if decide(state["view"]) is not None:
                state["busy"] = True
                task = asyncio.create_task(think_then_act())
                thinking.add(task)
                task.add_done_callback(thinking.discard)
        else:  # the server ended it before the evening did
            raise ConnectionError(f"room {code}: socket closed by the server "
                                  f"({ws.error or 'a close frame or a lost link'})")
    finally:
        ws.close()


async def room(port: int, phones: int, races: int, stats: Stats, k: int,
               delay: float) -> None:
    """Party ``k``: created, joined and played from its own source address."""
    await asyncio.sleep(delay)  # this party's start
    loop = asyncio.get_running_loop()
    source = source_address(k)
    created = await loop.run_in_executor(None, post, port, "/api/rooms",
                                         {"game": "derby", "options": {"races": races}},
                                         source)
    code = created["code"]
    seats = []
    for i in range(phones):
        seats.append(await loop.run_in_executor(None, post, port, f"/api/rooms/{code}/join",
                                                {"name": f"P{i}"}, source))
    start = asyncio.Event()
    tasks = [asyncio.create_task(client(port, code, created["host_token"], stats,
                                        random.Random(k), start, source))]
    for i, s in enumerate(seats):
        tasks.append(asyncio.create_task(client(port, code, s["token"], stats,
                                                random.Random(k * 100 + i), None, source)))
    await asyncio.sleep(0.5)  # everyone connected
    start.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.errors.extend(f"room {code}: {r!r}" for r in results if isinstance(r, BaseException))


def worker(job: dict[str, Any]) -> dict[str, Any]:
    """One client process: its rooms (number k, start delay), each with seeded players."""
    CONFIG["pace"], CONFIG["delta"], CONFIG["think"] = job["pace"], job["delta"], job["think"]
    stats = Stats()
    deadline = job["deadline"]

    async def run_all() -> None:
        ports = job["ports"]
        tasks = [asyncio.create_task(room(ports[k % len(ports)], job["phones"], job["races"],
                                          stats, k, delay)) for k, delay in job["rooms"]]
        done, late = await asyncio.wait(tasks, timeout=deadline)
        for t in late:
            t.cancel()
        if late:
            stats.errors.append(f"{len(late)} room(s) not finished within {deadline:.0f} s")
        for t in done:
            if t.exception() is not None:
                stats.errors.append(repr(t.exception()))

    # One process plays hundreds of phones; a real phone's garbage collection stalls only
    # itself, but a full collection here (100-150 ms with 650 clients' views) would make
    # every phone of the process late, and the figures the clients', not the server's.
    # The run is bounded (--deadline): no collection until it ends.
    gc.freeze()
    gc.disable()
    cpu = time.process_time()
    try:  # the event loop the server runs on too (a dependency, not on Windows)
        import uvloop
    except ImportError:
        asyncio.run(run_all())
    else:
        uvloop.run(run_all())
    out = {k: v for k, v in vars(stats).items()}
    out["cpu"] = time.process_time() - cpu
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in milliseconds (inf if there are none)."""
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] * 1000 if v else float("inf")


def pct(values: list[float]) -> str:
    if not values:
        return "no data"
    return (f"p50 {quantile(values, .5):.1f} ms, p95 {quantile(values, .95):.1f} ms, "
            f"p99 {quantile(values, .99):.1f} ms, max {max(values) * 1000:.1f} ms "
            f"(n={len(values)})")


def wait_until_up(port: int, server: subprocess.Popen[bytes], started: float) -> None:
    """Poll the server's front page until it answers (hang guard: 60 s)."""
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        try:
            conn.request("GET", "/")
            conn.getresponse().read()
            return
        except OSError:
            if server.poll() is not None:
                raise SystemExit(f"the server ended with code {server.returncode}") from None
            if clock() - started > 60:
                raise SystemExit("the server did not start within 60 s") from None
            time.sleep(0.1)
        finally:
            conn.close()


def run(args: argparse.Namespace, n_rooms: int) -> dict[str, Any]:
    """One load run of ``n_rooms`` rooms on a fresh server and database; its figures."""
    rng = random.Random(args.seed)
    delays = [rng.uniform(0, args.stagger) for _ in range(n_rooms)]
    ports = [free_port() for _ in range(args.shards)]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench_party.") as tmp:
        db = Path(tmp) / "bench.sqlite"
        timings = [Path(tmp) / f"timing{i}.txt" for i in range(args.shards)]
        servers: list[subprocess.Popen[bytes]] = []
        try:
            for i, (port, timing) in enumerate(zip(ports, timings, strict=True)):
                profile = (["-m", "cProfile", "-o", str(args.profile)]
                           if args.profile and i == 0 else [])
                shard = [f"{i}/{args.shards}"] if args.shards > 1 else []
                servers.append(subprocess.Popen(
                    [sys.executable, *profile, "-m", "raceday.web.server",
                     str(db.with_name(f"bench{i}.sqlite") if args.file_each else db), str(port),
                     *shard], env={**os.environ, "RACEDAY_PARTY_TIMING": str(timing)}))
            started = clock()
            for port, server in zip(ports, servers, strict=True):
                wait_until_up(port, server, started)
            print(f"compile/load: {clock() - started:.2f} s (the server's start, until it "
                  "answers; not in the figures)", flush=True)
            cpu0 = [cpu_seconds(server.pid) for server in servers]
            # party k plays on shard k mod N (it is created there, so its code is that
            # shard's: the clients go straight to the process a proxy would route them to)
            jobs = [{"ports": ports, "rooms": [(k, delays[k]) for k in range(i, n_rooms,
                                                                             args.procs)],
                     "phones": args.phones, "races": args.races, "deadline": args.deadline,
                     "pace": args.pace, "delta": not args.full, "think": args.think}
                    for i in range(min(args.procs, n_rooms))]
            t0 = clock()
            with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
                results = pool.map_async(worker, jobs).get(args.deadline + 60)
            wall = clock() - t0
            server_cpu = sum(cpu_seconds(s.pid) - c for s, c in zip(servers, cpu0,
                                                                     strict=True))
        finally:  # SIGINT lets cProfile write its file; uvicorn stops on either signal
            for server in servers:
                server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
            for server in servers:
                try:
                    server.wait(30)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(10)
        lines = [line for timing in timings if timing.exists()
                 for line in timing.read_text().splitlines()]
        if args.keep_timing:
            args.keep_timing.write_text("\n".join(lines) + "\n")
    load_after = os.getloadavg()

    srv: dict[tuple[str, int], tuple[float, float, float]] = {}
    for line in lines:
        code, seq, _kind, received, applied, done, _frames = line.split()
        srv[(code, int(seq))] = (float(received), float(applied), float(done))
    sent: dict[tuple[str, int], float] = {}
    last: dict[tuple[str, int], float] = {}
    deliveries, own = [], []
    errors: list[str] = []
    for r in results:
        sent.update(r["sent"])
        errors.extend(r["errors"])
    for r in results:
        for code, seq, at, is_mine in r["received"]:
            key = (code, seq)
            if key not in sent:
                continue  # the host's start or a join: not a timed phone intent
            deliveries.append(at - sent[key])
            if is_mine:
                own.append(at - sent[key])
            last[key] = max(last.get(key, at), at)

    def total(name: str) -> int:
        return int(sum(r[name] for r in results))

    updates, sampled = total("updates"), total("sampled")
    return {
        "rooms": n_rooms, "jobs": len(jobs), "wall": wall, "errors": errors,
        "load_before": load_before, "load_after": load_after,
        "deliveries": deliveries, "own": own,
        "per_action": [last[k] - sent[k] for k in last],
        "server_total": [s - r for r, _, s in srv.values()],
        "server_apply": [a - r for r, a, _ in srv.values()],
        "inbound": [srv[k][0] - sent[k] for k in last if k in srv],
        "outbound": [last[k] - srv[k][2] for k in last if k in srv],
        "actions": total("actions"), "messages": total("messages"), "bytes": total("bytes"),
        "finished": total("finished_rooms"), "updates": updates,
        "per_update": total("update_bytes") / updates if updates else float("nan"),
        "full_ratio": (total("sampled_full") / total("sampled_bytes")
                       if sampled else float("nan")),
        "server_cpu": server_cpu, "client_cpu": float(sum(r["cpu"] for r in results)),
    }


def met(f: dict[str, Any]) -> bool:
    """The target: p95 of each delivery < 100 ms, every room finished, no errors."""
    return (quantile(f["deliveries"], .95) < 100 and not f["errors"]
            and f["finished"] == f["rooms"])


def report(args: argparse.Namespace, f: dict[str, Any]) -> None:
    """The figures of one run, in words."""
    lb, la = f["load_before"], f["load_after"]
    print(f"party load: {f['rooms']} rooms x {args.phones + 1} clients, {args.races} races "
          f"each, rooms started over {args.stagger:g} s (seed {args.seed}), "
          f"{f['jobs']} client processes, {os.cpu_count()} cores, "
          f"{'full views' if args.full else 'deltas'}, one source address a room, "
          f"{args.shards} server process{'es' if args.shards > 1 else ''}"
          f"{', a database file each' if args.file_each and args.shards > 1 else ''}")
    print(f"  load average before {lb[0]:.2f} {lb[1]:.2f} {lb[2]:.2f}, after {la[0]:.2f} "
          f"{la[1]:.2f} {la[2]:.2f} (1/5/15 min)")
    print(f"  intents {f['actions']}, messages received {f['messages']} "
          f"({f['bytes'] / 1e6:.1f} MB), rooms finished {f['finished']}/{f['rooms']}, "
          f"wall {f['wall']:.1f} s, errors {len(f['errors'])}")
    print(f"  bytes per update {f['per_update']:.0f} (update frames {f['updates']}); as full "
          f"views {f['per_update'] * f['full_ratio']:.0f}, {f['full_ratio']:.1f}x more")
    wall = f["wall"]
    print(f"  CPU: server {f['server_cpu']:.1f} s ({f['server_cpu'] / wall:.0%} of a core), "
          f"clients {f['client_cpu']:.1f} s ({f['client_cpu'] / wall:.0%} of a core)")
    print(f"  server: intent read -> last frame written ... {pct(f['server_total'])}")
    print(f"          of which check + store + views ...... {pct(f['server_apply'])}")
    print(f"  client: action -> each delivery ............. {pct(f['deliveries'])}")
    print(f"          action -> sender's own update ....... {pct(f['own'])}")
    print(f"          action -> last client of the room ... {pct(f['per_action'])}")
    print(f"  split:  sent -> read by the server .......... {pct(f['inbound'])}")
    print(f"          last frame written -> last received . {pct(f['outbound'])}")
    if f["errors"]:
        print("  first errors:", f["errors"][:5])
    print("  target p95 < 100 ms (each delivery), every room finished, no errors:",
          "met" if met(f) else "NOT met", flush=True)


def table(args: argparse.Namespace, runs: list[dict[str, Any]]) -> None:
    """One line a run: the sweep's table (Markdown, for the README)."""
    print(f"\nsweep: {args.phones + 1} clients a room, {args.races} races, rooms started "
          f"over {args.stagger:g} s, {'full views' if args.full else 'deltas'}, "
          f"{args.shards} server process(es), {os.cpu_count()} cores")
    print("| rooms | clients | p50 ms | p95 ms | p99 ms | server p95 ms | finished | errors "
          "| bytes/update (full views) | CPU server / clients | load before/after |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f in runs:
        d, wall = f["deliveries"], f["wall"]
        print(f"| {f['rooms']} | {f['rooms'] * (args.phones + 1)} | {quantile(d, .5):.0f} "
              f"| {quantile(d, .95):.0f} | {quantile(d, .99):.0f} "
              f"| {quantile(f['server_total'], .95):.0f} | {f['finished']}/{f['rooms']} "
              f"| {len(f['errors'])} | {f['per_update']:.0f} "
              f"({f['per_update'] * f['full_ratio']:.0f}) "
              f"| {f['server_cpu'] / wall:.0%} / {f['client_cpu'] / wall:.0%} "
              f"| {f['load_before'][0]:.2f} / {f['load_after'][0]:.2f} |")


def sweep_counts(text: str) -> list[int]:
    """``--sweep 20,50,100``: room counts, each 1..200, at most MAX_SWEEP of them."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("room counts separated by commas, such as "
                                         "20,50,100,200") from None
    if not 1 <= len(counts) <= MAX_SWEEP or not all(1 <= c <= 200 for c in counts):
        raise argparse.ArgumentTypeError(f"1 to {MAX_SWEEP} room counts, each 1..200")
    return counts


def think_times(text: str) -> tuple[float, float]:
    """``LO,HI`` seconds of thinking, 0 <= LO <= HI <= 10."""
    try:
        low, high = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("two numbers of seconds, such as 0.2,1.2") from None
    if not 0 <= low <= high <= 10:
        raise argparse.ArgumentTypeError("0 <= LO <= HI <= 10 seconds")
    return low, high


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="4 rooms, 2 client processes, started over 5 s")
    ap.add_argument("--rooms", type=int, default=None, choices=range(1, 201),
                    metavar="1..200", help="rooms (20; --quick 4)")
    ap.add_argument("--sweep", type=sweep_counts, default=None, metavar="N,N,...",
                    help="run these room counts one after another, then print one table")
    ap.add_argument("--phones", type=int, default=12, choices=range(1, 13), metavar="1..12")
    ap.add_argument("--races", type=int, default=4, choices=range(4, 7), metavar="4..6")
    ap.add_argument("--procs", type=int, default=2, choices=range(1, 17), metavar="1..16",
                    help="client processes (2)")
    ap.add_argument("--stagger", type=float, default=None,
                    help="rooms start at random moments over this many seconds (30; --quick 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pace", type=float, default=None, metavar="SECONDS",
                    help="the races' pace, 0.2-10 s a furlong (default: the room's own)")
    ap.add_argument("--shards", type=int, default=1, choices=range(1, 5), metavar="1..4",
                    help="server processes, each shard K/N of the rooms (1)")
    ap.add_argument("--file-each", action="store_true",
                    help="with --shards: a database file for each server process (default: "
                         "one file for all)")
    ap.add_argument("--full", action="store_true",
                    help="the old protocol: a whole view in every update (default: deltas)")
    ap.add_argument("--think", type=think_times, default=THINK, metavar="LO,HI",
                    help=f"seconds a player takes to tap, drawn from LO..HI "
                         f"({THINK[0]:g},{THINK[1]:g}; the tests' short runs take less)")
    ap.add_argument("--deadline", type=float, default=DEADLINE,
                    help=f"seconds for one run ({DEADLINE:g})")
    ap.add_argument("--keep-timing", type=Path, metavar="FILE",
                    help="copy the server's raw timing lines to FILE")
    ap.add_argument("--profile", type=Path, metavar="FILE",
                    help="run the server under cProfile, its stats to FILE")
    args = ap.parse_args()
    if args.sweep is not None and (args.rooms is not None or args.profile or args.keep_timing):
        ap.error("--sweep runs its own room counts: no --rooms, --profile or --keep-timing")
    if args.stagger is None:
        args.stagger = 5.0 if args.quick else 30.0
    if not 0 <= args.stagger <= 600 or not 1 <= args.deadline <= 3600:
        ap.error("--stagger must be 0..600 s and --deadline 1..3600 s")
    if args.pace is not None and not 0.2 <= args.pace <= 10:
        ap.error("--pace must be 0.2..10 s")
    counts = args.sweep or [args.rooms or (4 if args.quick else 20)]
    # 13 sockets a room on each side: lift the soft limit of open files to the hard one
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runs = []
    for n in counts:
        runs.append(run(args, n))
        report(args, runs[-1])
    if args.sweep is not None:
        table(args, runs)


if __name__ == "__main__":
    main()
