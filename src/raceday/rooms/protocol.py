"""What a game must provide to be played in a browser room, and how the server finds it.

The server owns all state, dice and secrets. A client sends an *intent* (a small JSON
object such as ``{"type": "move", "action": 12}``); the room's :class:`RoomLogic` checks it
with the game's engine, changes its state, and returns the public events it produced. The
server then sends every connection the view its seat may see (:meth:`RoomLogic.view`), so
a sealed bid or a ticket never leaves the server except to its own seat.

Every random draw uses the ``rng`` the server passes in (the room's single seeded
generator, saved with the room), so a room replays exactly and survives a restart.

A game plugs in through its package: the module ``<package>.room`` defines ``LOGIC``, a
class following :class:`RoomLogic` (usually a :class:`~raceday.rooms.turn.TurnRoom` or a
:class:`~raceday.rooms.party.PartyRoom`), found by :func:`logic_class` through
:func:`raceday.core.discovery.face`; the server itself names no game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

import numpy as np

from raceday.core.discovery import GAME_NAME, face
from raceday.core.errors import RacedayError
from raceday.present import refusal

JSON = dict[str, Any]


class RoomError(RacedayError):
    """An intent that the rules or the room refuse; the message goes back to that client."""


class RefusedUnread(RoomError):
    """A refusal made before the room was touched (a spectator's intent, a kind the sender
    may not send): the server need not put the room back, which it does by replaying its
    log since the last snapshot (a flood of such intents would cost a replay each)."""


@contextmanager
def as_room_error() -> Iterator[None]:
    """Any :class:`RacedayError` raised inside (a bad option, an illegal action) becomes a
    :class:`RoomError` with the same message, told to the client as it is."""
    try:
        yield
    except RoomError:
        raise
    except RacedayError as exc:
        error = RoomError(str(exc))
        error.message = exc.message  # the same words in the reader's language
        raise error from None


@dataclass(frozen=True)
class Actor:
    """Who sends an intent or receives a view: the host screen, a seat, or a spectator."""

    kind: str  # "host", "seat", "spectator" or "timeline" (the server's own pace)
    seat: int | None = None

    @classmethod
    def host(cls) -> Actor:
        return cls("host")

    @classmethod
    def player(cls, seat: int) -> Actor:
        return cls("seat", seat)

    @classmethod
    def spectator(cls) -> Actor:
        return cls("spectator")

    @classmethod
    def timeline(cls) -> Actor:
        """The server itself, playing a room's paced steps (see ``RoomBase.next_tick``)."""
        return cls("timeline")

    def to_json(self) -> JSON:
        return {"kind": self.kind, "seat": self.seat}


class RoomLogic(Protocol):
    """One game's rules for a room: lobby, turns, views, save and restore."""

    game: ClassVar[str]  # "hairpin", "pistard", ...
    max_seats: ClassVar[int]

    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        """A new room in its lobby from the host's options (RoomError for a bad option).
        ``seed`` is the room's seed, for anything the engine seeds by itself."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a room saved by :meth:`to_json` (RoomError if malformed)."""

    def seat_names(self) -> list[str]:
        """The names of the seats taken so far, by seat number."""

    def add_seat(self, name: str) -> int:
        """Seat a new player (lobby only); RoomError if full, started or the name is taken."""

    def handle(self, actor: Actor, intent: Mapping[str, Any],
               rng: np.random.Generator) -> list[JSON]:
        """Check and apply ``intent`` from ``actor``; return public events (may be empty).
        Raise RoomError with a clear message for anything refused (and change nothing)."""

    def view(self, actor: Actor) -> JSON:
        """Everything ``actor`` may see now: public state plus that seat's own secrets."""

    def finished(self) -> bool:
        """True once the evening is over (no more intents accepted but the view)."""

    def to_json(self) -> JSON:
        """The whole room state as JSON (restored by the class's ``from_json``)."""


# --- optional abilities: the server uses each where the logic has it ---------------------
@runtime_checkable
class SplitViews(Protocol):
    """A logic whose ``view(actor)`` is ``public_view()`` (what every screen sees) with
    ``private_view(actor)`` added as ``"me"`` (unless None): the server then encodes the
    public part once per broadcast instead of once per screen."""

    def public_view(self) -> JSON: ...

    def private_view(self, actor: Actor) -> JSON | None: ...


@runtime_checkable
class Thinks(Protocol):
    """A logic that says whether applying an intent now may run a computer player (or
    anything else slow). The server applies an intent in a worker thread, so the other
    rooms go on meanwhile, unless the logic has this and it says False: then on the event
    loop, which for a cheap intent costs a fraction of the hop to a thread and back."""

    def thinks(self) -> bool: ...


@runtime_checkable
class Paced(Protocol):
    """A logic with a timeline: ``next_tick()`` is the seconds until the server should
    send it ``{"type": "tick"}`` as :meth:`Actor.timeline`, or None while it waits."""

    def next_tick(self) -> float | None: ...


def logic_class(game: str) -> type[RoomLogic]:
    """The RoomLogic of ``game``: the attribute ``LOGIC`` of its package's ``room`` module;
    RoomError when there is no such browser game."""
    if not isinstance(game, str) or not GAME_NAME.fullmatch(game):
        raise refusal(RoomError, "refusal.unknown_game", game=repr(game))
    module = face(game, "room")
    logic = None if module is None else getattr(module, "LOGIC", None)
    if logic is None:
        raise refusal(RoomError, "refusal.no_room_face", game=repr(game))
    return logic  # type: ignore[no-any-return]
