"""Dice Derby as one :class:`~raceday.core.game.Game`: its options and how a race starts.

A race has no decision-making players: every node is one horse's die, so the outcome
names no winning players and :meth:`~raceday.core.protocol.State.returns` is empty. The
auction, the tickets and the prizes are around the race (:mod:`raceday.games.derby.session`),
not in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from raceday.core.game import Game, GameOptions
from raceday.games.derby.rules import STEP_BOUND, DerbyOptions, DerbyState


class DerbyGame(Game[DerbyOptions, DerbyState]):
    """Dice Derby by domi: six dice race five furlongs, no decision-making players."""

    name = "derby"
    title = "Dice Derby"
    designer = "domi"
    summary = "A party horse-race betting game with d4, d6, d8, d10, d12, d20."
    Options = DerbyOptions
    players = (0, 0)
    # No falls (the published race); a rare fall; frequent falls (roll-offs and re-rolls
    # of the whole group); the highest rate allowed (dead heats for 3rd and below).
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"fall_rate": "0.05"},
        {"fall_rate": "0.3"},
        {"fall_rate": "1/2"},
    )
    harness_games = 1000

    def _new_state(self, options: DerbyOptions, seed: int | None) -> DerbyState:
        return DerbyState(options)

    def state_from_json(self, data: Mapping[str, Any]) -> DerbyState:
        return DerbyState.from_json(data)

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        return STEP_BOUND


GAME = DerbyGame()
