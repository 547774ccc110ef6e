"""A Dice Derby party session: auction, betting, settlement, standings and awards.

Everything here is pure bookkeeping with no terminal I/O, so tests can check every payout.
Money is whole units (yen); stakes and bids are multiples of ``stake_unit``; odds are held
in tenths so a payout ``stake * tenths // 10`` is exact for such stakes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Self

import numpy as np
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from raceday.core.errors import BetError as BetError  # its old home: still importable here
from raceday.core.errors import OptionsError, SaveFormatError, refusal
from raceday.core.events import Message
from raceday.core.game import GameOptions, one_of
from raceday.core.serialize import Fields
from raceday.games.derby.odds import (
    OddsBoard,
    Pair,
    exact_odds,
    make_board,
    pair_name,
    parse_margin,
)
from raceday.games.derby.rules import POSTS, as_validator, horse_name, parse_fall_rate

MIN_RACES, MAX_RACES = 4, 6
KINDS = ("human", "cautious", "bold")
OWNER_AWARDS = ("gross", "net")


def _owner_award(value: str) -> str:
    """The owners' award, 'gross' or 'net' (else refused in words)."""
    if value not in OWNER_AWARDS:
        raise refusal(OptionsError, "derby.reason.owner_award", got=repr(value))
    return value
PHASE_AUCTION, PHASE_BETTING, PHASE_RACING, PHASE_FINISHED = (
    "auction", "betting", "racing", "finished",
)
PHASES = (PHASE_AUCTION, PHASE_BETTING, PHASE_RACING, PHASE_FINISHED)
SESSION_FORMAT = 1


MAX_MONEY = 1_000_000_000  # money, prizes and loans: beyond this a typo is likelier than a wish
MAX_TICKETS = 100
MAX_LOANS = 100
MAX_PLAYERS = 64
MAX_NAME = 64


class Seat(BaseModel):
    """One player of the evening: a name and who plays it (a person, or a computer that
    bets cautiously or boldly). Given as a name alone, a seat is a person's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=MAX_NAME)
    kind: Annotated[str, AfterValidator(
        one_of(KINDS, "player kind must be one of {choices}, got {value!r}"))] = "human"

    @model_validator(mode="before")
    @classmethod
    def _name_alone(cls, value: object) -> object:
        if isinstance(value, str):
            return {"name": value}
        if isinstance(value, list | tuple) and len(value) == 2:
            return {"name": value[0], "kind": value[1]}
        return value

    @field_validator("name", mode="before")
    @classmethod
    def _stripped(cls, value: object) -> object:
        return value.strip() if isinstance(value, str) else value

    @property
    def is_computer(self) -> bool:
        return self.kind != "human"


def _whole(default: int, low: int, high: int, what: str, cli: Any = None) -> Any:
    """A whole-number option from ``low`` to ``high`` (true/false or 2.0 are refused);
    ``cli``: its flags on the command line, where they are not the field's name."""
    return Field(default=default, ge=low, le=high, strict=True,
                 description=f"{what}, {low:,} to {high:,}.",
                 json_schema_extra=None if cli is None else {"cli": cli})


class EveningOptions(GameOptions):
    """The house rules of a Dice Derby evening and its players (docs/rules/derby.md).

    One model for every face: the terminal's flags, the browser's setup form and the
    research environments' parameters. ``host`` is the real-dice mode (a host types the
    numbers the table rolled); ``seed`` seeds what the terminal draws and the computer
    players' choices. ``fall_rate`` and ``margin`` are exact and kept as text in JSON."""

    game_title: ClassVar[str] = "Dice Derby evening"
    title_words: ClassVar[str | None] = "derby.options_title"  # "Dice Derby evening"

    players: tuple[Seat, ...] = Field(
        default=(Seat(name="Player 1"), Seat(name="Player 2")), min_length=1,
        max_length=MAX_PLAYERS,
        description="The players, in seat order: names, or {name, kind} with kind human, "
        "cautious or bold (computer players).", json_schema_extra={"cli": False})
    races: int = Field(default=5, strict=True, description=f"Races in the evening, "
                       f"{MIN_RACES} to {MAX_RACES}.",
                       json_schema_extra={"cli": {"flags": ["--races", "-n"]}})
    start_money: int = _whole(10_000, 1, MAX_MONEY, "Money each player starts with")
    prize_first: int = _whole(2_000, 0, MAX_MONEY, "Owner's prize for 1st")
    prize_second: int = _whole(1_000, 0, MAX_MONEY, "Owner's prize for 2nd")
    stake_unit: int = _whole(100, 1, MAX_MONEY, "Bids and stakes are multiples of this",
                             cli=False)
    win_limit: int = _whole(1, 0, MAX_TICKETS, "Win tickets per player per race")
    quinella_limit: int = _whole(3, 0, MAX_TICKETS, "Quinella tickets per player per race")
    borrowing: bool = Field(default=False, strict=True,
                            description="Allow loans.",
                            json_schema_extra={"cli": "--borrowing"})
    loan_amount: int = _whole(10_000, 1, MAX_MONEY, "Money lent per loan", cli="--loan")
    loan_repay: int = _whole(15_000, 0, MAX_MONEY, "Money repaid per loan at the end",
                             cli="--repay")
    max_loans: int = _whole(1, 0, MAX_LOANS, "Loans allowed per player")
    margin: Fraction = Field(default=Fraction(1, 10), description="House margin, 0 to 0.5 "
                             "(0.1 or 1/10): board odds are fair odds times (1 - margin), "
                             "to 0.1.",
                             json_schema_extra={"cli": {"flags": ["--margin"],
                                                        "default": "0.1",
                                                        "metavar": "FRACTION"}})
    simple_odds: bool = Field(default=False, strict=True,
                              description="Round board odds down to easy party numbers.",
                              json_schema_extra={"cli": "--simple-odds"})
    first_out_bonus: bool = Field(
        default=False, strict=True,
        description="A horse out in the first furlong gets its win odds x1.5 in later races.",
        json_schema_extra={"cli": "--first-out-bonus"})
    owner_award: Annotated[str, AfterValidator(_owner_award)] = Field(
        default="gross", description="Owners' award by 'gross' prize money or 'net' (prize "
        "money minus price).", json_schema_extra={"enum": list(OWNER_AWARDS)})
    fall_rate: Fraction = Field(default=Fraction(0), description="Chance that any single "
                                "roll is a fall, 0 to 1/2 (0.05 or 1/20); with real dice it "
                                "only sets the odds, the host enters real falls.",
                                json_schema_extra={"cli": {"flags": ["--fall-rate"],
                                                           "default": "0",
                                                           "metavar": "RATE"}})
    host: bool = Field(default=False, strict=True, description="Real dice at the table: the "
                       "host types each furlong's numbers.",
                       json_schema_extra={"cli": "--real-dice"})  # --host: serve's address
    seed: int = _whole(0, 0, 2**63 - 1, "Seed of the terminal's draws and the computers' choices",
                       cli=False)

    @field_validator("margin", mode="before")
    @classmethod
    def _exact_margin(cls, value: object) -> Fraction:
        return as_validator(parse_margin, value)

    @field_validator("fall_rate", mode="before")
    @classmethod
    def _exact_fall_rate(cls, value: object) -> Fraction:
        return as_validator(parse_fall_rate, value)

    @field_validator("races")
    @classmethod
    def _race_count(cls, value: int) -> int:
        if not MIN_RACES <= value <= MAX_RACES:
            raise refusal(OptionsError, "derby.reason.races", low=MIN_RACES, high=MAX_RACES,
                          got=value)
        return value

    @field_validator("players")
    @classmethod
    def _different_names(cls, value: tuple[Seat, ...]) -> tuple[Seat, ...]:
        if len({seat.name.lower() for seat in value}) != len(value):
            raise refusal(OptionsError, "derby.reason.names_differ")
        return value

    @model_validator(mode="after")
    def _whole_stakes(self) -> Self:
        if self.start_money % self.stake_unit:
            raise refusal(OptionsError, "derby.reason.start_money")
        return self

    def with_players(self, players: Sequence[Seat | str | tuple[str, str]]) -> EveningOptions:
        """These rules for another roster (checked: :class:`OptionsError` names a problem)."""
        return type(self).parse({**self.model_dump(), "players": list(players)})


@dataclass
class Player:
    """A player's sheet: money in hand, loans, prize money and the horse owned."""

    name: str
    kind: str = "human"
    money: int = 0
    debt: int = 0
    loans: int = 0
    prize: int = 0
    horse: int | None = None
    price: int = 0

    @property
    def net(self) -> int:
        """Money after repaying every loan: what the final ranking counts."""
        return self.money - self.debt

    @property
    def is_computer(self) -> bool:
        return self.kind != "human"


@dataclass(frozen=True)
class Ticket:
    """A win ticket (one horse) or a quinella ticket (two horses, ascending)."""

    player: int
    kind: str
    horses: tuple[int, ...]
    stake: int
    odds: int  # tenths, fixed when the ticket is bought

    def label(self) -> str:
        if self.kind == "win":
            return f"win {horse_name(self.horses[0])}"
        return f"quinella {pair_name((self.horses[0], self.horses[1]))}"

    def wins(self, first: int, second: int) -> bool:
        if self.kind == "win":
            return self.horses[0] == first
        return set(self.horses) == {first, second}

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "horses": list(self.horses),
                "stake": self.stake, "odds": self.odds}


@dataclass(frozen=True)
class AuctionLot:
    """The sealed bids for one die and who bought it (None: nobody bid, the house runs it).

    ``tied`` lists the players who tied for the highest bid; ``draw`` is the index among
    them picked by the fair random draw."""

    post: int
    bids: Mapping[int, int]
    buyer: int | None
    price: int
    tied: tuple[int, ...] = ()
    draw: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"post": self.post, "bids": [[p, b] for p, b in sorted(self.bids.items())],
                "buyer": self.buyer, "price": self.price, "tied": list(self.tied),
                "draw": self.draw}


@dataclass(frozen=True)
class Payout:
    """Money paid to a player after a race: a winning ticket or an owner's prize."""

    player: int
    what: str
    amount: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "what": self.what, "amount": self.amount}


@dataclass(frozen=True)
class RaceRecord:
    """A settled race: the placings, the first-out horses and every payment made."""

    race: int
    first: int
    second: int
    first_out: tuple[int, ...]
    payouts: tuple[Payout, ...]
    tickets: tuple[Ticket, ...]

    def to_json(self) -> dict[str, Any]:
        return {"race": self.race, "first": self.first, "second": self.second,
                "first_out": list(self.first_out),
                "payouts": [p.to_json() for p in self.payouts],
                "tickets": [t.to_json() for t in self.tickets]}


@dataclass
class Session:
    """The whole party: players' sheets, auction, current race and the settled history."""

    config: EveningOptions
    players: list[Player]
    phase: str = PHASE_AUCTION
    race: int = 1
    lots: list[AuctionLot] = field(default_factory=list)
    tickets: list[Ticket] = field(default_factory=list)
    first_out_counts: dict[int, int] = field(default_factory=dict)
    history: list[RaceRecord] = field(default_factory=list)

    # --- set-up -------------------------------------------------------------------------
    @classmethod
    def new(cls, config: EveningOptions, players: Sequence[tuple[str, str]]) -> Session:
        """A session for these (name, kind) players, each starting with ``start_money``."""
        if not players:
            raise OptionsError("a party needs at least one player")
        names = [n.strip() for n, _ in players]
        if any(not n for n in names):
            raise OptionsError("every player needs a name")
        if len({n.lower() for n in names}) != len(names):
            raise OptionsError("player names must be different from one another")
        for _, kind in players:
            if kind not in KINDS:
                raise OptionsError(f"player kind must be one of {', '.join(KINDS)}, got {kind!r}")
        config = config.with_players([(n, k) for n, (_, k) in zip(names, players, strict=True)])
        return cls(config, [Player(seat.name, seat.kind, money=config.start_money)
                            for seat in config.players])

    def owner_of(self, post: int) -> int | None:
        """The player owning the horse of ``post`` (None while unsold or run by the house)."""
        return next((i for i, p in enumerate(self.players) if p.horse == post), None)

    # --- auction ------------------------------------------------------------------------
    @property
    def next_lot(self) -> int | None:
        """The die being auctioned next (post position), or None when the auction is over."""
        if self.phase != PHASE_AUCTION:
            return None
        return POSTS[len(self.lots)]

    def eligible_bidders(self) -> list[int]:
        """Players who may still bid: each owner holds exactly one die."""
        return [i for i, p in enumerate(self.players) if p.horse is None]

    def check_bid(self, player: int, amount: int) -> None:
        """Raise :class:`BetError` unless ``player`` may bid ``amount`` (0 = no bid)."""
        p = self.players[player]
        unit = self.config.stake_unit
        if p.horse is not None:
            raise refusal(BetError, "derby.refusal.owner_one_die", name=p.name,
                          horse=horse_name(p.horse))
        if amount < 0:
            raise refusal(BetError, "derby.refusal.bid_negative")
        # the real reason first: a bid beyond the purse is refused as such
        if amount > p.money:
            raise refusal(BetError, "derby.refusal.bid_over_purse", name=p.name, money=p.money)
        if amount % unit:
            raise refusal(BetError, "derby.refusal.bid_unit", unit=unit)

    def auction_lot(self, bids: Mapping[int, int], rng: np.random.Generator) -> AuctionLot:
        """Settle the sealed bids for the next die: the highest bid buys, a tie is settled
        by a fair draw with ``rng``; the price comes off the buyer's money."""
        tied = self.tied_bidders(bids)
        return self.settle_lot(bids, int(rng.integers(len(tied))) if len(tied) > 1 else None)

    def tied_bidders(self, bids: Mapping[int, int]) -> tuple[int, ...]:
        """The players sharing the highest bid (none when nobody bid), after checking the
        bids: :class:`BetError` for a bid that is not allowed."""
        if self.next_lot is None:
            raise refusal(BetError, "derby.refusal.auction_over")
        if set(bids) - set(self.eligible_bidders()):
            raise refusal(BetError, "derby.refusal.bidders")
        for player, amount in bids.items():
            self.check_bid(player, amount)
        best = max(bids.values(), default=0)
        return () if best <= 0 else tuple(sorted(p for p, b in bids.items() if b == best))

    def settle_lot(self, bids: Mapping[int, int], draw: int | None) -> AuctionLot:
        """Settle the sealed bids for the next die: the highest bid buys; on a tie, ``draw``
        (the index among the tied bidders picked by a fair draw) does. The price comes off
        the buyer's money."""
        post = self.next_lot
        tied = self.tied_bidders(bids)
        assert post is not None
        if not tied:
            lot = AuctionLot(post, dict(bids), None, 0)
        else:
            if (draw is None) != (len(tied) == 1) or not 0 <= (draw or 0) < len(tied):
                raise refusal(BetError, "derby.refusal.tie_draw", n=len(tied))
            buyer = tied[draw or 0]
            best = bids[buyer]
            lot = AuctionLot(post, dict(bids), buyer, best, tied if draw is not None else (), draw)
            self.players[buyer].money -= best
            self.players[buyer].horse = post
            self.players[buyer].price = best
        self.lots.append(lot)
        if len(self.lots) == len(POSTS):
            self.phase = PHASE_BETTING
        return lot

    # --- betting ------------------------------------------------------------------------
    def board(self) -> OddsBoard:
        """The odds board of the current race (shared: read it, never change it)."""
        counts = self.first_out_counts if self.config.first_out_bonus else {}
        return _board(self.config.fall_rate, self.config.margin, self.config.simple_odds,
                      tuple(sorted((h, c) for h, c in counts.items() if c > 0)))

    def tickets_of(self, player: int) -> list[Ticket]:
        return [t for t in self.tickets if t.player == player]

    def place_ticket(self, player: int, kind: str, horses: Sequence[int], stake: int) -> Ticket:
        """Buy a ticket at the board's odds; the stake comes off the player's money."""
        ticket = self.check_ticket(player, kind, horses, stake)
        self.players[player].money -= stake
        self.tickets.append(ticket)
        return ticket

    def check_ticket(self, player: int, kind: str, horses: Sequence[int], stake: int) -> Ticket:
        """The ticket :meth:`place_ticket` would buy, changing nothing: :class:`BetError`
        naming what is wrong."""
        if self.phase != PHASE_BETTING:
            raise refusal(BetError, "derby.refusal.betting_closed")
        p = self.players[player]
        if kind not in ("win", "quinella"):
            raise refusal(BetError, "derby.refusal.ticket_kind")
        wanted = 1 if kind == "win" else 2
        if len(horses) != wanted:
            raise refusal(BetError, f"derby.refusal.ticket_horses_{kind}")
        if any(h not in POSTS for h in horses):
            raise refusal(BetError, "derby.refusal.horse_posts")
        if len(set(horses)) != len(horses):
            raise refusal(BetError, "derby.refusal.quinella_two")
        limit = self.config.win_limit if kind == "win" else self.config.quinella_limit
        held = sum(1 for t in self.tickets_of(player) if t.kind == kind)
        if held >= limit:
            raise refusal(BetError, "derby.refusal.ticket_limit", name=p.name, held=held,
                          kind=Message(f"derby.what.kind_{kind}"), limit=limit)
        unit = self.config.stake_unit
        if stake > p.money:  # the real reason first, before the stake's granularity
            why = "stake_over_purse_borrow" if self.can_borrow(player) else "stake_over_purse"
            raise refusal(BetError, f"derby.refusal.{why}", name=p.name, money=p.money)
        if stake < unit or stake % unit:
            raise refusal(BetError, "derby.refusal.stake_unit", unit=unit)
        board = self.board()
        key = tuple(sorted(horses))
        odds = board.win[key[0]] if kind == "win" else board.quinella[(key[0], key[1])]
        return Ticket(player, kind, key, stake, odds)

    def can_borrow(self, player: int) -> bool:
        return (self.config.borrowing and self.phase != PHASE_FINISHED
                and self.players[player].loans < self.config.max_loans)

    def borrow(self, player: int) -> None:
        """Take a loan: ``loan_amount`` now, ``loan_repay`` owed at the end of the session."""
        p = self.players[player]
        if not self.config.borrowing:
            raise refusal(BetError, "derby.refusal.no_borrowing")
        if p.loans >= self.config.max_loans:
            raise refusal(BetError, "derby.refusal.loan_limit", name=p.name, loans=p.loans,
                          limit=self.config.max_loans)
        if self.phase == PHASE_FINISHED:
            raise refusal(BetError, "derby.refusal.session_over")
        p.loans += 1
        p.money += self.config.loan_amount
        p.debt += self.config.loan_repay

    def close_betting(self) -> None:
        if self.phase != PHASE_BETTING:
            raise refusal(BetError, "derby.refusal.betting_not_open")
        self.phase = PHASE_RACING

    # --- settlement ---------------------------------------------------------------------
    def quinella_payouts(self, pair: Pair) -> list[Payout]:
        """What the quinella tickets pay once the first two are known (after furlong 4)."""
        out = []
        for t in self.tickets:
            if t.kind == "quinella" and set(t.horses) == set(pair):
                out.append(Payout(t.player, t.label(), t.stake * t.odds // 10))
        return out

    def settle(self, first: int, second: int, first_out: Sequence[int]) -> RaceRecord:
        """Pay every winning ticket and the owners' prizes for a finished race."""
        if self.phase != PHASE_RACING:
            raise refusal(BetError, "derby.refusal.no_race_to_settle")
        if first == second or first not in POSTS or second not in POSTS:
            raise refusal(BetError, "derby.refusal.first_second")
        payouts: list[Payout] = []
        for t in self.tickets:
            if t.wins(first, second):
                payouts.append(Payout(t.player, t.label(), t.stake * t.odds // 10))
        for post, amount, label in ((first, self.config.prize_first, "1st"),
                                    (second, self.config.prize_second, "2nd")):
            owner = self.owner_of(post)
            if owner is not None and amount:
                payouts.append(Payout(owner, f"prize {label} ({horse_name(post)})", amount))
                self.players[owner].prize += amount
        for pay in payouts:
            self.players[pay.player].money += pay.amount
        for h in first_out:
            self.first_out_counts[h] = self.first_out_counts.get(h, 0) + 1
        record = RaceRecord(self.race, first, second, tuple(sorted(first_out)),
                            tuple(payouts), tuple(self.tickets))
        self.history.append(record)
        self.tickets = []
        if self.race >= self.config.races:
            self.phase = PHASE_FINISHED
        else:
            self.race += 1
            self.phase = PHASE_BETTING
        return record

    # --- standings and awards ------------------------------------------------------------
    def standings(self) -> list[tuple[int, int, int]]:
        """(rank, player, net money) best first; equal money shares a rank."""
        order = sorted(range(len(self.players)), key=lambda i: (-self.players[i].net, i))
        out: list[tuple[int, int, int]] = []
        for pos, i in enumerate(order):
            net = self.players[i].net
            rank = out[-1][0] if out and out[-1][2] == net else pos + 1
            out.append((rank, i, net))
        return out

    def owner_score(self, player: int) -> int:
        p = self.players[player]
        return p.prize - p.price if self.config.owner_award == "net" else p.prize

    def owner_award(self) -> tuple[list[int], int] | None:
        """The owner(s) with the best prize money (or prize minus price): (players, score)."""
        owners = [i for i, p in enumerate(self.players) if p.horse is not None]
        if not owners:
            return None
        best = max(self.owner_score(i) for i in owners)
        return [i for i in owners if self.owner_score(i) == best], best

    @property
    def is_last_race(self) -> bool:
        return self.race == self.config.races

    # --- saving -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": SESSION_FORMAT,
            "config": self.config.to_json(),
            "players": [
                {"name": p.name, "kind": p.kind, "money": p.money, "debt": p.debt,
                 "loans": p.loans, "prize": p.prize, "horse": p.horse, "price": p.price}
                for p in self.players
            ],
            "phase": self.phase,
            "race": self.race,
            "lots": [lot.to_json() for lot in self.lots],
            "tickets": [t.to_json() for t in self.tickets],
            "first_out_counts": [[h, c] for h, c in sorted(self.first_out_counts.items())],
            "history": [r.to_json() for r in self.history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Session:
        """Rebuild a saved session; :class:`SaveFormatError` on anything malformed."""
        f = Fields(data, "Dice Derby session")
        if f.get("format", int) != SESSION_FORMAT:
            raise SaveFormatError(f"Dice Derby session: unknown format {data.get('format')!r}")
        raw_config = f.get("config", dict)
        try:
            players = [
                Player(str(p["name"]), str(p["kind"]), int(p["money"]), int(p["debt"]),
                       int(p["loans"]), int(p["prize"]),
                       None if p["horse"] is None else int(p["horse"]), int(p["price"]))
                for p in f.get("players", list)
            ]
            lots = [
                AuctionLot(int(x["post"]), {int(a): int(b) for a, b in x["bids"]},
                           None if x["buyer"] is None else int(x["buyer"]), int(x["price"]),
                           tuple(int(t) for t in x["tied"]),
                           None if x["draw"] is None else int(x["draw"]))
                for x in f.get("lots", list)
            ]
            tickets = [_ticket(t) for t in f.get("tickets", list)]
            counts = {int(h): int(c) for h, c in f.get("first_out_counts", list)}
            history = [
                RaceRecord(int(r["race"]), int(r["first"]), int(r["second"]),
                           tuple(int(h) for h in r["first_out"]),
                           tuple(Payout(int(p["player"]), str(p["what"]), int(p["amount"]))
                                 for p in r["payouts"]),
                           tuple(_ticket(t) for t in r["tickets"]))
                for r in f.get("history", list)
            ]
        except (KeyError, TypeError, ValueError):
            raise SaveFormatError("Dice Derby session: malformed players, bids or tickets") \
                from None
        phase = f.get("phase", str)
        if phase not in PHASES:
            raise SaveFormatError(f"Dice Derby session: unknown phase {phase!r}")
        if any(p.kind not in KINDS for p in players) or not players:
            raise SaveFormatError("Dice Derby session: bad player list")
        try:
            config = EveningOptions.parse(
                {**raw_config, "players": [(p.name, p.kind) for p in players]})
        except OptionsError as exc:
            raise SaveFormatError(f"Dice Derby session: bad settings: {exc}") from None
        session = cls(config, players, phase, f.get("race", int), lots, tickets, counts, history)
        if any(t.player not in range(len(players)) for t in tickets):
            raise SaveFormatError("Dice Derby session: a ticket belongs to no player")
        return session


def _ticket(t: Mapping[str, Any]) -> Ticket:
    return Ticket(int(t["player"]), str(t["kind"]), tuple(int(h) for h in t["horses"]),
                  int(t["stake"]), int(t["odds"]))


@lru_cache(maxsize=256)
def _board(fall_rate: Fraction, margin: Fraction, simple: bool,
           counts: tuple[tuple[int, int], ...]) -> OddsBoard:
    """The board of these rules and first-out counts, computed once: a pure function of
    them in exact fractions, and the party server shows it in every update of every room
    (it was most of the cost of a Dice Derby view)."""
    return make_board(exact_odds(fall_rate), margin, simple=simple,
                      first_out_counts=dict(counts))
