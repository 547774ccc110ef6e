"""The open connections of every room and the broadcast of their updates.

:class:`Hub` holds each room's connections (:class:`Conn`), its lock and its paced
timer; it applies intents and paced steps (:func:`run_intent`, :func:`tick`), queues
each room's next update (:meth:`Hub.publish`) and sends it to every connection with the
view that connection may see, whole or as a patch (:meth:`Hub.broadcast`). An optional
:class:`Observer` (benchmarks: :class:`raceday.web.timing.Timing`) is told when an intent
is applied, when its update is queued and when each of its frames is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from fastapi import WebSocket
from starlette.types import Send

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.rooms import JSON, Actor, RoomBase
from raceday.rooms.protocol import Paced, SplitViews, Thinks
from raceday.web import eager, jsontext
from raceday.web.delta import diff, diff_members
from raceday.web.eager import Unfinished
from raceday.web.rooms import Room, Rooms, removed_seat
from raceday.web.wire import Frame, Update, error_frame

log = logging.getLogger("raceday.web")
SEAT_TAKEN = Message("refusal.seat_taken")
SEAT_REMOVED = Message("refusal.seat_removed")
OUTBOX = 512  # messages queued for one slow connection before it is dropped
PRESENCE_GRACE = 8.0  # seconds a seat's phone is gone before the room hears it left
DELTA_FULL = 1024  # a patch shorter than this is sent without encoding the whole view

# what a connection's queue holds: a text to write, or (the rest of a write that waited,
# or None: write the text; the text; the revision of an update frame, -1 for any other),
# and None at its end
Queued = str | tuple[Unfinished | None, str, int]


class Observer(Protocol):
    """Told of each intent's way out (benchmarks: :class:`raceday.web.timing.Timing`);
    the hub calls it only when one is installed (``create_app(observer=...)``)."""

    def applied(self, code: str, seq: int, kind: str, received: float) -> None:
        """Intent ``seq`` of room ``code``, read at ``received``, is applied and stored."""

    def flushed(self, code: str, seq: int, frames: int, written: int) -> None:
        """The update of revision ``seq`` went to ``frames`` connections, ``written`` of
        them written at once."""

    def sent(self, code: str, seq: int) -> None:
        """One more frame of the update of revision ``seq`` that had to wait was written."""

    def flush(self) -> None:
        """The server stops."""


@dataclass(eq=False)
class Conn:
    """One open WebSocket: who it is, and its queue of messages to send.

    A frame is written at once (:mod:`raceday.web.eager`) when nothing is queued before it
    and the sender task holds none; else it joins the queue, which the sender task writes
    in order."""

    ws: WebSocket
    actor: Actor
    outbox: asyncio.Queue[Queued | None] = field(
        default_factory=lambda: asyncio.Queue(OUTBOX))
    write: Send | None = None  # the server's own ASGI send of the socket (None: queue all)
    code: str = ""  # its room (for the observer)
    sending: bool = False  # the sender task holds a frame: the next ones queue behind it
    broken: bool = False  # a write failed or the socket is over: nothing more is written
    dropped: bool = False
    close_code: int | None = None  # set when the server ends it (4409: seat taken)
    delta: bool = False  # it asked for patches ("delta": true in its hello)
    seq: int = -1  # the revision of the view it was sent last (welcome or update)
    public: Any = None  # that view's public part (the whole view if the game has no split)
    me: Any = None  # and its private part (``me``; None for the host and spectators)



class Hub:
    """The open connections of every room and the broadcast of updates."""

    presence_grace = PRESENCE_GRACE

    def __init__(self) -> None:
        self.conns: dict[str, set[Conn]] = {}
        self.seats: dict[tuple[str, Actor], Conn] = {}  # who holds the host and each seat
        self.observer: Observer | None = None  # benchmarks only
        self.locks: dict[str, asyncio.Lock] = {}
        self.tasks: set[asyncio.Future[None]] = set()  # intents being applied
        self.timers: dict[str, asyncio.TimerHandle] = {}  # each room's next paced step
        self.pending: dict[str, tuple[Room, list[JSON]]] = {}  # events of the next update
        # rooms whose race, saved mid-way, waits after a restart: code -> the loop's time
        # of its next paced step (their frames say so: :meth:`resume_in`)
        self.resuming: dict[str, float] = {}
        self.presence_timers: dict[str, asyncio.TimerHandle] = {}  # a seat's phone left

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
            self.send(old, error_frame(None, SEAT_TAKEN, True, "replaced"))
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
                self.send(conn, error_frame(None, SEAT_REMOVED, True, "removed"))
                self.end(conn, 4403)
                continue
            else:
                conn.actor = Actor.player(seat - 1)
            if conn.actor.kind == "seat":
                self.seats[(code, conn.actor)] = conn

    def presence_news(self, room: Room, leaving: bool = True) -> list[JSON]:
        """The ``presence`` intents that bring the room's word of which seats have a phone
        connected in line with the connections here (only a seat without one may be given
        to a computer: :meth:`raceday.rooms.base.RoomBase.stand_in_view`); those of seats
        that left only if ``leaving``."""
        logic = room.logic
        if not isinstance(logic, RoomBase) or logic.state is None or logic.finished():
            return []  # in the lobby a phone may join before it connects: not news
        here = {conn.actor.seat for conn in self.conns.get(room.code, ())
                if conn.actor.kind == "seat" and conn.actor.seat is not None}
        told = logic.present_seats()
        return [{"type": "presence", "seat": seat, "present": seat in here}
                for seat in range(len(logic.seat_names()))
                if (seat in here) != (seat in told) and (leaving or seat in here)]

    def presence_later(self, rooms: Rooms, room: Room) -> None:
        """Tell the room which seats' phones left once :attr:`presence_grace` has passed
        with them gone (a page reloading or a phone waking comes back before)."""
        if not self.presence_news(room):
            return
        old = self.presence_timers.pop(room.code, None)
        if old is not None:
            old.cancel()
        self.presence_timers[room.code] = asyncio.get_running_loop().call_later(
            self.presence_grace, self._start_presence, rooms, room)

    def _start_presence(self, rooms: Rooms, room: Room) -> None:
        self.presence_timers.pop(room.code, None)
        task = asyncio.ensure_future(presence(rooms, self, room))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

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

    def send(self, conn: Conn, message: Frame | str, seq: int = -1) -> bool:
        """Write ``message`` to ``conn`` now, or queue it behind what is queued (False);
        ``seq``: the revision of an update frame (told to the observer once written)."""
        text = message if isinstance(message, str) else message.text()
        item: Queued = text if seq < 0 or self.observer is None else (None, text, seq)
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
            item = (rest, text, seq)  # its buffer is full: the sender task finishes it
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
        delay = room.logic.next_tick() if isinstance(room.logic, Paced) else None
        if delay is None:
            return
        loop = asyncio.get_running_loop()
        self.timers[room.code] = loop.call_later(
            max(delay, at_least), self._start_tick, rooms, room, room.revision)
        if at_least > delay:  # held back for the screens to reconnect: they are told
            self.resuming[room.code] = loop.time() + at_least

    def resume_in(self, code: str) -> float | None:
        """The seconds until the room's race saved mid-way goes on after a restart, for
        the room's welcome frames while it waits, else None: every screen shows
        "Resuming the race in N s" instead of a plain
        "Connected". (Any accepted intent sets the room's next step anew, which ends the
        wait: the update it brings carries no ``resume_in``, and the pages then say
        "Connected".)"""
        at = self.resuming.get(code)
        return None if at is None else max(at - asyncio.get_running_loop().time(), 0.0)

    def _start_tick(self, rooms: Rooms, room: Room, revision: int) -> None:
        self.timers.pop(room.code, None)
        self.resuming.pop(room.code, None)
        task = asyncio.ensure_future(tick(rooms, self, room, revision))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def stop_timers(self) -> None:
        for handle in [*self.timers.values(), *self.presence_timers.values()]:
            handle.cancel()
        self.timers.clear()
        self.presence_timers.clear()
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
        if self.observer is not None:
            self.observer.flushed(code, room.revision, frames, written)

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
        shared = Encoded.of(split.public_view()) if split is not None else None
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
                    (shared, _own_text(split.private_view(conn.actor)))
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
                        text = Update.encode_patch(seq, conn.seq, events_text, ops)
            if text is None:
                text = Update.encode(seq, events_text, whole(conn.actor, public, own))
            conn.seq, conn.public, conn.me = seq, public, own
            written += self.send(conn, text, seq)
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
        public = Encoded.of(split.public_view())
        own = _own_text(split.private_view(conn.actor))
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



def _split(room: Room) -> SplitViews | None:
    """The room's logic if it splits its views (the view of an actor is then the public
    one with ``me``: the private one, unless None)."""
    return room.logic if isinstance(room.logic, SplitViews) else None


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


async def run_intent(rooms: Rooms, room: Room, actor: Actor, intent: dict[str, Any]
                     ) -> list[JSON]:
    """``rooms.apply``: in a worker thread if the room may think (a computer player may
    think for a second; the other rooms go on meanwhile), else here on the event loop: a
    cheap intent (a quarter of a millisecond) costs less than the hop to a thread and the
    hand-over of the GIL back, which under load was most of an intent's time (see
    :class:`raceday.rooms.protocol.Thinks`). A shard whose file another server process
    uses now (:class:`raceday.web.rooms.FileSharing`) uses the thread: a commit waiting
    for their write lock (SQLite's busy handler sleeps) must not stall every room of this
    one; a shard with a file of its own does not (two shards on two cores, 200 rooms: p95
    106 -> 98 ms, its check + store + views p95 56 -> 28 ms)."""
    logic = room.logic
    if (rooms.shard is not None and not rooms.sharing.alone()) \
            or not isinstance(logic, Thinks) or logic.thinks():
        return await asyncio.to_thread(rooms.apply, room, actor, intent)
    return rooms.apply(room, actor, intent)


async def tick(rooms: Rooms, hub: Hub, room: Room, revision: int) -> None:
    """Play ``room``'s next paced step if the room is still where it was when the step was
    set (a host's skip or an undo meanwhile has set a newer one), then set the next."""
    async with hub.lock(room.code):
        if room.revision != revision or room.code in hub.timers:
            return
        try:
            events = await run_intent(rooms, room, Actor.timeline(), {"type": "tick"})
        except RacedayError as exc:  # the room moved on in a way the timer did not know
            log.info("room %s: paced step not played: %s", room.code, exc)
            return
        except Exception:
            log.exception("paced step in room %s failed", room.code)
            return
        hub.publish(room, events)
        hub.schedule(rooms, room)


async def sender(conn: Conn, observer: Observer | None = None) -> None:
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
            rest, text, seq = item if isinstance(item, tuple) else (None, item, -1)
            if rest is not None:
                await rest.finish()
            else:
                await (conn.write or conn.ws.send)({"type": "websocket.send", "text": text})
        except Exception:
            conn.broken = True
            return
        finally:
            conn.sending = False
        if observer is not None and seq >= 0:
            observer.sent(conn.code, seq)


async def presence(rooms: Rooms, hub: Hub, room: Room) -> None:
    """Tell the room which seats' phones left or came back (:meth:`Hub.presence_news`),
    under its lock."""
    async with hub.lock(room.code):
        await tell_presence(rooms, hub, room)


async def tell_presence(rooms: Rooms, hub: Hub, room: Room, leaving: bool = True) -> None:
    """:func:`presence` with the room's lock held: the news as the timeline's intents, so
    the room's log keeps them; then its timer is set anew (its revision moved on)."""
    news = hub.presence_news(room, leaving)
    for intent in news:
        try:
            events = await run_intent(rooms, room, Actor.timeline(), intent)
        except RacedayError as exc:
            log.info("room %s: presence not told: %s", room.code, exc)
            continue
        hub.publish(room, events)
    if news:
        hub.schedule(rooms, room)
