"""A PISTARD race in a browser room: 2 to 5 players (the team time trial 1), humans and
computer riders in any mix, every variant, each player's dice and moves on their phone.

The rules live in the engine (:class:`~raceday.games.pistard.state.PistardState`): the
placements, the throw of the four coloured dice (a chance node drawn with the room's
generator), the legal moves with the die that allows each one, standing still, sprints,
eliminations, team times and the result. The computer riders are the terminal's levels
(:func:`raceday.games.pistard.agents.make_agent`) and ride on the server. This module
turns intents into engine calls and decides who may send them.

Places work as in the Hairpin room (:class:`~raceday.web.hairpin_room.Places`): the host
lists the players (``"human"`` or a computer level); a phone that joins takes the first
free human place, and the host screen plays the human places nobody took.

Flow: **lobby** (players join; the host sends ``start``), **racing** (``move`` with an
action number from the view's ``choices``: place a rider on the start line, pick the team's
next rider, or play a die; the dice are thrown by the server as soon as a rider's turn
comes, and a choice that is the only one is played at once), **finished** (the result).
The host may ``finish`` a race early.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

import numpy as np

from raceday.core.agents import Agent
from raceday.core.errors import RacedayError
from raceday.core.events import Event
from raceday.games.pistard.agents import LEVELS, make_agent
from raceday.games.pistard.game import GAME
from raceday.games.pistard.moves import CHOOSE_BASE, PLACE_BASE
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.render import commentary
from raceday.games.pistard.state import PHASE_PLACE, PistardState
from raceday.games.pistard.track import COLOURS, LETTERS, SHIPPED_TRACKS, load_track
from raceday.games.pistard.variants import OUT, RACE, VARIANT_RULES
from raceday.rooms import HUMAN, Places, check_kinds, intent_int
from raceday.web.logic import JSON, Actor, RoomError

FORMAT = 1
MAX_PLAYERS = 5
RECENT = 14  # events kept for the view's commentary
OPTION_NAMES = ("variant", "players", "riders_per_player", "tokens", "laps", "track",
                "max_rounds")
PHASE_LOBBY = "lobby"
PHASE_RACING = "racing"
PHASE_FINISHED = "finished"


def _event(e: Event) -> JSON:
    """An engine event for the clients, with the terminal's one line about it."""
    return {"type": e.kind, **e.data, "text": commentary(e)}


class PistardRoom:
    """A PISTARD race for a browser room (see the module docstring)."""

    game: ClassVar[str] = "pistard"
    max_seats: ClassVar[int] = MAX_PLAYERS

    def __init__(self, options: PistardOptions, places: Places) -> None:
        self.options = options
        self.places = places
        self.state: PistardState | None = None
        self.recent: list[JSON] = []
        self.abandoned = False
        self._agents: dict[int, Agent] = {}

    # --- creating and saving ------------------------------------------------------------
    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        if not isinstance(options, Mapping):
            raise RoomError("options must be an object")
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise RoomError(f"unknown PISTARD option(s): {', '.join(map(str, unknown))}")
        variant = options.get("variant", "scratch")
        low, high = VARIANT_RULES[variant].players if variant in VARIANT_RULES else (1, 5)
        default = [HUMAN] if high == 1 else [HUMAN, "medium"]
        kinds = check_kinds(options.get("players", default), LEVELS, low, high)
        track = options.get("track", "default")
        if track not in SHIPPED_TRACKS:
            raise RoomError(f"track must be one of {', '.join(SHIPPED_TRACKS)}")
        engine = {k: options[k] for k in OPTION_NAMES if k in options and options[k] is not None}
        engine["players"] = len(kinds)
        try:
            checked = PistardOptions.parse(engine)
        except RacedayError as exc:
            raise RoomError(str(exc)) from None
        return cls(checked, Places(kinds))

    def to_json(self) -> JSON:
        return {"format": FORMAT, "options": self.options.to_json(),
                "places": self.places.to_json(),
                "state": None if self.state is None else self.state.to_json(),
                "recent": list(self.recent), "abandoned": self.abandoned}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        try:
            if data.get("format") != FORMAT:
                raise RoomError(f"unknown PISTARD room format {data.get('format')!r}")
            room = cls(PistardOptions.parse(data["options"]), Places.from_json(data["places"]))
            if data["state"] is not None:
                room.state = GAME.state_from_json(data["state"])
            room.recent = [dict(e) for e in data["recent"]]
            room.abandoned = bool(data["abandoned"])
        except (KeyError, TypeError, ValueError, AttributeError, RacedayError) as exc:
            if isinstance(exc, RoomError):
                raise
            raise RoomError(f"malformed PISTARD room: {exc}") from None
        return room

    # --- seats --------------------------------------------------------------------------
    def seat_names(self) -> list[str]:
        return list(self.places.names)

    def add_seat(self, name: str) -> int:
        if self.state is not None:
            raise RoomError("the race has started; watch with the spectator link instead")
        return self.places.add(name)

    def finished(self) -> bool:
        return self.abandoned or (self.state is not None and self.state.is_terminal())

    def phase(self) -> str:
        if self.state is None:
            return PHASE_LOBBY
        return PHASE_FINISHED if self.finished() else PHASE_RACING

    # --- intents ------------------------------------------------------------------------
    def handle(self, actor: Actor, intent: Mapping[str, Any],
               rng: np.random.Generator) -> list[JSON]:
        kind = intent.get("type")
        if actor.kind == "spectator":
            raise RoomError("spectators watch; join the room to play")
        events: list[JSON] = []
        try:
            if kind == "start" and actor.kind == "host":
                if self.state is not None:
                    raise RoomError("the race has already started")
                self.state = GAME.new_state(self.options)
                events.append({"type": "started", "players": self.places.view(),
                               "variant": self.options.variant})
                self._run(rng, events)
            elif kind == "finish" and actor.kind == "host":
                self._racing()
                self.abandoned = True
                events.append({"type": "abandoned"})
            elif kind == "move":
                self._move(actor, intent, rng, events)
            else:
                who = "the host" if actor.kind == "host" else "a player"
                raise RoomError(f"{who} cannot send {kind!r} in PISTARD")
        except RoomError:
            raise
        except RacedayError as exc:
            raise RoomError(str(exc)) from None
        return events

    def _racing(self) -> PistardState:
        if self.state is None:
            raise RoomError("the race has not started yet")
        if self.finished():
            raise RoomError("the race is over")
        return self.state

    def _move(self, actor: Actor, intent: Mapping[str, Any], rng: np.random.Generator,
              events: list[JSON]) -> None:
        state = self._racing()
        player = state.current_player()
        if not self.places.may_play(actor, player):
            raise RoomError(f"it is player {player + 1}'s turn, not yours")
        action = intent_int(intent, "action", "a move's action")
        legal = state.legal_actions()
        if action not in legal:
            raise RoomError(f"that is not a legal choice now; choose one of the "
                            f"{len(legal)} listed")
        self._apply(action, events)
        self._run(rng, events)

    def _apply(self, action: int, events: list[JSON], forced: bool = False) -> None:
        state = self.state
        assert state is not None
        for e in state.apply_action(action):
            data = _event(e)
            if forced:
                data["forced"] = True
            events.append(data)
            self._remember(data)

    def _remember(self, data: JSON) -> None:
        if data["type"] != "positions":  # the view has the positions already
            self.recent = [*self.recent[-(RECENT - 1):], data]

    def _agent(self, player: int) -> Agent:
        if player not in self._agents:
            self._agents[player] = make_agent(self.places.kinds[player])
        return self._agents[player]

    def _run(self, rng: np.random.Generator, events: list[JSON]) -> None:
        """Throws, computer riders and forced choices, until a human must choose."""
        state = self.state
        assert state is not None
        for _ in range(GAME.max_steps(self.options)):
            if state.is_terminal():
                return
            if state.is_chance_node():
                draw = state.sample_chance(rng)
                for e in state.apply_action(draw.outcome, draw.detail):
                    data = _event(e)
                    events.append(data)
                    self._remember(data)
                continue
            player = state.current_player()
            if self.places.kinds[player] != HUMAN:
                self._apply(self._agent(player).choose(state, rng), events)
                continue
            legal = state.legal_actions()
            if len(legal) != 1:
                return
            self._apply(legal[0], events, forced=True)
        raise RoomError("the race ran longer than its bound; this is a bug")

    # --- views --------------------------------------------------------------------------
    def _choices(self, state: PistardState) -> JSON:
        """What the player to act may do, each with its action number."""
        length = state.track.length
        if state.phase == PHASE_PLACE:
            rider = state.riders[state.place_queue[0]]
            items: list[JSON] = []
            for a in state.legal_actions():
                back, lane = divmod(a - PLACE_BASE, 10)
                items.append({"action": a, "back": back, "lane": lane,
                              "col": (rider.offset - back) % length})
            return {"kind": "place", "rider": rider.ident, "items": items}
        if state.mover is None:
            return {"kind": "choose", "items": [
                {"action": a, "rider": a - CHOOSE_BASE} for a in state.legal_actions()]}
        rider = state.riders[state.mover]
        col = (rider.dist + rider.offset) % length
        table = state.move_table()
        items = []
        stay = None
        for a in state.legal_actions():
            info = table.get(a)
            if info is None:
                stay = {"action": a,
                        "why": "sur_place" if state.options.variant == "sprint" else "keep"}
                continue
            items.append({"action": a, "ahead": info.ahead, "lane": info.lane,
                          "col": (col + info.ahead) % length, "token": info.token,
                          "colour": COLOURS[info.colour], "value": info.value,
                          "behind": info.behind})
        return {"kind": "move", "rider": rider.ident, "items": items, "stay": stay}

    def _standings(self, state: PistardState) -> list[JSON]:
        finish = state.options.race_laps * state.track.length
        points = state.options.variant == "points"
        rows = []
        order = state.race_order()
        ranked = [i for i in order] + [i for i in range(len(state.riders)) if i not in order]
        for place, i in enumerate(ranked, start=1):
            r = state.riders[i]
            rows.append({"place": place if r.status == RACE else None, "rider": r.ident,
                         "owner": r.owner, "status": r.status, "lane": r.lane,
                         "to_go": finish - r.dist if r.status == RACE else None,
                         "points": state.points[i] if points else None,
                         "laps": state.laps_delta[i] if points else None})
        return rows

    def _result(self, state: PistardState) -> JSON:
        out = state.outcome()
        riders = state.riders
        rows = []
        heat_out = {i: k + 1 for k, i in enumerate(state.eliminated)}
        if state.rules.ranks_riders and state.options.variant != "ttt":
            for place, i in enumerate(state.ranking, start=1):
                r = riders[i]
                rows.append({"place": place, "rider": r.ident, "owner": r.owner,
                             "points": state.points[i], "laps": state.laps_delta[i],
                             "out_heat": heat_out.get(i), "fell": r.status == OUT})
        return {"description": out.description, "winner": out.winner,
                "winning_players": list(out.winning_players), "ranking": rows,
                "stopped": state.stopped, "rounds": state.rounds_total,
                "team_times": [{"team": t, "rounds": n, "past": past}
                               for t, n, past, _lane in state.team_times],
                "team_time": state.team_time() if state.options.variant == "ttt" else None,
                "score_name": out.score_name}

    def view(self, actor: Actor) -> JSON:
        opts = self.options
        track = load_track(opts.track) if self.state is None else self.state.track
        length = track.length
        out: JSON = {
            "game": self.game, "phase": self.phase(), "seats": self.seat_names(),
            "max_seats": len(self.places.humans()), "players": self.places.view(),
            "config": {"variant": opts.variant, "riders_each": opts.riders_each,
                       "tokens": opts.tokens, "laps": opts.race_laps,
                       "lap_points": list(opts.lap_points), "track": opts.track,
                       "team": opts.rules.team},
            "track": {"name": track.name, "length": length,
                      "grid": ["".join(LETTERS[c] for c in track.grid[lane])
                               for lane in range(1, track.lanes + 1)],
                      "lines": sorted({opts.rules.start_offset(p, length)
                                       for p in range(opts.num_players)})},
            "mine": self.places.places_of(actor),
        }
        if actor.kind == "seat" and actor.seat is not None:
            out["me"] = {"seat": actor.seat, "name": self.places.names[actor.seat],
                         "place": self.places.seat_place[actor.seat]}
        state = self.state
        if state is None:
            return out
        terminal = state.is_terminal()
        to_act = None if terminal or self.abandoned else state.current_player()
        mover = None if state.mover is None else state.riders[state.mover].ident
        out.update({
            "heat": state.heat, "round": state.round, "stopped": state.stopped,
            "riders": [{"rider": r.ident, "owner": r.owner, "status": r.status,
                        "lane": r.lane, "dist": r.dist,
                        "col": (r.dist + r.offset) % length} for r in state.riders],
            "tokens": list(state.tokens),
            "mover": mover, "dice": None if state.dice is None else list(state.dice),
            "to_act": to_act,
            "may_act": to_act is not None and self.places.may_play(actor, to_act),
            "choices": None if to_act is None else self._choices(state),
            "standings": self._standings(state),
            "sprints": [[state.riders[i].ident for i in lap] for lap in state.sprints],
            "eliminated": [state.riders[i].ident for i in state.eliminated],
            "recent": list(self.recent),
            "result": self._result(state) if terminal else None,
            "abandoned": self.abandoned,
        })
        return out


LOGIC = PistardRoom

__all__ = ["LOGIC", "PistardRoom"]
