"""A KEIRIN betting night in a browser room: ``raceday keirin play``, on phones and a big screen.

The night is the game's own state (:class:`~raceday.games.keirin.night.NightState`): it
checks every ticket, takes the stakes when betting closes, runs the race as chance nodes
and pays it. This module turns intents into the night's actions, draws the race's chance
with the room's generator one step at a time when the host screen asks, and builds each
screen's view from the night's ``observation`` (a phone's ``me`` is its own
``observation(seat)``; nothing here filters a secret). It is a room kit
:class:`~raceday.rooms.PartyRoom`: the kit owns the lobby, the seats, the dispatch and its
error mapping and the save format (rooms saved before go through :meth:`KeirinRoom.migrate`).

Flow:

* **lobby** — players join by name; the host starts the night (at least one player).
* **betting** — each phone buys secret tickets (``ticket``: all five bet types), may take
  one back (``cancel``) and says ``done``. When every player is done, or the host
  ``close_betting``, betting closes and the race starts. The host may instead ``finish``
  the night (the open tickets are withdrawn, no money moves).
* **racing** — the server plays the race one step at a time, at the host's pace (the
  room's timeline, see :mod:`raceday.rooms.base`; every screen sees each step at the same
  moment, with no page driving it): the derny's roll and the line-up first, then one turn
  of throws (or one photo-finish) per step, as the terminal shows it. The host may pause,
  resume, change the pace, play the next step now (``advance``) or skip to the finish.
* **the finish, then the payout** — the step in which the last rider crosses the line is
  the *finish*: every screen sees the riders on the line and the order, and nothing else.
  The night takes that step and settles, but the room kit's curtain
  (:meth:`~raceday.rooms.PartyRoom.tell`) keeps every view on the night as it stood, with
  the race at its finish: no payout, purse or standing moves on a screen. One pace later
  the timeline's next tick tells the settlement — every ticket's return, the purses, the
  standings — and the next race's betting opens, or after the last race the night ends
  with the standings. So no phone learns what it won before the big screen has shown the
  finish: nothing reaches a phone early enough to spoil the race for the room.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from copy import copy
from typing import Any, ClassVar, Literal, Self

import numpy as np
from pydantic import Field, field_validator

from raceday.core.events import Event, Message
from raceday.core.game import GameOptions
from raceday.core.protocol import HOST
from raceday.games.keirin.agents import LEVELS, PASS, Computer, computer_turn
from raceday.games.keirin.betting import KINDS, format_money
from raceday.games.keirin.hint import ticket_hint
from raceday.games.keirin.logged import current_shape
from raceday.games.keirin.night import (
    CLOSE_BETTING,
    DONE,
    END_NIGHT,
    LAP,
    NIGHT,
    PHASE_OVER,
    PHASE_RACE,
    PHASE_TICKETS,
    SETTLEMENT_EVENTS,
    NightOptions,
    NightState,
    odds_board,
)
from raceday.games.keirin.rules import PHASE_PHOTO
from raceday.games.keirin.saved_night import night_document_from_v1
from raceday.present import refusal
from raceday.rooms import JSON, KIT_FORMAT, Actor, PartyRoom, RoomError
from raceday.rooms.base import Handler
from raceday.rooms.intents import PARTY_INTENTS, Intent, Intents, intent_union

FORMAT = 2  # 1: the room kept a terminal session document and its own tickets
MAX_SEATS = 12
MAX_TICKETS = 30  # tickets one phone may hold on one race
MAX_TEXT = 80  # characters of a typed ticket
STEP_BOUND = 5_000  # chance steps in one ``advance`` (a photo-finish may repeat)
PHASE_LOBBY = "lobby"
PHASE_BETTING = "betting"
PHASE_RACING = "racing"
PHASE_FINISHED = "finished"
ROOM_PHASES = {PHASE_TICKETS: PHASE_BETTING, PHASE_RACE: PHASE_RACING,
               PHASE_OVER: PHASE_FINISHED}

MAX_ROOM_RACES = 12
COMPUTER_NAME = re.compile(r"CPU \d+", re.IGNORECASE)  # the computers' names


def computer_names(count: int) -> list[str]:
    """The names of ``count`` computer bettors: CPU 1, CPU 2, ..."""
    return [f"CPU {k + 1}" for k in range(count)]


def computer_level(k: int) -> str:
    """The level of the room's ``k``-th computer (from 0): cautious, sharp, cautious, ..."""
    return LEVELS[k % len(LEVELS)]
MAX_PURSE = 100_000_000  # whole money units


def _rule(name: str) -> Any:
    """The night's field ``name`` as it is (default, bounds, words)."""
    return copy(NightOptions.model_fields[name])


class RoomOptions(GameOptions):
    """What a host chooses when creating a KEIRIN room: the night's races, riders, finish,
    betting and purse (in whole money units; the night counts cents). The players are the
    phones that join; every value is checked again by the night's own model."""

    game_title: ClassVar[str] = "KEIRIN"
    title_words: ClassVar[str | None] = "keirin.title"

    races: int = Field(default=3, ge=1, le=MAX_ROOM_RACES, strict=True,
                       description=f"Races in the night, 1 to {MAX_ROOM_RACES}.")
    riders: int = _rule("riders")
    length: int = _rule("length")
    mode: Literal["fixed", "pool"] = _rule("mode")
    margin: float = Field(default=0.0, ge=0.0, lt=1.0, strict=True,
                          description=NightOptions.model_fields["margin"].description)
    bankroll: int = Field(default=10_000, ge=1, le=MAX_PURSE, strict=True,
                          description=f"Each player's starting purse, 1 to {MAX_PURSE:,}.")

    @field_validator("margin", mode="before")
    @classmethod
    def _a_number(cls, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value)  # 0 is a margin too (strict decimals refuse a whole 0)
        return value


def night_options(config: Mapping[str, Any], names: list[str]) -> NightOptions:
    """The night of a room's options (the host's, checked with :class:`RoomOptions`), with
    its players."""
    checked = RoomOptions.parse(config)
    return NightOptions.parse({
        "players": names, "riders": checked.riders, "length": checked.length,
        "races": checked.races, "bankroll": checked.bankroll * 100, "mode": checked.mode,
        "margin": checked.margin, "max_tickets": MAX_TICKETS})


def room_config(options: NightOptions) -> JSON:
    """The room's options as the host chose them (purse in whole money units)."""
    return {"races": options.races, "riders": options.riders, "length": options.length,
            "mode": options.mode, "margin": options.margin,
            "bankroll": options.bankroll // 100}


# --- the intents a KEIRIN room reads (checked by the kit before a handler sees one) -------
class StartNight(Intent):
    """The host starts the night with ``computers`` computer bettors besides the phones."""

    type: Literal["start"]
    computers: int = 0


class CloseBetting(Intent):
    type: Literal["close_betting"]


class TicketIntent(Intent):
    """A seat buys a ticket: typed in the terminal's grammar (``text``) or chosen
    (``kind``, ``riders``, ``stake``)."""

    type: Literal["ticket"]
    text: str | None = None
    kind: str | None = None
    riders: list[int] | None = None
    stake: int | str | None = None


class Cancel(Intent):
    """A seat takes back a ticket (its last one unless ``index`` says which)."""

    type: Literal["cancel"]
    index: int | None = None


class Done(Intent):
    type: Literal["done"]


KEIRIN_INTENTS = intent_union(*PARTY_INTENTS, StartNight, CloseBetting, TicketIntent, Cancel,
                              Done)


class KeirinRoom(PartyRoom[NightState]):
    """A KEIRIN betting night for a browser room (see the module docstring)."""

    game: ClassVar[str] = "keirin"
    GAME = NIGHT
    title: ClassVar[str] = "KEIRIN"
    noun: ClassVar[str] = "night"
    default_pace: ClassVar[float] = 2.2  # seconds between two steps of a race
    max_seats: ClassVar[int] = MAX_SEATS
    min_seats: ClassVar[int] = 1
    NAMES_OPTION: ClassVar[str] = "players"
    intents: ClassVar[Intents] = Intents(KEIRIN_INTENTS)
    Options: ClassVar[type[GameOptions] | None] = RoomOptions  # what a room is created from

    def __init__(self, options: GameOptions, names: list[str] | None = None,
                 lobby_options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options, names, lobby_options)
        self.step: list[JSON] = []  # the events of the race's last step (throws, commentary)
        self.hints = False  # a learner's night: a phone that may buy is shown a ticket hint
        self._computers = 0  # the computers the start asked for (then: the night's)
        self._agents: dict[int, Computer] = {}  # player -> its computer, made when needed

    @property
    def night(self) -> NightOptions:
        """The night's options (the players are placeholders before the start)."""
        assert isinstance(self.options, NightOptions)
        return self.options

    @classmethod
    def read_options(cls, options: Mapping[str, Any], names: list[str]) -> GameOptions:
        return night_options(options, names)

    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        """The kit's, and the room option ``hints`` (``true``: a learner's night, as the
        lesson's first game creates it; see :meth:`private_view`)."""
        if not isinstance(options, Mapping):
            raise refusal(RoomError, "refusal.options_object")
        hints = options.get("hints", False)
        if not isinstance(hints, bool):
            raise refusal(RoomError, "refusal.hints_switch")
        room = super().create({k: v for k, v in options.items() if k != "hints"}, seed)
        room.hints = hints
        return room

    # --- saving: the kit's format plus the race's last step -----------------------------
    def to_json(self) -> JSON:
        out = {**super().to_json(), "step": list(self.step)}
        if self.hints:  # left out when off: a room saved before hints reads the same
            out["hints"] = True
        return out

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Self:
        room = super().restore(data)
        room.step = [current_shape(e) for e in data["step"]]  # saved before today's facts
        room.hints = data.get("hints", False) is True
        return room

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The kit's; a room saved while it held the finish's last throw back from the
        night (``held``: the throw) loads with the night settled behind the curtain."""
        throw = data.get("held")
        if not isinstance(throw, dict):
            return super().from_json(data)
        room = super().from_json({**data, "held": []})
        night = room.state
        try:
            outcome, detail = int(throw["outcome"]), throw["detail"]
        except (KeyError, TypeError, ValueError):
            raise RoomError(f"malformed {cls.title} room: its held throw") from None
        if night is None or night.race is None:
            raise RoomError(f"malformed {cls.title} room: a held throw with no race")
        step = room.step
        room._race_finish(night, outcome, detail, [], [])
        room.step, room.recent = step, list(data["recent"])  # that step was told
        return room

    @classmethod
    def migrate(cls, old: Mapping[str, Any]) -> JSON:
        """A room saved before the kit: format 2 (the night's state beside the room's
        config) or format 1 (a terminal session document and the room's own tickets)."""
        if old.get("format") not in (1, 2):
            return super().migrate(old)
        config = dict(old["config"])
        names = [str(n) for n in old["names"]]
        night: NightState | None = None
        if old["format"] == 2 and old["night"] is not None:
            night = NIGHT.state_from_json(old["night"])
        elif old["format"] == 1 and old["session"] is not None:
            night = cls._night_of_format_1(old, config)
        options = night.options if night is not None else night_options(
            config, names or ["player 1"])
        return {"kit": KIT_FORMAT, "game": cls.game, "options": options.to_json(),
                "names": names, "lobby_options": config, "undo": [], "recent": [],
                "abandoned": False, "step": list(old["step"]), "held": [],
                "state": None if night is None else night.to_json()}

    @staticmethod
    def _night_of_format_1(old: Mapping[str, Any], config: Mapping[str, Any]) -> NightState:
        """The night of a format-1 room: its session, open or locked tickets, the race as
        it stood and the last results, read as the night's own save."""
        doc = night_document_from_v1(old["session"], races=config["races"],
                                     max_tickets=MAX_TICKETS,
                                     bankroll=config["bankroll"] * 100)
        doc.update(tickets=list(old["tickets"]), done=sorted(int(s) for s in old["done"]),
                   last=old["last"], returns=[[int(seat), list(r)] for seat, r in old["returns"]])
        if old["race"] is not None:
            doc["race"] = old["race"]
        if old["over"]:
            doc.update(phase=PHASE_OVER, race=None, tickets=[])
        return NIGHT.state_from_json(doc)

    # --- phases and start ---------------------------------------------------------------
    def phase(self) -> str:
        shown = self.on_screens()
        return PHASE_LOBBY if shown is None else ROOM_PHASES[shown.phase]

    def check_start(self) -> None:
        if not self.names:
            raise refusal(RoomError, "keirin.refusal.nobody_joined")
        super().check_start()
        if self._computers:
            self.options = self.read_options(self.lobby_options,
                                             [*self.names, *computer_names(self._computers)])

    def add_seat(self, name: str) -> int:
        """The kit's; a person's name may not be a computer's (CPU 1, ...)."""
        if self.state is None and COMPUTER_NAME.fullmatch(name.strip()):
            raise refusal(RoomError, "keirin.refusal.computer_name", name=repr(name))
        return super().add_seat(name)

    def _start(self, actor: Actor, intent: Intent, rng: np.random.Generator,
               events: list[JSON]) -> None:
        if isinstance(intent, StartNight):  # the kit's start again keeps the computers
            if self.state is None and not 0 <= intent.computers <= MAX_SEATS - len(self.names):
                raise refusal(RoomError, "keirin.refusal.computers_range",
                              max=MAX_SEATS - len(self.names))
            self._computers = intent.computers
        self._agents = {}
        super()._start(actor, intent, rng, events)
        events.append({"type": "betting_open", "race": 1, "races": self.night.races})

    def start_again(self, rng: np.random.Generator, events: list[JSON]) -> None:
        """Another night with the same seats, computers and options (the kit's), the race's
        last step forgotten."""
        self.step = []
        self._computers = self.computer_count()
        super().start_again(rng, events)

    # --- computers ----------------------------------------------------------------------
    def computer_count(self) -> int:
        """The night's computer bettors (players after the seats), or those the start
        asked for before it."""
        state = self.state
        return self._computers if state is None else state.num_players - len(self.names)

    def computers_view(self) -> list[JSON]:
        """Each computer bettor: its player number, name and level."""
        state = self.on_screens()
        if state is None:
            return []
        seats = len(self.names)
        return [{"player": p, "name": state.names[p], "level": computer_level(p - seats)}
                for p in range(seats, state.num_players)]

    def _computer(self, player: int, level: str) -> Computer:
        agent = self._agents.get(player)
        if agent is None or agent.level != level:
            agent = self._agents[player] = Computer(level, player)
        return agent

    def _computer_turn(self, state: NightState, player: int, level: str,
                       rng: np.random.Generator, events: list[JSON]) -> None:
        """``player``'s whole betting turn, played by its computer at ``level``."""
        for _, produced in computer_turn(state, player, self._computer(player, level), rng):
            self._night_events(produced, events)
        if state.phase == PHASE_RACE:
            self.step = []

    def settle_step(self, state: NightState, rng: np.random.Generator,
                    events: list[JSON]) -> bool:
        """A computer bettor buys its tickets and is done as betting opens (the seats'
        stand-ins through the kit's)."""
        seats = len(self.names)
        for player in state.acting_players():
            if player >= seats:
                self._computer_turn(state, player, computer_level(player - seats), rng, events)
                return True
        return super().settle_step(state, rng, events)

    def player_card(self, player: int) -> JSON:
        """A seat's (the kit's), or a computer bettor's by its name."""
        state = self.state
        if player >= len(self.names) and state is not None and player < state.num_players:
            return {"name": state.names[player], "seat": None, "who": None}
        return super().player_card(player)

    def podium(self, state: NightState) -> list[JSON]:
        """The kit's podium (players by purse), each with the purse they ended with."""
        out = super().podium(state)
        for place in out:
            seat = place.get("seat")
            if isinstance(seat, int) and 0 <= seat < len(state.accounts):
                place["detail"] = Message("keirin.award.money", {
                    "amount": format_money(state.accounts[seat].bankroll)}).to_json()
        return out

    def awards(self, state: NightState) -> list[JSON]:
        """The night's awards (:meth:`NightState.awards`) in the finale's shape; a tie names
        every player sharing it (``players``, ``name`` joined) and says so in its detail."""
        out: list[JSON] = []
        for fact in state.awards():
            players: list[int] = fact["players"]
            tie = len(players) > 1
            if fact["award"] == "sharpest":
                detail = (Message("keirin.award.hits_each", {"won": fact["value"]}) if tie else
                          Message("keirin.award.hits", {"won": fact["value"],
                                                        "n": fact["tickets"][0]}))
            else:
                detail = Message("keirin.award.money_each" if tie else "keirin.award.money",
                                 {"amount": format_money(fact["value"])})
            cards = [self.player_card(p) for p in players]
            out.append({"title": Message(f"keirin.award.{fact['award']}").to_json(),
                        **cards[0], "name": " & ".join(c["name"] for c in cards),
                        "players": cards, "detail": detail.to_json()})
        return out

    def started_facts(self) -> JSON:
        """The players' names, which the start's words list."""
        return {"names": list(self.names)}

    def told_at_once(self, event: Event) -> bool:
        """The race's events go out at its finish; the night's settlement a pace later."""
        return event.kind not in SETTLEMENT_EVENTS

    def paces(self, state: NightState) -> bool:
        """The race's steps are the timeline's (the night has chance only in a race)."""
        return state.phase == PHASE_RACE

    def paced_step(self, state: NightState, rng: np.random.Generator,
                   events: list[JSON]) -> None:
        self._race_step(state, rng, events)

    def stand_in_levels(self) -> tuple[str, ...]:
        """A seat whose person left is played by a computer bettor (cautious or sharp,
        see :mod:`raceday.games.keirin.agents`) or passes (buys no ticket and is done
        betting each race) until it is handed back."""
        return (*LEVELS, PASS)

    def stand_in_turn(self, state: NightState, seat: int, level: str,
                      rng: np.random.Generator, events: list[JSON]) -> bool:
        if state.phase != PHASE_TICKETS or seat in state.done:
            return False
        self._computer_turn(state, seat, level, rng, events)
        return True

    def _in(self, *phases: str) -> NightState:
        now = self.phase()
        if now == PHASE_LOBBY:
            raise refusal(RoomError, "keirin.refusal.not_started")
        if now not in phases:
            raise refusal(RoomError, "keirin.refusal.only_during",
                          wanted=Message(f"keirin.refusal.during_{phases[0]}"),
                          now=Message(f"keirin.refusal.now_{now}"))
        assert self.state is not None
        return self.state

    def _night_events(self, produced: list[Event], events: list[JSON]) -> None:
        for e in produced:
            self._record(self.event_json(e), events)

    # --- intents ------------------------------------------------------------------------
    def handlers(self, actor: Actor) -> dict[str, Handler]:
        if actor.kind == "host":  # with the timeline's pace, pause, resume and skip
            return {**super().handlers(actor), "start": self._start,
                    "close_betting": self._close_betting, "advance": self._advance,
                    "finish": self._finish}
        if actor.kind == "timeline":
            return super().handlers(actor)
        return {"ticket": self._ticket, "cancel": self._cancel, "done": self._done}

    def _close_betting(self, actor: Actor, intent: Intent,
                       rng: np.random.Generator, events: list[JSON]) -> None:
        self._night_events(self._in(PHASE_BETTING).apply_action_for(HOST, CLOSE_BETTING),
                           events)
        self.step = []

    def _advance(self, actor: Actor, intent: Intent, rng: np.random.Generator,
                 events: list[JSON]) -> None:
        """The host plays the race's next step now (paused or not), or tells the payout of
        a finish on the screens."""
        self._play_paced(self._in(PHASE_RACING), rng, events)

    def _race_step(self, night: NightState, rng: np.random.Generator,
                   events: list[JSON]) -> None:
        """One step of the race as the terminal shows it: the start (derny, line-up,
        slipstream), a whole turn of throws, or a whole photo-finish. The step that ends
        the race is the finish: the night settles behind the curtain (see the module
        docstring), told at the next tick."""
        race = night.race
        assert race is not None
        produced: list[Event] = []
        for _ in range(STEP_BOUND):
            draw = night.sample_chance(rng)
            probe = race.clone()
            probe.apply_action(draw.outcome, draw.detail)
            if probe.is_terminal():  # the finish: shown now, settled a pace later
                self._race_finish(night, draw.outcome, draw.detail, produced, events)
                return
            new = night.apply_action(draw.outcome, draw.detail)
            produced.extend(new)
            photo_done = race.phase != PHASE_PHOTO and any(e.kind == "photo_throw" for e in new)
            if photo_done or any(e.kind in ("turn", "slipstream") for e in new):
                break
        else:  # pragma: no cover - a photo-finish tied thousands of times in a row
            raise refusal(RoomError, "keirin.refusal.too_many_throws")
        # A race event goes out with its facts, which every screen words from the tables
        # (event.<kind>) in its own language: no page works a fact out of the raw data.
        self.step = [self.event_json(e) for e in produced]
        events.extend(self.step)

    def _race_finish(self, night: NightState, outcome: int, detail: Mapping[str, Any] | None,
                produced: list[Event], events: list[JSON]) -> None:
        """The race's last throw: the night takes it and settles, while the screens see
        the night as it stood with the race at its finish (the kit's curtain)."""
        shown = night.clone()
        assert shown.race is not None
        shown.race.apply_action(outcome, detail)
        produced = [*produced, *night.apply_action(outcome, detail)]
        self.step = self.tell(produced, [], shown)
        events.extend(self.step)

    def _finish(self, actor: Actor, intent: Intent, rng: np.random.Generator,
                events: list[JSON]) -> None:
        """The host ends the night between races: open tickets are withdrawn."""
        self._night_events(self._in(PHASE_BETTING).apply_action_for(HOST, END_NIGHT), events)

    def _betting_seat(self, actor: Actor) -> tuple[NightState, int]:
        night = self._in(PHASE_BETTING)
        assert actor.seat is not None
        if actor.seat in night.done:
            raise refusal(RoomError, "keirin.refusal.done_this_race")
        return night, actor.seat

    def _ticket(self, actor: Actor, intent: TicketIntent, rng: np.random.Generator,
                events: list[JSON]) -> None:
        night, seat = self._betting_seat(actor)
        action = night.ticket_from_text(seat, self._ticket_text(intent))
        self._night_events(night.apply_action_for(seat, action), events)

    @staticmethod
    def _ticket_text(intent: TicketIntent) -> str:
        """The ticket in the terminal's grammar (``exacta 3-4 50``), for the night to parse:
        either typed (``text``) or chosen (``kind``, ``riders``, ``stake``)."""
        text = intent.text
        if text is not None:
            if len(text) > MAX_TEXT or "\n" in text:
                raise refusal(RoomError, "keirin.refusal.typed_line", max=MAX_TEXT)
            return text
        kind = intent.kind
        if kind is None or not kind.isascii() or not kind.isalpha() or \
                len(kind) > 12:
            raise refusal(RoomError, "keirin.refusal.kind_one_of", kinds=", ".join(KINDS))
        riders = intent.riders
        if riders is None or not 1 <= len(riders) <= 3 or any(
                not 0 <= r <= 99 for r in riders):
            raise refusal(RoomError, "keirin.refusal.riders_list")
        stake = intent.stake
        if isinstance(stake, int):
            stake = str(stake)
        if not isinstance(stake, str) or not stake or len(stake) > 20 or \
                any(c.isspace() for c in stake):
            raise refusal(RoomError, "keirin.refusal.stake_amount")
        return f"{kind} {'-'.join(str(r) for r in riders)} {stake}"

    def _cancel(self, actor: Actor, intent: Cancel, rng: np.random.Generator,
                events: list[JSON]) -> None:
        night, seat = self._betting_seat(actor)
        held = len(night.observation(seat)["me"]["tickets"])
        if not held:
            raise refusal(RoomError, "keirin.refusal.no_ticket")
        index = held - 1 if intent.index is None else intent.index
        if not 0 <= index < held:
            raise refusal(RoomError, "keirin.refusal.ticket_number_range", last=held - 1)
        self._night_events(night.apply_action_for(seat, night.cancel_action(index)), events)

    def _done(self, actor: Actor, intent: Intent, rng: np.random.Generator,
              events: list[JSON]) -> None:
        night = self._in(PHASE_BETTING)
        assert actor.seat is not None
        if actor.seat in night.done:
            raise refusal(RoomError, "keirin.refusal.already_done")
        self._night_events(night.apply_action_for(actor.seat, DONE), events)
        if night.phase == PHASE_RACE:
            self.step = []

    # --- views: the shape the KEIRIN pages read, from the night's observations ----------
    def board(self) -> JSON:
        """The odds board of this room's options (see :func:`odds_board`)."""
        o = self.night
        return odds_board(o.riders, o.length, None, o.mode, o.margin)

    def public_view(self) -> JSON:
        """What the host screen and the spectators see: ``observation(None)``."""
        config = room_config(self.night)
        out: JSON = {"game": self.game, "phase": self.phase(), "seats": list(self.names),
                     "max_seats": MAX_SEATS,
                     "config": {**config, "bankroll_cents": self.night.bankroll, "lap": LAP,
                                "kinds": {k: {"riders": n, "ordered": o}
                                          for k, (n, o) in KINDS.items()}}}
        out.update(self.stand_in_view())
        out["computers"] = self.computers_view()
        out["hints"] = self.hints
        night = self.on_screens()  # at a finish: the race over, the night not yet settled
        if night is not None:
            seen = night.observation(None)
            del seen["phase"]
            if seen["live"] is not None:
                seen["live"]["step"] = self.step
            out.update(seen)
            if self.phase() in (PHASE_BETTING, PHASE_RACING):
                out["board"] = self.board()  # pool mode: fair chances as a guide, no odds
            out["timeline"] = self.timeline_view()
            out["finale"] = self.finale()  # the podium and awards once the night is over
        return out

    def private_view(self, actor: Actor) -> JSON | None:
        """A phone's own part (``me``): its ``observation(seat)``'s tickets and purse."""
        seat = actor.seat if actor.kind == "seat" else None
        if seat is None:
            return None
        night = self.on_screens()
        if night is None:
            return {"seat": seat, "name": self.names[seat] if seat < len(self.names) else ""}
        me: JSON | None = night.observation(seat).get("me")
        if me is not None and self.hints and me["may_bet"] and seat not in self.stand_ins:
            me["hint"] = ticket_hint(night)  # public odds only: nothing sealed
        return me


LOGIC = KeirinRoom

__all__ = ["LOGIC", "MAX_SEATS", "KeirinRoom", "RoomOptions"]
