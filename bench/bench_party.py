"""Load benchmark of the party server: 20 rooms x 13 clients (a big screen and 12 phones)
playing whole Dice Derby evenings on loopback (127.0.0.1 only).

The server runs in its own process (uvicorn, one worker, as `raceday serve` runs it) with
its server-side timing on (RACEDAY_PARTY_TIMING, see raceday.web.app.Timing): for every
intent it writes when the intent was read from its socket and when the last update frame
of it was handed to a socket. The clients are asyncio WebSocket clients spread over
--procs processes (each its own event loop; a room's 13 clients share one process), so the
clients' own JSON parsing does not queue behind one event loop. Rooms start at seeded
random moments over --stagger seconds (parties do not all press "start" in the same
second; --stagger 0 starts them together, the worst case).

Every phone acts as soon as its view lets it (a sealed bid, one ticket and "done") after a
seeded think time of 0.2-1.2 s (people, not scripts, hold the phones; not counted in any
latency); it acts on its newest view, once its previous intent was answered. The races run
on the server's timeline at the room's own pace (1.6 s a furlong, as a party plays them;
``--pace`` sets another, 0.2 to 10), and every furlong's update goes to all 13 screens
(counted in the messages; the latency figures are of the players' intents).

Figures (all clocks are CLOCK_MONOTONIC, comparable between the processes):
* server: intent read -> last update frame of it written to the sockets (and the part of
  it spent checking, storing and building the 13 views);
* client, per delivery: intent sent -> each client of the room received the update of that
  revision (every client, not only the sender);
* client, per action: intent sent -> the LAST client of the room received it;
* the split of an action: sent -> read by the server (inbound), server, and last frame
  written -> last client received it (outbound, incl. client-side queueing).
Bounded: each client stops after MAX_ACTIONS intents, the run after --deadline seconds.

    .venv/bin/python bench/bench_party.py [--quick] [--rooms 20] [--phones 12] [--races 4]
        [--procs 4] [--stagger 30] [--seed 1] [--pace SECONDS] [--keep-timing FILE]
        [--profile FILE]

``--quick``: 4 rooms on 2 client processes, started over 5 s (the same figures, smaller).
The server's start (imports, until it answers) is printed apart as "compile/load".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

MAX_ACTIONS = 3_000  # per client
THINK = (0.2, 1.2)  # seconds a player takes to tap after their screen changes
DEADLINE = 300.0  # seconds for the whole run (default of --deadline)
clock = time.monotonic  # CLOCK_MONOTONIC: the server's Timing uses the same clock
PACE: dict[str, float | None] = {"seconds": None}  # --pace: the races' pace (None: the room's)


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


class Stats:
    """What one client process saw."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}  # (room, seq) -> when its intent left
        self.received: list[tuple[str, int, float, bool]] = []  # (room, seq, when, sender?)
        self.errors: list[str] = []
        self.actions = 0
        self.messages = 0
        self.bytes = 0
        self.finished_rooms = 0


async def client(ws_url: str, code: str, token: str | None, stats: Stats,
                 rng: random.Random, host_start: asyncio.Event | None) -> None:
    """One screen. A phone acts on its latest view, one intent at a time (it waits for the
    answer to the last one), so it never acts on a stale view."""
    async with websockets.connect(f"{ws_url}/ws/{code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": -1}))
        pending: dict[int, float] = {}
        mine: set[int] = set()  # seqs of this client's own intents
        state: dict[str, Any] = {"ref": 0, "actions": 0, "busy": False, "view": {}}
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
            await ws.send(json.dumps({**intent, "ref": state["ref"]}))

        async def think_then_act() -> None:
            await asyncio.sleep(rng.uniform(*THINK))  # a thumb on a phone
            intent = decide(state["view"])  # the newest view, after thinking
            if intent is None or state["view"].get("phase") == "finished":
                state["busy"] = False
                return
            await send(intent)

        async for raw in ws:
            now = clock()
            stats.messages += 1
            stats.bytes += len(raw)
            msg = json.loads(raw)
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
            state["view"] = msg["view"]
            if kind == "update":
                stats.received.append((code, msg["seq"], now, msg["seq"] in mine))
            if state["view"].get("phase") == "finished":
                if host_start is not None:
                    stats.finished_rooms += 1
                break
            if host_start is not None:
                if kind == "welcome":
                    await host_start.wait()
                    await send({"type": "start", "computers": 0})
                    if PACE["seconds"] is not None:
                        await send({"type": "pace", "seconds": PACE["seconds"]})
                continue
            if state["busy"] or state["actions"] >= MAX_ACTIONS:
                continue
            if decide(state["view"]) is not None:
                state["busy"] = True
                task = asyncio.create_task(think_then_act())
                thinking.add(task)
                task.add_done_callback(thinking.discard)


async def room(base: str, ws_url: str, phones: int, races: int, stats: Stats, k: int,
               delay: float) -> None:
    await asyncio.sleep(delay)  # this party's start
    loop = asyncio.get_running_loop()
    created = await loop.run_in_executor(None, post, f"{base}/api/rooms",
                                         {"game": "derby", "options": {"races": races}})
    code = created["code"]
    seats = []
    for i in range(phones):
        seats.append(await loop.run_in_executor(None, post, f"{base}/api/rooms/{code}/join",
                                                {"name": f"P{i}"}))
    start = asyncio.Event()
    tasks = [asyncio.create_task(client(ws_url, code, created["host_token"], stats,
                                        random.Random(k), start))]
    for i, s in enumerate(seats):
        tasks.append(asyncio.create_task(client(ws_url, code, s["token"], stats,
                                                random.Random(k * 100 + i), None)))
    await asyncio.sleep(0.5)  # everyone connected
    start.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    stats.errors.extend(f"room {code}: {r!r}" for r in results if isinstance(r, BaseException))


def worker(job: tuple[int, list[tuple[int, float]], int, int, float, float | None]
           ) -> dict[str, Any]:
    """One client process: its rooms (number k, start delay), each with seeded players."""
    port, rooms, phones, races, deadline, PACE["seconds"] = job
    stats = Stats()
    base = f"http://127.0.0.1:{port}"

    async def run_all() -> None:
        tasks = [asyncio.create_task(room(base, f"ws://127.0.0.1:{port}", phones, races,
                                          stats, k, delay)) for k, delay in rooms]
        done, late = await asyncio.wait(tasks, timeout=deadline)
        for t in late:
            t.cancel()
        if late:
            stats.errors.append(f"{len(late)} room(s) not finished within {deadline:.0f} s")
        for t in done:
            if t.exception() is not None:
                stats.errors.append(repr(t.exception()))

    cpu = time.process_time()
    asyncio.run(run_all())
    return {"sent": stats.sent, "received": stats.received, "errors": stats.errors,
            "actions": stats.actions, "messages": stats.messages, "bytes": stats.bytes,
            "finished": stats.finished_rooms, "cpu": time.process_time() - cpu}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def pct(values: list[float]) -> str:
    if not values:
        return "no data"
    v = sorted(values)

    def p(q: float) -> float:
        return v[min(len(v) - 1, int(q * len(v)))] * 1000

    return (f"p50 {p(0.5):.1f} ms, p95 {p(0.95):.1f} ms, p99 {p(0.99):.1f} ms, "
            f"max {v[-1] * 1000:.1f} ms (n={len(v)})")


def p95(values: list[float]) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(0.95 * len(v)))] * 1000 if v else float("inf")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="4 rooms, 2 client processes, started over 5 s")
    ap.add_argument("--rooms", type=int, default=None, choices=range(1, 201),
                    metavar="1..200", help="rooms (20; --quick 4)")
    ap.add_argument("--phones", type=int, default=12, choices=range(1, 13), metavar="1..12")
    ap.add_argument("--races", type=int, default=4, choices=range(4, 7), metavar="4..6")
    ap.add_argument("--procs", type=int, default=None, choices=range(1, 17), metavar="1..16",
                    help="client processes (4; --quick 2)")
    ap.add_argument("--stagger", type=float, default=None,
                    help="rooms start at random moments over this many seconds (30; --quick 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pace", type=float, default=None, metavar="SECONDS",
                    help="the races' pace, 0.2-10 s a furlong (default: the room's own)")
    ap.add_argument("--deadline", type=float, default=DEADLINE)
    ap.add_argument("--keep-timing", type=Path, metavar="FILE",
                    help="copy the server's raw timing lines to FILE")
    ap.add_argument("--profile", type=Path, metavar="FILE",
                    help="run the server under cProfile, its stats to FILE")
    args = ap.parse_args()
    if args.rooms is None:
        args.rooms = 4 if args.quick else 20
    if args.procs is None:
        args.procs = 2 if args.quick else 4
    if args.stagger is None:
        args.stagger = 5.0 if args.quick else 30.0
    if not 0 <= args.stagger <= 600 or not 1 <= args.deadline <= 3600:
        ap.error("--stagger must be 0..600 s and --deadline 1..3600 s")
    rng = random.Random(args.seed)
    delays = [rng.uniform(0, args.stagger) for _ in range(args.rooms)]
    port = 8765 + os.getpid() % 1000
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        timing = Path(tmp) / "timing.txt"
        profile = ["-m", "cProfile", "-o", str(args.profile)] if args.profile else []
        server = subprocess.Popen([sys.executable, *profile, "-m", "raceday.web.server",
                                   str(db), str(port)],
                                  env={**os.environ, "RACEDAY_PARTY_TIMING": str(timing)})
        base = f"http://127.0.0.1:{port}"
        try:
            started = clock()
            while True:
                try:
                    urllib.request.urlopen(f"{base}/", timeout=1)
                    break
                except OSError:
                    if clock() - started > 60:
                        raise SystemExit("the server did not start within 60 s") from None
                    time.sleep(0.1)
            print(f"compile/load: {clock() - started:.2f} s (the server's start, until it "
                  "answers; not in the figures)", flush=True)
            cpu0 = cpu_seconds(server.pid)
            jobs = [(port, [(k, delays[k]) for k in range(i, args.rooms, args.procs)],
                     args.phones, args.races, args.deadline, args.pace)
                    for i in range(min(args.procs, args.rooms))]
            t0 = clock()
            with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
                results = pool.map_async(worker, jobs).get(args.deadline + 60)
            wall = clock() - t0
            server_cpu = cpu_seconds(server.pid) - cpu0
        finally:  # SIGINT lets cProfile write its file; uvicorn stops on either signal
            server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
            server.wait(10)
        lines = timing.read_text().splitlines() if timing.exists() else []
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
    per_action = [last[k] - sent[k] for k in last]
    server_total = [s - r for r, _, s in srv.values()]
    server_apply = [a - r for r, a, _ in srv.values()]
    inbound = [srv[k][0] - sent[k] for k in last if k in srv]
    outbound = [last[k] - srv[k][2] for k in last if k in srv]
    actions = sum(r["actions"] for r in results)
    finished = sum(r["finished"] for r in results)
    client_cpu = sum(r["cpu"] for r in results)

    print(f"party load: {args.rooms} rooms x {args.phones + 1} clients, {args.races} races "
          f"each, rooms started over {args.stagger:g} s (seed {args.seed}), "
          f"{len(jobs)} client processes, {os.cpu_count()} cores")
    print(f"  load average before {load_before[0]:.2f} {load_before[1]:.2f} "
          f"{load_before[2]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f} "
          f"{load_after[2]:.2f} (1/5/15 min)")
    print(f"  intents {actions}, messages received {sum(r['messages'] for r in results)} "
          f"({sum(r['bytes'] for r in results) / 1e6:.1f} MB), rooms finished {finished}/"
          f"{args.rooms}, wall {wall:.1f} s, errors {len(errors)}")
    print(f"  CPU: server {server_cpu:.1f} s ({server_cpu / wall:.0%} of a core), clients "
          f"{client_cpu:.1f} s ({client_cpu / wall:.0%} of a core)")
    print(f"  server: intent read -> last frame written ... {pct(server_total)}")
    print(f"          of which check + store + views ...... {pct(server_apply)}")
    print(f"  client: action -> each delivery ............. {pct(deliveries)}")
    print(f"          action -> sender's own update ....... {pct(own)}")
    print(f"          action -> last client of the room ... {pct(per_action)}")
    print(f"  split:  sent -> read by the server .......... {pct(inbound)}")
    print(f"          last frame written -> last received . {pct(outbound)}")
    if errors:
        print("  first errors:", errors[:5])
    ok = p95(deliveries) < 100 and not errors and finished == args.rooms
    print("  target p95 < 100 ms (each delivery), every room finished, no errors:",
          "met" if ok else "NOT met")


if __name__ == "__main__":
    main()
