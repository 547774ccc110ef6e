"""Watching a WielerSIM race together: a browser room whose film the server plays.

The host picks a route, a peloton and a seed (the options the /wielersim page offers; a
stage of a saved stage race comes with its own route, jersey and generator, see
:func:`raceday.games.wielersim.watch.stage_room_options`), phones join by name or watch,
and once the host starts, the room's timeline (:mod:`raceday.rooms.base`) rides one turn
a paced step: every screen gets the same frame at the same moment, at the host's pace,
with nobody's page driving it; the host may pause, resume, change the pace or skip to the
finish. The frames are those of :mod:`raceday.games.wielersim.filming`, ridden with the
race's own generator (``default_rng(seed)``, or the stage's generator spawned from the
stage race's seed), so a room shows the very race the REST film and the saved stage
record have: the seed, not the room, decides the race.

Intents: the kit's (host ``start``, ``pace``, ``pause``, ``resume``, ``skip``,
``finish``; the timeline's ``tick``). Every screen's view has ``film`` (route, riders,
what is watched), ``frame`` (the last turn shown, or None before the first), ``ticker``
(the last commentary items with their turn), ``shown`` (frames so far) and, once over,
``standings`` (the order of arrival with gaps and points).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Self

import numpy as np
from pydantic import BeforeValidator, Field, WithJsonSchema

from raceday.core.digits import ascii_int
from raceday.core.errors import OptionsError, refusal
from raceday.core.events import Message
from raceday.core.game import GameOptions
from raceday.games.wielersim.choices import MAX_SEED, PELOTONS
from raceday.games.wielersim.commentary import Commentator, named_stage_message
from raceday.games.wielersim.filming import next_frame, result_rows, riders_info, route_info
from raceday.games.wielersim.game import GAME as ENGINE
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.rules import WielersimState, format_gap
from raceday.games.wielersim.stage import stage_rng
from raceday.rooms import JSON, Actor, PartyRoom
from raceday.rooms.base import Handler

TICKER_KEPT = 12  # commentary items kept for the view
MAX_TEXT = 120


def _shipped_or_table(allowed: tuple[str, ...], what: str) -> BeforeValidator:
    """A shipped name (never a file on the server) or a table of the game's own format."""

    def check(value: object) -> object:
        if isinstance(value, Mapping):
            return dict(value)
        if isinstance(value, str) and value in allowed:
            return value
        raise refusal(OptionsError, f"wielersim.reason.{what}_shipped", names=list(allowed))

    return BeforeValidator(check)


def _seed(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = ascii_int(value, max_digits=19)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise refusal(OptionsError, "wielersim.reason.seed", most="2**63 - 1")
    return value


def _text(value: object) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > MAX_TEXT or not value.isprintable():
        raise refusal(OptionsError, "wielersim.reason.text", most=MAX_TEXT)
    return value


Text = Annotated[str | None, BeforeValidator(_text),
                 WithJsonSchema({"anyOf": [{"type": "string", "maxLength": MAX_TEXT},
                                           {"type": "null"}]})]


class WatchOptions(GameOptions):
    """What a host chooses for a watch room: the race (route, peloton, jersey) and its
    seed; for a stage of a stage race, also the stage's number (its generator is spawned
    for it from the stage race's seed), the stage race's name and the stage's title."""

    game_title: ClassVar[str] = "WielerSIM"
    title_words: ClassVar[str | None] = "wielersim.title"

    route: Annotated[str | dict[str, Any], _shipped_or_table(SHIPPED_ROUTES, "route"),
                     WithJsonSchema({"anyOf": [{"enum": list(SHIPPED_ROUTES)},
                                               {"type": "object"}]})] = Field(
        "flanders", description="a shipped route (or a route table)")
    peloton: Annotated[str | dict[str, Any], _shipped_or_table(PELOTONS, "peloton"),
                       WithJsonSchema({"anyOf": [{"enum": list(PELOTONS)},
                                                 {"type": "object"}]})] = Field(
        "classics", description="a shipped peloton or start list (or a peloton table)")
    jersey: int | None = Field(None, strict=True,
                               description="bib of the rider in the leader's jersey")
    seed: Annotated[int | None, BeforeValidator(_seed), WithJsonSchema({
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": MAX_SEED},
                  {"type": "string", "pattern": "^[0-9]{1,19}$"}, {"type": "null"}]})] = Field(
        None, description="the race's seed, 0 to 2**63 - 1; none: the room's own")
    stage: int | None = Field(None, ge=0, le=99, strict=True,
                              description="a stage race's stage number (0 for the first)")
    campaign: Text = Field(None, description="the stage race's name")
    title: Text = Field(None, description="the stage's title")
    lesson: bool = Field(False, strict=True,
                         description="the first race of the game's lesson (its screens "
                                     "lead back to the lesson)")

    def race(self) -> dict[str, Any]:
        """The race as the game's own options."""
        return {"route": self.route, "peloton": self.peloton, "jersey": self.jersey}

    def generator(self) -> np.random.Generator:
        """The race's generator: the seed's, or the stage's spawned from it."""
        seed = self.seed if self.seed is not None else 0
        return np.random.default_rng(seed) if self.stage is None else stage_rng(seed, self.stage)


class WatchRoom(PartyRoom[WielersimState]):
    """A WielerSIM race watched together, paced by the server (see the module docstring)."""

    game: ClassVar[str] = "wielersim"
    GAME = ENGINE
    title: ClassVar[str] = "WielerSIM"
    noun: ClassVar[str] = "race"
    playing_phase: ClassVar[str] = "racing"
    max_seats: ClassVar[int] = 12  # phones that watch by name
    min_seats: ClassVar[int] = 0  # the host's screen alone may watch
    default_pace: ClassVar[float] = 1.5  # seconds a turn
    WIRE_NAMES: ClassVar[Mapping[str, Mapping[str, str]]] = {"throw": {"die": "kind"}}
    Options: ClassVar[type[GameOptions] | None] = WatchOptions

    def __init__(self, options: GameOptions, names: list[str] | None = None,
                 lobby_options: Mapping[str, Any] | None = None) -> None:
        super().__init__(options, names, lobby_options)
        self.watch = WatchOptions.parse(self.lobby_options)
        self.gen = self.watch.generator()
        self.talk = Commentator()
        self.frame: JSON | None = None
        self.ticker: list[JSON] = []
        self.shown = 0
        self._film: JSON | None = None  # the film's fixed part (route, riders), made once

    # --- options and saving --------------------------------------------------------------
    @classmethod
    def create(cls, options: Mapping[str, Any], seed: int) -> Self:
        """A room in its lobby; with no seed given, the race rides with the room's own."""
        if isinstance(options, Mapping) and options.get("seed") in (None, ""):
            options = {**options, "seed": seed}
        return super().create(options, seed)

    @classmethod
    def read_options(cls, options: Mapping[str, Any], names: list[str]) -> GameOptions:
        """The race's options (the phones that join only watch: no players)."""
        return ENGINE.options(WatchOptions.parse(options).race())

    def to_json(self) -> JSON:
        return {**super().to_json(), "film": {
            "generator": self.gen.bit_generator.state, "shown": self.shown,
            "frame": self.frame, "ticker": list(self.ticker),
            "break": sorted(self.talk.break_riders)}}

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Self:
        room = super().restore(data)
        film = data["film"]
        room.gen.bit_generator.state = dict(film["generator"])
        room.shown = int(film["shown"])
        room.frame = None if film["frame"] is None else dict(film["frame"])
        room.ticker = [dict(i) for i in film["ticker"]]
        room.talk = Commentator(frozenset(int(n) for n in film["break"]))
        return room

    def started_facts(self) -> JSON:
        """The race's seed in the log, so a race played again with a new seed replays too."""
        return {"seed": None if self.watch.seed is None else str(self.watch.seed)}

    # --- the timeline: one turn a paced step ---------------------------------------------
    def paces(self, state: WielersimState) -> bool:
        return True

    def paced_step(self, state: WielersimState, rng: np.random.Generator,
                   events: list[JSON]) -> None:
        """Ride one turn with the race's own generator (not the room's: the seed decides
        the race) and show its frame."""
        frame = next_frame(state, self.gen, self.talk)
        self.frame = frame
        self.shown += 1
        self.ticker = [*self.ticker, *({"turn": frame["turn"], **item}
                                       for item in frame["items"])][-TICKER_KEPT:]
        events.append({"type": "film_frame", "turn": frame["turn"], "shown": self.shown,
                       "finished": frame["finished"]})

    def handlers(self, actor: Actor) -> dict[str, Handler]:
        if actor.kind == "seat":
            return {}  # a phone only watches
        return super().handlers(actor)

    # --- views -----------------------------------------------------------------------------
    def film_view(self) -> JSON:
        """The film's fixed part: the route, the riders and what is watched."""
        if self._film is None:
            state = self.state if self.state is not None else self.new_state()
            w = self.watch
            self._film = {
                "route": route_info(state), "riders": riders_info(state.peloton),
                "jersey": state.peloton_spec.get("jersey"),
                "route_name": w.route if isinstance(w.route, str) else None,
                "peloton_name": w.peloton if isinstance(w.peloton, str) else None,
                "seed": None if w.seed is None else str(w.seed),
                "stage": w.stage, "campaign": w.campaign, "title": w.title,
                "lesson": w.lesson,
                "title_words": None if w.title is None else
                named_stage_message(w.title).to_json()}
        return self._film

    def extra_public(self, state: WielersimState | None) -> JSON:
        over = state is not None and state.is_terminal()
        return {"film": self.film_view(), "frame": self.frame, "ticker": list(self.ticker),
                "shown": self.shown,
                "standings": result_rows(state) if over and state is not None else None}

    # --- the finale (the kit's podium and awards, of riders rather than seats) ------------
    def _rider(self, number: int) -> str:
        names = {r["number"]: r["name"] for r in self.film_view()["riders"]}
        return f"{names.get(number, '?')} ({number})"

    def podium(self, state: WielersimState) -> list[JSON]:
        """The race's first three riders, the gap under each."""
        return [{"place": r["place"], "name": self._rider(r["number"]), "seat": None,
                 "who": None,
                 "detail": Message("wv_winner_detail" if r["place"] == 1 else
                                   "wv_gap_detail" if r["gap"] else "wv_same_time",
                                   {"gap": format_gap(r["gap"])}).to_json()}
                for r in result_rows(state)[:3]]

    def awards(self, state: WielersimState) -> list[JSON]:
        """The best rider of the sprints' and of the climbs' points, where any were won."""
        rows = result_rows(state)
        out: list[JSON] = []
        for field, key in (("points", "wv_award_points"), ("mountains", "wv_award_mountains")):
            best = max(rows, key=lambda r: (r[field], -r["place"]))
            if best[field] > 0:
                out.append({"title": Message(key).to_json(), "name": self._rider(best["number"]),
                            "seat": None, "who": None,
                            "detail": Message("wv_award_pts", {"n": best[field]}).to_json()})
        return out

    def start_again(self, rng: np.random.Generator, events: list[JSON]) -> None:
        """Another race on the same route with the same peloton and a new seed drawn from
        the room's generator (a stage of a stage race is ridden again as it was)."""
        if self.watch.stage is None:
            self.lobby_options = {**self.lobby_options, "seed": int(rng.integers(2**53))}
            self.watch = WatchOptions.parse(self.lobby_options)
        self.gen = self.watch.generator()
        self.talk = Commentator()
        self.frame, self.ticker, self.shown, self._film = None, [], 0, None
        super().start_again(rng, events)


LOGIC = WatchRoom
