"""The kit of a game's ``numbers`` face: browser jobs that run the engine's own predictions,
odds and simulations on the server.

A game offers jobs by carrying a ``numbers`` face (found by :mod:`raceday.core.discovery`)
that declares:

- ``LIMITS``: the largest sizes one browser job may ask for (``{"races": 100_000}``; a
  server may lower them);
- ``Body``: a :class:`JobBody` model of the request (``game`` a ``Literal`` of the game's
  name; no extra fields, bounded sizes, described in ``/openapi.json``);
- ``plan(body, limits)``: the request checked (every size first, nothing run) into a
  :class:`Plan`, whose ``work(job)`` reports ``job.progress(done, total)`` and returns the
  result: tables (:func:`col` columns, every label a message key of the page), notes and
  a chart.

The server (:mod:`raceday.web.numbers`) owns the jobs, their threads and the routes.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    WithJsonSchema,
)

from raceday.core.digits import ascii_int, plain_decimal
from raceday.core.errors import RacedayError

MAX_SEED = 2**63 - 1
SEED_TEXT = "a whole number from 0 to 2**63 - 1, as a number or as digits"
SEED_RANGE = "seed must be a whole number from 0 to 2**63 - 1"
FRACTION_LENGTH = 40  # characters of a fall rate or margin sent as text
FRACTION_TEXT = "text such as '0', '0.05' or '1/20' (digits, a point, a slash)"
DIGITS_SCHEMA = {"type": "string",
                 "pattern": r"^[0-9]{1,12}([.][0-9]{1,12}|/[0-9]{1,12})?$"}


class JobError(RacedayError):
    """A job request refused (400, or the status given: 429 when the server is busy)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Progress(Protocol):
    """What a job's work reports to: ``progress(done, total)`` (it raises when the job
    was stopped)."""

    def progress(self, done: int, total: int) -> None: ...


@dataclass(frozen=True)
class Plan:
    """A checked job: its mode, the parameters shown with it, the total to count to and
    the work (run later, in the server's thread)."""

    mode: str
    params: dict[str, Any]
    total: int
    work: Callable[[Progress], dict[str, Any]]


# --- checking a request -----------------------------------------------------------------
def only_fields(body: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise JobError(f"unknown field(s): {', '.join(unknown)}")


def choice(value: object, allowed: Sequence[str], what: str) -> str:
    """One of ``allowed`` only (shipped names: the browser never names files)."""
    if not isinstance(value, str) or value not in allowed:
        raise JobError(f"{what} must be one of {', '.join(allowed)}")
    return value


def job_mode(body: Mapping[str, Any], own_fields: set[str], modes: Sequence[str]) -> str:
    """The request's mode, one of ``modes``, once the body holds no field beyond ``game``,
    ``mode``, ``n``, ``seed`` and the game's ``own_fields``."""
    only_fields(body, {"game", "mode", "n", "seed", *own_fields})
    return choice(body.get("mode"), modes, "mode")


def count(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise JobError(f"{what} must be a whole number")
    if not low <= value <= high:
        raise JobError(f"{what} must be {low:,} to {high:,}")
    return value


def races(body: Mapping[str, Any], limits: Mapping[str, int], default: int) -> int:
    """The job's ``n`` (races to run): 1 to the server's limit."""
    return count(body.get("n", default), "n (races)", 1, limits.get("races", 0))


def seed(value: object) -> int:
    """A seed as a number or as digits (a browser's numbers are exact only to 2**53, so the
    pages send seeds as text); none: a fresh one below 2**53, exact in any browser."""
    if value is None or value == "":
        return secrets.randbits(53)
    if isinstance(value, str):
        value = ascii_int(value, max_digits=19)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise JobError(SEED_RANGE)
    return value


def simulation_plan(mode: str, params: Mapping[str, Any], body: Mapping[str, Any],
                    limits: Mapping[str, int], run: Callable[[Progress, int, int], Any],
                    default: int = 100_000) -> Plan:
    """The plan of ``n`` races from a seed, both read from the body (``n`` 1 to the server's
    limit, ``default`` when not given) and shown after ``params``; ``run(job, n, seed)``
    is the work."""
    n, chosen = races(body, limits, default), seed(body.get("seed"))
    return Plan(mode, {**params, "n": n, "seed": str(chosen)}, n,
                lambda job: run(job, n, chosen))


def fraction_text(value: object, what: str) -> object:
    """A fall rate or margin as text is digits with a point or a slash, never an exponent
    (``Fraction("1e99999999")`` would build that number, for minutes): the rule of
    :func:`raceday.core.digits.plain_decimal`, which the game's parsers apply too; numbers
    are left to the game's parser."""
    if isinstance(value, str) and plain_decimal(value, max_len=FRACTION_LENGTH) is None:
        raise JobError(f"{what} is {FRACTION_TEXT}")
    return value


# --- the results ------------------------------------------------------------------------
def col(key: str, label: str, kind: str = "text") -> dict[str, str]:
    """A table column: ``label`` is a message key of the page; ``kind`` text, word (a
    message key, shown in the reader's language), int, num, pct (a chance), ci (a chance
    with its interval ``[p, low, high]``) or odds."""
    return {"key": key, "label": label, "kind": kind}


# --- the request's model (served in /openapi.json) --------------------------------------
def shown(schema: dict[str, Any]) -> WithJsonSchema:
    """The field as /openapi.json describes it: the values a job accepts (those a generator
    such as Schemathesis should try). pydantic checks the fields each game takes, their
    types and sizes; the face's ``plan`` the values (ranges, choices, a server's lowered
    limits), each refusal a 400 naming the field, in the words the page shows."""
    return WithJsonSchema(schema)


def number_or_text(what: str, longest: int, floats: bool = False) -> BeforeValidator:
    """A field that is a JSON number (a whole one unless ``floats``) or short text: one
    message for anything else, rather than one per member of the union."""

    def check(value: object) -> object:
        kinds = (int, float) if floats else (int,)
        if value is None or (isinstance(value, kinds) and not isinstance(value, bool)) or (
                isinstance(value, str) and len(value) <= longest):
            return value
        raise ValueError(what)

    return BeforeValidator(check)


def races_schema(limit: int) -> WithJsonSchema:
    """How /openapi.json shows a body's ``n``: races to run, at most ``limit``."""
    return shown({"type": "integer", "minimum": 1, "maximum": limit,
                  "description": "races to simulate"})


def modes_schema(modes: Sequence[str]) -> WithJsonSchema:
    """How /openapi.json shows a body's ``mode``: one of ``modes``."""
    return shown({"type": "string", "enum": list(modes)})


def _seed_as_described(value: int | str | None) -> int | str | None:
    """A seed the body's description allows (checked when the job is asked for, also by
    the modes that draw no dice): 0 to 2**63 - 1, as a number or as digits (spaces around
    them allowed), or empty."""
    text = value.strip(" ") if isinstance(value, str) else None
    number = value if isinstance(value, int) else (
        ascii_int(text, max_digits=19) if text else 0)
    if (text is not None and text and not text.isdigit()) or number is None \
            or not 0 <= number <= MAX_SEED:
        raise ValueError(SEED_RANGE)
    return value


Seed = Annotated[int | str | None, number_or_text(SEED_TEXT, 24),
                 AfterValidator(_seed_as_described), shown({
    "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_SEED},
              {"type": "string", "pattern": "^ *[0-9]{0,19} *$"}, {"type": "null"}],
    "description": f"{SEED_TEXT} (browsers' numbers are exact only to 2**53); none (or no "
                   "digits): a fresh one"})]


class JobBody(BaseModel):
    """Base of a game's job request: no extra fields."""

    model_config = ConfigDict(extra="forbid")


# --- a game's exact odds or simulated races ---------------------------------------------
ODDS_MODES = ("odds", "simulate")
RACES_LIMIT = 10_000_000  # races per job in the browser (the CLI allows more)


class OddsOrSimulationJob(JobBody):
    """A job that is a race's exact odds (``mode`` ``odds``) or ``n`` races simulated from
    a seed (``simulate``); a game adds its ``game`` literal and its own fields."""

    mode: Annotated[str, Field(max_length=20), modes_schema(ODDS_MODES)]
    n: Annotated[StrictInt | None, races_schema(RACES_LIMIT)] = None
    seed: Seed = None


def odds_or_simulation(mode: str, params: Mapping[str, Any], body: Mapping[str, Any],
                       limits: Mapping[str, int], odds: Callable[[Progress], dict[str, Any]],
                       simulate: Callable[[Progress, int, int], Any],
                       simulation_params: Mapping[str, Any] | None = None) -> Plan:
    """The plan of ``mode``: the exact odds (``odds(job)``, one step) or the races
    (``simulate(job, n, seed)``), shown with ``params`` (``simulation_params`` instead for
    a simulation, where it shows fewer)."""
    if mode == "odds":
        return Plan(mode, dict(params), 1, odds)
    return simulation_plan(mode, params if simulation_params is None else simulation_params,
                           body, limits, simulate)

