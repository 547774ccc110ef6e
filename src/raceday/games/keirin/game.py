"""KEIRIN as one :class:`~raceday.core.game.Game`: its options and how a race starts.

A race has no decision-making players: the derny's throw and every rider's throw are
chance nodes, so the outcome names no winning players and
:meth:`~raceday.core.protocol.State.returns` is empty. The betting is around the race (see
:mod:`raceday.games.keirin.night`), not in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from raceday.core.game import Game, GameOptions
from raceday.games.keirin.rules import KeirinOptions, KeirinState


class KeirinGame(Game[KeirinOptions, KeirinState]):
    """KEIRIN by Anki Toner: a track race of dice alone, no decision-making players."""

    name = "keirin"
    title = "KEIRIN"
    designer = "Anki Toner"
    # The full field on the usual half lap; the smallest field; a whole lap (the field
    # strings out, photo-finishes are rarer); a fixed long derny pull (rider 1 starts near
    # the line).
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"riders": 6},
        {"riders": 7, "length": 100},
        {"riders": 9, "derny": 18},
    )

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        return self.options(options).max_steps()


GAME = KeirinGame()
