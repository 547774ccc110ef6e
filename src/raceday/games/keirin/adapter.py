"""KEIRIN for the research frameworks: the betting night itself, one race, one ticket each.

Bettors 0, 1, ... (1 to 4) each choose in turn one ticket or none, without seeing the others'
choices: action 0 is the night's ``done`` (no ticket), action ``1 + selection * 3 + level``
the night's ticket on selection number ``selection`` (every bet type and combination, in
the night's order) at ``STAKES[level]`` stake units. Then the night's race runs (chance
nodes with the engine's exact probabilities) and the night pays it, by pools (``mode`` pool,
``margin`` the takeout) or fixed odds. A bettor's utility is money returned minus staked, in
stake units. Everything a bettor's observation holds comes from ``observation(player)``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field

from raceday.core.protocol import State
from raceday.games.keirin.night import DONE, NIGHT, NightOptions, NightState, prices, selections
from raceday.research import Adapter, ParamValue, ResearchOptions, Shape
from raceday.research.params import field_like

STAKES: tuple[int, ...] = (1, 2, 5)  # stake levels, in stake units (100 cents)
MAX_BETTORS = 4
PURSE = 10**9  # cents: no bettor's purse limits a research ticket


class ResearchNight(ResearchOptions):
    """A KEIRIN betting night's race as the research frameworks play it: bettors counted
    rather than named, pools with a 20% takeout by default; every value is checked by the
    night's own model (:meth:`night_options`)."""

    game_title: ClassVar[str] = "keirin"

    bettors: int = Field(default=2, ge=1, le=MAX_BETTORS,
                         description=f"Bettors (players), 1 to {MAX_BETTORS}.")
    riders: int = field_like(NightOptions, "riders", 9)
    length: int = field_like(NightOptions, "length", 50)
    derny: int | None = field_like(NightOptions, "derny", None)
    mode: Literal["fixed", "pool"] = field_like(NightOptions, "mode", "pool")
    margin: float = field_like(NightOptions, "margin", 0.2)

    def for_game(self) -> NightOptions:
        """The night these values stand for: one race, one ticket each."""
        return NightOptions.parse({
            "players": [f"bettor {i}" for i in range(self.bettors)],
            **self.model_dump(exclude={"bettors"}), "races": 1, "one_ticket": True,
            "bankroll": PURSE, "stakes": [s * 100 for s in STAKES]})


class KeirinNightAdapter(Adapter):
    name = "keirin"
    title = "KEIRIN (betting game)"
    perfect_information = False
    player_range = (1, MAX_BETTORS)
    options_model = ResearchNight

    def night(self, params: Mapping[str, ParamValue]) -> ResearchNight:
        """The checked values the parameters stand for."""
        return self.options_as(params, ResearchNight)

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        return NIGHT.new_state(self.night(params).for_game())

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return NightState.from_json(data)

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        night = self.night(params)
        options = night.for_game()
        count = len(selections(night.riders))
        actions = 1 + count * len(STAKES)
        top = max(STAKES)
        if night.mode == "fixed":
            offered = prices(night.riders, night.length, night.derny, night.margin)
            best = max(p for p in offered if p) / 100 * top - 1
        else:
            best = top * night.bettors - 1
        race_steps = options.race_options().max_steps()
        obs = 7 + actions + 2 * night.riders + count
        return Shape(night.bettors, actions, 19, obs, race_steps + night.bettors,
                     -float(top), best)

    def utilities(self, state: State) -> list[float]:
        assert isinstance(state, NightState)
        return [p / 100 for p in state.payoffs()]

    # --- what a bettor sees: only its observation -------------------------------------------
    @staticmethod
    def _chosen(state: NightState, player: int) -> int | None:
        """The action ``player`` chose (0: no ticket), None before choosing; read from the
        player's own observation."""
        seen = state.observation(player)
        me = seen["me"]
        if not me["done"]:
            return None
        held = me["tickets"] or [dict(t) for t in me["last"]]
        if not held:
            return DONE
        ticket = held[0]
        return state.ticket_action(ticket["kind"], tuple(ticket["riders"]), ticket["stake"])

    @staticmethod
    def _sealed(state: NightState) -> int:
        return sum(p["done"] for p in state.observation(None)["players"])

    def private_string(self, state: State, player: int) -> str:
        assert isinstance(state, NightState)
        chosen = self._chosen(state, player)
        if chosen is None:
            return "your ticket: not chosen yet"
        if chosen == DONE:
            return "your ticket: no ticket"
        return f"your ticket: {state.action_to_string(chosen)}"

    def observation_string(self, state: State, player: int) -> str:
        assert isinstance(state, NightState)
        head = f"tickets sealed: {self._sealed(state)} of {state.num_players}"
        if 0 <= player < state.num_players:
            head += f"; {self.private_string(state, player)}"
        public = state.observation(None)
        race = public["live"] or public["last"] or {}
        picture = {k: race.get(k) for k in ("positions", "ranked", "ranking") if k in race}
        return f"{head}\n{json.dumps(picture, sort_keys=True)}"

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        """Phase (2), observer (4), share of tickets sealed, own ticket one-hot, riders'
        positions and places, and (fixed odds) the offered odds as chances."""
        assert isinstance(state, NightState)
        public = state.observation(None)
        out[0 if public["phase"] == "tickets" else 1] = 1.0
        if 0 <= player < MAX_BETTORS:
            out[2 + player] = 1.0
        out[6] = self._sealed(state) / state.num_players
        base = 7
        chosen = self._chosen(state, player) if 0 <= player < state.num_players else None
        if chosen is not None:
            out[base + chosen] = 1.0
        options = state.options
        riders = options.riders
        base += 1 + len(selections(riders)) * len(STAKES)
        length = max(1, options.length)
        live, last = public["live"], public["last"]
        if live is not None:
            positions = [live["positions"].get(str(r), 0) for r in range(1, riders + 1)] \
                if live["positions"] else []
            ranked = set(live["ranked"])
        elif last is not None:
            positions, ranked = list(last["positions"]), set(last["ranking"])
        else:
            positions, ranked = [], set()
        for r in range(riders):
            if r < len(positions):
                out[base + r] = positions[r] / length
            out[base + riders + r] = float(r + 1 in ranked)
        base += 2 * riders
        if options.mode == "fixed":
            for i, price in enumerate(prices(riders, options.length, options.derny,
                                             options.margin)):
                out[base + i] = 100.0 / price if price else 0.0


ADAPTER = KeirinNightAdapter()
