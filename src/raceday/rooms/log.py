"""A room from its snapshot and its log: the intents logged after a snapshot applied again.

The party server stores a room's whole state only now and then (its *snapshot*: the
logic's JSON and the generator's ``bit_generator.state`` at one revision) and every
accepted intent as a row of its log (actor, intent and the public events it produced). A
room's rules are deterministic given its generator, so the room at its last revision is
the snapshot with the intents logged after it applied again, in order, each giving the
events it gave the first time (checked: a log these rules do not reproduce is refused).
The server rebuilds a room this way when it starts and when it puts back a room an
intent failed in; tools that read a room from the file use :func:`stored_state`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.rooms.protocol import JSON, Actor, RoomLogic, logic_class

__all__ = ["Query", "Step", "replay", "snapshot_at", "steps_after", "stored_room",
           "stored_state"]

# one logged intent: who sent it, the intent, and the events it produced (None: unchecked)
Step = tuple[Actor, Mapping[str, Any], list[JSON] | None]
# ``query(sql, args) -> rows`` on a rooms database
Query = Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]


def _is_join(actor: Actor, intent: Mapping[str, Any]) -> bool:
    """Whether a logged intent is a player taking a seat (the server's ``join``)."""
    return actor.kind == "spectator" and intent.get("type") == "join"


def replay(logic_type: type[RoomLogic], snapshot: Mapping[str, Any],
           rng_state: Mapping[str, Any], steps: Iterable[Step]
           ) -> tuple[RoomLogic, np.random.Generator]:
    """The room ``snapshot`` of ``logic_type`` (with its generator at ``rng_state``) after
    ``steps`` applied again through its rules, as the server applied them; a step whose
    events differ from the logged ones is a log these rules do not reproduce
    (:class:`SaveFormatError`)."""
    game = logic_type.game
    try:
        logic = logic_type.from_json(snapshot)
        rng = np.random.default_rng()
        rng.bit_generator.state = dict(rng_state)
    except (RacedayError, ValueError, TypeError, KeyError) as exc:
        raise SaveFormatError(f"a {game} room's snapshot cannot be read back: {exc}") \
            from None
    for actor, intent, logged in steps:
        try:
            if _is_join(actor, intent):
                name = str(intent.get("name"))
                events: list[JSON] = [{"type": "joined", "seat": logic.add_seat(name),
                                       "name": name}]
            else:
                events = logic.handle(actor, intent, rng)
        except (RacedayError, ValueError, TypeError, KeyError) as exc:
            raise SaveFormatError(
                f"a {game} room's logged intent {dict(intent)} cannot be applied again: "
                f"{exc}") from None
        if logged is not None and json.loads(json.dumps(events)) != logged:
            raise SaveFormatError(
                f"a {game} room's logged intent {dict(intent)} gives other events when "
                "applied again")
    return logic, rng


def _actor(data: object) -> Actor:
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise SaveFormatError(f"a logged actor is not one: {data!r}")
    seat = data.get("seat")
    return Actor(data["kind"], None if seat is None else int(seat))


def snapshot_at(state_revision: int, revision: int) -> int:
    """The revision a room's stored snapshot is at (a row made before the column
    ``state_revision``, -1, holds its state at ``revision``)."""
    return revision if state_revision < 0 else state_revision


def steps_after(query: Query, code: str, at: int, revision: int) -> list[Step]:
    """The intents the room ``code`` logged after revision ``at`` up to ``revision``, as
    (actor, intent, events); a log with a revision missing is refused."""
    rows = query("SELECT seq, actor, intent, events FROM room_events WHERE code = ? "
                 "AND seq > ? ORDER BY seq", (code, at))
    if [int(row[0]) for row in rows] != list(range(at + 1, revision + 1)):
        raise SaveFormatError(f"room {code}'s event log has gaps")
    try:
        return [(_actor(json.loads(actor)), json.loads(intent), json.loads(events))
                for _, actor, intent, events in rows]
    except (ValueError, TypeError) as exc:
        raise SaveFormatError(f"room {code}'s event log cannot be read: {exc}") from None


def stored_state(query: Query, code: str,
                 logic_of: Callable[[str], type[RoomLogic]] = logic_class) -> JSON | None:
    """The state (the logic's JSON) of the room ``code`` as of its last logged intent, read
    with ``query`` on the server's file (None if there is no such room): the stored
    snapshot, with the intents logged after it applied again (:func:`replay`) by the rules
    ``logic_of(game)`` (RoomError if that game has none here)."""
    stored = stored_room(query, code, logic_of)
    return None if stored is None else stored[1]


def stored_room(query: Query, code: str,
                logic_of: Callable[[str], type[RoomLogic]] = logic_class
                ) -> tuple[str, JSON, JSON | None] | None:
    """The room ``code`` as of its last logged intent: its game, its state (as
    :func:`stored_state`) and its generator's state then (None in a file no server of
    this version has opened); None if there is no such room."""
    columns = {str(row[1]) for row in query("PRAGMA table_info(rooms)", ())}
    if "state_revision" not in columns:  # a file no server of this version has opened
        rows = query("SELECT game, state FROM rooms WHERE code = ?", (code,))
        return None if not rows else (str(rows[0][0]), _object(rows[0][1], code), None)
    rows = query("SELECT game, state, rng, state_revision, revision FROM rooms "
                 "WHERE code = ?", (code,))
    if not rows:
        return None
    game, state, rng_text, state_revision, revision = rows[0]
    snapshot = _object(state, code)
    at = snapshot_at(int(state_revision), int(revision))
    if at >= int(revision):
        return str(game), snapshot, _object(rng_text, code)
    steps = steps_after(query, code, at, int(revision))
    logic, rng = replay(logic_of(str(game)), snapshot, _object(rng_text, code), steps)
    return str(game), logic.to_json(), dict(rng.bit_generator.state)


def _object(text: object, code: str) -> JSON:
    try:
        value = json.loads(str(text))
    except ValueError as exc:
        raise SaveFormatError(f"room {code}'s snapshot cannot be read: {exc}") from None
    if not isinstance(value, dict):
        raise SaveFormatError(f"room {code}'s snapshot is not an object")
    return value
