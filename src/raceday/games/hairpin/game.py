"""Hairpin Racers as a :class:`raceday.core.game.Game`: options, players, harness."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator

from raceday.core.errors import OptionsError, refusal
from raceday.core.game import Game, GameOptions
from raceday.games.hairpin.rules import MAX_STEPS, VARIANT_WORDS, HairpinState, Rules

MAX_POSITION_TEXT = 200  # a position text is about 40 characters; longer is not one


class HairpinOptions(GameOptions):
    """A Hairpin game: the variant words, the setup, and optionally a position to start from."""

    game_title: ClassVar[str] = "Hairpin"
    title_words: ClassVar[str | None] = "hairpin.options_title"  # "Hairpin"

    variant: str = Field(
        "standard",
        description="Variant words joined by '+': standard, short (3 laps / 3 bumps), "
        "nobump, derby (win by bumping), v1 (cruise only when neither side can charge), "
        "random (random setup).",
        json_schema_extra={"cli": ["--variant", "-v"], "words": list(VARIANT_WORDS[1:])})
    setup: Literal["symmetric", "random"] | None = Field(
        None, description="Starting set-up; default: random with the 'random' word, else "
        "the symmetric one.")
    position: str | None = Field(
        None, description="Start from this position text (default: the start).",
        json_schema_extra={"cli": ["--position"]})

    @field_validator("position")
    @classmethod
    def _position_text(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise refusal(OptionsError, "hairpin.reason.position_empty")
        if value is not None and len(value) > MAX_POSITION_TEXT:
            raise refusal(OptionsError, "hairpin.reason.position_long", n=f"{len(value):,}",
                          most=MAX_POSITION_TEXT)
        return value

    @field_validator("variant")
    @classmethod
    def _known_words(cls, value: str) -> str:
        if not value.strip():
            raise refusal(OptionsError, "hairpin.reason.variant_empty")
        return Rules.from_variant(value).variant_name()  # its OptionsError, with its words

    @field_validator("position")
    @classmethod
    def _position_fits(cls, value: str | None, info: ValidationInfo) -> str | None:
        # checked against the variant and setup given before it (a bad variant is refused
        # on its own); refused as --position's problem, said once ("position text: ..."
        # after "option --position:" said it twice)
        if value is None or "variant" not in info.data:
            return value
        try:
            HairpinState.from_text(value, Rules.from_variant(info.data["variant"],
                                                             info.data.get("setup")))
        except OptionsError as exc:
            if exc.message is not None:
                raise  # worded already
            raise ValueError(str(exc).removeprefix("position text: ")) from None
        return value

    def rules(self) -> Rules:
        """The rule set these options describe."""
        return Rules.from_variant(self.variant, self.setup)


class HairpinGame(Game[HairpinOptions, HairpinState]):
    """Hairpin Racers by Phil Leduc: two players, no dice but the optional random setup."""

    name = "hairpin"
    title = "Hairpin Racers"
    designer = "Phil Leduc"
    step_bound = MAX_STEPS
    players = (2, 2)
    # Every variant word, alone and in the combinations that interact (short game with
    # the derby's bump target, random setup with the v1 cruise rule).
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"variant": "short"},
        {"variant": "nobump"},
        {"variant": "derby"},
        {"variant": "v1"},
        {"variant": "random"},
        {"variant": "short+derby+random"},
        {"variant": "v1+nobump+random"},
    )
    # 250 random games of each set (2,000 in all; 10 of each checked at every step): a
    # defect in 1.2 % of a set's games is found with 95 % probability, as for every game
    # (1 - 0.988 ** 250 = 0.95). Hundreds more random games of the same rules are played
    # to the end against the compiled playouts (tests/games/hairpin/test_fast.py).
    harness_games: ClassVar[int] = 250

    def _new_state(self, options: HairpinOptions, seed: int | None) -> HairpinState:
        rules = options.rules()
        if options.position is not None:
            return HairpinState.from_text(options.position, rules)
        return HairpinState(rules)


GAME = HairpinGame()


def new_game(options: Mapping[str, Any] | None = None) -> HairpinState:
    """A new game from options: ``variant`` (e.g. ``"short+nobump"``), ``setup``
    (``"symmetric"``/``"random"``), ``position`` (a text form to start from)."""
    return GAME.new_state(options)
