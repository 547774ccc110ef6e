"""A KEIRIN betting night in a browser room: ``raceday keirin bet``, on phones and a big screen.

The night is the game's own state (:class:`~raceday.games.keirin.night.NightState`): it
checks every ticket, takes the stakes when betting closes, runs the race as chance nodes
and pays it. This module turns intents into the night's actions, draws the race's chance
with the room's generator one step at a time when the host screen asks, and builds each
screen's view from the night's ``observation`` (a phone's ``me`` is its own
``observation(seat)``; nothing here filters a secret).

Flow:

* **lobby** — players join by name; the host starts the night (at least one player).
* **betting** — each phone buys secret tickets (``ticket``: all five bet types), may take
  one back (``cancel``) and says ``done``. When every player is done, or the host
  ``close_betting``, betting closes and the race starts. The host may instead ``finish``
  the night (the open tickets are withdrawn, no money moves).
* **racing** — the host screen asks for the race one step at a time (``advance``): the
  derny's roll and the line-up first, then one turn of throws (or one photo-finish) per
  step, as the terminal shows it. When the race is over the night settles it, and the next
  race's betting opens, or after the last race the night ends with the standings.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import copy
from typing import Any, ClassVar, Literal, Self

import numpy as np
from pydantic import Field, field_validator

from raceday.core.errors import RacedayError
from raceday.core.game import GameOptions
from raceday.games.keirin.betting import KINDS
from raceday.games.keirin.night import (
    DONE,
    LAP,
    NIGHT,
    PHASE_OVER,
    PHASE_RACE,
    PHASE_TICKETS,
    NightOptions,
    NightState,
    odds_board,
)
from raceday.games.keirin.rules import PHASE_PHOTO, KeirinState
from raceday.games.keirin.session import night_from_v1
from raceday.rooms import JSON, Actor, RoomError

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
MAX_PURSE = 100_000_000  # whole money units


def _rule(name: str) -> Any:
    """The night's field ``name`` as it is (default, bounds, words)."""
    return copy(NightOptions.model_fields[name])


class RoomOptions(GameOptions):
    """What a host chooses when creating a KEIRIN room: the night's races, riders, finish,
    betting and purse (in whole money units; the night counts cents). The players are the
    phones that join; every value is checked again by the night's own model."""

    game_title: ClassVar[str] = "KEIRIN"

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


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError(f"{what} must be a whole number")
    if not low <= value <= high:
        raise RoomError(f"{what} must be from {low:,} to {high:,}")
    return value


def night_options(config: Mapping[str, Any], names: list[str]) -> NightOptions:
    """The night of a room's options, with its players."""
    try:
        return NightOptions.parse({
            "players": names, "riders": config["riders"], "length": config["length"],
            "races": config["races"], "bankroll": config["bankroll"] * 100,
            "mode": config["mode"], "margin": config["margin"], "max_tickets": MAX_TICKETS})
    except RacedayError as exc:
        raise RoomError(str(exc)) from None


class KeirinRoom:
    """A KEIRIN betting night for a browser room (see the module docstring)."""

    game: ClassVar[str] = "keirin"
    max_seats: ClassVar[int] = MAX_SEATS
    Options: ClassVar[type[GameOptions]] = RoomOptions  # what a room is created from

    def __init__(self, config: JSON, seed: int, names: list[str] | None = None) -> None:
        self.config = config
        self.seed = seed
        self.names: list[str] = list(names or [])
        self.night: NightState | None = None
        self.step: list[JSON] = []  # the events of the race's last step (throws, commentary)

    # --- creating and saving ------------------------------------------------------------
    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        if not isinstance(options, Mapping):
            raise RoomError("options must be an object")
        try:
            config = RoomOptions.parse(options).model_dump()
        except RacedayError as exc:
            raise RoomError(str(exc)) from None
        night_options(config, ["check"])  # the night's own checks
        return cls(config, seed)

    def to_json(self) -> JSON:
        return {"format": FORMAT, "config": dict(self.config), "seed": self.seed,
                "names": list(self.names),
                "night": None if self.night is None else self.night.to_json(),
                "step": self.step}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            if data.get("format") == 1:
                return cls._from_format_1(data)
            if data.get("format") != FORMAT:
                raise RoomError(f"unknown KEIRIN room format {data.get('format')!r}")
            room = cls(dict(data["config"]), int(data["seed"]), [str(n) for n in data["names"]])
            if data["night"] is not None:
                room.night = NIGHT.state_from_json(data["night"])
            room.step = list(data["step"])
        except (KeyError, TypeError, ValueError, AttributeError, RacedayError) as exc:
            if isinstance(exc, RoomError):
                raise
            raise RoomError(f"malformed KEIRIN room: {exc}") from None
        return room

    @classmethod
    def _from_format_1(cls, data: Mapping[str, Any]) -> Self:
        """A room saved before the night was a protocol state: its session document, its
        open or locked tickets, the race as it stood and the last results."""
        from raceday.games.keirin.betting import Ticket

        config = dict(data["config"])
        room = cls(config, int(data["seed"]), [str(n) for n in data["names"]])
        room.step = list(data["step"])
        if data["session"] is None:
            return room
        night = night_from_v1(data["session"], races=config["races"], max_tickets=MAX_TICKETS,
                              bankroll=config["bankroll"] * 100)
        night.tickets = [Ticket.from_json(t) for t in data["tickets"]]
        night.done = {int(s) for s in data["done"]}
        if data["race"] is not None:
            night.race = KeirinState.from_json(data["race"])
        night.last = data["last"]
        night.last_returns = {int(seat): list(r) for seat, r in data["returns"]}
        if data["over"]:
            night.phase, night.race, night.tickets = PHASE_OVER, None, []
        room.night = night
        return room

    # --- seats --------------------------------------------------------------------------
    def seat_names(self) -> list[str]:
        return list(self.names)

    def add_seat(self, name: str) -> int:
        if self.night is not None:
            raise RoomError("the night has started; watch with the spectator link instead")
        if len(self.names) >= MAX_SEATS:
            raise RoomError(f"the room is full ({MAX_SEATS} players)")
        if any(n.lower() == name.lower() for n in self.names):
            raise RoomError(f"someone is already called {name!r}; pick another name")
        self.names.append(name)
        return len(self.names) - 1

    def finished(self) -> bool:
        return self.night is not None and self.night.is_terminal()

    def phase(self) -> str:
        return PHASE_LOBBY if self.night is None else ROOM_PHASES[self.night.phase]

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
            raise RoomError(f"{who} cannot send {kind!r} in KEIRIN")
        events: list[JSON] = []
        try:
            handler(self, actor, intent, rng, events)
        except RoomError:
            raise
        except RacedayError as exc:  # the night's own refusal (a ticket, a stake ...)
            raise RoomError(str(exc)) from None
        return events

    def _in(self, *phases: str) -> NightState:
        now = self.phase()
        if now == PHASE_LOBBY and PHASE_LOBBY not in phases:
            raise RoomError("the night has not started yet")
        if now not in phases:
            what = {PHASE_BETTING: "betting", PHASE_RACING: "a race", PHASE_LOBBY: "the lobby"}
            wanted = " or ".join(what.get(p, p) for p in phases)
            raise RoomError(f"that is only possible during {wanted} (now: {now})")
        assert self.night is not None
        return self.night

    def _record(self, night_events: list[Any], events: list[JSON]) -> None:
        events.extend({"type": e.kind, **e.data} for e in night_events)

    # host intents
    def _start(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
               events: list[JSON]) -> None:
        if self.night is not None:
            raise RoomError("the night has already started")
        if not self.names:
            raise RoomError("nobody has joined yet: wait for the players' phones")
        self.night = NIGHT.new_state(night_options(self.config, self.names))
        events.append({"type": "started", "players": list(self.names)})
        events.append({"type": "betting_open", "race": 1, "races": self.config["races"]})

    def _close_betting(self, actor: Actor, intent: Mapping[str, Any],
                       rng: np.random.Generator, events: list[JSON]) -> None:
        night = self._in(PHASE_BETTING)
        self._record(night.close_betting(), events)
        self.step = []

    def _advance(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                 events: list[JSON]) -> None:
        """One step of the race as the terminal shows it: the start (derny, line-up,
        slipstream), a whole turn of throws, or a whole photo-finish; then the result."""
        night = self._in(PHASE_RACING)
        race = night.race
        assert race is not None
        produced: list[JSON] = []
        after: list[JSON] = []  # the night's own events once the race is over
        for _ in range(STEP_BOUND):
            draw = night.sample_chance(rng)
            new = night.apply_action(draw.outcome, draw.detail)
            ended = night.phase != PHASE_RACE
            for e in new:
                (after if e.kind in ("settled", "finished", "betting_open") else produced
                 ).append({"type": e.kind, **e.data})
            photo_done = race.phase != PHASE_PHOTO and any(e.kind == "photo_throw" for e in new)
            if ended or photo_done or any(e.kind in ("turn", "slipstream", "result")
                                          for e in new):
                break
        else:  # pragma: no cover - a photo-finish tied thousands of times in a row
            raise RoomError("the race took too many throws in one step; try again")
        self.step = produced
        events.extend(produced)
        events.extend(after)

    def _finish(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                events: list[JSON]) -> None:
        self._record(self._in(PHASE_BETTING).finish(), events)

    # seat intents
    def _ticket(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                events: list[JSON]) -> None:
        night = self._in(PHASE_BETTING)
        seat = self._seat(actor)
        if seat in night.done:
            raise RoomError("you said you were done betting on this race")
        action = night.ticket_from_text(seat, self._ticket_text(intent))
        self._record(night.apply_action_for(seat, action), events)

    @staticmethod
    def _ticket_text(intent: Mapping[str, Any]) -> str:
        """The ticket in the terminal's grammar (``exacta 3-4 50``), for the night to parse:
        either typed (``text``) or chosen (``kind``, ``riders``, ``stake``)."""
        text = intent.get("text")
        if text is not None:
            if not isinstance(text, str) or len(text) > MAX_TEXT or "\n" in text:
                raise RoomError(f"a typed ticket is one line of at most {MAX_TEXT} characters")
            return text
        kind = intent.get("kind")
        if not isinstance(kind, str) or not kind.isascii() or not kind.isalpha() or \
                len(kind) > 12:
            raise RoomError(f"a ticket's kind is one of {', '.join(KINDS)}")
        riders = intent.get("riders")
        if not isinstance(riders, list) or not 1 <= len(riders) <= 3 or any(
                isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 99
                for r in riders):
            raise RoomError("a ticket names its riders as a list of 1 to 3 rider numbers")
        stake = intent.get("stake")
        if isinstance(stake, int) and not isinstance(stake, bool):
            stake = str(stake)
        if not isinstance(stake, str) or not stake or len(stake) > 20 or \
                any(c.isspace() for c in stake):
            raise RoomError("a stake is an amount such as 100 or 12.50")
        return f"{kind} {'-'.join(str(r) for r in riders)} {stake}"

    def _cancel(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
                events: list[JSON]) -> None:
        night = self._in(PHASE_BETTING)
        seat = self._seat(actor)
        if seat in night.done:
            raise RoomError("you said you were done betting on this race")
        held = len(night.observation(seat)["me"]["tickets"])
        if not held:
            raise RoomError("you have no ticket to take back")
        index = _int(intent.get("index", held - 1), "the ticket's number", 0, held - 1)
        self._record(night.apply_action_for(seat, night.cancel_action(index)), events)

    def _done(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
              events: list[JSON]) -> None:
        night = self._in(PHASE_BETTING)
        seat = self._seat(actor)
        if seat in night.done:
            raise RoomError("you are already done betting")
        self._record(night.apply_action_for(seat, DONE), events)
        if night.phase == PHASE_RACE:
            self.step = []

    def _seat(self, actor: Actor) -> int:
        assert actor.seat is not None
        return actor.seat

    # --- views --------------------------------------------------------------------------
    def board(self) -> JSON:
        """The odds board of this room's options (see :func:`odds_board`)."""
        c = self.config
        return odds_board(c["riders"], c["length"], None, c["mode"], c["margin"])

    def view(self, actor: Actor) -> JSON:
        c = self.config
        out: JSON = {"game": self.game, "phase": self.phase(), "seats": list(self.names),
                     "max_seats": MAX_SEATS,
                     "config": {**c, "bankroll_cents": c["bankroll"] * 100, "lap": LAP,
                                "kinds": {k: {"riders": n, "ordered": o}
                                          for k, (n, o) in KINDS.items()}}}
        night = self.night
        seat = actor.seat if actor.kind == "seat" else None
        if night is not None:
            seen = night.observation(seat)
            me = seen.pop("me", None)
            del seen["phase"]
            if seen["live"] is not None:
                seen["live"]["step"] = self.step
            out.update(seen)
            if self.phase() in (PHASE_BETTING, PHASE_RACING):
                out["board"] = self.board()  # pool mode: fair chances as a guide, no odds
            if me is not None:
                out["me"] = me
        elif seat is not None:
            out["me"] = {"seat": seat, "name": self.names[seat] if seat < len(self.names)
                         else ""}
        return out


_Handler = Any
HOST_INTENTS: dict[str, _Handler] = {
    "start": KeirinRoom._start,
    "close_betting": KeirinRoom._close_betting,
    "advance": KeirinRoom._advance,
    "finish": KeirinRoom._finish,
}
SEAT_INTENTS: dict[str, _Handler] = {
    "ticket": KeirinRoom._ticket,
    "cancel": KeirinRoom._cancel,
    "done": KeirinRoom._done,
}

LOGIC = KeirinRoom

__all__ = ["LOGIC", "MAX_SEATS", "KeirinRoom"]
