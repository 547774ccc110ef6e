"""Frames written at once (raceday.web.eager and Hub.send): a send that needs no wait is
done before Hub.send returns; one that waits (the socket's buffer is full) is finished by
the connection's sender task, and every frame after it queues behind it, so a socket's
frames keep their order; a failed write ends the writing, quietly. And the server-side
timing (benchmarks) still counts every frame of an update written while it was built."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from raceday.rooms import Actor
from raceday.web import eager
from raceday.web.hub import Conn, Hub, sender
from raceday.web.timing import Timing
from tests.web.conftest import Client, join, new_room, serving

GUARD = 10.0  # seconds: a hang guard, far above the few milliseconds these take


class Socket:
    """An ASGI send that records frames; while ``paused`` a send waits (as uvicorn's does
    when its transport asks it to), and with ``fail`` set it raises."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.open = asyncio.Event()
        self.open.set()
        self.fail = False

    async def send(self, message: dict[str, Any]) -> None:
        await self.open.wait()
        if self.fail:
            raise ConnectionResetError("gone")
        self.frames.append(message["text"])


def test_an_awaitable_that_needs_no_wait_is_done_at_once() -> None:
    done: list[int] = []

    async def quick() -> None:
        done.append(1)

    assert eager.start(quick()) is None
    assert done == [1]

    async def broken() -> None:
        raise ValueError("named")

    with pytest.raises(ValueError, match="named"):
        eager.start(broken())


def test_the_rest_of_an_awaitable_that_waits_is_finished_later() -> None:
    async def scenario() -> None:
        gate = asyncio.Event()
        steps: list[str] = []

        async def slow() -> None:
            steps.append("before")
            await gate.wait()
            await asyncio.sleep(0)  # a bare turn of the loop too
            steps.append("after")

        rest = eager.start(slow())
        assert rest is not None and steps == ["before"]
        finishing = asyncio.ensure_future(rest.finish())
        await asyncio.sleep(0.01)
        assert steps == ["before"] and not finishing.done()
        gate.set()
        await asyncio.wait_for(finishing, GUARD)
        assert steps == ["before", "after"]

        async def fails_later() -> None:
            await gate.wait()
            await asyncio.sleep(0)
            raise KeyError("late")

        rest = eager.start(fails_later())
        assert rest is not None
        with pytest.raises(KeyError, match="late"):
            await asyncio.wait_for(rest.finish(), GUARD)

        closed: list[bool] = []

        async def waits_forever() -> None:
            try:
                await asyncio.Event().wait()
            finally:
                closed.append(True)

        rest = eager.start(waits_forever())
        assert rest is not None
        task = asyncio.ensure_future(rest.finish())
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert closed == [True]

    asyncio.run(scenario())


def test_frames_go_at_once_and_queue_in_order_behind_a_full_socket() -> None:
    async def scenario() -> None:
        hub, socket = Hub(), Socket()
        conn = Conn(ws=None, actor=Actor.host(), write=socket.send)  # type: ignore[arg-type]
        assert hub.send(conn, "1") is True
        assert hub.send(conn, '{"n":2}') is True
        assert socket.frames == ["1", '{"n":2}']  # written before send returned
        assert conn.outbox.empty()

        socket.open.clear()  # the transport asks to pause
        for text in ("3", "4", "5"):
            assert hub.send(conn, text) is False
        assert socket.frames == ["1", '{"n":2}']
        assert conn.outbox.qsize() == 3  # the unfinished "3", then "4" and "5" behind it
        writer = asyncio.ensure_future(sender(conn))
        await asyncio.sleep(0.01)
        assert socket.frames == ["1", '{"n":2}']
        socket.open.set()
        for _ in range(100):
            if len(socket.frames) == 5 and not conn.sending:
                break
            await asyncio.sleep(0.01)
        assert socket.frames == ["1", '{"n":2}', "3", "4", "5"]
        hub.send(conn, "6")  # the queue is empty again: at once
        assert socket.frames[-1] == "6"

        socket.fail = True
        hub.send(conn, "7")  # the socket is gone: nothing raised, nothing more written
        assert conn.broken
        socket.fail = False
        hub.send(conn, "8")
        assert socket.frames[-1] == "6" and conn.outbox.empty()
        hub.end(conn, 1000)
        await asyncio.wait_for(writer, GUARD)

    asyncio.run(scenario())


def test_a_frame_waiting_when_the_socket_fails_ends_the_sender() -> None:
    async def scenario() -> None:
        hub, socket = Hub(), Socket()
        conn = Conn(ws=None, actor=Actor.host(), write=socket.send)  # type: ignore[arg-type]
        socket.open.clear()
        hub.send(conn, "1")
        hub.send(conn, "2")
        writer = asyncio.ensure_future(sender(conn))
        socket.fail = True
        socket.open.set()
        await asyncio.wait_for(writer, GUARD)  # it ended, without raising
        assert conn.broken and socket.frames == []
        hub.send(conn, "3")
        assert socket.frames == []

    asyncio.run(scenario())


def test_the_timing_counts_frames_written_while_the_update_is_built(db: Path,
                                                                   tmp_path: Path) -> None:
    """Every intent gets one line once every frame of its update is written: with frames
    written at once, most are written before the update's count is known."""
    timing = tmp_path / "timing.txt"
    with serving(db, observer=Timing(timing)) as tc:  # type: ignore[arg-type]
        hub: Hub = tc.app.state.hub  # type: ignore[attr-defined]
        assert isinstance(hub.observer, Timing)
        room = new_room(tc, races=4)
        seats = [join(tc, room["code"], name) for name in ("Aki", "Ben")]
        clients = [Client(tc, room["code"], room["host_token"])]
        clients += [Client(tc, room["code"], seat["token"]) for seat in seats]
        clients.append(Client(tc, room["code"], None))  # a spectator
        answer = clients[0].send({"type": "start", "computers": 0})
        assert answer["type"] == "ack", answer
        for c in clients:
            c.until(answer["seq"])
    lines = [line.split() for line in timing.read_text().splitlines()]
    started = [line for line in lines if line[2] == "start"]
    assert len(started) == 1, lines
    code, seq, _, received, applied, sent, frames = started[0]
    assert code == room["code"] and int(seq) == answer["seq"]
    assert int(frames) == len(clients)
    assert float(received) <= float(applied) <= float(sent)
    assert all(len(line) == 7 and line[6].isdigit() for line in lines)


def test_the_timing_writes_an_intent_once_its_last_frame_is_written(tmp_path: Path) -> None:
    """Frames written at once are counted by the update; one that had to wait counts when
    the sender writes it, and only then is the intent's line written."""
    timing = Timing(tmp_path / "timing.txt")
    timing.applied("BCDF", 7, "bid", 1.0)
    timing.flushed("BCDF", 7, frames=3, written=2)
    timing.sent("BCDF", 6)  # an older update's
    timing.flush()
    assert (tmp_path / "timing.txt").read_text() == ""
    timing.sent("BCDF", 7)
    timing.flush()
    (line,) = (tmp_path / "timing.txt").read_text().splitlines()
    code, seq, kind, received, applied, sent, frames = line.split()
    assert (code, seq, kind, frames) == ("BCDF", "7", "bid", "3")
    assert float(received) == 1.0 <= float(applied) <= float(sent)
    timing.applied("BCDF", 8, "done", 2.0)
    timing.flushed("BCDF", 8, frames=0, written=0)  # nobody connected: done at once
    timing.flush()
    assert len((tmp_path / "timing.txt").read_text().splitlines()) == 2
