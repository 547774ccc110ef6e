"""Intents as pydantic models: each room declares the intents it reads as one union
discriminated by ``type``, and the kit checks an incoming intent against it before any
handler sees it (:meth:`raceday.rooms.base.RoomBase.handle`), so a handler reads typed
fields and a malformed intent is refused with its reason (a field missing or of the wrong
type, a field the kind does not have), the room untouched.

A room declares its union with :func:`intent_union` over the kit's kinds and its own::

    class Bid(Intent):
        type: Literal["bid"]
        amount: int

    class MyRoom(PartyRoom[MyState]):
        intents = Intents(intent_union(*PARTY_INTENTS, Bid))

A kind a room handles but does not declare (a plugin written before intents were typed)
is read permissively: its handler gets an :class:`AnyIntent`, whose ``get(key)`` reads a
field as a mapping would. :func:`intent_union_schema` is a union's JSON Schema (the server
publishes every room's at ``/wire-schema.json``).
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from raceday.core.errors import refusal
from raceday.core.events import Message
from raceday.rooms.protocol import RefusedUnread


class Intent(BaseModel):
    """One intent: its kind (``type``, a Literal in each subclass) and its fields, of the
    types declared (no conversion: ``"3"`` is not 3), nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    type: str

    def get(self, key: str, default: Any = None) -> Any:
        """A field by name, as a mapping's ``get`` (for handlers written for mappings)."""
        if key in type(self).model_fields:
            return getattr(self, key)
        return (self.model_extra or {}).get(key, default)


class AnyIntent(Intent):
    """An intent of a kind its room does not declare: any fields, read with ``get``."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)


# --- the kit's kinds -----------------------------------------------------------------------
class Start(Intent):
    """The host starts the game."""

    type: Literal["start"]


class Finish(Intent):
    """The host ends the game now."""

    type: Literal["finish"]


class Pace(Intent):
    """The host sets the seconds between two paced steps."""

    type: Literal["pace"]
    seconds: float


class Pause(Intent):
    type: Literal["pause"]


class Resume(Intent):
    type: Literal["resume"]


class Skip(Intent):
    """The host plays the paced steps up to the next choice at once."""

    type: Literal["skip"]


class Again(Intent):
    """The host starts a fresh game with the same seats, once the game is over."""

    type: Literal["again"]


class RemoveSeat(Intent):
    """The host removes a seat in the lobby."""

    type: Literal["remove_seat"]
    seat: int


class Replace(Intent):
    """The host gives an absent seat to a computer at ``level`` while the game is on."""

    type: Literal["replace"]
    seat: int
    level: str = Field(max_length=40)


class HandBack(Intent):
    """The host gives a seat a computer played back to its person, who is back."""

    type: Literal["hand_back"]
    seat: int


class Presence(Intent):
    """The server's word that a seat's phone left or came back (never a client's)."""

    type: Literal["presence"]
    seat: int
    present: bool


class Tick(Intent):
    """The server's own paced step (sent as the timeline, never by a client)."""

    type: Literal["tick"]


class Undo(Intent):
    type: Literal["undo"]


class Move(Intent):
    """A turn-based room's move: the action of the place to act."""

    type: Literal["move"]
    action: int


class Act(Intent):
    """A party room's seat acts."""

    type: Literal["act"]
    action: int


class Advance(Intent):
    """A party room's host draws the chance node it waits at."""

    type: Literal["advance"]


KIT_INTENTS: tuple[type[Intent], ...] = (Start, Finish, Pace, Pause, Resume, Skip, Again,
                                         RemoveSeat, Replace, HandBack, Presence, Tick)
TURN_INTENTS: tuple[type[Intent], ...] = (*KIT_INTENTS, Move, Undo)
PARTY_INTENTS: tuple[type[Intent], ...] = (*KIT_INTENTS, Act, Advance, Undo)


def kind_of(model: type[Intent]) -> str:
    """The ``type`` a model of an intent stands for (its Literal)."""
    (kind,) = typing.get_args(model.model_fields["type"].annotation)
    return str(kind)


def intent_union(*models: type[Intent]) -> Any:
    """One union of ``models`` discriminated by ``type``; a later model of a kind replaces
    an earlier one (a room's own ``start`` over the kit's)."""
    by_kind = {kind_of(model): model for model in models}
    members = tuple(by_kind.values())
    if len(members) == 1:
        return members[0]
    return Annotated[Union[members], Field(discriminator="type")]  # noqa: UP007


class Intents:
    """A room's intents: one union of :class:`Intent` models discriminated by ``type``."""

    def __init__(self, union: Any) -> None:
        args = typing.get_args(union)
        members = typing.get_args(args[0]) if args else (union,)
        self.models: dict[str, type[Intent]] = {kind_of(model): model for model in members}
        self.union = union
        self.adapter: TypeAdapter[Intent] = TypeAdapter(union)

    def read(self, intent: Mapping[str, Any]) -> Intent:
        """``intent`` as its model; RefusedUnread naming the problem when it does not fit
        (a kind not declared here is read as an :class:`AnyIntent`)."""
        kind = intent.get("type")
        model = self.models.get(kind) if isinstance(kind, str) else None
        try:
            if model is None:
                return AnyIntent.model_validate(dict(intent))
            return self.adapter.validate_python(dict(intent))
        except ValidationError as exc:
            # a discriminated union's errors start with the kind: the field is the rest
            errors = [{**e, "loc": e["loc"][1:]} if e["loc"][:1] == (kind,) else e
                      for e in exc.errors()]
            words = field_problem(errors)
            raise refusal(RefusedUnread, words.key, **words.params) from None

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the union."""
        return self.adapter.json_schema()


def intent_union_schema(room: Any) -> dict[str, Any]:
    """The JSON Schema of a room class's intents (any fields, for a room that declares
    none)."""
    intents = getattr(room, "intents", None)
    if isinstance(intents, Intents):
        return intents.schema()
    return AnyIntent.model_json_schema()


def field_problem(errors: Sequence[Any]) -> Message:
    """pydantic's validation errors in words: the first one's field and what is wrong
    with it (a field unknown, missing, too long, of the wrong type, otherwise invalid)."""
    unknown = sorted(str(e["loc"][-1]) for e in errors if e.get("type") == "extra_forbidden")
    if unknown:
        return Message("refusal.unknown_fields", {"names": ", ".join(unknown)[:160]})
    if not errors:
        return Message("refusal.malformed")
    first = errors[0]
    where = [str(p) for p in first.get("loc", ()) if p not in ("body", "path", "query")]
    kind = str(first.get("type", ""))
    field = ".".join(where)[:80]
    limit = (first.get("ctx") or {}).get("max_length")
    if not where:
        return Message("refusal.malformed")
    if kind == "missing":
        return Message("refusal.field_missing", {"field": field})
    if kind in ("string_too_long", "too_long") and limit is not None:
        return Message("refusal.field_long", {"field": field, "max": limit})
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return Message("refusal.field_whole", {"field": field})
    if kind.endswith(("_type", "_parsing")) or kind in ("literal_error", "union_tag_invalid"):
        return Message("refusal.field_type", {"field": field})
    return Message("refusal.field_invalid", {"field": field})
