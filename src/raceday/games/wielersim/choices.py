"""What a face that offers only shipped things may ask for: one race (a shipped route and
peloton, a seed), a stage race (a shipped tour), the next stage. One pydantic model each,
checked here once: the browser's request bodies are these models, and each hands the race
on as the game's own :class:`~raceday.games.wielersim.game.WielersimOptions`.

A face never names a file on the server, so only shipped names are accepted; a seed is a
whole number from 0 to 2**63 - 1, given as a number or as digits (a browser's numbers are
exact only to 2**53), and a fresh one (below 2**53) when none is given.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from raceday.core.digits import ascii_int
from raceday.games.wielersim.game import GAME, WielersimOptions
from raceday.games.wielersim.peloton import SHIPPED_PELOTONS, START_LISTS
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.stage import SHIPPED_TOURS

PELOTONS = (*SHIPPED_PELOTONS, *START_LISTS)
MAX_SEED = 2**63 - 1
FRESH_SEED_BITS = 53  # a fresh seed is exact in any browser
MAX_NAME = 60
SEED_TEXT = "seed must be a whole number from 0 to 2**63 - 1"


def fresh_seed() -> int:
    return secrets.randbits(FRESH_SEED_BITS)


def seed_value(value: object) -> int:
    """A seed from a number or from digits; none (or empty text): a fresh one."""
    if value is None or value == "":
        return fresh_seed()
    if isinstance(value, str):
        value = ascii_int(value, max_digits=19)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise ValueError(SEED_TEXT)
    return value


def shipped(allowed: Sequence[str], what: str) -> BeforeValidator:
    """A validator that accepts only one of the ``allowed`` shipped names."""

    def check(value: object) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise ValueError(f"{what} must be one of {', '.join(allowed)}")
        return value

    return BeforeValidator(check)


def _name(value: object) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or any(
            not ch.isprintable() for ch in value):
        raise ValueError(f"name must be 1 to {MAX_NAME} printable characters")
    return value.strip()


Seed = Annotated[int, BeforeValidator(seed_value), WithJsonSchema({
    "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_SEED},
              {"type": "string", "pattern": "^[0-9]{0,19}$"}, {"type": "null"}],
    "description": "a whole number from 0 to 2**63 - 1, as a number or as digits "
                   "(browsers' numbers are exact only to 2**53); none: a fresh one"})]
RouteName = Annotated[str, shipped(SHIPPED_ROUTES, "route"),
                      WithJsonSchema({"enum": list(SHIPPED_ROUTES)})]
PelotonName = Annotated[str, shipped(PELOTONS, "peloton"),
                        WithJsonSchema({"enum": list(PELOTONS)})]
TourName = Annotated[str, shipped(SHIPPED_TOURS, "tour"),
                     WithJsonSchema({"enum": list(SHIPPED_TOURS)})]
StageName = Annotated[str | None, BeforeValidator(_name), WithJsonSchema({
    "anyOf": [{"type": "string", "maxLength": 4 * MAX_NAME}, {"type": "null"}],
    "description": f"1 to {MAX_NAME} printable characters; none: the tour's name and seed"})]


class _Choice(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RaceBody(_Choice):
    """One race on a shipped route with a shipped peloton."""

    route: RouteName = Field(description="a shipped route")
    peloton: PelotonName = Field(description="a shipped peloton or start list")
    seed: Seed = Field(default_factory=fresh_seed)

    def options(self) -> WielersimOptions:
        """The race as the game's own options."""
        return GAME.options({"route": self.route, "peloton": self.peloton})


class LessonBody(_Choice):
    """The lesson's first race: nothing to choose (its route and peloton are the lesson's,
    read by the server; a body that names anything is refused)."""


class CampaignBody(_Choice):
    """A new stage race: a shipped tour with a shipped peloton."""

    tour: TourName = Field(description="a shipped stage race")
    peloton: PelotonName = Field(description="a shipped peloton or start list")
    name: StageName = None
    seed: Seed = Field(default_factory=fresh_seed)


def _stage(value: object) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("stage must be the number of the next stage (0 for the first)")
    return value


class RideBody(_Choice):
    """Ride the next stage: its number must be the next one (0 for the first)."""

    stage: Annotated[int, BeforeValidator(_stage)] = Field(
        description="the next stage's number, from 0")
