"""KEIRIN's betting night as one protocol game: tickets, the race, payouts, race after race.

The terminal night (``raceday keirin play``), the browser room and the research
environments all drive this one state:

* **tickets** — every player who is not done may act, in any order
  (:meth:`~NightState.acting_players`): buy a ticket on any of the five bet types
  (:data:`~raceday.games.keirin.betting.KINDS`), take one back (``take back ticket N``)
  or say ``done``. A stake is any amount in cents the rules allow (the purse, unless debt is
  allowed; the house limit; offered odds in fixed mode): :meth:`~NightState.ticket_action`
  names it. :meth:`~NightState.legal_actions_for` lists ``done``, the take-backs and a ticket on
  every offered combination at each stake of ``options.stakes`` (the menu random agents and
  research environments choose from). When everyone is done, betting closes: the stakes
  are taken and the race starts.
* **the host** — not a seat, but a player of the state all the same (:data:`HOST`): while
  betting is open, ``legal_actions_for(HOST)`` are :data:`CLOSE_BETTING` (everyone is done
  now) and :data:`END_NIGHT` (the open tickets are withdrawn, no money moves, the standings
  are final), applied with ``apply_action_for(HOST, action)`` like any other action.
* **race** — the engine's own race (:class:`~raceday.games.keirin.rules.KeirinState`): every
  node is a chance node with its exact probabilities. At its end the tickets are paid
  (fixed odds or pari-mutuel pools, :mod:`raceday.games.keirin.betting`) and the next
  race's betting opens, or the night ends with the standings (``Outcome.termination`` is
  ``money``).

A player's tickets and purse are reachable only through :meth:`~NightState.observation`
with that player's index; ``observation(None)`` is the public view (purses as they were
before this race's stakes, who is done, the pools' totals, never who bet what). Events
carry facts only; their words are ``keirin.event.<kind>`` in the message tables.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Literal, Self

import numpy as np
from pydantic import Field, field_validator, model_validator

from raceday.core.errors import (
    BetError,
    IllegalActionError,
    OptionsError,
    SaveFormatError,
    refusal,
)
from raceday.core.events import Event, Message
from raceday.core.game import Game, GameOptions
from raceday.core.protocol import (
    CHANCE,
    HOST,
    TERMINAL,
    Action,
    ChanceDraw,
    Outcome,
    SealedState,
    Termination,
)
from raceday.games.keirin.betting import (
    KINDS,
    MAX_STAKE_CENTS,
    Account,
    PoolResult,
    Ticket,
    all_selections,
    check_affordable,
    fixed_return,
    format_money,
    format_odds,
    parse_ticket,
    quoted_odds,
    selection_text,
    settle_pools,
    winning_selection,
)
from raceday.games.keirin.odds import BET_TYPES, KeirinOdds, race_odds
from raceday.games.keirin.rules import PHASE_PHOTO, KeirinOptions, KeirinState
from raceday.games.keirin.track import DERNY, LENGTH, RIDERS, stage_marks

PHASE_TICKETS = "tickets"
PHASE_RACE = "race"
PHASE_OVER = "over"
PHASES = (PHASE_TICKETS, PHASE_RACE, PHASE_OVER)
MAX_PLAYERS = 20
MAX_NAME = 24  # characters of a player's name
MAX_RACES = 1000
DEFAULT_BANKROLL = 1_000_000  # cents: 10,000.00
LAP = 100  # squares in one lap of the track (the finish is at ``length``)
TOP_ROWS = 10  # most likely combinations of each bet type on the boards
DONE: Action = 0
CLOSE_BETTING: Action = -1  # the host's: everyone is done, the stakes are taken
END_NIGHT: Action = -2  # the host's: the open tickets are withdrawn, the standings final
HOST_ACTIONS = {CLOSE_BETTING: "close betting", END_NIGHT: "end the night"}
SETTLEMENT_EVENTS = ("settled", "finished", "betting_open")  # the night's, at a race's end
AWARDS = (("biggest_return", "winnings"), ("boldest", "staked"),
          ("sharpest", "winning_tickets"))  # each award and the account field it counts
SAVE_VERSION = 1


def _key(selection: Sequence[int]) -> str:
    return "-".join(str(r) for r in selection)


class NightOptions(GameOptions):
    """Options of a KEIRIN betting night: who plays, the race, the money."""

    game_title: ClassVar[str] = "KEIRIN night"
    title_words: ClassVar[str | None] = "keirin.options_title"  # "KEIRIN night"

    players: tuple[str, ...] = Field(
        default=("Player 1", "Player 2"), min_length=1, max_length=MAX_PLAYERS,
        description=f"The players' names, 1 to {MAX_PLAYERS}, each 1 to {MAX_NAME} "
        "characters, all different.", json_schema_extra={"cli": False})
    riders: int = Field(default=RIDERS.default, ge=RIDERS.low, le=RIDERS.high, strict=True,
                        description=f"Riders in each race, {RIDERS.low} to {RIDERS.high}.",
                        json_schema_extra={"cli": ["--riders", "-r"]})
    length: int = Field(default=LENGTH.default, ge=LENGTH.low, le=LENGTH.high, strict=True,
                        description=f"Squares to the finish line, {LENGTH.low} to "
                        f"{LENGTH.high} (100 = a lap).",
                        json_schema_extra={"cli": ["--length", "-l"]})
    derny: int | None = Field(default=DERNY.default, ge=DERNY.low, le=DERNY.high, strict=True,
                              description="A fixed derny advance; none: thrown with 3 dice.")
    races: int | None = Field(default=3, ge=1, le=MAX_RACES, strict=True,
                              description="Races in the night; none: until the players stop.",
                              json_schema_extra={"cli": False})  # the terminal: until they stop
    bankroll: int = Field(default=DEFAULT_BANKROLL, ge=1, le=MAX_STAKE_CENTS, strict=True,
                          description="Each player's starting purse, in cents.",
                          json_schema_extra={"cli": False})  # money text: --bankroll
    mode: Literal["fixed", "pool"] = Field(
        default="fixed", description="fixed: the house pays the odds board; pool: "
        "pari-mutuel, the winners share each bet type's pool.",
        json_schema_extra={"cli": False})  # --pool
    margin: float = Field(default=0.0, ge=0.0, lt=1.0,
                          description="House margin (fixed odds) or takeout (pool), 0 to "
                          "below 1 (0.1 for a tenth).",
                          json_schema_extra={"cli": {"flags": ["--margin"],
                                                     "metavar": "FRACTION"}})
    allow_debt: bool = Field(default=False, description="Let players stake more than they "
                             "have.", json_schema_extra={"cli": "--allow-debt"})
    max_tickets: int | None = Field(default=None, ge=1, le=10_000, strict=True,
                                    description="Tickets one player may hold on one race.",
                                    json_schema_extra={"cli": False})
    one_ticket: bool = Field(default=False, description="Each player buys at most one "
                             "ticket a race, and buying it ends their betting.",
                             json_schema_extra={"cli": False})
    stakes: tuple[int, ...] = Field(default=(100, 500, 1000), min_length=1, max_length=10,
                                    description="Stakes (cents) of the ticket menu listed "
                                    "as legal actions; any other stake is legal too.",
                                    json_schema_extra={"cli": False})

    @field_validator("players", mode="before")
    @classmethod
    def _names(cls, value: object) -> object:
        if isinstance(value, list):
            value = tuple(value)
        if not isinstance(value, tuple) or any(not isinstance(n, str) for n in value):
            raise refusal(OptionsError, "reason.names")
        names = tuple(n.strip() for n in value)
        if any(not n or len(n) > MAX_NAME or not n.isprintable() for n in names):
            raise refusal(OptionsError, "reason.name_length", max=MAX_NAME)
        if len(set(names)) != len(names):
            raise refusal(OptionsError, "reason.names_differ")
        return names

    @field_validator("stakes", mode="before")
    @classmethod
    def _stakes(cls, value: object) -> object:
        if isinstance(value, list):
            value = tuple(value)
        if not isinstance(value, tuple) or any(
                isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= MAX_STAKE_CENTS
                for s in value) or len(set(value)) != len(value):
            raise refusal(OptionsError, "keirin.reason.stakes")
        return value

    @field_validator("margin", mode="before")
    @classmethod
    def _margin(cls, value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise refusal(OptionsError, "reason.number_between", where="", low=0, high=1,
                          example="0.1")
        if not 0 <= value < 1:  # also refuses nan
            raise refusal(OptionsError, "reason.at_least_below", low=0, high=1, got=value)
        return float(value)

    @model_validator(mode="after")
    def _race(self) -> Self:
        self.race_options()  # the race's own checks
        return self

    def race_options(self) -> KeirinOptions:
        """The options of each race."""
        return KeirinOptions.parse({"riders": self.riders, "length": self.length,
                                    "derny": self.derny})


@functools.cache
def _odds(riders: int, length: int, derny: int | None) -> KeirinOdds:
    return race_odds(KeirinOptions.parse({"riders": riders, "length": length, "derny": derny}))


@functools.cache
def _selections(riders: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every (bet type, combination), in the engine's order."""
    return tuple((kind, sel) for kind in KINDS for sel in all_selections(kind, riders))


@functools.cache
def _selection_index(riders: int) -> dict[tuple[str, tuple[int, ...]], int]:
    return {s: i for i, s in enumerate(_selections(riders))}


@functools.cache
def _prices(riders: int, length: int, derny: int | None, margin: float
            ) -> tuple[int | None, ...]:
    """Fixed odds (hundredths) of every selection in order; None: cannot come in."""
    tables = _odds(riders, length, derny).all_bets()
    return tuple(quoted_odds(tables[kind][sel], margin) for kind, sel in _selections(riders))


def selections(riders: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every (bet type, combination) a ticket may name with ``riders`` riders, in order."""
    return _selections(riders)


def prices(riders: int, length: int, derny: int | None, margin: float
           ) -> tuple[int | None, ...]:
    """The fixed odds (hundredths) offered on every selection, in order; None: none."""
    return _prices(riders, length, derny, margin)


@functools.cache
def _menu_names(riders: int, stakes: tuple[int, ...]) -> tuple[str, ...]:
    """The names of the menu's ticket actions, action ``1 + i`` named by item ``i``."""
    return tuple(f"{kind} {selection_text(kind, sel)} for {format_money(stake)}"
                 for kind, sel in _selections(riders) for stake in stakes)


@functools.cache
def _offered(riders: int, length: int, derny: int | None, margin: float) -> tuple[int, ...]:
    """The selections the house offers odds on (it offers none on the impossible)."""
    return tuple(i for i, p in enumerate(_prices(riders, length, derny, margin)) if p)


@functools.cache
def odds_board(riders: int, length: int, derny: int | None, mode: str, margin: float
               ) -> dict[str, Any]:
    """Every combination's chance and (fixed odds) offered odds in hundredths, by bet type:
    ``odds[kind][key]`` (key ``3-4``, riders ascending for quinella and trio) and
    ``top[kind]``, the most likely combinations first. It depends only on the options."""
    table = _odds(riders, length, derny)
    odds: dict[str, Any] = {}
    top: dict[str, Any] = {}
    for kind in BET_TYPES:
        chances = table.bet(kind)
        if mode == "fixed":
            odds[kind] = {_key(sel): quoted_odds(p, margin) for sel, p in chances.items()}
        ranked = sorted(chances.items(), key=lambda kv: (-kv[1], kv[0]))
        top[kind] = [{"key": _key(sel), "riders": list(sel), "chance": round(p, 6),
                      "odds": quoted_odds(p, margin) if mode == "fixed" else None}
                     for sel, p in ranked[:riders if kind == "win" else TOP_ROWS]]
    return {"odds": odds, "top": top}


class NightState(SealedState):
    """One KEIRIN betting night (see the module docstring)."""

    game_name: ClassVar[str] = "keirin_night"

    def __init__(self, options: NightOptions) -> None:
        self.options = options
        self.phase = PHASE_TICKETS
        self.settled = 0  # races paid
        self.accounts = [Account(options.bankroll) for _ in options.players]
        self.tickets: list[Ticket] = []  # this race's open (or locked) tickets
        self.done: set[int] = set()
        self.race: KeirinState | None = None
        self.last: dict[str, Any] | None = None  # the last settled race, public
        self.last_returns: dict[int, list[dict[str, Any]]] = {}  # player -> its last tickets
        self.withdrawn = 0  # tickets withdrawn when the night was ended early

    # --- the action numbers ----------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return self.options.players

    def selections(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        return _selections(self.options.riders)

    @property
    def _menu(self) -> int:
        return len(self.selections()) * len(self.options.stakes)

    @property
    def _base(self) -> Action:
        """The first action number after the menu: beyond it, even numbers are tickets at
        any stake and odd numbers take a ticket back."""
        return 1 + self._menu

    def cancel_action(self, index: int) -> Action:
        """The action taking back the player's ticket number ``index`` (0 = the first) of
        this race."""
        return self._base + 2 * index + 1

    def cancel_of(self, action: Action) -> int | None:
        """The ticket number a take-back action names; None for any other action."""
        if action < self._base or (action - self._base) % 2 == 0:
            return None
        return (action - self._base) // 2

    def ticket_action(self, kind: str, selection: Sequence[int], stake: int) -> Action:
        """The action buying ``kind`` on ``selection`` for ``stake`` cents (any stake)."""
        index = _selection_index(self.options.riders).get((kind, tuple(selection)))
        if index is None:
            raise refusal(BetError, "keirin.refusal.no_selection", kind=kind,
                          riders=str(list(selection)), n=self.options.riders)
        if stake < 1:
            raise refusal(BetError, "keirin.refusal.amount_zero", got=stake)
        stakes = self.options.stakes
        if stake in stakes:
            return 1 + index * len(stakes) + stakes.index(stake)
        return self._base + 2 * (index + len(self.selections()) * stake)

    def ticket_of(self, action: Action) -> tuple[str, tuple[int, ...], int] | None:
        """(bet type, combination, stake in cents) of a ticket action; None otherwise."""
        count = len(self.selections())
        stakes = self.options.stakes
        if 1 <= action < self._base:
            index, level = divmod(action - 1, len(stakes))
            stake = stakes[level]
        elif action >= self._base and (action - self._base) % 2 == 0:
            stake, index = divmod((action - self._base) // 2, count)
            if stake < 1:
                return None
        else:
            return None
        kind, selection = self.selections()[index]
        return kind, selection, stake

    def price(self, kind: str, selection: tuple[int, ...]) -> int | None:
        """Fixed odds offered on a combination (hundredths), None if it cannot happen."""
        o = self.options
        index = _selection_index(o.riders)[(kind, selection)]
        return _prices(o.riders, o.length, o.derny, o.margin)[index]

    @property
    def odds(self) -> KeirinOdds:
        """The exact odds of each race (the same every race of the night)."""
        o = self.options
        return _odds(o.riders, o.length, o.derny)

    # --- who acts ----------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.names)

    @property
    def race_number(self) -> int:
        """The race being bet on or run (the last one once the night is over)."""
        return self.settled + (0 if self.phase == PHASE_OVER else 1)

    def acting_players(self) -> list[int]:
        if self.phase != PHASE_TICKETS:
            return []
        return [p for p in range(self.num_players) if p not in self.done]

    def current_player(self) -> int:
        if self.phase == PHASE_TICKETS:
            return self.acting_players()[0]
        return TERMINAL if self.phase == PHASE_OVER else CHANCE

    def mine(self, player: int) -> list[Ticket]:
        """``player``'s tickets on this race (secret: for that player's own face)."""
        return [t for t in self.tickets if t.player == self.names[player]]

    def legal_actions_for(self, player: int) -> list[Action]:
        """A seat's, or the host's (:data:`HOST`) while betting is open."""
        if player == HOST:
            return list(HOST_ACTIONS) if self.phase == PHASE_TICKETS else []
        return super().legal_actions_for(player)

    def _legal_for(self, player: int) -> list[Action]:
        actions = [DONE]
        mine = self.mine(player)
        if self._may_buy(player):
            o = self.options
            left = self.accounts[player].bankroll - sum(t.stake for t in mine)
            levels = [level for level, stake in enumerate(o.stakes)
                      if stake <= MAX_STAKE_CENTS and (o.allow_debt or stake <= left)]
            offered = (_offered(o.riders, o.length, o.derny, o.margin) if o.mode == "fixed"
                       else range(len(self.selections())))
            count = len(o.stakes)
            actions.extend(1 + index * count + level for index in offered for level in levels)
        actions.extend(self.cancel_action(i) for i in range(len(mine)))
        return actions

    def _may_buy(self, player: int) -> bool:
        limit = 1 if self.options.one_ticket else self.options.max_tickets
        return limit is None or len(self.mine(player)) < limit

    def check_ticket(self, player: int, kind: str, selection: tuple[int, ...], stake: int
                     ) -> int | None:
        """Refuse a ticket the rules do not allow (:class:`BetError` with the reason);
        return its fixed odds (None in a pool)."""
        if not self._may_buy(player):
            limit = 1 if self.options.one_ticket else self.options.max_tickets
            raise refusal(BetError, "keirin.refusal.ticket_limit", limit=limit)
        # the real reason first: a stake beyond the purse is refused as such, and only then
        # (when debt is allowed) as beyond the house limit
        check_affordable(self.accounts[player], self.mine(player), stake,
                         self.options.allow_debt)
        if stake > MAX_STAKE_CENTS:
            raise refusal(BetError, "keirin.refusal.house_limit", stake=format_money(stake),
                          limit=format_money(MAX_STAKE_CENTS))
        if self.options.mode != "fixed":
            return None
        odds = self.price(kind, selection)
        if odds is None or odds <= 0:
            raise refusal(BetError, "keirin.refusal.no_odds", kind=Message(f"keirin.kr_{kind}"),
                          riders=str(selection))
        return odds

    def ticket_from_text(self, player: int, text: str) -> Action:
        """The action of a typed ticket (``exacta 3-4 50``) for ``player``, checked against
        the rules (:class:`BetError` names the problem)."""
        kind, selection, stake = parse_ticket(text, self.options.riders, stake_limit=None)
        self.check_ticket(player, kind, selection, stake)
        return self.ticket_action(kind, selection, stake)

    def apply_action_for(self, player: int, action: Action) -> list[Event]:
        """Any stake is legal, not only the menu's: tickets are checked by the rules. The
        host's actions are :data:`CLOSE_BETTING` and :data:`END_NIGHT`."""
        if self.is_terminal():
            raise IllegalActionError(action, "the game is over")
        if player == HOST:
            if action not in self.legal_actions_for(HOST):
                raise IllegalActionError(action, "the host acts only while betting is open, "
                                         "to close betting or end the night")
            return self._close() if action == CLOSE_BETTING else self._end()
        if player not in self.acting_players():
            raise IllegalActionError(action, f"it is not player {player}'s turn to act")
        ticket = self.ticket_of(action)
        if ticket is not None:
            try:
                self.check_ticket(player, *ticket)
            except BetError as exc:
                raise IllegalActionError(action, str(exc)) from None
        elif (cancel := self.cancel_of(action)) is not None:
            if cancel >= len(self.mine(player)):
                raise IllegalActionError(action, "that player has no such ticket to take back")
        elif action != DONE:
            raise IllegalActionError(action, "not among that player's legal actions here")
        return self._apply_for(player, action)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase != PHASE_RACE or self.race is None:
            return super().chance_outcomes()
        return self.race.chance_outcomes()

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        if self.phase != PHASE_RACE or self.race is None:
            return super().sample_chance(rng)
        return self.race.sample_chance(rng)

    def action_to_string(self, action: Action) -> str:
        if self.phase == PHASE_RACE and self.race is not None:
            return self.race.action_to_string(action)
        if action in HOST_ACTIONS:
            return HOST_ACTIONS[action]
        if action == DONE:
            return "done"
        cancel = self.cancel_of(action)
        if cancel is not None:
            return f"take back ticket {cancel + 1}"
        if 1 <= action < self._base:
            return _menu_names(self.options.riders, self.options.stakes)[action - 1]
        ticket = self.ticket_of(action)
        if ticket is None:
            return f"action {action}"
        kind, selection, stake = ticket
        return f"{kind} {selection_text(kind, selection)} for {format_money(stake)}"

    def string_to_action(self, text: str) -> Action:
        """The legal action named ``text``, read back from its name (a ticket's name is
        the rules' own grammar), not found by naming every legal action."""
        if self.phase != PHASE_TICKETS:
            return super().string_to_action(text)
        action = self.action_named(self.current_player(), text)
        if action is None or (self.ticket_of(action) is not None and action >= self._base):
            raise IllegalActionError(text, "no legal action has that name")
        return action

    def action_named(self, player: int, name: str) -> Action | None:
        """``player``'s action named ``name`` now (a ticket at any stake the rules allow,
        ``done``, a take-back; the host's close or end), read back from the name rather
        than found among thousands of tickets; None if no such action is open to them.
        A record's moves are looked up with it (:func:`raceday.core.record.apply_move`)."""
        if self.phase != PHASE_TICKETS:
            return None  # the race's draws are few: named one by one
        wanted = " ".join(name.split()).lower()
        if player == HOST:
            return next((a for a, n in HOST_ACTIONS.items() if n == wanted), None)
        if player not in self.acting_players():
            return None
        action: Action | None = None
        mine = len(self.mine(player))
        if wanted == "done":
            action = DONE
        elif wanted.startswith("take back ticket "):
            number = wanted.removeprefix("take back ticket ")
            action = (self.cancel_action(int(number) - 1)
                      if number.isascii() and number.isdigit() and 1 <= int(number) <= mine
                      else None)
        else:
            head, _, money = wanted.rpartition(" for ")
            try:
                kind, selection, stake = parse_ticket(f"{head} {money}", self.options.riders,
                                                      stake_limit=None)
                action = self.ticket_action(kind, selection, stake)
                self.check_ticket(player, kind, selection, stake)
            except BetError:
                action = None
        if action is None or self.action_to_string(action).lower() != wanted:
            return None
        return action

    def action_message(self, action: Action) -> Message:
        if self.phase == PHASE_RACE and self.race is not None:
            return self.race.action_message(action)
        if action == DONE:
            return Message("keirin.action.done")
        if action in HOST_ACTIONS:
            return Message("keirin.action.close_betting" if action == CLOSE_BETTING
                           else "keirin.action.end_night")
        cancel = self.cancel_of(action)
        if cancel is not None:
            return Message("keirin.action.take_back", {"number": cancel + 1})
        ticket = self.ticket_of(action)
        if ticket is None:
            return super().action_message(action)
        kind, selection, stake = ticket
        odds = self.price(kind, selection) if self.options.mode == "fixed" else None
        return ticket_message(Ticket("", kind, selection, stake, odds))

    # --- moving ------------------------------------------------------------------------------
    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        if self.phase == PHASE_TICKETS:
            return self._apply_for(self.current_player(), action)
        assert self.race is not None
        events = self.race.apply_action(action, detail)
        if self.race.is_terminal():
            events.extend(self._settle())
        return events

    def _apply_for(self, player: int, action: Action) -> list[Event]:
        name = self.names[player]
        if action == DONE:
            self.done.add(player)
            events = [Event("done_betting", {"player": player, "name": name})]
        elif (cancel := self.cancel_of(action)) is not None:
            ticket = self.mine(player)[cancel]
            self.tickets.remove(ticket)
            events = [Event("ticket_withdrawn", {})]  # sealed too: never which bet
        else:
            ticket_fields = self.ticket_of(action)
            assert ticket_fields is not None
            kind, selection, stake = ticket_fields
            odds = self.check_ticket(player, kind, selection, stake)
            self.tickets.append(Ticket(name, kind, selection, stake, odds))
            events = [Event("ticket_sold", {})]  # sealed: never who, which bet or how much
            if self.options.one_ticket:
                self.done.add(player)
                events.append(Event("done_betting", {"player": player, "name": name}))
        if len(self.done) == self.num_players:
            events.extend(self._close())
        return events

    def _end(self) -> list[Event]:
        self.withdrawn = len(self.tickets)
        self.tickets = []
        self.done = set()
        self.phase = PHASE_OVER
        return [Event("finished", {"races": self.settled, "withdrawn": self.withdrawn,
                                   "standings": self.standings()})]

    def _close(self) -> list[Event]:
        self.done = set(range(self.num_players))
        for t in self.tickets:
            acc = self.accounts[self.names.index(t.player)]
            acc.bankroll -= t.stake
            acc.staked += t.stake
            acc.tickets += 1
        self.phase = PHASE_RACE
        self.race = KeirinState(self.options.race_options())
        return [Event("betting_closed", {"race": self.race_number, "tickets": len(self.tickets),
                                         "pool": sum(t.stake for t in self.tickets)})]

    def _settle(self) -> list[Event]:
        race = self.race
        assert race is not None
        ranking = list(race.ranked)
        tickets = self.tickets
        before = [self.public_purse(p) for p in range(self.num_players)]
        pools: dict[str, PoolResult] = {}
        if self.options.mode == "fixed":
            returns = [fixed_return(t, ranking) for t in tickets]
        else:
            returns, pools = settle_pools(tickets, ranking, self.options.margin)
        self.last_returns = {}
        for t, r in zip(tickets, returns, strict=True):
            player = self.names.index(t.player)
            acc = self.accounts[player]
            won = t.selection == winning_selection(t.kind, ranking)
            acc.bankroll += r
            acc.returned += r
            acc.winning_tickets += won
            acc.winnings += r if won else 0  # a refunded stake is returned, not won
            self.last_returns.setdefault(player, []).append(
                dict(self.ticket_view(t), returned=r, won=won))
        self.settled += 1
        winners = {kind: list(winning_selection(kind, ranking)) for kind in BET_TYPES}
        players = []
        for p, name in enumerate(self.names):
            mine = [(t, r) for t, r in zip(tickets, returns, strict=True) if t.player == name]
            players.append({"player": p, "name": name, "staked": sum(t.stake for t, _ in mine),
                            "returned": sum(r for _, r in mine), "before": before[p],
                            "purse": self.accounts[p].bankroll})
        self.last = {
            "race": self.settled, "ranking": ranking, "derny": race.derny, "winners": winners,
            "labels": {k: selection_text(k, tuple(v)) for k, v in winners.items()},
            "pools": {kind: {"pool": p.pool, "winning": list(p.winning),
                             "label": selection_text(kind, p.winning), "refunded": p.refunded,
                             "dividend": None if p.dividend() is None
                             else float(p.dividend() or 0)}
                      for kind, p in pools.items()},
            "players": players, "tickets": len(tickets), "positions": list(race.positions),
        }
        self.race = None
        self.tickets = []
        events = [Event("settled", dict(self.last))]
        if self.options.races is not None and self.settled >= self.options.races:
            self.phase = PHASE_OVER  # everyone stays done with the last race
            events.append(Event("finished", {"races": self.settled, "withdrawn": 0,
                                             "standings": self.standings()}))
        else:
            self.phase = PHASE_TICKETS
            self.done = set()
            races = self.options.races
            events.append(Event("betting_open", {"race": self.race_number, "races": races,
                                                 "open_ended": races is None}))
        return events

    # --- what each seat sees -----------------------------------------------------------------
    def locked(self) -> list[Ticket]:
        """The tickets whose stakes were taken for the race now running."""
        return self.tickets if self.phase == PHASE_RACE else []

    def public_purse(self, player: int) -> int:
        """A purse without this race's locked stakes: what everyone saw before the race."""
        name = self.names[player]
        return self.accounts[player].bankroll + sum(
            t.stake for t in self.locked() if t.player == name)

    def standings(self) -> list[dict[str, Any]]:
        """Players by public purse (ties share a rank), with their record."""
        purses = sorted(((self.public_purse(p), p) for p in range(self.num_players)),
                        key=lambda x: (-x[0], x[1]))
        out: list[dict[str, Any]] = []
        for pos, (purse, p) in enumerate(purses):
            rank = out[-1]["rank"] if out and out[-1]["purse"] == purse else pos + 1
            acc = self.accounts[p]
            locked = [t.stake for t in self.locked() if t.player == self.names[p]]
            out.append({"rank": rank, "player": p, "name": self.names[p], "purse": purse,
                        "won": acc.winning_tickets, "tickets": acc.tickets - len(locked),
                        "net": acc.returned - acc.staked + sum(locked)})
        return out

    def awards(self) -> list[dict[str, Any]]:
        """The night's awards, facts of the players' accounts: ``biggest_return`` (the most
        paid by winning tickets; a refunded stake is returned, not won), ``boldest`` (the
        most staked) and ``sharpest`` (the most winning tickets). Each is ``{"award",
        "players", "value", "tickets"}``: every player sharing the best value (a tie is
        told as one, in seat order), that value and each of them's tickets bought. An award
        nobody earned (a best of 0) is left out."""
        out: list[dict[str, Any]] = []
        for award, field in AWARDS:
            values = [getattr(a, field) for a in self.accounts]
            best = max(values, default=0)
            if best <= 0:
                continue
            players = [p for p, v in enumerate(values) if v == best]
            out.append({"award": award, "players": players, "value": best,
                        "tickets": [self.accounts[p].tickets for p in players]})
        return out

    def ticket_view(self, t: Ticket) -> dict[str, Any]:
        """One ticket as its owner sees it, with what it pays if it wins (fixed odds)."""
        out: dict[str, Any] = {
            "kind": t.kind, "riders": list(t.selection),
            "label": selection_text(t.kind, t.selection), "stake": t.stake,
            "stake_text": format_money(t.stake), "odds": t.odds}
        if t.odds is not None:
            rest = [r for r in range(1, self.options.riders + 1) if r not in t.selection]
            out["pays"] = fixed_return(t, [*t.selection, *rest])
        return out

    def tote(self) -> dict[str, Any]:
        """Pari-mutuel: each pool's total, its ticket count, the stakes on each combination
        and what a unit would return if it won now. Never who holds a ticket."""
        return _tote(tuple(self.tickets), self.options.riders, self.options.margin)

    def live(self) -> dict[str, Any] | None:
        """The race now running, as the big screen draws it."""
        race = self.race
        if race is None:
            return None
        length = race.options.length
        positions = {str(r): race.positions[r - 1] for r in range(1, race.options.riders + 1)} \
            if race.positions else {}
        active = race.active_riders()
        front = max((race.positions[r - 1] for r in active), default=length) \
            if race.positions else None
        to_go = None if front is None else max(0, length - front)
        return {
            "phase": race.phase, "turn": race.turn, "derny": race.derny,
            "positions": positions, "ranked": list(race.ranked),
            "photo": [list(g) for g in race.photo_groups] if race.phase == PHASE_PHOTO else [],
            "finish": length, "lap": LAP, "to_go": to_go,
            "laps_to_go": None if to_go is None else -(-to_go // LAP),
            **stage_marks(to_go, race.options.riders),
        }

    def observation(self, player: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "phase": self.phase, "race": self.race_number, "races": self.options.races,
            "settled": self.settled,
            "players": [{"index": p, "name": n, "purse": self.public_purse(p),
                         "done": p in self.done} for p, n in enumerate(self.names)],
            "live": self.live(), "last": self.last, "standings": self.standings(),
        }
        if self.options.mode == "pool" and self.phase in (PHASE_TICKETS, PHASE_RACE):
            # Sealed bets stay sealed: while betting is open no pool is shown (a bettor could
            # subtract their own tickets from it and read the others'); the tote opens at
            # the close, when nobody can act on it any more.
            sealed = self.phase == PHASE_TICKETS
            out["tote"] = None if sealed else self.tote()
            out["tote_sealed"] = sealed
        if player is not None:
            out["me"] = self._me(player)
        return out

    def _me(self, player: int) -> dict[str, Any]:
        acc = self.accounts[player]
        mine = self.mine(player)
        staked = sum(t.stake for t in mine)
        betting = self.phase == PHASE_TICKETS
        return {
            "seat": player, "name": self.names[player],
            "purse": acc.bankroll - (staked if betting else 0),  # left to bet now
            "bankroll": acc.bankroll + (staked if self.phase == PHASE_RACE else 0),
            "staked": staked, "may_bet": betting and player not in self.done,
            "done": player in self.done,
            "tickets": [self.ticket_view(t) for t in mine],
            "last": self.last_returns.get(player, []),
            "record": {"tickets": acc.tickets, "won": acc.winning_tickets,
                       "staked": acc.staked, "returned": acc.returned},
        }

    def frame(self) -> dict[str, Any]:
        return {"game": "keirin", "night": self.observation(None),
                "race": None if self.race is None else self.race.to_json()}

    # --- results -----------------------------------------------------------------------------
    def payoffs(self) -> list[int]:
        """Each player's money now minus the starting purse, in cents."""
        return [a.bankroll - self.options.bankroll for a in self.accounts]

    def outcome(self) -> Outcome:
        """Players richest first; the richest (all of them, if level) win."""
        self.require_over()
        purses = [a.bankroll for a in self.accounts]
        ranking = tuple(sorted(range(self.num_players), key=lambda p: (-purses[p], p)))
        best = max(purses)
        winners = tuple(p for p in ranking if purses[p] == best)
        names = [self.names[p] for p in winners]
        return Outcome(
            ranking=ranking, winner=winners[0] if len(winners) == 1 else None,
            scores={p: float(purses[p]) for p in ranking},
            description=f"{', '.join(names)} ended with the most money "
            f"({format_money(best)})",
            winning_players=winners, score_name="purse (cents)",
            termination=Termination.MONEY,
            message=Message("keirin.outcome.money", {"names": names,
                                                     "purse": format_money(best)}),
        )

    # --- copies and saving -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_name, "version": SAVE_VERSION,
            "options": self.options.to_json(), "phase": self.phase, "settled": self.settled,
            "accounts": [a.to_json() for a in self.accounts],
            "tickets": [t.to_json() for t in self.tickets], "done": sorted(self.done),
            "race": None if self.race is None else self.race.to_json(),
            "last": self.last,
            "returns": [[p, r] for p, r in sorted(self.last_returns.items())],
            "withdrawn": self.withdrawn,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            if data.get("game") != cls.game_name or data.get("version") != SAVE_VERSION:
                raise SaveFormatError("not a KEIRIN night save of a known version")
            state = cls(NightOptions.parse(data["options"]))
            phase = str(data["phase"])
            if phase not in PHASES:
                raise SaveFormatError(f"KEIRIN night: unknown phase {phase!r}")
            state.phase = phase
            state.settled = int(data["settled"])
            state.accounts = [Account.from_json(a) for a in data["accounts"]]
            state.tickets = [Ticket.from_json(t) for t in data["tickets"]]
            state.done = {int(p) for p in data["done"]}
            state.race = None if data["race"] is None else KeirinState.from_json(data["race"])
            state.last = None if data["last"] is None else dict(data["last"])
            state.last_returns = {int(p): [dict(t) for t in r] for p, r in data["returns"]}
            state.withdrawn = int(data["withdrawn"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, SaveFormatError):
                raise
            raise SaveFormatError(f"KEIRIN night save is corrupt: {exc}") from None
        state._check()
        return state

    def _check(self) -> None:
        bad = None
        if len(self.accounts) != self.num_players:
            bad = "one account per player"
        elif any(t.player not in self.names for t in self.tickets):
            bad = "a ticket of nobody at the table"
        elif any(not 0 <= p < self.num_players for p in self.done):
            bad = "a player number out of range"
        elif (self.race is None) == (self.phase == PHASE_RACE):
            bad = "a race exactly while racing"
        elif self.phase == PHASE_TICKETS and len(self.done) == self.num_players:
            bad = "betting open with every player done"
        if bad is not None:
            raise SaveFormatError(f"KEIRIN night save is corrupt: expected {bad}")

    def clone(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.accounts = [Account(**a.to_json()) for a in self.accounts]
        twin.tickets = list(self.tickets)
        twin.done = set(self.done)
        twin.race = None if self.race is None else self.race.clone()
        twin.last_returns = {p: [dict(t) for t in r] for p, r in self.last_returns.items()}
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    def __repr__(self) -> str:
        return (f"<NightState {self.num_players} players: {self.phase}, race "
                f"{self.race_number}, {self.settled} settled>")


@functools.lru_cache(maxsize=64)
def _tote(tickets: tuple[Ticket, ...], riders: int, margin: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in BET_TYPES:
        mine = [t for t in tickets if t.kind == kind]
        stakes: dict[tuple[int, ...], int] = {}
        for t in mine:
            stakes[t.selection] = stakes.get(t.selection, 0) + t.stake
        if kind == "win":
            for r in range(1, riders + 1):
                stakes.setdefault((r,), 0)
        combos = []
        order = sorted(stakes) if kind == "win" else sorted(
            stakes, key=lambda sel: (-stakes[sel], sel))
        for sel in order[:riders if kind == "win" else TOP_ROWS]:
            stake = stakes[sel]
            pays = None
            if stake:
                rest = [r for r in range(1, riders + 1) if r not in sel]
                _, pools = settle_pools(mine, [*sel, *rest], margin)
                div = pools[kind].dividend()
                pays = None if div is None else float(div)
            combos.append({"key": _key(sel), "riders": list(sel), "stake": stake,
                           "pays": pays})
        out[kind] = {"pool": sum(stakes.values()), "tickets": len(mine),
                     "combinations": len([v for v in stakes.values() if v]),
                     "combos": combos}
    return out


def ticket_message(ticket: Ticket) -> Message:
    """A ticket as a message: ``win 3 for 100.00`` (``at 5.40`` with fixed odds)."""
    params: dict[str, Any] = {"kind": Message(f"keirin.ticket_kind.{ticket.kind}"),
                              "selection": selection_text(ticket.kind, ticket.selection),
                              "stake": format_money(ticket.stake)}
    if ticket.odds is None:
        return Message("keirin.ticket", params)
    return Message("keirin.ticket_at", {**params, "odds": format_odds(ticket.odds)})


class NightGame(Game[NightOptions, NightState]):
    """KEIRIN's betting night: players bet on race after race of the dice-only race."""

    name = "keirin_night"
    title = "KEIRIN betting night"
    designer = "Anki Toner"
    summary = "Bet with friends on KEIRIN races: tickets, the race, payouts, standings."
    players = (1, MAX_PLAYERS)
    # Small menus (one or two stakes): the harness names every legal action at every step.
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {"riders": 6, "races": 2, "max_tickets": 2, "stakes": [100]},
        {"players": ["Ann", "Bob", "Chie"], "riders": 6, "mode": "pool", "margin": 0.2,
         "races": 2, "max_tickets": 3, "stakes": [100, 250]},
        {"players": ["Solo"], "riders": 6, "one_ticket": True, "races": 1, "margin": 0.1,
         "stakes": [100, 200, 500]},
        {"riders": 6, "bankroll": 300, "allow_debt": True, "races": 1, "derny": 12,
         "max_tickets": 2, "stakes": [200]},
    )
    harness_games = 30

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        """Each race: the race's own bound, and per player its tickets, undos and done;
        without a ticket limit, a random agent's tickets are bounded by its purse only, so
        the bound assumes the menu's smallest stake (or a ticket limit) caps them."""
        o = self.options(options)
        races = o.races if o.races is not None else MAX_RACES
        limit = 1 if o.one_ticket else o.max_tickets
        if limit is None:
            limit = o.bankroll // min(o.stakes) + 1 if not o.allow_debt else 10_000
        # every ticket may be undone and bought again: bound the loop generously
        per_player = 1 + 2 * limit * 50
        return races * (o.race_options().max_steps() + len(o.players) * per_player)


NIGHT = NightGame()
# the part of the game a record may name (raceday.core.registry.record_game)
RECORD_GAMES = (NIGHT,)
