"""Restart time of the party server on a database of many rooms (issue #44).

Builds, once a run, a database of ``--rooms`` rooms (2,000 by default: the server's
:data:`~raceday.web.rooms.MAX_ROOMS`) in a temporary folder, as a server killed with
``kill -9`` in the middle of a busy evening leaves it: most rooms are Derby parties in the
middle of a race (their last snapshot half the snapshot interval behind, the rest only in the log:
a killed server stores no snapshot at the stop), some in their lobby, some finished. Then it
starts ``raceday serve`` on 127.0.0.1 ``--runs`` times and prints, for each start:

* **first answer**: seconds from the start of the process to the first HTTP answer (``GET
  /`` answered 200);
* **all rooms loaded**: seconds to the server's own line saying every room is loaded (the
  rooms are loaded after it answers, in the background; a room asked for by its code is
  loaded at once);
* **a room's page data**: seconds to the first answer of ``GET /api/rooms/{code}`` for the
  room created last (loaded on demand, not in the background's order).

The rooms are made by playing a few template rooms (one each of a few kinds) with the
server's own :class:`~raceday.web.rooms.Rooms` and copying their rows under fresh codes,
so building 2,000 rooms takes seconds, not the minutes playing each would.

    .venv/bin/python bench/bench_restart.py [--quick] [--rooms 2000] [--runs 3]
        [--deadline 120]

``--quick``: 200 rooms, one start.

Bounded: each start is stopped (SIGINT, then kill) after the figures or after
``--deadline`` seconds.
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from raceday.rooms import Actor
from raceday.web.rooms import CODE_ALPHABET, SNAPSHOT_EVERY, Room, Rooms
from raceday.web.server import free_port

clock = time.monotonic
DEADLINE = 120.0  # seconds a start may take before the bench gives up on it
# (kind, share of the rooms): a Derby race under way with a snapshot lagging behind it,
# a lobby, a finished evening
KINDS = (("racing", 0.8), ("lobby", 0.1), ("finished", 0.1))


def _seat_step(rooms: Rooms, room: Room, seats: int) -> bool:
    """One step of a scripted Derby evening (a paced step, a bid, a bet, a roll); False
    when nobody can act."""
    logic: Any = room.logic
    if logic.next_tick() is not None:
        rooms.apply(room, Actor.timeline(), {"type": "tick"})
        return True
    for seat in range(seats):
        me = logic.view(Actor.player(seat)).get("me") or {}
        if me.get("may_bid") and me.get("sealed_bid") is None:
            rooms.apply(room, Actor.player(seat), {"type": "bid", "amount": 500 * (seat + 1)})
            return True
        if me.get("may_bet"):
            rooms.apply(room, Actor.player(seat), {"type": "done"})
            return True
        if me.get("my_turn"):
            rooms.apply(room, Actor.player(seat), {"type": "roll"})
            return True
    return False


def template(rooms: Rooms, kind: str) -> str:
    """A room of ``kind`` played with ``rooms``; returns its code."""
    room, _ = rooms.create("derby", {"races": 6})
    names = ("Aki", "Ben", "Chie")
    for name in names:
        rooms.join(room.code, name)
    if kind == "lobby":
        return room.code
    rooms.apply(room, Actor.host(), {"type": "start", "computers": 1})
    logic: Any = room.logic
    for _ in range(5000):  # bounded: a six-race evening takes far fewer steps
        if kind == "racing" and logic.next_tick() is not None \
                and len(room.since_snapshot) >= SNAPSHOT_EVERY // 3:
            return room.code  # a race under way, its last snapshot far behind
        if room.logic.finished() or not _seat_step(rooms, room, len(names)):
            break
    if kind == "racing":
        raise RuntimeError("the template race did not get under way")
    return room.code


def codes(count: int) -> list[str]:
    """``count`` distinct room codes (in a fixed order, the server's alphabet)."""
    letters = CODE_ALPHABET
    out = []
    for n in range(count):
        code = ""
        for _ in range(4):
            code += letters[n % len(letters)]
            n //= len(letters)
        out.append(code)
    return out


def build(db: Path, count: int) -> dict[str, int]:
    """A database of ``count`` rooms at ``db`` (see the module's docstring); returns how
    many of each kind."""
    made: dict[str, int] = {}
    rooms = Rooms(db)
    try:
        templates = {kind: template(rooms, kind) for kind, _ in KINDS}
    finally:
        rooms.store.close()
    fresh = iter(c for c in codes(count + len(templates)) if c not in templates.values())
    conn = sqlite3.connect(db)
    try:
        for kind, share in KINDS:
            made[kind] = round(share * count)
        made["racing"] += count - sum(made.values())  # the rounding
        for kind, source in templates.items():
            for n in range(made[kind] - 1):  # the template itself is one of them
                code = next(fresh)
                for table in ("rooms", "room_seats", "room_events"):
                    columns = [str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")]
                    picked = ", ".join("?" if c == "code" else c for c in columns)
                    conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) "
                                 f"SELECT {picked} FROM {table} WHERE code = ?",
                                 (code, source))
                if n % 500 == 499:
                    conn.commit()
        conn.commit()
    finally:
        conn.close()  # the last connection: the write-ahead log goes into the file
    return made


def last_code(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        (code,) = conn.execute("SELECT code FROM rooms ORDER BY rowid DESC LIMIT 1").fetchone()
    return str(code)


def _get(port: int, path: str) -> int | None:
    """The status of ``GET path`` on 127.0.0.1:``port`` (None: no answer yet)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", path, headers={"Accept": "application/json"})
        return conn.getresponse().status
    except OSError:
        return None
    finally:
        conn.close()


def start(built: Path, code: str, deadline: float) -> dict[str, float]:
    """One start of ``raceday serve`` on a copy of the database ``built`` (each start finds
    it as the killed server left it: the stop of the one before stores every snapshot):
    the seconds to its first answer, to the page data of room ``code`` and to its line
    saying every room is loaded."""
    port = free_port()
    db = built.with_name(f"party-{port}.sqlite")
    source, copy = sqlite3.connect(built), sqlite3.connect(db)
    try:
        source.backup(copy)  # the whole database, whatever is still in its log
    finally:
        source.close()
        copy.close()
    log = db.with_name(f"serve-{port}.log")
    env = {**os.environ, "COLUMNS": "200"}
    begun = clock()
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "raceday", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", str(db), "--idle-close", "0"],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env)
    figures: dict[str, float] = {}
    try:
        while len(figures) < 3:
            now = clock() - begun
            if now > deadline or proc.poll() is not None:
                raise RuntimeError(f"the server did not get there in {deadline:g} s "
                                   f"(its output: {log})")
            if "first answer" not in figures and _get(port, "/") == 200:
                figures["first answer"] = clock() - begun
            if "first answer" in figures and "room by code" not in figures \
                    and _get(port, f"/api/rooms/{code}") == 200:
                figures["room by code"] = clock() - begun
            if "all loaded" not in figures and " loaded in " in log.read_text(
                    encoding="utf-8", errors="replace"):
                figures["all loaded"] = clock() - begun
            time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="200 rooms, one start")
    ap.add_argument("--rooms", type=int, default=None, choices=range(3, 2001),
                    metavar="3..2000", help="rooms in the database (2000)")
    ap.add_argument("--runs", type=int, default=3, choices=range(1, 11), metavar="1..10",
                    help="starts of the server (3)")
    ap.add_argument("--deadline", type=float, default=DEADLINE,
                    help="seconds one start may take before the bench gives up")
    args = ap.parse_args()
    if args.rooms is None:
        args.rooms = 200 if args.quick else 2000
    if args.quick:
        args.runs = 1
    with tempfile.TemporaryDirectory(prefix="raceday-restart-") as folder:
        db = Path(folder) / "party.sqlite"
        built = clock()
        made = build(db, args.rooms)
        print(f"built {args.rooms} rooms ({', '.join(f'{n} {k}' for k, n in made.items())}) "
              f"in {clock() - built:.1f} s; load average {os.getloadavg()[0]:.2f}")
        code = last_code(db)
        print(f"{'run':>3}  {'first answer':>12}  {'room by code':>12}  {'all loaded':>10}")
        for run in range(1, args.runs + 1):
            f = start(db, code, args.deadline)
            print(f"{run:>3}  {f['first answer']:>10.2f} s  {f['room by code']:>10.2f} s  "
                  f"{f['all loaded']:>8.2f} s")


if __name__ == "__main__":
    main()
