"""The party server's defences on a network it does not control.

* **Origin.** A page on another site may make the visitor's browser open ``/ws/{code}``
  (and read the live room) or send a no-cors POST (and join a lobby). Every WebSocket
  handshake and every state-changing request (POST, PUT, PATCH, DELETE) whose ``Origin``
  header is not an allowed origin is refused: 403 with one line (a WebSocket handshake gets
  the same 403 as an HTTP denial response). Allowed: the server's own origin (the
  ``Origin``'s host and port equal the request's ``Host``; the scheme is not compared, so a
  TLS-terminating proxy that keeps ``Host`` works), the ``public_url`` and the explicit
  ``allowed_origins``. ``Origin: null`` (sandboxed frames, ``file:`` pages) is refused. A
  request *without* ``Origin`` is allowed: browsers always send it on cross-site POSTs and
  on every WebSocket handshake, so its absence means a program (curl, the CLI, the tests,
  the benchmark), which no page can make a visitor's browser be.
* **Bodies.** POST, PUT and PATCH bodies must be ``application/json`` (415 otherwise: a
  form or ``text/plain`` POST, the only kinds a page may send without asking the server
  first, is never read), at most :data:`MAX_BODY` bytes (413), valid UTF-8 JSON nested at
  most :data:`MAX_DEPTH` levels (400). The nesting is checked before ``json.loads`` ever
  sees the text, so a 1,500-level document in 3 KB cannot raise ``RecursionError`` in the
  parser, in pydantic, in a game or in the encoder that saves it.
* **Rate limits per client address** (:class:`Limiter`): token buckets keyed by the client's
  address (an IPv6 client by its /64, which one host usually holds whole).
  ``X-Forwarded-For`` is honoured only when the connection comes from one of the
  ``trusted_proxies`` the host names (addresses or networks; none by default), walking the
  header from the right while the hop is trusted, so a client cannot choose its own key.
  The allowances are sized for a bar: twelve phones behind one router (one address) load
  the room, join and reconnect without meeting a limit, while a script from one address
  guessing codes (a miss costs :data:`MISS_COST`), creating rooms or flooding a lobby is
  answered 429. :class:`SocketCap` bounds the WebSockets one address holds open at once
  and how fast it opens new ones; a socket closed for flooding slows its address's next
  handshakes down for a minute.
* **Response headers** (:class:`SecureHeaders`): a strict Content-Security-Policy,
  ``nosniff``, no referrer, ``Cross-Origin-Opener-Policy: same-origin``, a
  ``Permissions-Policy`` that turns off camera, microphone and geolocation, and
  ``Strict-Transport-Security`` when the public URL is ``https``. The server sets no
  cookies: keys live in the browser's storage, and the answers that carry one are
  ``Cache-Control: no-store``.
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.routing import Match, Mount

from raceday.core.digits import ascii_int
from raceday.core.errors import RacedayError
from raceday.core.events import Message as Words
from raceday.present import refusal, render

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MISS_COST = 20  # lookup tokens a room code that names no room costs (a hit costs 1)
MAX_BODY = 4096  # bytes of one REST body (the same cap as a WebSocket message)
RECORD_BODY = 256 * 1024  # bytes of a game's record sent as text (a replay, a room from it)
# the routes whose body is a game's record as UTF-8 text (text/plain), not JSON, and its cap
TEXT_BODIES = {"/api/replay/record": RECORD_BODY, "/api/rooms/from-record": RECORD_BODY}
MAX_DEPTH = 32  # nesting levels of one JSON document from a client
STATE_CHANGING = frozenset(("POST", "PUT", "PATCH", "DELETE"))
WITH_BODY = frozenset(("POST", "PUT", "PATCH"))
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'")
PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
HSTS = "max-age=31536000"  # a year; no includeSubDomains: the host's other names are not ours
NO_STORE = {"Cache-Control": "no-store"}  # an answer that carries a key


class BadJSON(RacedayError):
    """A client's JSON that is refused before or while it is parsed (one line, with its
    words: see :func:`raceday.present.refusal`)."""


def json_depth_ok(text: str, limit: int = MAX_DEPTH) -> bool:
    """True if ``text`` (JSON or not) never opens more than ``limit`` arrays or objects
    inside each other. Brackets inside strings do not count. Counting the brackets first
    keeps the usual small message at C speed; only a text with more than ``limit`` of them
    is scanned character by character (at most 4 KB)."""
    if text.count("[") + text.count("{") <= limit:
        return True
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def loads(text: str | bytes, *, what: str = "request") -> Any:
    """``json.loads`` for text from a client: BadJSON (one line) for anything that is not
    UTF-8 JSON nested at most :data:`MAX_DEPTH` levels; never RecursionError. ``what`` names
    the text in the refusal: ``request``, ``first_message`` or ``message`` (``what.<what>``
    in the message tables)."""
    noun = Words(f"what.{what}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise refusal(BadJSON, "refusal.json_utf8", what=noun) from None
    if not json_depth_ok(text):
        raise refusal(BadJSON, "refusal.json_deep", what=noun, max=MAX_DEPTH)
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise refusal(BadJSON, "refusal.json_invalid", what=noun) from None


# --- rate limits ------------------------------------------------------------------------
class Bucket:
    """A token bucket: ``burst`` actions at once, refilled at ``rate`` a second. ``clock``
    (``time.monotonic`` by default) is injectable, so tests count refusals without
    depending on how fast the machine is."""

    def __init__(self, burst: float, rate: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.tokens = burst
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        """Spend one token if there is one."""
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def ready(self) -> bool:
        """Is there a token to spend (without spending it)?"""
        self._refill()
        return self.tokens >= 1

    def charge(self, cost: float) -> None:
        """Spend ``cost`` tokens after the fact; the bucket may go into debt (down to
        ``-burst``), which the refill pays back before the next action is allowed."""
        self._refill()
        self.tokens = max(-self.burst, self.tokens - cost)

    def empty(self, debt: float) -> None:
        """Spend every token and ``debt`` more (down to ``-burst``): a penalty that costs
        the same however full the bucket was."""
        self._refill()
        self.tokens = max(-self.burst, min(self.tokens, 0) - debt)

    def idle(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class Limiter:
    """One :class:`Bucket` per client address (at most ``max_keys``; idle ones are
    forgotten first, then the oldest)."""

    def __init__(self, burst: float, rate: float, *, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 10_000) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: dict[str, Bucket] = {}

    def bucket(self, key: str) -> Bucket:
        found = self.buckets.get(key)
        if found is None:
            if len(self.buckets) >= self.max_keys:
                self._forget()
            found = self.buckets[key] = Bucket(self.burst, self.rate, self.clock)
        return found

    def _forget(self) -> None:
        for key in [k for k, b in self.buckets.items() if b.idle()]:
            del self.buckets[key]
        while len(self.buckets) >= self.max_keys:
            del self.buckets[next(iter(self.buckets))]


def retry_after(bucket: Bucket) -> str:
    """Seconds until ``bucket`` has a token again, for a 429's ``Retry-After`` (1 to 3600;
    60 for a bucket that never refills)."""
    wait = 60 if bucket.rate <= 0 else max(1, int((1 - bucket.tokens) / bucket.rate) + 1)
    return str(min(wait, 3600))


def parse_networks(items: Iterable[str] | str | None) -> tuple[Network, ...]:
    """Addresses or networks (``10.0.0.1``, ``192.168.0.0/16``, ``::1``), as a list or one
    comma-separated string; ValueError names a bad one."""
    if items is None:
        return ()
    if isinstance(items, str):
        items = items.split(",")
    out = []
    for item in items:
        text = item.strip()
        if not text:
            continue
        try:
            out.append(ipaddress.ip_network(text, strict=False))
        except ValueError:
            raise ValueError(f"not an address or network: {text!r}") from None
    return tuple(out)


def _address(text: str) -> Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def client_key(scope: Scope, trusted: tuple[Network, ...] = ()) -> str:
    """The client's address for rate limits: the connection's peer, or, when the peer is a
    trusted proxy, the rightmost ``X-Forwarded-For`` hop that is not one; an IPv6 address
    by its /64."""
    client = scope.get("client")
    peer = str(client[0]) if client else "?"
    addr = _address(peer)
    if addr is not None and trusted:
        hops: list[str] = []
        for name, value in scope.get("headers", ()):
            if name == b"x-forwarded-for":
                hops.extend(value.decode("latin-1").split(","))
        for hop in reversed(hops):
            if addr is None or not any(addr in net for net in trusted):
                break
            addr = _address(hop)
        if addr is None:  # a trusted proxy forwarded garbage: key by the proxy itself
            addr = _address(peer)
    if addr is None:
        return peer
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.ip_network(f"{addr}/64", strict=False))
    return str(addr)


# --- origins ----------------------------------------------------------------------------
def _netloc(host: str, port: int | None, scheme: str) -> str:
    host = host.lower().rstrip(".")
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    if port is None or DEFAULT_PORTS.get(scheme) == port:
        return host
    return f"{host}:{port}"


def normal_origin(text: str) -> str | None:
    """``scheme://host[:port]`` of an origin or URL, lower case, default port dropped (None
    if it is not an http(s) origin)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    return f"{scheme}://{_netloc(parts.hostname, port, scheme)}"


def _host_netloc(host: str) -> str | None:
    """The ``Host`` header as host[:port] (default ports 80 and 443 dropped)."""
    try:
        parts = urlsplit(f"//{host.strip()}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    return _netloc(parts.hostname, None if port in (80, 443) else port, "http")


class Origins:
    """Which ``Origin`` headers may change state or open a WebSocket."""

    def __init__(self, public_url: str | None = None,
                 allowed: Iterable[str] | str | None = None) -> None:
        if isinstance(allowed, str):
            allowed = allowed.split(",")
        self.allowed: set[str] = set()
        for item in [public_url, *(allowed or ())]:
            if item is None or not item.strip():
                continue
            origin = normal_origin(item)
            if origin is None:
                raise ValueError(f"not an http(s) origin: {item!r}")
            self.allowed.add(origin)

    def refusal(self, scope: Scope) -> Words | None:
        """Why this request's Origin is refused, in words (None: it is allowed)."""
        origin = host = None
        for name, value in scope.get("headers", ()):
            if name == b"origin":
                origin = value.decode("latin-1")
            elif name == b"host":
                host = value.decode("latin-1")
        if origin is None:
            return None
        normal = normal_origin(origin)
        if normal is not None:
            if normal in self.allowed:
                return None
            own = _host_netloc(host) if host is not None else None
            theirs = _netloc(*_split(normal))
            if own is not None and theirs == own:
                return None
        shown: str | Words = origin if len(origin) <= 80 and origin.isprintable() \
            else Words("what.unreadable")
        return Words("refusal.origin", {"origin": shown})


def _split(origin: str) -> tuple[str, int | None, str]:
    parts = urlsplit(origin)
    port = parts.port
    return parts.hostname or "", None if port in (80, 443) else port, "http"


# --- the middleware ---------------------------------------------------------------------
def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _takes(router: Any, scope: Scope) -> bool:
    """Does a route of ``router`` (a Starlette router; None: assume so) take this request's
    method at its path? A mount is looked into when it holds routes; one that serves files
    takes no body."""
    if router is None:
        return True
    for route in router.routes:
        match, child = route.matches(scope)
        if match is Match.FULL:
            if isinstance(route, Mount):
                inner = getattr(route.app, "routes", None)
                return inner is not None and _takes(route.app, {**scope, **child})
            return True
    return False


def refusal_body(message: Words) -> bytes:
    """A refusal's JSON body: its English text and its words (``{"error", "words"}``)."""
    return json.dumps({"error": render(message, "en"), "words": message.to_json()}).encode()


async def _answer(send: Send, status: int, message: Words,
                  extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = refusal_body(message)
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"x-content-type-options", b"nosniff"), *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: the Origin check of every WebSocket handshake and state-changing
    request, and the content type, size and nesting of every request body. Given the app's
    ``routes``, a body is checked only where a route takes that method at that path: a PUT
    to a page that is only read is the router's 405 (with ``Allow``), not a 415 about a body
    nothing would read."""

    def __init__(self, app: ASGIApp, origins: Origins, routes: Any = None) -> None:
        self.app = app
        self.origins = origins
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            why = self.origins.refusal(scope)
            if why is not None:
                await self._deny_socket(scope, receive, send, why)
                return
        elif kind == "http" and scope.get("method", "GET") in STATE_CHANGING:
            why = self.origins.refusal(scope)
            if why is not None:
                await _answer(send, 403, why)
                return
            if scope["method"] in WITH_BODY and _takes(self.routes, scope):
                replay = await self._body(scope, receive, send)
                if replay is None:
                    return
                receive = replay
        await self.app(scope, receive, send)

    async def _deny_socket(self, scope: Scope, receive: Receive, send: Send,
                           why: Words) -> None:
        await receive()  # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            body = refusal_body(why)
            await send({"type": "websocket.http.response.start", "status": 403, "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode())]})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008,
                        "reason": render(why, "en")[:120]})

    async def _body(self, scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """Read and check the body; a receive that hands it on (None: refused, answered)."""
        media = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        limit = TEXT_BODIES.get(scope.get("path", ""))
        text = limit is not None
        if media != ("text/plain" if text else "application/json"):
            await _answer(send, 415, Words("refusal.text_only" if text else "refusal.json_only"))
            return None
        limit = limit or MAX_BODY
        length = _header(scope, b"content-length")
        if length is not None:
            size = ascii_int(length)
            if size is None:
                await _answer(send, 400, Words("refusal.length_header"))
                return None
            if size > limit:
                await _answer(send, 413, Words("refusal.too_large", {"max": limit}))
                return None
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return None
            body += message.get("body", b"")
            more = bool(message.get("more_body"))
            if len(body) > limit:
                await _answer(send, 413, Words("refusal.too_large", {"max": limit}))
                return None
        if body.strip() and not text:
            try:
                loads(body)
            except BadJSON as exc:
                assert exc.message is not None
                await _answer(send, 400, exc.message)
                return None
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay


class SocketCap:
    """ASGI middleware: at most ``most`` WebSockets open at once from one client address
    (:func:`client_key`), and new handshakes from one address at most as fast as
    ``handshakes`` (a :class:`Limiter`) allows. One more is refused with 429 before the
    handshake, before the app sees it (a close with code 1013, try again later, where the
    server cannot answer a handshake with HTTP). A phone holds one socket, a screen one; a
    script opening thousands to one room is what this stops. A socket closed for flooding
    puts its address's handshakes in debt (:data:`FLOOD_PENALTY`), so the script cannot
    simply open another and go on."""

    def __init__(self, app: ASGIApp, most: int, trusted: tuple[Network, ...] = (),
                 handshakes: Limiter | None = None) -> None:
        self.app = app
        self.most = most
        self.trusted = trusted
        self.handshakes = handshakes
        self.open: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        key = client_key(scope, self.trusted)
        held = self.open.get(key, 0)
        if held >= self.most:
            await _deny_handshake(scope, receive, send, "5")
            return
        if self.handshakes is not None:
            bucket = self.handshakes.bucket(key)
            if not bucket.take():
                await _deny_handshake(scope, receive, send, retry_after(bucket))
                return
        self.open[key] = held + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open.get(key, 1) - 1
            if left > 0:
                self.open[key] = left
            else:
                self.open.pop(key, None)


HANDSHAKE_BURST = 60  # new WebSockets one address may open at once (a bar's screens and
HANDSHAKE_RATE = 1.0  # phones, each reconnecting a few times), then this many a second
FLOOD_PENALTY = 60  # handshake tokens a socket closed for flooding costs its address


async def _deny_handshake(scope: Scope, receive: Receive, send: Send, retry: str) -> None:
    """Refuse a WebSocket handshake with 429 and ``Retry-After`` (a 1013 close where the
    server cannot answer a handshake with HTTP), without accepting it."""
    await receive()  # websocket.connect
    why = Words("refusal.too_many")
    if "websocket.http.response" in scope.get("extensions", {}):
        body = refusal_body(why)
        await send({"type": "websocket.http.response.start", "status": 429,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"retry-after", retry.encode())]})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1013,
                    "reason": render(why, "en")[:120]})


class SecureHeaders:
    """ASGI middleware: the security headers of every HTTP answer (see the module's
    docstring); ``hsts`` adds Strict-Transport-Security (for an ``https`` public URL). A
    header the answer set itself (a page's own Cache-Control) is kept."""

    def __init__(self, app: ASGIApp, hsts: bool = False) -> None:
        self.app = app
        extra = [(b"content-security-policy", CSP), (b"x-content-type-options", "nosniff"),
                 (b"referrer-policy", "no-referrer"),
                 (b"cross-origin-opener-policy", "same-origin"),
                 (b"permissions-policy", PERMISSIONS)]
        if hsts:
            extra.append((b"strict-transport-security", HSTS))
        self.extra = [(name, value.encode("latin-1")) for name, value in extra]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                have = {name.lower() for name, _ in headers}
                headers.extend(item for item in self.extra if item[0] not in have)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


def is_https(url: str | None) -> bool:
    """Is ``url`` an ``https://`` address (the public URL: then HSTS is sent)?"""
    return url is not None and url.strip().lower().startswith("https://")
