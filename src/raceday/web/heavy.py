"""Heavy work off the event loop: print pages and PDFs, race films, replays.

A request whose answer costs much more CPU than a room's (a KEIRIN PDF is about 1.8 s, a
page of print sheets up to 0.2 s, a WielerSIM race film 20 to 40 ms, a replay more the
longer the evening) is computed by a *work function* (a module-level function of
picklable arguments returning an :class:`Answer`, or a plain FastAPI ``Response``, as a
game's face does, which may not import this module) in a small pool of its own, never on
the event loop, so the rooms' sockets, the pages and the cheap API answer while it runs.
Numbers jobs, which report their progress, keep their own threads
(:mod:`raceday.web.numbers`, one running job an address).

* **The pool** (:class:`HeavyLimits`): ``workers`` processes (spawned, so the server's
  threads and sockets are not copied; by default half the machine's cores, at least one),
  each its own Python and its own GIL: CPU-bound Python in a thread of the server would
  hold the server's GIL (eight KEIRIN PDFs in the server's threads once made a cheap
  answer wait 0.25 to 0.75 s; in the pool it does not wait for them). Tests use
  threads (``processes=False``). A worker ends by itself when the server is gone, even
  killed (:func:`watch_parent`). Spawned workers import the program's main module: a
  script of one's own that serves the app starts it under ``if __name__ ==
  "__main__":`` (``raceday serve`` and ``python -m raceday.web.server`` do).
* **Fair shares.** Each client address (:func:`~raceday.web.guard.client_key`) has at
  most one computation running and ``per_address`` running or waiting; the waiting
  ones of all addresses are at most ``queue``; a free worker takes the next waiting
  computation of the next address in turn (round robin), so one address's forty-eight
  PDFs wait behind each other, not in front of a guest's one. Beyond that: 429.
* **An allowance per address** (a :class:`~raceday.web.guard.Limiter` of its own, apart
  from the REST allowance): ``burst`` computations at once, refilled at ``rate`` a
  second; spent: 429 with ``Retry-After`` and one line in words.
* **A cache** (:class:`AnswerCache`): answers (200 only) by their normalized request,
  least recently used first out, bounded in bytes and entries; identical requests that
  arrive while one is computed share it (single flight). Only a request whose answer is
  a function of the request is cached: a print query (its pages are drawn from the
  game's options alone), a race *with the seed it names*. A race asked for without a
  seed is meant to be a fresh one: it is never cached nor shared (the caller passes no
  key), so two guests asking for "a race" get two races. Replays are not cached either:
  a room's code or a session's name may name another game later.

A cache hit or a shared flight costs no allowance and holds no share: it computes
nothing.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from raceday.core.events import Message as Words
from raceday.web.guard import Limiter, Network, client_key, refusal_body, retry_after

Work = Callable[..., "Answer | Response"]
BUSY_RETRY = "5"  # seconds a refusal for a full share or queue asks the client to wait


def default_workers() -> int:
    """Half the machine's cores (at least one, at most four): the rest keep the rooms."""
    return max(1, min(4, (os.cpu_count() or 2) // 2))


@dataclass(frozen=True)
class HeavyLimits:
    """How much heavy work a server takes (``raceday serve --limit heavy-...``)."""

    workers: int = field(default_factory=default_workers)
    burst: float = 20  # computations one address may start at once
    rate: float = 0.25  # and then a second (15 a minute)
    per_address: int = 4  # one address's computations running or waiting (one runs)
    queue: int = 64  # computations waiting, all addresses together
    cache_bytes: int = 64 * 2**20
    cache_entries: int = 512
    numbers_per_address: int = 1  # numbers jobs one address runs at once (of 2)
    processes: bool = True  # False: a thread pool (tests: a work function can block)


@dataclass(frozen=True)
class Answer:
    """An HTTP answer computed in the pool: picklable, cached as it is."""

    status: int
    body: bytes
    media_type: str
    headers: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, response: Response) -> Answer:
        """A FastAPI response (made in the pool) as an answer."""
        headers = tuple((k.decode("latin-1"), v.decode("latin-1"))
                        for k, v in response.raw_headers
                        if k not in (b"content-length", b"content-type"))
        return cls(response.status_code, bytes(response.body),
                   response.media_type or "application/octet-stream", headers)

    def response(self) -> Response:
        return Response(self.body, status_code=self.status, media_type=self.media_type,
                        headers=dict(self.headers))


class AnswerCache:
    """Answers by key, least recently used out first, at most ``most_bytes`` of bodies
    and ``most_entries`` answers (an answer above a quarter of the bytes is not kept)."""

    def __init__(self, most_bytes: int, most_entries: int) -> None:
        self.most_bytes = most_bytes
        self.most_entries = most_entries
        self.bytes = 0
        self.answers: OrderedDict[Hashable, Answer] = OrderedDict()

    def get(self, key: Hashable) -> Answer | None:
        found = self.answers.get(key)
        if found is not None:
            self.answers.move_to_end(key)
        return found

    def put(self, key: Hashable, answer: Answer) -> None:
        size = len(answer.body)
        if size > self.most_bytes // 4 or self.most_entries < 1:
            return
        old = self.answers.pop(key, None)
        if old is not None:
            self.bytes -= len(old.body)
        self.answers[key] = answer
        self.bytes += size
        while self.bytes > self.most_bytes or len(self.answers) > self.most_entries:
            _, gone = self.answers.popitem(last=False)
            self.bytes -= len(gone.body)


class Refused(Exception):
    """Heavy work refused: the status, the words and the ``Retry-After``."""

    def __init__(self, words: Words, retry: str, status: int = 429) -> None:
        super().__init__(words.key)
        self.words, self.retry, self.status = words, retry, status

    def response(self) -> Response:
        return Response(refusal_body(self.words), status_code=self.status,
                        media_type="application/json", headers={"Retry-After": self.retry})


@dataclass(eq=False)
class _Task:
    work: Work
    args: tuple[Any, ...]
    future: asyncio.Future[Answer]
    key: Hashable | None


class Heavy:
    """The server's heavy work: its pool, each address's share and allowance, the cache
    (see the module's docstring). ``computed`` counts the computations started, ``shared``
    the requests that waited for an identical one under way."""

    def __init__(self, limits: HeavyLimits | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 trusted: tuple[Network, ...] = ()) -> None:
        self.limits = limits or HeavyLimits()
        if self.limits.workers < 1 or self.limits.per_address < 1:
            raise ValueError("heavy work needs at least one worker and one share")
        self.trusted = trusted
        self.allowance = Limiter(self.limits.burst, self.limits.rate, clock=clock)
        self.cache = AnswerCache(self.limits.cache_bytes, self.limits.cache_entries)
        self.flights: dict[Hashable, asyncio.Future[Answer]] = {}
        self.waiting: dict[str, deque[_Task]] = {}  # by address, in turn order
        self.running: dict[str, int] = {}
        self.busy = 0
        self.computed = 0
        self.shared = 0  # requests that waited for an identical one's computation
        self.lock = threading.Lock()
        self._pool: Executor | None = None

    # --- the pool ------------------------------------------------------------------------
    def pool(self) -> Executor:
        if self._pool is None:
            if self.limits.processes:
                self._pool = ProcessPoolExecutor(self.limits.workers,
                                                 mp_context=get_context("spawn"),
                                                 initializer=watch_parent,
                                                 initargs=(os.getpid(),))
            else:
                self._pool = ThreadPoolExecutor(self.limits.workers,
                                                thread_name_prefix="raceday-heavy")
        return self._pool

    def close(self) -> None:
        """Stop the pool (the server's stop): what waits is dropped."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    # --- a request ------------------------------------------------------------------------
    async def answer(self, request: Request, key: Hashable | None, work: Work,
                     *args: Any) -> Response:
        """The answer of ``work(*args)`` for this request's address (see :meth:`run`), or
        the refusal (429) as an answer."""
        who = client_key(request.scope, self.trusted)
        try:
            answer = await self.run(who, key, work, *args)
        except Refused as exc:
            return exc.response()
        return answer.response()

    async def run(self, who: str, key: Hashable | None, work: Work, *args: Any) -> Answer:
        """``work(*args)`` in the pool for address ``who``: from the cache or an identical
        computation under way when ``key`` (the normalized request) is given; else
        queued in ``who``'s share. :class:`Refused` when the allowance, the share or the
        queue is full."""
        loop = asyncio.get_running_loop()
        if key is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit
            flight = self.flights.get(key)
            if flight is not None and flight.get_loop() is loop:
                self.shared += 1
                return await asyncio.shield(flight)
        future: asyncio.Future[Answer] = loop.create_future()
        future.add_done_callback(_retrieve)
        with self.lock:
            self._admit(who)
            if key is not None:
                self.flights[key] = future
            self.waiting.setdefault(who, deque()).append(_Task(work, args, future, key))
            self._dispatch()
        return await asyncio.shield(future)

    def _admit(self, who: str) -> None:
        bucket = self.allowance.bucket(who)
        if not bucket.ready():
            raise Refused(Words("refusal.heavy_many"), retry_after(bucket))
        held = self.running.get(who, 0) + len(self.waiting.get(who, ()))
        if held >= self.limits.per_address:
            raise Refused(Words("refusal.heavy_yours", {"max": self.limits.per_address}),
                          BUSY_RETRY)
        if sum(len(q) for q in self.waiting.values()) >= self.limits.queue:
            raise Refused(Words("refusal.heavy_busy"), BUSY_RETRY)
        bucket.take()

    def _dispatch(self) -> None:
        """Give free workers the next waiting computation of each address in turn (one
        running an address). Called with the lock held."""
        while self.busy < self.limits.workers:
            who = next((w for w, q in self.waiting.items()
                        if q and not self.running.get(w)), None)
            if who is None:
                return
            queue = self.waiting.pop(who)
            task = queue.popleft()
            if queue:
                self.waiting[who] = queue  # its next one waits for the others' turns
            self.busy += 1
            self.running[who] = self.running.get(who, 0) + 1
            self.computed += 1
            try:
                pool = self.pool()
                done = pool.submit(task.work, *task.args)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._pool = None
                self._finish(who, task, None, exc)
                continue
            done.add_done_callback(functools.partial(self._back, who, task, pool))

    def _back(self, who: str, task: _Task, pool: Executor,
              done: Future[Answer | Response]) -> None:
        """A computation ended (in a worker's thread): its end is handled on the loop of
        the request that asked for it."""
        try:
            task.future.get_loop().call_soon_threadsafe(self._done, who, task, pool, done)
        except RuntimeError:  # that loop is closed (its asker is gone): free the share here
            self._done(who, task, pool, done)

    def _done(self, who: str, task: _Task, pool: Executor,
              done: Future[Answer | Response]) -> None:
        error: BaseException | None
        error = RuntimeError("cancelled") if done.cancelled() else done.exception()
        answer = None
        if error is None:
            result = done.result()
            answer = result if isinstance(result, Answer) else Answer.of(result)
        with self.lock:
            if isinstance(error, BrokenProcessPool) and self._pool is pool:
                self.close()  # a worker died: the next computation starts a new pool
            self._finish(who, task, answer, error)
            self._dispatch()

    def _finish(self, who: str, task: _Task, answer: Answer | None,
                error: BaseException | None) -> None:
        self.busy -= 1
        left = self.running.get(who, 1) - 1
        if left > 0:
            self.running[who] = left
        else:
            self.running.pop(who, None)
        if task.key is not None:
            if answer is not None and answer.status == 200:
                self.cache.put(task.key, answer)
            if self.flights.get(task.key) is task.future:
                del self.flights[task.key]
        if task.future.done() or task.future.get_loop().is_closed():
            return
        if answer is not None:
            task.future.set_result(answer)
        else:
            task.future.set_exception(Refused(Words("refusal.internal"), BUSY_RETRY, 503))


PARENT_CHECK = 1.0  # seconds between a worker's looks at whether the server still runs


def watch_parent(parent: int) -> None:
    """A worker process's start: it ends by itself once the server that started it is
    gone (killed without the time to stop its pool), instead of waiting for work for
    ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="raceday-heavy-parent", daemon=True).start()


def _retrieve(future: asyncio.Future[Answer]) -> None:
    """Read a finished computation's error, so nobody is told it was never read (its
    asker may have left)."""
    if not future.cancelled():
        future.exception()
