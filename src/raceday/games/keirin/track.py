"""KEIRIN's track constants and line-up, without the rules engine's imports.

Kept apart from :mod:`raceday.games.keirin.rules` so that the exact odds (and the fast
``raceday keirin odds`` start, :mod:`raceday.games.keirin.quick`) need neither pydantic nor
the game registry. The rules engine and the other modules import these names from here.
"""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

Default = TypeVar("Default", int, None)

MIN_RIDERS = 6
MAX_RIDERS = 9
DEFAULT_RIDERS = 9
DEFAULT_LENGTH = 50
SPACING = 3  # squares between consecutive riders in the line-up (a rider is 3 squares long)
SLIPSTREAM = 3  # squares rider 1 gains as the derny pulls off
DERNY_DICE = 3
MAX_DERNY = 6 * DERNY_DICE
MIN_LENGTH = MAX_DERNY + 1  # rider 1 must start before the line whatever the derny throws
MAX_LENGTH = 1000


class Span(NamedTuple, Generic[Default]):
    """A whole-number option's lowest and highest value and its default (None: none)."""

    low: int
    high: int
    default: Default


# The race's options as the options models, the fast odds start and the night declare them.
RIDERS: Span[int] = Span(MIN_RIDERS, MAX_RIDERS, DEFAULT_RIDERS)
LENGTH: Span[int] = Span(MIN_LENGTH, MAX_LENGTH, DEFAULT_LENGTH)
DERNY: Span[None] = Span(DERNY_DICE, MAX_DERNY, None)


def starting_positions(derny: int, riders: int) -> list[int]:
    """Line-up behind the derny, then rider 1 takes the derny's square."""
    positions = [derny - SPACING * r for r in range(1, riders + 1)]
    positions[0] += SLIPSTREAM
    return positions


BELL_TO_GO = 25  # squares: the bell rings when the front rider has a quarter lap left


def stage_marks(to_go: int | None, riders: int) -> dict[str, bool]:
    """The race's staged moments as facts of the front rider's distance to the line:
    ``bell`` (a quarter lap or less to go) and ``sprint`` (the line is within the best
    throw of the field, ``riders`` dice all sixes: 6 and one more square per extra six)."""
    if to_go is None:
        return {"bell": False, "sprint": False}
    return {"bell": to_go <= BELL_TO_GO, "sprint": to_go <= riders + 5}
