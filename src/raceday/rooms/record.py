"""A room's game as a record (:mod:`raceday.core.record`): the moves its state was played
with, written down by the room kit as they were made (:attr:`RoomBase.recorder
<raceday.rooms.base.RoomBase.recorder>`), with the room's seats and options in the tags
(``[Face "room"]``). A room saved before records wrote its moves down begins its record at
the position it had then (a ``Start`` tag holding that state's JSON)."""

from __future__ import annotations

from typing import Any

import numpy as np

from raceday.core.errors import SaveFormatError
from raceday.core.record import Record
from raceday.present import refusal
from raceday.rooms.base import RoomBase
from raceday.rooms.log import Query, stored_room
from raceday.rooms.protocol import RoomError, RoomLogic, logic_class
from raceday.rooms.turn import TurnRoom

__all__ = ["record_room_class", "room_from_record", "room_record", "room_record_from_db"]


def room_record(logic: RoomLogic | Any, rng: np.random.Generator | None = None,
                code: str | None = None) -> Record:
    """The record of the game ``logic`` (a room on the kit) is playing or last played,
    with ``rng``'s state as its Generator (the room's generator, where known) and the
    room's ``code`` as its Name; RoomError for a room still in its lobby or one not on
    the kit."""
    if not isinstance(logic, RoomBase):
        raise RoomError(f"a {getattr(logic, 'game', '?')} room keeps no record of its game")
    recorder = logic.recorder
    if recorder is None:
        raise RoomError(f"room {code or ''} has not started a game yet: no record".replace(
            "  ", " "))
    record = recorder.record(rng)
    seats = logic.record_seats()
    if seats:
        record.tags["Seats"] = seats
    record.tags.setdefault("Face", "room")
    if code is not None:
        record.tags["Name"] = code
    return record


def room_record_from_db(query: Query, code: str) -> Record:
    """The record of room ``code`` in a party server's database (read with ``query``):
    the room as of its last logged intent (:func:`raceday.rooms.log.stored_state`),
    with its generator; RoomError if there is no such room or it has no game yet."""
    wanted = code.strip().upper()
    stored = stored_room(query, wanted)
    if stored is None:
        raise RoomError(f"no room {wanted!r} in this database")
    game, snapshot, rng_state = stored
    try:
        logic = logic_class(game).from_json(snapshot)
    except (KeyError, TypeError, ValueError) as exc:
        raise SaveFormatError(f"room {wanted} cannot be read back: {exc}") from None
    rng = None
    if rng_state is not None:
        rng = np.random.default_rng()
        try:
            rng.bit_generator.state = dict(rng_state)
        except (TypeError, ValueError, KeyError):
            rng = None
    return room_record(logic, rng, wanted)


def record_room_class(record: Record) -> type[TurnRoom[Any]]:
    """The room a record's game goes on in: a turn-based game's room (a party's players are
    the names that join its lobby, so a party's record cannot open one: RoomError, as for
    a game without a browser room)."""
    cls: Any = logic_class(record.game.split("_", 1)[0])
    if not (isinstance(cls, type) and issubclass(cls, TurnRoom)) or \
            cls.GAME.name != record.game:
        raise refusal(RoomError, "refusal.record_party", game=record.game)
    return cls


def room_from_record(record: Record) -> TurnRoom[Any]:
    """A room in its lobby whose start goes on from ``record`` (see
    :meth:`TurnRoom.from_record <raceday.rooms.turn.TurnRoom.from_record>`); RoomError
    or :class:`~raceday.core.record.RecordError` (naming its line) when it cannot."""
    return record_room_class(record).from_record(record)
