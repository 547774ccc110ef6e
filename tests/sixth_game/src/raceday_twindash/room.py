"""Twin Dice Dash in a browser room, on raceday's party room kit.

Two phones take the seats (seat ``i`` runs runner ``i``) and seal their bets in any order;
the big screen rolls the dice. Everything else — lobby, seats, the sealed phase checked
with ``legal_actions_for``, chance drawn with the room's generator, views built from
``observation`` (so a phone sees its own bet and never the other's), the save format and
the error mapping — is the kit's. This module declares only what is this game's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from raceday.core.game import GameOptions
from raceday.rooms import JSON, PartyRoom
from raceday_twindash.game import GAME
from raceday_twindash.rules import PLAYERS, TwinDashState


class TwinDashRoom(PartyRoom[TwinDashState]):
    """Two seats, sealed bets in any order, the host screen rolls the dice."""

    game = GAME.name
    GAME = GAME
    title = GAME.title
    noun = "race"
    max_seats = PLAYERS
    min_seats = PLAYERS
    forced_moves: ClassVar[bool] = True  # a player without chips can only pass

    @classmethod
    def read_options(cls, options: Mapping[str, Any], names: list[str]) -> GameOptions:
        """The game's options model alone: the runners are Red and Blue, not named."""
        checked: GameOptions = cls.GAME.options(options)
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
