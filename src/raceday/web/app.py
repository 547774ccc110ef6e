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
* ``GET /api/rooms/{code}/qr.svg`` → the QR code of the join link;
* ``POST /api/my-games`` ``{"rooms": [{"code", "token"}, ...]}`` → each room as that key
  may see it at a glance (the landing page's "my games": whose turn it is).

WebSocket ``/ws/{code}``: a hello, then intents, answered with frames; each message a
pydantic model, the whole wire published as JSON Schema at ``/wire-schema.json`` (linked
from ``/openapi.json``). :mod:`raceday.web.wire` describes it.

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
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from raceday import __version__
from raceday.core.discovery import asset_folder, face, game_packages, games_with
from raceday.core.errors import SaveFormatError
from raceday.rooms import logic_class
from raceday.web import games, messages, numbers, print_pages, redact, replay
from raceday.web.context import Server
from raceday.web.describe import WIRE_SCHEMA, describe
from raceday.web.eager import KeepSend
from raceday.web.guard import (
    HANDSHAKE_BURST,
    HANDSHAKE_RATE,
    MISS_COST,
    Guard,
    Limiter,
    Origins,
    SecureHeaders,
    SocketCap,
    is_https,
    parse_networks,
)
from raceday.web.heavy import Heavy, HeavyLimits
from raceday.web.hub import Hub, Observer
from raceday.web.lifecycle import IDLE_CLOSE_HOURS, IdleCloser
from raceday.web.options_schema import router as options_router
from raceday.web.rooms import (
    MAX_ROOMS,
    RECLAIM_AFTER,
    ROOMS_PER_ADDRESS,
    SEATS_PER_ADDRESS,
    Room,
    Rooms,
)
from raceday.web.routes_pages import STATIC, serve_game_page
from raceday.web.routes_pages import router as pages_router
from raceday.web.routes_rooms import router as rooms_router
from raceday.web.routes_socket import FLOOD, FLOOD_PAUSE
from raceday.web.routes_socket import router as socket_router
from raceday.web.shards import Shard, ShardGuard
from raceday.web.wire import wire_schema

__all__ = ["FLOOD", "MISS_COST", "STATIC", "StopReport", "create_app"]

log = logging.getLogger("raceday.web")


def create_app(db_path: str | Path, *, public_url: str | None = None,
               allowed_origins: Iterable[str] | str | None = None,
               trusted_proxies: Iterable[str] | str | None = None,
               burst: float = 20, rate: float = 10, rest_burst: float = 60,
               rest_rate: float = 1, lookup_burst: float = 200, lookup_rate: float = 2,
               create_burst: float = 10, create_rate: float = 0.05, max_sockets: int = 100,
               handshake_burst: float = HANDSHAKE_BURST, handshake_rate: float = HANDSHAKE_RATE,
               flood_pause: float = FLOOD_PAUSE, clock: Callable[[], float] = time.monotonic,
               idle_close: float | None = IDLE_CLOSE_HOURS,
               observer: Observer | None = None, resume_after: float = 5.0,
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
    tests freeze it. ``observer`` is told of each intent's way out (benchmarks install
    :class:`raceday.web.timing.Timing`; :class:`raceday.web.hub.Observer`). A
    race saved mid-way goes on by itself ``resume_after`` seconds after the server starts
    (time for the screens to reconnect: they try again at most every 3 s), and its frames
    carry ``resume_in`` meanwhile (:meth:`Hub.resume_in`). The rooms are loaded once the
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
    if idle_close is not None and not 0 < idle_close < float("inf"):
        raise ValueError(f"idle_close must be a number of hours above 0, got {idle_close!r}")
    # a bad or read-only database is refused here, before serving anything; the rooms
    # themselves are loaded once the server answers (lifespan) or when first asked for
    rooms = Rooms(db_path, shard, lazy=True, max_rooms=max_rooms,
                  rooms_per_address=rooms_per_address,
                  seats_per_address=seats_per_address, reclaim_after=reclaim_after,
                  clock=clock)
    hub = Hub()
    hub.observer = observer
    _bind(rooms, hub)
    server = Server(rooms, hub, public_url, trusted,
                    rest=Limiter(rest_burst, rest_rate, clock=clock),
                    creates=Limiter(create_burst, create_rate, clock=clock),
                    lookups=Limiter(lookup_burst, lookup_rate, clock=clock),
                    handshakes=Limiter(handshake_burst, handshake_rate, clock=clock),
                    burst=burst, rate=rate, flood_pause=flood_pause, clock=clock)
    heavy_work = Heavy(heavy, clock=clock, trusted=trusted)
    idle = None if idle_close is None else IdleCloser(rooms, hub, idle_close * 3600, clock)
    app = FastAPI(title="raceday party", version=__version__, docs_url=None, redoc_url=None,
                  lifespan=_lifespan(server, idle, heavy_work, resume_after),
                  openapi_url="/openapi.json",
                  description="The JSON API of the raceday party server. Every refusal is "
                              '{"error": "one line"} with a 4xx status. The WebSocket '
                              f"wire of a room (/ws/{{code}}) is described at {WIRE_SCHEMA}.")
    if shard is not None:  # innermost: a misrouted room is refused before any route
        app.add_middleware(ShardGuard, shard=shard)
    app.add_middleware(Guard, origins=origins, routes=app.router)
    app.add_middleware(SocketCap, most=max_sockets, trusted=trusted,
                       handshakes=server.handshakes)
    app.add_middleware(SecureHeaders, hsts=is_https(public_url))
    app.add_middleware(KeepSend)  # outermost: a socket's frames skip no wrapper of ours
    state = app.state
    state.server, state.rooms, state.hub = server, rooms, hub
    # on_loaded(rooms, seconds): called once every room is loaded (raceday serve says so);
    # stop_report: what the stop stored (StopReport), set when the server has stopped
    state.on_loaded = state.stop_report = None
    state.max_sockets = max_sockets  # the open files it needs: raceday serve checks
    state.idle = idle  # the idle sweep (None when rooms never close)
    state.origins, state.trusted_proxies = origins, trusted
    state.lookups = server.lookups  # the replay of a room by its code is a lookup too
    state.creates = server.creates  # one allowance of new stored things per address
    state.campaigns_per_address = campaigns_per_address
    state.max_campaigns = max_campaigns
    state.heavy = heavy_work  # PDFs, race films, replays (raceday.web.heavy)
    state.creation_refusal = server.creation_refusal
    state.client_of = server.client  # for the games' routers
    _routes(app)
    describe(app)
    return app


def _bind(rooms: Rooms, hub: Hub) -> None:
    """Tell ``rooms`` which rooms are in use (open or timed) and what to forget of a room
    given way to a newcomer."""
    rooms.busy = lambda code: bool(hub.conns.get(code)) or code in hub.timers

    def forget(code: str) -> None:  # a room given way to a newcomer: nothing of it kept
        hub.locks.pop(code, None)
        hub.conns.pop(code, None)

    rooms.forget = forget


def _lifespan(server: Server, idle: IdleCloser | None, heavy_work: Heavy,
              resume_after: float) -> Callable[[FastAPI], Any]:
    """The server's life: load the rooms and sweep idle ones while it runs; stop the
    timers and save every room at its end."""
    rooms, hub = server.rooms, server.hub

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
        if hub.observer is not None:
            hub.observer.flush()
        heavy_work.close()

    return lifespan


def _routes(app: FastAPI) -> None:
    """Mount the files and include every router: the pages, the rooms' API and socket,
    the print pages, options, games, replays, numbers, messages and each game's own."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for game in game_packages():  # each game's browser assets: /games/<game>/static/...
        assets = asset_folder(game, "static")
        if assets is not None:
            app.mount(f"/games/{game}/static", StaticFiles(directory=assets),
                      name=f"{game}-static")
    for router in (pages_router, rooms_router, socket_router,
                   print_pages.router,  # the Print page (raceday.web.print_pages)
                   options_router,  # GET /api/games/{game}/options (JSON Schema)
                   games.router,  # GET /api/games: the games found, for the pages
                   replay.router, numbers.router,  # Replays, Numbers
                   messages.router):  # the message tables of the pages
        app.include_router(router)
    for game in games_with("watch"):  # a game's own pages and their API (its watch face)
        pages = face(game, "watch")
        if pages is not None:
            app.include_router(pages.router)
    for game in game_packages():  # a game's page of its own, declared by static/page.json
        serve_game_page(app, game)

    @app.get(WIRE_SCHEMA, include_in_schema=False)
    async def wire() -> JSONResponse:
        """The WebSocket wire as JSON Schema: hello, every room's intents, the frames."""
        return JSONResponse(wire_schema(_room_classes()))


def _room_classes() -> dict[str, Any]:
    """The room class of every game with a browser room, by game."""
    found: dict[str, Any] = {}
    for game in games_with("room"):
        with contextlib.suppress(Exception):  # a broken plugin is left out, not a 500
            found[game] = logic_class(game)
    return found

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
        log.warning("rooms not saved at the stop: %d (%s); their accepted intents are in "
                    "the log", len(failed), first)
    return StopReport(rooms.count(), len(failed), refused)
