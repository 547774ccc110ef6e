"""Numbers in the browser: WielerSIM predictions, KEIRIN and Dice Derby odds as jobs.

A job is started with ``POST /api/numbers`` and runs on the server in a background thread
(the engines' own functions: :func:`raceday.games.wielersim.predict.predict`,
:func:`raceday.games.keirin.odds.race_odds` and :func:`raceday.games.keirin.simulate.
simulate`, :func:`raceday.games.derby.odds.exact_odds` and :func:`raceday.games.derby.
fast.simulate_odds`), always in this process (``workers=1``), reporting ``progress(done,
total)``. The page polls ``GET /api/numbers/{id}`` for the progress and, at the end, the
result: tables (every column sortable in the page) and a chart of the main chance with its
95 % interval. ``DELETE /api/numbers/{id}`` stops a job at its next progress report.

The body is declared (:data:`NumbersBody`: one pydantic model a game, no extra fields,
bounded sizes, described in ``/openapi.json``). Sizes are checked before anything runs,
with one clear message (``{"error": ...}``, 400): the counts are smaller than the CLI's (a
browser job shares the party server; :class:`Limits`, which a server may lower), and at
most :data:`MAX_RUNNING` jobs run at once (429). A job is kept :data:`KEEP_SECONDS` after
it ends.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import numpy as np
from fastapi import APIRouter, Body, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StrictInt,
    Tag,
    WithJsonSchema,
)

from raceday.core.digits import plain_decimal
from raceday.core.errors import RacedayError
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.web.watch import (
    MAX_SEED,
    PELOTONS,
    WatchError,
    check_choice,
    check_fields,
    check_seed,
    page,
)

MAX_RUNNING = 2  # jobs computing at once on one server
MAX_KEPT = 50  # jobs remembered (the oldest finished ones are forgotten first)
KEEP_SECONDS = 3600.0
LIMITS = {  # races per job in the browser (the CLI allows more)
    "wielersim": 100_000,
    "keirin": 10_000_000,
    "derby": 10_000_000,
}
KEIRIN_RIDERS = (6, 9)
KEIRIN_LENGTH = (19, 1000)
MODES = {"wielersim": ("predict",), "keirin": ("odds", "simulate"),
         "derby": ("odds", "simulate")}

router = APIRouter()


class Cancelled(Exception):
    """Raised inside a job's progress report when the job was stopped."""


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
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    stop: threading.Event = field(default_factory=threading.Event)

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
        return out


@dataclass(frozen=True)
class Limits:
    """How big a job one server accepts: races per job of each game (:data:`LIMITS`) and
    the longest KEIRIN track (its exact odds cannot be stopped midway: 1,000 laps take some
    seconds). A server on a small machine, or a test, may lower them."""

    races: Mapping[str, int] = field(default_factory=lambda: dict(LIMITS))
    keirin_length: int = KEIRIN_LENGTH[1]


class Jobs:
    """The jobs of one server."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.limits = limits or Limits()

    def running(self) -> int:
        return sum(j.status == "running" for j in self.jobs.values())

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
              work: Callable[[Job], dict[str, Any]]) -> Job:
        with self.lock:
            self.forget_old()
            if self.running() >= MAX_RUNNING:
                raise WatchError(f"{MAX_RUNNING} jobs are already running on this server; "
                                 "wait for one to finish", 429)
            if len(self.jobs) >= MAX_KEPT:
                raise WatchError("too many jobs are kept; try again later", 429)
            job = Job(secrets.token_urlsafe(9), game, mode, params, total)
            self.jobs[job.id] = job
        thread = threading.Thread(target=self._run, args=(job, work), daemon=True,
                                  name=f"raceday-numbers-{job.id}")
        thread.start()
        return job

    @staticmethod
    def _run(job: Job, work: Callable[[Job], dict[str, Any]]) -> None:
        try:
            job.result = work(job)
            job.done = job.total
            job.status = "done"
        except Cancelled:
            job.status = "cancelled"
        except RacedayError as exc:
            job.status, job.error = "error", str(exc)
        except Exception as exc:  # a bug: say so on the page, keep serving
            job.status, job.error = "error", f"internal error: {type(exc).__name__}"
        finally:
            job.ended = time.monotonic()


def jobs_of(request: Request) -> Jobs:
    state = request.app.state
    if not hasattr(state, "numbers_jobs"):
        state.numbers_jobs = Jobs()
    jobs: Jobs = state.numbers_jobs
    return jobs


# --- checking a request -----------------------------------------------------------------
def _count(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WatchError(f"{what} must be a whole number")
    if not low <= value <= high:
        raise WatchError(f"{what} must be {low:,} to {high:,}")
    return value


FRACTION_LENGTH = 40  # characters of a fall rate or margin sent as text
FRACTION_TEXT = "text such as '0', '0.05' or '1/20' (digits, a point, a slash)"


def _fraction(value: object, what: str) -> object:
    """A fall rate or margin as text is digits with a point or a slash, never an exponent
    (``Fraction("1e99999999")`` would build that number, for minutes): the rule of
    :func:`raceday.core.digits.plain_decimal`, which the game's parsers apply too; numbers
    are left to the game's parser."""
    if isinstance(value, str) and plain_decimal(value, max_len=FRACTION_LENGTH) is None:
        raise WatchError(f"{what} is {FRACTION_TEXT}")
    return value


def plan(body: Mapping[str, Any], limits: Limits | None = None
         ) -> tuple[str, str, dict[str, Any], int, Callable[[Job], dict[str, Any]]]:
    """Check a job request (a :class:`NumbersBody`'s fields, or any mapping); returns
    (game, mode, params, total, work). Nothing runs here: every size is checked first."""
    limits = limits or Limits()

    def _n(game: str, default: int) -> int:
        return _count(body.get("n", default), "n (races)", 1, limits.races.get(game, 0))

    check_fields(body, {"game", "mode", "n", "seed", "route", "peloton", "riders", "length",
                        "fall_rate", "margin"})
    game = check_choice(body.get("game"), tuple(LIMITS), "game")
    if game == "wielersim":
        check_fields(body, {"game", "mode", "n", "seed", "route", "peloton"})
        if body.get("mode", "predict") != "predict":
            raise WatchError("a WielerSIM job is a prediction (mode 'predict')")
        route = check_choice(body.get("route"), SHIPPED_ROUTES, "route")
        peloton = check_choice(body.get("peloton"), PELOTONS, "peloton")
        n, seed = _n(game, 1000), check_seed(body.get("seed"))
        params = {"route": route, "peloton": peloton, "n": n, "seed": str(seed)}
        return game, "predict", params, n, lambda job: wielersim_predict(job, route, peloton,
                                                                          n, seed)
    mode = check_choice(body.get("mode"), MODES[game], "mode")
    if game == "keirin":
        check_fields(body, {"game", "mode", "n", "seed", "riders", "length"})
        riders = _count(body.get("riders", 9), "riders", *KEIRIN_RIDERS)
        length = _count(body.get("length", 50), "length", KEIRIN_LENGTH[0],
                        limits.keirin_length)
        from raceday.games.keirin.rules import KeirinOptions

        options = KeirinOptions.parse({"riders": riders, "length": length})
        if mode == "odds":
            return game, mode, {"riders": riders, "length": length}, 1, \
                lambda job: keirin_odds(job, options)
        n, seed = _n(game, 100_000), check_seed(body.get("seed"))
        return game, mode, {"riders": riders, "length": length, "n": n, "seed": str(seed)}, n, \
            lambda job: keirin_simulate(job, options, n, seed)
    check_fields(body, {"game", "mode", "n", "seed", "fall_rate", "margin"})
    from raceday.games.derby.odds import parse_margin
    from raceday.games.derby.rules import parse_fall_rate

    rate_text = body.get("fall_rate", "0")
    if not isinstance(rate_text, str):
        raise WatchError(f"fall_rate is {FRACTION_TEXT}")
    rate = parse_fall_rate(_fraction(rate_text, "fall_rate"))
    if mode == "odds":
        margin = parse_margin(_fraction(body.get("margin", "0.1"), "margin"))
        return game, mode, {"fall_rate": str(rate), "margin": str(margin)}, 1, \
            lambda job: derby_odds(job, rate, margin)
    n, seed = _n(game, 100_000), check_seed(body.get("seed"))
    return game, mode, {"fall_rate": str(rate), "n": n, "seed": str(seed)}, n, \
        lambda job: derby_simulate(job, rate, n, seed)


# --- the jobs ---------------------------------------------------------------------------
def col(key: str, label: str, kind: str = "text") -> dict[str, str]:
    """A table column: ``label`` is a message key of the page; ``kind`` text, int, num,
    pct (a chance), ci (a chance with its interval ``[p, low, high]``) or odds."""
    return {"key": key, "label": label, "kind": kind}


def wielersim_predict(job: Job, route: str, peloton: str, n: int, seed: int
                      ) -> dict[str, Any]:
    from raceday.games.wielersim.predict import predict
    from raceday.games.wielersim.rules import peloton_spec, route_spec

    pred = predict(route_spec(route), peloton_spec(peloton), n, seed=seed, workers=1,
                   progress=job.progress)

    def ci(count: Any) -> list[float]:
        lo, hi = pred.interval(int(count))
        return [int(count) / n, lo, hi]

    rows = [{"rider": pred.names[i], "bib": pred.numbers[i], "type": pred.types[i],
             "win": ci(pred.wins[i]), "podium": ci(pred.podiums[i]), "top10": ci(pred.top10[i])}
            for i in pred.order()]
    types = [{"type": t, "win": ci(w), "podium_places": p / n}
             for t, (w, p) in sorted(pred.by_type().items(), key=lambda kv: -kv[1][0])]
    return {
        "title": {"key": "nm_title_wielersim", "route": route, "peloton": peloton, "n": n,
                  "seed": str(seed)},
        "tables": [
            {"id": "riders", "title": "nm_table_riders", "columns": [
                col("rider", "nm_col_rider"), col("bib", "nm_col_bib", "int"),
                col("type", "nm_col_type"), col("win", "nm_col_win", "ci"),
                col("podium", "nm_col_podium", "ci"), col("top10", "nm_col_top10", "ci")],
             "rows": rows},
            {"id": "types", "title": "nm_table_types", "columns": [
                col("type", "nm_col_type"), col("win", "nm_col_win", "ci"),
                col("podium_places", "nm_col_podium_places", "num")], "rows": types},
        ],
        "chart": {"table": "riders", "label": "rider", "values": ["win", "podium"],
                  "top": 12},
    }


def keirin_odds(job: Job, options: Any) -> dict[str, Any]:
    from raceday.games.keirin.odds import BET_TYPES, race_odds

    job.progress(0, 1)
    odds = race_odds(options)
    job.progress(1, 1)
    win = odds.bet("win")
    tables = [{"id": "riders", "title": "nm_table_keirin_riders", "columns": [
        col("rider", "nm_col_rider"), col("win", "nm_col_win", "pct"),
        col("top2", "nm_col_top2", "pct"), col("top3", "nm_col_top3", "pct"),
        col("fair", "nm_col_fair", "odds")],
        "rows": [{"rider": f"R{r}", "win": win[(r,)],
                  "top2": float(odds.two[r - 1].sum() + odds.two[:, r - 1].sum()),
                  "top3": float(odds.three[r - 1].sum() + odds.three[:, r - 1].sum()
                                + odds.three[:, :, r - 1].sum()),
                  "fair": 1 / win[(r,)] if win[(r,)] > 0 else None}
                 for r in range(1, options.riders + 1)]}]
    for kind in BET_TYPES[1:]:
        sep = "-" if kind in ("exacta", "trifecta") else "="
        ranked = sorted(odds.bet(kind).items(), key=lambda kv: (-kv[1], kv[0]))
        tables.append({"id": kind, "title": f"nm_bet_{kind}", "columns": [
            col("bet", "nm_col_bet"), col("p", "nm_col_probability", "pct"),
            col("fair", "nm_col_fair", "odds")],
            "rows": [{"bet": sep.join(map(str, combo)), "p": p,
                      "fair": 1 / p if p > 0 else None} for combo, p in ranked]})
    return {"title": {"key": "nm_title_keirin_odds", "riders": options.riders,
                      "length": options.length},
            "tables": tables,
            "chart": {"table": "riders", "label": "rider", "values": ["win", "top3"],
                      "top": 9}}


def keirin_simulate(job: Job, options: Any, n: int, seed: int) -> dict[str, Any]:
    from raceday.games.keirin.simulate import simulate

    summary = simulate(options, n, np.random.default_rng(seed), engine="fast",
                       progress=job.progress)

    def ci(r: int, k: int) -> list[float]:
        lo, hi = summary.interval(r, k)
        return [summary.rate(r, k), lo, hi]

    rows = [{"rider": f"R{r}", "win": ci(r, 1), "top2": ci(r, 2), "top3": ci(r, 3)}
            for r in range(1, options.riders + 1)]
    mean, lo, hi = summary.mean_turns_interval()
    return {"title": {"key": "nm_title_keirin_sim", "riders": options.riders,
                      "length": options.length, "n": n, "seed": str(seed)},
            "tables": [{"id": "riders", "title": "nm_table_keirin_riders", "columns": [
                col("rider", "nm_col_rider"), col("win", "nm_col_win", "ci"),
                col("top2", "nm_col_top2", "ci"), col("top3", "nm_col_top3", "ci")],
                "rows": rows}],
            "notes": [{"key": "nm_mean_turns", "mean": round(mean, 2), "low": round(lo, 2),
                       "high": round(hi, 2)}],
            "chart": {"table": "riders", "label": "rider", "values": ["win", "top3"],
                      "top": 9}}


def derby_odds(job: Job, rate: Any, margin: Any) -> dict[str, Any]:
    from raceday.games.derby.odds import exact_odds, format_odds, make_board, pair_name
    from raceday.games.derby.rules import POSTS, horse_name

    job.progress(0, 1)
    exact = exact_odds(rate)
    board = make_board(exact, margin)
    job.progress(1, 1)
    win = [{"horse": horse_name(h), "post": h, "p": float(exact.win[h]),
            "fair": float(1 / exact.win[h]), "board": format_odds(board.win[h])}
           for h in POSTS]
    quin = [{"horse": pair_name(pr), "p": float(p), "fair": float(1 / p),
             "board": format_odds(board.quinella[pr])}
            for pr, p in sorted(exact.quinella.items(), key=lambda kv: -kv[1])]
    cols = [col("horse", "nm_col_horse"), col("p", "nm_col_probability", "pct"),
            col("fair", "nm_col_fair", "odds"), col("board", "nm_col_board")]
    return {"title": {"key": "nm_title_derby_odds", "fall_rate": str(rate),
                      "margin": str(margin)},
            "tables": [{"id": "win", "title": "nm_table_win", "columns": cols, "rows": win},
                       {"id": "quinella", "title": "nm_table_quinella", "columns": cols,
                        "rows": quin}],
            "chart": {"table": "win", "label": "horse", "values": ["p"], "top": 6}}


def derby_simulate(job: Job, rate: Any, n: int, seed: int) -> dict[str, Any]:
    from raceday.games.derby.fast import simulate_odds
    from raceday.games.derby.odds import exact_odds, pair_name
    from raceday.games.derby.rules import horse_name

    sim = simulate_odds(n, np.random.default_rng(seed), rate, progress=job.progress,
                        chunk=min(100_000, max(1_000, n // 50)))
    exact = exact_odds(rate)
    win = [{"horse": horse_name(h), "p": [e.p, e.low, e.high], "exact": float(exact.win[h])}
           for h, e in sim.win.items()]
    quin = [{"horse": pair_name(pr), "p": [e.p, e.low, e.high],
             "exact": float(exact.quinella[pr])} for pr, e in sim.quinella.items()]
    cols = [col("horse", "nm_col_horse"), col("p", "nm_col_estimate", "ci"),
            col("exact", "nm_col_exact", "pct")]
    return {"title": {"key": "nm_title_derby_sim", "fall_rate": str(rate), "n": n,
                      "seed": str(seed)},
            "tables": [{"id": "win", "title": "nm_table_win", "columns": cols, "rows": win},
                       {"id": "quinella", "title": "nm_table_quinella", "columns": cols,
                        "rows": quin}],
            "chart": {"table": "win", "label": "horse", "values": ["p"], "top": 6}}


# --- the JSON API's body and answers (served in /openapi.json) ---------------------------
def _shown(schema: dict[str, Any]) -> WithJsonSchema:
    """The field as /openapi.json describes it: the values a job accepts (those a generator
    such as Schemathesis should try). pydantic checks the fields each game takes, their
    types and sizes; :func:`plan` the values (ranges, choices, WielerSIM's smaller limit of
    races, a server's lowered :class:`Limits`), each refusal a 400 naming the field, in the
    words the page shows."""
    return WithJsonSchema(schema)


SEED_TEXT = "a whole number from 0 to 2**63 - 1, as a number or as digits"
_DIGITS = {"type": "string", "pattern": r"^[0-9]{1,12}([.][0-9]{1,12}|/[0-9]{1,12})?$"}


def _number_or_text(what: str, longest: int, floats: bool = False) -> BeforeValidator:
    """A field that is a JSON number (a whole one unless ``floats``) or short text: one
    message for anything else, rather than one per member of the union."""

    def check(value: object) -> object:
        kinds = (int, float) if floats else (int,)
        if value is None or (isinstance(value, kinds) and not isinstance(value, bool)) or (
                isinstance(value, str) and len(value) <= longest):
            return value
        raise ValueError(what)

    return BeforeValidator(check)


Races = Annotated[StrictInt | None, _shown({
    "type": "integer", "minimum": 1, "maximum": max(LIMITS.values()),
    "description": "races to simulate"})]
Seed = Annotated[int | str | None, _number_or_text(SEED_TEXT, 24), _shown({
    "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_SEED},
              {"type": "string", "pattern": "^[0-9]{1,19}$"}],
    "description": f"{SEED_TEXT} (browsers' numbers are exact only to 2**53); none: a "
                   "fresh one"})]
Mode = Annotated[str, Field(max_length=20),
                 _shown({"type": "string", "enum": list(MODES["keirin"])})]


class _JobBody(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WielersimJob(_JobBody):
    """A WielerSIM prediction: ``n`` races (at most 100,000) of a route and a peloton."""

    game: Literal["wielersim"]
    mode: Annotated[str | None, Field(max_length=20),
                    _shown({"type": "string", "enum": ["predict"]})] = None
    route: Annotated[str, Field(max_length=80),
                     _shown({"type": "string", "enum": list(SHIPPED_ROUTES)})]
    peloton: Annotated[str, Field(max_length=80),
                       _shown({"type": "string", "enum": list(PELOTONS)})]
    n: Races = None
    seed: Seed = None


class KeirinJob(_JobBody):
    """KEIRIN's exact odds (``mode`` ``odds``) or ``n`` simulated races (``simulate``)."""

    game: Literal["keirin"]
    mode: Mode
    riders: Annotated[StrictInt | None, _shown(
        {"type": "integer", "minimum": KEIRIN_RIDERS[0], "maximum": KEIRIN_RIDERS[1]})] = None
    length: Annotated[StrictInt | None, _shown(
        {"type": "integer", "minimum": KEIRIN_LENGTH[0], "maximum": KEIRIN_LENGTH[1],
         "description": "the race's length"})] = None
    n: Races = None
    seed: Seed = None


class DerbyJob(_JobBody):
    """Dice Derby's exact odds and board (``odds``: ``fall_rate``, ``margin``) or ``n``
    simulated races (``simulate``: ``fall_rate``, ``n``, ``seed``)."""

    game: Literal["derby"]
    mode: Mode
    fall_rate: Annotated[str | None, Field(max_length=FRACTION_LENGTH), _shown(
        {**_DIGITS, "description": "from 0 to 1/2, such as '0', '0.05' or '1/20'"})] = None
    margin: Annotated[float | int | str | None,
                      _number_or_text(f"a number from 0 to 0.5, or {FRACTION_TEXT}",
                                      FRACTION_LENGTH, True),
                      _shown({"anyOf": [{"type": "number", "minimum": 0, "maximum": 0.5},
                                        _DIGITS],
                              "description": "the bookmaker's margin, from 0 to 0.5"})] = None
    n: Races = None
    seed: Seed = None


def _game_of(value: object) -> object:
    if isinstance(value, dict):
        return value.get("game")
    return getattr(value, "game", None)


NumbersBody = Annotated[
    Annotated[WielersimJob, Tag("wielersim")] | Annotated[KeirinJob, Tag("keirin")]
    | Annotated[DerbyJob, Tag("derby")],
    Discriminator(_game_of, custom_error_type="game",
                  custom_error_message=f"game must be one of {', '.join(LIMITS)}"),
    Body(description="a numbers job; ``game`` says which fields it takes")]
"""The body of ``POST /api/numbers``: one model a game, chosen by ``game``. pydantic checks
the types and sizes; :func:`plan` the values."""


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


def _answers(ok: int, *refused: int) -> dict[int | str, dict[str, Any]]:
    error = {"application/json": {"schema": {
        "type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}}}
    return {ok: {"model": JobAnswer},
            **{status: {"description": "Refused", "content": error} for status in refused}}


# --- routes -----------------------------------------------------------------------------
@router.get("/numbers", include_in_schema=False)
async def numbers_page() -> FileResponse:
    return page("numbers.html")


@router.post("/api/numbers", status_code=202, response_class=JSONResponse,
             responses=_answers(202, 400, 403, 413, 415, 429))
async def start_job(body: NumbersBody, request: Request) -> JSONResponse:
    """Start a job; poll ``GET /api/numbers/{id}`` for its progress and result."""
    jobs = jobs_of(request)
    try:
        game, mode, params, total, work = plan(body.model_dump(exclude_unset=True),
                                               jobs.limits)
        job = jobs.start(game, mode, params, total, work)
    except WatchError as exc:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)
    except RacedayError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return JSONResponse(job.to_json(), status_code=202)


@router.get("/api/numbers/{job_id}", response_class=JSONResponse, responses=_answers(200, 404))
async def job_status(job_id: str, request: Request) -> JSONResponse:
    """A job's progress, and its result once it is done."""
    job = jobs_of(request).jobs.get(job_id)
    if job is None:
        return JSONResponse({"error": "no such job (finished jobs are kept for an hour)"},
                            status_code=404)
    return JSONResponse(job.to_json())


@router.delete("/api/numbers/{job_id}", response_class=JSONResponse,
               responses=_answers(200, 403, 404))
async def stop_job(job_id: str, request: Request) -> JSONResponse:
    """Stop a job at its next progress report."""
    job = jobs_of(request).jobs.get(job_id)
    if job is None:
        return JSONResponse({"error": "no such job"}, status_code=404)
    job.stop.set()
    return JSONResponse(job.to_json())
