"""A Gymnasium environment: one KEIRIN bettor against the house's fixed odds.

``gymnasium.make("raceday/KeirinBettor-v0")`` (registered when this module is imported)
or ``KeirinBettorEnv(...)``. An episode is a meeting of ``races`` races (or until the purse
is empty). Before each race the bettor sees:

- the **odds board**: for every selection of the engine's five bet types on a field of up
  to nine riders (705 selections, in the engine's order), the implied chance ``1 / odds``
  of the engine's fixed odds (:func:`raceday.games.keirin.betting.quoted_odds` on
  :func:`raceday.games.keirin.odds.race_odds`), 0 where no odds are offered;
- the **purse** (relative to the starting purse);
- the **field**: which riders (1-9) start; each race draws 6 to 9 riders unless ``riders``
  is fixed;
- the share of the meeting's races still to run.

The action is one ticket or none: 0 passes; ``1 + selection * 3 + level`` stakes 1 %, 5 %
or 10 % of the purse (rounded down to the cent, at least one cent) on that selection, so a
ticket never exceeds the purse. A selection the field cannot fill (or with no odds) counts
as a pass; ``action_masks()`` lists the tickets on offer. The race is the engine's own,
on the environment's generator; the ticket is paid by the engine's
:func:`~raceday.games.keirin.betting.fixed_return`. Reward: money won minus staked, in
units of the starting purse.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, Literal, Self

import gymnasium
import numpy as np
from gymnasium import spaces
from pydantic import Field, model_validator

from raceday.core.errors import OptionsError
from raceday.core.game import GameOptions
from raceday.core.registry import get_game
from raceday.games.keirin.night import prices as keirin_prices
from raceday.games.keirin.night import selections as keirin_selections
from raceday.games.keirin.rules import KeirinOptions

FRACTIONS = (0.01, 0.05, 0.10)
MAX_FIELD = 9
ENV_ID = "raceday/KeirinBettor-v0"


class BettorOptions(GameOptions):
    """The environment's parameters: the meeting and the bettor's money, and the race's
    riders and length (checked by the race's own model, :class:`KeirinOptions`)."""

    game_title: ClassVar[str] = "KEIRIN bettor"

    races: int = Field(10, ge=1, le=10_000, strict=True, description="Races in the meeting.")
    purse: float = Field(100.0, ge=1, le=1e9, allow_inf_nan=False,
                         description="The bettor's starting purse.")
    margin: float = Field(0.15, ge=0, lt=1, allow_inf_nan=False,
                          description="The house's margin on the fixed odds.")
    riders: int | None = Field(None, strict=True, description="Riders in every race, 6 to "
                               "9; none: drawn for each race.")
    length: int = Field(50, strict=True, description="Squares to the finish line.")
    render_mode: Literal["ansi"] | None = Field(None, description="None or 'ansi'.")

    @model_validator(mode="after")
    def _a_race_of_the_game(self) -> Self:
        race = {"length": self.length} | ({} if self.riders is None else {"riders": self.riders})
        KeirinOptions.parse(race)  # its OptionsError (a ValueError) names the option
        return self


@functools.cache
def _index_in_full_field(riders: int) -> tuple[int, ...]:
    """Where each selection of a ``riders`` field sits in the nine-rider selection list."""
    full = {sel: i for i, sel in enumerate(keirin_selections(MAX_FIELD))}
    return tuple(full[sel] for sel in keirin_selections(riders))


class KeirinBettorEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One bettor, fixed odds, a meeting of races (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(self, races: int = 10, purse: float = 100.0, margin: float = 0.15,
                 riders: int | None = None, length: int = 50,
                 render_mode: str | None = None) -> None:
        BettorOptions.parse({"races": races, "purse": purse, "margin": margin,
                             "riders": riders, "length": length, "render_mode": render_mode})
        self.races = races
        self.start_cents = round(purse * 100)
        self.margin = margin
        self.fixed_riders = riders
        self.length = length
        self.render_mode = render_mode
        self.selections = keirin_selections(MAX_FIELD)
        n = len(self.selections)
        high = np.concatenate([np.full(n, 1 / (1 - margin)), [np.inf], np.ones(MAX_FIELD + 1)])
        high32 = high.astype(np.float32)
        self.observation_space = spaces.Box(np.zeros_like(high32), high32, dtype=np.float32)
        self.n_actions = 1 + n * len(FRACTIONS)
        self.action_space = spaces.Discrete(self.n_actions)
        self.purse = self.start_cents
        self.race_no = 0
        self.riders = riders or MAX_FIELD
        self.last: dict[str, Any] = {}

    # --- the board ----------------------------------------------------------------------
    def prices(self) -> np.ndarray:
        """Fixed odds (hundredths) per nine-rider selection for this race's field; 0 = none."""
        out = np.zeros(len(self.selections), dtype=np.int64)
        quoted = keirin_prices(self.riders, self.length, None, self.margin)
        for i, price in zip(_index_in_full_field(self.riders), quoted, strict=True):
            out[i] = price or 0
        return out

    def action_masks(self) -> np.ndarray:
        """1 for pass and for every ticket on offer in this race."""
        offered = self.prices() > 0
        mask = np.zeros(self.n_actions, dtype=np.int8)
        mask[0] = 1
        mask[1:] = np.repeat(offered, len(FRACTIONS)).astype(np.int8)
        return mask

    def _observation(self) -> np.ndarray:
        prices = self.prices().astype(np.float64)
        implied = np.divide(100.0, prices, out=np.zeros_like(prices), where=prices > 0)
        field = np.zeros(MAX_FIELD)
        field[: self.riders] = 1.0
        left = (self.races - self.race_no) / self.races
        return np.concatenate([implied, [self.purse / self.start_cents], field, [left]]
                              ).astype(np.float32)

    def _draw_field(self) -> None:
        self.riders = self.fixed_riders or int(self.np_random.integers(6, MAX_FIELD + 1))

    # --- the episode --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.purse = self.start_cents
        self.race_no = 0
        self.last = {}
        self._draw_field()
        return self._observation(), {"action_mask": self.action_masks()}

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        from raceday.core.play import play_game
        from raceday.games.keirin.betting import Ticket, fixed_return

        if not self.action_space.contains(action):
            raise OptionsError(f"action must be 0 to {self.n_actions - 1}, got {action}")
        action = int(action)
        prices = self.prices()
        ticket = None
        if action:
            selection, level = divmod(action - 1, len(FRACTIONS))
            if prices[selection] > 0:
                kind, combo = self.selections[selection]
                stake = max(1, int(self.purse * FRACTIONS[level]))
                ticket = Ticket("bettor", kind, combo, stake, int(prices[selection]))
        race_options = {"riders": self.riders, "length": self.length}
        race = get_game("keirin").new_state(race_options)
        play_game(race, [], self.np_random,
                  max_steps=get_game("keirin").max_steps(race_options))
        ranking = list(race.outcome().ranking)
        before = self.purse
        if ticket is not None:
            self.purse += fixed_return(ticket, ranking) - ticket.stake
        self.race_no += 1
        self.last = {"ticket": ticket.describe() if ticket else "no ticket",
                     "result": ranking[:3], "purse": self.purse / 100,
                     "invalid": bool(action) and ticket is None}
        terminated = self.race_no >= self.races or self.purse <= 0
        if not terminated:
            self._draw_field()
        reward = (self.purse - before) / self.start_cents
        info = {**self.last, "action_mask": self.action_masks()}
        return self._observation(), float(reward), terminated, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        head = f"race {self.race_no}/{self.races}, {self.riders} riders, purse " \
               f"{self.purse / 100:.2f}"
        if self.last:
            head += f"; last: {self.last['ticket']}, first three {self.last['result']}"
        return head


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point=f"{__name__}:KeirinBettorEnv")

__all__ = ["ENV_ID", "FRACTIONS", "KeirinBettorEnv"]
