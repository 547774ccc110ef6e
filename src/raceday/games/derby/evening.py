"""A whole Dice Derby evening as one protocol game: auction, tickets, loans, races, prizes.

The evening people play (docs/rules/derby.md): the six dice are auctioned one at a time by
sealed bids, then every race has a round of secret win and quinella tickets (and loans,
if the house allows them) before the dice roll; winning tickets and owners' prizes are
paid, and after the last race the richest player (money less what is owed) tops the table
and the owners' award goes to the best owner. The money is kept by the evening's ledger
(:class:`~raceday.games.derby.session.Session`), the race by the race engine
(:class:`~raceday.games.derby.rules.DerbyState`); this module makes both one
:class:`~raceday.core.protocol.State` that the terminal, the browser room and the
research environments all drive.

Phases (``phase`` in every observation):

* **auction** — every player without a die seals one bid for the die on offer, in any
  order (:meth:`EveningState.acting_players`). When all have sealed, the highest bid buys;
  a tie is a chance node (a fair draw among the tied bidders).
* **betting** — every player buys tickets, borrows and says ``done``, in any order.
* **racing** — the race's dice are chance nodes with the engine's exact probabilities; a
  host with real dice reads them in instead: the host's actions
  (``legal_actions_for(HOST)``) are the numbers the next die shows and :data:`FALL`,
  whatever the fall rate; :meth:`EveningState.enter_rolls` takes a whole typed round. The
  finished race is settled at once and the next race's betting opens.
* **finished** — the outcome ranks the players by money (``termination`` "money").

Actions (each with a unique readable name and :meth:`EveningState.action_message`):
``done`` and ``borrow``; a bid of ``k`` stake units is ``ACTION_STRIDE * k + BID``; a
ticket on selection ``s`` (:data:`SELECTIONS`: six win tickets, then the fifteen quinella
pairs) for ``k`` stake units is ``ACTION_STRIDE * k + TICKET + s``. Faces never build
these numbers themselves: :meth:`EveningState.bid_action` and
:meth:`EveningState.ticket_action` turn an amount or a ticket into its action after the
ledger's checks (so a refusal names the problem).

What a player may see is :meth:`EveningState.observation`: the public view (the
spectator's, ``None``) holds no sealed bid before the reveal, no ticket before it is
paid, and each player's money as it stood before this race's stakes; a player's own view
adds ``me`` with their purse, sealed bid and tickets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Self

from raceday.core.errors import (
    BetError,
    IllegalActionError,
    SaveFormatError,
    illegal_action,
    refusal,
)
from raceday.core.events import Event, Message
from raceday.core.game import Game, GameOptions
from raceday.core.protocol import CHANCE, HOST, TERMINAL, Action, ChanceDraw, Outcome, SealedState
from raceday.core.serialize import Fields
from raceday.games.derby.odds import ALL_PAIRS, OddsBoard, exact_odds, format_odds
from raceday.games.derby.rules import (
    FALL,
    POSTS,
    STEP_BOUND,
    DerbyOptions,
    DerbyState,
    faces_of,
    furlong_ahead,
    horse_name,
    parse_horse,
)
from raceday.games.derby.session import (
    MAX_RACES,
    PHASE_AUCTION,
    PHASE_BETTING,
    PHASE_FINISHED,
    PHASE_RACING,
    EveningOptions,
    Payout,
    Seat,
    Session,
    Ticket,
)

if TYPE_CHECKING:
    import numpy as np

EVENING_FORMAT = 2  # format 1: the ledger alone, as `raceday derby play` saved it before
DONE: Action = 0
BORROW: Action = 1
BID = 2
TICKET = 3
SELECTIONS: tuple[tuple[str, tuple[int, ...]], ...] = (
    tuple(("win", (h,)) for h in POSTS) + tuple(("quinella", pair) for pair in ALL_PAIRS))
ACTION_STRIDE = 32  # room for DONE, BORROW, a bid and the 21 selections per stake level
assert TICKET + len(SELECTIONS) <= ACTION_STRIDE


def action_parts(action: Action) -> tuple[str, int, int]:
    """What a player's action is: ("done" | "borrow" | "bid" | "ticket", stake units,
    selection index or -1); :class:`IllegalActionError` for a number that is no action."""
    if action in (DONE, BORROW):
        return ("done" if action == DONE else "borrow"), 0, -1
    units, code = divmod(action, ACTION_STRIDE)
    if code == BID and units >= 0:
        return "bid", units, -1
    if TICKET <= code < TICKET + len(SELECTIONS) and units >= 1:
        return "ticket", units, code - TICKET
    raise IllegalActionError(action, "no Dice Derby action has that number")


FALL_WORDS = frozenset({"f", "x", "fall"})  # what a host types for a fallen horse
MAX_DIE_DIGITS = 3


def typed_roll(entry: object, post: int) -> int | None:
    """One die of a round a host typed in: a number on the die of ``post`` (a whole number
    or its digits), or None for a fall (``F``, ``X``, ``fall`` or None);
    :class:`IllegalActionError` naming what is wrong."""
    if entry is None or (isinstance(entry, str) and entry.strip().lower() in FALL_WORDS):
        return None
    if isinstance(entry, int) and not isinstance(entry, bool):
        value = entry
    elif isinstance(entry, str) and entry.strip().isascii() and entry.strip().isdigit() \
            and len(entry.strip()) <= MAX_DIE_DIGITS:
        value = int(entry)
    else:
        raise illegal_action(entry, "derby.refusal.not_a_die", value=repr(entry))
    if not 1 <= value <= faces_of(post):
        raise illegal_action(entry, "derby.refusal.not_on_die", word=repr(entry),
                             horse=horse_name(post), faces=faces_of(post))
    return value


def bid_of(units: int) -> Action:
    """The action bidding ``units`` stake units (0: no bid)."""
    return ACTION_STRIDE * units + BID


def ticket_of(selection: int, units: int) -> Action:
    """The action buying selection ``selection`` of :data:`SELECTIONS` for ``units``."""
    return ACTION_STRIDE * units + TICKET + selection


def _ticket_json(ticket: Ticket) -> dict[str, Any]:
    """A ticket as its holder (and, once it is paid, everyone) sees it: facts only."""
    return {"kind": ticket.kind, "horses": [horse_name(h) for h in ticket.horses],
            "stake": ticket.stake, "odds": ticket.odds, "odds_text": format_odds(ticket.odds),
            "pays": ticket.stake * ticket.odds // 10, "label": ticket.label()}


def what_words(what: str) -> dict[str, Any]:
    """The words of a payout's label as the ledger writes it (``win d20``, ``quinella
    d8-d10``, ``prize 1st (d20)``): a message for every language's table."""
    kind, _, rest = what.partition(" ")
    if kind == "prize":
        place, _, horse = rest.partition(" ")
        return Message("derby.what.prize", {"place": 1 if place == "1st" else 2,
                                            "horse": horse.strip("()")}).to_json()
    if kind in ("win", "quinella"):
        return Message(f"derby.what.{kind}", {"horses": rest}).to_json()
    return Message("derby.what.other", {"what": what}).to_json()


def _payout_json(session: Session, pay: Payout) -> dict[str, Any]:
    return {"player": pay.player, "name": session.players[pay.player].name,
            "what": pay.what, "words": what_words(pay.what), "amount": pay.amount}


def lot_facts(post: int, bids: Sequence[Mapping[str, Any]], buyer: int | None,
              buyer_name: str | None, price: int, tied: Sequence[str]) -> dict[str, Any]:
    """The facts of a settled lot: every sealed bid, the buyer (None: the house runs the
    die) and the price, the names tied for the highest bid; ``house`` and ``tie`` say
    which of these the lot came to, and ``offers`` lists the bids made (more than 0)."""
    return {"post": post, "horse": horse_name(post), "bids": [dict(b) for b in bids],
            "buyer": buyer, "buyer_name": buyer_name, "price": price, "tied": list(tied),
            "house": buyer is None, "tie": len(tied) > 1,
            "offers": [Message("derby.sum", {"name": b["name"], "amount": b["amount"]}).to_json()
                       for b in bids if b["amount"] > 0]}


def quinella_paid_facts(pair: Sequence[str], payouts: Sequence[Mapping[str, Any]]
                        ) -> dict[str, Any]:
    """The facts of a decided quinella's payouts: who collects what for which ticket
    (``paid``, each ``derby.collects``), and ``nobody`` when no ticket was on the pair."""
    ticket = f"quinella {'-'.join(pair)}"  # the ticket's label, as the ledger pays it
    return {"pair": list(pair), "quinella": "-".join(pair),
            "payouts": [dict(p) for p in payouts], "nobody": not payouts,
            "paid": [Message("derby.collects", {"name": p["name"], "amount": p["amount"],
                                                "what": what_words(p.get("what", ticket))}
                             ).to_json()
                     for p in payouts]}


def rules_view(o: EveningOptions) -> dict[str, Any]:
    """The house rules everyone may read (not the seed, nor the players)."""
    return {"races": o.races, "start_money": o.start_money, "stake_unit": o.stake_unit,
            "win_limit": o.win_limit, "quinella_limit": o.quinella_limit,
            "borrowing": o.borrowing, "loan": o.loan_amount, "repay": o.loan_repay,
            "max_loans": o.max_loans, "first_out_bonus": o.first_out_bonus,
            "simple_odds": o.simple_odds, "fall_rate": str(o.fall_rate),
            "prize_first": o.prize_first, "prize_second": o.prize_second,
            "owner_award": o.owner_award, "host_dice": o.host}


_BOARD_ROWS: dict[tuple[int, Fraction], tuple[OddsBoard, Any, Any]] = {}
_BOARD_ROWS_MAX = 512


def _board_rows(board: OddsBoard, fall_rate: Fraction
                ) -> tuple[tuple[tuple[Any, ...], ...], tuple[tuple[Any, ...], ...]]:
    """The parts of the public view that only the odds board and the fall rate decide, made
    once per board (boards are shared, see ``Session.board``): for each horse ``(post,
    name, faces, win, win text, chance, bonus)`` and for each quinella pair ``(horse a,
    horse b, odds, text, chance)``, the chances as floats of the exact odds."""
    key = (id(board), fall_rate)
    kept = _BOARD_ROWS.get(key)
    if kept is not None and kept[0] is board:
        return kept[1], kept[2]
    odds = exact_odds(fall_rate)
    horses = tuple((post, horse_name(post), faces_of(post), board.win[post],
                    format_odds(board.win[post]), float(odds.win[post]),
                    board.bonus.get(post, 0)) for post in POSTS)
    quinella = tuple((horse_name(a), horse_name(b), t, format_odds(t),
                      float(odds.quinella[(a, b)]))
                     for (a, b), t in sorted(board.quinella.items()))
    if len(_BOARD_ROWS) >= _BOARD_ROWS_MAX:
        _BOARD_ROWS.clear()
    _BOARD_ROWS[key] = (board, horses, quinella)  # the board kept: its id is not reused
    return horses, quinella


class EveningState(SealedState):
    """One Dice Derby evening (see the module docstring)."""

    game_name: ClassVar[str] = "derby_evening"

    def __init__(self, options: EveningOptions) -> None:
        self.options = options
        self.ledger = Session.new(options, [(s.name, s.kind) for s in options.players])
        self.bids: dict[int, int] = {}  # sealed bids for the die on offer
        self.done: set[int] = set()  # players done betting for this race
        self.race: DerbyState | None = None
        self.rounds: list[dict[str, Any]] = []  # the current (or last) race's rounds
        self.last: dict[str, Any] | None = None  # the last settled race, as everyone saw it

    # --- who acts -----------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.ledger.players)

    @property
    def phase(self) -> str:
        return self.ledger.phase

    def _tied(self) -> tuple[int, ...]:
        """The tied highest bidders waiting for a draw (empty when no draw is due)."""
        if self.phase != PHASE_AUCTION or self._waiting_bidders():
            return ()
        tied = self.ledger.tied_bidders(self.bids)
        return tied if len(tied) > 1 else ()

    def _waiting_bidders(self) -> list[int]:
        return [i for i in self.ledger.eligible_bidders() if i not in self.bids]

    def may_rebid(self, player: int) -> bool:
        """True if ``player`` sealed a bid for the die on offer and may still change it
        (until the last bidder seals and the bids are revealed)."""
        return (self.phase == PHASE_AUCTION and player in self.bids and not self._tied()
                and player in self.ledger.eligible_bidders())

    def acting_players(self) -> list[int]:
        if self.phase == PHASE_AUCTION:
            return self._waiting_bidders()
        if self.phase == PHASE_BETTING:
            return [i for i in range(self.num_players) if i not in self.done]
        return []

    def current_player(self) -> int:
        acting = self.acting_players()
        if acting:
            return acting[0]
        return TERMINAL if self.phase == PHASE_FINISHED else CHANCE

    def _legal_for(self, player: int) -> list[Action]:
        p = self.ledger.players[player]
        units = p.money // self.options.stake_unit
        borrow = [BORROW] if self.ledger.can_borrow(player) else []
        if self.phase == PHASE_AUCTION:
            return borrow + [bid_of(k) for k in range(units + 1)]
        held = {kind: sum(1 for t in self.ledger.tickets_of(player) if t.kind == kind)
                for kind in ("win", "quinella")}
        limit = {"win": self.options.win_limit, "quinella": self.options.quinella_limit}
        open_selections = [s for s, (kind, _) in enumerate(SELECTIONS)
                           if held[kind] < limit[kind]]
        tickets = [ticket_of(s, k) for k in range(1, units + 1)
                   for s in open_selections]
        return [DONE, *borrow, *tickets]

    # --- from what a player typed to an action ---------------------------------------------
    def bid_action(self, player: int, amount: int) -> Action:
        """The action sealing a bid of ``amount`` (0 = no bid) for ``player``, after the
        ledger's checks: :class:`BetError` naming what is wrong."""
        if self.phase != PHASE_AUCTION:
            raise refusal(BetError, "derby.refusal.auction_over")
        self.ledger.check_bid(player, amount)
        return bid_of(amount // self.options.stake_unit)

    def ticket_action(self, player: int, kind: str, horses: Sequence[int], stake: int) -> Action:
        """The action buying this ticket for ``player``, after the ledger's checks (the same
        as buying it): :class:`BetError` naming what is wrong."""
        self.ledger.check_ticket(player, kind, horses, stake)
        selection = SELECTIONS.index((kind, tuple(sorted(horses))))
        return ticket_of(selection, stake // self.options.stake_unit)

    def borrow_action(self, player: int) -> Action:
        """The action taking a loan for ``player``: :class:`BetError` if none is allowed."""
        trial = Session.from_json(self.ledger.to_json())
        trial.borrow(player)
        return BORROW

    # --- chance: the draw for a tied lot and the dice ----------------------------------
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        tied = self._tied()
        if tied:
            return [(k, Fraction(1, len(tied))) for k in range(len(tied))]
        if self.phase == PHASE_RACING and self.race is not None:
            return self.race.chance_outcomes()
        return super().chance_outcomes()

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        """A draw among tied bidders by one ``rng.integers`` (as the party always drew),
        or the race's next roll as the race engine samples it."""
        tied = self._tied()
        if tied:
            return ChanceDraw(int(rng.integers(len(tied))))
        if self.phase == PHASE_RACING and self.race is not None:
            return self.race.sample_chance(rng)
        return super().sample_chance(rng)

    # --- names and meanings ----------------------------------------------------------------
    def _name(self, player: int) -> str:
        return self.ledger.players[player].name

    def action_to_string(self, action: Action) -> str:
        tied = self._tied()
        if tied:
            return f"draw picks {self._name(tied[action])}"
        if self.current_player() == CHANCE and self.race is not None:
            return self.race.action_to_string(action)
        what, units, selection = action_parts(action)
        amount = units * self.options.stake_unit
        if what == "bid":
            return f"bid {amount}"
        if what == "ticket":
            kind, horses = SELECTIONS[selection]
            return f"{kind} {'-'.join(horse_name(h) for h in horses)} {amount}"
        return what

    def action_message(self, action: Action) -> Message:
        tied = self._tied()
        if tied:
            return Message("derby.action.draw", {"player": tied[action],
                                                 "name": self._name(tied[action])})
        if self.current_player() == CHANCE and self.race is not None:
            horse = horse_name(self.race.roller or POSTS[0])
            if action == FALL:
                return Message("derby.action.fall", {"horse": horse})
            return Message("derby.action.roll", {"horse": horse, "value": action})
        what, units, selection = action_parts(action)
        params: dict[str, Any] = {"amount": units * self.options.stake_unit}
        if what == "ticket":
            kind, horses = SELECTIONS[selection]
            params.update(kind=Message(f"derby.what.kind_{kind}"),
                          horses=[horse_name(h) for h in horses])
        elif what == "bid" and self.ledger.next_lot is not None:
            params["horse"] = horse_name(self.ledger.next_lot)
        return Message(f"derby.action.{what}", params)

    # --- moving ------------------------------------------------------------------------
    def apply_action_for(self, player: int, action: Action) -> list[Event]:
        """Apply a player's action (any acting player in a sealed phase). Bids and tickets
        are checked by number here, not by listing every legal action (a purse of a
        million has a million bids)."""
        if self.is_terminal():
            raise illegal_action(action, "derby.refusal.game_over")
        if player == HOST:
            return self._host_roll(action)
        what, units, selection = action_parts(action)
        if player not in self.acting_players() and not (what == "bid" and self.may_rebid(player)):
            raise illegal_action(action, "derby.refusal.not_your_turn", player=player)
        try:
            amount = units * self.options.stake_unit
            if what == "bid":
                self.bid_action(player, amount)
            elif what == "ticket":
                kind, horses = SELECTIONS[selection]
                self.ticket_action(player, kind, horses, amount)
            elif what == "borrow":
                self.borrow_action(player)
            elif self.phase != PHASE_BETTING:
                raise refusal(BetError, "derby.refusal.betting_not_open")
        except BetError as exc:
            error = IllegalActionError(action, str(exc))
            error.message = exc.message  # the same refusal, in every language
            raise error from None
        return self._apply_for(player, action)

    def legal_actions_for(self, player: int) -> list[Action]:
        """A seat's; the host's (:data:`HOST`) while a race is rolled: :data:`FALL` and
        each number the next die shows, read from real dice whatever the fall rate."""
        if player != HOST:
            return super().legal_actions_for(player)
        race = self.race
        if self.phase != PHASE_RACING or race is None or not race.to_roll:
            return []
        return [FALL, *range(1, faces_of(race.to_roll[0]) + 1)]

    def _host_roll(self, action: Action) -> list[Event]:
        """The host's roll of the next die (:data:`FALL` for a fall)."""
        race = self.race
        if self.phase != PHASE_RACING or race is None or not race.to_roll:
            raise illegal_action(action, "derby.refusal.no_race")
        if action not in self.legal_actions_for(HOST):
            post = race.to_roll[0]
            raise illegal_action(action, "derby.refusal.not_on_die", word=repr(action),
                                 horse=horse_name(post), faces=faces_of(post))
        return self._race_events(race.enter_roll(None if action == FALL else action))

    def apply_action(self, action: Action, detail: Mapping[str, Any] | None = None) -> list[Event]:
        player = self.current_player()
        if player >= 0:
            return self.apply_action_for(player, action)
        return super().apply_action(action, detail)

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        """A chance outcome: the draw for a tied lot, or the race's next roll."""
        tied = self._tied()
        if tied:
            return self._sell(action) + self._advance()
        assert self.race is not None
        return self._race_events(self.race.apply_action(action, detail))


    def enter_rolls(self, entries: Sequence[object]) -> list[Event]:
        """A whole round typed in by a host, one entry for each die still running in post
        order (see :func:`typed_roll`): checked on a copy first, so a bad entry changes
        nothing (:class:`IllegalActionError` naming it)."""
        if self.phase != PHASE_RACING or self.race is None:
            raise illegal_action(list(entries), "derby.refusal.no_race")
        rolling = list(self.race.to_roll)
        if len(entries) != len(rolling):
            names = " ".join(horse_name(p) for p in rolling)
            raise illegal_action(list(entries), "derby.refusal.enter_count", n=len(rolling),
                                 names=names)
        values = [typed_roll(entry, post) for entry, post in zip(entries, rolling, strict=True)]
        trial = self.race.clone()
        for value in values:
            trial.enter_roll(value)
        events: list[Event] = []
        for value in values:
            events.extend(self.apply_action_for(HOST, FALL if value is None else value))
        return events

    def _apply_for(self, player: int, action: Action) -> list[Event]:
        what, units, selection = action_parts(action)
        amount = units * self.options.stake_unit
        s = self.ledger
        events: list[Event] = []
        if what == "bid":
            if player not in self.bids:  # a changed bid is not news
                post = s.next_lot
                assert post is not None
                events.append(Event("bid_sealed", {"player": player, "name": self._name(player),
                                                   "post": post, "horse": horse_name(post)}))
            self.bids[player] = amount
        elif what == "borrow":
            s.borrow(player)
            events.append(Event("borrowed", {"player": player, "name": self._name(player),
                                             "amount": self.options.loan_amount,
                                             "repay": self.options.loan_repay}))
        elif what == "ticket":
            kind, horses = SELECTIONS[selection]
            s.place_ticket(player, kind, horses, amount)  # sealed: no event tells of it
        else:
            self.done.add(player)
            events.append(Event("done_betting", {"player": player, "name": self._name(player)}))
        return events + self._advance()

    # --- what follows by itself ----------------------------------------------------------
    def _advance(self) -> list[Event]:
        """Settle every lot whose bids are all in (unless a draw is due), close betting when
        everyone is done and start the race."""
        s = self.ledger
        events: list[Event] = []
        while s.phase == PHASE_AUCTION and not self._waiting_bidders() and not self._tied():
            events.extend(self._sell(None))
        if s.phase == PHASE_BETTING and not self.acting_players():
            s.close_betting()
            self.race = DerbyState(DerbyOptions(self.options.fall_rate))
            self.rounds = []
            events.append(Event("race_start", {"race": s.race}))
        return events

    def _sell(self, draw: int | None) -> list[Event]:
        s = self.ledger
        post = s.next_lot
        assert post is not None
        bids = dict(self.bids)
        lot = s.settle_lot(bids, draw)
        self.bids = {}
        events = [Event("lot", lot_facts(post, [
            {"player": i, "name": self._name(i), "amount": b} for i, b in sorted(bids.items())],
            lot.buyer, None if lot.buyer is None else self._name(lot.buyer), lot.price,
            [self._name(i) for i in lot.tied]))]
        if s.phase == PHASE_BETTING:
            events.extend(self._open_betting())
        return events

    def _open_betting(self) -> list[Event]:
        self.done = set()
        return [Event("betting_open", {"race": self.ledger.race,
                                       "races": self.options.races})]

    def _race_events(self, produced: list[Event]) -> list[Event]:
        s = self.ledger
        events: list[Event] = []
        for e in produced:
            events.append(e)
            if e.kind == "round":
                self.rounds.append({"round": e["round"], "rolloff": e["rolloff"],
                                    "rolls": e["rolls"], "out": e["out"],
                                    "leader": e["leader"], "kind": e["ending"],
                                    "ahead": furlong_ahead(e["rolls"], e["out"], e["rolloff"])})
            elif e.kind == "quinella":
                pair = (parse_horse(e["pair"][0]), parse_horse(e["pair"][1]))
                pays = [_payout_json(s, p) for p in s.quinella_payouts(pair)]
                events.append(Event("quinella_paid", quinella_paid_facts(e["pair"], pays)))
        assert self.race is not None
        if self.race.is_terminal():
            events.extend(self._settle())
        return events

    def _settle(self) -> list[Event]:
        s = self.ledger
        race = self.race
        assert race is not None
        first, second = race.winner(), race.second()
        assert first is not None and second is not None
        record = s.settle(first, second, race.first_out())
        self.last = {
            "race": record.race,
            "order": [horse_name(p) for p in race.ranking()],
            "places": {horse_name(p): race.places[p] for p in POSTS},
            "first_out": [horse_name(h) for h in record.first_out],
            "payouts": [_payout_json(s, p) for p in record.payouts],
            "furlongs": self._furlongs(),
        }
        self.race = None
        self.done = set()
        events = [Event("settled", {**self.last, "standings": self.standings()})]
        if s.phase == PHASE_FINISHED:
            events.append(Event("finished", {"standings": self.standings(),
                                             "award": self.award()}))
        else:
            events.extend(self._open_betting())
        return events

    # --- results ------------------------------------------------------------------------
    def shown_money(self, player: int) -> int:
        """Money less what is owed, without this race's open stakes: what everyone sees."""
        s = self.ledger
        return s.players[player].net + sum(t.stake for t in s.tickets_of(player))

    def _shown_all(self) -> list[int]:
        """:meth:`shown_money` of every player, from one pass over the tickets."""
        s = self.ledger
        shown = [p.net for p in s.players]
        for t in s.tickets:
            shown[t.player] += t.stake
        return shown

    def standings(self) -> list[dict[str, Any]]:
        """Every player by the money everyone sees, best first; equal money shares a rank."""
        s = self.ledger
        shown = self._shown_all()
        order = sorted(range(len(s.players)), key=lambda i: (-shown[i], i))
        out: list[dict[str, Any]] = []
        for pos, i in enumerate(order):
            net = shown[i]
            rank = out[-1]["rank"] if out and out[-1]["net"] == net else pos + 1
            out.append({"rank": rank, "player": i, "name": s.players[i].name, "net": net})
        return out

    def awards(self) -> list[dict[str, Any]]:
        """The finale's awards, facts of the ledger: each ``{"award", "winners"}`` where
        ``winners`` holds everyone sharing the best (a tie is told as one, never given to
        the first): ``biggest`` (the biggest ticket paid; prize money is no ticket), each
        ``{"player", "amount", "race", "what"}``; ``top_bid`` (the auction's top price),
        each ``{"player", "post", "price"}``; ``luckiest`` (the horse with the most wins),
        each ``{"post", "owner" (None: the house's), "wins"}``; ``owner`` (the owners'
        award, :meth:`award`), each ``{"player", "score"}`` and the award's ``by``. An
        award with nothing to give is left out."""
        s = self.ledger
        out: list[dict[str, Any]] = []
        tickets = [(p.amount, r.race, p) for r in s.history for p in r.payouts
                   if not p.what.startswith("prize")]
        if tickets:
            best = max(amount for amount, _, _ in tickets)
            out.append({"award": "biggest", "winners": [
                {"player": p.player, "amount": amount, "race": race, "what": p.what}
                for amount, race, p in tickets if amount == best]})
        bought = sorted((lot for lot in s.lots if lot.buyer is not None),
                        key=lambda lot: lot.post)
        if bought:
            top = max(lot.price for lot in bought)
            out.append({"award": "top_bid", "winners": [
                {"player": lot.buyer, "post": lot.post, "price": lot.price}
                for lot in bought if lot.price == top]})
        wins: dict[int, int] = {}
        for r in s.history:
            wins[r.first] = wins.get(r.first, 0) + 1
        if wins:
            most = max(wins.values())
            out.append({"award": "luckiest", "winners": [
                {"post": post, "owner": s.owner_of(post), "wins": most}
                for post in sorted(wins) if wins[post] == most]})
        award = self.award()
        if award is not None:
            out.append({"award": "owner", "by": award["by"], "winners": [
                {"player": p, "score": award["score"]} for p in award["players"]]})
        return out

    def award(self) -> dict[str, Any] | None:
        """The owners' award: the owner(s) with the best prize money (or prize less price)."""
        s = self.ledger
        award = s.owner_award()
        if award is None:
            return None
        owners, score = award
        return {"players": owners, "names": [s.players[i].name for i in owners],
                "score": score, "by": self.options.owner_award}

    def outcome(self) -> Outcome:
        """Players by money less debts (the final standings): ``termination`` "money"."""
        self.require_over()
        s = self.ledger
        standings = s.standings()
        ranking = tuple(i for _, i, _ in standings)
        best = standings[0][2]
        top = tuple(i for rank, i, _ in standings if rank == 1)
        names = [s.players[i].name for i in top]
        return Outcome(
            ranking=ranking, winner=top[0] if len(top) == 1 else None,
            scores={i: float(net) for _, i, net in standings},
            description=f"{' and '.join(names)} top the table with {best}",
            winning_players=top, score_name="money", termination="money",
            message=Message("derby.outcome.money", {"names": names, "money": best,
                                                    "award": self.award()}))

    # --- what each seat sees -------------------------------------------------------------
    def _board(self) -> OddsBoard:
        return self.ledger.board()

    def _furlongs(self) -> dict[str, int]:
        """How far each horse got: the furlongs (rounds of the race proper) it survived."""
        furlongs = {horse_name(p): 0 for p in POSTS}
        for r in self.rounds:
            if r["rolloff"]:
                continue
            for h in r["rolls"]:
                if h not in r["out"]:
                    furlongs[h] += 1
        return furlongs

    def _live(self) -> dict[str, Any] | None:
        race = self.race
        if race is None:
            return None
        nxt = race.roller
        owner = None if nxt is None else self.ledger.owner_of(nxt)
        return {
            "round": race.round, "rolloff": race.in_rolloff, "for_place": race.group_place,
            "group": [horse_name(p) for p in race.group],
            "to_roll": [horse_name(p) for p in race.to_roll],
            "next": None if nxt is None else horse_name(nxt),
            "next_faces": None if nxt is None else faces_of(nxt),
            "next_owner": owner,
            "next_owner_name": None if owner is None else self._name(owner),
            "rolls": {horse_name(p): v for p, v in race.rolls.items()},
            "places": {horse_name(p): v for p, v in race.places.items()},
            "furlongs": self._furlongs(),
            "rounds": self.rounds,
        }

    def observation(self, player: int | None) -> dict[str, Any]:
        """The public view (``player`` None: a spectator's) and, for a player, ``me``: their
        own purse, sealed bid and tickets. No other player's secret is in it."""
        out = self._public()
        if player is not None:
            out["me"] = self._me(player)
        return out

    def own_view(self, player: int) -> dict[str, Any]:
        """``player``'s own part of :meth:`observation` (``me``) alone, without building the
        public part again (a room sends twelve of these with every update)."""
        return self._me(player)

    def _public(self) -> dict[str, Any]:
        s = self.ledger
        horse_rows, quinella_rows = _board_rows(self._board(), self.options.fall_rate)
        shown = self._shown_all()
        players = [{
            "index": i, "name": p.name, "kind": p.kind,
            "horse": None if p.horse is None else horse_name(p.horse),
            "price": p.price, "prize": p.prize, "loans": p.loans,
            "money": shown[i], "sealed": i in self.bids, "done": i in self.done,
        } for i, p in enumerate(s.players)]
        sold = {lot.post for lot in s.lots}
        horses = []
        for post, name, faces, win, win_text, chance, bonus in horse_rows:
            owner = s.owner_of(post)
            horses.append({
                "post": post, "name": name, "faces": faces,
                "owner": owner, "owner_name": None if owner is None else self._name(owner),
                "house": post in sold and owner is None,
                "win": win, "win_text": win_text, "chance": chance, "bonus": bonus,
            })
        quinella = [{"pair": [a, b], "odds": t, "text": text, "chance": chance}
                    for a, b, t, text, chance in quinella_rows]
        lot = s.next_lot
        return {
            "game": self.game_name, "phase": s.phase, "rules": rules_view(self.options),
            "race": s.race, "races": self.options.races, "players": players,
            "horses": horses, "board": {"quinella": quinella},
            "lots": [{"post": x.post, "horse": horse_name(x.post), "buyer": x.buyer,
                      "buyer_name": None if x.buyer is None else self._name(x.buyer),
                      "price": x.price} for x in s.lots],
            "auction": None if lot is None else {
                "post": lot, "horse": horse_name(lot), "waiting": self._waiting_bidders(),
                "bidders": s.eligible_bidders()},
            "live": self._live(), "last": self.last, "standings": self.standings(),
            "award": self.award() if s.phase == PHASE_FINISHED else None,
        }

    def _me(self, player: int) -> dict[str, Any]:
        s = self.ledger
        p = s.players[player]
        return {
            "seat": player, "name": p.name, "money": p.money, "debt": p.debt,
            "loans": p.loans, "net": p.net,
            "horse": None if p.horse is None else horse_name(p.horse),
            "sealed_bid": self.bids.get(player),
            "may_bid": s.phase == PHASE_AUCTION and p.horse is None,
            "may_bet": s.phase == PHASE_BETTING and player not in self.done,
            "done": player in self.done, "can_borrow": s.can_borrow(player),
            "tickets": [_ticket_json(t) for t in s.tickets_of(player)],
            "limits": {"win": self.options.win_limit, "quinella": self.options.quinella_limit},
        }

    def frame(self) -> dict[str, Any]:
        """The track and the owners: each horse's place, furlongs run and current roll."""
        live = self._live()
        return {"game": self.game_name, "phase": self.phase, "race": self.ledger.race,
                "horses": [{"post": h["post"], "name": h["name"], "owner": h["owner_name"],
                            "house": h["house"]} for h in self._public()["horses"]],
                "live": live, "last": self.last}

    # --- copies and saving -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": EVENING_FORMAT,
            "options": self.options.to_json(),
            "ledger": self.ledger.to_json(),
            "bids": [[p, b] for p, b in sorted(self.bids.items())],
            "done": sorted(self.done),
            "race": None if self.race is None else self.race.to_json(),
            "rounds": self.rounds,
            "last": self.last,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """An evening saved by :meth:`to_json`, or a party session saved before the evening
        was one state (the ledger alone, format 1: see :func:`from_session`)."""
        if isinstance(data, Mapping) and data.get("format") == 1:
            live = data.get("live_race")  # a host's race in progress, saved beside the books
            if live is not None and not isinstance(live, Mapping):
                raise SaveFormatError("Dice Derby session: malformed race in progress")
            return cls.from_session(Session.from_json(data), race=live)
        f = Fields(data, "Dice Derby evening")
        if f.get("format", int) != EVENING_FORMAT:
            raise SaveFormatError(f"Dice Derby evening: unknown format {data.get('format')!r}")
        options = f.parsed("options", EveningOptions.parse)
        ledger = Session.from_json(f.get("ledger", dict))
        state = cls.__new__(cls)
        state.options = options
        state.ledger = ledger
        try:
            state.bids = {int(p): int(b) for p, b in f.get("bids", list)}
            state.done = {int(p) for p in f.get("done", list)}
        except (TypeError, ValueError):
            raise SaveFormatError("Dice Derby evening: malformed bids") from None
        race = data.get("race")
        state.race = None if race is None else DerbyState.from_json(race)
        state.rounds = list(f.get("rounds", list))
        last = data.get("last")
        if last is not None and not isinstance(last, dict):
            raise SaveFormatError("Dice Derby evening: malformed last race")
        state.last = last
        state._check()
        return state

    @classmethod
    def from_session(cls, session: Session, *, race: Mapping[str, Any] | None = None,
                     rounds: Sequence[Mapping[str, Any]] = (),
                     last: Mapping[str, Any] | None = None) -> Self:
        """The evening of a party's books (a session saved before the evening was one
        state, or a new one): ``race`` is a race in progress (a host's dice typed so far);
        without it a race whose tickets were locked starts afresh, as it did on resuming."""
        state = cls.__new__(cls)
        state.options = session.config
        state.ledger = session
        state.bids = {}
        state.done = set()
        state.rounds = [dict(r) for r in rounds]
        state.last = None if last is None else dict(last)
        state.race = None
        if session.phase == PHASE_RACING:
            state.race = (DerbyState.from_json(race) if race is not None
                          else DerbyState(DerbyOptions(session.config.fall_rate)))
        state._check()
        state._advance()  # dice nobody may bid for any more are the house's at once
        return state

    def _check(self) -> None:
        s = self.ledger
        if [(p.name, p.kind) for p in s.players] != [(x.name, x.kind)
                                                    for x in self.options.players]:
            raise SaveFormatError("Dice Derby evening: the players differ from the options")
        if (self.race is None) == (s.phase == PHASE_RACING):
            raise SaveFormatError("Dice Derby evening: a race belongs to the racing phase")
        if any(p not in range(len(s.players)) for p in [*self.bids, *self.done]):
            raise SaveFormatError("Dice Derby evening: a bid or a ticket of nobody")
        if not 1 <= s.race <= min(self.options.races, MAX_RACES):
            raise SaveFormatError("Dice Derby evening: race number out of range")

    def __str__(self) -> str:
        s = self.ledger
        lines = [f"Dice Derby evening: {s.phase}, race {s.race} of {self.options.races}"]
        for i, p in enumerate(s.players):
            horse = horse_name(p.horse) if p.horse else "-"
            lines.append(f"{p.name}: {self.shown_money(i)} shown, horse {horse}")
        if self.race is not None:
            lines.append(str(self.race))
        return "\n".join(lines)


class EveningGame(Game[EveningOptions, EveningState]):
    """A Dice Derby evening: the auction, the tickets and the races, with players."""

    name = "derby_evening"
    title = "Dice Derby evening"
    designer = "domi"
    summary = "Bid for six dice, bet win and quinella on their races, top the table."
    players = (1, 64)
    # Small purses keep the legal actions few; falls and ties, loans, the first-out bonus,
    # the net owners' award, a computer seat and a lone player.
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {"start_money": 300, "races": 4},
        {"start_money": 500, "races": 5, "fall_rate": "1/2", "borrowing": True,
         "loan_amount": 200, "loan_repay": 300, "max_loans": 2, "first_out_bonus": True,
         "owner_award": "net", "simple_odds": True, "win_limit": 2,
         "players": ["Aki", "Ben", ["Computer 1", "bold"]]},
        {"start_money": 200, "races": 4, "players": ["Solo"], "prize_second": 0},
    )
    harness_games = 20

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        """Per race: every player's tickets, loans and 'done', and the dice; the auction."""
        checked = self.options(options)
        n = len(checked.players)
        per_player = checked.win_limit + checked.quinella_limit + checked.max_loans + 1
        lots = len(POSTS) * (n + checked.max_loans * n + 1)
        return lots + checked.races * (n * per_player + STEP_BOUND)


EVENING = EveningGame()
# the part of the game a record may name (raceday.core.registry.record_game)
RECORD_GAMES = (EVENING,)


__all__ = [
    "BORROW",
    "DONE",
    "EVENING",
    "SELECTIONS",
    "EveningGame",
    "EveningOptions",
    "EveningState",
    "Seat",
]
