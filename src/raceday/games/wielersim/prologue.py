"""A stage race's prologue as a game of its own (``wielersim_prologue``), so that its
record can be written down and read back through the rules like any stage's.

The prologue has no road: every rider throws ten dice (re-rolling some 1s and 2s, see
:func:`raceday.games.wielersim.stage.prologue_total`), then lots are drawn to order equal
totals. Each rider's throw is one chance outcome, his pip total (with the exact chances of
:func:`~raceday.games.wielersim.stage.prologue_distribution`; the faces thrown are its
detail); the lots are one chance outcome per rider, the lot drawn for him. The
generator is used exactly as :func:`~raceday.games.wielersim.stage.ride_stage` uses it,
so a prologue played here gives the same record from the same seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, Literal, Self

import numpy as np
from pydantic import Field, field_validator

from raceday.core.errors import GameNotOverError, SaveFormatError
from raceday.core.events import Event
from raceday.core.game import Game, GameOptions
from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, Outcome, State
from raceday.core.protocol import Termination as _Termination
from raceday.games.wielersim.model import CLIMBER, LEADER, SPRINTER
from raceday.games.wielersim.peloton import Peloton, peloton_from_spec
from raceday.games.wielersim.rules import peloton_spec
from raceday.games.wielersim.stage import (
    PROLOGUE_DICE,
    PROLOGUE_REROLLS,
    prologue_distribution,
    prologue_record,
    prologue_rerolls,
    prologue_total,
)


class PrologueOptions(GameOptions):
    """The options of a prologue: the peloton and the type that may re-roll two dice."""

    game_title: ClassVar[str] = "WielerSIM prologue"
    title_words: ClassVar[str | None] = "wielersim.options_title"  # "WielerSIM prologue"

    peloton: dict[str, Any] = Field(description="The stage race's peloton.")
    prologue_type: Literal["climber", "sprinter"] = Field(
        "climber", description="The riders who may re-roll two dice (the leaders four).")

    @field_validator("peloton", mode="before")
    @classmethod
    def _peloton(cls, value: Any) -> dict[str, Any]:
        return peloton_spec(value)


class PrologueState(State):
    """A prologue being thrown: the riders' totals so far, then the lots drawn so far."""

    game_name: ClassVar[str] = "wielersim_prologue"

    def __init__(self, options: PrologueOptions, totals: list[int] | None = None,
                 lots: list[int] | None = None) -> None:
        self.options = options
        self.peloton: Peloton = peloton_from_spec(options.peloton)
        self.favoured = CLIMBER if options.prologue_type == "climber" else SPRINTER
        self.totals: list[int] = list(totals or [])
        self.lots: list[int] = list(lots or [])  # lots[i]: rider i's lot (0 first)
        self._drawn: list[int] | None = None  # the permutation drawn for the lots, if any

    @property
    def riders(self) -> int:
        return len(self.peloton.riders)

    @property
    def num_players(self) -> int:
        return 0

    def current_player(self) -> int:
        return TERMINAL if len(self.lots) >= self.riders else CHANCE

    def _throwing(self) -> bool:
        return len(self.totals) < self.riders

    def _allowed(self) -> int:
        rider = self.peloton.riders[len(self.totals)]
        return prologue_rerolls(rider.kind, self.favoured)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.is_terminal():
            return super().chance_outcomes()
        if self._throwing():
            return prologue_distribution(self._allowed()).items()
        left = [lot for lot in range(self.riders) if lot not in self.lots]
        return [(lot, Fraction(1, len(left))) for lot in left]

    def action_to_string(self, action: Action) -> str:
        if self._throwing():
            return f"#{self.peloton.riders[len(self.totals)].number} total {action}"
        if not 0 <= action < self.riders:
            raise ValueError(f"no lot {action}")
        return f"#{self.peloton.riders[len(self.lots)].number} lot {action + 1}"

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        """A rider's ten dice and four re-rolls (his total, the faces as its detail); then
        the lots: one permutation drawn for the first rider, taken a rider at a time."""
        if self._throwing():
            first = [int(f) for f in rng.integers(1, 7, size=PROLOGUE_DICE)]
            again = [int(f) for f in rng.integers(1, 7, size=PROLOGUE_REROLLS[LEADER])]
            total = prologue_total(first, again, self._allowed())
            return ChanceDraw(total, {"dice": first, "again": again})
        if not self.lots or self._drawn is None or self._drawn[:len(self.lots)] != self.lots:
            if self.lots:  # resumed among the lots: draw the rest one at a time
                left = [lot for lot in range(self.riders) if lot not in self.lots]
                return ChanceDraw(left[int(rng.integers(len(left)))])
            self._drawn = [int(x) for x in rng.permutation(self.riders)]
        return ChanceDraw(self._drawn[len(self.lots)])

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        if self._throwing():
            number = self.peloton.riders[len(self.totals)].number
            self.totals.append(int(action))
            return [Event("prologue_throw", {"rider": number, "total": int(action)})]
        self.lots.append(int(action))
        return []

    def stage_record(self) -> dict[str, Any]:
        """The prologue's stage record (:func:`~raceday.games.wielersim.stage.prologue_record`)."""
        self.require_over()
        return prologue_record(self.peloton, list(enumerate(self.totals)), self.lots)

    def outcome(self) -> Outcome:
        if not self.is_terminal():
            raise GameNotOverError(self.game_name)
        results = self.stage_record()["results"]
        return Outcome(ranking=tuple(n for n, _ in results),
                       winner=results[0][0] if results else None,
                       scores={n: float(gap) for n, gap in results},
                       score_name="seconds behind", termination=_Termination.TIME)

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options.to_json(), "totals": list(self.totals),
                "lots": list(self.lots)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            options = PrologueOptions.parse(data["options"])
            totals = [int(t) for t in data["totals"]]
            lots = [int(i) for i in data["lots"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"not a WielerSIM prologue: {exc}") from None
        riders = len(options.peloton["riders"])
        if len(totals) > riders or (lots and len(totals) < riders) or \
                sorted(set(lots)) != sorted(lots) or any(not 0 <= i < riders for i in lots):
            raise SaveFormatError("not a WielerSIM prologue: bad totals or lots")
        return cls(options, totals, lots)


class PrologueGame(Game[PrologueOptions, PrologueState]):
    """The prologue of a WielerSIM stage race (a part of the game a record may name)."""

    name = "wielersim_prologue"
    title = "WielerSIM prologue"
    designer = "Ludo Nauws"

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        return 2 * len(self.options(options).peloton["riders"])


PROLOGUE = PrologueGame()
# the part of the game a record may name (raceday.core.registry.record_game)
RECORD_GAMES = (PROLOGUE,)
