"""Load benchmark of several party-server processes behind Caddy (docs/usage/scale-out.md).

For each count N of ``--shards`` (default ``1,2``): N ``raceday serve --shard K/N``
processes on one fresh SQLite file, one Caddy entry point on 127.0.0.1 routed by the
Caddyfile ``raceday caddyfile`` writes, and the same parties as ``bench/bench_party.py``
(its client processes, players and figures: each room's 13 clients from a loopback source
address of their own, deltas, seeded think times) played through the entry point. One
table row a count: per delivery p50/p95/p99, rooms finished, errors, how the rooms spread
over the shards, and the CPU of the shards, of Caddy and of the clients. N=1 is the cost of
the proxy alone; more processes help only while the machine has free cores (the clients
share them here).

    .venv/bin/python bench/bench_shards.py [--quick] [--rooms 50] [--shards 1,2]
        [--procs 2] [--stagger 30] [--seed 1] [--own-files] [--deadline 300]

``--quick``: 4 rooms started over 5 s. Needs ``caddy`` (Debian's, 2.6) on the PATH.
Bounded: every run stops after --deadline seconds; the processes are ended in ``finally``.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from raceday.web.server import free_port
from raceday.web.shards import owner


def _bench_party() -> ModuleType:
    """bench/bench_party.py, whose clients and figures this bench shares."""
    path = Path(__file__).with_name("bench_party.py")
    spec = importlib.util.spec_from_file_location("bench_party", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_party"] = module  # the client processes unpickle its functions
    spec.loader.exec_module(module)
    return module


party = _bench_party()
clock = time.monotonic
MAX_SHARDS = 8


@contextmanager
def process(args: list[str], log: Path, port: int,
            env: dict[str, str] | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """``args`` running until the block ends, once 127.0.0.1:``port`` answers."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, env=env)
    try:
        party.wait_until_up(port, proc, clock())
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def run(args: argparse.Namespace, shards: int) -> dict[str, Any]:
    """One load run: ``shards`` processes behind one Caddy; its figures."""
    rng = random.Random(args.seed)
    delays = [rng.uniform(0, args.stagger) for _ in range(args.rooms)]
    entry = free_port()
    with tempfile.TemporaryDirectory(prefix="bench_shards.") as tmp, ExitStack() as stack:
        folder = Path(tmp)
        db = folder / "bench.sqlite"
        ports = [free_port() for _ in range(shards)]
        servers = [stack.enter_context(process(
            [sys.executable, "-m", "raceday", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", str(folder / f"bench{k}.sqlite") if args.own_files else str(db),
             "--shard", f"{k}/{shards}", "--trusted-proxy",
             "127.0.0.1", "--public-url", f"http://127.0.0.1:{entry}/"],
            folder / f"shard{k}.log", port)) for k, port in enumerate(ports)]
        config = folder / "Caddyfile"
        subprocess.run([sys.executable, "-m", "raceday", "caddyfile", "--site",
                        f"http://127.0.0.1:{entry}", "--bind", "127.0.0.1", "--admin", "off",
                        *[a for p in ports for a in ("--shard", f"127.0.0.1:{p}")],
                        "--output", str(config)], check=True, capture_output=True)
        home = folder / "caddy"
        home.mkdir()
        caddy = stack.enter_context(process(
            [args.caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
            folder / "caddy.log", entry,
            {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home),
             "XDG_DATA_HOME": str(home)}))
        pids = [s.pid for s in servers]
        cpu0 = [party.cpu_seconds(p) for p in [*pids, caddy.pid]]
        # every party through the one entry point ("ports": bench_party's clients pick a
        # party's server among them; "port": its older spelling)
        jobs = [{"port": entry, "ports": [entry],
                 "rooms": [(k, delays[k]) for k in range(i, args.rooms, args.procs)],
                 "phones": 12, "races": 4, "deadline": args.deadline, "pace": None,
                 "delta": True}
                for i in range(min(args.procs, args.rooms))]
        t0 = clock()
        with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
            results = pool.map_async(party.worker, jobs).get(args.deadline + 60)
        wall = clock() - t0
        cpu = [party.cpu_seconds(p) - c for p, c in zip([*pids, caddy.pid], cpu0,
                                                        strict=True)]
    sent: dict[tuple[str, int], float] = {}
    for r in results:
        sent.update(r["sent"])
    deliveries = [at - sent[(code, seq)] for r in results
                  for code, seq, at, _ in r["received"] if (code, seq) in sent]
    rooms = {code for r in results for code, _, _, _ in r["received"]}
    return {"shards": shards, "rooms": args.rooms, "wall": wall, "deliveries": deliveries,
            "finished": int(sum(r["finished_rooms"] for r in results)),
            "errors": [e for r in results for e in r["errors"]],
            "spread": Counter(owner(code, shards) for code in rooms),
            "shard_cpu": sum(cpu[:-1]), "caddy_cpu": cpu[-1],
            "client_cpu": float(sum(r["cpu"] for r in results))}


def table(args: argparse.Namespace, runs: list[dict[str, Any]]) -> None:
    """One Markdown line a run."""
    q = party.quantile
    print(f"\nshards behind Caddy: {args.rooms} rooms x 13 clients, rooms started over "
          f"{args.stagger:g} s, deltas, {args.procs} client processes, "
          f"{os.cpu_count()} cores, "
          f"{'a database file a shard' if args.own_files else 'one database file'}")
    print("| shards | p50 ms | p95 ms | p99 ms | finished | errors | rooms a shard "
          "| CPU shards / Caddy / clients |")
    print("|---:|---:|---:|---:|---:|---:|---|---:|")
    for f in runs:
        d, wall = f["deliveries"], f["wall"]
        spread = " / ".join(str(f["spread"].get(k, 0)) for k in range(f["shards"]))
        print(f"| {f['shards']} | {q(d, .5):.0f} | {q(d, .95):.0f} | {q(d, .99):.0f} "
              f"| {f['finished']}/{f['rooms']} | {len(f['errors'])} | {spread} "
              f"| {f['shard_cpu'] / wall:.0%} / {f['caddy_cpu'] / wall:.0%} / "
              f"{f['client_cpu'] / wall:.0%} |", flush=True)
        if f["errors"]:
            print("  first errors:", f["errors"][:3])


def shard_counts(text: str) -> list[int]:
    """``--shards 1,2``: process counts, each 1..MAX_SHARDS."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("shard counts separated by commas, such as 1,2") \
            from None
    if not 1 <= len(counts) <= 4 or not all(1 <= c <= MAX_SHARDS for c in counts):
        raise argparse.ArgumentTypeError(f"1 to 4 shard counts, each 1..{MAX_SHARDS}")
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="4 rooms started over 5 s")
    ap.add_argument("--rooms", type=int, default=None, choices=range(1, 201),
                    metavar="1..200", help="rooms (50; --quick 4)")
    ap.add_argument("--shards", type=shard_counts, default=[1, 2], metavar="N,N,...",
                    help="process counts to compare, one run each (1,2)")
    ap.add_argument("--procs", type=int, default=2, choices=range(1, 17), metavar="1..16",
                    help="client processes (2)")
    ap.add_argument("--stagger", type=float, default=None,
                    help="rooms start at random moments over this many seconds (30; --quick 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--own-files", action="store_true",
                    help="a database file for each shard (default: one file for all)")
    ap.add_argument("--deadline", type=float, default=party.DEADLINE,
                    help=f"seconds for one run ({party.DEADLINE:g})")
    args = ap.parse_args()
    args.rooms = args.rooms or (4 if args.quick else 50)
    if args.stagger is None:
        args.stagger = 5.0 if args.quick else 30.0
    if not 0 <= args.stagger <= 600 or not 1 <= args.deadline <= 3600:
        ap.error("--stagger must be 0..600 s and --deadline 1..3600 s")
    args.caddy = shutil.which("caddy")
    if args.caddy is None:
        ap.error("caddy is not installed (apt-get install -y caddy)")
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runs = [run(args, n) for n in args.shards]
    table(args, runs)


if __name__ == "__main__":
    main()
