"""Hairpin Racers in a browser room: a game on one screen, on two devices, or against the AI.

The rules live in the engine (:mod:`raceday.games.hairpin.rules`): the legal moves, their
names, what a decisive bump does (:func:`raceday.games.hairpin.cli.bump_warning`) and the
result all come from it; the computer players are the terminal's levels
(:data:`raceday.games.hairpin.agents.LEVELS`), and they move on the server, with the room's
generator. This module turns intents into engine calls and decides who may send them.

Places (:class:`Places`, shared with the PISTARD room). The host chooses, for Red and
Black, a human or a computer level. A phone that joins takes the first human place still
free; the host screen plays every human place no phone has taken ("on this screen"), so a
game is pass-and-play on one device when nobody joins, two devices when one player joins,
or the big screen watches while two phones play.

Flow: **lobby** (players join; the host sends ``start``), **playing** (``move`` with an
action number from the view's ``moves``; ``undo`` takes back the last own move and the
computer's answer in a game against the computer), **finished** (the result: who won and
why, from the engine's outcome). A move that is the only legal one (a pit re-entry, the
v1 skip) is played at once, as the terminal does. The host may ``finish`` a game early.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

import numpy as np

from raceday.core.agents import Agent
from raceday.core.errors import RacedayError
from raceday.games.hairpin.agents import LEVELS, make_agent
from raceday.games.hairpin.cli import bump_warning
from raceday.games.hairpin.game import GAME, HairpinOptions
from raceday.games.hairpin.rules import (
    CHARGE,
    CHARGE_BUMP,
    CHARGE_PASS,
    CRUISE,
    ENTER,
    PIT_ORIGIN,
    PLAYER_NAMES,
    SKIP,
    HairpinState,
    move_name,
)
from raceday.web.logic import JSON, Actor, RoomError

FORMAT = 1
HUMAN = "human"
COMPUTER_LEVELS = tuple(LEVELS)
PHASE_LOBBY = "lobby"
PHASE_PLAYING = "playing"
PHASE_FINISHED = "finished"
RECENT = 8  # moves kept for the view's "last moves"
MAX_UNDO = 2_000  # a game has at most ~1,000 plies, so this is never reached in play
MOVE_KINDS = {CRUISE: "cruise", CHARGE: "charge", CHARGE_BUMP: "bump", CHARGE_PASS: "pass",
              ENTER: "enter", SKIP: "skip"}


# --- places: who plays each colour (shared with the PISTARD room) ------------------------
@dataclass
class Places:
    """Each player's place: a human (a phone that joined, else the host screen) or a
    computer level. Seats are numbered in join order; ``seat_place[seat]`` is the place
    (player number) that seat plays."""

    kinds: list[str]
    names: list[str] = field(default_factory=list)
    seat_place: list[int] = field(default_factory=list)

    @staticmethod
    def check_kinds(kinds: object, levels: tuple[str, ...], low: int, high: int,
                    what: str = "players") -> list[str]:
        if not isinstance(kinds, list) or not low <= len(kinds) <= high:
            span = f"{low}" if low == high else f"{low} to {high}"
            raise RoomError(f"{what} is a list of {span} entries, each 'human' or a "
                            f"computer level ({', '.join(levels)})")
        for k in kinds:
            if k != HUMAN and k not in levels:
                raise RoomError(f"unknown player {k!r}: use 'human' or a computer level "
                                f"({', '.join(levels)})")
        if HUMAN not in kinds:
            raise RoomError("at least one player must be human (computers only: watch a race "
                            "instead)")
        return list(kinds)

    def add(self, name: str) -> int:
        free = [p for p, k in enumerate(self.kinds) if k == HUMAN and p not in self.seat_place]
        if not free:
            raise RoomError("every human place is taken; watch with the spectator link")
        if any(n.lower() == name.lower() for n in self.names):
            raise RoomError(f"someone is already called {name!r}; pick another name")
        self.names.append(name)
        self.seat_place.append(free[0])
        return len(self.names) - 1

    def controller(self, place: int) -> str:
        """``"seat"`` (a phone), ``"screen"`` (the host screen) or ``"computer"``."""
        if self.kinds[place] != HUMAN:
            return "computer"
        return "seat" if place in self.seat_place else "screen"

    def may_play(self, actor: Actor, place: int) -> bool:
        if self.controller(place) == "seat":
            return actor.kind == "seat" and actor.seat is not None and \
                self.seat_place[actor.seat] == place
        return self.controller(place) == "screen" and actor.kind == "host"

    def places_of(self, actor: Actor) -> list[int]:
        return [p for p in range(len(self.kinds)) if self.may_play(actor, p)]

    def humans(self) -> list[int]:
        return [p for p, k in enumerate(self.kinds) if k == HUMAN]

    def name(self, place: int) -> str | None:
        if place in self.seat_place:
            return self.names[self.seat_place.index(place)]
        return None

    def view(self) -> list[JSON]:
        return [{"place": p, "kind": k, "controller": self.controller(p), "name": self.name(p)}
                for p, k in enumerate(self.kinds)]

    def to_json(self) -> JSON:
        return {"kinds": list(self.kinds), "names": list(self.names),
                "seat_place": list(self.seat_place)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Places:
        places = cls([str(k) for k in data["kinds"]], [str(n) for n in data["names"]],
                     [int(p) for p in data["seat_place"]])
        if len(places.names) != len(places.seat_place) or any(
                not 0 <= p < len(places.kinds) for p in places.seat_place):
            raise ValueError("seats and places do not match")
        return places


def intent_int(intent: Mapping[str, Any], key: str, what: str) -> int:
    value = intent.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError(f"{what} must be a whole number")
    return value


# --- the room ----------------------------------------------------------------------------
class HairpinRoom:
    """A Hairpin Racers game for a browser room (see the module docstring)."""

    game: ClassVar[str] = "hairpin"
    max_seats: ClassVar[int] = 2

    def __init__(self, options: HairpinOptions, places: Places) -> None:
        self.options = options
        self.places = places
        self.state: HairpinState | None = None
        self.undo: list[JSON] = []  # states before each undoable human move
        self.recent: list[JSON] = []  # the last moves, newest last
        self.abandoned = False
        self._agents: dict[int, Agent] = {}

    # --- creating and saving ------------------------------------------------------------
    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        if not isinstance(options, Mapping):
            raise RoomError("options must be an object")
        unknown = sorted(set(options) - {"variant", "position", "red", "black"})
        if unknown:
            raise RoomError(f"unknown Hairpin option(s): {', '.join(map(str, unknown))}")
        kinds = Places.check_kinds([options.get("red", HUMAN), options.get("black", "medium")],
                                   COMPUTER_LEVELS, 2, 2, "red and black")
        engine: dict[str, Any] = {"variant": options.get("variant", "standard")}
        if options.get("position") is not None:
            engine["position"] = options["position"]
        try:
            checked = HairpinOptions.parse(engine)
        except RacedayError as exc:
            raise RoomError(str(exc)) from None
        return cls(checked, Places(kinds))

    def to_json(self) -> JSON:
        return {"format": FORMAT, "options": self.options.to_json(),
                "places": self.places.to_json(),
                "state": None if self.state is None else self.state.to_json(),
                "undo": list(self.undo), "recent": list(self.recent),
                "abandoned": self.abandoned}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            if data.get("format") != FORMAT:
                raise RoomError(f"unknown Hairpin room format {data.get('format')!r}")
            room = cls(HairpinOptions.parse(data["options"]), Places.from_json(data["places"]))
            if data["state"] is not None:
                room.state = HairpinState.from_json(data["state"])
            room.undo = [dict(s) for s in data["undo"]]
            room.recent = [dict(m) for m in data["recent"]]
            room.abandoned = bool(data["abandoned"])
        except (KeyError, TypeError, ValueError, AttributeError, RacedayError) as exc:
            if isinstance(exc, RoomError):
                raise
            raise RoomError(f"malformed Hairpin room: {exc}") from None
        return room

    # --- seats --------------------------------------------------------------------------
    def seat_names(self) -> list[str]:
        return list(self.places.names)

    def add_seat(self, name: str) -> int:
        if self.state is not None:
            raise RoomError("the game has started; watch with the spectator link instead")
        return self.places.add(name)

    def finished(self) -> bool:
        return self.abandoned or (self.state is not None and self.state.is_terminal())

    def phase(self) -> str:
        if self.state is None:
            return PHASE_LOBBY
        return PHASE_FINISHED if self.finished() else PHASE_PLAYING

    def vs_computer(self) -> bool:
        """One human against the computer: the game where undo is allowed."""
        return len(self.places.humans()) == 1

    # --- intents ------------------------------------------------------------------------
    def handle(self, actor: Actor, intent: Mapping[str, Any],
               rng: np.random.Generator) -> list[JSON]:
        kind = intent.get("type")
        if actor.kind == "spectator":
            raise RoomError("spectators watch; join the room to play")
        events: list[JSON] = []
        try:
            if kind == "start" and actor.kind == "host":
                self._start(rng, events)
            elif kind == "finish" and actor.kind == "host":
                self._playing()
                self.abandoned = True
                events.append({"type": "abandoned"})
            elif kind == "move":
                self._move(actor, intent, rng, events)
            elif kind == "undo":
                self._undo(actor, events)
            else:
                who = "the host" if actor.kind == "host" else "a player"
                raise RoomError(f"{who} cannot send {kind!r} in Hairpin Racers")
        except RoomError:
            raise
        except RacedayError as exc:
            raise RoomError(str(exc)) from None
        return events

    def _playing(self) -> HairpinState:
        if self.state is None:
            raise RoomError("the game has not started yet")
        if self.finished():
            raise RoomError("the game is over")
        return self.state

    def _start(self, rng: np.random.Generator, events: list[JSON]) -> None:
        if self.state is not None:
            raise RoomError("the game has already started")
        self.state = GAME.new_state(self.options)
        events.append({"type": "started", "players": self.places.view(),
                       "variant": self.options.variant})
        self._run(rng, events)

    def _move(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
              events: list[JSON]) -> None:
        state = self._playing()
        player = state.current_player()
        if not self.places.may_play(actor, player):
            raise RoomError(f"it is {PLAYER_NAMES[player].capitalize()}'s turn, not yours")
        action = intent_int(intent, "action", "a move's action")
        if action not in state.legal_actions():
            names = ", ".join(move_name(m) for m in state.moves())
            raise RoomError(f"that move is not legal now; legal moves: {names}")
        before = state.to_json()
        self._apply(player, action, events)
        if self.vs_computer():
            self.undo = [*self.undo[-(MAX_UNDO - 1):], before]
        self._run(rng, events)

    def _undo(self, actor: Actor, events: list[JSON]) -> None:
        self._playing()
        if not self.vs_computer():
            raise RoomError("undo is only for a game against the computer")
        if not any(self.places.may_play(actor, p) for p in self.places.humans()):
            raise RoomError("only the human player may take a move back")
        if not self.undo:
            raise RoomError("there is no move of yours to take back yet")
        self.state = HairpinState.from_json(self.undo.pop())
        self.recent = []
        events.append({"type": "undone", "ply": self.state.position.ply})

    def _apply(self, player: int, action: int, events: list[JSON], forced: bool = False
               ) -> None:
        state = self.state
        assert state is not None
        for e in state.apply_action(action):
            data = {"type": e.kind, **e.data}
            if data["type"] == "move":
                data["by"] = player
                data["forced"] = forced
                self.recent = [*self.recent[-(RECENT - 1):], dict(data)]
            events.append(data)

    def _agent(self, player: int) -> Agent:
        if player not in self._agents:
            self._agents[player] = make_agent(self.places.kinds[player])
        return self._agents[player]

    def _run(self, rng: np.random.Generator, events: list[JSON]) -> None:
        """Everything that needs nobody: the random setup's rolls, the computer's moves and
        a human's only legal move; stops when a human must choose or the game is over."""
        state = self.state
        assert state is not None
        while not state.is_terminal():
            if state.is_chance_node():
                draw = state.sample_chance(rng)
                events.extend({"type": e.kind, **e.data}
                              for e in state.apply_action(draw.outcome, draw.detail))
                continue
            player = state.current_player()
            if self.places.kinds[player] != HUMAN:
                self._apply(player, self._agent(player).choose(state, rng), events)
                continue
            legal = state.legal_actions()
            if len(legal) != 1:
                return
            self._apply(player, legal[0], events, forced=True)

    # --- views --------------------------------------------------------------------------
    def _moves(self, state: HairpinState) -> list[JSON]:
        out = []
        for m in state.moves():
            warning = bump_warning(state, m)
            out.append({
                "action": m.action, "name": move_name(m),
                "from": -1 if m.origin == PIT_ORIGIN else (-2 if m.kind == SKIP else m.origin),
                "to": m.dest, "kind": MOVE_KINDS[m.kind],
                "lap": m.lap, "hit": m.hit, "warning": warning,
                "decides": None if warning is None else
                ("loses" if warning.endswith("lose") else "wins"),
            })
        return out

    def _result(self, state: HairpinState) -> JSON:
        out = state.outcome()
        rules = state.rules
        if out.winner is None:
            reason = "draw"
        elif not rules.derby and state.position.laps[out.winner] >= rules.target:
            reason = "laps"
        elif rules.derby:
            reason = "derby"
        else:
            reason = "disqualified"
        return {"winner": out.winner, "reason": reason, "description": out.description,
                "laps": list(state.position.laps), "bumps": list(state.position.bumps),
                "plies": state.position.ply}

    def view(self, actor: Actor) -> JSON:
        rules = self.options.rules()
        out: JSON = {
            "game": self.game, "phase": self.phase(), "seats": self.seat_names(),
            "max_seats": len(self.places.humans()), "players": self.places.view(),
            "variant": self.options.variant,
            "rules": {"target": rules.target, "bumping": rules.bumping, "derby": rules.derby,
                      "v1": rules.v1, "random": rules.setup == "random",
                      "quiet_limit": rules.quiet_limit},
            "mine": self.places.places_of(actor),
            "vs_computer": self.vs_computer(),
        }
        if actor.kind == "seat" and actor.seat is not None:
            out["me"] = {"seat": actor.seat, "name": self.places.names[actor.seat],
                         "place": self.places.seat_place[actor.seat]}
        state = self.state
        if state is None:
            return out
        pos = state.position
        terminal = state.is_terminal()
        to_move = None if terminal or state.in_setup else pos.side
        may_move = to_move is not None and not self.abandoned and \
            self.places.may_play(actor, to_move)
        may_undo = self.vs_computer() and bool(self.undo) and not self.finished() and any(
            self.places.may_play(actor, p) for p in self.places.humans())
        out.update({
            "board": {"cells": list(pos.cells), "laps": list(pos.laps),
                      "bumps": list(pos.bumps), "pit": list(pos.pit), "clock": pos.clock,
                      "ply": pos.ply, "text": state.position_text()},
            "to_move": to_move, "may_move": may_move, "may_undo": may_undo,
            "moves": [] if to_move is None or self.abandoned else self._moves(state),
            "recent": list(self.recent),
            "result": self._result(state) if terminal else None,
            "abandoned": self.abandoned,
        })
        return out


LOGIC = HairpinRoom

__all__ = ["HUMAN", "LOGIC", "HairpinRoom", "Places", "intent_int"]
