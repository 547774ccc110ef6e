"""The party room: the seats' names become the players, several players act in any order
(sealed bids, tickets), the host drives the evening, and every screen's view comes from the
state's own ``observation`` (see :mod:`raceday.rooms` for a game's declaration).

Nothing early: a step whose results the big screen should show before any phone learns
them (a race run to its finish, then its payouts) is told with a *curtain*
(:meth:`PartyRoom.tell` with ``shown``): the state takes the step, but every view is built
from ``shown`` (the game as it stood, with the finish on the track), and the events that
tell of the results wait behind the curtain until the timeline's next tick."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self

import numpy as np

from raceday.core.events import Event
from raceday.core.game import GameOptions
from raceday.present import refusal
from raceday.rooms.base import Handler, RoomBase, StateT, outcome_json
from raceday.rooms.intents import PARTY_INTENTS, Intent, Intents, intent_union
from raceday.rooms.places import intent_int
from raceday.rooms.protocol import JSON, Actor, RoomError, as_room_error


class PartyRoom(RoomBase[StateT]):
    """A party game in a browser room: seats join by name in the lobby; at ``start`` their
    names become the game's players (option :attr:`NAMES_OPTION`). Then every seat among
    ``state.acting_players()`` may act, in any order; the host screen watches the public
    view and drives the evening.

    Intents: the host's ``start``, ``finish``, ``advance`` (draw the chance node the room
    waits at, see :meth:`waits_for_host`) and ``undo`` (where :attr:`allows_undo`); a
    seat's ``act`` (``{"type": "act", "action": n}`` by default, see :meth:`intent_action`).

    Views: :meth:`public_view` (from ``state.observation(None)``) is what the host screen
    and spectators see; :meth:`private_view` (from ``state.observation(seat)`` and that
    seat's legal actions) is added as ``"me"`` for a seat. Events are sent to everyone, so
    a game's events must carry public facts only (a sealed bid's event says who bid, not
    how much).
    """

    NAMES_OPTION: ClassVar[str] = "names"
    intents: ClassVar[Intents] = Intents(intent_union(*PARTY_INTENTS))
    min_seats: ClassVar[int] = 2
    allows_undo: ClassVar[bool] = False
    forced_moves: ClassVar[bool] = False  # play a seat's only legal action for it
    act_intent: ClassVar[str] = "act"

    def __init__(self, options: GameOptions, names: list[str] | None = None,
                 lobby_options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options)
        self.names: list[str] = list(names or [])
        self.lobby_options: JSON = dict(lobby_options or {})  # the host's, names apart
        self.curtain: JSON | None = None  # the state the screens show until the results
        self.held: list[JSON] = []  # the news that waits for the curtain's tick
        self._shown: StateT | None = None  # self.curtain, read once

    # --- what a game declares besides the class attributes --------------------------------
    @classmethod
    def read_options(cls, options: Mapping[str, Any], names: list[str]) -> GameOptions:
        """The engine's options from the host's options and the players' names (default:
        the game's options model with ``names`` under :attr:`NAMES_OPTION`)."""
        checked: GameOptions = cls.GAME.options({**options, cls.NAMES_OPTION: names})
        return checked

    def intent_action(self, state: StateT, seat: int, intent: Intent) -> int:
        """The action an ``act`` intent of ``seat`` asks for (checked by the kit)."""
        return intent_int(intent, "action", "an action")

    def waits_for_host(self, state: StateT) -> bool:
        """True at a chance node the host draws with ``advance`` (a roll on the big
        screen); False draws chance at once."""
        return False

    def paces(self, state: StateT) -> bool:
        """True at a chance node the room's timeline draws at the host's pace (a race's
        dice on the big screen); a game overrides it (default: none)."""
        return False

    def paced(self, state: StateT) -> bool:
        """A paced chance node, or the results behind the curtain (they come at the pace)."""
        return self.curtain is not None or (
            not state.is_terminal() and state.is_chance_node()
            and not self.waits_for_host(state) and self.paces(state))

    def told_at_once(self, event: Event) -> bool:
        """Whether ``event`` goes to every screen at once (the race's own news) rather than
        waiting behind the next curtain (a payout made before the race is over); default:
        every event at once."""
        return True

    def extra_public(self, state: StateT | None) -> JSON:
        """The game's own public fields (a frame, odds shown to everyone, ...)."""
        return {}

    # --- creating and saving -------------------------------------------------------------------
    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        if not isinstance(options, Mapping):
            raise refusal(RoomError, "refusal.options_object")
        if cls.NAMES_OPTION in options:
            raise refusal(RoomError, "refusal.names_from_seats", option=repr(cls.NAMES_OPTION))
        placeholder = [f"player {i + 1}" for i in range(cls.min_seats)]
        with as_room_error():
            checked = cls.read_options(options, placeholder)
        return cls(checked, [], options)

    def to_json(self) -> JSON:
        return {**super().to_json(), "lobby_options": dict(self.lobby_options),
                "held": list(self.held), "curtain": self.curtain}

    def seats_json(self) -> JSON:
        return {"names": list(self.names)}

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Self:
        room = cls(cls.GAME.options(data["options"]), [str(n) for n in data["names"]],
                   data["lobby_options"])
        held = data.get("held", [])  # rooms saved before the curtain have neither
        curtain = data.get("curtain")
        if not isinstance(held, list) or not all(isinstance(e, dict) for e in held) or \
                not (curtain is None or isinstance(curtain, dict)):
            raise RoomError(f"malformed {cls.title} room: its held results")
        room.held = [dict(e) for e in held]
        room.curtain = curtain
        return room

    # --- nothing early: the curtain -------------------------------------------------------------
    def tell(self, produced: list[Event], events: list[JSON],
             shown: StateT | None = None) -> list[JSON]:
        """Broadcast the events of a step the state has taken; the ones told now (the
        others, not :meth:`told_at_once`, wait behind the curtain). With ``shown`` (the
        game as the screens may see it now), draw the curtain: every view is built from
        ``shown`` until the timeline's next tick tells what waits, so no phone learns a
        result before the big screen shows it."""
        told: list[JSON] = []
        for e in produced:
            data = self.event_json(e)
            if self.told_at_once(e):
                self._record(data, events)
                told.append(data)
            else:
                self.held.append(data)
        if shown is not None:
            self.curtain = shown.to_json()
            self._shown = None
        return told

    def on_screens(self) -> StateT | None:
        """The state every view is built from: the one behind the curtain while it is
        drawn, else the state itself."""
        if self.curtain is None:
            return self.state
        if self._shown is None:
            self._shown = self.GAME.state_from_json(self.curtain)
        return self._shown

    def _reveal(self, events: list[JSON]) -> None:
        """The curtain's tick: the held results, for every screen together."""
        held, self.held = self.held, []
        self.curtain, self._shown = None, None
        for data in held:
            self._record(data, events)

    def finished(self) -> bool:
        """Over once the last results are out (not while they wait behind the curtain), or
        abandoned."""
        return super().finished() and (self.abandoned or self.curtain is None)

    def _play_paced(self, state: StateT, rng: np.random.Generator, events: list[JSON]) -> None:
        if self.curtain is not None:
            self._reveal(events)
            self._settle(rng, events)
            return
        super()._play_paced(state, rng, events)

    def _skip(self, actor: Actor, intent: Intent, rng: np.random.Generator,
              events: list[JSON]) -> None:
        """The paced steps up to the next choice and the results they hold back, at once."""
        super()._skip(actor, intent, rng, events)
        if self.curtain is not None:
            self._play_paced(self._playing(), rng, events)

    def start_again(self, rng: np.random.Generator, events: list[JSON]) -> None:
        self.held, self.curtain, self._shown = [], None, None
        super().start_again(rng, events)

    # --- seats ---------------------------------------------------------------------------------
    def seat_names(self) -> list[str]:
        return list(self.names)

    def add_seat(self, name: str) -> int:
        self._refuse_after_start()
        if len(self.names) >= self.max_seats:
            raise refusal(RoomError, "refusal.room_full", max=self.max_seats)
        if any(n.lower() == name.lower() for n in self.names):
            raise refusal(RoomError, "refusal.name_taken", name=repr(name))
        self.names.append(name)
        return len(self.names) - 1

    def drop_seat(self, seat: int) -> str:
        return self.names.pop(seat)

    def record_seats(self) -> list[JSON]:
        """The seats' names, each a person (or the computer standing in for them)."""
        return [{"name": n, "player": self.stand_ins.get(i, "human")}
                for i, n in enumerate(self.names)]

    def players_view(self) -> list[JSON]:
        return [{"place": i, "name": n} for i, n in enumerate(self.names)]

    def player_card(self, player: int) -> JSON:
        if 0 <= player < len(self.names):
            return {"name": self.names[player], "seat": player, "who": None}
        return super().player_card(player)

    def check_start(self) -> None:
        if len(self.names) < self.min_seats:
            raise refusal(RoomError, "refusal.too_few", title=self.title, min=self.min_seats,
                          joined=len(self.names))
        self.options = self.read_options(self.lobby_options, list(self.names))

    # --- intents -------------------------------------------------------------------------------
    def handlers(self, actor: Actor) -> dict[str, Handler]:
        if actor.kind == "host":
            own: dict[str, Handler] = {"advance": self._advance}
            if self.allows_undo:
                own["undo"] = self._undo
            return {**super().handlers(actor), **own}
        if actor.kind == "seat":
            return {self.act_intent: self._act}
        return super().handlers(actor)

    def _act(self, actor: Actor, intent: Intent, rng: np.random.Generator,
             events: list[JSON]) -> None:
        state = self._playing()
        seat = actor.seat
        assert seat is not None
        if seat not in state.acting_players():
            raise refusal(RoomError, "refusal.not_your_turn_party")
        action = self.intent_action(state, seat, intent)
        if action not in state.legal_actions_for(seat):
            raise refusal(RoomError, "refusal.not_a_choice")
        self._step(lambda: self._apply(seat, action, events), rng, events)

    def _advance(self, actor: Actor, intent: Intent, rng: np.random.Generator,
                 events: list[JSON]) -> None:
        state = self._playing()
        if not (state.is_chance_node() and self.waits_for_host(state)):
            raise refusal(RoomError, "refusal.nothing_to_advance")
        self._step(lambda: self._draw(state, rng, events), rng, events)

    def _step(self, move: Callable[[], None], rng: np.random.Generator,
              events: list[JSON]) -> None:
        """Make one checked ``move`` of play (a player's action or the host's draw), kept
        for undo where the room allows it, then play what follows without a choice."""
        if self.allows_undo:
            self._push_undo()
        move()
        self._settle(rng, events)

    def _undo(self, actor: Actor, intent: Intent, rng: np.random.Generator,
              events: list[JSON]) -> None:
        self._playing()
        self._pop_undo(events)

    def stops_at_chance(self, state: StateT) -> bool:
        return self.waits_for_host(state)

    def stand_in_turn(self, state: StateT, seat: int, level: str, rng: np.random.Generator,
                      events: list[JSON]) -> bool:
        """Play ``seat``'s turn for its absent person with a computer at ``level`` (a game
        with :meth:`stand_in_levels` overrides this); False if it has nothing to do yet."""
        return False

    def settle_step(self, state: StateT, rng: np.random.Generator, events: list[JSON]) -> bool:
        for seat in state.acting_players():
            level = self.stand_ins.get(seat)
            if level is not None and self.stand_in_turn(state, seat, level, rng, events):
                return True
        if not self.forced_moves:
            return False
        for player in state.acting_players():
            legal = state.legal_actions_for(player)
            if len(legal) == 1:
                self._apply(player, legal[0], events, forced=True)
                return True
        return False

    # --- views ---------------------------------------------------------------------------------
    def public_view(self) -> JSON:
        """What every screen sees: the spectator's observation and the public facts."""
        state = self.on_screens()
        out: JSON = {"game": self.game, "phase": self.phase(), "seats": self.seat_names(),
                     "max_seats": self.max_seats, "min_seats": self.min_seats,
                     "abandoned": self.abandoned}
        if state is not None:
            terminal = state.is_terminal()
            out.update({
                "observation": state.observation(None),
                "acting": [] if self.finished() else state.acting_players(),
                "may_advance": not self.finished() and state.is_chance_node()
                and self.waits_for_host(state),
                "may_undo": self.allows_undo and bool(self.undo) and not self.finished(),
                "recent": list(self.recent),
                "result": outcome_json(state.outcome()) if terminal else None,
                "timeline": self.timeline_view(),
                "finale": self.finale(),
            })
        out.update(self.stand_in_view())
        out.update(self.extra_public(state))
        return out

    def private_view(self, actor: Actor) -> JSON | None:
        """A seat's own part: its observation, whether it may act and its choices."""
        if actor.kind != "seat" or actor.seat is None:
            return None
        seat = actor.seat
        own: JSON = {"seat": seat, "name": self.names[seat]}
        state = self.on_screens()
        if state is not None:
            acting = not self.finished() and seat in state.acting_players() \
                and seat not in self.stand_ins
            legal = state.legal_actions_for(seat) if acting else []
            own.update({"observation": state.observation(seat), "may_act": acting,
                        "choices": [{"action": a, "message": state.action_message(a).to_json()}
                                    for a in legal]})
        return own

    def view(self, actor: Actor) -> JSON:
        out = self.public_view()
        own = self.private_view(actor)
        if own is not None:
            out["me"] = own
        return out
