"""Computer bettors for a KEIRIN night: a cautious and a sharp style (our completion).

Both read the night's exact odds (:attr:`NightState.odds`, the same every race) and, at
fixed odds, the board's price of each ticket. A computer plans its race's tickets when it
first acts on that race, with the generator it is given (the room's, the terminal's), buys
them one action at a time, then says 'done'. Stakes are whole money units (multiples of
100 cents), never more than what is left in the purse, and only on what the house offers.

* **cautious** (the easiest): one win ticket on the favourite (the likeliest winner), for a
  seeded 2–4 % of the purse.
* **sharp**: values every ticket the board offers by its expected return per unit staked,
  ``chance × board odds`` (exact chance from the odds solver). It buys the three with the
  best value (a seeded jitter of one part in a million breaks near-ties) for a seeded 5–10 %
  of the purse, shared in proportion to each ticket's chance. At fixed odds the board rounds
  every price down, so no ticket is worth more than its price; the sharp computer loses the
  least a unit it can. In a pool the prices are unknown until betting closes, so it covers
  the three likeliest exactas in proportion to their chances (the split a fair pool pays
  back evenly).

A person's seat a computer stands in for plays at the level the host picked; the level
``pass`` buys nothing and is done at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from raceday.core.errors import OptionsError
from raceday.core.events import Event
from raceday.core.protocol import Action, State
from raceday.games.keirin.night import DONE, PHASE_TICKETS, NightState

LEVELS = ("cautious", "sharp")  # easiest first
PASS = "pass"  # a stand-in that buys nothing
UNIT = 100  # cents: stakes are whole money units
BUDGET = {"cautious": (0.02, 0.04), "sharp": (0.05, 0.10)}
SHARP_TICKETS = 3
JITTER = 1e-6


@dataclass(frozen=True)
class Plan:
    """A ticket a computer means to buy: bet type, riders, stake in cents."""

    kind: str
    riders: tuple[int, ...]
    stake: int


def favourite(night: NightState) -> tuple[str, tuple[int, ...], float, int | None]:
    """The likeliest winner the house offers: ``("win", (rider,), chance, board odds in
    hundredths or None in a pool)``; the lower rider number on a tie."""
    fixed = night.options.mode == "fixed"
    offers = [("win", combo, chance, night.price("win", combo) if fixed else None)
              for combo, chance in night.odds.bet("win").items()
              if chance > 0 and (not fixed or night.price("win", combo))]
    return max(offers, key=lambda o: (o[2], -o[1][0]))


def ticket_values(night: NightState) -> list[tuple[str, tuple[int, ...], float, float]]:
    """Every ticket the board offers at fixed odds: (bet type, riders, chance, expected
    return per unit staked = chance × odds)."""
    out: list[tuple[str, tuple[int, ...], float, float]] = []
    for kind, table in night.odds.all_bets().items():
        for combo, chance in table.items():
            price = night.price(kind, combo) if chance > 0 else None
            if price:
                out.append((kind, combo, chance, chance * price / 100))
    return out


def _budget(level: str, purse: int, rng: np.random.Generator) -> int:
    lo, hi = BUDGET[level]
    return int(purse * float(rng.uniform(lo, hi))) // UNIT * UNIT


def plan_tickets(night: NightState, player: int, level: str,
                 rng: np.random.Generator) -> list[Plan]:
    """The tickets a computer at ``level`` buys for ``player`` this race (see the module
    docstring); none when the purse holds less than one money unit."""
    if level not in LEVELS:
        raise OptionsError(f"no KEIRIN computer level {level!r}; the levels are "
                           f"{', '.join(LEVELS)}")
    purse = night.accounts[player].bankroll - sum(t.stake for t in night.mine(player))
    budget = min(max(_budget(level, purse, rng), UNIT), purse // UNIT * UNIT)
    if budget < UNIT:
        return []
    if level == "cautious":
        kind, combo, _, _ = favourite(night)
        return [Plan(kind, combo, budget)]
    if night.options.mode == "fixed":
        valued = [(value + float(rng.uniform(0, JITTER)), kind, combo, chance)
                  for kind, combo, chance, value in ticket_values(night)]
        valued.sort(key=lambda v: (-v[0], v[1], v[2]))
        picks = [(kind, combo, chance) for _, kind, combo, chance in valued[:SHARP_TICKETS]]
    else:
        exactas = sorted(night.odds.bet("exacta").items(), key=lambda c: (-c[1], c[0]))
        picks = [("exacta", combo, chance) for combo, chance in exactas[:SHARP_TICKETS]]
    total = sum(chance for _, _, chance in picks)
    plans: list[Plan] = []
    left = budget
    for kind, combo, chance in picks:
        stake = min(max(int(budget * chance / total) // UNIT * UNIT, UNIT), left)
        if stake < UNIT:
            break
        plans.append(Plan(kind, combo, stake))
        left -= stake
    limit = night.options.max_tickets
    if night.options.one_ticket:
        limit = 1
    return plans if limit is None else plans[:max(limit - len(night.mine(player)), 0)]


class Computer:
    """A KEIRIN bettor as an :class:`~raceday.core.agents.Agent`: at ``level`` for
    ``player`` (default: the first still betting). It plans its race's tickets from
    ``rng`` when it first acts on a race, then buys them one action at a time and says
    'done' (level ``pass``: 'done' at once)."""

    name = "computer"

    def __init__(self, level: str, player: int | None = None) -> None:
        if level not in (*LEVELS, PASS):
            raise OptionsError(f"no KEIRIN computer level {level!r}; the levels are "
                               f"{', '.join((*LEVELS, PASS))}")
        self.level = level
        self.player = player
        # (race, player) -> its tickets, and how many it held before them (a stand-in's)
        self._plans: dict[tuple[int, int], tuple[list[Plan], int]] = {}

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        if not isinstance(state, NightState) or state.phase != PHASE_TICKETS:
            raise OptionsError("a KEIRIN computer buys tickets while a night's betting is open")
        player = state.current_player() if self.player is None else self.player
        if self.level == PASS:
            return DONE
        key = (state.race_number, player)
        if key not in self._plans:
            self._plans = {key: (plan_tickets(state, player, self.level, rng),
                                 len(state.mine(player)))}
        plan, held = self._plans[key]
        bought = len(state.mine(player)) - held
        if not 0 <= bought < len(plan):
            return DONE
        ticket = plan[bought]
        return state.ticket_action(ticket.kind, ticket.riders, ticket.stake)


def computer_turn(night: NightState, player: int, agent: Computer,
                  rng: np.random.Generator) -> Iterator[tuple[Action, list[Event]]]:
    """Play ``player``'s whole betting turn with ``agent``: each action with the events it
    made, as it is applied, until the player is done (or betting closed)."""
    race = night.race_number
    for _ in range(SHARP_TICKETS + 2):
        if player not in night.acting_players() or night.race_number != race:
            return
        action = agent.choose(night, rng)
        yield action, night.apply_action_for(player, action)
    raise OptionsError(f"the KEIRIN computer at seat {player} would not end its turn")
