"""``GET /api/games/{game}/options``: the JSON Schema of a game's options model.

The browser's setup forms (``/static/js/options-form.js``) are built from it: number inputs
with the model's bounds, selects for its choices, checkboxes for its switches, labels from
the message tables. The form only helps; the server checks every value with the same model
when a room is created.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from raceday.core.discovery import game_packages
from raceday.core.registry import get_game

router = APIRouter()

CACHE = "public, max-age=300"  # a model changes only with the installed code


@cache
def options_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of ``game``'s options (a game found by discovery)."""
    schema: dict[str, Any] = get_game(game).Options.model_json_schema()
    return schema


@router.get("/api/games/{game}/options", response_class=JSONResponse,
            responses={404: {"description": "Unknown game"}})
def game_options(game: str) -> JSONResponse:
    """The JSON Schema of the game's options: fields, types, defaults, bounds, choices."""
    known = game_packages()
    if game not in known:
        return JSONResponse({"error": f"unknown game {game[:40]!r}; known games: "
                                      f"{', '.join(sorted(known))}"}, status_code=404)
    return JSONResponse(options_schema(game), headers={"Cache-Control": CACHE})
