"""What the routes of one party server share: its rooms, its hub, its allowances and
its public address (``app.state.server``, read by :func:`server_of`)."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from raceday.core.errors import RacedayError
from raceday.web.api_models import refused, too_many
from raceday.web.guard import MISS_COST, Bucket, Limiter, client_key
from raceday.web.hub import Hub
from raceday.web.rooms import Room, Rooms


@dataclass
class Server:
    """One party server's shared state (:func:`raceday.web.app.create_app` makes it)."""

    rooms: Rooms
    hub: Hub
    public_url: str | None
    trusted: Any  # the trusted proxies' networks (guard.parse_networks)
    rest: Limiter  # REST calls per address
    creates: Limiter  # new stored things per address
    lookups: Limiter  # room lookups per address (a miss costs MISS_COST)
    handshakes: Limiter  # WebSocket handshakes per address
    burst: float  # each WebSocket's allowance of intents: at once...
    rate: float  # ...and a second
    flood_pause: float
    clock: Callable[[], float]

    def client(self, scope: Any) -> str:
        """The client address a request counts for (X-Forwarded-For of trusted proxies)."""
        return client_key(scope, self.trusted)

    def base_url(self, request: HTTPConnection) -> str:
        """The address phones use: the public URL, else the one this request came to."""
        base = self.public_url or str(request.base_url)
        return base if base.endswith("/") else base + "/"

    def rest_refusal(self, request: HTTPConnection, *limiters: Limiter) -> JSONResponse | None:
        """429 if one of ``limiters`` (the REST allowance, then maybe the creation one) has
        no token for this address; else take one from each."""
        key = self.client(request.scope)
        buckets = [limiter.bucket(key) for limiter in (self.rest, *limiters)]
        for bucket in buckets:
            if not bucket.ready():
                return too_many(bucket)
        for bucket in buckets:
            bucket.take()
        return None

    def creation_refusal(self, request: HTTPConnection) -> JSONResponse | None:
        """429 unless this address may make one more stored thing now (a room, a campaign,
        a job): the REST allowance and the one creation allowance; takes from both."""
        return self.rest_refusal(request, self.creates)

    def seat_owner(self, request: HTTPConnection) -> str | None:
        """The client address a joining phone's seat counts for (None: the server's own
        machine, a loopback address, which takes as many seats as it likes)."""
        key = self.client(request.scope)
        try:
            loopback = key == "::/64" or ipaddress.ip_network(key, strict=False).is_loopback
        except ValueError:
            return key
        return None if loopback else key

    def lookup_bucket(self, scope: Any) -> Bucket:
        """This client's allowance of room lookups."""
        return self.lookups.bucket(self.client(scope))

    def find(self, code: str, lookup: Bucket) -> Room | JSONResponse:
        """The room named ``code``, charging ``lookup`` for the look (or a refusal)."""
        if not lookup.ready():
            return too_many(lookup)
        try:
            room = self.rooms.get(code)
        except RacedayError as exc:
            lookup.charge(MISS_COST)
            return refused(404, exc)
        lookup.charge(1)
        return room


def server_of(connection: HTTPConnection) -> Server:
    """The server a request or WebSocket came to (a FastAPI dependency)."""
    server: Server = connection.app.state.server
    return server
