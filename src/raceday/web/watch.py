"""What web.numbers and web.replay still take from the old watch module, until they move
to the games' faces: WielerSIM's browser face is now its package's ``watch`` module
(:mod:`raceday.games.wielersim.watch`), mounted by the app through discovery, and its
request checks are the pydantic models of :mod:`raceday.games.wielersim.choices`.

Nothing new should import this module; it goes when its last two users have moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fastapi.responses import FileResponse

from raceday.games.wielersim.choices import MAX_SEED, PELOTONS, seed_value
from raceday.games.wielersim.watch import WatchError, campaign_view, stage_film, store_of

STATIC = Path(__file__).parent / "static"

__all__ = ["MAX_SEED", "PELOTONS", "WatchError", "campaign_view", "check_choice",
           "check_fields", "check_seed", "page", "stage_film", "store_of"]


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


def check_seed(value: object) -> int:
    """A seed as a number or as digits; none: a fresh one (see :func:`choices.seed_value`)."""
    try:
        return seed_value(value)
    except ValueError as exc:
        raise WatchError(str(exc)) from None


def check_choice(value: object, allowed: Sequence[str], what: str) -> str:
    """A shipped name only: the browser never names files on the server."""
    if not isinstance(value, str) or value not in allowed:
        raise WatchError(f"{what} must be one of {', '.join(allowed)}")
    return value


def check_fields(body: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise WatchError(f"unknown field(s): {', '.join(unknown)}")
