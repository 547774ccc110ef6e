"""The pages: create or join a room, the big screen, a phone, the watch screen, and each
game's page of its own (declared by its ``static/page.json``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse

from raceday.core.discovery import asset_folder
from raceday.web.pages import PAGES, game_page

STATIC = Path(__file__).parent / "static"
router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> HTMLResponse:
    return PAGES["index"].response()


@router.get("/host/{code}")
async def host_page(code: str) -> HTMLResponse:
    return PAGES["host"].response()


@router.get("/watch/{code}")
async def watch_page(code: str) -> HTMLResponse:
    return PAGES["host"].response()


@router.get("/play/{code}")
async def play_page(code: str) -> HTMLResponse:
    return PAGES["play"].response()


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "img" / "favicon.svg", media_type="image/svg+xml")


def serve_game_page(app: FastAPI, game: str) -> None:
    """Serve ``/<game>`` from the shared shell if the game's package declares a page."""
    static = asset_folder(game, "static")
    declared = None if static is None else game_page(game, static)
    if declared is not None:
        page = declared

        async def game_page_route() -> HTMLResponse:
            return page.response()

        app.add_api_route(f"/{game}", game_page_route, methods=["GET"],
                          include_in_schema=False)
