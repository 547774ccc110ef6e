"""The party server: an ASGI app (FastAPI) with rooms, phones and a big screen.

Pages (plain HTML and small ES modules, all served from this package, nothing from a CDN):

* ``/`` — create a room (the host) or join one by its code;
* ``/host/{code}`` — the big screen: join code and QR, then the show; host controls;
* ``/play/{code}`` — a phone: pick a name, then the private controller of that seat;
* ``/watch/{code}`` — the big screen without controls, for anyone (spectators).

REST (JSON bodies of at most 4 KB; errors are ``{"error": "..."}`` with a 4xx status; the
JSON API is described at ``/openapi.json``, each body a pydantic model with no extra fields):

* ``POST /api/rooms`` ``{"game": "derby", "options": {...}}`` → ``{"code", "host_token",
  "join_url", "watch_url"}``;
* ``POST /api/rooms/{code}/join`` ``{"name": "Aki"}`` → ``{"seat", "token"}``;
* ``GET /api/rooms/{code}`` → the room's game, phase, seats (no secrets);
* ``GET /api/rooms/{code}/qr.svg`` → the QR code of the join link.

WebSocket ``/ws/{code}``. The first message is ``{"type": "hello", "token": T | null,
"since": N}``: the host's or a seat's token (kept in the browser's storage), or null for a
spectator; ``since`` is the last event number the client saw. The server answers
``{"type": "welcome", "role", "seq", "view", "catchup"}`` (the view that client may see,
and the public events after ``since``). After that every message is an *intent* such as
``{"type": "bid", "amount": 3000, "ref": 7}``; the server answers the sender with
``{"type": "ack", "ref", "seq"}`` or ``{"type": "error", "ref", "message"}`` and sends
every connection of the room ``{"type": "update", "seq", "events", "view"}`` with its own
view. An update's ``seq`` is the room's revision; on a quiet server each intent has its
own, under load the intents applied to one room before its update went out share it (the
events of all, in order; the view as of the last), so a client takes an update as every
revision after the one it held (:meth:`Hub.publish`).

Deltas: a client whose hello has ``"delta": true`` (the pages always ask) is sent each
update as ``{"type": "update", "seq": N, "base": M, "events", "patch": [ops]}`` instead:
RFC 6902 JSON Patch ops (``add``/``remove``/``replace`` with JSON Pointer paths;
:mod:`raceday.web.delta` and ``static/js/delta.js``) turning the view it was sent at seq
``M`` (its welcome or its previous update) into its view at seq ``N``; or, where a patch
would not be smaller, ``"view"`` in full as above. A client whose copy is not at ``M``, or
that cannot apply the patch, resyncs: it reconnects with ``since`` and the welcome brings
the whole view again. The welcome always carries the whole view.

After a restart a race saved mid-way waits ``resume_after`` seconds for the screens to
reconnect; meanwhile its welcome carries ``"resume_in": S`` (seconds), which the pages
show as "Resuming the race in S s" instead of "Connected" until it runs out or an update
comes (an intent accepted meanwhile sets the race going at once).

Messages over 4 KB, malformed JSON (or JSON nested more than 32 levels), unknown
intents and wrong tokens are answered with an error and change nothing. More than the
allowed rate (a token bucket per connection: bursts of 20, 10 a second) is not even read:
the first message over it is answered "slow down", the rest of the flood nothing; a
connection that keeps flooding (:data:`FLOOD` messages over) is closed with code 4429 and
the reason in words, and its address's next handshakes wait (429). ``{"type": "ping"}``
is answered with ``{"type": "pong"}``.

One device per seat: the host's token and each seat's token are held by one connection at a
time. A newer connection with the same token takes the seat; the older one is sent
``{"type": "error", "fatal": true, "reason": "replaced", "message": "this seat was opened
on another device"}`` and closed with code 4409 (the pages show that and do not reconnect).
Spectators may be many.

Defences (:mod:`raceday.web.guard`; ``docs/usage/party.md`` explains them): the ``Origin``
of every WebSocket handshake and state-changing request must be this server's own, the
``public_url`` or one of ``allowed_origins`` (403 otherwise; no Origin at all, as from curl
or the CLI, is allowed); request bodies must be ``application/json`` (415), at most 4 KB
(413) and nested at most 32 levels (400); room lookups (``GET /api/rooms/{code}``, the QR,
joins and WebSocket handshakes naming an unknown room) are rate-limited per client address,
a miss costing :data:`MISS_COST` tokens (429), as are REST calls and, more tightly, new
rooms; one address holds a bounded number of WebSockets open; ``X-Forwarded-For`` counts
only from ``trusted_proxies``. Every answer carries the security headers of
:class:`~raceday.web.guard.SecureHeaders` (HSTS behind an ``https`` public URL); the answers
that carry a key are ``Cache-Control: no-store``; no answer sets a cookie.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import ipaddress
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Send

from raceday import __version__
from raceday.core.discovery import asset_folder, face, game_packages, games_with
from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.events import Message
from raceday.present import render
from raceday.rooms import JSON, Actor
from raceday.web import eager, games, jsontext, messages, numbers, print_pages, redact, replay
from raceday.web.delta import diff, diff_members
from raceday.web.eager import KeepSend, Unfinished
from raceday.web.guard import (
    FLOOD_PENALTY,
    HANDSHAKE_BURST,
    HANDSHAKE_RATE,
    MAX_BODY,
    MISS_COST,
    NO_STORE,
    BadJSON,
    Bucket,
    Guard,
    Limiter,
    Origins,
    SecureHeaders,
    SocketCap,
    client_key,
    is_https,
    loads,
    parse_networks,
    retry_after,
)
from raceday.web.heavy import Heavy, HeavyLimits
from raceday.web.lifecycle import IDLE_CLOSE_HOURS, IdleCloser
from raceday.web.options_schema import router as options_router
from raceday.web.pages import PAGES, game_page
from raceday.web.rooms import (
    MAX_NAME,
    MAX_ROOMS,
    RECLAIM_AFTER,
    ROOMS_PER_ADDRESS,
    SEATS_PER_ADDRESS,
    NoSuchRoom,
    Room,
    Rooms,
    RoomsFull,
    StoreUnavailable,
    clean_name,
    normal_code,
    removed_seat,
)
from raceday.web.shards import Shard, ShardGuard

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("raceday.web")
MAX_MESSAGE = MAX_BODY  # bytes of one client message (REST body or WebSocket frame)
SEAT_TAKEN = Message("refusal.seat_taken")
SEAT_REMOVED = Message("refusal.seat_removed")
TOO_MANY = Message("refusal.too_many")
SLOW_DOWN = Message("refusal.slow_down")
FLOODED = Message("refusal.flooded")  # the reason of a flooding socket's close (4429)
FLOOD = 100  # messages a socket may send over its allowance (refilled as fast) before it
# is closed: a person's double tap is far under it, a script's flood meets it at once
# seconds the server waits before reading the next message of a socket over its allowance:
# a flood then waits in its own TCP buffers (the sender is held back by TCP itself), not
# on the server's cores, and meets FLOOD in about a second
FLOOD_PAUSE = 0.01
OUTBOX = 512  # messages queued for one slow connection before it is dropped
HELLO_TIMEOUT = 15.0


@dataclass(eq=False)
class Conn:
    """One open WebSocket: who it is, and its queue of messages to send.

    A frame is written at once (:mod:`raceday.web.eager`) when nothing is queued before it
    and the sender task holds none; else it joins the queue, which the sender task writes
    in order."""

    ws: WebSocket
    actor: Actor
    outbox: asyncio.Queue[str | tuple[Unfinished, str] | None] = field(
        default_factory=lambda: asyncio.Queue(OUTBOX))
    write: Send | None = None  # the server's own ASGI send of the socket (None: queue all)
    code: str = ""  # its room (for the timing)
    sending: bool = False  # the sender task holds a frame: the next ones queue behind it
    broken: bool = False  # a write failed or the socket is over: nothing more is written
    dropped: bool = False
    close_code: int | None = None  # set when the server ends it (4409: seat taken)
    delta: bool = False  # it asked for patches ("delta": true in its hello)
    seq: int = -1  # the revision of the view it was sent last (welcome or update)
    public: Any = None  # that view's public part (the whole view if the game has no split)
    me: Any = None  # and its private part (``me``; None for the host and spectators)


class Timing:
    """Server-side timing of accepted intents, for benchmarks; off unless asked for
    (``create_app(..., timing=FILE)`` or ``RACEDAY_PARTY_TIMING=FILE`` for ``python -m
    raceday.web.server``). One line per intent, appended to FILE once the last update frame
    of that intent was handed to its socket: ``code seq type received applied sent
    frames``, the times in ``time.monotonic()`` seconds (CLOCK_MONOTONIC, comparable across
    processes of one machine): received = the intent's text was read from the socket,
    applied = checked and stored (its update queued: :meth:`Hub.publish`), sent = the last
    of the ``frames`` frames of the update that carried it was written (an update carries
    every intent applied to the room since the one before). Messages are unchanged; when
    off it costs one ``is None`` test per intent and per frame."""

    MAX_OPEN = 10_000  # intents whose frames are not all sent yet (dropped sockets)

    def __init__(self, path: str | Path) -> None:
        self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115  (the server's life)
        # updates being sent, by (code, seq): [intents, frames written, frames queued]
        self.open: dict[tuple[str, int], list[Any]] = {}
        self.waiting: dict[str, list[list[Any]]] = {}  # intents whose update is not queued

    def applied(self, code: str, seq: int, kind: str, received: float) -> None:
        """Intent ``seq`` of room ``code`` is checked and stored; its update is queued."""
        kind = kind if kind.isidentifier() else "?"  # the file stays one word a field
        self.waiting.setdefault(code, []).append([seq, kind, received, time.monotonic()])

    def flushed(self, code: str, seq: int, frames: int, written: int) -> None:
        """The update of revision ``seq`` (with every intent applied since the last one) was
        queued to ``frames`` connections, ``written`` of them written at once."""
        intents = self.waiting.pop(code, [])
        if not intents:
            return
        if len(self.open) >= self.MAX_OPEN:
            self.open.pop(next(iter(self.open)))
        key = (code, seq)
        self.open[key] = entry = [intents, written, frames]
        self._done(key, entry)

    def sent(self, code: str, text: str) -> None:
        head = '{"type": "update", "seq": '
        if not text.startswith(head):
            return
        key = (code, int(text[len(head):text.index(",", len(head))]))
        entry = self.open.get(key)
        if entry is not None:
            entry[1] += 1
            self._done(key, entry)

    def _done(self, key: tuple[str, int], entry: list[Any]) -> None:
        intents, written, frames = entry
        if written < frames:
            return
        del self.open[key]
        now = time.monotonic()
        for seq, kind, received, applied in intents:
            self.file.write(f"{key[0]} {seq} {kind} {received:.6f} {applied:.6f} {now:.6f} "
                            f"{frames}\n")

    def flush(self) -> None:
        """Write out the lines so far (the server's stop does)."""
        self.file.flush()


class Hub:
    """The open connections of every room and the broadcast of updates."""

    def __init__(self) -> None:
        self.conns: dict[str, set[Conn]] = {}
        self.seats: dict[tuple[str, Actor], Conn] = {}  # who holds the host and each seat
        self.timing: Timing | None = None
        self.locks: dict[str, asyncio.Lock] = {}
        self.tasks: set[asyncio.Future[None]] = set()  # intents being applied
        self.timers: dict[str, asyncio.TimerHandle] = {}  # each room's next paced step
        self.pending: dict[str, tuple[Room, list[JSON]]] = {}  # events of the next update
        # rooms whose race, saved mid-way, waits after a restart: code -> the loop's time
        # of its next paced step (their frames say so: :meth:`resume_field`)
        self.resuming: dict[str, float] = {}

    def lock(self, code: str) -> asyncio.Lock:
        """The room's lock, held while an intent is applied and while an update is built,
        so each room's updates stay in revision order and its views whole while an intent
        is applied in a worker thread."""
        if code not in self.locks:
            self.locks[code] = asyncio.Lock()
        return self.locks[code]

    def add(self, code: str, conn: Conn) -> None:
        """Add ``conn`` to its room; if it is the host or a seat, it takes that place from
        the connection holding it, which is told so and closed (4409)."""
        self.conns.setdefault(code, set()).add(conn)
        if conn.actor.kind == "spectator":
            return
        old = self.seats.get((code, conn.actor))
        self.seats[(code, conn.actor)] = conn
        if old is not None and old is not conn:
            self.conns.get(code, set()).discard(old)
            self.send(old, {**_err(None, SEAT_TAKEN, True), "reason": "replaced"})
            self.end(old, 4409)

    def unseat(self, room: Room, events: list[JSON]) -> None:
        """After the host removed a seat (``events`` hold ``seat_removed``): that seat's
        phone is told in words and closed (4403; its key no longer opens the room), and
        each later seat's connection holds the seat one lower, as the room now numbers it."""
        removed = removed_seat(Actor.host(), events)
        if removed is None:
            return
        code = room.code
        for key in [key for key in self.seats if key[0] == code and key[1].kind == "seat"]:
            del self.seats[key]
        for conn in list(self.conns.get(code, ())):
            seat = conn.actor.seat
            if conn.actor.kind != "seat" or seat is None or seat < removed:
                pass
            elif seat == removed:
                conn.actor = Actor.spectator()  # nothing more it sends counts as the seat
                self.conns[code].discard(conn)
                self.send(conn, {**_err(None, SEAT_REMOVED, True), "reason": "removed"})
                self.end(conn, 4403)
                continue
            else:
                conn.actor = Actor.player(seat - 1)
            if conn.actor.kind == "seat":
                self.seats[(code, conn.actor)] = conn

    def remove(self, code: str, conn: Conn) -> None:
        self.conns.get(code, set()).discard(conn)
        if self.seats.get((code, conn.actor)) is conn:
            del self.seats[(code, conn.actor)]

    def end(self, conn: Conn, close_code: int) -> None:
        """Close ``conn`` with ``close_code`` once what is queued for it is sent."""
        conn.close_code = close_code
        if conn.outbox.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                conn.outbox.get_nowait()
        conn.outbox.put_nowait(None)

    def send(self, conn: Conn, message: JSON | str) -> bool:
        """Write ``message`` to ``conn`` now, or queue it behind what is queued (False)."""
        text = message if isinstance(message, str) else jsontext.dumps(message)
        item: str | tuple[Unfinished, str] = text
        if (conn.write is not None and not conn.sending and conn.outbox.empty()
                and conn.close_code is None and not conn.dropped):
            if conn.broken:
                return False
            try:
                rest = eager.start(conn.write({"type": "websocket.send", "text": text}))
            except Exception:  # the socket is gone; its reader sees it end
                conn.broken = True
                return False
            if rest is None:
                return True
            item = (rest, text)  # its buffer is full: the sender task finishes it
        try:
            conn.outbox.put_nowait(item)
        except asyncio.QueueFull:  # too slow: drop it; it reconnects and catches up
            conn.dropped = True
            with contextlib.suppress(asyncio.QueueEmpty):
                conn.outbox.get_nowait()
            conn.outbox.put_nowait(None)
        return False

    def schedule(self, rooms: Rooms, room: Room, at_least: float = 0.0) -> None:
        """Set ``room``'s next paced step (the timeline: a race's dice, a computer's move)
        for when its logic says (and not before ``at_least`` seconds), replacing any set
        before: one timer a room, whoever is watching, so every screen sees the same pace
        and a race runs with no page open."""
        old = self.timers.pop(room.code, None)
        if old is not None:
            old.cancel()
        self.resuming.pop(room.code, None)
        next_tick = getattr(room.logic, "next_tick", None)
        delay = None if next_tick is None else next_tick()
        if delay is None:
            return
        loop = asyncio.get_running_loop()
        self.timers[room.code] = loop.call_later(
            max(delay, at_least), self._start_tick, rooms, room, room.revision)
        if at_least > delay:  # held back for the screens to reconnect: they are told
            self.resuming[room.code] = loop.time() + at_least

    def resume_field(self, code: str) -> str:
        """``, "resume_in": S`` (the seconds, to a tenth, until the room's race saved
        mid-way goes on after a restart) for the room's welcome frames while it waits, else
        nothing: every screen shows "Resuming the race in N s" instead of a plain
        "Connected". (Any accepted intent sets the room's next step anew, which ends the
        wait: the update it brings carries no ``resume_in``, and the pages then say
        "Connected".)"""
        at = self.resuming.get(code)
        if at is None:
            return ""
        return f', "resume_in": {max(at - asyncio.get_running_loop().time(), 0.0):.1f}'

    def _start_tick(self, rooms: Rooms, room: Room, revision: int) -> None:
        self.timers.pop(room.code, None)
        self.resuming.pop(room.code, None)
        task = asyncio.ensure_future(_tick(rooms, self, room, revision))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def stop_timers(self) -> None:
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        self.resuming.clear()

    def publish(self, room: Room, events: list[JSON]) -> None:
        """Queue ``events`` (of an intent or a paced step just applied to ``room``) for the
        room's next update, which goes out once the event loop has done what was ready:
        one update an intent on a quiet server; under load, the intents applied to one
        room meanwhile share an update (its events in order, the view as of the last), so
        the views are built and diffed, and frames sent, once for all of them."""
        waiting = self.pending.get(room.code)
        if waiting is None:
            self.pending[room.code] = (room, list(events))
            task = asyncio.ensure_future(self._flush(room.code))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        else:
            waiting[1].extend(events)

    async def _flush(self, code: str) -> None:
        """Send the room's waiting update (under its lock: never while an intent is being
        applied to it in a worker thread)."""
        async with self.lock(code):
            room, events = self.pending.pop(code)
            frames, written = self.broadcast(room, events)
        if self.timing is not None:
            self.timing.flushed(code, room.revision, frames, written)

    def broadcast(self, room: Room, events: list[JSON]) -> tuple[int, int]:
        """Send every connection of ``room`` the new events and the view it may see now (a
        connection welcomed at this revision already has it); returns the number of frames
        sent or queued, and of those written at once. An update's ``seq`` is the room's
        revision; a client holding an older one takes it as every revision up to ``seq``
        (see :meth:`publish`). A connection that asked for deltas gets a JSON Patch from the
        view it was sent last (:mod:`raceday.web.delta`): the public part is built, encoded
        and diffed once for the room (once per view it starts from), only ``me`` once per
        seat; the whole view where a patch would not be smaller. Views are kept as they were
        sent, encoded member by member (:class:`Encoded`), so a member that did not change
        costs one comparison."""
        seq = room.revision
        split = _split(room)
        shared = Encoded.of(split[0]()) if split is not None else None
        parts: dict[Actor, tuple[Encoded, str | None]] = {}  # each actor's (public, me)
        texts: dict[Actor, str] = {}  # each actor's whole view, encoded
        patches: dict[tuple[int, int], str | None] = {}  # (old, new) public part → ops
        conns = list(self.conns.get(room.code, ()))
        sent_before = [conn.public for conn in conns]  # alive while their ids key patches
        events_text = jsontext.dumps(events)

        def whole(actor: Actor, public: Encoded, own: str | None) -> str:
            if actor not in texts:
                texts[actor] = _with_me(public.text(), own)
            return texts[actor]

        queued = written = 0
        for conn in conns:
            if conn.seq >= seq:
                continue
            queued += 1
            if conn.actor not in parts:
                parts[conn.actor] = (
                    (shared, _own_text(split[1](conn.actor)))
                    if shared is not None and split is not None
                    else (Encoded.of(room.logic.view(conn.actor)), None))
            public, own = parts[conn.actor]
            text = None
            if conn.delta and conn.public is not None:
                key = (id(conn.public), id(public))
                if key not in patches:
                    patch = conn.public.patch_to(public)
                    # the inside of a JSON array; None: the whole view goes
                    patches[key] = None if patch is None else jsontext.dumps(patch)[1:-1]
                ops = patches[key]
                if ops is not None:
                    mine = _me_ops(conn.me, own)
                    ops = f"{ops},{mine}" if ops and mine else ops or mine
                    if len(ops) < DELTA_FULL or len(ops) < len(whole(conn.actor, public, own)):
                        text = (f'{{"type": "update", "seq": {seq}, "base": {conn.seq},'
                                f'"events":{events_text},"patch":[{ops}]}}')
            if text is None:
                text = (f'{{"type": "update", "seq": {seq}, "events": {events_text}, '
                        f'"view": {whole(conn.actor, public, own)}}}')
            conn.seq, conn.public, conn.me = seq, public, own
            written += self.send(conn, text)
        del sent_before
        return queued, written

    def welcome(self, room: Room, conn: Conn) -> str:
        """The whole view ``conn`` may see now, encoded; remembered as the view its first
        patch starts from."""
        split = _split(room)
        if split is None:
            view = Encoded.of(room.logic.view(conn.actor))
            conn.seq, conn.public, conn.me = room.revision, view, None
            return view.text()
        public, own = Encoded.of(split[0]()), _own_text(split[1](conn.actor))
        conn.seq, conn.public, conn.me = room.revision, public, own
        return _with_me(public.text(), own)


class Encoded:
    """A view as it was sent: the JSON text of each member (a view that is not an object
    is kept whole). The next patch compares texts member by member and reads back only the
    members that changed (:func:`raceday.web.delta.diff_members`); keeping text also keeps
    the view as it was, whatever the game's state later changes in place."""

    __slots__ = ("_text", "members")

    def __init__(self, members: dict[str, str] | None, text: str | None = None) -> None:
        self.members = members
        self._text = text

    @classmethod
    def of(cls, view: Any) -> Encoded:
        if isinstance(view, dict) and all(type(key) is str for key in view):
            return cls({key: jsontext.dumps(value) for key, value in view.items()})
        return cls(None, jsontext.dumps(view))

    def text(self) -> str:
        """The whole view, encoded."""
        if self._text is None:
            assert self.members is not None
            self._text = "{" + ",".join(f"{jsontext.dumps(key)}:{value}"
                                        for key, value in self.members.items()) + "}"
        return self._text

    def patch_to(self, new: Encoded) -> list[JSON] | None:
        """The JSON Patch from this view to ``new``; None where one of them is not an
        object (then the whole view goes)."""
        if self.members is None or new.members is None:
            return None
        return diff_members(self.members, new.members)


DELTA_FULL = 1024  # a patch shorter than this is sent without encoding the whole view
UNWRITABLE_RETRY = 30  # seconds a 503 for a database that cannot be written says to wait


def _split(room: Room) -> tuple[Any, Any] | None:
    """The room's (public_view, private_view), if its logic splits its views so (the view
    of an actor is then the public one with ``me``: the private one, unless None)."""
    public = getattr(room.logic, "public_view", None)
    private = getattr(room.logic, "private_view", None)
    return None if public is None or private is None else (public, private)


def _own_text(own: Any) -> str | None:
    """The private part of a view (``me``) encoded; None if there is none."""
    return None if own is None else jsontext.dumps(own)


def _with_me(public: str, own: str | None) -> str:
    """An encoded public view with the encoded private part added as ``me``."""
    if own is None:
        return public
    return f'{public[:-1]}{"," if public != "{}" else ""}"me":{own}}}'


def _me_ops(old: str | None, new: str | None) -> str:
    """The ops turning the encoded private part ``old`` into ``new``, under ``/me``,
    encoded as the inside of a JSON array."""
    if old == new:
        return ""
    if old is None:
        return f'{{"op":"add","path":"/me","value":{new}}}'
    if new is None:
        return '{"op":"remove","path":"/me"}'
    ops = diff(jsontext.loads(old), jsontext.loads(new))
    for op in ops:
        op["path"] = "/me" + op["path"]
    return jsontext.dumps(ops)[1:-1]


def _error(status: int, message: str | Message, headers: dict[str, str] | None = None,
           words: Message | None = None) -> JSONResponse:
    """A refusal: ``{"error": text, "words": ...}``: the English text and ``words``, the same
    as a message key and its parameters for the page to word in its reader's language (a
    Message ``message`` is both)."""
    if isinstance(message, Message):
        words = message
        message = render(message, "en")
    body: JSON = {"error": message}
    if words is not None:
        body["words"] = words.to_json()
    return JSONResponse(body, status_code=status, headers=headers)


def _refused(status: int, exc: RacedayError) -> JSONResponse:
    """``exc`` refused with ``status``; a write the database refused is 503 whatever the
    route's status for a refusal (the server's trouble, not the request's: try later)."""
    if isinstance(exc, StoreUnavailable):
        return _error(503, str(exc), {"Retry-After": str(UNWRITABLE_RETRY)}, exc.message)
    return _error(status, str(exc), words=exc.message)


def _too_many(bucket: Bucket) -> JSONResponse:
    return _error(429, TOO_MANY, {"Retry-After": retry_after(bucket)})


# --- the JSON API's bodies and answers (served as /openapi.json) ------------------------
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateRoom(_Body):
    """A new room."""

    game: str = Field("derby", max_length=40,
                      description="a game with a browser room (GET /api/games lists them)")
    options: dict[str, Any] = Field(
        default_factory=dict, max_length=64,
        description="the game's options (free-form; the game checks them and names any it "
                    "does not know)")


class JoinRoom(_Body):
    """A player takes a seat."""

    name: str = Field(max_length=10 * MAX_NAME,
                      description=f"1 to {MAX_NAME} printable characters, unique in the room")


class ErrorAnswer(BaseModel):
    """Every refusal: one line of English, and the same in words (a message key of the
    tables at /api/messages/<lang> and its parameters) for a page to show in its reader's
    language."""

    error: str
    words: dict[str, Any] | None = None


class RoomCreated(BaseModel):
    code: str
    game: str
    host_token: str = Field(description="the host's secret; only this answer carries it")
    join_url: str
    watch_url: str
    host_url: str


class Joined(BaseModel):
    code: str
    seat: int
    token: str = Field(description="this seat's secret; only this answer carries it")
    name: str


class RoomInfo(BaseModel):
    code: str
    game: str
    phase: str | None
    seats: list[str]
    max_seats: int
    finished: bool
    seq: int
    join_url: str
    watch_url: str


def _refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorAnswer} for status in statuses}


def _one_line(errors: Sequence[Any]) -> tuple[str, Message]:
    """pydantic's validation errors as one line for ``{"error": ...}`` (pydantic's own
    English, which names the rule broken) and as words for the pages (by the kind of error:
    a missing field, a text too long, a value of the wrong type, anything else)."""
    unknown = sorted(str(e["loc"][-1]) for e in errors if e.get("type") == "extra_forbidden")
    if unknown:
        return (f"unknown field(s): {', '.join(unknown)}"[:200],
                Message("refusal.unknown_fields", {"names": ", ".join(unknown)[:160]}))
    if not errors:
        return "the request is malformed", Message("refusal.malformed")
    first = errors[0]
    where = [str(p) for p in first.get("loc", ()) if p not in ("body", "path", "query")]
    kind = str(first.get("type", ""))
    if kind == "missing" and not where:
        return "the request needs a JSON body", Message("refusal.body_needed")
    message = str(first.get("msg", "invalid")).replace("\n", " ").removeprefix("Value error, ")
    field = ".".join(where)[:80]
    limit = (first.get("ctx") or {}).get("max_length")
    if not where:
        words = Message("refusal.malformed")
    elif kind == "missing":
        words = Message("refusal.field_missing", {"field": field})
    elif kind in ("string_too_long", "too_long") and limit is not None:
        words = Message("refusal.field_long", {"field": field, "max": limit})
    elif kind.endswith(("_type", "_parsing")):
        words = Message("refusal.field_type", {"field": field})
    else:
        words = Message("refusal.field_invalid", {"field": field})
    return (f"{field}: {message}" if where else message)[:200], words


def _link(spec: dict[str, Any]) -> None:
    """OpenAPI links: a created room's code leads to its page data, QR and join, and a
    join's code to the room (so a client, or Schemathesis's stateful run, can follow them)."""
    paths = spec.get("paths", {})

    def operation(path: str, method: str) -> str | None:
        found = paths.get(path, {}).get(method, {}).get("operationId")
        return None if found is None else str(found)

    by_code = {"code": "$response.body#/code"}
    follow = {name: {"operationId": op, "parameters": by_code} for name, op in (
        ("GetRoom", operation("/api/rooms/{code}", "get")),
        ("RoomQR", operation("/api/rooms/{code}/qr.svg", "get")),
        ("JoinRoom", operation("/api/rooms/{code}/join", "post"))) if op is not None}
    for path, method, names in (("/api/rooms", "post", ("GetRoom", "RoomQR", "JoinRoom")),
                                ("/api/rooms/{code}/join", "post", ("GetRoom",))):
        answer = paths.get(path, {}).get(method, {}).get("responses", {}).get("201")
        if answer is not None:
            answer["links"] = {n: follow[n] for n in names if n in follow}


def _serve_game_page(app: FastAPI, game: str) -> None:
    """Serve ``/<game>`` from the shared shell if the game's package declares a page."""
    static = asset_folder(game, "static")
    declared = None if static is None else game_page(game, static)
    if declared is not None:
        page = declared

        async def game_page_route() -> HTMLResponse:
            return page.response()

        app.add_api_route(f"/{game}", game_page_route, methods=["GET"],
                          include_in_schema=False)


def create_app(db_path: str | Path, *, public_url: str | None = None,
               allowed_origins: Iterable[str] | str | None = None,
               trusted_proxies: Iterable[str] | str | None = None,
               burst: float = 20, rate: float = 10, rest_burst: float = 60,
               rest_rate: float = 1, lookup_burst: float = 200, lookup_rate: float = 2,
               create_burst: float = 10, create_rate: float = 0.05, max_sockets: int = 100,
               handshake_burst: float = HANDSHAKE_BURST, handshake_rate: float = HANDSHAKE_RATE,
               flood_pause: float = FLOOD_PAUSE, clock: Callable[[], float] = time.monotonic,
               idle_close: float | None = IDLE_CLOSE_HOURS,
               timing: str | Path | None = None, resume_after: float = 5.0,
               shard: Shard | None = None, max_rooms: int = MAX_ROOMS,
               rooms_per_address: int = ROOMS_PER_ADDRESS,
               seats_per_address: int = SEATS_PER_ADDRESS,
               reclaim_after: float = RECLAIM_AFTER,
               campaigns_per_address: int = 20, max_campaigns: int = 500,
               heavy: HeavyLimits | None = None) -> FastAPI:
    """The party server on the database ``db_path`` (the CLI's session database).

    ``public_url`` (such as ``http://192.168.1.20:8000/``) is the address phones use, for
    join links and QR codes; by default the address the host's browser used. Its origin may
    change state and open WebSockets, as may the server's own origin and every origin of
    ``allowed_origins`` (a list, or one comma-separated string, of ``scheme://host[:port]``).
    ``trusted_proxies`` (addresses or networks; none by default) are the reverse proxies
    whose ``X-Forwarded-For`` names the client for rate limits. ``burst`` and ``rate`` set
    each WebSocket's allowance of intents; ``rest_*`` each client address's allowance of
    REST calls (creating rooms, joining); ``create_*`` each address's own, smaller
    allowance of new rooms (a few a minute); ``lookup_*`` each address's allowance of room
    lookups (a room's page data or QR, joins, replays, WebSockets naming an unknown room: a
    hit costs one, a miss :data:`MISS_COST`); ``max_sockets`` the WebSockets one address
    may hold open at once; ``handshake_*`` how many it may open at once and then a second
    (a socket closed for flooding costs its address :data:`FLOOD_PENALTY` of them);
    ``flood_pause`` how long a socket over its allowance waits before its next message is
    read (:data:`FLOOD_PAUSE`; 0 in tests that flood on a frozen clock). The
    defaults let twelve phones behind one router (one address) load, join and reconnect at
    once, and refuse a script's flood (429). ``clock`` (seconds,
    ``time.monotonic`` by default) refills every allowance (and times the idle close);
    tests freeze it. ``timing`` (a
    file) turns on the server-side timing of intents (:class:`Timing`; benchmarks only). A
    race saved mid-way goes on by itself ``resume_after`` seconds after the server starts
    (time for the screens to reconnect: they try again at most every 3 s), and its frames
    carry ``resume_in`` meanwhile (:meth:`Hub.resume_field`). The rooms are loaded once the
    server answers, the last played first, and any room at once when it is asked for
    (``Rooms(lazy=True)``); a database that cannot be written is refused here.
    ``shard`` makes this process one of several behind a proxy (:mod:`raceday.web.shards`):
    it loads, creates and serves only that shard's rooms and answers 421 for the others'.
    A room with no play and no open connection for ``idle_close`` hours (by ``clock``) is
    closed (:mod:`raceday.web.lifecycle`); None keeps every room open.
    Every route that stores something new (a room, a WielerSIM campaign or watch room, a
    Numbers job) takes from the one ``create_*`` allowance of its client address
    (``app.state.creation_refusal(request)``). At most ``max_rooms`` rooms are kept,
    ``rooms_per_address`` of them made by one address (checked first), and one address
    takes at most ``seats_per_address`` seats of one lobby; a room nobody joined or has
    open for ``reclaim_after`` seconds gives way to a newcomer a cap would refuse
    (:class:`~raceday.web.rooms.Rooms`). WielerSIM keeps at most ``max_campaigns``
    campaigns, ``campaigns_per_address`` of them made by one address.
    ``heavy`` sizes the pool, the shares, the allowance and the cache of heavy work (print
    pages, PDFs, race films, replays: :mod:`raceday.web.heavy`).
    A bad origin or network is a ValueError.
    """
    origins = Origins(public_url, allowed_origins)
    trusted = parse_networks(trusted_proxies)
    redact.install()  # no key or private intent in any log line, at any level
    # a bad or read-only database is refused here, before serving anything; the rooms
    # themselves are loaded once the server answers (lifespan) or when first asked for
    rooms = Rooms(db_path, shard, lazy=True, max_rooms=max_rooms,
                  rooms_per_address=rooms_per_address,
                  seats_per_address=seats_per_address, reclaim_after=reclaim_after,
                  clock=clock)
    hub = Hub()
    rooms.busy = lambda code: bool(hub.conns.get(code)) or code in hub.timers

    def forget(code: str) -> None:  # a room given way to a newcomer: nothing of it kept
        hub.locks.pop(code, None)
        hub.conns.pop(code, None)

    rooms.forget = forget
    if timing is not None:
        hub.timing = Timing(timing)
    rest = Limiter(rest_burst, rest_rate, clock=clock)
    creates = Limiter(create_burst, create_rate, clock=clock)
    lookups = Limiter(lookup_burst, lookup_rate, clock=clock)
    handshakes = Limiter(handshake_burst, handshake_rate, clock=clock)
    heavy_work = Heavy(heavy, clock=clock, trusted=trusted)
    if idle_close is not None and not 0 < idle_close < float("inf"):
        raise ValueError(f"idle_close must be a number of hours above 0, got {idle_close!r}")
    idle = None if idle_close is None else IdleCloser(rooms, hub, idle_close * 3600, clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # races saved mid-way go on by themselves, once the screens have had time to
        # reconnect after the restart (their frames say when meanwhile)
        loop = asyncio.get_running_loop()
        resume_at = loop.time() + resume_after

        def resume(room: Room) -> None:
            if rooms.rooms.get(room.code) is room and room.code not in hub.timers:
                hub.schedule(rooms, room, at_least=resume_at - loop.time())

        def loaded(room: Room) -> None:  # Rooms.on_load: maybe from a worker thread
            try:
                here = asyncio.get_running_loop() is loop
            except RuntimeError:
                here = False
            if here:
                resume(room)
            else:
                loop.call_soon_threadsafe(resume, room)

        for room in list(rooms.rooms.values()):  # those loaded before the start
            resume(room)
        rooms.on_load = loaded
        loading = asyncio.create_task(_load_rooms(rooms, app))
        sweeping = None if idle is None else asyncio.create_task(idle.run())
        yield
        for task in (loading, sweeping):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        hub.stop_timers()
        app.state.stop_report = await _save_rooms(rooms, hub)
        if hub.timing is not None:
            hub.timing.flush()
        heavy_work.close()

    app = FastAPI(title="raceday party", version=__version__, docs_url=None, redoc_url=None,
                  lifespan=lifespan,
                  openapi_url="/openapi.json",
                  description="The JSON API of the raceday party server. Every refusal is "
                              '{"error": "one line"} with a 4xx status.')
    if shard is not None:  # innermost: a misrouted room is refused before any route
        app.add_middleware(ShardGuard, shard=shard)
    app.add_middleware(Guard, origins=origins, routes=app.router)
    app.add_middleware(SocketCap, most=max_sockets, trusted=trusted, handshakes=handshakes)
    app.add_middleware(SecureHeaders, hsts=is_https(public_url))
    app.add_middleware(KeepSend)  # outermost: a socket's frames skip no wrapper of ours
    app.state.rooms = rooms
    app.state.hub = hub
    # on_loaded(rooms, seconds): called once every room is loaded (raceday serve says so);
    # stop_report: what the stop stored (StopReport), set when the server has stopped
    app.state.on_loaded = None
    app.state.stop_report = None
    app.state.max_sockets = max_sockets  # the open files it needs: raceday serve checks
    app.state.idle = idle  # the idle sweep (None when rooms never close)
    app.state.origins = origins
    app.state.trusted_proxies = trusted
    app.state.lookups = lookups  # the replay of a room by its code is a lookup too
    app.state.creates = creates  # one allowance of new stored things per client address
    app.state.campaigns_per_address = campaigns_per_address
    app.state.max_campaigns = max_campaigns
    app.state.heavy = heavy_work  # PDFs, race films, replays (raceday.web.heavy)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for game in game_packages():  # each game's browser assets: /games/<game>/static/...
        assets = asset_folder(game, "static")
        if assets is not None:
            app.mount(f"/games/{game}/static", StaticFiles(directory=assets),
                      name=f"{game}-static")
    app.include_router(print_pages.router)  # the Print page (raceday.web.print_pages)
    app.include_router(options_router)  # GET /api/games/{game}/options (JSON Schema)
    app.include_router(games.router)  # GET /api/games: the games found, for the pages
    for extra in (replay.router, numbers.router,  # Replays, Numbers
                  messages.router):  # the message tables of the pages
        app.include_router(extra)
    for game in games_with("watch"):  # a game's own pages and their API (its watch face)
        pages = face(game, "watch")
        if pages is not None:
            app.include_router(pages.router)
    for game in game_packages():  # a game's page of its own, declared by static/page.json
        _serve_game_page(app, game)

    def openapi() -> dict[str, Any]:
        """FastAPI's description with this server's refusals: 400 ``{"error"}`` instead of
        422, and a JSON-object body on the routes that read theirs by hand."""
        if app.openapi_schema is None:
            spec = get_openapi(title=app.title, version=app.version,
                               description=app.description, routes=app.routes)
            error = {"description": "Refused", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/ErrorAnswer"}}}}
            for item in spec.get("paths", {}).values():
                for method, operation in item.items():
                    answers = operation.setdefault("responses", {})
                    if answers.pop("422", None) is not None:
                        answers.setdefault("400", error)
                    if method in ("post", "put", "patch") and "requestBody" not in operation:
                        operation["requestBody"] = {"required": True, "content": {
                            "application/json": {"schema": {"type": "object"}}}}
            _link(spec)
            schemas = spec.setdefault("components", {}).setdefault("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                schemas.pop(unused, None)
            schemas["ErrorAnswer"] = ErrorAnswer.model_json_schema()
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(sqlite3.Error)
    async def database_error(request: Request, exc: sqlite3.Error) -> JSONResponse:
        """A database error no route turned into a refusal: 503 in one line, not a 500
        with a traceback (the rooms' writes are refused as StoreUnavailable already)."""
        log.warning("%s %s: database error: %s", request.method, request.url.path, exc)
        return _error(503, Message("refusal.store_unwritable"),
                      {"Retry-After": str(UNWRITABLE_RETRY)})

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        text, words = _one_line(exc.errors())
        return _error(400, text, words=words)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and _wants_page(request):  # a person's typo: a page
            return PAGES["notfound"].response(status_code=404)
        words = Message({404: "refusal.not_found", 405: "refusal.method"}.get(
            exc.status_code, "refusal.http"), {"status": exc.status_code})
        headers = dict(exc.headers) if exc.headers else None
        if exc.status_code == 405:  # every method of the path, not the first route's only
            headers = {**(headers or {}), **_allow(app.router.routes, request.scope)}
        return _error(exc.status_code, words, headers)

    def base_url(request: Request) -> str:
        base = public_url or str(request.base_url)
        return base if base.endswith("/") else base + "/"

    def rest_refusal(request: Request, *limiters: Limiter) -> JSONResponse | None:
        """429 if one of ``limiters`` (the REST allowance, then maybe the creation one) has
        no token for this address; else take one from each."""
        key = client_key(request.scope, trusted)
        buckets = [limiter.bucket(key) for limiter in (rest, *limiters)]
        for bucket in buckets:
            if not bucket.ready():
                return _too_many(bucket)
        for bucket in buckets:
            bucket.take()
        return None

    def creation_refusal(request: Request) -> JSONResponse | None:
        """429 unless this address may make one more stored thing now (a room, a campaign,
        a job): the REST allowance and the one creation allowance; takes from both."""
        return rest_refusal(request, creates)

    app.state.creation_refusal = creation_refusal
    app.state.client_of = lambda scope: client_key(scope, trusted)  # for the games' routers

    def seat_owner(request: Request) -> str | None:
        """The client address a joining phone's seat counts for (None: the server's own
        machine, a loopback address, which takes as many seats as it likes)."""
        key = client_key(request.scope, trusted)
        try:
            loopback = key == "::/64" or ipaddress.ip_network(key, strict=False).is_loopback
        except ValueError:
            return key
        return None if loopback else key

    def lookup_bucket(scope: Any) -> Bucket:
        return lookups.bucket(client_key(scope, trusted))

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return PAGES["index"].response()

    @app.get("/host/{code}", include_in_schema=False)
    async def host_page(code: str) -> HTMLResponse:
        return PAGES["host"].response()

    @app.get("/watch/{code}", include_in_schema=False)
    async def watch_page(code: str) -> HTMLResponse:
        return PAGES["host"].response()

    @app.get("/play/{code}", include_in_schema=False)
    async def play_page(code: str) -> HTMLResponse:
        return PAGES["play"].response()

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "img" / "favicon.svg", media_type="image/svg+xml")

    @app.post("/api/rooms", status_code=201, response_class=JSONResponse,
              responses={201: {"model": RoomCreated},
                         **_refusals(400, 403, 409, 413, 415, 429)})
    async def create_room(body: CreateRoom, request: Request) -> JSONResponse:
        """Create a room; the answer carries the host's token."""
        refused = creation_refusal(request)
        if refused is not None:
            return refused
        try:
            room, token = rooms.create(body.game, body.options,
                                       owner=client_key(request.scope, trusted))
        except RoomsFull as exc:
            return _refused(exc.status, exc)
        except RacedayError as exc:
            return _refused(400, exc)
        base = base_url(request)
        return JSONResponse({"code": room.code, "game": room.game, "host_token": token,
                             "join_url": f"{base}play/{room.code}",
                             "watch_url": f"{base}watch/{room.code}",
                             "host_url": f"{base}host/{room.code}"}, status_code=201,
                            headers=NO_STORE)

    @app.post("/api/rooms/{code}/join", status_code=201, response_class=JSONResponse,
              responses={201: {"model": Joined}, **_refusals(400, 403, 404, 409, 413, 415,
                                                             429)})
    async def join_room(code: str, body: JoinRoom, request: Request) -> JSONResponse:
        """Take a seat in a room's lobby; the answer carries the seat's token."""
        lookup = lookup_bucket(request.scope)
        if not lookup.ready():
            return _too_many(lookup)
        refused = rest_refusal(request)
        if refused is not None:
            return refused
        try:
            name = clean_name(body.name)
        except RacedayError as exc:
            return _refused(400, exc)
        try:
            async with hub.lock(normal_code(code)):
                room, seat, token, event = rooms.join(code, name, seat_owner(request))
                hub.publish(room, [event])
                hub.schedule(rooms, room)
        except NoSuchRoom as exc:
            lookup.charge(MISS_COST)
            return _refused(404, exc)
        except RoomsFull as exc:
            lookup.charge(1)
            return _refused(exc.status, exc)
        except RacedayError as exc:
            lookup.charge(1)
            return _refused(409, exc)
        lookup.charge(1)
        return JSONResponse({"code": room.code, "seat": seat, "token": token, "name": name},
                            status_code=201, headers=NO_STORE)

    def find(code: str, lookup: Bucket) -> Room | JSONResponse:
        """The room named ``code``, charging ``lookup`` for the look (or a refusal)."""
        if not lookup.ready():
            return _too_many(lookup)
        try:
            room = rooms.get(code)
        except RacedayError as exc:
            lookup.charge(MISS_COST)
            return _refused(404, exc)
        lookup.charge(1)
        return room

    @app.get("/api/rooms/{code}", response_class=JSONResponse,
             responses={200: {"model": RoomInfo}, **_refusals(404, 429)})
    async def room_info(code: str, request: Request) -> JSONResponse:
        """A room's game, phase and seats (no secrets)."""
        room = find(code, lookup_bucket(request.scope))
        if isinstance(room, JSONResponse):
            return room
        async with hub.lock(room.code):
            view = room.logic.view(Actor.spectator())
        base = base_url(request)
        return JSONResponse({
            "code": room.code, "game": room.game, "phase": view.get("phase"),
            "seats": room.logic.seat_names(), "max_seats": type(room.logic).max_seats,
            "finished": room.logic.finished(), "seq": room.revision,
            "join_url": f"{base}play/{room.code}", "watch_url": f"{base}watch/{room.code}",
        })

    @app.get("/api/rooms/{code}/qr.svg", response_class=Response,
             responses={200: {"content": {"image/svg+xml": {}}}, **_refusals(404, 429)})
    async def room_qr(code: str, request: Request) -> Response:
        """The QR code of the room's join link."""
        import segno

        room = find(code, lookup_bucket(request.scope))
        if isinstance(room, JSONResponse):
            return room
        buf = io.BytesIO()
        segno.make(f"{base_url(request)}play/{room.code}", error="m").save(
            buf, kind="svg", scale=8, border=2, dark="#000000", light="#ffffff",
            title=f"Join room {room.code}")
        return Response(buf.getvalue(), media_type="image/svg+xml")

    @app.websocket("/ws/{code}")
    async def socket(ws: WebSocket, code: str) -> None:
        lookup = lookup_bucket(ws.scope)
        await ws.accept()
        if not lookup.ready():  # known rooms cost nothing, but not while in debt
            await ws.send_json(_err(None, TOO_MANY))
            await ws.close(4429)
            return
        try:
            room = rooms.get(normal_code(code))
        except RacedayError as exc:
            lookup.charge(MISS_COST)
            await ws.send_json(_err(None, exc, fatal=True))
            await ws.close(4404)
            return
        try:
            hello = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
        except (TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
            with contextlib.suppress(Exception):
                await ws.close(4408)
            return
        actor, since, problem, delta = _hello(room, hello)
        if actor is None:
            assert problem is not None
            await ws.send_json(_err(None, problem, fatal=True))
            await ws.close(4401)
            return
        conn = Conn(ws, actor, delta=delta, write=ws.scope.get(eager.SEND_KEY), code=room.code)
        async with hub.lock(room.code):  # the welcome and the first update stay in order
            view = hub.welcome(room, conn)  # a delta client's first patch starts from it
            catchup = rooms.store.events_since(room.code, since) if since >= 0 else []
            conn.outbox.put_nowait(
                f'{{"type": "welcome", "code": "{room.code}", "game": "{room.game}", '
                f'"role": {json.dumps(actor.to_json())}, "seq": {room.revision}, '
                f'"catchup": {json.dumps(catchup)}, "view": {view}'
                f'{hub.resume_field(room.code)}}}')
            hub.add(room.code, conn)  # a seat's older connection is told and closed
        sender = asyncio.create_task(_sender(conn, hub.timing))
        bucket = Bucket(burst, rate, clock)
        # refused messages before it is closed, refilled ten times slower than the
        # allowance: a socket that floods at any pace runs out
        strikes = Bucket(FLOOD, rate / 10, clock)
        slowed = False  # told to slow down, and not calm since
        ending: tuple[int, str | None] = (1000, None)
        try:
            while not conn.dropped and conn.close_code is None:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect" or conn.close_code is not None:
                    break
                # The allowance first: a refused message is neither decoded nor read, and
                # only the first of a flood is answered (slow down) until the socket has
                # been calm (its allowance full again); one that keeps flooding is closed
                # and its address's next handshakes wait (SocketCap).
                if slowed and bucket.idle():
                    slowed = False
                if not bucket.take():
                    if not strikes.take():
                        handshakes.bucket(client_key(ws.scope, trusted)).empty(FLOOD_PENALTY)
                        ending = (4429, render(FLOODED, "en"))
                        break
                    if not slowed:
                        slowed = True
                        hub.send(conn, _err(None, SLOW_DOWN))
                    if flood_pause > 0:
                        await asyncio.sleep(flood_pause)
                    continue
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    if len(data) > MAX_MESSAGE:
                        hub.send(conn, _err(None, Message("refusal.message_large",
                                                          {"max": MAX_MESSAGE})))
                        continue
                    try:
                        text = data.decode("utf-8")
                    except UnicodeDecodeError:
                        hub.send(conn, _err(None, Message("refusal.message_text")))
                        continue
                await _receive(rooms, hub, room, conn, text)
        except WebSocketDisconnect:
            pass
        finally:
            hub.remove(room.code, conn)
            conn.broken = True  # what is queued still goes; nothing is written at once
            if not conn.outbox.full():
                conn.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 2)
            sender.cancel()
            with contextlib.suppress(Exception):
                await ws.close(*ending)

    return app


def _allow(routes: Iterable[Any], scope: Any) -> dict[str, str]:
    """A 405's ``Allow``: every method the route that matched this path has a sibling for
    (the same path parameters: ``/api/numbers/games`` is not a job's id); none found
    (files): nothing, the refusal's own stays."""
    from starlette.routing import Match, Mount

    def flat(items: Iterable[Any]) -> Iterable[Any]:  # an included router's own routes
        for item in items:
            inner = getattr(item, "original_router", None)
            yield from flat(inner.routes) if inner is not None else (item,)

    routes = [route for route in flat(routes) if not isinstance(route, Mount)]
    found = [child.get("path_params") for match, child in (r.matches(scope) for r in routes)
             if match is not Match.NONE]
    methods = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        for route in routes:
            match, child = route.matches({**scope, "method": method})
            if match is Match.FULL:
                if found and child.get("path_params") == found[0]:
                    methods.append(method)
                break
    return {"Allow": ", ".join(methods)} if methods else {}


@dataclass(frozen=True)
class StopReport:
    """What a stopping server stored: of its ``rooms`` (loaded or not), the ``failed`` ones
    whose snapshot the database refused, and the ``refused`` writes (intents, new rooms)
    while it ran. A room not saved at the stop still has every accepted intent in its log;
    ``raceday serve``'s last line says which of the two it was, never "saved" for both."""

    rooms: int
    failed: int
    refused: int


async def _load_rooms(rooms: Rooms, app: FastAPI) -> None:
    """Load every room still waiting (:meth:`Rooms.load_next`), the last played first, one
    at a time on the event loop with a turn for everything else between two (one room
    takes a few milliseconds: a request waits no longer than that); then call
    ``app.state.on_loaded(rooms, seconds)`` if it is set."""
    started = time.monotonic()
    try:
        while rooms.load_next():
            await asyncio.sleep(0)
    except Exception:  # a database that cannot be read now: each room loads when asked for
        log.exception("loading the rooms in the background stopped (%d still to load)",
                      len(rooms.waiting))
        return
    done = app.state.on_loaded
    if done is not None:
        done(rooms.count(), time.monotonic() - started)


async def _save_rooms(rooms: Rooms, hub: Hub) -> StopReport:
    """Store the snapshot of every loaded room (each under its lock: no intent
    half-applied; the rooms never loaded are in the file as they were); a room the
    database refuses is counted, and the first refusal logged with how many followed."""
    refused = rooms.store.write_failures  # before the stop's own
    failed: list[str] = []
    first = ""
    for room in list(rooms.rooms.values()):
        async with hub.lock(room.code):
            try:
                rooms.store.save_snapshot(room)
            except (SaveFormatError, sqlite3.Error) as exc:  # its log still has it all
                failed.append(room.code)
                first = first or f"room {room.code}: {exc}"
    if failed:
        log.warning("%d room(s) not saved at the stop (%s); their accepted intents are in "
                    "the log", len(failed), first)
    return StopReport(rooms.count(), len(failed), refused)


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, a file, or a program wanting JSON)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/", "/static/", "/games/")) or path == "/openapi.json":
        return False
    return "text/html" in request.headers.get("accept", "")


def _err(ref: Any, message: Message | RacedayError, fatal: bool = False) -> JSON:
    """An error frame: the English text, and the words of the refusal (see _error)."""
    words = message if isinstance(message, Message) else message.message
    text = render(message, "en") if isinstance(message, Message) else str(message)
    out: JSON = {"type": "error", "ref": ref, "message": text}
    if words is not None:
        out["words"] = words.to_json()
    if fatal:
        out["fatal"] = True
    return out


def _hello(room: Room, text: str) -> tuple[Actor | None, int, Message | None, bool]:
    """Who says hello: (actor, since, problem in words, whether it wants deltas)."""
    if len(text) > MAX_MESSAGE:
        return None, -1, Message("refusal.message_large", {"max": MAX_MESSAGE}), False
    try:
        data = loads(text, what="first_message")
    except BadJSON as exc:
        return None, -1, Message("refusal.hello_json", {"problem": exc.message}), False
    if not isinstance(data, dict) or data.get("type") != "hello":
        return None, -1, Message("refusal.hello_first"), False
    since = data.get("since", -1)
    if isinstance(since, bool) or not isinstance(since, int):
        since = -1
    delta = data.get("delta") is True
    token = data.get("token")
    if token is None:
        return Actor.spectator(), since, None, delta
    actor = room.actor_for(token)
    if actor is None:
        return None, -1, Message("refusal.not_a_seat", {"code": room.code}), False
    return actor, since, None, delta


async def _receive(rooms: Rooms, hub: Hub, room: Room, conn: Conn, text: str) -> None:
    """Check one client message and apply it as an intent."""
    received = time.monotonic() if hub.timing is not None else 0.0
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        hub.send(conn, _err(None, Message("refusal.message_large", {"max": MAX_MESSAGE})))
        return
    try:
        data = loads(text, what="message")
    except BadJSON as exc:
        hub.send(conn, _err(None, exc))
        return
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        hub.send(conn, _err(None, Message("refusal.message_object")))
        return
    ref = data.pop("ref", None)
    if not (ref is None or (isinstance(ref, int) and not isinstance(ref, bool))
            or (isinstance(ref, str) and len(ref) <= 40)):
        ref = None
    if data["type"] == "ping":
        hub.send(conn, {"type": "pong", "ref": ref})
        return
    if data["type"] == "hello":
        hub.send(conn, _err(ref, Message("refusal.already_connected")))
        return
    if conn.actor.kind == "spectator":  # refused here, not behind the room's other intents
        hub.send(conn, _err(ref, Message("refusal.spectator")))
        return
    # The intent is applied in a task of its own that holds the room's lock until the update
    # is queued: a client leaving meanwhile cancels only its wait, never a half-done intent.
    task = asyncio.ensure_future(_apply(rooms, hub, room, conn, data, ref, received))
    hub.tasks.add(task)
    task.add_done_callback(hub.tasks.discard)
    await asyncio.shield(task)


async def _run(rooms: Rooms, room: Room, actor: Actor, intent: dict[str, Any]
               ) -> list[JSON]:
    """``rooms.apply``: in a worker thread if the room may think (a computer player may
    think for a second; the other rooms go on meanwhile), else here on the event loop: a
    cheap intent (a quarter of a millisecond) costs less than the hop to a thread and the
    hand-over of the GIL back, which under load was most of an intent's time (see
    :class:`raceday.rooms.protocol.RoomLogic`'s optional ``thinks``). A shard whose file
    another server process uses now (:class:`raceday.web.rooms.FileSharing`) uses the
    thread: a commit waiting for their write lock (SQLite's busy handler sleeps) must not
    stall every room of this one; a shard with a file of its own does not (two shards on
    two cores, 200 rooms: p95 106 -> 98 ms, its check + store + views p95 56 -> 28 ms)."""
    thinks = getattr(room.logic, "thinks", None)
    if (rooms.shard is not None and not rooms.sharing.alone()) or thinks is None \
            or thinks():
        return await asyncio.to_thread(rooms.apply, room, actor, intent)
    return rooms.apply(room, actor, intent)


async def _apply(rooms: Rooms, hub: Hub, room: Room, conn: Conn, data: dict[str, Any],
                 ref: Any, received: float) -> None:
    """Apply one checked intent (:func:`_run`) under the room's lock, then publish it."""
    async with hub.lock(room.code):
        try:
            events = await _run(rooms, room, conn.actor, data)
        except RacedayError as exc:
            hub.send(conn, _err(ref, exc))
            return
        except Exception:  # a bug: the room was put back as it was; say so, keep serving
            log.exception("intent %r in room %s failed", data.get("type"), room.code)
            hub.send(conn, _err(ref, Message("refusal.internal")))
            return
        hub.send(conn, {"type": "ack", "ref": ref, "seq": room.revision})
        hub.unseat(room, events)
        if hub.timing is not None:
            hub.timing.applied(room.code, room.revision, data["type"], received)
        hub.publish(room, events)
        hub.schedule(rooms, room)


async def _tick(rooms: Rooms, hub: Hub, room: Room, revision: int) -> None:
    """Play ``room``'s next paced step if the room is still where it was when the step was
    set (a host's skip or an undo meanwhile has set a newer one), then set the next."""
    async with hub.lock(room.code):
        if room.revision != revision or room.code in hub.timers:
            return
        try:
            events = await _run(rooms, room, Actor.timeline(), {"type": "tick"})
        except RacedayError as exc:  # the room moved on in a way the timer did not know
            log.info("room %s: paced step not played: %s", room.code, exc)
            return
        except Exception:
            log.exception("paced step in room %s failed", room.code)
            return
        hub.publish(room, events)
        hub.schedule(rooms, room)


async def _sender(conn: Conn, timing: Timing | None = None) -> None:
    """Write what is queued for ``conn``, in order, until its end (None) or a failed write."""
    while True:
        item = await conn.outbox.get()
        if item is None:
            if conn.close_code is not None or conn.dropped:
                with contextlib.suppress(Exception):
                    await conn.ws.close(conn.close_code or 4429)
            return
        conn.sending = True
        try:
            if isinstance(item, tuple):
                rest, text = item
                await rest.finish()
            else:
                text = item
                await (conn.write or conn.ws.send)({"type": "websocket.send", "text": text})
        except Exception:
            conn.broken = True
            return
        finally:
            conn.sending = False
        if timing is not None:
            timing.sent(conn.code, text)
