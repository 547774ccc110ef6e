"""Dice Derby as one :class:`~raceday.core.game.Game`: its options and how a race starts.

A race has no decision-making players: every node is one horse's die, so the outcome
names no winning players and :meth:`~raceday.core.protocol.State.returns` is empty. The
auction, the tickets and the prizes are around the race (:mod:`raceday.games.derby.session`),
not in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from raceday.core.game import Game
from raceday.games.derby.rules import STEP_BOUND, DerbyOptions, DerbyState


class DerbyGame(Game[DerbyOptions, DerbyState]):
    """Dice Derby by domi: six dice race five furlongs, no decision-making players."""

    name = "derby"
    title = "Dice Derby"
    designer = "domi"
    step_bound = STEP_BOUND
    # No falls (the published race); a rare fall; frequent falls (roll-offs and re-rolls
    # of the whole group); the highest rate allowed (dead heats for 3rd and below).
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"fall_rate": "0.05"},
        {"fall_rate": "0.3"},
        {"fall_rate": "1/2"},
    )


GAME = DerbyGame()
