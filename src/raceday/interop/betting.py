"""The betting game around a race of dice alone (KEIRIN), for research frameworks. (Dice
Derby's research environment is its whole evening: :mod:`raceday.games.derby.adapter`.)

A KEIRIN race has no decision-making players: the race is dice alone. Research frameworks
need players, so it is modelled as the betting game around its race, with a finite action
space:

1. **Sealed tickets.** Bettors 0, 1, ... each choose, in turn and without seeing the
   others' choices, one ticket or no ticket: action 0 is "no ticket"; action
   ``1 + selection * len(STAKES) + level`` buys the engine's ``selection`` (every bet type
   and combination of the engine, in the engine's order) for ``STAKES[level]`` stake units.
2. **The race.** The engine's own race state runs to the end: every node is a chance node
   with the engine's exact probabilities.
3. **Settlement** by the engine's own rules: KEIRIN pools (:func:`settle_pools`) or fixed
   odds (:func:`quoted_odds`, :func:`fixed_return`). A bettor's payoff is the money
   returned minus the stake, in stake units.

These states follow :class:`raceday.core.protocol.State`: ``outcome().winning_players``
are the bettors who ended with the most money (nobody when everyone passed or lost the
same), and :meth:`payoffs` gives the money itself (the utility the adapters report).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Self

import numpy as np

from raceday.core.errors import SaveFormatError
from raceday.core.events import Event
from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, Outcome, State
from raceday.core.registry import get_game

STAKES: tuple[int, ...] = (1, 2, 5)  # stake levels, in stake units
MAX_BETTORS = 4
PASS: Action = 0


def ticket_action(selection: int, level: int) -> Action:
    """The action buying selection number ``selection`` at stake level ``level``."""
    return 1 + selection * len(STAKES) + level


def ticket_of(action: Action) -> tuple[int, int]:
    """(selection number, stake level) of a ticket action (not :data:`PASS`)."""
    return divmod(action - 1, len(STAKES))


class BettingState(State):
    """Sealed tickets by ``bettors`` players, then the engine's race, then settlement."""

    game_name: ClassVar[str] = "betting"
    race_game: ClassVar[str] = ""

    def __init__(self, bettors: int, race_options: Mapping[str, Any]) -> None:
        if not 1 <= bettors <= MAX_BETTORS:
            raise ValueError(f"bettors must be 1 to {MAX_BETTORS}, got {bettors}")
        self.bettors = bettors
        self.race_options = dict(race_options)
        self.tickets: list[Action] = []  # one action per bettor who has chosen
        self.race: State = get_game(self.race_game).new_state(self.race_options)

    # --- the selections (set by subclasses) -------------------------------------------
    def selections(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        """Every (bet type, combination) a ticket may name, in the engine's order."""
        raise NotImplementedError

    def num_actions(self) -> int:
        return 1 + len(self.selections()) * len(STAKES)

    def ticket_text(self, action: Action) -> str:
        if action == PASS:
            return "no ticket"
        selection, level = ticket_of(action)
        kind, combo = self.selections()[selection]
        return f"{kind} {'-'.join(str(c) for c in combo)} for {STAKES[level]}"

    # --- who acts ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.bettors

    @property
    def betting(self) -> bool:
        return len(self.tickets) < self.bettors

    def current_player(self) -> int:
        if self.betting:
            return len(self.tickets)
        return TERMINAL if self.race.is_terminal() else CHANCE

    def legal_actions(self) -> list[Action]:
        if not self.betting:
            return []
        return list(range(self.num_actions()))

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.betting:
            return super().chance_outcomes()
        return self.race.chance_outcomes()

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        if self.betting:
            return super().sample_chance(rng)
        return self.race.sample_chance(rng)

    def action_to_string(self, action: Action) -> str:
        if self.betting:
            return f"bettor {len(self.tickets)}: {self.ticket_text(action)}"
        return self.race.action_to_string(action)

    def apply_action(self, action: Action, detail: Mapping[str, Any] | None = None) -> list[Event]:
        if self.betting:
            return super().apply_action(action, detail)
        return self.race.apply_action(action, detail)  # the engine checks its own outcomes

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        player = len(self.tickets)
        self.tickets.append(action)
        return [Event("ticket", {"bettor": player, "sealed": True})]

    # --- results ----------------------------------------------------------------------
    def payouts(self) -> list[int]:
        """Money returned per bettor (stake included), in stake units times 100."""
        raise NotImplementedError

    def stake_of(self, bettor: int) -> int:
        action = self.tickets[bettor]
        return 0 if action == PASS else STAKES[ticket_of(action)[1]]

    def payoffs(self) -> list[float]:
        """Each bettor's money won minus staked, in stake units (0 before the end)."""
        if not self.is_terminal():
            return [0.0] * self.bettors
        paid = self.payouts()
        return [paid[b] / 100 - self.stake_of(b) for b in range(self.bettors)]

    def outcome(self) -> Outcome:
        race = self.race.outcome()
        money = self.payoffs()
        best = max(money)
        winners = tuple(b for b, m in enumerate(money) if m == best and m > 0)
        if winners:
            who = ", ".join(f"bettor {b}" for b in winners)
            text = f"{who} ended with the most money ({best:+g} stake units)"
        else:
            text = "no bettor made money"
        return Outcome(ranking=race.ranking, winner=race.winner, scores=race.scores,
                       description=f"{race.description}; {text}", winning_players=winners,
                       score_name=race.score_name)

    # --- saving -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_name, "bettors": self.bettors,
                "race_options": self.race_options, "tickets": list(self.tickets),
                "race": self.race.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            if data["game"] != cls.game_name:
                raise SaveFormatError(f"not a {cls.game_name} save")
            state = cls(int(data["bettors"]), dict(data["race_options"]))
            state.tickets = [int(a) for a in data["tickets"]]
            state.race = get_game(cls.race_game).state_from_json(data["race"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"{cls.game_name} save: {exc}") from None
        if len(state.tickets) > state.bettors or any(
                not 0 <= a < state.num_actions() for a in state.tickets):
            raise SaveFormatError(f"{cls.game_name} save: bad tickets")
        return state

    def clone(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.tickets = list(self.tickets)
        twin.race = self.race.clone()
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    def __str__(self) -> str:
        placed = f"{len(self.tickets)} of {self.bettors} tickets sealed"
        return f"{placed}\n{self.race}"


# --- KEIRIN ---------------------------------------------------------------------------------
@functools.cache
def keirin_selections(riders: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    from raceday.games.keirin.betting import KINDS, all_selections

    return tuple((kind, sel) for kind in KINDS for sel in all_selections(kind, riders))


@functools.cache
def keirin_prices(riders: int, length: int, derny: int | None, margin: float
                  ) -> tuple[int | None, ...]:
    """The engine's fixed odds (hundredths) of every selection, in selection order."""
    from raceday.games.keirin.betting import quoted_odds
    from raceday.games.keirin.odds import race_odds
    from raceday.games.keirin.rules import KeirinOptions

    odds = race_odds(KeirinOptions(riders=riders, length=length, derny=derny))
    tables = odds.all_bets()
    return tuple(quoted_odds(tables[kind][sel], margin)
                 for kind, sel in keirin_selections(riders))


class KeirinBettingState(BettingState):
    """KEIRIN as a betting game: sealed tickets on the engine's five bet types, then the race.

    ``mode`` "pool" settles by the engine's pari-mutuel pools (the bettors' payoffs depend
    on each other's tickets; ``margin`` is the takeout); "fixed" pays the engine's fixed
    odds (each bettor plays against the house alone).
    """

    game_name: ClassVar[str] = "keirin_betting"
    race_game: ClassVar[str] = "keirin"

    def __init__(self, bettors: int = 2, race_options: Mapping[str, Any] | None = None,
                 mode: str = "pool", margin: float = 0.2) -> None:
        if mode not in ("pool", "fixed"):
            raise ValueError(f"mode must be 'pool' or 'fixed', got {mode!r}")
        if not 0 <= margin < 1:
            raise ValueError(f"margin must be at least 0 and below 1, got {margin}")
        super().__init__(bettors, race_options or {})
        self.mode = mode
        self.margin = margin
        self.riders = int(self.race_options.get("riders", 9))

    def selections(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        return keirin_selections(self.riders)

    def prices(self) -> tuple[int | None, ...]:
        """Fixed odds in hundredths per selection (None: cannot come in)."""
        opts = self.race_options
        return keirin_prices(self.riders, int(opts.get("length", 50)), opts.get("derny"),
                             self.margin)

    def legal_actions(self) -> list[Action]:
        actions = super().legal_actions()
        if actions and self.mode == "fixed":  # the house offers no odds on the impossible
            prices = self.prices()
            actions = [a for a in actions if a == PASS or prices[ticket_of(a)[0]]]
        return actions

    def engine_tickets(self) -> list[Any]:
        from raceday.games.keirin.betting import Ticket

        out = []
        prices = self.prices() if self.mode == "fixed" else None
        for bettor, action in enumerate(self.tickets):
            if action == PASS:
                continue
            selection, level = ticket_of(action)
            kind, combo = self.selections()[selection]
            odds = prices[selection] if prices is not None else None
            out.append(Ticket(str(bettor), kind, combo, STAKES[level] * 100, odds))
        return out

    def payouts(self) -> list[int]:
        from raceday.games.keirin.betting import fixed_return, settle_pools

        ranking = list(self.race.outcome().ranking)
        tickets = self.engine_tickets()
        if self.mode == "fixed":
            returns = [fixed_return(t, ranking) for t in tickets]
        else:
            returns, _ = settle_pools(tickets, ranking, self.margin)
        paid = [0] * self.bettors
        for ticket, amount in zip(tickets, returns, strict=True):
            paid[int(ticket.player)] += amount
        return paid

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "mode": self.mode, "margin": self.margin}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        state = super().from_json(data)
        try:
            state.mode = str(data["mode"])
            state.margin = float(data["margin"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"keirin_betting save: {exc}") from None
        return state
