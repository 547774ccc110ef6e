"""A KEIRIN betting session: players, bankrolls, race after race, saved in SQLite.

The session is a plain document kept by :class:`raceday.store.sessions.SessionStore`. It is
written twice per race, each time in one transaction:

1. when betting closes: the race's tickets are stored as *pending* and their stakes taken
   from the bankrolls;
2. when the race is settled: returns paid, pending cleared, race counter advanced, together
   with the race's log entry.

Each race's dice come from ``numpy.random.default_rng([seed, race number])``, so a session
interrupted after (1) resumes by running exactly the race the tickets were placed on, and
settles it once; one interrupted before (1) simply reopens that race's betting. The store's
``expected_revision`` guard refuses a second settlement of the same race from a stale copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from raceday.core.errors import BetError, OptionsError, SaveFormatError
from raceday.core.events import Event
from raceday.core.play import play_game
from raceday.core.protocol import State
from raceday.games.keirin.betting import (
    MAX_STAKE_CENTS,
    MODES,
    Account,
    PoolResult,
    Ticket,
    check_affordable,
    fixed_return,
    format_money,
    parse_ticket,
    quoted_odds,
    settle_pools,
    winning_selection,
)
from raceday.games.keirin.game import GAME as KEIRIN
from raceday.games.keirin.odds import KeirinOdds, race_odds
from raceday.games.keirin.rules import KeirinOptions, KeirinState
from raceday.store.sessions import SessionStore

GAME = "keirin"  # the sessions' key in the store
MAX_SEED = 2**63 - 1
DOC_VERSION = 1
DEFAULT_BANKROLL = 1_000_000  # cents: 10,000.00


@dataclass
class Settlement:
    """A settled race: the order, each ticket's return, and the pools (pool mode)."""

    race: int
    ranking: list[int]
    derny: int | None
    tickets: list[Ticket]
    returns: list[int]
    pools: dict[str, PoolResult] = field(default_factory=dict)

    def log_entry(self, bankrolls: Mapping[str, int]) -> dict[str, Any]:
        return {
            "race": self.race,
            "ranking": list(self.ranking),
            "derny": self.derny,
            "tickets": [dict(t.to_json(), returned=r)
                        for t, r in zip(self.tickets, self.returns, strict=True)],
            "bankrolls": dict(bankrolls),
        }


@dataclass
class BetSession:
    """Everything a session needs to go on; see the module docstring for the save points."""

    name: str
    options: KeirinOptions
    mode: str
    margin: float
    allow_debt: bool
    seed: int
    players: dict[str, Account]
    races: int = 0  # settled races
    pending: list[Ticket] | None = None
    revision: int | None = None  # as last saved/loaded

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        name: str,
        players: Sequence[str],
        options: KeirinOptions,
        *,
        bankroll: int = DEFAULT_BANKROLL,
        mode: str = "fixed",
        margin: float = 0.0,
        allow_debt: bool = False,
        seed: int | None = None,
    ) -> BetSession:
        if not name.strip():
            raise OptionsError("a session needs a name")
        names = [p.strip() for p in players]
        if not names or any(not p for p in names):
            raise OptionsError("name at least one player (--player NAME, repeatable)")
        if len(set(names)) != len(names):
            raise OptionsError("player names must differ")
        if mode not in MODES:
            raise OptionsError(f"mode must be one of {', '.join(MODES)}")
        if not 0 <= margin < 1:  # also refuses nan
            raise OptionsError(f"margin must be at least 0 and below 1, got {margin}")
        if bankroll <= 0:
            raise OptionsError("the starting bankroll must be more than 0")
        if seed is None:
            from raceday.terminal.common import fresh_seed

            seed = fresh_seed(None)  # fresh, then saved
        if not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise OptionsError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}")
        return cls(name, options, mode, margin, allow_debt, seed,
                   {p: Account(bankroll) for p in names})

    def to_document(self) -> dict[str, Any]:
        return {
            "version": DOC_VERSION,
            "options": self.options.to_json(),
            "mode": self.mode,
            "margin": self.margin,
            "allow_debt": self.allow_debt,
            "seed": self.seed,
            "races": self.races,
            "players": [[name, acc.to_json()] for name, acc in self.players.items()],
            "pending": None if self.pending is None else [t.to_json() for t in self.pending],
        }

    @classmethod
    def from_document(cls, name: str, doc: Mapping[str, Any], revision: int) -> BetSession:
        try:
            if doc.get("version") != DOC_VERSION:
                raise SaveFormatError(f"session {name!r}: unknown version {doc.get('version')!r}")
            options = KeirinOptions.parse(doc["options"])
            pending = doc["pending"]
            session = cls(
                name=name,
                options=options,
                mode=str(doc["mode"]),
                margin=float(doc["margin"]),
                allow_debt=bool(doc["allow_debt"]),
                seed=int(doc["seed"]),
                players={str(n): Account.from_json(a) for n, a in doc["players"]},
                races=int(doc["races"]),
                pending=None if pending is None else [Ticket.from_json(t) for t in pending],
                revision=revision,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SaveFormatError):
                raise
            raise SaveFormatError(f"session {name!r} is corrupt: {exc}") from None
        if session.mode not in MODES or not session.players:
            raise SaveFormatError(f"session {name!r} is corrupt: bad mode or no players")
        return session

    # --- store -----------------------------------------------------------------------------
    @classmethod
    def load(cls, store: SessionStore, name: str) -> BetSession:
        doc, revision = store.load(GAME, name)
        return cls.from_document(name, doc, revision)

    def save(self, store: SessionStore, log_entry: dict[str, Any] | None = None) -> None:
        """One transaction; refuses to overwrite a newer save of the same session."""
        if self.revision is None and store.exists(GAME, self.name):
            raise OptionsError(
                f"a keirin session named {self.name!r} already exists; resume it with "
                f"--resume {self.name} or choose another --session name"
            )
        self.revision = store.save(GAME, self.name, self.to_document(),
                                   expected_revision=self.revision, log_entry=log_entry)

    # --- odds --------------------------------------------------------------------------------
    @cached_property
    def odds(self) -> KeirinOdds:
        return race_odds(self.options)

    def price(self, kind: str, selection: tuple[int, ...]) -> int | None:
        """Fixed odds offered on a combination (hundredths), None if it cannot happen."""
        return quoted_odds(self.odds.bet(kind)[selection], self.margin)

    # --- betting -----------------------------------------------------------------------------
    def ticket_from_text(self, player: str, text: str, placed: Sequence[Ticket]) -> Ticket:
        """Validate one typed ticket for ``player`` given the tickets already placed this race
        (raises :class:`BetError` with the reason)."""
        if player not in self.players:
            raise BetError(f"unknown player {player!r}")
        kind, selection, stake = parse_ticket(text, self.options.riders, stake_limit=None)
        mine = [t for t in placed if t.player == player]
        # the real reason first: a stake beyond the purse is refused as such, and only then
        # (when debt is allowed) as beyond the house limit
        check_affordable(self.players[player], mine, stake, self.allow_debt)
        if stake > MAX_STAKE_CENTS:
            raise BetError(f"stake {format_money(stake)} is more than the house accepts on one "
                           f"ticket ({format_money(MAX_STAKE_CENTS)})")
        odds = None
        if self.mode == "fixed":
            odds = self.price(kind, selection)
            if odds is None or odds <= 0:
                raise BetError(f"{kind} {selection} cannot come in: no odds offered")
        return Ticket(player, kind, selection, stake, odds)

    def lock(self, store: SessionStore, tickets: Sequence[Ticket]) -> None:
        """Close betting: take the stakes and save the tickets as pending."""
        if self.pending is not None:
            raise ValueError("the previous race is not settled yet")
        for t in tickets:
            acc = self.players[t.player]
            acc.bankroll -= t.stake
            acc.staked += t.stake
            acc.tickets += 1
        self.pending = list(tickets)
        self.save(store)

    # --- racing ----------------------------------------------------------------------------
    def race_rng(self) -> np.random.Generator:
        """The dice of the next race: fixed by the session's seed and the race number."""
        return np.random.default_rng([self.seed, self.races + 1])

    def run_race(
        self, on_events: Callable[[State, list[Event]], None] | None = None
    ) -> KeirinState:
        state = KEIRIN.new_state(self.options)
        play_game(state, [], self.race_rng(), max_steps=KEIRIN.max_steps(self.options),
                  on_events=on_events)
        return state

    def settle(self, store: SessionStore, state: KeirinState) -> Settlement:
        """Pay the pending tickets on the race's order and save (with the log entry)."""
        if self.pending is None:
            raise ValueError("no race to settle: betting was not closed")
        tickets = self.pending
        ranking = list(state.ranked)
        pools: dict[str, PoolResult] = {}
        if self.mode == "fixed":
            returns = [fixed_return(t, ranking) for t in tickets]
        else:
            returns, pools = settle_pools(tickets, ranking, self.margin)
        for t, r in zip(tickets, returns, strict=True):
            acc = self.players[t.player]
            acc.bankroll += r
            acc.returned += r
            acc.winning_tickets += t.selection == winning_selection(t.kind, ranking)
        self.races += 1
        self.pending = None
        settlement = Settlement(self.races, ranking, state.derny, tickets, returns, pools)
        entry = settlement.log_entry({n: a.bankroll for n, a in self.players.items()})
        self.save(store, log_entry=entry)
        return settlement

    def standings(self) -> list[tuple[str, Account]]:
        return sorted(self.players.items(), key=lambda kv: (-kv[1].bankroll, kv[0]))


__all__ = ["DEFAULT_BANKROLL", "GAME", "BetError", "BetSession", "Settlement"]
