"""Dice Derby in a browser room: the evening (:mod:`raceday.games.derby.evening`) on the
room kit's party room, on phones.

The kit owns the lobby, the seats, the room's generator (chance: the draw for a tied lot
and the dice), the save format and the error mapping; the evening owns every rule and every
secret. This module declares only what is Derby's own:

* **options** — the room is created from :class:`HostOptions` (the room kit's ``Options``,
  its schema served for the create form): the evening's house rules without the players
  and the seed (``host_dice`` is the evening's ``host``); the room's seed seeds the
  computers' choices as the terminal's does.
* **start** — the seats' names and ``computers`` extra computer seats (alternately
  cautious and bold, ``CPU 1``, ``CPU 2``, ...) become the evening's players.
* **intents** — a seat's ``bid`` (0 = no bid; may be changed until the reveal),
  ``ticket``, ``borrow`` and ``done``; the host's ``close_bids`` (absent bidders bid
  nothing), ``close_betting``, the timeline's ``pace``, ``pause``, ``resume`` and ``skip``,
  ``again`` once the evening is over and, with real dice, ``enter`` (a round's numbers,
  ``"F"`` for a fall). Each is turned into the evening's action by the state's own
  helpers, which name a refusal.
* **the race on the timeline** — the server throws the dice one furlong (one round of the
  race: every die still running) a tick, at the host's pace (:attr:`DerbyRoom.default_pace`),
  and every screen draws each furlong as it comes. When the race is over, its results
  (winnings, prizes, the standings, the quinella's payouts, the next race's betting) are
  held behind a *curtain* for one more tick: every view still shows the money as it stood
  before the race, and the finish stands alone on the big screen first (a photo-finish if
  it was close). Nothing about the result reaches a phone before the big screen shows the
  finish; see docs/rules/derby.md, "On the screens".
* **computers** — :class:`~raceday.games.derby.agents.Computer` agents, each at its
  seat: they bid once every person has sealed, buy their tickets as betting opens; their
  horses and the house's roll at once.
* **views** — every screen's from ``observation(None)``, a seat's ``me`` from
  ``observation(seat)``, in the shape the Derby pages read.
* **hints** — the host's option ``hints`` (``true``: a learner's evening, as the lesson's
  first game creates it; kept with the host's options, so it is saved with the room): the
  seat whose person is to bid or to buy tickets finds in its own ``me`` a ``hint``, the
  message the terminal's first evening says there (:mod:`raceday.games.derby.hints`, from
  the exact odds and public facts only). No other screen gets it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from copy import copy
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, ValidationInfo, field_validator

from raceday.core.errors import IllegalActionError, OptionsError
from raceday.core.events import Event, Message
from raceday.core.game import GameOptions
from raceday.games.derby.agents import Computer, computer_turn
from raceday.games.derby.evening import (
    DONE,
    EVENING,
    EveningOptions,
    EveningState,
    rules_view,
    what_words,
)
from raceday.games.derby.hints import bid_hint, ticket_hint
from raceday.games.derby.rules import POSTS, horse_name, parse_horse
from raceday.games.derby.session import (
    MAX_RACES,
    MIN_RACES,
    PHASE_AUCTION,
    PHASE_BETTING,
    PHASE_RACING,
    Session,
)
from raceday.present import refusal
from raceday.rooms import JSON, Actor, PartyRoom, RoomError
from raceday.rooms.base import KIT_FORMAT, Handler
from raceday.rooms.intents import PARTY_INTENTS, Intent, Intents, intent_union

MAX_SEATS = 12
HINTS = "hints"  # the host's switch of a learner's evening (see the module)
MAX_AMOUNT = 1_000_000_000
MAX_TEXT = 16  # a fall rate or a margin typed on a phone
RACE_KINDS = frozenset({"roll", "reroll", "round", "place", "quinella", "result", "race_start"})
"""The events of a race itself, broadcast at their furlong; every other event of a race's
tick (the quinella's payouts, the settlement, the next betting) waits for the curtain."""
COMPUTER_NAME = re.compile(r"cpu\s*\d+", re.IGNORECASE)
OWNER_COLOURS = ("vermilion", "white", "black", "teal", "pink", "grey", "orange", "sky",
                 "green", "yellow", "blue", "purple")
"""Each player's racing colours, by seat order (the computers after the seats): first the
six that no horse wears (a horse's die is in its own Okabe-Ito colour), then the horses'
six; light and dark alternate for colour-blind eyes, and the pages name the owner beside
the colour too. A thirteenth player starts the list again."""


def _int(value: object, what: str, low: int = -MAX_AMOUNT, high: int = MAX_AMOUNT) -> int:
    """``value`` as a whole number from ``low`` to ``high``; ``what`` (``bid``, ``stake``,
    ``computers``) names it in the refusal."""
    noun = Message(f"derby.noun.{what}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise refusal(RoomError, "derby.refusal.whole_number", what=noun)
    if not low <= value <= high:
        raise refusal(RoomError, "derby.refusal.from_to", what=noun, low=f"{low:,}",
                      high=f"{high:,}")
    return value


def _rule(name: str) -> Any:
    """The evening's field ``name`` as it is (default, bounds, words)."""
    return copy(EveningOptions.model_fields[name])


def _described(name: str, default: Any, **checks: Any) -> Any:
    """A field of the host's own type and default (a text for an exact number) with the
    evening's description of ``name``."""
    return Field(default=default, description=EveningOptions.model_fields[name].description,
                 **checks)


class HostOptions(GameOptions):
    """What a host chooses when creating a Dice Derby room: the evening's house rules but
    its players (the seats, at the start) and its seed (the room's); ``host_dice`` is the
    evening's ``host``, and the fall rate and margin are short texts such as ``0.05``.
    Every value is checked again by the evening's own model (:meth:`evening`)."""

    game_title: ClassVar[str] = "Dice Derby"
    title_words: ClassVar[str | None] = "derby.title"

    races: int = _described("races", 5, ge=MIN_RACES, le=MAX_RACES, strict=True)
    fall_rate: str = _described("fall_rate", "0")
    host_dice: bool = _rule("host")
    borrowing: bool = _rule("borrowing")
    first_out_bonus: bool = _rule("first_out_bonus")
    simple_odds: bool = _rule("simple_odds")
    margin: str = _described("margin", "0.1")
    owner_award: str = _rule("owner_award")
    start_money: int = _rule("start_money")
    prize_first: int = _rule("prize_first")
    prize_second: int = _rule("prize_second")
    win_limit: int = _rule("win_limit")
    quinella_limit: int = _rule("quinella_limit")

    @field_validator("fall_rate", "margin", "owner_award", mode="before")
    @classmethod
    def _short_text(cls, value: object, info: ValidationInfo) -> object:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            name = str(info.field_name).replace("_", "-")
            raise refusal(OptionsError, "derby.reason.short_text", name=name)
        return value

    def evening(self, seed: int) -> EveningOptions:
        """The evening's rules (placeholder players until the start); :class:`OptionsError`
        names what the evening's model refuses."""
        chosen = {("host" if k == "host_dice" else k): v for k, v in self.model_dump().items()}
        return EveningOptions.parse({**chosen, "seed": seed})


HOST_OPTIONS = frozenset(HostOptions.model_fields)


def host_options(options: Mapping[str, Any], seed: int) -> EveningOptions:
    """The evening's rules from what a host chose: the model's line is the refusal."""
    if not isinstance(options, Mapping):
        raise refusal(RoomError, "derby.refusal.options_object")
    try:
        return HostOptions.parse(options).evening(seed)
    except OptionsError as exc:
        error = RoomError(str(exc))
        error.message = exc.message
        raise error from None


# --- the intents a Derby room reads (checked by the kit before a handler sees one) --------
class StartEvening(Intent):
    """The host starts the evening with ``computers`` computer players."""

    type: Literal["start"]
    computers: int = 0


class CloseBids(Intent):
    type: Literal["close_bids"]


class CloseBetting(Intent):
    type: Literal["close_betting"]


class Enter(Intent):
    """The host types the dice of a round: a number, or ``F``/``X``/null for a fall."""

    type: Literal["enter"]
    values: list[int | str | None]


class Bid(Intent):
    type: Literal["bid"]
    amount: int


class TicketIntent(Intent):
    """A seat buys a ticket: ``kind`` (win, quinella), its horses, its stake."""

    type: Literal["ticket"]
    kind: str
    horses: list[int | str]
    stake: int


class Borrow(Intent):
    type: Literal["borrow"]


class Done(Intent):
    type: Literal["done"]


DERBY_INTENTS = intent_union(*PARTY_INTENTS, StartEvening, CloseBids, CloseBetting, Enter,
                             Bid, TicketIntent, Borrow, Done)


class DerbyRoom(PartyRoom[EveningState]):
    """A Dice Derby evening for a browser room (see the module docstring)."""

    game: ClassVar[str] = "derby"
    GAME: ClassVar[Any] = EVENING
    intents: ClassVar[Intents] = Intents(DERBY_INTENTS)
    Options: ClassVar[type[GameOptions] | None] = HostOptions
    title: ClassVar[str] = "Dice Derby"
    noun: ClassVar[str] = "party"
    max_seats: ClassVar[int] = MAX_SEATS
    min_seats: ClassVar[int] = 0
    default_pace: ClassVar[float] = 1.6  # seconds a furlong, and the finish before results
    WIRE_NAMES: ClassVar[Mapping[str, Mapping[str, str]]] = {"round": {"ending": "kind"}}

    def __init__(self, options: GameOptions, names: list[str] | None = None,
                 lobby_options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options, names, lobby_options)
        assert isinstance(options, EveningOptions)
        self.options: EveningOptions = options
        # a learner's evening: the deciding seat's phone is shown a hint (see the module)
        self.hints = self.lobby_options.get(HINTS) is True

    # --- creating ------------------------------------------------------------------------
    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> DerbyRoom:
        if not isinstance(options, Mapping):
            raise refusal(RoomError, "derby.refusal.options_object")
        hints = options.get(HINTS, False)
        if not isinstance(hints, bool):
            raise refusal(RoomError, "refusal.hints_switch")
        rules = {k: v for k, v in options.items() if k != HINTS}
        return cls(host_options(rules, seed), [], {**rules, **({HINTS: True} if hints else {})})

    @classmethod
    def migrate(cls, old: Mapping[str, Any]) -> JSON:
        """A room saved by the party server before the evening and the kit (format 1: the
        ledger, the human seats' sealed bids, who was done betting, the race apart)."""
        if old.get("format") != 1:
            return super().migrate(old)
        names = [str(n) for n in old["names"]]
        rules = {k: v for k, v in dict(old["config"]).items() if k != "players"}
        state: EveningState | None = None
        if old["session"] is None:
            options = EveningOptions.parse(rules)
        else:
            session = Session.from_json(old["session"])
            options = session.config
            state = EveningState.from_session(session, race=old["race"], rounds=old["rounds"],
                                              last=old["last"])
            state.bids = {int(s): int(b) for s, b in old["bids"]}
            state.done = {int(s) for s in old["done"]}
            if session.phase == PHASE_BETTING and int(old["bets_race"]) == session.race:
                state.done |= {i for i, p in enumerate(session.players) if p.is_computer}
        return {"kit": KIT_FORMAT, "game": cls.game, "options": options.to_json(),
                "names": names, "lobby_options": {}, "undo": [], "recent": [],
                "abandoned": False, "state": None if state is None else state.to_json()}

    # --- seats and start -----------------------------------------------------------------
    def add_seat(self, name: str) -> int:
        if self.state is None and COMPUTER_NAME.fullmatch(name):
            raise refusal(RoomError, "derby.refusal.computer_name", name=repr(name))
        return super().add_seat(name)

    def _human(self, player: int) -> bool:
        """A person plays ``player`` (a seat no computer stands in for)."""
        return player < len(self.names) and player not in self.stand_ins

    def stand_in_levels(self) -> tuple[str, ...]:
        """A person's seat is played in the cautious style (see ``agents.style_of``)."""
        return ("cautious",)

    def thinks(self) -> bool:
        """Whether an intent now may make a computer player choose (a bid, its tickets):
        once the evening has computer seats, or in the lobby (the start may add some). The
        server applies such intents off its event loop; the others are cheap."""
        return self.state is None or self.state.num_players > len(self.names) \
            or bool(self.stand_ins)

    def phase(self) -> str:
        if self.state is None:
            return "lobby"
        if self.curtain is not None:
            return PHASE_RACING  # the finish is on the screens; the results wait
        return "finished" if self.finished() else self.state.phase

    def handlers(self, actor: Actor) -> dict[str, Handler]:
        if actor.kind == "host":  # with the timeline's pace, pause, resume, skip and again
            return {**super().handlers(actor), "start": self._start_evening,
                    "close_bids": self._close_bids, "close_betting": self._close_betting,
                    "enter": self._enter}
        if actor.kind == "timeline":
            return super().handlers(actor)
        return {"bid": self._bid, "ticket": self._ticket, "borrow": self._borrow,
                "done": self._done}

    def start_again(self, rng: np.random.Generator, events: list[JSON]) -> None:
        """The same seats and as many computers as before, a new evening."""
        computers = self.state.num_players - len(self.names) if self.state is not None else 0
        self.state = None
        self.undo, self.recent, self.held = [], [], []
        self.curtain = None
        self.abandoned = False
        self.paused = False
        events.append({"type": "again"})
        self._start_evening(Actor.host(), StartEvening(type="start", computers=computers), rng,
                            events)

    def _start_evening(self, actor: Actor, intent: StartEvening,
                       rng: np.random.Generator, events: list[JSON]) -> None:
        if self.state is not None:
            raise refusal(RoomError, "derby.refusal.already_started")
        computers = _int(intent.computers, "computers", 0,
                         MAX_SEATS - len(self.names))
        if not self.names and not computers:
            raise refusal(RoomError, "derby.refusal.nobody")
        roster = [(n, "human") for n in self.names]
        roster += [(f"CPU {k + 1}", ("cautious", "bold")[k % 2]) for k in range(computers)]
        self.options = self.options.with_players(roster)
        self.state = EVENING.new_state(self.options)
        events.append({"type": "started", "players": [n for n, _ in roster],
                       "computers": computers})
        self._settle(rng, events)

    def check_start(self) -> None:  # the kit's start is replaced by _start_evening
        raise refusal(RoomError, "derby.refusal.start_with_computers")

    # --- applying ----------------------------------------------------------------------------
    def _evening(self, *phases: str) -> EveningState:
        state = self._playing()
        wanted = [Message(f"derby.during.{p}") for p in phases]
        either = {"wanted": wanted[0], "other": wanted[-1]}
        key = "derby.refusal.only_during" + ("_either" if len(phases) > 1 else "")
        if self.curtain is not None and PHASE_RACING not in phases:
            raise refusal(RoomError, key, **either, now=Message("derby.during.results"))
        if state.phase not in phases:
            raise refusal(RoomError, key, **either, now=Message(f"derby.during.{state.phase}"))
        return state

    def _seat_evening(self, actor: Actor, *phases: str) -> tuple[EveningState, int]:
        """The evening, in one of ``phases``, and the seat of ``actor`` (seat intents come
        only from seats)."""
        state = self._evening(*phases)
        assert actor.seat is not None
        return state, actor.seat

    def _act_for(self, player: int, action: int, events: list[JSON]) -> None:
        """Apply ``player``'s action; the engine's refusal as the room's."""
        state = self.state
        assert state is not None
        try:
            produced = state.apply_action_for(player, action)
        except IllegalActionError as exc:
            raise self._refused(exc) from None
        self._tell_acts(player, produced, events)

    @staticmethod
    def _refused(exc: IllegalActionError) -> RoomError:
        """The engine's refusal as the room's, in every language."""
        error = RoomError(exc.reason)
        error.message = exc.message
        return error

    def _tell_acts(self, player: int, produced: list[Event], events: list[JSON]) -> None:
        """The events of ``player``'s action; those a computer's choice makes by itself
        (its sealed bid, its 'done') are not news, as they never were on the screens."""
        for e in produced:
            if e.kind in ("bid_sealed", "done_betting") and not self._human(player):
                continue
            self._record(self.event_json(e), events)

    def waits_for_host(self, state: EveningState) -> bool:
        """The race waits for the host's real dice (typed in: ``enter``)."""
        return state.phase == PHASE_RACING and state.race is not None and self.options.host

    def paces(self, state: EveningState) -> bool:
        """The race's dice are the timeline's."""
        return state.phase == PHASE_RACING

    def told_at_once(self, event: Event) -> bool:
        """A race's own events go out at their furlong; the rest waits for the results."""
        return event.kind in RACE_KINDS

    def paced_step(self, state: EveningState, rng: np.random.Generator,
                   events: list[JSON]) -> None:
        """One tick: the race's next furlong (every die still running, one after another,
        until the round is decided); the kit's curtain holds the results of the last."""
        before = state.clone()
        produced: list[Event] = []
        for _ in range(len(POSTS) + 1):
            draw = state.sample_chance(rng)
            new = state.apply_action(draw.outcome, draw.detail)
            produced.extend(new)
            if state.phase != PHASE_RACING or any(e.kind in ("round", "reroll") for e in new):
                break
        self._race_news(produced, before, events)

    def _race_news(self, produced: list[Event], before: EveningState,
                   events: list[JSON]) -> None:
        """Tell a furlong's events; when the race is over, the curtain keeps the screens on
        the evening ``before`` it until the next tick."""
        state = self.state
        assert state is not None
        self.tell(produced, events, before if state.phase != PHASE_RACING else None)

    def settle_step(self, state: EveningState, rng: np.random.Generator,
                    events: list[JSON]) -> bool:
        """A computer's move: its sealed bid once every person has sealed, or all its
        tickets and 'done' as betting opens. False when a person must act."""
        acting = state.acting_players()
        computers = [i for i in acting if not self._human(i)]
        if not computers:
            return False
        player = computers[0]
        if state.phase == PHASE_AUCTION and any(self._human(i) for i in acting):
            return False
        for _, produced in computer_turn(state, player, Computer(player), rng):
            self._tell_acts(player, produced, events)
        return True

    def _then(self, rng: np.random.Generator, events: list[JSON]) -> None:
        self._settle(rng, events)

    # host intents
    def _close_bids(self, actor: Actor, intent: Intent, rng: np.random.Generator,
                    events: list[JSON]) -> None:
        state = self._evening(PHASE_AUCTION)
        post = state.ledger.next_lot
        quiet: list[JSON] = []  # the absent bidders' nothing is not news
        for i in [i for i in state.acting_players() if self._human(i)]:
            self._act_for(i, state.bid_action(i, 0), quiet)
        assert post is not None
        events.append({"type": "bids_closed", "post": post, "horse": horse_name(post)})
        events.extend(e for e in quiet if e["type"] != "bid_sealed")
        self._then(rng, events)

    def _close_betting(self, actor: Actor, intent: Intent,
                       rng: np.random.Generator, events: list[JSON]) -> None:
        state = self._evening(PHASE_BETTING)
        for i in [i for i in state.acting_players() if self._human(i)]:
            quiet: list[JSON] = []
            self._act_for(i, DONE, quiet)
            events.extend(e for e in quiet if e["type"] != "done_betting")
        self._then(rng, events)

    def _enter(self, actor: Actor, intent: Enter, rng: np.random.Generator,
               events: list[JSON]) -> None:
        state = self._evening(PHASE_RACING)
        if not self.options.host:
            raise refusal(RoomError, "derby.refusal.server_dice")
        race = state.race
        assert race is not None
        before = state.clone()
        try:  # the evening checks the round: all or nothing
            produced = state.enter_rolls(intent.values)
        except IllegalActionError as exc:
            raise self._refused(exc) from None
        self._race_news(produced, before, events)
        self._then(rng, events)

    # seat intents
    def _bid(self, actor: Actor, intent: Bid, rng: np.random.Generator,
             events: list[JSON]) -> None:
        state, seat = self._seat_evening(actor, PHASE_AUCTION)
        horse = state.ledger.players[seat].horse
        if horse is not None:
            raise refusal(RoomError, "derby.refusal.you_own", horse=horse_name(horse))
        amount = _int(intent.amount, "bid")
        self._act_for(seat, state.bid_action(seat, amount), events)
        self._then(rng, events)

    def _ticket(self, actor: Actor, intent: TicketIntent, rng: np.random.Generator,
                events: list[JSON]) -> None:
        state, seat = self._seat_evening(actor, PHASE_BETTING)
        if seat in state.done:
            raise refusal(RoomError, "derby.refusal.said_done")
        kind = intent.kind
        if kind not in ("win", "quinella"):
            raise refusal(RoomError, "derby.refusal.ticket_kind")
        raw = intent.horses
        if not 1 <= len(raw) <= 2:
            raise refusal(RoomError, "derby.refusal.name_horses")
        horses = []
        for h in raw:
            if len(str(h)) > 4:
                raise refusal(RoomError, "derby.refusal.no_horse", horse=repr(h))
            horses.append(parse_horse(str(h)))
        stake = _int(intent.stake, "stake")
        self._act_for(seat, state.ticket_action(seat, kind, horses, stake), events)

    def _borrow(self, actor: Actor, intent: Intent, rng: np.random.Generator,
                events: list[JSON]) -> None:
        state, seat = self._seat_evening(actor, PHASE_AUCTION, PHASE_BETTING)
        action = state.borrow_action(seat)
        if seat not in state.acting_players():
            raise refusal(RoomError, "derby.refusal.borrow_when")
        self._act_for(seat, action, events)

    def _done(self, actor: Actor, intent: Intent, rng: np.random.Generator,
              events: list[JSON]) -> None:
        state, seat = self._seat_evening(actor, PHASE_BETTING)
        if seat in state.done:
            raise refusal(RoomError, "derby.refusal.already_done")
        self._act_for(seat, DONE, events)
        self._then(rng, events)

    # --- the finale ----------------------------------------------------------------------------
    def player_card(self, player: int) -> JSON:
        """A player by the evening's name (computers' too); a person's phone by its seat."""
        state = self.state
        name = state.ledger.players[player].name if state is not None else f"{player + 1}"
        return {"name": name, "seat": player if self._human(player) else None, "who": None}

    def podium(self, state: EveningState) -> list[JSON]:
        """The top three of the final standings, each with the money they end with."""
        return [{"place": s["rank"], **self.player_card(s["player"]),
                 "detail": Message("derby.finale.net", {"amount": f"{s['net']:,}"}).to_json()}
                for s in state.standings() if s["rank"] <= 3]

    def awards(self, state: EveningState) -> list[JSON]:
        """The evening's awards (:meth:`EveningState.awards`) in the finale's shape, amounts
        written with thousands separators as the tables show money; a tie names everyone
        sharing it (``players``, ``name`` joined) and its detail says it is a tie."""
        out: list[JSON] = []
        for fact in state.awards():
            winners: list[dict[str, Any]] = fact["winners"]
            first, tie = winners[0], len(winners) > 1
            horses = ", ".join(horse_name(w["post"]) for w in winners if "post" in w)
            if fact["award"] == "biggest":
                title = Message("derby.finale.biggest")
                detail = (Message("derby.finale.biggest_tied", {"amount": f"{first['amount']:,}"})
                          if tie else Message("derby.finale.biggest_detail", {
                              "amount": f"{first['amount']:,}", "race": first["race"],
                              "what": what_words(first["what"])}))
            elif fact["award"] == "top_bid":
                title = Message("derby.finale.top_bid")
                detail = Message("derby.finale.top_bid_tied" if tie else
                                 "derby.finale.top_bid_detail",
                                 {"horse": horses, "price": f"{first['price']:,}"})
            elif fact["award"] == "luckiest":
                title = Message("derby.finale.luckiest")
                key = ("derby.finale.luckiest_tied" if tie else
                       "derby.finale.luckiest_detail" if first["owner"] is not None
                       else "derby.finale.wins")
                detail = Message(key, {"horse": horses, "n": first["wins"]})
            else:
                title = Message("derby.finale.owner", {"by": Message(f"derby.award_{fact['by']}")})
                detail = Message("derby.finale.owner_detail",
                                 {"amount": f"{first['score']:,}"})
            cards: list[JSON] = []
            for w in winners:
                card = self._award_card(w)
                if card not in cards:  # one player's two equal tickets name them once
                    cards.append(card)
            out.append({"title": title.to_json(), **cards[0],
                        "name": " & ".join(str(c["name"]) for c in cards),
                        "players": cards, "detail": detail.to_json()})
        return out

    def _award_card(self, winner: Mapping[str, Any]) -> JSON:
        """Who a winner of an award is: a player, or a horse the house kept."""
        if "player" in winner:
            return self.player_card(winner["player"])
        if winner["owner"] is not None:
            return self.player_card(winner["owner"])
        horse = horse_name(winner["post"])
        return {"name": horse, "seat": None,
                "who": Message("derby.finale.house_horse", {"horse": horse}).to_json()}

    # --- views: the shape the Derby pages read, from the state's observations ---------------
    def public_view(self) -> JSON:
        """What every screen sees (the host's and a spectator's whole view): while the
        curtain is drawn, the evening as it stood before the finish, with the finish on the
        track."""
        state = self.on_screens()
        out: JSON = {"game": self.game, "phase": self.phase(),
                     "config": rules_view(self.options), "seats": list(self.names),
                     "max_seats": MAX_SEATS, **self.stand_in_view()}
        if state is None or self.state is None:
            return out
        seen = state.observation(None)
        players = [{**p, "sealed": p["sealed"] and self._human(p["index"]),
                    "done": p["done"] or not self._human(p["index"]),
                    "colour": OWNER_COLOURS[p["index"] % len(OWNER_COLOURS)]}
                   for p in seen["players"]]
        auction = seen["auction"]
        if auction is not None:
            auction = {**auction, "waiting": [i for i in auction["waiting"] if self._human(i)],
                       "chance": self._chance(seen, auction["horse"])}
        live = seen["live"]
        if self.curtain is not None:
            live = self._finish_frame(self.state)
        elif live is not None:
            live = {**live, "finished": False, "photo": None}
        out.update({k: seen[k] for k in ("race", "races", "horses", "board", "lots", "last",
                                         "standings", "award")})
        out.update(players=players, auction=auction, live=live,
                   timeline=self.timeline_view(), finale=self.finale())
        return out

    @staticmethod
    def _chance(seen: Mapping[str, Any], horse: str) -> float | None:
        """The exact chance (from the odds engine, in the view) that ``horse`` wins a race."""
        return next((h["chance"] for h in seen["horses"] if h["name"] == horse), None)

    @staticmethod
    def _finish_frame(state: EveningState) -> JSON:
        """The track at the finish of the race just run, from the evening's facts: every
        horse's furlongs and place, the last round's dice, and a photo-finish if close."""
        last = state.last
        assert last is not None
        rounds = list(state.rounds)
        final = rounds[-1] if rounds else None
        return {"round": final["round"] if final else 0,
                "rolloff": bool(final and final["rolloff"]), "for_place": 1,
                "group": [], "to_roll": [], "next": None, "next_faces": None,
                "next_owner": None, "next_owner_name": None, "rolls": {},
                "places": dict(last["places"]), "furlongs": dict(last["furlongs"]),
                "rounds": rounds, "finished": True, "photo": photo_finish(rounds)}

    def private_view(self, actor: Actor) -> JSON | None:
        """What only ``actor`` sees, added to the public view as ``me`` (None: nothing);
        while the curtain is drawn, as it stood before the finish."""
        if actor.kind != "seat" or actor.seat is None:
            return None
        seat = actor.seat
        state = self.on_screens()
        if state is None or seat >= state.num_players:
            return {"seat": seat, "name": self.names[seat] if seat < len(self.names) else ""}
        me: JSON = state.own_view(seat)
        me["my_turn"] = False  # the server throws every die
        hint = self._hint(state, seat, me)
        if hint is not None:  # left out otherwise: an evening without hints looks as before
            me["hint"] = hint
        return me

    def _hint(self, state: EveningState, seat: int, me: Mapping[str, Any]) -> JSON | None:
        """The hint for ``seat``'s person at their decision (hints on): the lot's bid while
        they may bid, the best-value ticket while they may buy; else None."""
        if not self.hints or not self._human(seat) or self.finished() \
                or seat not in state.acting_players():
            return None
        lot = state.ledger.next_lot
        if me["may_bid"] and lot is not None:
            return bid_hint(state.ledger, lot).to_json()
        if me["may_bet"]:
            return ticket_hint(state.ledger).to_json()
        return None


def photo_finish(rounds: list[JSON]) -> JSON | None:
    """The photo-finish of a race whose winner was decided by one pip or a tie (the last
    two horses of the race proper, both standing): ``{"horses": [winner, second], "rolls":
    {...}, "margin": n}``; None for a clear win."""
    for r in reversed(rounds):
        if r["rolloff"]:
            continue
        rolls = r["rolls"]
        if r["kind"] != "drop" or len(rolls) != 2:
            return None
        (a, va), (b, vb) = rolls.items()
        if va is None or vb is None or abs(va - vb) > 1:
            return None
        out = r["out"][0]
        winner = b if out == a else a
        return {"horses": [winner, out], "rolls": dict(rolls), "margin": abs(va - vb)}
    return None


LOGIC = DerbyRoom

__all__ = ["HOST_OPTIONS", "LOGIC", "MAX_SEATS", "OWNER_COLOURS", "DerbyRoom", "HostOptions",
           "host_options", "photo_finish"]
