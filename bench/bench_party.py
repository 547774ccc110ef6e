"""Load benchmark of the party server: 20 rooms x 13 clients (a big screen and 12 phones)
playing whole Dice Derby evenings on loopback.

The server runs in its own process (uvicorn, one worker, as `raceday serve` runs it); the
clients are asyncio WebSocket clients in this process. Every phone acts as soon as its
view lets it (a sealed bid, one ticket and "done", a roll when its horse is next) after a
seeded think time of 0.2-1.2 s (people, not scripts, hold the phones; it is not counted in
the latency); it acts on its newest view, once its previous intent was answered.
Action-to-broadcast latency = from sending an intent to the moment each client of the room
has received the update of that revision (every client, not only the sender). Bounded:
each client stops after MAX_ACTIONS intents, the whole run after DEADLINE seconds.

    .venv/bin/python bench/bench_party.py [--rooms 20] [--phones 12] [--races 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets

MAX_ACTIONS = 3_000  # per client
THINK = (0.2, 1.2)  # seconds a player takes to tap after their screen changes
DEADLINE = 300.0  # seconds for the whole run


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type":
                                                                  "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


class Stats:
    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.actions = 0
        self.messages = 0


async def client(ws_url: str, code: str, token: str | None, seat: int | None, stats: Stats,
                 done: asyncio.Event, rng: random.Random, host_start: asyncio.Event | None
                 ) -> None:
    """One screen. A phone acts on its latest view, one intent at a time (it waits for the
    answer to the last one), so it never acts on a stale view."""
    async with websockets.connect(f"{ws_url}/ws/{code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": -1}))
        pending: dict[int, float] = {}
        state = {"ref": 0, "actions": 0, "busy": False, "view": {}}
        thinking: set[asyncio.Task[None]] = set()

        def decide(view: dict) -> dict | None:
            me = view.get("me") or {}
            if me.get("may_bid") and me.get("sealed_bid") is None:
                return {"type": "bid", "amount": rng.choice([0, 0, 500, 1000, 2000, 3000])}
            if me.get("may_bet"):
                return ({"type": "ticket", "kind": "win", "horses": [rng.choice(
                    ["d12", "d20", "d10"])], "stake": 500} if not me["tickets"]
                    else {"type": "done"})
            if me.get("my_turn"):
                return {"type": "roll"}
            return None

        async def think_then_act() -> None:
            await asyncio.sleep(rng.uniform(*THINK))  # a thumb on a phone
            intent = decide(state["view"])  # the newest view, after thinking
            if intent is None or state["view"].get("phase") == "finished":
                state["busy"] = False
                return
            state["ref"] += 1
            state["actions"] += 1
            stats.actions += 1
            pending[state["ref"]] = time.perf_counter()
            await ws.send(json.dumps({**intent, "ref": state["ref"]}))

        async for raw in ws:
            now = time.perf_counter()
            msg = json.loads(raw)
            stats.messages += 1
            kind = msg["type"]
            if kind == "error":
                stats.errors.append(msg["message"])
                pending.pop(msg.get("ref"), None)
                state["busy"] = False
                continue
            if kind == "ack":
                stats.sent[(code, msg["seq"])] = pending.pop(msg["ref"])
                state["busy"] = False  # its update follows at once
                continue
            if kind not in ("welcome", "update"):
                continue
            state["view"] = msg["view"]
            if kind == "update":
                late.append((code, msg["seq"], now))
            if state["view"].get("phase") == "finished":
                break
            if host_start is not None:
                if kind == "welcome":
                    await host_start.wait()
                    state["ref"] += 1
                    pending[state["ref"]] = time.perf_counter()
                    stats.actions += 1
                    await ws.send(json.dumps({"type": "start", "computers": 0,
                                              "ref": state["ref"]}))
                continue
            if state["busy"] or state["actions"] >= MAX_ACTIONS:
                continue
            if decide(state["view"]) is not None:
                state["busy"] = True
                task = asyncio.create_task(think_then_act())
                thinking.add(task)
                task.add_done_callback(thinking.discard)
    done.set()


late: list[tuple[str, int, float]] = []


async def room(base: str, ws_url: str, phones: int, races: int, stats: Stats, k: int) -> None:
    loop = asyncio.get_running_loop()
    created = await loop.run_in_executor(None, post, f"{base}/api/rooms",
                                         {"game": "derby", "options": {"races": races}})
    code = created["code"]
    seats = []
    for i in range(phones):
        seats.append(await loop.run_in_executor(None, post, f"{base}/api/rooms/{code}/join",
                                                {"name": f"P{i}"}))
    start = asyncio.Event()
    done = asyncio.Event()
    tasks = [asyncio.create_task(client(ws_url, code, created["host_token"], None, stats,
                                        done, random.Random(k), start))]
    for i, s in enumerate(seats):
        tasks.append(asyncio.create_task(client(ws_url, code, s["token"], i, stats,
                                                asyncio.Event(), random.Random(k * 100 + i),
                                                None)))
    await asyncio.sleep(0.5)  # everyone connected
    start.set()
    await asyncio.gather(*tasks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--phones", type=int, default=12)
    ap.add_argument("--races", type=int, default=4)
    args = ap.parse_args()
    port = 8765 + os.getpid() % 1000
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        server = subprocess.Popen([sys.executable, "-m", "raceday.web.server", str(db),
                                   str(port)])
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{base}/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            stats = Stats()
            t0 = time.perf_counter()

            async def run_all() -> None:
                await asyncio.wait_for(asyncio.gather(*(
                    room(base, f"ws://127.0.0.1:{port}", args.phones, args.races, stats, k)
                    for k in range(args.rooms))), DEADLINE)

            asyncio.run(run_all())
            wall = time.perf_counter() - t0
        finally:
            server.terminate()
            server.wait(10)
    # updates that arrived before their sender saw the ack: match them now
    lat = []
    for code, seq, at in late:
        if (code, seq) in stats.sent:
            lat.append(at - stats.sent[(code, seq)])
    lat.sort()
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    print(f"party load: {args.rooms} rooms x {args.phones + 1} clients, {args.races} races "
          f"each, {os.cpu_count()} cores")
    print(f"  intents {stats.actions}, messages received {stats.messages}, "
          f"wall {wall:.1f} s, errors {len(stats.errors)}")
    print(f"  action-to-broadcast latency over {len(lat)} deliveries: p50 {p(0.5):.1f} ms, "
          f"p95 {p(0.95):.1f} ms, p99 {p(0.99):.1f} ms, max {lat[-1] * 1000:.1f} ms, "
          f"mean {statistics.fmean(lat) * 1000:.1f} ms")
    if stats.errors:
        print("  first errors:", stats.errors[:5])
    ok = p(0.95) < 100 and not stats.errors
    print("  target p95 < 100 ms and no errors:", "met" if ok else "NOT met")


if __name__ == "__main__":
    main()
