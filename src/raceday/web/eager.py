"""Frames written to a socket at once, not through a task of the connection.

An update goes to thirteen sockets of a room. Handing each frame to the connection's
sender task through its queue (a wake-up, a task step, the queue's own future, Starlette's
checks) had cost about a tenth of the party server under load. Writing a frame needs no
wait while the socket's buffer has room (uvicorn's ``send`` waits only when the transport
asked it to pause), so :func:`start` runs the ASGI ``send`` at once, and only a
send that does wait is finished later (:meth:`Unfinished.finish`, by the connection's
sender task, in order with what is queued behind it).

:class:`KeepSend` keeps the server's own ``send`` of each WebSocket in its scope (under
:data:`SEND_KEY`); it is the outermost middleware, so no middleware's wrapper is skipped
(none of ours wraps a WebSocket's ``send``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Generator
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

SEND_KEY = "raceday.send"


class KeepSend:
    """ASGI middleware: a WebSocket's scope gets the server's ``send`` under SEND_KEY."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
        await self.app(scope, receive, send)


class Unfinished:
    """An awaitable that waited on its first step: the rest of it, to await."""

    __slots__ = ("steps", "waiting")

    def __init__(self, steps: Generator[Any, None, None], waiting: Any) -> None:
        self.steps = steps
        self.waiting = waiting  # the future it waits on (None: it gave the loop a turn)

    async def finish(self) -> None:
        """Go on with it until it ends (as a task would step it); its exception, if it
        raises one, is raised here. Cancelling this closes it."""
        while True:
            try:
                if self.waiting is None:
                    await asyncio.sleep(0)
                else:  # wait until it is done without taking its result: the coroutine does
                    await asyncio.wait((self.waiting,))
            except asyncio.CancelledError:
                self.steps.close()
                raise
            try:
                self.waiting = self.steps.send(None)
            except StopIteration:
                return


def start(awaitable: Awaitable[None]) -> Unfinished | None:
    """Run ``awaitable`` now, up to its first wait: None if it ended (its exception is
    raised here), else what is left of it."""
    steps = awaitable.__await__()
    try:
        waiting = steps.send(None)
    except StopIteration:
        return None
    return Unfinished(steps, waiting)
