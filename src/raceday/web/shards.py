"""Several party-server processes, each owning the rooms whose code says so.

When one process is not enough, ``raceday serve --shard K/N`` runs shard K of N, and a
reverse proxy (Caddy; ``raceday caddyfile`` writes its configuration) sends every request
that names a room code to the process that owns the room. Nothing is shared between the
processes but, on one machine, perhaps the SQLite file (each writes only its own rooms).

The rule. Shard ``k`` of ``N`` owns the codes whose FIRST letter has an index ``i`` in
:data:`~raceday.web.rooms.CODE_ALPHABET` with ``i % N == k`` (so ``N`` is at most the
alphabet's 20 letters). A proxy expresses it with one character class a shard, e.g. for two
shards ``[BDGJLNQSVX]`` (shard 0) and ``[CFHKMPRTWZ]`` (shard 1), matched without regard to
case since codes are read that way. A shard creates codes only with its own first letters,
loads only its own rooms from the database, and answers a request naming another shard's
room with ``421 Misdirected Request`` (a WebSocket: an error frame, then close code 4421),
never with someone else's room: a wrong proxy configuration shows at once.

Paths that name a room (:data:`ROOM_PATH`): ``/host/C``, ``/watch/C``, ``/play/C``,
``/ws/C``, ``/api/rooms/C...`` and ``/api/replay/room/C``.
"""

from __future__ import annotations

import ipaddress
import json
import re
from dataclasses import dataclass
from typing import Any

from raceday.core.events import Message
from raceday.present import render
from raceday.web.rooms import CODE_ALPHABET

# The first path segments after which a room code follows (the proxy's routes use the same).
ROOM_PREFIXES = ("host", "watch", "play", "ws", "api/rooms", "api/replay/room")
ROOM_PATH = re.compile(r"^/(?:" + "|".join(re.escape(p) for p in ROOM_PREFIXES)
                       + r")/([^/]+)")
MISROUTED_WS = 4421  # close code of a WebSocket that reached the wrong shard


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count``: the rooms whose code's first letter is its own."""

    index: int
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.count <= len(CODE_ALPHABET):
            raise ValueError(f"the number of shards must be 1 to {len(CODE_ALPHABET)}, "
                             f"got {self.count}")
        if not 0 <= self.index < self.count:
            raise ValueError(f"shard must be 0 to {self.count - 1}, got {self.index}")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``"K/N"`` (such as ``0/2``); a ValueError in one line if it is not one."""
        match = re.fullmatch(r"\s*(\d{1,3})\s*/\s*(\d{1,3})\s*", text)
        if match is None:
            raise ValueError(f"a shard is K/N such as 0/2 (shard K of N), got {text!r}")
        return cls(int(match[1]), int(match[2]))

    @property
    def letters(self) -> str:
        """The first letters of this shard's codes."""
        return CODE_ALPHABET[self.index::self.count]

    def owns(self, code: str) -> bool:
        """Whether a room of this code is (or would be) this shard's."""
        return owner(code, self.count) == self.index

    def elsewhere(self, code: str) -> bool:
        """Whether ``code`` is another shard's (a code no shard could make is nobody's)."""
        theirs = owner(code, self.count)
        return theirs is not None and theirs != self.index

    def misrouted(self, code: str) -> Message | None:
        """The refusal, in words, of a request naming another shard's room (None when
        ``code`` is not another shard's)."""
        if not self.elsewhere(code):
            return None
        return Message("refusal.misrouted", {"code": code.strip().upper()[:8],
                                             "owner": owner(code, self.count),
                                             "shard": str(self)})

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def owner(code: str, count: int) -> int | None:
    """The shard (of ``count``) owning ``code``, read as the server reads codes (outer
    spaces dropped, any case); None for a code no shard could have made."""
    text = code.strip().upper()
    if not text or text[0] not in CODE_ALPHABET:
        return None
    return CODE_ALPHABET.index(text[0]) % count


def letters_of(index: int, count: int) -> str:
    """The first letters of shard ``index`` of ``count`` (``Shard(index, count).letters``)."""
    return Shard(index, count).letters


class ShardGuard:
    """ASGI middleware: a request or WebSocket naming a room of another shard is refused
    (421, or close 4421) before it reaches the routes or the rate limits."""

    def __init__(self, app: Any, shard: Shard) -> None:
        self.app = app
        self.shard = shard

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            found = ROOM_PATH.match(scope.get("path", ""))
            if found is not None:
                words = self.shard.misrouted(found[1])
                if words is not None:
                    await self._refuse(scope, receive, send, words)
                    return
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Any, receive: Any, send: Any, words: Message) -> None:
        body = {"error": render(words, "en"), "words": words.to_json()}
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(
                {"type": "error", "ref": None, "message": body["error"],
                 "words": body["words"], "fatal": True})})
            await send({"type": "websocket.close", "code": MISROUTED_WS})
            return
        data = json.dumps(body).encode()
        await send({"type": "http.response.start", "status": 421, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
            (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": data})


# --- the proxy in front: a Caddyfile ------------------------------------------------------
# Paths any shard can answer (pages, files, the games' list, the message tables); a new
# room (POST /api/rooms) goes to any shard too, so rooms spread. Everything else that names
# no room (Numbers jobs held in memory, saved sessions, campaigns, replays of sessions) goes
# to shard 0, the one place for what is not a room.
ANYWHERE = ("/", "/static/*", "/games/*", "/favicon.ico", "/api/messages/*", "/api/games",
            "/api/games/*", "/openapi.json")
UPSTREAM = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}")
SITE = re.compile(r"[A-Za-z0-9.:/\[\]*_-]+")


def room_regexp(letters: str) -> str:
    """The path regular expression (RE2, as Caddy's ``path_regexp`` reads it) of the room
    paths whose code starts with one of ``letters``, in any case."""
    return "(?i)^/(" + "|".join(ROOM_PREFIXES) + ")/[" + letters + "]"


def caddyfile(site: str, upstreams: list[str], admin: str | None = None,
              bind: str | None = None) -> str:
    """A Caddyfile serving ``site`` (a host name, for automatic TLS, or an address such as
    ``http://127.0.0.1:8080``) from the shard processes at ``upstreams`` (``host:port``,
    shard 0 first): each room path to its shard, a new room to any (round robin), what is
    not a room to shard 0. ``admin`` (``off`` or an address) sets Caddy's admin endpoint
    (needed when two Caddy processes run on one machine); ``bind`` (an IP address) the one
    address Caddy listens on (every address of the machine by default). A ValueError names
    a bad value."""
    if not 1 <= len(upstreams) <= len(CODE_ALPHABET):
        raise ValueError(f"give 1 to {len(CODE_ALPHABET)} shard addresses, got "
                         f"{len(upstreams)}")
    for upstream in upstreams:
        if not UPSTREAM.fullmatch(upstream):
            raise ValueError(f"a shard's address is HOST:PORT such as 127.0.0.1:8001, got "
                             f"{upstream!r}")
    if len(set(upstreams)) != len(upstreams):
        raise ValueError("each shard needs an address of its own")
    if not SITE.fullmatch(site) or len(site) > 200:
        raise ValueError(f"the site is a host name such as party.example.org or an address "
                         f"such as http://127.0.0.1:8080, got {site!r}")
    if admin is not None and admin != "off" and not UPSTREAM.fullmatch(admin):
        raise ValueError(f"the admin endpoint is off or HOST:PORT, got {admin!r}")
    if bind is not None:
        try:
            ipaddress.ip_address(bind)
        except ValueError:
            raise ValueError(f"bind takes an IP address such as 127.0.0.1, got {bind!r}") \
                from None
    count = len(upstreams)
    every = " ".join(upstreams)
    lines = [
        f"# Written by `raceday caddyfile`: {count} raceday processes (raceday serve "
        f"--shard K/{count}) behind {site}.",
        f"# A room's shard is the index of its code's first letter in {CODE_ALPHABET}, "
        f"modulo {count}.",
    ]
    if admin is not None:
        lines += ["{", f"\tadmin {admin}", "}", ""]
    lines += [f"{site} {{"]
    if bind is not None:
        lines += [f"\tbind {bind}"]
    for index, upstream in enumerate(upstreams):
        lines += [
            f"\t# shard {index}/{count}: codes starting with {letters_of(index, count)}",
            f'\t@room{index} path_regexp room{index} "{room_regexp(letters_of(index, count))}"',
            f"\thandle @room{index} {{",
            f"\t\treverse_proxy {upstream}",
            "\t}",
        ]
    lines += [
        "\t# a new room, the pages and files: any shard (a new room is made on the shard",
        "\t# that takes the request, so rooms spread over them)",
        "\t@create {",
        "\t\tmethod POST",
        "\t\tpath /api/rooms",
        "\t}",
        "\t@anywhere {",
        "\t\tmethod GET HEAD",
        f"\t\tpath {' '.join(ANYWHERE)}",
        "\t}",
        "\thandle @create {",
        "\t\t# the body is kept (a new room's is under 4 KB) so that a shard that is down",
        "\t\t# is skipped and the request sent to the next one",
        "\t\trequest_body {",
        "\t\t\tmax_size 16KB",
        "\t\t}",
        f"\t\treverse_proxy {every} {{",
        "\t\t\tlb_policy round_robin",
        "\t\t\tbuffer_requests",
        "\t\t\tlb_try_duration 5s",
        "\t\t}",
        "\t}",
        "\thandle @anywhere {",
        f"\t\treverse_proxy {every} {{",
        "\t\t\tlb_policy round_robin",
        "\t\t\tlb_try_duration 5s",
        "\t\t}",
        "\t}",
        "\t# everything else (Numbers jobs, saved sessions and campaigns): shard 0",
        "\thandle {",
        f"\t\treverse_proxy {upstreams[0]}",
        "\t}",
        "}",
    ]
    return "\n".join(lines) + "\n"
