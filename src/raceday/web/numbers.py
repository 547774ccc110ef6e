"""Numbers in the browser: each game's predictions, odds and simulations as jobs.

A game offers jobs by carrying a ``numbers`` face (:mod:`raceday.research.jobs`: its
request model, its limits and its ``plan``), found by discovery: WielerSIM's predictions,
KEIRIN's and Dice Derby's odds and simulations today. A job is started with ``POST
/api/numbers`` and runs on the server in a background thread (the engines' own functions),
always in this process, reporting ``progress(done, total)``. The page polls ``GET
/api/numbers/{id}`` for the progress and, at the end, the result: tables (every column
sortable in the page) and a chart of the main chance with its 95 % interval. ``DELETE
/api/numbers/{id}`` stops a job at its next progress report.

The body is declared (:data:`NumbersBody`: one pydantic model a game, no extra fields,
bounded sizes, described in ``/openapi.json``). Sizes are checked before anything runs,
with one clear message (``{"error": ...}``, 400): the counts are smaller than the CLI's (a
browser job shares the party server; :class:`Limits`, which a server may lower), and at
most :data:`MAX_RUNNING` jobs run at once (429), at most ``per_address`` (one by default)
of them for one client address (:func:`~raceday.web.guard.client_key`), so one address
cannot hold every slot (429). A job is kept :data:`KEEP_SECONDS` after it ends.

The same job asked for again is the same job: a request whose answer is a function of the
request (it names its seed, or it draws nothing, as exact odds) is given the job of an
identical request that is running or done (its id; nothing is computed again, and it is
stopped only when everyone who asked for it has asked to stop it). A simulation asked for
without a seed is meant to be a fresh one: it always starts a job of its own.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, Union

from fastapi import APIRouter, Body, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Discriminator, Field, Tag

from raceday.core.discovery import face, games_with
from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.present import refusal, render
from raceday.research.jobs import JobError, Plan, choice
from raceday.web.guard import client_key
from raceday.web.pages import PAGES

MAX_RUNNING = 2  # jobs computing at once on one server
MAX_KEPT = 50  # jobs remembered (the oldest finished ones are forgotten first)
KEEP_SECONDS = 3600.0
FACES: dict[str, ModuleType] = {
    game: module for game in games_with("numbers")
    if (module := face(game, "numbers")) is not None}
"""Each game that offers browser jobs: its ``numbers`` face (see :mod:`raceday.research.jobs`)."""
LIMITS: dict[str, dict[str, int]] = {game: dict(module.LIMITS) for game, module in FACES.items()}
"""The largest job of each game in the browser (the CLI allows more), as the games declare."""

router = APIRouter()


class Cancelled(Exception):
    """Raised inside a job's progress report when the job was stopped."""


def _busy(key: str, **params: Any) -> JobError:
    """A job refused because the server is busy (429), in words."""
    error = refusal(JobError, key, **params)
    error.status = 429
    return error


def _refused(status: int, exc: RacedayError) -> JSONResponse:
    """A refusal: its English text and, where it has them, its words."""
    body: dict[str, Any] = {"error": str(exc)}
    if exc.message is not None:
        body["words"] = exc.message.to_json()
    return JSONResponse(body, status_code=status)


@dataclass
class Job:
    id: str
    game: str
    mode: str
    params: dict[str, Any]
    total: int
    done: int = 0
    status: str = "running"  # running, done, error, cancelled
    result: dict[str, Any] | None = None
    error: str | None = None
    words: Message | None = None  # the error in words, where it has them
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    owner: str = ""  # the client address that started it
    key: str | None = None  # the request, where identical requests share the job
    askers: set[str] = field(default_factory=set)  # every address that asked for it
    stoppers: set[str] = field(default_factory=set)  # and those that asked to stop it

    def progress(self, done: int, total: int) -> None:
        if self.stop.is_set():
            raise Cancelled
        self.done = int(done)
        self.total = int(total)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "game": self.game, "mode": self.mode,
                               "params": self.params, "status": self.status,
                               "done": self.done, "total": self.total,
                               "seconds": round((self.ended or time.monotonic())
                                                - self.started, 2)}
        if self.result is not None:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        if self.words is not None:
            out["words"] = self.words.to_json()
        return out


@dataclass(frozen=True)
class Limits:
    """How big a job one server accepts, by game: the sizes each game declares (races per
    job, and e.g. KEIRIN's longest track), with ``lowered`` ones in their place. A server
    on a small machine, or a test, may lower them."""

    lowered: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def of(self, game: str) -> dict[str, int]:
        return {**LIMITS.get(game, {}), **self.lowered.get(game, {})}


class Jobs:
    """The jobs of one server."""

    def __init__(self, limits: Limits | None = None, per_address: int = 1) -> None:
        self.jobs: dict[str, Job] = {}
        # jobs deleted while running: no longer readable, still holding their slot until
        # their thread sees the stop (at its next progress report)
        self.winding: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.limits = limits or Limits()
        self.per_address = per_address  # jobs one address may have running at once
        self.computed = 0  # jobs started (a shared one counts once)

    def running(self) -> int:
        return sum(j.status == "running" for j in self._all())

    def _all(self) -> list[Job]:
        return [*self.jobs.values(), *self.winding.values()]

    def delete(self, job: Job) -> None:
        """Forget ``job`` (stopping it first if it runs): it is no longer readable."""
        job.stop.set()
        with self.lock:
            self.jobs.pop(job.id, None)
            if job.status == "running":
                self.winding[job.id] = job

    def forget_old(self) -> None:
        now = time.monotonic()
        for key, job in list(self.jobs.items()):
            if job.ended is not None and now - job.ended > KEEP_SECONDS:
                del self.jobs[key]
        ended = sorted((j for j in self.jobs.values() if j.ended is not None),
                       key=lambda j: j.ended or 0)
        while len(self.jobs) >= MAX_KEPT and ended:
            del self.jobs[ended.pop(0).id]

    def start(self, game: str, mode: str, params: dict[str, Any], total: int,
              work: Callable[[Job], dict[str, Any]], owner: str = "",
              key: str | None = None) -> Job:
        """Start a job for address ``owner``; with ``key`` (the request, when its answer is
        a function of it), an identical request's job running or done is given instead."""
        with self.lock:
            self.forget_old()
            same = None if key is None else next(
                (j for j in self.jobs.values() if j.key == key
                 and j.status in ("running", "done")), None)
            if same is not None:
                same.askers.add(owner)
                return same
            mine = sum(j.status == "running" and j.owner == owner for j in self._all())
            if mine >= self.per_address:
                raise _busy("refusal.jobs_yours", max=self.per_address)
            if self.running() >= MAX_RUNNING:
                raise _busy("refusal.jobs_running", max=MAX_RUNNING)
            if len(self.jobs) >= MAX_KEPT:
                raise _busy("refusal.jobs_kept")
            job = Job(secrets.token_urlsafe(9), game, mode, params, total, owner=owner,
                      key=key, askers={owner})
            self.jobs[job.id] = job
            self.computed += 1
        thread = threading.Thread(target=self._run, args=(job, work), daemon=True,
                                  name=f"raceday-numbers-{job.id}")
        thread.start()
        return job

    def _run(self, job: Job, work: Callable[[Job], dict[str, Any]]) -> None:
        try:
            job.result = work(job)
            job.done = job.total
            job.status = "done"
        except Cancelled:
            job.status = "cancelled"
        except RacedayError as exc:
            job.status, job.error, job.words = "error", str(exc), exc.message
        except Exception:  # a bug: say so on the page, keep serving
            job.words = Message("refusal.internal")
            job.status, job.error = "error", render(job.words, "en")
        finally:
            job.ended = time.monotonic()
            with self.lock:
                self.winding.pop(job.id, None)


def jobs_of(request: Request) -> Jobs:
    state = request.app.state
    if not hasattr(state, "numbers_jobs"):
        heavy = getattr(state, "heavy", None)  # raceday.web.heavy: the server's shares
        state.numbers_jobs = Jobs(per_address=1 if heavy is None
                                  else heavy.limits.numbers_per_address)
    jobs: Jobs = state.numbers_jobs
    return jobs


# --- checking a request -----------------------------------------------------------------
def same_key(body: Mapping[str, Any], params: Mapping[str, Any]) -> str | None:
    """The request as the key identical requests share a job by, or None where its answer
    is not a function of it: it asks for races without naming their seed (the plan drew
    one: ``seed`` is in its ``params``)."""
    if "seed" in params and body.get("seed") in (None, ""):
        return None
    return json.dumps(dict(body), sort_keys=True, default=str)


def plan(body: Mapping[str, Any], limits: Limits | None = None
         ) -> tuple[str, str, dict[str, Any], int, Callable[[Job], dict[str, Any]]]:
    """Check a job request (a body's fields, or any mapping) with its game's ``plan``;
    returns (game, mode, params, total, work). Nothing runs here: every size is checked
    first."""
    game = choice(body.get("game"), tuple(FACES), "game")
    checked: Plan = FACES[game].plan(body, (limits or Limits()).of(game))
    return game, checked.mode, checked.params, checked.total, checked.work


# --- the JSON API's body and answers (served in /openapi.json) ---------------------------
def _game_of(value: object) -> object:
    if isinstance(value, dict):
        return value.get("game")
    return getattr(value, "game", None)


if TYPE_CHECKING:
    NumbersBody = BaseModel
else:  # a union made from the games found, which a type checker cannot follow
    NumbersBody = Annotated[
        Union[tuple(Annotated[module.Body, Tag(game)] for game, module in FACES.items())],  # noqa: UP007
        Discriminator(_game_of, custom_error_type="game",
                      custom_error_message=f"game must be one of {', '.join(FACES)}"),
        Body(description="a numbers job; ``game`` says which fields it takes")]
"""The body of ``POST /api/numbers``: one model a game (each game's ``numbers`` face's
``Body``), chosen by ``game``. pydantic checks the types and sizes; :func:`plan` the
values."""


class JobAnswer(BaseModel):
    """A job as the page polls it; ``result`` once it is done, ``error`` if it failed."""

    id: str
    game: str
    mode: str
    params: dict[str, Any]
    status: str = Field(description="running, done, error or cancelled")
    done: int
    total: int
    seconds: float
    result: dict[str, Any] | None = None
    error: str | None = None
    words: dict[str, Any] | None = Field(
        None, description="the error in words (a message key and its parameters)")


def _answers(ok: int, *refused: int) -> dict[int | str, dict[str, Any]]:
    error = {"application/json": {"schema": {
        "type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}}}
    return {ok: {"model": JobAnswer},
            **{status: {"description": "Refused", "content": error} for status in refused}}


# --- routes -----------------------------------------------------------------------------
@router.get("/numbers", include_in_schema=False)
async def numbers_page() -> HTMLResponse:
    return PAGES["numbers"].response()


class OfferedGame(BaseModel):
    """A game that offers jobs, with the largest job it takes in the browser."""

    game: str
    limits: dict[str, int]


@router.get("/api/numbers/games", response_model=list[OfferedGame])
async def offered_games(request: Request) -> list[OfferedGame]:
    """The games that offer jobs (each game's page module is
    ``/games/<game>/static/numbers.js``), with this server's limits."""
    limits = jobs_of(request).limits
    return [OfferedGame(game=game, limits=limits.of(game)) for game in FACES]


@router.post("/api/numbers", status_code=202, response_class=JSONResponse,
             responses=_answers(202, 400, 403, 413, 415, 429))
async def start_job(body: NumbersBody, request: Request) -> JSONResponse:
    """Start a job; poll ``GET /api/numbers/{id}`` for its progress and result."""
    spent = request.app.state.creation_refusal(request)  # the one creation allowance (429)
    if spent is not None:
        return spent  # type: ignore[no-any-return]
    jobs = jobs_of(request)
    fields = body.model_dump(exclude_unset=True)
    who = client_key(request.scope, getattr(request.app.state, "trusted_proxies", ()))
    try:
        game, mode, params, total, work = plan(fields, jobs.limits)
        job = jobs.start(game, mode, params, total, work, owner=who,
                         key=same_key(fields, params))
    except JobError as exc:
        return _refused(exc.status, exc)
    except RacedayError as exc:
        return _refused(400, exc)
    return JSONResponse(job.to_json(), status_code=202)


@router.get("/api/numbers/{job_id}", response_class=JSONResponse, responses=_answers(200, 404))
async def job_status(job_id: str, request: Request) -> JSONResponse:
    """A job's progress, and its result once it is done."""
    job = jobs_of(request).jobs.get(job_id)
    if job is None:
        return _refused(404, refusal(JobError, "refusal.no_job"))
    return JSONResponse(job.to_json())


@router.delete("/api/numbers/{job_id}", response_class=JSONResponse,
               responses=_answers(200, 403, 404))
async def stop_job(job_id: str, request: Request) -> JSONResponse:
    """Stop and forget a job (a job others asked for too: once all of them asked to stop
    it); afterwards it is not found. It stops at its next progress report."""
    job = jobs_of(request).jobs.get(job_id)
    if job is None:
        return _refused(404, refusal(JobError, "refusal.no_job"))
    job.stoppers.add(client_key(request.scope,
                                getattr(request.app.state, "trusted_proxies", ())))
    if not job.askers <= job.stoppers:
        return JSONResponse(job.to_json())  # others still wait for its answer
    jobs_of(request).delete(job)
    out = job.to_json()
    if out["status"] == "running":
        out["status"] = "cancelled"  # what it is from now on (its thread stops soon)
    return JSONResponse(out)
