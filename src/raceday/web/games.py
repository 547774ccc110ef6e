"""``GET /api/games``: the games this server offers, found by discovery (built in or
installed beside raceday), with what each brings to the browser.

The landing page draws a setup card for every game whose package has
``static/setup.js`` and links every game's own page; the Numbers and Print pages ask their
own lists. No page lists games of its own.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from raceday.core.discovery import asset_folder, has_face
from raceday.core.registry import all_games

router = APIRouter()

class GameCard(BaseModel):
    """One game as the pages see it."""

    game: str
    title: str
    designer: str
    players: tuple[int, int] = Field(description="fewest and most decision-making players")
    setup: bool = Field(description="the landing page has its card: "
                                    "/games/<game>/static/setup.js")
    numbers: bool = Field(description="it offers jobs on the Numbers page")
    prints: bool = Field(description="it has printed parts on the Print page")
    page: bool = Field(description="it has a page of its own at /<game>, declared by its "
                                   "static/page.json (raceday.web.pages)")


def game_cards() -> tuple[GameCard, ...]:
    """Every registered game, by name."""
    cards = []
    for game in all_games():
        static = asset_folder(game.name, "static")
        cards.append(GameCard(
            game=game.name, title=game.title, designer=game.designer,
            players=game.players,
            setup=static is not None and (static / "setup.js").is_file(),
            numbers=has_face(game.name, "numbers"), prints=has_face(game.name, "printing"),
            page=static is not None and (static / "page.json").is_file()))
    return tuple(cards)


@router.get("/api/games", response_model=list[GameCard])
def games() -> list[GameCard]:
    """The games this server offers and what each brings to the browser."""
    return list(game_cards())
