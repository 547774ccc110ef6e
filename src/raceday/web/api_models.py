"""The JSON API's bodies and answers (served as /openapi.json), and its refusals: every
one is ``{"error": "one line", "words": {...}}`` with a 4xx status (503 for a database
that cannot be written now)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.present import refusal, render
from raceday.rooms import JSON
from raceday.rooms.intents import field_problem
from raceday.web.guard import Bucket, retry_after
from raceday.web.rooms import MAX_NAME, StoreUnavailable

TOO_MANY = Message("refusal.too_many")
UNWRITABLE_RETRY = 30  # seconds a 503 for a database that cannot be written says to wait


class StatusError(RacedayError):
    """A request refused with an HTTP status of its own (a 4xx: 404 for what is not
    there, 409 for what is not ready, 400 otherwise)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def answer_or_refusal(make: Callable[[], Any]) -> JSONResponse:
    """``make()`` as JSON; a refusal (any RacedayError) as ``{"error", "words"}`` with its
    status (a :class:`StatusError`'s, or a game face's error carrying one), else 400."""
    try:
        return JSONResponse(make())
    except RacedayError as exc:
        status = getattr(exc, "status", 400)
        return error_answer(status if isinstance(status, int) and 400 <= status < 500 else 400,
                            str(exc), words=exc.message)


StatusErrorT = TypeVar("StatusErrorT", bound=StatusError)


def status_refusal(error: type[StatusErrorT], status: int, key: str, /, **params: Any
                   ) -> StatusErrorT:
    """An ``error`` refusing with ``status``, in words from the tables."""
    refused = refusal(error, key, **params)
    refused.status = status
    return refused


class Body(BaseModel):
    """A request body: its fields and nothing else."""

    model_config = ConfigDict(extra="forbid")


class CreateRoom(Body):
    """A new room."""

    game: str = Field("derby", max_length=40,
                      description="a game with a browser room (GET /api/games lists them)")
    options: dict[str, Any] = Field(
        default_factory=dict, max_length=64,
        description="the game's options (free-form; the game checks them and names any it "
                    "does not know)")


class JoinRoom(Body):
    """A player takes a seat."""

    name: str = Field(max_length=10 * MAX_NAME,
                      description=f"1 to {MAX_NAME} printable characters, unique in the room")


MAX_HELD = 50  # rooms one "my games" question may ask about


class HeldRoom(Body):
    """A room this device holds a key of: its code and the host's or a seat's token."""

    code: str = Field(max_length=16, description="the room's join code")
    token: str = Field(max_length=200, description="the host's or a seat's token, as stored "
                                                    "by this device")


class MyGamesQuery(Body):
    """The rooms a device holds keys of (the landing page's "my games")."""

    rooms: list[HeldRoom] = Field(max_length=MAX_HELD, description=f"at most {MAX_HELD}")


class ErrorAnswer(BaseModel):
    """Every refusal: one line of English, and the same in words (a message key of the
    tables at /api/messages/<lang> and its parameters) for a page to show in its reader's
    language."""

    error: str
    words: dict[str, Any] | None = None


class RoomCreated(BaseModel):
    code: str
    game: str
    host_token: str = Field(description="the host's secret; only this answer carries it")
    join_url: str
    watch_url: str
    host_url: str
    days: bool = Field(False, description="a game played over days (the option days)")


class Joined(BaseModel):
    code: str
    seat: int
    token: str = Field(description="this seat's secret; only this answer carries it")
    name: str


class RoomInfo(BaseModel):
    code: str
    game: str
    phase: str | None
    seats: list[str]
    max_seats: int
    finished: bool
    seq: int
    join_url: str
    watch_url: str
    days: bool = Field(False, description="a game played over days: kept open until it ends")


class PlacePlayer(BaseModel):
    """One place of a turn-based game, as "my games" shows it."""

    place: int
    kind: str = Field(description='"human" or a computer level')
    controller: str = Field(description='"seat" (a phone), "screen" (the host) or "computer"')
    name: str | None = Field(description="the name of the seat playing it, if any")
    mine: bool = Field(description="played by the key that asked")


class MyGame(BaseModel):
    """One room of "my games": ``found`` false (and nothing else) for a code that names no
    open room or a token that is not one of its keys."""

    code: str
    found: bool
    game: str | None = None
    role: str | None = Field(None, description='"host" or "seat"')
    seat: int | None = None
    name: str | None = Field(None, description="the seat's name")
    phase: str | None = None
    finished: bool | None = None
    days: bool | None = None
    players: list[PlacePlayer] | None = Field(
        None, description="the places of a turn-based game (None for other games)")
    to_act: int | None = Field(None, description="the place to act now")
    your_turn: bool | None = None


class MyGames(BaseModel):
    rooms: list[MyGame]




def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's refusals."""
    return {status: {"model": ErrorAnswer} for status in statuses}


def one_line(errors: Sequence[Any]) -> tuple[str, Message]:
    """pydantic's validation errors as one line for ``{"error": ...}`` (pydantic's own
    English, which names the rule broken) and as words for the pages (by the kind of error:
    a missing field, a text too long, a value of the wrong type, anything else)."""
    unknown = sorted(str(e["loc"][-1]) for e in errors if e.get("type") == "extra_forbidden")
    if unknown:
        return f"unknown field(s): {', '.join(unknown)}"[:200], field_problem(errors)
    if not errors:
        return "the request is malformed", Message("refusal.malformed")
    first = errors[0]
    where = [str(p) for p in first.get("loc", ()) if p not in ("body", "path", "query")]
    if str(first.get("type", "")) == "missing" and not where:
        return "the request needs a JSON body", Message("refusal.body_needed")
    message = str(first.get("msg", "invalid")).replace("\n", " ").removeprefix("Value error, ")
    field = ".".join(where)[:80]
    return (f"{field}: {message}" if where else message)[:200], field_problem(errors)


def error_answer(status: int, message: str | Message, headers: dict[str, str] | None = None,
                 words: Message | None = None) -> JSONResponse:
    """A refusal: ``{"error": text, "words": ...}``: the English text and ``words``, the same
    as a message key and its parameters for the page to word in its reader's language (a
    Message ``message`` is both)."""
    if isinstance(message, Message):
        words = message
        message = render(message, "en")
    body: JSON = {"error": message}
    if words is not None:
        body["words"] = words.to_json()
    return JSONResponse(body, status_code=status, headers=headers)


def refused(status: int, exc: RacedayError) -> JSONResponse:
    """``exc`` refused with ``status``; a write the database refused is 503 whatever the
    route's status for a refusal (the server's trouble, not the request's: try later)."""
    if isinstance(exc, StoreUnavailable):
        return error_answer(503, str(exc), {"Retry-After": str(UNWRITABLE_RETRY)}, exc.message)
    return error_answer(status, str(exc), words=exc.message)


def too_many(bucket: Bucket) -> JSONResponse:
    """429: this client's allowance is spent; ``Retry-After`` says for how long."""
    return error_answer(429, TOO_MANY, {"Retry-After": retry_after(bucket)})


