"""The WebSocket of a room, ``/ws/{code}``: the hello, the welcome, then each message read
within the socket's allowance and applied as an intent (:mod:`raceday.web.wire` says what
goes each way)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.present import render
from raceday.rooms import Actor
from raceday.web import eager
from raceday.web.api_models import TOO_MANY
from raceday.web.context import Server, server_of
from raceday.web.guard import FLOOD_PENALTY, MISS_COST, Bucket
from raceday.web.hub import Conn, Hub, log, run_intent, sender, tell_presence
from raceday.web.rooms import Room, Rooms, normal_code
from raceday.web.wire import (
    MAX_MESSAGE,
    Ack,
    Pong,
    Ref,
    Welcome,
    error_frame,
    read_hello,
    read_intent,
)

SLOW_DOWN = Message("refusal.slow_down")
FLOODED = Message("refusal.flooded")  # the reason of a flooding socket's close (4429)
FLOOD = 100  # messages a socket may send over its allowance (refilled as fast) before it
# is closed: a person's double tap is far under it, a script's flood meets it at once
# seconds the server waits before reading the next message of a socket over its allowance:
# a flood then waits in its own TCP buffers (the sender is held back by TCP itself), not
# on the server's cores, and meets FLOOD in about a second
FLOOD_PAUSE = 0.01
HELLO_TIMEOUT = 15.0

router = APIRouter()


@router.websocket("/ws/{code}")
async def socket(ws: WebSocket, code: str) -> None:
    """A screen's connection to room ``code``: hello, welcome, then intents."""
    server = server_of(ws)
    room = await _open(server, ws, code)
    if room is None:
        return
    conn = await _greet(server, ws, room)
    if conn is None:
        return
    hub = server.hub
    writer = asyncio.create_task(sender(conn, hub.observer))
    ending: tuple[int, str | None] = (1000, None)
    try:
        ending = await _read(server, room, conn)
    except WebSocketDisconnect:
        pass
    finally:
        hub.remove(room.code, conn)
        hub.presence_later(server.rooms, room)  # gone for good, not reloading a page
        conn.broken = True  # what is queued still goes; nothing is written at once
        if not conn.outbox.full():
            conn.outbox.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
        writer.cancel()
        with contextlib.suppress(Exception):
            await ws.close(*ending)


async def _open(server: Server, ws: WebSocket, code: str) -> Room | None:
    """Accept the socket and find its room (None: refused and closed)."""
    lookup = server.lookup_bucket(ws.scope)
    await ws.accept()
    if not lookup.ready():  # known rooms cost nothing, but not while in debt
        await ws.send_text(error_frame(None, TOO_MANY).text())
        await ws.close(4429)
        return None
    try:
        return server.rooms.get(normal_code(code))
    except RacedayError as exc:
        lookup.charge(MISS_COST)
        await ws.send_text(error_frame(None, exc, fatal=True).text())
        await ws.close(4404)
        return None


async def _greet(server: Server, ws: WebSocket, room: Room) -> Conn | None:
    """Read the hello and send the welcome (None: refused and closed)."""
    try:
        text = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
        with contextlib.suppress(Exception):
            await ws.close(4408)
        return None
    hello = read_hello(text)
    actor = None
    if not isinstance(hello, Message):
        actor = Actor.spectator() if hello.token is None else room.actor_for(hello.token)
        if actor is None:
            hello = Message("refusal.not_a_seat", {"code": room.code})
    if actor is None or isinstance(hello, Message):
        assert isinstance(hello, Message)
        await ws.send_text(error_frame(None, hello, fatal=True).text())
        await ws.close(4401)
        return None
    hub = server.hub
    conn = Conn(ws, actor, delta=hello.delta, write=ws.scope.get(eager.SEND_KEY),
                code=room.code)
    async with hub.lock(room.code):  # the welcome and the first update stay in order
        view = hub.welcome(room, conn)  # a delta client's first patch starts from it
        since = hello.since
        catchup = server.rooms.store.events_since(room.code, since) if since >= 0 else []
        conn.outbox.put_nowait(Welcome.encode(
            room.code, room.game, actor.to_json(), room.revision, catchup, view,
            hub.resume_in(room.code)))
        hub.add(room.code, conn)  # a seat's older connection is told and closed
        await tell_presence(server.rooms, hub, room, leaving=False)  # back at once
    hub.presence_later(server.rooms, room)  # after a restart: the phones not back
    return conn


async def _read(server: Server, room: Room, conn: Conn) -> tuple[int, str | None]:
    """Read ``conn``'s messages until it ends; the close code and reason to end it with.

    The allowance first: a refused message is neither decoded nor read, and only the
    first of a flood is answered (slow down) until the socket has been calm (its allowance
    full again); one that keeps flooding is closed and its address's next handshakes wait
    (SocketCap)."""
    hub, ws = server.hub, conn.ws
    bucket = Bucket(server.burst, server.rate, server.clock)
    # refused messages before it is closed, refilled ten times slower than the
    # allowance: a socket that floods at any pace runs out
    strikes = Bucket(FLOOD, server.rate / 10, server.clock)
    slowed = False  # told to slow down, and not calm since
    while not conn.dropped and conn.close_code is None:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect" or conn.close_code is not None:
            break
        if slowed and bucket.idle():
            slowed = False
        if not bucket.take():
            if not strikes.take():
                key = server.client(ws.scope)
                server.handshakes.bucket(key).empty(FLOOD_PENALTY)
                return 4429, render(FLOODED, "en")
            if not slowed:
                slowed = True
                hub.send(conn, error_frame(None, SLOW_DOWN))
            if server.flood_pause > 0:
                await asyncio.sleep(server.flood_pause)
            continue
        text = _text_of(hub, conn, message)
        if text is not None:
            await receive(server.rooms, hub, room, conn, text)
    return 1000, None


def _text_of(hub: Hub, conn: Conn, message: Any) -> str | None:
    """A message's text (a binary one decoded as UTF-8); None if refused."""
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes") or b""
    if len(data) > MAX_MESSAGE:
        hub.send(conn, error_frame(None, Message("refusal.message_large",
                                                 {"max": MAX_MESSAGE})))
        return None
    try:
        return str(data.decode("utf-8"))
    except UnicodeDecodeError:
        hub.send(conn, error_frame(None, Message("refusal.message_text")))
        return None


async def receive(rooms: Rooms, hub: Hub, room: Room, conn: Conn, text: str) -> None:
    """Check one client message and apply it as an intent."""
    received = time.monotonic() if hub.observer is not None else 0.0
    read = read_intent(text)
    if not isinstance(read, tuple):
        hub.send(conn, error_frame(None, read))
        return
    ref, data = read
    if data["type"] == "ping":
        hub.send(conn, Pong(ref=ref))
        return
    if data["type"] == "hello":
        hub.send(conn, error_frame(ref, Message("refusal.already_connected")))
        return
    if conn.actor.kind == "spectator":  # refused here, not behind the room's other intents
        hub.send(conn, error_frame(ref, Message("refusal.spectator")))
        return
    # The intent is applied in a task of its own that holds the room's lock until the update
    # is queued: a client leaving meanwhile cancels only its wait, never a half-done intent.
    task = asyncio.ensure_future(_apply(rooms, hub, room, conn, data, ref, received))
    hub.tasks.add(task)
    task.add_done_callback(hub.tasks.discard)
    await asyncio.shield(task)


async def _apply(rooms: Rooms, hub: Hub, room: Room, conn: Conn, data: dict[str, Any],
                 ref: Ref, received: float) -> None:
    """Apply one intent (:func:`run_intent`) under the room's lock, then publish it."""
    async with hub.lock(room.code):
        try:
            events = await run_intent(rooms, room, conn.actor, data)
        except RacedayError as exc:
            hub.send(conn, error_frame(ref, exc))
            return
        except Exception:  # a bug: the room was put back as it was; say so, keep serving
            log.exception("intent %r in room %s failed", data.get("type"), room.code)
            hub.send(conn, error_frame(ref, Message("refusal.internal")))
            return
        hub.send(conn, Ack(ref=ref, seq=room.revision))
        hub.unseat(room, events)
        if hub.observer is not None:
            hub.observer.applied(room.code, room.revision, data["type"], received)
        hub.publish(room, events)
        hub.schedule(rooms, room)
        hub.presence_later(rooms, room)  # the start: the seats whose phone never came
