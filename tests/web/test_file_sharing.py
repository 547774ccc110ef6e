"""A shard applies cheap intents on its event loop while its database file is its own, and
in a worker thread while another server process uses the same file (raceday.web.rooms
FileSharing, raceday.web.hub.run_intent)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from raceday.core.errors import RacedayError
from raceday.rooms import Actor
from raceday.web.hub import run_intent
from raceday.web.rooms import FileSharing, Rooms
from raceday.web.shards import Shard

HOLD = ("import sys; from pathlib import Path; from raceday.web.rooms import FileSharing; "
        "f = FileSharing(Path(sys.argv[1])); print('held', flush=True); sys.stdin.read()")


@contextlib.contextmanager
def _held_elsewhere(db: Path) -> Iterator[None]:
    """Another process holds the file as a server does while the block runs; it then ends
    without an error."""
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert other.stdin is not None and other.stdout is not None
    try:
        assert other.stdout.readline().strip() == "held"
        yield
    finally:
        other.stdin.close()
        assert other.wait(timeout=60) == 0


def test_a_process_knows_whether_another_holds_its_file(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    mine = FileSharing(db)
    assert mine.alone()
    with _held_elsewhere(db):
        assert not mine.alone()
        assert not mine.alone()  # a refused request leaves this process's own lock held
    assert mine.alone()
    mine.close()
    assert not mine.alone()  # closed: counted as shared, the careful way


def test_a_lock_file_that_cannot_be_made_counts_as_shared(tmp_path: Path) -> None:
    assert not FileSharing(tmp_path / "missing" / "party.sqlite").alone()


def test_a_shard_applies_on_the_loop_only_while_its_file_is_its_own(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db, Shard(0, 2))
    room, _ = rooms.create("derby", {})
    for name in ("Aki", "Ben"):
        rooms.join(room.code, name)
    rooms.apply(room, Actor.host(), {"type": "start", "computers": 0})
    assert not room.logic.thinks()  # people only: its intents are cheap
    threads: list[int] = []
    apply = rooms.apply

    def recording(*args: object) -> object:
        threads.append(threading.get_ident())
        return apply(*args)  # type: ignore[arg-type]

    rooms.apply = recording  # type: ignore[method-assign]

    async def one_intent() -> int:
        with contextlib.suppress(RacedayError):  # refused or not, it was applied somewhere
            await run_intent(rooms, room, Actor.host(), {"type": "pace", "seconds": 1.0})
        return threading.get_ident()

    loop_thread = asyncio.run(one_intent())
    assert threads[-1] == loop_thread  # alone on the file: on the loop
    with _held_elsewhere(db):
        loop_thread = asyncio.run(one_intent())
        assert threads[-1] != loop_thread  # shared: in a worker thread
