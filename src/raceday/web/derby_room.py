"""Dice Derby in a browser room: the whole party of ``raceday derby party``, on phones.

The rules and the money live in the engine (:mod:`raceday.games.derby.session` for the
auction, tickets, loans, settlement, standings and awards; :mod:`raceday.games.derby.rules`
for the race, one die roll per chance node). This module only turns intents into engine
calls, follows the terminal party's order of play, and decides what each screen may see.

Flow (the terminal party's, :mod:`raceday.games.derby.party`):

* **lobby** — players join by name; the host starts the evening with ``computers`` extra
  computer seats (alternately cautious and bold, named ``CPU 1``, ``CPU 2``, ...).
* **auction** — one die at a time from the d4 up. Every seat without a horse seals a bid
  on its phone (``bid``; 0 = no bid; it may be changed until the reveal); computer seats
  bid with :func:`~raceday.games.derby.agents.computer_bid`. When every human bidder has
  sealed, the lot is settled by the engine (ties by a fair draw with the room's generator)
  and all bids are revealed together. The host may ``close_bids`` for absent players
  (their bid counts as none).
* **betting** — computer seats buy their tickets at once; players buy secret tickets
  (``ticket``), may ``borrow`` (if the room allows it), and say ``done``. When every
  player is done (or the host ``close_betting``), betting closes and the race starts.
* **racing** — the dice roll one at a time in post order (the engine's chance nodes). An
  owner taps ``roll`` on their phone when their horse is next; computer-owned and house
  horses roll at once; the host may ``roll`` for an absent owner. With *real dice*
  (``host_dice``) the host types each round's numbers instead (``enter``, ``null`` or
  ``"F"`` for a fall), checked by the engine on a copy before anything changes. When the
  race ends the engine settles it (tickets, prizes, first-out counts) and the next race's
  betting opens, or the evening ends with standings and the owners' award.

What each screen sees (like boardgame.io's ``playerView``): the public view has the
players' names, horses, auction prices, loans, prize money and their money *as it was
before this race's stakes* (so the size of a secret stake does not leak), who has sealed a
bid (never the amount before the reveal), who is done betting (never their tickets), the
odds board, the live race and the results. A seat's view adds ``me``: its own money,
sealed bid, tickets and what it may do now. The host screen sees the public view.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Self

import numpy as np

from raceday.core.errors import OptionsError, RacedayError
from raceday.games.derby.agents import computer_bets, computer_bid
from raceday.games.derby.odds import OddsBoard, exact_odds, format_odds
from raceday.games.derby.rules import (
    POSTS,
    DerbyOptions,
    DerbyRaceState,
    faces_of,
    horse_name,
    parse_horse,
)
from raceday.games.derby.session import (
    PHASE_AUCTION,
    PHASE_BETTING,
    PHASE_FINISHED,
    PHASE_RACING,
    Session,
    SessionConfig,
)
from raceday.web.logic import JSON, Actor, RoomError

FORMAT = 1
MAX_SEATS = 12
PHASE_LOBBY = "lobby"
STEP_BOUND = 20_000  # automatic steps in one intent (a whole computer-only evening fits)
MAX_AMOUNT = 1_000_000_000

# options a host may set when creating the room: name -> (type, low, high)
OPTIONS: dict[str, tuple[type, int, int]] = {
    "races": (int, 4, 6),
    "host_dice": (bool, 0, 1),
    "borrowing": (bool, 0, 1),
    "first_out_bonus": (bool, 0, 1),
    "simple_odds": (bool, 0, 1),
    "fall_rate": (str, 0, 16),
    "margin": (str, 0, 16),
    "owner_award": (str, 0, 8),
    "start_money": (int, 100, 10_000_000),
    "prize_first": (int, 0, 10_000_000),
    "prize_second": (int, 0, 10_000_000),
    "win_limit": (int, 0, 100),
    "quinella_limit": (int, 0, 100),
}
COMPUTER_NAME = re.compile(r"cpu\s*\d+", re.IGNORECASE)


def _int(value: object, what: str, low: int = 0, high: int = MAX_AMOUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError(f"{what} must be a whole number")
    if not low <= value <= high:
        raise RoomError(f"{what} must be from {low:,} to {high:,}")
    return value


def _event(kind: str, **data: Any) -> JSON:
    return {"type": kind, **data}


class DerbyRoom:
    """A Dice Derby party for a browser room (see the module docstring)."""

    game: ClassVar[str] = "derby"
    max_seats: ClassVar[int] = MAX_SEATS

    def __init__(self, config: SessionConfig, names: list[str] | None = None) -> None:
        self.config = config
        self.names: list[str] = list(names or [])
        self.session: Session | None = None
        self.bids: dict[int, int] = {}
        self.done: set[int] = set()
        self.bets_race = 0  # the race whose computer tickets are bought
        self.race: DerbyRaceState | None = None
        self.rounds: list[JSON] = []  # the current (or last) race's rounds, for the track
        self.last: JSON | None = None  # the last settled race, as shown on screens
        self._boards: dict[tuple[int, tuple[tuple[int, int], ...]], OddsBoard] = {}

    # --- creating and saving ------------------------------------------------------------
    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        if not isinstance(options, Mapping):
            raise RoomError("options must be an object")
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RoomError(f"unknown Dice Derby option(s): {', '.join(map(str, unknown))}")
        values: dict[str, Any] = {}
        for name, value in options.items():
            kind, low, high = OPTIONS[name]
            what = name.replace("_", "-")
            if kind is bool:
                if not isinstance(value, bool):
                    raise RoomError(f"{what} is true or false")
            elif kind is int:
                _int(value, what, low, high)
            elif not isinstance(value, str) or len(value) > high:
                raise RoomError(f"{what} must be a short text such as 0.05")
            values[name] = value
        host = bool(values.pop("host_dice", False))
        try:
            config = SessionConfig(host=host, seed=seed, **values)
        except RacedayError as exc:
            raise RoomError(str(exc)) from None
        return cls(config)

    def to_json(self) -> JSON:
        return {
            "format": FORMAT,
            "config": self.config.to_json(),
            "names": list(self.names),
            "session": None if self.session is None else self.session.to_json(),
            "bids": [[s, b] for s, b in sorted(self.bids.items())],
            "done": sorted(self.done),
            "bets_race": self.bets_race,
            "race": None if self.race is None else self.race.to_json(),
            "rounds": self.rounds,
            "last": self.last,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            if data.get("format") != FORMAT:
                raise RoomError(f"unknown Dice Derby room format {data.get('format')!r}")
            room = cls(SessionConfig.parse(data["config"]), [str(n) for n in data["names"]])
            if data["session"] is not None:
                room.session = Session.from_json(data["session"])
            room.bids = {int(s): int(b) for s, b in data["bids"]}
            room.done = {int(s) for s in data["done"]}
            room.bets_race = int(data["bets_race"])
            if data["race"] is not None:
                room.race = DerbyRaceState.from_json(data["race"])
            room.rounds = list(data["rounds"])
            room.last = data["last"]
        except (KeyError, TypeError, ValueError, AttributeError, OptionsError) as exc:
            raise RoomError(f"malformed Dice Derby room: {exc}") from None
        return room

    # --- seats --------------------------------------------------------------------------
    def seat_names(self) -> list[str]:
        return list(self.names)

    def add_seat(self, name: str) -> int:
        if self.session is not None:
            raise RoomError("the party has started; watch with the spectator link instead")
        if len(self.names) >= MAX_SEATS:
            raise RoomError(f"the room is full ({MAX_SEATS} players)")
        if any(n.lower() == name.lower() for n in self.names):
            raise RoomError(f"someone is already called {name!r}; pick another name")
        if COMPUTER_NAME.fullmatch(name):
            raise RoomError(f"{name!r} is kept for computer players; pick another name")
        self.names.append(name)
        return len(self.names) - 1

    def finished(self) -> bool:
        return self.session is not None and self.session.phase == PHASE_FINISHED

    def phase(self) -> str:
        return PHASE_LOBBY if self.session is None else self.session.phase

    def _human(self, player: int) -> bool:
        return player < len(self.names)

    # --- intents ------------------------------------------------------------------------
    def handle(self, actor: Actor, intent: Mapping[str, Any],
               rng: np.random.Generator) -> list[JSON]:
        kind = intent.get("type")
        if not isinstance(kind, str):
            raise RoomError("an intent needs a 'type'")
        if actor.kind == "spectator":
            raise RoomError("spectators watch; join the room to play")
        handler = (HOST_INTENTS if actor.kind == "host" else SEAT_INTENTS).get(kind)
        if handler is None:
            who = "the host" if actor.kind == "host" else "a player"
            raise RoomError(f"{who} cannot send {kind!r} in Dice Derby")
        events: list[JSON] = []
        try:
            handler(self, actor, intent, rng, events)
            self._advance(rng, events)
        except RoomError:
            raise
        except RacedayError as exc:  # the engine's own refusal (BetError, IllegalAction...)
            raise RoomError(str(exc)) from None
        return events

    def _session(self, *phases: str) -> Session:
        s = self.session
        if s is None:
            raise RoomError("the party has not started yet")
        if s.phase not in phases:
            what = {PHASE_AUCTION: "the auction", PHASE_BETTING: "betting",
                    PHASE_RACING: "a race"}
            wanted = " or ".join(what.get(p, p) for p in phases)
            raise RoomError(f"that is only possible during {wanted} (now: {s.phase})")
        return s

    # host intents
    def _start(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
               events: list[JSON]) -> None:
        if self.session is not None:
            raise RoomError("the party has already started")
        computers = _int(intent.get("computers", 0), "computers", 0,
                         MAX_SEATS - len(self.names))
        if not self.names and not computers:
            raise RoomError("nobody has joined yet: wait for players or add computers")
        roster = [(n, "human") for n in self.names]
        roster += [(f"CPU {k + 1}", ("cautious", "bold")[k % 2]) for k in range(computers)]
        self.session = Session.new(self.config, roster)
        events.append(_event("started", players=[p.name for p in self.session.players],
                             computers=computers))

    def _close_bids(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                    events: list[JSON]) -> None:
        s = self._session(PHASE_AUCTION)
        for i in s.eligible_bidders():
            if self._human(i) and i not in self.bids:
                self.bids[i] = 0
        events.append(_event("bids_closed", post=s.next_lot))

    def _close_betting(self, actor: Actor, intent: Mapping[str, Any],
                       rng: np.random.Generator, events: list[JSON]) -> None:
        self._session(PHASE_BETTING)
        self.done |= set(range(len(self.names)))

    def _host_roll(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                   events: list[JSON]) -> None:
        self._session(PHASE_RACING)
        if self.config.host:
            raise RoomError("with real dice the host types the numbers ('enter')")
        self._roll(rng, events)

    def _enter(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
               events: list[JSON]) -> None:
        self._session(PHASE_RACING)
        if not self.config.host:
            raise RoomError("this room rolls its dice on the phones; real dice are off")
        race = self.race
        assert race is not None
        raw = intent.get("values")
        rolling = list(race.to_roll)
        names = " ".join(horse_name(p) for p in rolling)
        if not isinstance(raw, list) or len(raw) != len(rolling):
            raise RoomError(f"enter {len(rolling)} numbers, one for each of {names} "
                            "(F for a fall)")
        values: list[int | None] = []
        for v in raw:
            if v is None or (isinstance(v, str) and v.strip().upper() in ("F", "X")):
                values.append(None)
            elif isinstance(v, int) and not isinstance(v, bool):
                values.append(v)
            elif isinstance(v, str) and re.fullmatch(r"[0-9]{1,3}", v.strip()):
                values.append(int(v))
            else:
                raise RoomError(f"{v!r} is not a number on a die (or F for a fall)")
        trial = DerbyRaceState.from_json(race.to_json())  # the engine checks on a copy
        produced = []
        for v in values:
            produced.extend(trial.enter_roll(v))
        self.race = trial
        self._race_events(produced, events)

    # seat intents
    def _bid(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
             events: list[JSON]) -> None:
        s = self._session(PHASE_AUCTION)
        seat = actor.seat
        assert seat is not None
        if s.players[seat].horse is not None:
            raise RoomError(f"you already own the {horse_name(s.players[seat].horse or 0)}; "
                            "an owner holds one die only")
        amount = _int(intent.get("amount"), "a bid", -MAX_AMOUNT, MAX_AMOUNT)
        s.check_bid(seat, amount)
        first = seat not in self.bids
        self.bids[seat] = amount
        if first:
            events.append(_event("bid_sealed", player=seat, post=s.next_lot))

    def _ticket(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                events: list[JSON]) -> None:
        s = self._session(PHASE_BETTING)
        seat = actor.seat
        assert seat is not None
        if seat in self.done:
            raise RoomError("you said you were done betting for this race")
        kind = intent.get("kind")
        if kind not in ("win", "quinella"):
            raise RoomError("a ticket is 'win' or 'quinella'")
        raw = intent.get("horses")
        if not isinstance(raw, list) or not 1 <= len(raw) <= 2:
            raise RoomError("name the horses of the ticket (one for win, two for quinella)")
        horses = []
        for h in raw:
            if isinstance(h, bool) or not isinstance(h, (int, str)) or len(str(h)) > 4:
                raise RoomError(f"there is no horse {h!r}")
            horses.append(parse_horse(str(h)))
        stake = _int(intent.get("stake"), "a stake", -MAX_AMOUNT, MAX_AMOUNT)
        s.place_ticket(seat, str(kind), horses, stake)

    def _borrow(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                events: list[JSON]) -> None:
        s = self._session(PHASE_AUCTION, PHASE_BETTING, PHASE_RACING)
        seat = actor.seat
        assert seat is not None
        s.borrow(seat)
        events.append(_event("borrowed", player=seat, amount=s.config.loan_amount,
                             repay=s.config.loan_repay))

    def _done(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
              events: list[JSON]) -> None:
        self._session(PHASE_BETTING)
        assert actor.seat is not None
        if actor.seat in self.done:
            raise RoomError("you are already done betting")
        self.done.add(actor.seat)
        events.append(_event("done_betting", player=actor.seat))

    def _seat_roll(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                   events: list[JSON]) -> None:
        s = self._session(PHASE_RACING)
        if self.config.host:
            raise RoomError("tonight the host rolls real dice and types the numbers")
        race = self.race
        assert race is not None and race.roller is not None
        if s.owner_of(race.roller) != actor.seat:
            owner = s.owner_of(race.roller)
            who = "the house" if owner is None else s.players[owner].name
            raise RoomError(f"it is not your turn: the {horse_name(race.roller)} ({who}) "
                            "rolls next")
        self._roll(rng, events)

    # --- the automatic part of the flow -------------------------------------------------
    def _roll(self, rng: np.random.Generator, events: list[JSON]) -> None:
        race = self.race
        assert race is not None
        draw = race.sample_chance(rng)
        self._race_events(race.apply_action(draw.outcome, draw.detail), events)

    def _race_events(self, produced: list[Any], events: list[JSON]) -> None:
        s = self.session
        assert s is not None
        for e in produced:
            events.append({"type": e.kind, **e.data})
            if e.kind == "round":
                self.rounds.append({"round": e["round"], "rolloff": e["rolloff"],
                                    "rolls": e["rolls"], "out": e["out"],
                                    "leader": e["leader"], "kind": e["kind"]})
            elif e.kind == "quinella":
                pair = (parse_horse(e["pair"][0]), parse_horse(e["pair"][1]))
                pays = [{"player": p.player, "name": s.players[p.player].name,
                         "amount": p.amount} for p in s.quinella_payouts(pair)]
                events.append(_event("quinella_paid", pair=e["pair"], payouts=pays))

    def _advance(self, rng: np.random.Generator, events: list[JSON]) -> None:
        """Run everything that needs no human: computer bids and tickets, closing lots and
        betting when everyone has acted, computer and house rolls, settling races."""
        for _ in range(STEP_BOUND):
            s = self.session
            if s is None or s.phase == PHASE_FINISHED:
                return
            if s.phase == PHASE_AUCTION:
                post = s.next_lot
                assert post is not None
                eligible = s.eligible_bidders()
                if any(self._human(i) and i not in self.bids for i in eligible):
                    return
                bids = {i: (self.bids.get(i, 0) if self._human(i) else computer_bid(s, i, post))
                        for i in eligible}
                lot = s.auction_lot(bids, rng)
                self.bids = {}
                events.append(_event(
                    "lot", post=post, horse=horse_name(post),
                    bids=[{"player": i, "name": s.players[i].name, "amount": b}
                          for i, b in sorted(bids.items())],
                    buyer=lot.buyer,
                    buyer_name=None if lot.buyer is None else s.players[lot.buyer].name,
                    price=lot.price, tied=[s.players[i].name for i in lot.tied],
                ))
                continue
            if s.phase == PHASE_BETTING:
                if self.bets_race != s.race:
                    self.bets_race = s.race
                    self.done = set()
                    self.rounds = []
                    events.append(_event("betting_open", race=s.race, races=s.config.races))
                    for i, p in enumerate(s.players):
                        if p.is_computer:
                            for bet in computer_bets(s, i):
                                s.place_ticket(i, bet.kind, bet.horses, bet.stake)
                    continue
                if any(i not in self.done for i in range(len(self.names))):
                    return
                s.close_betting()
                self.race = DerbyRaceState(DerbyOptions(s.config.fall_rate))
                self.rounds = []
                events.append(_event("race_start", race=s.race))
                continue
            race = self.race
            assert race is not None
            if race.is_terminal():
                self._settle(events)
                continue
            if self.config.host:
                return
            owner = s.owner_of(race.roller or 0)
            if owner is not None and self._human(owner):
                return
            self._roll(rng, events)
        raise RoomError("the room took too many automatic steps")  # pragma: no cover

    def _settle(self, events: list[JSON]) -> None:
        s = self.session
        race = self.race
        assert s is not None and race is not None
        first, second = race.winner(), race.second()
        assert first is not None and second is not None
        record = s.settle(first, second, race.first_out())
        payouts = [{"player": p.player, "name": s.players[p.player].name, "what": p.what,
                    "amount": p.amount} for p in record.payouts]
        self.last = {
            "race": record.race,
            "order": [horse_name(p) for p in race.ranking()],
            "places": {horse_name(p): race.places[p] for p in POSTS},
            "first_out": [horse_name(h) for h in record.first_out],
            "payouts": payouts,
            "furlongs": self._furlongs(),
        }
        self.race = None
        self.done = set()
        events.append(_event("settled", **self.last, standings=self._standings()))
        if s.phase == PHASE_FINISHED:
            events.append(_event("finished", standings=self._standings(),
                                 award=self._award()))

    # --- views --------------------------------------------------------------------------
    def _board(self) -> OddsBoard:
        s = self.session
        assert s is not None
        key = (s.race, tuple(sorted(s.first_out_counts.items())))
        if key not in self._boards:
            self._boards = {key: s.board()}
        return self._boards[key]

    def _shown_money(self, player: int) -> int:
        """Net money without this race's open stakes: what everyone at the table saw."""
        s = self.session
        assert s is not None
        return s.players[player].net + sum(t.stake for t in s.tickets_of(player))

    def _standings(self) -> list[JSON]:
        s = self.session
        assert s is not None
        order = sorted(range(len(s.players)), key=lambda i: (-self._shown_money(i), i))
        out: list[JSON] = []
        for pos, i in enumerate(order):
            net = self._shown_money(i)
            rank = out[-1]["rank"] if out and out[-1]["net"] == net else pos + 1
            out.append({"rank": rank, "player": i, "name": s.players[i].name, "net": net})
        return out

    def _award(self) -> JSON | None:
        s = self.session
        assert s is not None
        award = s.owner_award()
        if award is None:
            return None
        owners, score = award
        return {"players": owners, "names": [s.players[i].name for i in owners],
                "score": score, "by": s.config.owner_award}

    def _config_view(self) -> JSON:
        c = self.config
        return {"races": c.races, "start_money": c.start_money, "stake_unit": c.stake_unit,
                "win_limit": c.win_limit, "quinella_limit": c.quinella_limit,
                "borrowing": c.borrowing, "loan": c.loan_amount, "repay": c.loan_repay,
                "max_loans": c.max_loans, "first_out_bonus": c.first_out_bonus,
                "simple_odds": c.simple_odds, "fall_rate": str(c.fall_rate),
                "prize_first": c.prize_first, "prize_second": c.prize_second,
                "owner_award": c.owner_award, "host_dice": c.host}

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

    def _live(self) -> JSON | None:
        race = self.race
        s = self.session
        if race is None or s is None:
            return None
        nxt = race.roller
        owner = None if nxt is None else s.owner_of(nxt)
        return {
            "round": race.round, "rolloff": race.in_rolloff, "for_place": race.group_place,
            "group": [horse_name(p) for p in race.group],
            "to_roll": [horse_name(p) for p in race.to_roll],
            "next": None if nxt is None else horse_name(nxt),
            "next_faces": None if nxt is None else faces_of(nxt),
            "next_owner": owner,
            "next_owner_name": None if owner is None else s.players[owner].name,
            "next_by_phone": (not self.config.host and owner is not None
                              and self._human(owner)),
            "rolls": {horse_name(p): v for p, v in race.rolls.items()},
            "places": {horse_name(p): v for p, v in race.places.items()},
            "furlongs": self._furlongs(),
            "rounds": self.rounds,
        }

    def view(self, actor: Actor) -> JSON:
        out = dict(self.public_view())
        me = self.private_view(actor)
        if me is not None:
            out["me"] = me
        return out

    def public_view(self) -> JSON:
        """What every screen sees (the host's and a spectator's whole view)."""
        out: JSON = {"game": self.game, "phase": self.phase(), "config": self._config_view(),
                     "seats": list(self.names), "max_seats": MAX_SEATS}
        s = self.session
        if s is not None:
            out.update(self._public(s))
        return out

    def private_view(self, actor: Actor) -> JSON | None:
        """What only ``actor`` sees, added to the public view as ``me`` (None: nothing)."""
        if actor.kind == "seat" and actor.seat is not None:
            return self._me(actor.seat)
        return None

    def _public(self, s: Session) -> JSON:
        board = self._board()
        odds = exact_odds(s.config.fall_rate)
        players = []
        for i, p in enumerate(s.players):
            players.append({
                "index": i, "name": p.name, "kind": p.kind,
                "horse": None if p.horse is None else horse_name(p.horse),
                "price": p.price, "prize": p.prize, "loans": p.loans,
                "money": self._shown_money(i),
                "sealed": i in self.bids, "done": (not self._human(i)) or i in self.done,
            })
        horses = []
        for post in POSTS:
            owner = s.owner_of(post)
            sold = any(lot.post == post for lot in s.lots)
            horses.append({
                "post": post, "name": horse_name(post), "faces": faces_of(post),
                "owner": owner, "owner_name": None if owner is None else s.players[owner].name,
                "house": sold and owner is None,
                "win": board.win[post], "win_text": format_odds(board.win[post]),
                "chance": float(odds.win[post]),
                "bonus": board.bonus.get(post, 0),
            })
        quinella = [{"pair": [horse_name(a), horse_name(b)], "odds": t,
                     "text": format_odds(t), "chance": float(odds.quinella[(a, b)])}
                    for (a, b), t in sorted(board.quinella.items())]
        lot = s.next_lot
        out: JSON = {
            "race": s.race, "races": s.config.races, "players": players, "horses": horses,
            "board": {"quinella": quinella},
            "lots": [{"post": x.post, "horse": horse_name(x.post), "buyer": x.buyer,
                      "buyer_name": None if x.buyer is None else s.players[x.buyer].name,
                      "price": x.price} for x in s.lots],
            "auction": None if lot is None else {
                "post": lot, "horse": horse_name(lot),
                "waiting": [i for i in s.eligible_bidders()
                            if self._human(i) and i not in self.bids],
                "bidders": s.eligible_bidders(),
            },
            "live": self._live(),
            "last": self.last,
            "standings": self._standings(),
            "award": self._award() if s.phase == PHASE_FINISHED else None,
        }
        return out

    def _me(self, seat: int) -> JSON:
        s = self.session
        if s is None or seat >= len(s.players):
            name = self.names[seat] if seat < len(self.names) else ""
            return {"seat": seat, "name": name}
        p = s.players[seat]
        race = self.race
        my_turn = (s.phase == PHASE_RACING and not self.config.host and race is not None
                   and race.roller is not None and s.owner_of(race.roller) == seat)
        return {
            "seat": seat, "name": p.name, "money": p.money, "debt": p.debt, "loans": p.loans,
            "net": p.net, "horse": None if p.horse is None else horse_name(p.horse),
            "sealed_bid": self.bids.get(seat),
            "may_bid": s.phase == PHASE_AUCTION and p.horse is None,
            "may_bet": s.phase == PHASE_BETTING and seat not in self.done,
            "done": seat in self.done,
            "can_borrow": s.can_borrow(seat),
            "my_turn": my_turn,
            "tickets": [{"kind": t.kind, "horses": [horse_name(h) for h in t.horses],
                         "label": t.label(), "stake": t.stake, "odds": t.odds,
                         "odds_text": format_odds(t.odds), "pays": t.stake * t.odds // 10}
                        for t in s.tickets_of(seat)],
            "limits": {"win": s.config.win_limit, "quinella": s.config.quinella_limit},
        }


_Handler = Any
HOST_INTENTS: dict[str, _Handler] = {
    "start": DerbyRoom._start,
    "close_bids": DerbyRoom._close_bids,
    "close_betting": DerbyRoom._close_betting,
    "roll": DerbyRoom._host_roll,
    "enter": DerbyRoom._enter,
}
SEAT_INTENTS: dict[str, _Handler] = {
    "bid": DerbyRoom._bid,
    "ticket": DerbyRoom._ticket,
    "borrow": DerbyRoom._borrow,
    "done": DerbyRoom._done,
    "roll": DerbyRoom._seat_roll,
}

LOGIC = DerbyRoom

__all__ = ["LOGIC", "MAX_SEATS", "DerbyRoom"]
