"""WielerSIM as one :class:`~raceday.core.game.Game`: its options and how a race starts.

A race has no decision-making players: every node is a throw of dice, so the outcome
names no winning players and :meth:`~raceday.core.protocol.State.returns` is empty. The
ranking is the order of arrival; the scores are each rider's seconds behind the winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field, ValidationInfo, field_validator

from raceday.core.errors import OptionsError, refusal
from raceday.core.game import Game, GameOptions
from raceday.games.wielersim import dice
from raceday.games.wielersim.peloton import START_LISTS, strip_ratings
from raceday.games.wielersim.route import SHIPPED_ROUTES, compile_route, shipped_route
from raceday.games.wielersim.rules import (
    WielersimState,
    peloton_spec,
    route_spec,
    steps_bound,
)


def _default_route() -> dict[str, Any]:
    return route_spec("flanders")


def _default_peloton() -> dict[str, Any]:
    return peloton_spec("classics")


class WielersimOptions(GameOptions):
    """The options of one race. ``route`` and ``peloton`` may be given as a shipped name,
    a file path or a mapping; they are kept as the checked, normalised mapping (so saved
    options never depend on a file that may change)."""

    game_title: ClassVar[str] = "WielerSIM"
    title_words: ClassVar[str | None] = "wielersim.title"

    route: dict[str, Any] = Field(
        default_factory=_default_route,
        description=f"Route schedule (TOML file) or a shipped route: "
        f"{', '.join(SHIPPED_ROUTES)}.",
        json_schema_extra={"cli": {"argument": True}, "plain_default": "flanders"})
    peloton: dict[str, Any] = Field(
        default_factory=_default_peloton,
        description="Peloton file (CSV or TOML) or a shipped one: classics, small, or a rated "
        f"start list: {', '.join(START_LISTS)}.",
        json_schema_extra={"cli": {"argument": True}, "plain_default": "classics"})
    board: int | None = Field(
        None, ge=0, le=dice.BOARD_LAYOUTS - 1, strict=True,
        description=f"Cobble board layout, 0 to {dice.BOARD_LAYOUTS - 1}; none: thrown at "
        "random before the start (on a route with cobbles of no given roughness).")
    jersey: int | None = Field(
        None, strict=True,
        description="Bib number of the rider in the leader's jersey (he starts first and "
        "with the better throw); none: the peloton's own jersey, if any.")
    monotonic_gaps: bool | None = Field(
        None, strict=True,
        description="Our variant of the finish times: no finisher gets a smaller gap than "
        "the one before him; none: the route's own setting (off unless the route says so).")

    ratings: bool = Field(
        True, strict=True,
        description="Our extension: use the riders' ratings (climb, cobbles, sprint) when "
        "the peloton has them; false: every rider of a type is the same, as in the text.")

    @field_validator("route", mode="before")
    @classmethod
    def _route(cls, value: Any) -> dict[str, Any]:
        return route_spec(value)

    @field_validator("peloton", mode="before")
    @classmethod
    def _peloton(cls, value: Any) -> dict[str, Any]:
        return peloton_spec(value)

    @field_validator("jersey")
    @classmethod
    def _jersey(cls, value: int | None, info: ValidationInfo) -> int | None:
        peloton = info.data.get("peloton")
        if value is not None and peloton is not None and value not in {
                r["number"] for r in peloton["riders"]}:
            raise refusal(OptionsError, "wielersim.reason.jersey", number=value)
        return value

    def route_table(self) -> dict[str, Any]:
        """The route as raced: with ``monotonic_gaps`` applied when given."""
        if self.monotonic_gaps is None:
            return self.route
        return {**self.route, "monotonic_gaps": self.monotonic_gaps}

    def peloton_table(self) -> dict[str, Any]:
        """The peloton as raced: with ``jersey`` applied when given, without ratings when
        ``ratings`` is false."""
        peloton = self.peloton if self.ratings else strip_ratings(self.peloton)
        if self.jersey is None:
            return peloton
        return {**peloton, "jersey": self.jersey}

    def max_steps(self) -> int:
        """A bound on the throws of one race (see :func:`rules.steps_bound`)."""
        route = compile_route(self.route)
        return steps_bound(route.distance, len(route.sprints), len(self.peloton["riders"]))


class WielersimGame(Game[WielersimOptions, WielersimState]):
    """WielerSIM: a race of dice alone, no decision-making players."""

    name = "wielersim"
    title = "WielerSIM"
    designer = "Ludo Nauws"
    # Each shipped route once, the variants riding along: a random cobble board with the
    # whole peloton; an uphill finish; the 4D6 start with the jersey on a sprinter; a
    # summit finish with monotonic_gaps; the small peloton on a fixed cobble board.
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {"route": "flanders", "peloton": "classics"},
        {"route": "ardennes", "peloton": "classics"},
        {"route": {**shipped_route("flat-stage"), "start_dice": "d6"}, "peloton": "small",
         "jersey": 52},
        {"route": "mountain-stage", "peloton": "classics", "monotonic_gaps": True},
        {"route": "flanders", "peloton": "small", "board": 7},
    )
    # 250 random races of each set (10 checked at every step): a defect in 1.2 % of a
    # set's races is found with 95 % probability. The same state machine rides thousands
    # more races in the fast path and compiled engine tests, record for record.
    harness_games: ClassVar[int] = 250

    def _new_state(self, options: WielersimOptions, seed: int | None) -> WielersimState:
        state = WielersimState(options.route_table(), options.peloton_table(), options.board)
        state.begin()
        return state

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        return self.options(options).max_steps()


GAME = WielersimGame()


def new_race(options: Mapping[str, Any] | None = None) -> WielersimState:
    """A race before its first throw: ``GAME.new_state(options)`` (see
    :class:`WielersimOptions` for the options)."""
    return GAME.new_state(options)
