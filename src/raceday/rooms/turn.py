"""The turn-based room: places for humans (phones or the host screen) and computer levels,
one player acting at a time (see :mod:`raceday.rooms` for a game's declaration).

Over days. A room whose class sets :attr:`TurnRoom.over_days` takes the host's option
``days`` (``true``: a game played over days, each move whenever its player comes by); the
room keeps it as :attr:`TurnRoom.days`, saved with it (``"days": true``, left out when
false, so a room saved before it reads as an ordinary one). The server never closes such a
room for idleness while its game is unfinished (:mod:`raceday.web.lifecycle`), and the
pages offer each seat a link of its own. :meth:`TurnRoom.glance` is what the landing
page's "my games" shows of the room to one actor: the phase, whose turn, and the players.

Hints. A room whose class names a :attr:`TurnRoom.hint_level` takes the host's option
``hints`` (``true``: a learner's game, as the lessons' first game creates it); the room keeps
it as :attr:`TurnRoom.hints`, saved only when on (``"hints": true``). While it is on, the
view for whoever plays the place to move (a human place) carries ``hint``: the move that
level's computer would play there (``action``, its ``message`` from the state's
``action_message``, ``level``). The hint is worked out when the room changes (in
:meth:`TurnRoom.handle`, which the server runs off its event loop as it does the computers'
moves) and when a saved room is read back, never while a view is drawn, and with a
generator of its own, so the room's dice stay as they were.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self

import numpy as np

from raceday.core.agents import Agent
from raceday.core.events import Message
from raceday.core.game import GameOptions
from raceday.core.record import Record, replay
from raceday.present import refusal
from raceday.rooms.base import KIT_FORMAT, Handler, RoomBase, StateT
from raceday.rooms.intents import TURN_INTENTS, Intent, Intents, intent_union
from raceday.rooms.places import HUMAN, Places, check_kinds, intent_int
from raceday.rooms.protocol import JSON, Actor, RoomError, as_room_error

UNDO_NEVER = "never"
UNDO_VS_COMPUTER = "vs_computer"  # one human place: take back own move and the answer


class TurnRoom(RoomBase[StateT]):
    """A turn-based game in a browser room: lobby, places, computer and forced moves, undo.

    Intents: the host's ``start`` and ``finish``; ``move`` (``{"type": "move", "action":
    n}`` by default, see :meth:`intent_action`) from whoever plays the place to act;
    ``undo`` where :attr:`undo_rule` allows it.
    """

    LEVELS: ClassVar[tuple[str, ...]] = ()
    intents: ClassVar[Intents] = Intents(intent_union(*TURN_INTENTS))
    OPTION_NAMES: ClassVar[tuple[str, ...]] = ()
    options_title: ClassVar[str] = ""  # "Hairpin" in "unknown Hairpin option(s)" (title)
    undo_rule: ClassVar[str] = UNDO_NEVER
    forced_moves: ClassVar[bool] = True  # a human's only legal action is played at once
    # A computer's move waits for the room's timeline (its pace), so every screen sees the
    # human's move, then "thinking", then the answer; False plays it with the human's move.
    paced_computers: ClassVar[bool] = False
    agent_maker: ClassVar[Callable[..., Agent]]  # called with a level: the computer player
    # the host may choose the option ``days``: a game played over days (see the module)
    over_days: ClassVar[bool] = False
    # the host may choose the option ``hints``: this level's move is shown (see the module)
    hint_level: ClassVar[str | None] = None

    def __init__(self, options: GameOptions, places: Places, days: bool = False,
                 hints: bool = False) -> None:
        super().__init__(options)
        self.places = places
        self.days = days  # played over days: never closed for idleness while unfinished
        self.hints = hints  # the seat to move is shown the move of the hint level
        self._agents: dict[int, Agent] = {}
        self._hint_agent: Agent | None = None
        self._hint: JSON | None = None  # the hint for the state as it is now, if any

    # --- what a game declares besides the class attributes --------------------------------
    @classmethod
    def read_options(cls, options: Mapping[str, Any]) -> tuple[GameOptions, list[str]]:
        """The engine's options and the places (``"human"`` or a level) from the host's
        options, whose names are already checked against :attr:`OPTION_NAMES`."""
        raise NotImplementedError

    @classmethod
    def migrate(cls, old: Mapping[str, Any]) -> JSON:
        """A room saved by the per-game rooms before the kit (see
        :func:`turn_room_before_kit`); a game with other old formats overrides this."""
        return turn_room_before_kit(old, cls.title, cls.game)

    def player_name(self, player: int) -> str:
        """How a refusal names ``player``: "it is {name}'s turn, not yours"."""
        return f"player {player + 1}"

    def intent_action(self, state: StateT, intent: Intent) -> int:
        """The action a ``move`` intent asks for (checked for legality by the kit)."""
        return intent_int(intent, "action", "a move's action")

    def illegal_action(self, state: StateT, action: int) -> str:
        """Refuse an action that is not legal now: raise a refusal in words (the default
        does, ``refusal.not_legal``); a text returned instead is raised in English only."""
        raise refusal(RoomError, "refusal.not_legal")

    def lobby_view(self, actor: Actor) -> JSON:
        """The game's own view fields shown from the lobby on (options, track, ...)."""
        return {}

    def state_view(self, actor: Actor, state: StateT, to_act: int | None) -> JSON:
        """The game's own view fields once started (board, choices with their messages)."""
        return {}

    # --- creating and saving -------------------------------------------------------------------
    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        if not isinstance(options, Mapping):
            raise refusal(RoomError, "refusal.options_object")
        kit = ({"days"} if cls.over_days else set()) | \
            ({"hints"} if cls.hint_level is not None else set())
        unknown = sorted(set(options) - set(cls.OPTION_NAMES) - kit)
        if unknown:
            raise refusal(RoomError, "refusal.unknown_options",
                          title=cls.options_title or cls.title, names=", ".join(map(str, unknown)))
        days = options.get("days", False) if cls.over_days else False
        if not isinstance(days, bool):
            raise refusal(RoomError, "refusal.days_switch")
        hints = options.get("hints", False)
        if not isinstance(hints, bool):
            raise refusal(RoomError, "refusal.hints_switch")
        with as_room_error():
            checked, kinds = cls.read_options({k: v for k, v in options.items() if k not in kit})
        return cls(checked, Places(kinds), days, hints)

    @classmethod
    def from_record(cls, record: Record) -> Self:
        """A room in its lobby whose start goes on from ``record`` (a game begun
        elsewhere): its options, and its seats' places (a human seat an open place a phone
        may join or the host screen plays, a computer seat its level). A record of another
        game, one the rules refuse (:class:`~raceday.core.record.RecordError` naming its
        line) or one whose game is over is refused."""
        if record.game != cls.GAME.name:
            raise refusal(RoomError, "refusal.record_other_game", game=repr(record.game),
                          title=cls.title)
        done = replay(record)  # RecordError at the first line the rules refuse
        if done.state.is_terminal():
            raise refusal(RoomError, "refusal.record_over")
        players = done.state.num_players
        kinds = [str(seat["player"]) for seat in record.seats] or [HUMAN] * players
        with as_room_error():
            options = cls.GAME.options(record.options)
            kinds = check_kinds(kinds, cls.LEVELS, players, players)
        room = cls(options, Places(kinds))
        room.resume_record = record
        return room

    def record_seats(self) -> list[JSON]:
        return [{"name": self.places.name(p) or self.player_name(p),
                 "player": self.level_of(p)} for p in range(len(self.places.kinds))]

    def seats_json(self) -> JSON:
        return {"places": self.places.to_json()}

    def to_json(self) -> JSON:
        out = super().to_json()
        if self.days:  # left out when false: an ordinary room saves as it always did
            out["days"] = True
        if self.hints:  # left out when false, likewise
            out["hints"] = True
        return out

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Self:
        return cls(cls.GAME.options(data["options"]), Places.from_json(data["places"]),
                   data.get("days", False) is True,
                   data.get("hints", False) is True and cls.hint_level is not None)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """A saved room, its hint worked out again (a hint is never saved)."""
        room = super().from_json(data)
        room._prepare_hint()
        return room

    # --- seats ---------------------------------------------------------------------------------
    def seat_names(self) -> list[str]:
        return list(self.places.names)

    def add_seat(self, name: str) -> int:
        self._refuse_after_start()
        return self.places.add(name)

    def drop_seat(self, seat: int) -> str:
        self.places.seat_place.pop(seat)  # its place is free again
        return self.places.names.pop(seat)

    def players_view(self) -> list[JSON]:
        return self.places.view()

    def player_card(self, player: int) -> JSON:
        seat = self.places.seat_place.index(player) if player in self.places.seat_place \
            else None
        kind = self.places.kinds[player] if 0 <= player < len(self.places.kinds) else HUMAN
        name = self.places.name(player)
        if name is not None:
            return {"name": name, "seat": seat, "who": None}
        if kind != HUMAN:
            return {"name": f"{kind} computer", "seat": None, "who": Message(
                "finale_computer", {"level": Message(f"level_{kind}")}).to_json()}
        return super().player_card(player)

    def start_again(self, rng: np.random.Generator, events: list[JSON]) -> None:
        self._agents = {}  # a computer starts the new game afresh
        super().start_again(rng, events)

    def stand_in_levels(self) -> tuple[str, ...]:
        return self.LEVELS

    def stood_in(self, seat: int) -> None:
        self._agents.pop(self.places.seat_place[seat], None)

    def level_of(self, place: int) -> str:
        """Who plays ``place`` now: ``"human"`` or a computer level (a computer's place, or
        a seat a computer stands in for)."""
        kind = self.places.kinds[place]
        if kind == HUMAN and place in self.places.seat_place:
            return self.stand_ins.get(self.places.seat_place.index(place), HUMAN)
        return kind

    def may_play(self, actor: Actor, place: int) -> bool:
        """Whether ``actor`` plays ``place`` now (not while a computer stands in)."""
        return self.places.may_play(actor, place) and self.level_of(place) == HUMAN

    def undo_allowed(self) -> bool:
        return self.undo_rule == UNDO_VS_COMPUTER and len(self.places.humans()) == 1

    # --- hints -------------------------------------------------------------------------------
    def _prepare_hint(self) -> None:
        """Work out the hint for the state as it is now (None when hints are off, in the
        lobby, once over, or when a computer or chance is to move)."""
        self._hint = None
        state = self.state
        level = self.hint_level
        if not self.hints or level is None or state is None or self.abandoned \
                or state.is_terminal() or state.is_chance_node():
            return
        player = state.current_player()
        if self.level_of(player) != HUMAN:
            return
        if self._hint_agent is None:
            self._hint_agent = type(self).agent_maker(level)
        # a generator of its own: the room's dice are not touched by the hint
        action = self._hint_agent.choose(state.clone(), np.random.default_rng(0))
        self._hint = {"player": player, "action": action, "level": level,
                      "message": state.action_message(action).to_json()}

    def hint_for(self, actor: Actor, to_act: int | None) -> JSON | None:
        """The hint ``actor`` is shown: only whoever plays the place to move, hints on."""
        hint = self._hint
        if hint is None or to_act is None or hint["player"] != to_act \
                or not self.may_play(actor, to_act):
            return None
        return {k: v for k, v in hint.items() if k != "player"}

    def handle(self, actor: Actor, intent: Mapping[str, Any],
               rng: np.random.Generator) -> list[JSON]:
        """The kit's handling of an intent, then the hint for the state it leaves."""
        events = super().handle(actor, intent, rng)
        self._prepare_hint()
        return events

    # --- intents -------------------------------------------------------------------------------
    def handlers(self, actor: Actor) -> dict[str, Handler]:
        if actor.kind == "timeline":
            return super().handlers(actor)
        own: dict[str, Handler] = {"move": self._move}
        if self.undo_rule != UNDO_NEVER:
            own["undo"] = self._undo
        return {**super().handlers(actor), **own}

    def _move(self, actor: Actor, intent: Intent, rng: np.random.Generator,
              events: list[JSON]) -> None:
        state = self._playing()
        player = state.current_player()
        if not self.places.may_play(actor, player):
            raise refusal(RoomError, "refusal.not_your_turn", name=self.player_name(player))
        action = self.intent_action(state, intent)
        if action not in state.legal_actions():
            raise RoomError(self.illegal_action(state, action))
        before, moves = state.to_json(), self.recorded()
        self._apply(player, action, events)
        if self.undo_allowed():
            self._keep_undo(before, moves)
        self._settle(rng, events)

    def _undo(self, actor: Actor, intent: Intent, rng: np.random.Generator,
              events: list[JSON]) -> None:
        self._playing()
        if not self.undo_allowed():
            raise refusal(RoomError, "refusal.undo_vs_computer")
        if not any(self.places.may_play(actor, p) for p in self.places.humans()):
            raise refusal(RoomError, "refusal.undo_human_only")
        self._pop_undo(events)

    def _agent(self, player: int) -> Agent:
        if player not in self._agents:
            self._agents[player] = type(self).agent_maker(self.level_of(player))
        return self._agents[player]

    def _computer_to_move(self, state: StateT) -> bool:
        return (not state.is_terminal() and not state.is_chance_node()
                and self.level_of(state.current_player()) != HUMAN)

    def paced(self, state: StateT) -> bool:
        return self.paced_computers and self._computer_to_move(state)

    def paced_step(self, state: StateT, rng: np.random.Generator, events: list[JSON]) -> None:
        player = state.current_player()
        self._apply(player, self._agent(player).choose(state, rng), events)

    def settle_step(self, state: StateT, rng: np.random.Generator, events: list[JSON]) -> bool:
        player = state.current_player()
        if self.level_of(player) != HUMAN:
            self.paced_step(state, rng, events)
            return True
        legal = state.legal_actions()
        if not self.forced_moves or len(legal) != 1:
            return False
        self._apply(player, legal[0], events, forced=True)
        return True

    # --- views ---------------------------------------------------------------------------------
    def glance(self, actor: Actor) -> JSON:
        """What the landing page's "my games" shows of the room to ``actor``: ``phase``,
        ``finished``, ``days``, ``players`` (each place's ``kind``, ``controller``, ``name``
        and whether ``actor`` plays it: ``mine``), ``to_act`` (the place to act, None in
        the lobby and once over) and ``your_turn``. Nothing a seat's own view would not
        show it."""
        state = self.state
        to_act = None if state is None or self.finished() else state.current_player()
        mine = set(self.places.places_of(actor))
        return {"phase": self.phase(), "finished": self.finished(), "days": self.days,
                "players": [{**p, "mine": p["place"] in mine} for p in self.places.view()],
                "to_act": to_act,
                "your_turn": to_act is not None and self.may_play(actor, to_act)}

    def view(self, actor: Actor) -> JSON:
        out: JSON = {
            "game": self.game, "phase": self.phase(), "seats": self.seat_names(),
            "max_seats": len(self.places.humans()), "players": self.places.view(),
            "mine": self.places.places_of(actor), **self.lobby_view(actor),
            **self.stand_in_view(),
        }
        if actor.kind == "seat" and actor.seat is not None:
            out["me"] = {"seat": actor.seat, "name": self.places.names[actor.seat],
                         "place": self.places.seat_place[actor.seat]}
        state = self.state
        if state is None:
            return out
        terminal = state.is_terminal()
        to_act = None if terminal or self.abandoned else state.current_player()
        out.update({
            "to_act": to_act,
            "may_act": to_act is not None and self.may_play(actor, to_act),
            "may_undo": self.undo_allowed() and bool(self.undo) and not self.finished()
            and any(self.places.may_play(actor, p) for p in self.places.humans()),
            "recent": list(self.recent),
            "result": self.result_view(state) if terminal else None,
            "abandoned": self.abandoned,
            "thinking": to_act is not None and self._computer_to_move(state),
            "timeline": self.timeline_view(),
            "finale": self.finale(),
            "hints": self.hints,
            "hint": self.hint_for(actor, to_act),
            **self.state_view(actor, state, to_act),
        })
        return out


def turn_room_before_kit(old: Mapping[str, Any], title: str, game: str) -> JSON:
    """A room saved by the per-game rooms before the kit (``{"format": 1, "options",
    "places", "state", "undo"?, "recent", "abandoned"}``) in the kit's format."""
    if old.get("format") != 1:
        raise RoomError(f"unknown {title} room format {old.get('format')!r}")
    return {"kit": KIT_FORMAT, "game": game, "options": old["options"],
            "places": old["places"], "state": old["state"], "undo": old.get("undo", []),
            "recent": old["recent"], "abandoned": old["abandoned"]}
