"""PISTARD for the research frameworks: a dense action space over rider slots and move
codes, and an observation tensor of every rider, the tokens and the dice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from raceday.core.protocol import Action, State
from raceday.games.pistard.game import GAME
from raceday.games.pistard.moves import (
    THROWS,
    action_kind,
    choose_action,
    chosen_rider,
    move_from_parts,
    move_parts,
    place_action,
    placement_of,
)
from raceday.research import Adapter, ParamValue, Shape

PISTARD_SLOTS = 5 * 6  # player 0-4 x rider 1-6: the engine's rider numbers 11..56
PISTARD_CODES = 200  # token flag (100) + 10 * columns ahead + lane
PISTARD_PLACE = PISTARD_SLOTS * PISTARD_CODES
PISTARD_CHOOSE = PISTARD_PLACE + 100
PISTARD_ACTIONS = PISTARD_CHOOSE + PISTARD_SLOTS


def _pistard_slot(ident: int) -> int:
    player, k = divmod(ident, 10)
    if not 1 <= player <= 5 or not 1 <= k <= 6:
        raise ValueError(f"PISTARD rider number {ident} is outside the adapter's range")
    return (player - 1) * 6 + (k - 1)


def _pistard_ident(slot: int) -> int:
    player, k = divmod(slot, 6)
    return 10 * (player + 1) + k + 1


class PistardAdapter(Adapter):
    game = GAME
    description = ("1 to 5 players, perfect information, four dice per throw (1,296 chance "
                   "outcomes). Action id = rider slot * 200 + move code, then placements "
                   "and team 'next rider' choices.")

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        opts: Any = self.game_options(params)
        riders = opts.num_players * opts.riders_each
        steps = GAME.max_steps(opts)
        return Shape(opts.num_players, PISTARD_ACTIONS, THROWS, self._obs_size(riders), steps,
                     0.0, 1.0)

    @staticmethod
    def _obs_size(riders: int) -> int:
        # per rider: owner (5), distance, lane, waiting/racing/out (3), mover, next to place;
        # tokens (5), dice (4 x 6), phase (3), observer (5)
        return riders * 12 + 5 + 24 + 3 + 5

    def action_id(self, state: State, action: Action) -> int:
        kind = action_kind(action)
        if kind == "choose":
            return PISTARD_CHOOSE + _pistard_slot(chosen_rider(action))
        if kind == "place":
            back, lane = placement_of(action)
            if not 0 <= back < 10:
                raise ValueError(f"PISTARD placement {action} is outside the adapter's range")
            return PISTARD_PLACE + 10 * back + lane
        ident, code = move_parts(action)
        if not 0 <= code < PISTARD_CODES:
            raise ValueError(f"PISTARD move {action} is outside the adapter's range")
        return _pistard_slot(ident) * PISTARD_CODES + code

    def engine_action(self, state: State, action_id: int) -> Action:
        if not 0 <= action_id < PISTARD_ACTIONS:
            raise ValueError(f"PISTARD action id must be 0 to {PISTARD_ACTIONS - 1}")
        if action_id >= PISTARD_CHOOSE:
            return choose_action(_pistard_ident(action_id - PISTARD_CHOOSE))
        if action_id >= PISTARD_PLACE:
            return place_action(*divmod(action_id - PISTARD_PLACE, 10))
        slot, code = divmod(action_id, PISTARD_CODES)
        return move_from_parts(_pistard_ident(slot), code)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        from raceday.games.pistard.variants import OUT, RACE

        s: Any = state
        length = s.track.length
        lanes = max(1, getattr(s.track, "lanes", 4))
        base = 0
        for i, rider in enumerate(s.riders):
            out[base + rider.owner] = 1.0
            out[base + 5] = rider.dist / length
            out[base + 6] = rider.lane / lanes
            out[base + 7 + (1 if rider.status == RACE else 2 if rider.status == OUT else 0)] = 1
            out[base + 10] = float(s.mover == i)
            out[base + 11] = float(bool(s.place_queue) and s.place_queue[0] == i)
            base += 12
        tokens_each = max(1, s.options.tokens)
        for p, t in enumerate(s.tokens):
            out[base + p] = t / tokens_each
        base += 5
        if s.dice is not None:
            for colour, value in enumerate(s.dice):
                out[base + colour * 6 + value - 1] = 1.0
        base += 24
        phases = ("place", "race", "over")
        out[base + (phases.index(s.phase) if s.phase in phases else 2)] = 1.0
        base += 3
        if 0 <= player < 5:
            out[base + player] = 1.0


ADAPTER = PistardAdapter()
