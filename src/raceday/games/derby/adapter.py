"""Dice Derby for the research frameworks (OpenSpiel, PettingZoo): the evening itself
(:mod:`raceday.games.derby.evening`), its bettors the players, seen only through
``observation(player)``.

A small house keeps the action space small: each bettor starts with ``start_money`` in
stake units of ``stake_unit`` (default 500 in units of 50), so a bid is one of a few
amounts and a ticket's stake one of a few levels. Dense action ids: 0 'done', 1 'borrow'
(never legal: the research evening lends nothing), ``2 + k`` a bid of ``k`` units, and
``3 + U + s * U + (k - 1)`` a ticket on selection ``s`` for ``k`` units (``U`` the units of
the starting purse; a larger stake, possible after a win, has no id). The utility is the
money a bettor ends with, less what they started with, in hundreds (so a bettor who loses
everything gets ``-start_money / 100``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from raceday.core.protocol import Action, State
from raceday.games.derby.evening import (
    BORROW,
    DONE,
    EVENING,
    SELECTIONS,
    EveningOptions,
    EveningState,
    action_parts,
    bid_of,
    ticket_of,
)
from raceday.games.derby.rules import FACES, POSTS
from raceday.research import Adapter, ParamValue, ResearchOptions, Shape
from raceday.research.params import field_like

MAX_BETTORS = 4
PHASES = ("auction", "betting", "racing", "finished")
UTILITY_UNIT = 100  # utilities are in hundreds of yen
OBS_SIZE = (len(PHASES) + MAX_BETTORS + 1 + len(POSTS)  # phase, observer, race, lot
            + MAX_BETTORS * (1 + len(POSTS) + 2)  # each seat: money, horse, sealed, done
            + 2 + len(SELECTIONS)  # own purse, own sealed bid, own stakes per selection
            + len(SELECTIONS)  # the board
            + 3 * len(POSTS))  # the race: places, the die to roll, the dice shown


class ResearchEvening(ResearchOptions):
    """The evening as the research frameworks play it: a small house (500 in units of 50,
    four races) so that the action space stays small, and bettors counted rather than
    named. Plain values (the fall rate and the margin as decimals); every one is checked
    by the evening's own model (:meth:`evening`)."""

    game_title: ClassVar[str] = "derby"

    bettors: int = Field(default=2, ge=1, le=MAX_BETTORS,
                         description=f"Bettors (players), 1 to {MAX_BETTORS}.")
    fall_rate: float = field_like(EveningOptions, "fall_rate", 0.0)
    margin: float = field_like(EveningOptions, "margin", 0.1)
    races: int = field_like(EveningOptions, "races", 4)
    start_money: int = field_like(EveningOptions, "start_money", 500)
    stake_unit: int = field_like(EveningOptions, "stake_unit", 50)

    def for_game(self) -> EveningOptions:
        """The evening these values stand for (:class:`OptionsError` names a problem)."""
        return EveningOptions.parse({
            "players": [f"Bettor {i}" for i in range(self.bettors)],
            "fall_rate": str(self.fall_rate), "margin": str(self.margin),
            "races": self.races, "start_money": self.start_money,
            "stake_unit": self.stake_unit})


class DerbyAdapter(Adapter):
    name = "derby"
    title = "Dice Derby (the evening)"
    player_range = (1, MAX_BETTORS)
    perfect_information = False
    options_model = ResearchEvening

    # --- parameters -------------------------------------------------------------------
    def options(self, params: Mapping[str, ParamValue]) -> EveningOptions:
        """The evening the parameters stand for (the research model checks them)."""
        return self.options_as(params, ResearchEvening).for_game()

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        return EVENING.new_state(self.options(params))

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return EVENING.state_from_json(data)

    @staticmethod
    def _units(state: State) -> int:
        options = _evening(state).options
        return options.start_money // options.stake_unit

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        options = self.options(params)
        units = options.start_money // options.stake_unit
        board = _evening(EVENING.new_state(options)).ledger.board()
        best_odds = max([*board.win.values(), *board.quinella.values()]) / 10
        bonus = 1.5 if options.first_out_bonus else 1.0
        richest = float(options.start_money)
        for _ in range(options.races):  # everything on the longest shot, and both prizes
            richest = richest * best_odds * bonus + options.prize_first + options.prize_second
        return Shape(len(options.players), 3 + units + len(SELECTIONS) * units,
                     max(len(FACES), max(FACES) + 1, MAX_BETTORS), OBS_SIZE,
                     EVENING.max_steps(options), -options.start_money / UTILITY_UNIT,
                     (richest - options.start_money) / UTILITY_UNIT)

    # --- actions ----------------------------------------------------------------------
    def action_id(self, state: State, action: Action) -> int:
        what, units, selection = action_parts(action)
        top = self._units(state)
        if what == "done":
            return 0
        if what == "borrow":
            return 1
        if what == "bid":
            return 2 + units if units <= top else -1
        return 3 + top + selection * top + (units - 1) if units <= top else -1

    def engine_action(self, state: State, action_id: int) -> Action:
        top = self._units(state)
        if action_id in (0, 1):
            return DONE if action_id == 0 else BORROW
        if action_id < 3 + top:
            return bid_of(action_id - 2)
        selection, level = divmod(action_id - 3 - top, top)
        return ticket_of(selection, level + 1)

    def legal_ids(self, state: State) -> list[int]:
        ids = (self.action_id(state, a) for a in state.legal_actions())
        return sorted(i for i in ids if i >= 0)

    # --- results and views --------------------------------------------------------------
    def utilities(self, state: State) -> list[float]:
        evening = _evening(state)
        start = evening.options.start_money
        return [(p.net - start) / UTILITY_UNIT for p in evening.ledger.players]

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        evening = _evening(state)
        view = evening.observation(player if player >= 0 else None)
        start = max(1, evening.options.start_money)
        out[PHASES.index(view["phase"])] = 1.0
        base = len(PHASES)
        if 0 <= player < MAX_BETTORS:
            out[base + player] = 1.0
        base += MAX_BETTORS
        out[base] = view["race"] / view["races"]
        base += 1
        if view["auction"] is not None:
            out[base + view["auction"]["post"] - 1] = 1.0
        base += len(POSTS)
        names = [f"d{f}" for f in FACES]
        for seat in view["players"]:
            at = base + seat["index"] * (len(POSTS) + 3)
            out[at] = seat["money"] / start
            if seat["horse"] is not None:
                out[at + 1 + names.index(seat["horse"])] = 1.0
            out[at + 1 + len(POSTS)] = float(seat["sealed"])
            out[at + 2 + len(POSTS)] = float(seat["done"])
        base += MAX_BETTORS * (len(POSTS) + 3)
        me = view.get("me")
        if me is not None:
            out[base] = me["money"] / start
            out[base + 1] = (me["sealed_bid"] or 0) / start
            for ticket in me["tickets"]:
                horses = tuple(names.index(h) + 1 for h in ticket["horses"])
                selection = SELECTIONS.index((ticket["kind"], horses))
                out[base + 2 + selection] += ticket["stake"] / start
        base += 2 + len(SELECTIONS)
        for k, horse in enumerate(view["horses"]):
            out[base + k] = 10.0 / horse["win"]
        for k, pair in enumerate(view["board"]["quinella"]):
            out[base + len(POSTS) + k] = 10.0 / pair["odds"]
        base += len(SELECTIONS)
        live = view["live"]
        if live is not None:
            for horse, place in live["places"].items():
                out[base + names.index(horse)] = place / len(POSTS)
            if live["next"] is not None:
                out[base + len(POSTS) + names.index(live["next"])] = 1.0
            for horse, value in live["rolls"].items():
                faces = FACES[names.index(horse)]
                out[base + 2 * len(POSTS) + names.index(horse)] = (
                    -1.0 if value is None else value / faces)

    def observation_string(self, state: State, player: int) -> str:
        view = _evening(state).observation(None)
        owners = ", ".join(f"{h['name']}: {h['owner_name'] or ('house' if h['house'] else '-')}"
                           for h in view["horses"])
        money = ", ".join(f"{p['name']} {p['money']}{' sealed' if p['sealed'] else ''}"
                          f"{' done' if p['done'] else ''}" for p in view["players"])
        text = f"{view['phase']}, race {view['race']} of {view['races']}; {money}; {owners}"
        if view["live"] is not None:
            live = view["live"]
            text += f"; placed {live['places']}, shown {live['rolls']}, next {live['next']}"
        if 0 <= player < len(view["players"]):
            text += f"; {self.private_string(state, player)}"
        return text

    def private_string(self, state: State, player: int) -> str:
        me = _evening(state).observation(player)["me"]
        tickets = ", ".join(f"{t['label']} {t['stake']}" for t in me["tickets"]) or "none"
        return f"purse {me['money']}; sealed bid {me['sealed_bid']}; tickets {tickets}"

    def information_string(self, state: State, player: int) -> str:
        """What ``player`` knows: the public view and their own secrets, never another's
        (an evening's history interleaves every bettor's sealed choices)."""
        return self.observation_string(state, player)


def _evening(state: State) -> EveningState:
    if not isinstance(state, EveningState):
        raise TypeError(f"not a Dice Derby evening: {type(state).__name__}")
    return state


ADAPTER = DerbyAdapter()
