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
