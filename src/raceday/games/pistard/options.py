"""Options of a PISTARD race: a checked, frozen pydantic model."""

from __future__ import annotations

from typing import Annotated, ClassVar, Self

from pydantic import AfterValidator, Field, model_validator

from raceday.core.errors import OptionsError, refusal
from raceday.core.events import Message
from raceday.core.game import GameOptions
from raceday.games.pistard.moves import START_ZONE
from raceday.games.pistard.variants import MAX_FIELD, VARIANT_RULES, VARIANTS, Variant

DEFAULT_TOKENS = 3
DEFAULT_LAP_POINTS = (5, 3, 2, 1)

WholeNumber = Annotated[int, Field(strict=True)]


def _named(variant: str) -> Message:
    """A race as a refusal names it: its code in English ("ttt", as typed), its name in
    Japanese ("チームタイムトライアル")."""
    return Message(f"pistard.variant_code.{variant}")


def _known_variant(value: str) -> str:
    """The race ``value`` names, else refused in words with the races there are."""
    if value not in VARIANTS:
        raise refusal(OptionsError, "pistard.reason.variant", got=repr(value),
                      choices=list(VARIANTS))
    return value


def misfit(variant: str, players: int, riders_each: int | None, laps: int | None
           ) -> Message | None:
    """What does not fit the race ``variant`` (a known one) in these numbers, as a message
    of the game's table (a room refuses with it in the reader's language; the options'
    check words it in English), or None. ``riders_each`` None: the variant's default."""
    rules = VARIANT_RULES[variant]
    named = {"variant": _named(variant)}  # "ttt" in English, the race's name in Japanese
    lo, hi = rules.players
    if not lo <= players <= hi:
        key = "exactly" if lo == hi else "range"
        return Message(f"pistard.misfit.players_{key}{'_one' if hi == 1 else ''}",
                       {**named, "low": lo, "high": hi, "got": players})
    each = rules.default_riders(players) if riders_each is None else riders_each
    rlo, rhi = rules.riders
    if not rlo <= each <= rhi:
        return Message("pistard.misfit.riders",
                       {**named, "low": rlo, "high": rhi, "got": each})
    if rules.min_field is not None and not rules.min_field <= players * each <= MAX_FIELD:
        return Message("pistard.misfit.field", {**named, "low": rules.min_field,
                                                "high": MAX_FIELD, "got": players * each})
    if laps is not None and not rules.has_laps:
        return Message("pistard.misfit.laps")
    return None


class PistardOptions(GameOptions):
    """Options of a PISTARD race (checked when built; see :meth:`parse`)."""

    game_title: ClassVar[str] = "PISTARD"
    title_words: ClassVar[str | None] = "pistard.title"

    variant: Annotated[str, AfterValidator(_known_variant)] = Field(
        default="scratch",
        description="Race: scratch, points, elimination, sprint, ttt (team time trial) "
        "or pursuit (team pursuit).",
        json_schema_extra={"enum": list(VARIANTS),
                           "cli": {"flags": ["--variant", "-v"], "metavar": "VARIANT"}})
    players: WholeNumber | None = Field(
        default=None,
        description="Players: 2 to 5 (sprint and pursuit exactly 2, the team time trial "
        "1); default 2 (team time trial 1).",
        json_schema_extra={"cli": False})  # the command line counts its --players list
    riders_per_player: WholeNumber | None = Field(
        default=None, ge=1, le=6,
        description="Riders each player controls, 1 to 6 (default: 4 with 2 players, 3 "
        "with 3, 2 with 4-5; 1 in the sprint; 4 in team races, which need 3 to 6; at most "
        "12 riders in all).", json_schema_extra={"cli": ["--riders-per-player", "-k"]})
    tokens: WholeNumber = Field(
        default=DEFAULT_TOKENS, ge=0, le=20,
        description="Energy tokens per player, 0 to 20 (0 plays the token-free game).")
    laps: WholeNumber | None = Field(
        default=None, ge=1, le=50,
        description="Points race only: laps to ride, 1 to 50 (default 10).")
    lap_points: tuple[Annotated[int, Field(strict=True, ge=0)], ...] = Field(
        default=DEFAULT_LAP_POINTS, min_length=1, max_length=8,
        description="Points for the first places of each lap sprint, 1 to 8 whole numbers "
        "(comma-separated on the command line).",
        json_schema_extra={"cli": {"flags": ["--lap-points"], "metavar": "POINTS"}})
    track: str = Field(default="default", description="Shipped track (default, short) or a "
                       "TOML track file (at most 1 MB).")
    max_rounds: WholeNumber | None = Field(
        default=None, ge=1, le=100_000,
        description="Rounds after which a race (or heat) is stopped, 1 to 100000 (default: "
        "a bound never reached in practice).")

    @model_validator(mode="after")
    def _fits_the_variant(self) -> Self:
        problem = misfit(self.variant, self.num_players, self.riders_each, self.laps)
        if problem is not None:  # worded in English, and carrying its message for a face
            raise refusal(OptionsError, problem.key, **problem.params)
        return self

    # --- derived values ---------------------------------------------------------------
    @property
    def rules(self) -> Variant:
        """The variant's rules object."""
        return VARIANT_RULES[self.variant]

    def players_range(self) -> tuple[int, int]:
        return self.rules.players

    @property
    def num_players(self) -> int:
        return self.players if self.players is not None else self.rules.default_players()

    @property
    def riders_each(self) -> int:
        if self.riders_per_player is not None:
            return self.riders_per_player
        return self.rules.default_riders(self.num_players)

    @property
    def total_riders(self) -> int:
        return self.num_players * self.riders_each

    @property
    def race_laps(self) -> int:
        return self.rules.race_laps(self.laps)

    def round_cap(self, track_length: int) -> int:
        """Rounds after which the commissaires stop a race (or heat) and rank it as it stands.

        Never reached in practice (see docs); it makes every game end within a stated bound.
        """
        if self.max_rounds is not None:
            return self.max_rounds
        return 3 * (self.race_laps * track_length + START_ZONE) + 3

    def max_steps(self, track_length: int) -> int:
        """A bound on the steps (chance + decisions) of any game with these options."""
        heats = self.rules.heats(self.total_riders)
        per_round = 3 * self.total_riders  # choose-next, throw and move for every rider
        per_heat = self.total_riders + self.round_cap(track_length) * per_round
        return heats * per_heat + 10
