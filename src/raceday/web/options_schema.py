"""``GET /api/games/{game}/options``: the JSON Schema of a game's options model.

``GET /api/games/{game}/options?for=room``: the JSON Schema of the model a browser room of
the game is created from — the room declaration's ``Options`` (what a host chooses, e.g. a
Dice Derby evening's house rules without its players and seed), or the game's own options
model where the room declares none; a turn-based room that may be played over days adds the
kit's switch ``days`` (:mod:`raceday.rooms.turn`).

The browser's setup forms (``/static/js/options-form.js``) are built from it: number inputs
with the model's bounds, selects for its choices, checkboxes for its switches, labels from
the message tables. The form only helps; the server checks every value with the same model
when a room is created.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from raceday.core.discovery import face, game_packages
from raceday.core.events import Message
from raceday.core.game import GameOptions
from raceday.core.registry import get_game
from raceday.present import render

router = APIRouter()

CACHE = "public, max-age=300"  # a model changes only with the installed code
DAYS = {"type": "boolean", "default": False, "title": "Days",
        "description": "a game played over days: each player moves whenever they come by, "
                       "and the room stays open until the game ends"}


@cache
def options_schema(game: str, purpose: str = "game") -> dict[str, Any]:
    """The JSON Schema of ``game``'s options (a game found by discovery); ``purpose``
    ``"room"``: of the model its browser room is created from."""
    model: type[GameOptions] = get_game(game).Options
    room = face(game, "room") if purpose == "room" else None
    if room is not None and getattr(room.LOGIC, "Options", None) is not None:
        model = room.LOGIC.Options
    schema: dict[str, Any] = model.model_json_schema()
    if room is not None and getattr(room.LOGIC, "over_days", False) is True:
        # the kit's own option of a turn-based room that may be played over days
        schema = {**schema, "properties": {**schema.get("properties", {}), "days": DAYS}}
    return schema


@router.get("/api/games/{game}/options", response_class=JSONResponse,
            responses={404: {"description": "Unknown game"}})
def game_options(game: str, purpose: Literal["game", "room"] = Query(
        "game", alias="for", description="room: the options a browser room is created "
        "from")) -> JSONResponse:
    """The JSON Schema of the game's options: fields, types, defaults, bounds, choices."""
    known = game_packages()
    if game not in known:
        words = Message("refusal.unknown_game_options", {"game": repr(game[:40]),
                                                         "known": ", ".join(sorted(known))})
        return JSONResponse({"error": render(words, "en"), "words": words.to_json()},
                            status_code=404)
    return JSONResponse(options_schema(game, purpose), headers={"Cache-Control": CACHE})
