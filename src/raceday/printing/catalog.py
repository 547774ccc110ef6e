"""Which games print which parts, with which options; :func:`build` makes the pages.

A game prints by carrying a ``printing`` face (found by :mod:`raceday.core.discovery`)
that declares ``CREDIT`` (a :class:`~raceday.printing.page.Credit`), ``PARTS`` (its
:class:`Part`\\ s, each naming the options it uses), ``Options`` (a :class:`PrintOptions`
model: one field per option, most taken from the game's own options model with
:func:`option_from`) and one ``part_<name>(options)`` builder per part. Nothing here names
a game.

Every option is checked before anything is drawn or written, by the game's models: an
option the chosen parts do not use, an unknown part or a value the game's model refuses
each give one :class:`~raceday.core.errors.RacedayError` line.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from raceday.core.digits import ascii_int
from raceday.core.discovery import face, games_with
from raceday.core.errors import OptionsError, refusal
from raceday.core.game import describe_validation_error
from raceday.present.messages import FALLBACK, LANGUAGES
from raceday.present.messages import render as word
from raceday.printing.page import Credit, Page, Paper, paper, worded

FACE = "printing"
FILES = "files"
"""``json_schema_extra`` key of an option that also takes a file on the command line
(the browser prints the shipped choices, its ``enum``, only)."""
DEFAULT_CHOICE = "default_choice"
"""``json_schema_extra`` key naming which of an option's ``enum`` the game uses when the
option is not given (the form's "default" stands for it, so it is not listed twice)."""
NOT_OPTIONS = ("paper", "lang")  # fields of every game's print options, not the game's


class PrintOptions(BaseModel):
    """Base of a game's print options: the paper, the language of the pages' words, and
    one field per option its parts use, each None when not given (the part uses the
    game's default).

    ``checked_by`` names, for an option that is a field of one of the game's options
    models, that model: a value given is checked by it (its type, range, choices and
    validators, the same refusal as in every other face), and the option's JSON Schema
    is that field's."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    checked_by: ClassVar[Mapping[str, type[BaseModel]]] = {}

    paper: str = "a4"
    lang: str = FALLBACK

    @field_validator("paper")
    @classmethod
    def _known_paper(cls, value: str) -> str:
        return paper(value).name.lower()

    @field_validator("lang")
    @classmethod
    def _known_lang(cls, value: str) -> str:
        if value not in LANGUAGES:
            raise OptionsError(f"--lang must be one of {', '.join(LANGUAGES)}, got {value!r}")
        return value

    @property
    def sheet(self) -> Paper:
        """The paper the pages are laid out on."""
        return paper(self.paper)

    @model_validator(mode="after")
    def _checked_by_the_game(self) -> Self:
        for name, model in self.checked_by.items():
            value = getattr(self, name)
            if value is None:
                continue
            try:
                model.model_validate({name: value})
            except ValidationError as exc:
                title = str(getattr(model, "game_title", model.__name__))
                raise ValueError(describe_validation_error(exc, title, model=model)) from None
        return self

    @classmethod
    def option_schemas(cls) -> dict[str, dict[str, Any]]:
        """Each option's JSON Schema (not the paper's): the game's model's field where
        ``checked_by`` names one, with what this model adds (e.g. ``files``)."""
        own: dict[str, dict[str, Any]] = cls.model_json_schema()["properties"]
        out: dict[str, dict[str, Any]] = {}
        for name, schema in own.items():
            if name in NOT_OPTIONS:
                continue
            model = cls.checked_by.get(name)
            if model is not None:
                theirs = model.model_json_schema()["properties"][name]
                extra = cls.model_fields[name].json_schema_extra
                schema = {**{k: v for k, v in theirs.items() if k not in ("default", "cli")},
                          **(extra if isinstance(extra, dict) else {})}
            out[name] = schema
        return out

    def given(self) -> dict[str, Any]:
        """The options given (not the paper or the language), in the model's field
        order."""
        return {name: getattr(self, name) for name in type(self).model_fields
                if name not in NOT_OPTIONS and getattr(self, name) is not None}


Builder = Callable[[Any], list[Page]]


def flag_of(name: str) -> str:
    """An option's command-line flag: ``fall_rate`` is ``--fall-rate``."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class Part:
    """One printed part of a game and the options (field names) it uses."""

    name: str
    title: str
    summary: str
    options: tuple[str, ...] = ()

    def titled(self, game: str, lang: str) -> str:
        """The part's name in ``lang`` (the game's ``print.part.<name>``, else its title)."""
        return worded(game, f"print.part.{self.name}", lang, self.title)

    def summed_up(self, game: str, lang: str) -> str:
        """The part's summary in ``lang`` (``print.part.<name>.summary``)."""
        return worded(game, f"print.part.{self.name}.summary", lang, self.summary)


@dataclass(frozen=True)
class GameInfo:
    """A game's printing face, read."""

    credit: Credit
    parts: tuple[Part, ...]
    model: type[PrintOptions]
    module: ModuleType

    @property
    def game(self) -> str:
        return self.credit.game

    def part(self, name: str) -> Part:
        for p in self.parts:
            if p.name == name:
                return p
        raise refusal(OptionsError, "refusal.print_no_part", game=self.game, part=name,
                      parts=[p.name for p in self.parts])

    @property
    def options(self) -> tuple[str, ...]:
        """Every option some part uses, in the parts' order."""
        seen: list[str] = []
        for p in self.parts:
            seen += [o for o in p.options if o not in seen]
        return tuple(seen)

    def schema(self) -> dict[str, dict[str, Any]]:
        """The JSON Schema of each option the parts use: what the forms are made of."""
        schemas = self.model.option_schemas()
        return {name: schemas[name] for name in self.options}

    def label(self, option: str, lang: str) -> str:
        """An option's name in a form (the game's ``print.option.<name>``, else its
        schema's title)."""
        schema = self.model.option_schemas()[option]
        return worded(self.game, f"print.option.{option}", lang,
                      str(schema.get("title", option)))

    def hint(self, option: str, lang: str) -> str:
        """What an option means (``print.option.<name>.hint``, else its description)."""
        schema = self.model.option_schemas()[option]
        return worded(self.game, f"print.option.{option}.hint", lang,
                      str(schema.get("description", "")))

    def choice(self, option: str, value: str, lang: str) -> str:
        """One shipped choice of an option as a form lists it
        (``print.option.<name>.<value>``, else the value itself)."""
        return worded(self.game, f"print.option.{option}.{value}", lang, value)

    def builder(self, part: Part) -> Builder:
        made: Builder = getattr(self.module, f"part_{part.name}")
        return made


def _info(game: str) -> GameInfo | None:
    module = face(game, FACE)
    if module is None:
        return None
    return GameInfo(module.CREDIT, tuple(module.PARTS), module.Options, module)


def games() -> dict[str, GameInfo]:
    """Every game that prints (each game whose package carries a ``printing`` face)."""
    found = {game: _info(game) for game in games_with(FACE)}
    return {game: info for game, info in found.items() if info is not None}


def game_info(name: str) -> GameInfo:
    key = name.strip().lower()
    info = _info(key) if key in games_with(FACE) else None
    if info is None:
        raise refusal(OptionsError, "refusal.print_no_game", name=name,
                      games=list(games_with(FACE)))
    return info


def _value(schema: Mapping[str, Any], text: str, shown: str) -> object:
    """The text of an option as the type its schema says (a whole number for an integer)."""
    kinds = {schema.get("type")} | {s.get("type") for s in schema.get("anyOf", ())}
    if "integer" in kinds and "string" not in kinds:
        number = ascii_int(text.strip()) if len(text) <= 12 else None
        if number is None:
            raise refusal(OptionsError, "refusal.print_whole", name=shown, got=text)
        return number
    return text


def read_options(info: GameInfo, texts: Mapping[str, str], paper_name: str = "a4", *,
                 flag: Callable[[str], str] = flag_of, shipped_only: bool = False,
                 lang: str = FALLBACK) -> PrintOptions:
    """The game's print options from text (a command line's or a query's), checked by the
    game's models. ``flag`` names an option in messages (``--riders`` or ``riders``);
    ``shipped_only`` refuses files where an option also takes one (the browser); ``lang``
    is the language the pages are worded in."""
    properties = info.model.option_schemas()
    values: dict[str, object] = {}
    for name, text in texts.items():
        if name not in info.options:
            wanted = ", ".join(flag(o) for o in info.options) or "none"
            raise OptionsError(f"{flag(name)} does not apply to {info.game} (its options: "
                               f"{wanted})")
        schema = properties[name]
        if shipped_only and schema.get(FILES) and text not in schema.get("enum", ()):
            raise refusal(OptionsError, "refusal.print_shipped_only", name=name)
        values[name] = _value(schema, text, flag(name))
    try:
        return info.model(paper=paper_name, lang=lang, **values)
    except ValidationError as exc:
        first = exc.errors()[0]
        if first.get("type") == "value_error":  # the game's own line
            own = (first.get("ctx") or {}).get("error")
            if isinstance(own, OptionsError) and own.message is not None:
                raise own from None  # worded by the tables: any face words it again
            raise OptionsError(str(first["msg"]).removeprefix("Value error, ")) from None
        names = {name: flag(name) for name in info.options}
        raise OptionsError(describe_validation_error(exc, f"{info.credit.title} print",
                                                     names=names, model=info.model)) from None


def build(game: str, part: str | None, options: PrintOptions) -> list[Page]:
    """Every page of one part (or of every part of the game when ``part`` is None)."""
    info = game_info(game)
    parts = info.parts if part is None else (info.part(part.strip().lower()),)
    used = {o for p in parts for o in p.options}
    for name in options.given():
        if name not in used:
            wanted = ", ".join(flag_of(o) for o in info.options) or "none"
            which = parts[0].name if len(parts) == 1 else "any part"
            raise OptionsError(f"{flag_of(name)} does not apply to {info.game} {which} "
                               f"(its options: {wanted})")
    pages: list[Page] = []
    for p in parts:
        made = info.builder(p)(options)
        for page in made:
            page.part_key = p.name
        pages += made
    return pages


def command_line(game: str, part: str | None, options: PrintOptions) -> str:
    """The ``raceday print`` command that makes these pages (shown in every footer)."""
    words = ["raceday", "print", game] + ([part] if part else [])
    for name, value in options.given().items():
        words += [flag_of(name), str(value)]
    words += ["--paper", options.paper]
    if options.lang != FALLBACK:
        words += ["--lang", options.lang]
    return " ".join(shlex.quote(w) for w in words)


def new_page(credit: Credit, options: PrintOptions, part: str, described: str) -> Page:
    """An empty page of the game with the header facts (the paper is added to the
    options shown), worded in the options' language."""
    sheet, lang = options.sheet, options.lang
    paper_is = worded(credit.game, "pr_paper_is", lang, f"paper {sheet.name}",
                      paper=sheet.name)
    return Page(sheet, credit, part, worded(credit.game, "pr_described", lang,
                                            f"{described}; {paper_is}",
                                            described=described, paper=paper_is), lang=lang)


def say(options: PrintOptions, game: str, key: str, **params: Any) -> str:
    """``key`` of ``game``'s table (or the shared one) in the options' language."""
    return word(key, options.lang, game, params)


def render(pages: list[Page], command: str) -> list[str]:
    """The pages as SVG documents, numbered."""
    return [page.to_svg(i, len(pages), command) for i, page in enumerate(pages, start=1)]
