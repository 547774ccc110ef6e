"""Twin Dice Dash in a browser room, on raceday's party room kit.

Two to four phones take the seats (seat ``i`` runs runner ``i``) and seal their bets in
any order; the big screen rolls the dice. The host chooses the race (:class:`RaceOptions`,
the room's ``Options``); the seats taken at the start say how many play. Everything else —
lobby, seats, the sealed phase checked with ``legal_actions_for``, chance drawn with the
room's generator, views built from ``observation`` (so a phone sees its own bet and never
another's), the save format and the error mapping — is the kit's. This module declares
only what is this game's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from raceday.core.game import GameOptions
from raceday.rooms import JSON, PartyRoom
from raceday_twindash.game import GAME, RaceOptions
from raceday_twindash.rules import MAX_PLAYERS, PLAYERS, TwinDashState


class TwinDashRoom(PartyRoom[TwinDashState]):
    """Two to four seats, sealed bets in any order, the host screen rolls the dice."""

    game = GAME.name
    GAME = GAME
    title = GAME.title
    noun = "race"
    Options = RaceOptions  # what the host chooses (served to the landing card's form)
    min_seats = PLAYERS
    max_seats = MAX_PLAYERS
    forced_moves: ClassVar[bool] = True  # a player without chips can only pass

    @classmethod
    def read_options(cls, options: Mapping[str, Any], names: list[str]) -> GameOptions:
        """The host's race (checked by :class:`RaceOptions`, which refuses ``players``)
        and one player a seat; the runners are named by colour, not by the seats' names."""
        race = RaceOptions.parse(options)
        checked: GameOptions = cls.GAME.options({**race.model_dump(),
                                                 "players": len(names)})
        return checked

    def waits_for_host(self, state: TwinDashState) -> bool:
        return True  # the dice are rolled on the big screen

    def extra_public(self, state: TwinDashState | None) -> JSON:
        if state is None:
            return {"options": self.options.to_json()}
        chances = [str(p) for p in state.further_chances()]
        return {"options": self.options.to_json(), "frame": state.frame(),
                "chances": chances}


LOGIC = TwinDashRoom
