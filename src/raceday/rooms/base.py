"""What the turn-based room and the party room share: the phases, the intent dispatch and
its error mapping, the settling loop (chance drawn with the room's generator), the
timeline that plays paced steps at the host's pace, the event log kept for the view, undo,
and the versioned save format.

The timeline. Some steps nobody chooses are worth watching one by one: the dice of a race,
a computer's move. A room declares them with :meth:`RoomBase.paced`; the settling loop
stops before each, and the server plays it when :meth:`RoomBase.next_tick` says (the
room's ``pace`` in seconds, unless the host paused), by sending the room the intent
``{"type": "tick"}`` as :meth:`Actor.timeline <raceday.rooms.protocol.Actor.timeline>`.
So the server alone sets the pace of every screen: a race runs to its end with no host page
open, and at the same pace with two. The host sends ``pace`` (``{"seconds": s}``),
``pause``, ``resume`` and ``skip`` (the paced steps up to the next choice, at once).

The finale. Once the game is over the view holds ``finale`` (:meth:`RoomBase.finale`: a
podium, the game's awards), and the host may send ``again``: a fresh game with the same
seats and options (:meth:`RoomBase.start_again`); a phone keeps its seat and its token.

Removing a seat. In the lobby the host may send ``{"type": "remove_seat", "seat": n}``:
the seat's player leaves the room (the event ``seat_removed`` with its seat and name) and
the seats after it move up one, so seat numbers stay 0, 1, ... in join order; the server
drops the seat's key and tells its phone (:meth:`RoomBase.drop_seat` is the flavour's
part).

Replacing a player who left. While the game is on, the host may send ``{"type":
"replace", "seat": n, "level": l}``: a seat whose phone is not connected (the server's
word: the timeline's intent ``{"type": "presence", "seat": n, "present": b}``, kept in
the room's log like every intent, so a room rebuilt from its log knows the same; the
events ``seat_left`` and ``seat_back``) is played by a computer at ``l`` (one of
:meth:`RoomBase.stand_in_levels`; a game without any refuses), keeping its name; the event
``stand_in``. Once the person is back (their phone connected again with the seat's key),
the host sends ``{"type": "hand_back", "seat": n}`` (the event ``handed_back``) and the
person plays on from where the computer left the seat. A seat is never handed back by
itself: the host decides, as the person may have come back only to watch. The stand-ins
are saved with the room (``stand_ins``; a save without them has none)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Self, TypeVar

import numpy as np

from raceday.core.errors import RacedayError
from raceday.core.events import Event, Message
from raceday.core.game import AnyGame, GameOptions
from raceday.core.protocol import Outcome, State, stop_noting
from raceday.core.record import Record, Recorder, parse_record, replay
from raceday.present import refusal
from raceday.rooms.intents import (
    KIT_INTENTS,
    HandBack,
    Intent,
    Intents,
    Pace,
    Pause,
    Presence,
    RemoveSeat,
    Replace,
    Start,
    intent_union,
)
from raceday.rooms.protocol import JSON, Actor, RefusedUnread, RoomError, as_room_error

KIT_FORMAT = 1
"""The version of the kit's save format (``{"kit": 1, ...}``); older saves go through the
room's :meth:`RoomBase.migrate`."""
PACE_SECONDS = (0.2, 10.0)  # the fastest and slowest pace a host may set, seconds a step

StateT = TypeVar("StateT", bound=State)
# a handler takes its intent as the room declared it (an Intent model of its kind)
Handler = Callable[[Actor, Any, np.random.Generator, list[JSON]], None]


def outcome_json(outcome: Outcome) -> JSON:
    """An outcome as JSON facts (the message for words, never a sentence to parse)."""
    return {"winner": outcome.winner, "ranking": list(outcome.ranking),
            "scores": {str(k): v for k, v in outcome.scores.items()},
            "winning_players": list(outcome.winning_players),
            "score_name": outcome.score_name, "termination": str(outcome.termination),
            "message": None if outcome.message is None else outcome.message.to_json(),
            "description": outcome.description}


def _pace(seconds: object) -> float:
    """A pace in seconds a step, within :data:`PACE_SECONDS`; RoomError otherwise."""
    low, high = PACE_SECONDS
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or \
            not low <= seconds <= high:
        raise refusal(RoomError, "refusal.pace", low=f"{low:g}", high=f"{high:g}")
    return float(seconds)


class RoomBase(Generic[StateT]):
    """The shared machinery of :class:`~raceday.rooms.turn.TurnRoom` and
    :class:`~raceday.rooms.party.PartyRoom` (see :mod:`raceday.rooms` for what a game
    declares)."""

    # --- what a game declares -------------------------------------------------------------
    game: ClassVar[str]
    GAME: ClassVar[AnyGame]
    title: ClassVar[str]  # "Hairpin Racers": named in refusals
    max_seats: ClassVar[int]
    noun: ClassVar[str] = "game"  # "the game has started" / "the race has started"
    playing_phase: ClassVar[str] = "playing"
    recent_limit: ClassVar[int] = 8  # events kept for the view's "recent"
    max_undo: ClassVar[int] = 2_000
    # The model a room is created from (what a host chooses, served as a JSON Schema at
    # /api/games/<game>/options?for=room); None: the game's own options model.
    Options: ClassVar[type[GameOptions] | None] = None
    default_pace: ClassVar[float] = 1.0  # seconds between two paced steps, at first
    # event kind → {fact: the name rooms log it by}: a fact renamed in the rules after
    # rooms were logged keeps its old name on the wire, so old and new logs read alike
    WIRE_NAMES: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    # The intents the room reads, one union discriminated by ``type``
    # (:mod:`raceday.rooms.intents`); checked before a handler sees one.
    intents: ClassVar[Intents] = Intents(intent_union(*KIT_INTENTS))

    def __init__(self, options: GameOptions) -> None:
        self.options = options
        # the game's record, written as it is played (see :attr:`state`); None in the lobby
        self.recorder: Recorder | None = None
        self._state: StateT | None = None
        self.undo: list[JSON] = []  # states before each undoable action, oldest first
        # the number of recorded moves at each of the last undo states (aligned with the
        # end of ``undo``: a room saved before records has fewer)
        self.undo_marks: list[int] = []
        # a record the host's start goes on from (a room opened from a record), or None
        self.resume_record: Record | None = None
        # how many of the record's moves were made before this room (a game it went on)
        self.record_before = 0
        self.recent: list[JSON] = []  # the last events kept for the view, newest last
        self.abandoned = False
        self.pace = self.default_pace
        self.paused = False
        self.stand_ins: dict[int, str] = {}  # seat -> the computer level playing it
        # the seats whose phone is connected, as the server told (None: never told, so
        # every seat counts as present)
        self.present: set[int] | None = None

    # --- the state and its record -------------------------------------------------------------
    @property
    def state(self) -> StateT | None:
        """The game being played (None in the lobby). Every move applied to it is written
        down by :attr:`recorder`: setting a new state (a game's start, a room read back, an
        undo) follows the new one; setting None (a new game to come) forgets the record."""
        return self._state

    @state.setter
    def state(self, value: StateT | None) -> None:
        old = self._state
        if old is not None and old is not value:
            stop_noting(old)
        self._state = value
        if value is None:
            self.recorder = None
            self.undo_marks = []
            self.record_before = 0
            return
        if self.recorder is None:
            self.recorder = self.fresh_recorder(value)
        self.recorder.follow(value)

    def fresh_recorder(self, state: StateT, tags: Mapping[str, Any] | None = None,
                       midway: bool = False) -> Recorder:
        """A record beginning at ``state``: from the game's options alone when ``state`` is
        the game's first position for them, else (and always when ``midway``: the moves
        before it are not known) with ``state`` as its ``Start``."""
        same = not midway and type(self).new_state is RoomBase.new_state
        if not same and not midway:
            try:
                same = self.GAME.new_state(self.options).to_json() == state.to_json()
            except (RacedayError, KeyError, TypeError, ValueError):
                same = False
        kept = {k: v for k, v in (tags or {}).items()
                if k not in ("Start", "Generator", "Saved", "Result", "Options", "Game")}
        recorder = Recorder(self.GAME.name, self.options.to_json(),
                            start=None if same else state, tags={"Face": "room", **kept})
        # a room is rebuilt from its log by replaying its intents (rooms.log), which must
        # give the same room whenever it is done: no clock in the record it keeps
        recorder.tags.pop("Started", None)
        return recorder

    def record_seats(self) -> list[JSON]:
        """The Seats tag: each ``{"name", "player"}`` (the flavours override)."""
        return []

    def recorded(self) -> int:
        """How many moves the record holds now."""
        return 0 if self.recorder is None else len(self.recorder.moves)

    def _keep_undo(self, before: JSON, moves: int | None = None) -> None:
        """Keep ``before`` (the state's JSON before an undoable move) and the record's
        length then (``moves``, else now), so an undo takes the moves after it back."""
        moves = self.recorded() if moves is None else moves
        self.undo = [*self.undo[-(self.max_undo - 1):], before]
        self.undo_marks = [*self.undo_marks[-(self.max_undo - 1):], moves]

    # --- hooks a game may override ---------------------------------------------------------
    def new_state(self) -> StateT:
        """The state the game starts from (default: ``GAME.new_state(options)``)."""
        state: StateT = self.GAME.new_state(self.options)
        return state

    def started_facts(self) -> JSON:
        """Facts added to the ``started`` event (e.g. the variant)."""
        return {}

    def event_json(self, event: Event) -> JSON:
        """An engine event for the clients: its kind as ``type`` and its facts, a fact
        named in :attr:`WIRE_NAMES` under the name rooms have always logged it by."""
        data = {"type": event.kind, **event.data}
        for fact, logged in self.WIRE_NAMES.get(event.kind, {}).items():
            if fact in data:
                data[logged] = data.pop(fact)
        return data

    def remembers(self, data: JSON) -> bool:
        """True if the event ``data`` is kept in the view's ``recent`` list."""
        return True

    def paced(self, state: StateT) -> bool:
        """True where the next step is one nobody chooses that the timeline plays at the
        room's pace (a race's dice, a computer's move); False plays it at once."""
        return False

    def paced_step(self, state: StateT, rng: np.random.Generator, events: list[JSON]) -> None:
        """Play one paced step (default: draw the chance node)."""
        self._draw(state, rng, events)

    def result_view(self, state: StateT) -> JSON:
        """The result shown once the game is over (default: the outcome's facts)."""
        return outcome_json(state.outcome())

    def awards(self, state: StateT) -> list[JSON]:
        """The finale's awards once the game is over: each ``{"title": <Message JSON>,
        "name": str, "seat": int | None, "detail": <Message JSON> | None}`` (default: none;
        a game room names its own, such as the longest shot that came in)."""
        return []

    def podium(self, state: StateT) -> list[JSON]:
        """The finale's podium: ``{"place", "name", "seat", "who", "detail"}`` for places 1
        to 3 (default: the outcome's ranking read as players, those who won sharing first
        place, equal scores sharing a place; a game whose ranking is of horses or riders,
        not players, overrides this)."""
        outcome = state.outcome()
        winners = set(outcome.winning_players)
        podium: list[JSON] = []
        place = 0
        previous: object = object()
        for index, player in enumerate(outcome.ranking):
            key = ("won",) if player in winners else ("score", outcome.scores.get(player))
            if key != previous or key == ("score", None):
                place = 1 if player in winners else index + 1
            previous = key
            if place > 3:
                break
            podium.append({"place": place, **self.player_card(player), "detail": None})
        return podium

    def player_card(self, player: int) -> JSON:
        """Who ``player`` is on the finale: ``name`` (text, for logs and tests), ``seat``
        (the phone's seat or None) and ``who`` (a Message JSON naming a player without a
        name of its own, such as a computer; None where ``name`` is the person's)."""
        return {"name": f"player {player + 1}", "seat": None,
                "who": Message("finale_player", {"n": player + 1}).to_json()}

    @classmethod
    def migrate(cls, old: Mapping[str, Any]) -> JSON:
        """A room saved before the kit, in the kit's format; RoomError if unknown."""
        raise RoomError(f"unknown {cls.title} room format {old.get('format')!r}")

    # --- the save format -------------------------------------------------------------------
    def to_json(self) -> JSON:
        return {"kit": KIT_FORMAT, "game": self.game, "options": self.options.to_json(),
                **self.seats_json(),
                "state": None if self.state is None else self.state.to_json(),
                "record": None if self.recorder is None else
                Record(dict(self.recorder.tags), list(self.recorder.moves)).text(),
                "resume": None if self.resume_record is None else self.resume_record.text(),
                "record_before": self.record_before,
                "undo": list(self.undo), "undo_marks": list(self.undo_marks),
                "recent": list(self.recent),
                "abandoned": self.abandoned, "pace": self.pace, "paused": self.paused,
                "stand_ins": [[seat, level] for seat, level in sorted(self.stand_ins.items())]}

    def seats_json(self) -> JSON:
        raise NotImplementedError

    def drop_seat(self, seat: int) -> str:
        """Remove ``seat`` (the seats after it move up one); its name. The flavours
        implement it; RoomError for a seat that is not there."""
        raise NotImplementedError

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Self:
        """A room with its seats from the kit's JSON (the flavour reads its own part)."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            if data.get("kit") != KIT_FORMAT:
                data = cls.migrate(data)
            if data.get("game") != cls.game:
                raise RoomError(f"this is not a {cls.title} room")
            room = cls.restore(data)
            if data["state"] is not None:
                state = cls.GAME.state_from_json(data["state"])
                # a room saved before records: its record starts where it stood
                saved = data.get("record")
                room.recorder = room.fresh_recorder(state, midway=True) if saved is None else \
                    Recorder.resuming(parse_record(str(saved)))
                room.state = state
            room.record_before = int(data.get("record_before", 0))
            resume = data.get("resume")
            room.resume_record = None if resume is None else parse_record(str(resume))
            room.undo = [dict(s) for s in data["undo"]]
            marks = [int(m) for m in data.get("undo_marks", [])]
            room.undo_marks = marks[-len(room.undo):] if room.undo else []
            room.recent = [dict(m) for m in data["recent"]]
            room.abandoned = bool(data["abandoned"])
            # rooms saved before the timeline have neither: the class's pace, not paused
            room.pace = _pace(data.get("pace", cls.default_pace))
            room.paused = bool(data.get("paused", False))
            # rooms saved before stand-ins have none
            room.stand_ins = {int(seat): str(level)
                              for seat, level in data.get("stand_ins", [])}
        except (KeyError, TypeError, ValueError, AttributeError, RacedayError) as exc:
            if isinstance(exc, RoomError):
                raise
            raise RoomError(f"malformed {cls.title} room: {exc}") from None
        return room

    # --- phases ------------------------------------------------------------------------------
    def finished(self) -> bool:
        return self.abandoned or (self.state is not None and self.state.is_terminal())

    def phase(self) -> str:
        if self.state is None:
            return "lobby"
        return "finished" if self.finished() else self.playing_phase

    def _playing(self) -> StateT:
        if self.state is None:
            raise refusal(RoomError, "refusal.not_started", noun=Message(f"noun.{self.noun}"))
        if self.finished():
            raise refusal(RoomError, "refusal.over", noun=Message(f"noun.{self.noun}"))
        return self.state

    def _refuse_after_start(self) -> None:
        if self.state is not None:
            raise refusal(RoomError, "refusal.started_watch", noun=Message(f"noun.{self.noun}"))

    # --- the finale and playing again ----------------------------------------------------------
    def finale(self) -> JSON | None:
        """The end of the evening for every screen: ``{"podium": [...], "awards": [...],
        "again": True}`` once the game is over (see :meth:`podium` and :meth:`awards`; an
        abandoned game has neither), None before."""
        state = self.state
        if state is None or not self.finished():
            return None
        if not state.is_terminal():  # abandoned by the host: no result to stand on
            return {"podium": [], "awards": [], "again": True}
        return {"podium": self.podium(state), "awards": self.awards(state), "again": True}

    def _again(self, actor: Actor, intent: Intent, rng: np.random.Generator,
               events: list[JSON]) -> None:
        if self.state is None or not self.finished():
            raise refusal(RoomError, "refusal.not_over", noun=Message(f"noun.{self.noun}"))
        self.start_again(rng, events)

    def start_again(self, rng: np.random.Generator, events: list[JSON]) -> None:
        """A fresh game with the same seats (names, kinds, tokens: the server keeps those)
        and the same options, chance drawn from the room's generator; the events say
        ``again`` then ``started``. A game room whose start needs more overrides this."""
        self.state = None
        self.undo = []
        self.undo_marks = []
        self.recent = []
        self.abandoned = False
        self.paused = False
        events.append({"type": "again"})
        self._start(Actor.host(), Start(type="start"), rng, events)

    # --- the timeline --------------------------------------------------------------------------
    def next_tick(self) -> float | None:
        """Seconds until the server should play the next paced step (``tick``), or None
        when the room waits for a person, is paused, or is over."""
        state = self.state
        if state is None or self.finished() or self.paused or not self.paced(state):
            return None
        return self.pace

    def timeline_view(self) -> JSON:
        """The pace the screens animate at, and whether the timeline is running now."""
        state = self.state
        running = (state is not None and not self.finished() and self.paced(state))
        return {"pace": self.pace, "paused": self.paused, "running": running}

    def _tick(self, actor: Actor, intent: Intent, rng: np.random.Generator,
              events: list[JSON]) -> None:
        state = self._playing()
        if not self.paced(state):
            raise refusal(RoomError, "refusal.no_paced_step")
        self._play_paced(state, rng, events)

    def _play_paced(self, state: StateT, rng: np.random.Generator, events: list[JSON]) -> None:
        """One paced step, then what follows it without a choice."""
        self.paced_step(state, rng, events)
        self._settle(rng, events)

    def _skip(self, actor: Actor, intent: Intent, rng: np.random.Generator,
              events: list[JSON]) -> None:
        state = self._playing()
        if not self.paced(state):
            raise refusal(RoomError, "refusal.nothing_to_skip")
        for _ in range(self.GAME.max_steps(self.options) + 1):
            if state.is_terminal() or not self.paced(state):
                return
            self._play_paced(state, rng, events)
        raise RoomError(f"the {self.noun} ran longer than its bound; this is a bug")

    def _set_pace(self, actor: Actor, intent: Pace, rng: np.random.Generator,
                  events: list[JSON]) -> None:
        self.pace = _pace(intent.seconds)
        events.append({"type": "pace", "seconds": self.pace})

    def _pause(self, actor: Actor, intent: Intent, rng: np.random.Generator,
               events: list[JSON]) -> None:
        self._playing()
        self.paused = isinstance(intent, Pause)
        events.append({"type": "paused" if self.paused else "resumed"})

    # --- intents -----------------------------------------------------------------------------
    def handlers(self, actor: Actor) -> dict[str, Handler]:
        """The intents ``actor`` may send, by ``type`` (the flavours add theirs)."""
        if actor.kind == "host":
            return {"start": self._start, "finish": self._finish, "pace": self._set_pace,
                    "pause": self._pause, "resume": self._pause, "skip": self._skip,
                    "again": self._again, "remove_seat": self._remove_seat,
                    "replace": self._replace, "hand_back": self._hand_back}
        if actor.kind == "timeline":
            return {"tick": self._tick, "presence": self._presence}
        return {}

    def handle(self, actor: Actor, intent: Mapping[str, Any],
               rng: np.random.Generator) -> list[JSON]:
        kind = intent.get("type")
        if actor.kind == "spectator":
            raise refusal(RefusedUnread, "refusal.spectator")
        if actor.kind == "seat" and actor.seat in self.stand_ins:
            raise refusal(RefusedUnread, "refusal.stood_in")
        handler = self.handlers(actor).get(kind) if isinstance(kind, str) else None
        if handler is None:
            who = Message("refusal.who_host" if actor.kind == "host" else "refusal.who_player")
            raise refusal(RefusedUnread, "refusal.cannot_send", who=who, kind=repr(kind),
                          title=self.title)
        typed = self.intents.read(intent)  # refused with its reason, the room untouched
        events: list[JSON] = []
        with as_room_error():  # an engine's refusal, told to the client as it is
            handler(actor, typed, rng, events)
        return events

    def _start(self, actor: Actor, intent: Intent, rng: np.random.Generator,
               events: list[JSON]) -> None:
        if self.state is not None:
            raise refusal(RoomError, "refusal.already_started", noun=Message(f"noun.{self.noun}"))
        self.check_start()
        if self.resume_record is not None:
            self.resume_from(self.resume_record)
        else:
            self.state = self.new_state()
        events.append({"type": "started", "players": self.players_view(),
                       **self.started_facts()})
        self._settle(rng, events)

    def check_start(self) -> None:
        """Refuse a start the seats do not allow yet (the flavours override)."""

    def _remove_seat(self, actor: Actor, intent: RemoveSeat, rng: np.random.Generator,
                     events: list[JSON]) -> None:
        if self.state is not None:
            raise refusal(RoomError, "refusal.remove_in_lobby")
        seat = intent.seat
        if not 0 <= seat < len(self.seat_names()):
            raise refusal(RoomError, "refusal.no_such_seat", seat=seat)
        name = self.drop_seat(seat)
        if self.present is not None:
            self.present = {s - (s > seat) for s in self.present if s != seat}
        events.append({"type": "seat_removed", "seat": seat, "name": name})

    def seat_names(self) -> list[str]:
        raise NotImplementedError

    # --- replacing a player who left -------------------------------------------------------
    def stand_in_levels(self) -> tuple[str, ...]:
        """The computer levels that may play a seat whose person left (none: the game
        has no computers, and ``replace`` is refused)."""
        return ()

    def stood_in(self, seat: int) -> None:
        """Told that ``seat`` changed hands (a flavour forgets its computer for it)."""

    def stand_in_view(self) -> JSON:
        """The views' part: ``stand_ins`` (each ``{"seat", "level"}``), ``away`` (the
        seats whose phone is not connected, as the server last told) and ``levels``."""
        present = self.present_seats()
        away = [s for s in range(len(self.seat_names())) if s not in present]
        return {"stand_ins": [{"seat": s, "level": level}
                              for s, level in sorted(self.stand_ins.items())],
                "away": away, "levels": list(self.stand_in_levels())}

    def present_seats(self) -> set[int]:
        """The seats whose phone is connected, as the server told."""
        if self.present is None:
            return set(range(len(self.seat_names())))
        return set(self.present)

    def _presence(self, actor: Actor, intent: Presence, rng: np.random.Generator,
                  events: list[JSON]) -> None:
        present = self.present_seats()
        if not 0 <= intent.seat < len(self.seat_names()) or \
                (intent.seat in present) == intent.present:
            raise refusal(RefusedUnread, "refusal.presence_known")
        name = self.seat_names()[intent.seat]
        self.present = present | {intent.seat} if intent.present else present - {intent.seat}
        events.append({"type": "seat_back" if intent.present else "seat_left",
                       "seat": intent.seat, "name": name})

    def _seat_name(self, seat: int) -> str:
        names = self.seat_names()
        if not 0 <= seat < len(names):
            raise refusal(RoomError, "refusal.no_such_seat", seat=seat)
        return names[seat]

    def _replace(self, actor: Actor, intent: Replace, rng: np.random.Generator,
                 events: list[JSON]) -> None:
        self._playing()
        name = self._seat_name(intent.seat)
        levels = self.stand_in_levels()
        if not levels:
            raise refusal(RoomError, "refusal.no_computers", title=self.title)
        if intent.level not in levels:
            raise refusal(RoomError, "refusal.unknown_level", level=repr(intent.level),
                          levels=", ".join(levels))
        if intent.seat in self.stand_ins:
            raise refusal(RoomError, "refusal.stood_in_already", name=name)
        if intent.seat in self.present_seats():
            raise refusal(RoomError, "refusal.seat_present", name=name)
        self.stand_ins[intent.seat] = intent.level
        self.stood_in(intent.seat)
        events.append({"type": "stand_in", "seat": intent.seat, "name": name,
                      "level": intent.level,
                       "computer": Message(f"level_{intent.level}").to_json()})
        self._settle(rng, events)

    def _hand_back(self, actor: Actor, intent: HandBack, rng: np.random.Generator,
                   events: list[JSON]) -> None:
        self._playing()
        name = self._seat_name(intent.seat)
        if intent.seat not in self.stand_ins:
            raise refusal(RoomError, "refusal.not_stood_in", name=name)
        if intent.seat not in self.present_seats():
            raise refusal(RoomError, "refusal.still_away", name=name)
        del self.stand_ins[intent.seat]
        self.stood_in(intent.seat)
        events.append({"type": "handed_back", "seat": intent.seat, "name": name})
        self._settle(rng, events)

    def _finish(self, actor: Actor, intent: Intent, rng: np.random.Generator,
                events: list[JSON]) -> None:
        self._playing()
        self.abandoned = True
        events.append({"type": "abandoned"})

    def players_view(self) -> list[JSON]:
        raise NotImplementedError

    # --- applying actions ------------------------------------------------------------------------
    def _record(self, data: JSON, events: list[JSON]) -> None:
        events.append(data)
        if self.remembers(data):
            self.recent = [*self.recent[-(self.recent_limit - 1):], data]

    def _apply(self, player: int, action: int, events: list[JSON], forced: bool = False
               ) -> None:
        """Apply ``player``'s checked ``action``; its events are tagged ``by`` and
        ``forced`` (the only legal action, played for the player)."""
        state = self.state
        assert state is not None
        for e in state.apply_action_for(player, action):
            self._record({**self.event_json(e), "by": player, "forced": forced}, events)

    def _push_undo(self) -> None:
        assert self.state is not None
        self._keep_undo(self.state.to_json())

    def _pop_undo(self, events: list[JSON]) -> None:
        """Go back to the last undo state; the moves recorded after it leave the record."""
        if not self.undo:
            raise refusal(RoomError, "refusal.nothing_to_undo")
        back = self.GAME.state_from_json(self.undo.pop())
        mark = self.undo_marks.pop() if len(self.undo_marks) > len(self.undo) else None
        recorder = self.recorder
        if recorder is not None and mark is not None and mark <= len(recorder.moves):
            recorder.take_back(len(recorder.moves) - mark)
        else:  # kept by a room saved before records: the record starts again there
            self.recorder = self.fresh_recorder(
                back, None if recorder is None else recorder.tags, midway=True)
        self.state = back
        self.recent = []
        events.append({"type": "undone"})

    def resume_from(self, record: Record) -> None:
        """Play on from ``record``: the state its moves lead to, the record going on (the
        room's generator is the server's, set from the record's Generator tag)."""
        done = replay(record)
        recorder = Recorder.resuming(record)
        for tag in ("Generator", "Saved", "Result"):
            recorder.tags.pop(tag, None)
        recorder.tags["Face"] = "room"
        self.state = None
        self.recorder = recorder
        self.resume_record = None
        self.record_before = len(record.moves)
        self.state = done.state  # type: ignore[assignment]

    def settle_step(self, state: StateT, rng: np.random.Generator, events: list[JSON]) -> bool:
        """Play one step nobody has to choose (a computer move, a forced move); False when
        a person must act. The flavours override."""
        raise NotImplementedError

    def stops_at_chance(self, state: StateT) -> bool:
        """True where the room waits for the host before drawing chance (party rooms)."""
        return False

    def _draw(self, state: StateT, rng: np.random.Generator, events: list[JSON]) -> None:
        draw = state.sample_chance(rng)
        for e in state.apply_action(draw.outcome, draw.detail):
            self._record(self.event_json(e), events)

    def _settle(self, rng: np.random.Generator, events: list[JSON]) -> None:
        """Everything that needs nobody: chance drawn with the room's generator, computer
        moves and forced moves; stops when a person must act or the game is over."""
        state = self.state
        assert state is not None
        for _ in range(self.GAME.max_steps(self.options) + 1):
            if state.is_terminal() or self.paced(state):
                return
            if state.is_chance_node():
                if self.stops_at_chance(state):
                    return
                self._draw(state, rng, events)
                continue
            if not self.settle_step(state, rng, events):
                return
        raise RoomError(f"the {self.noun} ran longer than its bound; this is a bug")
