"""The WebSocket wire of a room, ``/ws/{code}``: what a client sends (a hello, then
intents) and the frames the server sends back, as pydantic models.

The first message is ``{"type": "hello", "token": T | null, "since": N}``: the host's or a
seat's token (kept in the browser's storage), or null for a spectator; ``since`` is the
last event number the client saw. The server answers ``{"type": "welcome", "role", "seq",
"view", "catchup"}`` (the view that client may see, and the public events after
``since``). After that every message is an *intent* such as ``{"type": "bid", "amount":
3000, "ref": 7}``; the server answers the sender with ``{"type": "ack", "ref", "seq"}`` or
``{"type": "error", "ref", "message"}`` and sends every connection of the room ``{"type":
"update", "seq", "events", "view"}`` with its own view. An update's ``seq`` is the room's
revision; on a quiet server each intent has its own, under load the intents applied to one
room before its update went out share it (the events of all, in order; the view as of the
last), so a client takes an update as every revision after the one it held
(:meth:`raceday.web.hub.Hub.publish`). An intent is checked against its room's declared
union of intents (:mod:`raceday.rooms.intents`) before the room sees it; one that does not
fit is answered with an error naming the field.

Deltas: a client whose hello has ``"delta": true`` (the pages always ask) is sent each
update as ``{"type": "update", "seq": N, "base": M, "events", "patch": [ops]}`` instead:
RFC 6902 JSON Patch ops (``add``/``remove``/``replace`` with JSON Pointer paths;
:mod:`raceday.web.delta` and ``static/js/delta.js``) turning the view it was sent at seq
``M`` (its welcome or its previous update) into its view at seq ``N``; or, where a patch
would not be smaller, ``"view"`` in full as above. A client whose copy is not at ``M``, or
that cannot apply the patch, resyncs: it reconnects with ``since`` and the welcome brings
the whole view again. The welcome always carries the whole view.

After a restart a race saved mid-way waits ``resume_after`` seconds for the screens to
reconnect; meanwhile its welcome carries ``"resume_in": S`` (seconds), which the pages
show as "Resuming the race in S s" instead of "Connected" until it runs out or an update
comes (an intent accepted meanwhile sets the race going at once).

Messages over 4 KB, malformed JSON (or JSON nested more than 32 levels), unknown intents
and wrong tokens are answered with an error and change nothing. More than the allowed rate
(a token bucket per connection: bursts of 20, 10 a second) is not even read: the first
message over it is answered "slow down", the rest of the flood nothing; a connection that
keeps flooding (:data:`raceday.web.routes_socket.FLOOD` messages over) is closed with code
4429 and the reason in words, and its address's next handshakes wait (429). ``{"type":
"ping"}`` is answered with ``{"type": "pong"}``.

One device per seat: the host's token and each seat's token are held by one connection at a
time. A newer connection with the same token takes the seat; the older one is sent
``{"type": "error", "fatal": true, "reason": "replaced", "message": "this seat was opened
on another device"}`` and closed with code 4409 (the pages show that and do not reconnect).
Spectators may be many.

Frames are models too. The small ones (:class:`Ack`, :class:`Pong`, :class:`ErrorFrame`)
are encoded by pydantic; a welcome and an update carry a view encoded before (once per
room, not once per screen: :mod:`raceday.web.hub`), so their models declare the shape (and
the published schema) while :meth:`Welcome.encode` and :meth:`Update.encode` splice the
encoded parts into one text. :func:`wire_schema` is the JSON Schema of it all, served at
``/wire-schema.json``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.present import render
from raceday.rooms import JSON
from raceday.rooms.intents import field_problem, intent_union_schema
from raceday.web import jsontext
from raceday.web.guard import MAX_BODY, BadJSON, loads

MAX_MESSAGE = MAX_BODY  # bytes of one client message (REST body or WebSocket frame)
MAX_REF = 40  # characters of a text ``ref``

Ref = int | str | None


def _since(value: object) -> object:
    """A hello's ``since`` that is not a whole number is read as "nothing seen" (-1)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


class Hello(BaseModel):
    """The first message of a connection: who it is, and what it saw before."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["hello"]
    # a key of another type is no seat's key either: refused as one (not_a_seat)
    token: Annotated[str | None, BeforeValidator(
        lambda value: value if value is None or isinstance(value, str) else repr(value))] = Field(
        None, description="the host's or a seat's key (kept in the browser); null for a "
                          "spectator")
    since: Annotated[int, BeforeValidator(_since)] = Field(-1, description=(
        "the last event number the client saw (-1: none); the welcome brings the rest"))
    delta: Annotated[bool, BeforeValidator(lambda value: value is True)] = Field(
        False, description="true: updates come as JSON Patches of the view sent before")


class Envelope(BaseModel):
    """What every intent has: its kind, and a ``ref`` echoed in its answer (an integer or a
    short text; any other ``ref`` is dropped, the intent still read)."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(description="the intent's kind: ping, or one of the room's kinds")
    ref: Ref = None


# --- frames ------------------------------------------------------------------------------
class Frame(BaseModel):
    """A frame the server sends."""

    def text(self) -> str:
        """The frame as JSON text (fields left unset are left out)."""
        return jsontext.dumps({"type": type(self).model_fields["type"].default,
                               **self.model_dump(mode="json", exclude_unset=True)})


class Ack(Frame):
    """An intent accepted: ``seq`` is the revision that holds it (its update follows)."""

    type: Literal["ack"] = "ack"
    ref: Ref
    seq: int


class Pong(Frame):
    """The answer to ``{"type": "ping"}``."""

    type: Literal["pong"] = "pong"
    ref: Ref


class ErrorFrame(Frame):
    """A refusal: the English line and the same in words (a message key of the tables and
    its parameters); ``fatal`` ones end the connection (``reason`` says why)."""

    type: Literal["error"] = "error"
    ref: Ref
    message: str
    words: dict[str, Any] | None = None
    fatal: bool | None = None
    reason: Literal["replaced", "removed"] | None = None


class Welcome(Frame):
    """The answer to a hello: the whole view this client may see and the public events
    after its ``since``."""

    type: Literal["welcome"] = "welcome"
    code: str
    game: str
    role: dict[str, Any] = Field(description='{"kind": host|seat|spectator, "seat": n|null}')
    seq: int
    catchup: list[dict[str, Any]]
    view: dict[str, Any]
    resume_in: float | None = Field(None, description=(
        "seconds until a race saved mid-way goes on after a restart"))

    @staticmethod
    def encode(code: str, game: str, role: JSON, seq: int, catchup: list[JSON], view: str,
               resume_in: float | None) -> str:
        """The welcome's text with ``view`` already encoded."""
        head = jsontext.dumps({"type": "welcome", "code": code, "game": game, "role": role,
                               "seq": seq, "catchup": catchup})
        tail = "" if resume_in is None else f',"resume_in":{resume_in:.1f}'
        return f'{head[:-1]},"view":{view}{tail}}}'


class Update(Frame):
    """The events since the client's last revision and its view now: whole (``view``) or,
    for a client that asked for deltas, as RFC 6902 ops (``patch``) from the view it was
    sent at ``base``."""

    type: Literal["update"] = "update"
    seq: int
    events: list[dict[str, Any]]
    view: dict[str, Any] | None = None
    base: int | None = None
    patch: list[dict[str, Any]] | None = None

    @staticmethod
    def encode(seq: int, events: str, view: str) -> str:
        """An update with the whole view (``events`` and ``view`` already encoded)."""
        return f'{{"type":"update","seq":{seq},"events":{events},"view":{view}}}'

    @staticmethod
    def encode_patch(seq: int, base: int, events: str, ops: str) -> str:
        """An update as a patch (``ops``: the inside of the encoded JSON array)."""
        return (f'{{"type":"update","seq":{seq},"base":{base},"events":{events},'
                f'"patch":[{ops}]}}')


def error_frame(ref: Any, message: Message | RacedayError, fatal: bool = False,
                reason: Literal["replaced", "removed"] | None = None) -> ErrorFrame:
    """An error frame: the English text, and the words of the refusal."""
    words = message if isinstance(message, Message) else message.message
    text = render(message, "en") if isinstance(message, Message) else str(message)
    frame = ErrorFrame(ref=ref, message=text)
    if words is not None:
        frame.words = words.to_json()
    if fatal:
        frame.fatal = True
    if reason is not None:
        frame.reason = reason
    return frame


# --- reading what a client sends ---------------------------------------------------------
def too_large(text: str) -> Message | None:
    """The refusal of a message over :data:`MAX_MESSAGE` bytes, or None."""
    if len(text) <= MAX_MESSAGE // 4:  # at most 4 bytes a character: no need to encode
        return None
    if len(text.encode("utf-8", "surrogatepass")) <= MAX_MESSAGE:
        return None
    return Message("refusal.message_large", {"max": MAX_MESSAGE})


def _read(text: str, what: str) -> Any:
    """The JSON value of a client's message, or why it cannot be read: a :class:`Message`
    if it is too large, the :class:`BadJSON` if it is not JSON."""
    large = too_large(text)
    if large is not None:
        return large
    try:
        return loads(text, what=what)
    except BadJSON as exc:
        return exc


def read_hello(text: str) -> Hello | Message:
    """The hello ``text`` holds, or the refusal of it in words."""
    data = _read(text, "first_message")
    if isinstance(data, BadJSON):
        return Message("refusal.hello_json", {"problem": data.message})
    if isinstance(data, Message):
        return data
    if not isinstance(data, dict) or data.get("type") != "hello":
        return Message("refusal.hello_first")
    try:
        return Hello.model_validate(data)
    except ValidationError as exc:
        return field_problem(exc.errors())


def read_intent(text: str) -> tuple[Ref, JSON] | RacedayError | Message:
    """(ref, intent without its ref) from a client's message, or the refusal of it."""
    data = _read(text, "message")
    if isinstance(data, BadJSON | Message):
        return data
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        return Message("refusal.message_object")
    ref = data.pop("ref", None)
    if not (ref is None or (isinstance(ref, int) and not isinstance(ref, bool))
            or (isinstance(ref, str) and len(ref) <= MAX_REF)):
        ref = None
    return ref, data


def wire_schema(rooms: dict[str, Any]) -> JSON:
    """The JSON Schema of the wire: the hello, the envelope of an intent, each room's
    intent union (``rooms``: game -> its room class) and every frame."""
    frames = {model.__name__: model.model_json_schema()
              for model in (Welcome, Update, Ack, Pong, ErrorFrame)}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "raceday party wire (WebSocket /ws/{code})",
        "description": (
            "A client sends a hello first, then intents (each an object with 'type' and an "
            "optional 'ref'); the server answers with the frames below. An intent the room "
            "does not accept is answered with an error frame naming the problem."),
        "hello": Hello.model_json_schema(),
        "intent": Envelope.model_json_schema(),
        "intents": {game: intent_union_schema(cls) for game, cls in sorted(rooms.items())},
        "frames": frames,
    }
