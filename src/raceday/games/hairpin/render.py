"""A terminal picture of a Hairpin Racers position (Rich markup), with the counters: the
state's frame drawn by :mod:`raceday.games.hairpin.picture`."""

from __future__ import annotations

from raceday.games.hairpin.picture import frame_markup
from raceday.games.hairpin.rules import HairpinState


def state_markup(state: HairpinState) -> str:
    """Board, counters, and who is to move or the result."""
    return frame_markup(state.frame())
