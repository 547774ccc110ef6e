"""The PISTARD :class:`~raceday.core.game.Game`: names, options, players and the harness."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from raceday.core.game import Game, GameOptions
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import load_track

# Every variant: the scratch with 2, 3, 4 and 5 players, the points and elimination races
# with 2 and 3 or 5 (small fields, as they have many laps or heats), the sprint, the team
# time trial and the team pursuit as they allow (one team, two teams); races stopped by a
# small round cap; and both shipped tracks (the short one, 32 squares a lap, for the longer
# races, so that a thousand random races of each stay quick).
HARNESS_CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"variant": "scratch", "players": 3, "riders_per_player": 2, "tokens": 1},
    {"variant": "scratch", "players": 4, "track": "short"},
    {"variant": "scratch", "players": 5, "riders_per_player": 1, "tokens": 0},
    {"variant": "points", "players": 2, "riders_per_player": 2, "laps": 2, "track": "short"},
    {"variant": "points", "players": 3, "riders_per_player": 1, "laps": 3, "max_rounds": 12},
    {"variant": "elimination", "players": 2, "riders_per_player": 2, "track": "short"},
    {"variant": "elimination", "players": 5, "riders_per_player": 1, "max_rounds": 9},
    {"variant": "sprint"},
    {"variant": "ttt", "riders_per_player": 3},
    {"variant": "pursuit", "riders_per_player": 3, "track": "short", "max_rounds": 15},
)


class PistardGame(Game[PistardOptions, PistardState]):
    """PISTARD: track cycling on a coloured four-lane velodrome, six race variants."""

    name: ClassVar[str] = "pistard"
    title: ClassVar[str] = "PISTARD"
    designer: ClassVar[str] = "Anki Toner"
    players: ClassVar[tuple[int, int]] = (1, 5)
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = HARNESS_CONFIGS
    # 250 random races of each of the 11 sets (2,750 in all; 10 of each checked at every
    # step): a defect in 1.2 % of a set's races is found with 95 % probability. Every set
    # is also played in lock step against the compiled engine (tests/games/pistard).
    harness_games: ClassVar[int] = 250

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        checked = self.options(options)
        return checked.max_steps(load_track(checked.track).length)


GAME = PistardGame()
