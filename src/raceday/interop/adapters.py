"""Every game's research adapter, found from the game, and the betting games' adapters.

A game carries its adapter (a :class:`raceday.research.Adapter`) in its ``adapter`` face,
attribute ``ADAPTER``; :func:`adapters` collects them with :mod:`raceday.core.discovery`, so
no list of games lives here. The KEIRIN betting adapter below is the one still kept beside
:mod:`raceday.interop.betting` until that game carries its own.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, Self

import numpy as np
from pydantic import BaseModel, Field

from raceday.core.discovery import face, games_with
from raceday.core.errors import OptionsError
from raceday.core.game import GameOptions
from raceday.core.protocol import State
from raceday.core.registry import get_game
from raceday.games.keirin.night import NightOptions
from raceday.research import Adapter, ParamValue, Shape
from raceday.research.params import field_like

__all__ = ["Adapter", "ParamValue", "Shape", "adapter", "adapters"]


# --- the betting games ------------------------------------------------------------------------
class BettingAdapter(Adapter):
    """The KEIRIN betting game (see :mod:`raceday.interop.betting`)."""

    perfect_information = False
    player_range = (1, 4)  # bettors: 1 to raceday.interop.betting.MAX_BETTORS

    def utilities(self, state: State) -> list[float]:
        return state.payoffs()  # type: ignore[attr-defined, no-any-return]

    def private_string(self, state: State, player: int) -> str:
        s: Any = state
        if player >= len(s.tickets):
            return "your ticket: not chosen yet"
        return f"your ticket: {s.ticket_text(s.tickets[player])}"

    def observation_string(self, state: State, player: int) -> str:
        s: Any = state
        head = f"tickets sealed: {len(s.tickets)} of {s.bettors}"
        if 0 <= player < s.bettors:
            head += f"; {self.private_string(state, player)}"
        return f"{head}\n{s.race}"

    def _observe_common(self, state: State, player: int, out: np.ndarray) -> int:
        """Phase (2), observer (4), share of tickets sealed, own ticket one-hot; returns
        the next free index."""
        from raceday.interop.betting import MAX_BETTORS

        s: Any = state
        out[0 if s.betting else 1] = 1.0
        if 0 <= player < MAX_BETTORS:
            out[2 + player] = 1.0
        out[6] = len(s.tickets) / s.bettors
        base = 7
        if 0 <= player < len(s.tickets):
            out[base + s.tickets[player]] = 1.0
        return base + int(s.num_actions())

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        raise NotImplementedError


class ResearchNight(GameOptions):
    """A KEIRIN betting night's race as the research frameworks play it: bettors counted
    rather than named, pools with a 20% takeout by default; every value is checked by the
    night's own model (:meth:`parse`)."""

    game_title: ClassVar[str] = "keirin"

    bettors: int = Field(default=2, ge=1, le=4, description="Bettors (players), 1 to 4.")
    riders: int = field_like(NightOptions, "riders", 9)
    length: int = field_like(NightOptions, "length", 50)
    derny: int | None = field_like(NightOptions, "derny", None)
    mode: Literal["fixed", "pool"] = field_like(NightOptions, "mode", "pool")
    margin: float = field_like(NightOptions, "margin", 0.2)

    @classmethod
    def parse(cls, raw: Mapping[str, Any] | BaseModel | None = None) -> Self:
        """The values, checked also by the night's own model (riders, length, derny,
        margin): :class:`OptionsError` with that model's line."""
        values = super().parse(raw)
        NightOptions.parse({"players": [f"Bettor {i}" for i in range(values.bettors)],
                            **values.model_dump(exclude={"bettors"})})
        return values

    def race_options(self) -> dict[str, Any]:
        """The race's options (a derny left to the dice is not named)."""
        return self.model_dump(include={"riders", "length"} | (
            set() if self.derny is None else {"derny"}))


class KeirinBettingAdapter(BettingAdapter):
    name = "keirin"
    title = "KEIRIN (betting game)"
    options_model = ResearchNight
    description = ("Bettors (1-4) each seal one ticket on the engine's bet types (win, "
                   "exacta, quinella, trifecta, trio) at 1, 2 or 5 stake units, or no ticket; "
                   "then the race runs on the engine's dice; payoff = money returned minus "
                   "stake, by the engine's pools (mode=pool, margin = takeout) or fixed odds.")

    def night(self, params: Mapping[str, ParamValue]) -> ResearchNight:
        """The checked values the parameters stand for."""
        night = self.game_options(params)
        assert isinstance(night, ResearchNight)
        return night

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        from raceday.interop.betting import KeirinBettingState

        night = self.night(params)
        return KeirinBettingState(night.bettors, night.race_options(), night.mode,
                                  night.margin)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        from raceday.interop.betting import KeirinBettingState

        return KeirinBettingState.from_json(data)

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        from raceday.interop.betting import STAKES, keirin_selections

        state: Any = self.new_state(params)
        night = self.night(params)
        riders = night.riders
        selections = len(keirin_selections(riders))
        actions = state.num_actions()
        top = max(STAKES)
        bettors = night.bettors
        if night.mode == "fixed":
            best = max(p for p in state.prices() if p) / 100 * top - 1
        else:
            best = top * bettors - 1
        race_steps = get_game("keirin").max_steps(night.race_options())
        obs = 7 + actions + 2 * riders + selections
        return Shape(bettors, actions, 19, obs, race_steps + bettors, -float(top), best)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        s: Any = state
        base = self._observe_common(state, player, out)
        race = s.race
        length = max(1, int(s.race_options.get("length", 50)))
        ranked = set(getattr(race, "ranked", ()))
        positions = list(getattr(race, "positions", ()))
        for r in range(s.riders):
            if r < len(positions):
                out[base + r] = positions[r] / length
            out[base + s.riders + r] = float(r + 1 in ranked)
        base += 2 * s.riders
        if s.mode == "fixed":
            for i, price in enumerate(s.prices()):
                out[base + i] = 100.0 / price if price else 0.0


@functools.cache
def adapters() -> dict[str, Adapter]:
    """Game name → its research adapter: each game's ``adapter`` face (its ``ADAPTER``),
    then the betting adapters kept here for the games that do not carry one yet."""
    found: dict[str, Adapter] = {}
    for game in games_with("adapter"):
        module = face(game, "adapter")
        if module is not None:
            found[game] = module.ADAPTER
    for kept in (KeirinBettingAdapter(),):
        found.setdefault(kept.name, kept)
    return dict(sorted(found.items()))


def adapter(name: str) -> Adapter:
    """The adapter of a game by its raceday name; :class:`OptionsError` if unknown."""
    try:
        return adapters()[name]
    except KeyError:
        raise OptionsError(f"unknown game {name!r}; choose from "
                           f"{', '.join(adapters())}") from None
