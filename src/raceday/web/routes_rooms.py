"""The rooms' JSON API: create a room, join one, a room's public facts and its QR code, and
"my games": what each room a device holds a key of says to that key."""

from __future__ import annotations

import io
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.core.record import RecordError, parse_record
from raceday.rooms import JSON, Actor
from raceday.web.api_models import (
    CreateRoom,
    Joined,
    JoinRoom,
    MyGames,
    MyGamesQuery,
    RoomCreated,
    RoomInfo,
    error_answer,
    refusals,
    refused,
    too_many,
)
from raceday.web.context import Server, server_of
from raceday.web.guard import MISS_COST, NO_STORE
from raceday.web.rooms import NoSuchRoom, Room, RoomsFull, clean_name, normal_code

router = APIRouter()
Shared = Annotated[Server, Depends(server_of)]


@router.post("/api/rooms", status_code=201, response_class=JSONResponse,
             responses={201: {"model": RoomCreated}, **refusals(400, 403, 409, 413, 415, 429)})
async def create_room(body: CreateRoom, request: Request, server: Shared) -> JSONResponse:
    """Create a room; the answer carries the host's token."""
    refusal = server.creation_refusal(request)
    if refusal is not None:
        return refusal
    try:
        room, token = server.rooms.create(body.game, body.options,
                                          owner=server.client(request.scope))
    except RoomsFull as exc:
        return refused(exc.status, exc)
    except RacedayError as exc:
        return refused(400, exc)
    base = server.base_url(request)
    return JSONResponse({"code": room.code, "game": room.game, "host_token": token,
                         "join_url": f"{base}play/{room.code}",
                         "watch_url": f"{base}watch/{room.code}",
                         "host_url": f"{base}host/{room.code}", "days": room.over_days},
                        status_code=201,
                        headers=NO_STORE)


@router.post("/api/rooms/from-record", status_code=201, response_class=JSONResponse,
             responses={201: {"model": RoomCreated}, **refusals(400, 403, 409, 413, 415, 429)},
             openapi_extra={"requestBody": {"required": True, "content": {
                 "text/plain": {"schema": {"type": "string"}}}}})
async def create_room_from_record(request: Request, server: Shared) -> JSONResponse:
    """Create a room whose game goes on from a record sent as UTF-8 text (``Content-Type:
    text/plain``, a game begun at the terminal): in its lobby, its human seats open to
    phones (or played on the host screen), its computers at their levels; the host's
    start plays on from the record's last move. A record the rules refuse is 400 naming
    its first bad line; a party's record or a finished game is 400 too."""
    refusal = server.creation_refusal(request)
    if refusal is not None:
        return refusal
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        return error_answer(400, Message("refusal.record_not_text"))
    try:
        record = parse_record(text)
        room, token = server.rooms.create_from_record(record,
                                                      owner=server.client(request.scope))
    except RecordError as exc:
        words = Message("refusal.record_bad_whole", {"problem": exc.problem}) \
            if exc.line is None else \
            Message("refusal.record_bad", {"line": exc.line, "problem": exc.problem})
        return error_answer(400, words)
    except RoomsFull as exc:
        return refused(exc.status, exc)
    except RacedayError as exc:
        return refused(400, exc)
    return created(server, request, room.code, room.game, token)


def created(server: Server, request: Request, code: str, game: str, token: str
            ) -> JSONResponse:
    """The answer to a new room: its code and links, and the host's token."""
    base = server.base_url(request)
    return JSONResponse({"code": code, "game": game, "host_token": token,
                         "join_url": f"{base}play/{code}", "watch_url": f"{base}watch/{code}",
                         "host_url": f"{base}host/{code}"}, status_code=201,
                        headers=NO_STORE)


@router.post("/api/rooms/{code}/join", status_code=201, response_class=JSONResponse,
             responses={201: {"model": Joined}, **refusals(400, 403, 404, 409, 413, 415,
                                                            429)})
async def join_room(code: str, body: JoinRoom, request: Request, server: Shared
                    ) -> JSONResponse:
    """Take a seat in a room's lobby; the answer carries the seat's token."""
    lookup = server.lookup_bucket(request.scope)
    if not lookup.ready():
        return too_many(lookup)
    refusal = server.rest_refusal(request)
    if refusal is not None:
        return refusal
    try:
        name = clean_name(body.name)
    except RacedayError as exc:
        return refused(400, exc)
    hub, rooms = server.hub, server.rooms
    try:
        async with hub.lock(normal_code(code)):
            room, seat, token, event = rooms.join(code, name, server.seat_owner(request))
            hub.publish(room, [event])
            hub.schedule(rooms, room)
    except NoSuchRoom as exc:
        lookup.charge(MISS_COST)
        return refused(404, exc)
    except RoomsFull as exc:
        lookup.charge(1)
        return refused(exc.status, exc)
    except RacedayError as exc:
        lookup.charge(1)
        return refused(409, exc)
    lookup.charge(1)
    return JSONResponse({"code": room.code, "seat": seat, "token": token, "name": name},
                        status_code=201, headers=NO_STORE)


@router.get("/api/rooms/{code}", response_class=JSONResponse,
            responses={200: {"model": RoomInfo}, **refusals(404, 429)})
async def room_info(code: str, request: Request, server: Shared) -> JSONResponse:
    """A room's game, phase and seats (no secrets)."""
    room = server.find(code, server.lookup_bucket(request.scope))
    if isinstance(room, JSONResponse):
        return room
    async with server.hub.lock(room.code):
        view = room.logic.view(Actor.spectator())
    base = server.base_url(request)
    return JSONResponse({
        "code": room.code, "game": room.game, "phase": view.get("phase"),
        "seats": room.logic.seat_names(), "max_seats": type(room.logic).max_seats,
        "finished": room.logic.finished(), "seq": room.revision,
        "join_url": f"{base}play/{room.code}", "watch_url": f"{base}watch/{room.code}",
        "days": room.over_days,
    })


@router.post("/api/my-games", response_class=JSONResponse,
             responses={200: {"model": MyGames}, **refusals(400, 403, 413, 415, 429)})
async def my_games(body: MyGamesQuery, request: Request, server: Shared) -> JSONResponse:
    """"My games": for each room a device holds a key of (the host's or a seat's token),
    what that key may see at a glance: the game, phase, players, whose turn and whether it
    is the key's. A code that names no open room and a token that is not one of the room's
    keys answer alike, ``found`` false. Each room counts as a room lookup (a miss as a
    miss)."""
    lookup = server.lookup_bucket(request.scope)
    answers: list[JSON] = []
    for held in body.rooms:
        if not lookup.ready():
            return too_many(lookup)
        code = normal_code(held.code)
        try:
            room = server.rooms.get(code)
        except RacedayError:
            room = None
        actor = None if room is None else room.actor_for(held.token)
        if room is None or actor is None:
            lookup.charge(MISS_COST)
            answers.append({"code": code, "found": False})
            continue
        lookup.charge(1)
        async with server.hub.lock(room.code):
            answers.append(_glance(room, actor))
    return JSONResponse({"rooms": answers}, headers=NO_STORE)


def _glance(room: Room, actor: Actor) -> JSON:
    """What ``actor`` sees of ``room`` in "my games" (the logic's ``glance`` where it has
    one, a turn-based room's; else its phase from the actor's view)."""
    logic = room.logic
    glance = getattr(logic, "glance", None)
    if callable(glance):
        seen: JSON = dict(glance(actor))
    else:
        view = logic.view(actor)
        seen = {"phase": view.get("phase"), "finished": logic.finished(),
                "days": room.over_days, "players": None, "to_act": None,
                "your_turn": view.get("may_act") is True}
    seat = actor.seat if actor.kind == "seat" else None
    names = logic.seat_names()
    return {"code": room.code, "found": True, "game": room.game, "role": actor.kind,
            "seat": seat, "name": None if seat is None or seat >= len(names) else names[seat],
            **seen}


@router.get("/api/rooms/{code}/qr.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}, **refusals(404, 429)})
async def room_qr(code: str, request: Request, server: Shared) -> Response:
    """The QR code of the room's join link."""
    import segno

    room = server.find(code, server.lookup_bucket(request.scope))
    if isinstance(room, JSONResponse):
        return room
    buf = io.BytesIO()
    segno.make(f"{server.base_url(request)}play/{room.code}", error="m").save(
        buf, kind="svg", scale=8, border=2, dark="#000000", light="#ffffff",
        title=f"Join room {room.code}")
    return Response(buf.getvalue(), media_type="image/svg+xml")
