"""Command-line options made from a game's options model (one source for every face).

A game's :class:`~raceday.core.game.GameOptions` model already names, documents, bounds
and checks every option. :func:`game_options` turns its fields into the options of a Typer
command: the flag is the field's name in kebab-case (``riders_per_player`` becomes
``--riders-per-player``), the help is the field's description, the default is the field's
default, a range (``ge``/``le``) or the choices of a ``Literal``/``Enum`` are shown as the
option's metavar, and a ``bool`` becomes a ``--x/--no-x`` switch. The values given are
parsed by the model alone, so every refusal is the model's one line (an
:class:`~raceday.core.errors.OptionsError` naming the flag; the CLI exits 2).

A text field with a fixed list of values may name them in ``json_schema_extra={"enum":
[...]}`` (shown as choices here and in the browser's setup form; the model's own validator
still checks them). A field says how it appears on the command line in
``json_schema_extra={"cli": ...}``:

- a flag or a list of flags: ``"--laps"``, ``["--riders", "-r"]``;
- a mapping: ``{"flags": [...], "argument": True, "default": "0", "metavar": "RATE"}`` (an
  argument instead of an option; the text shown as the default where the model's default is
  not text; the placeholder its help shows, where the range or the field's name would not
  say what to write: the one vocabulary in docs/usage/terminal.md gives each option one);
- ``False``: not a command-line option; the command supplies the value (PISTARD's player
  count comes from the ``--players`` list).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import NoneType, UnionType
from typing import (
    Annotated,
    Any,
    Generic,
    Literal,
    TypeVar,
    Union,
    get_args,
    get_origin,
)

import typer
from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from raceday.core.errors import OptionsError
from raceday.core.game import (
    GameOptions,
    field_range,
    validation_refusal,
    values_from_text,
)
from raceday.terminal.groups import CommandT, splice_parameter

OptionsT = TypeVar("OptionsT", bound=GameOptions)

CLI_KEY = "cli"

GIVEN: Any = None
"""The default to write for a command's options parameter (:func:`game_options` fills it)."""


@dataclass(frozen=True)
class OptionSpec:
    """How one field of an options model appears on the command line."""

    field: str
    flags: tuple[str, ...]
    help: str
    default: Any  # the command line's default (None: the model's own default)
    cli_type: type  # what the command line reads: int, float, str or bool
    metavar: str | None  # the range or the choices, shown in the help
    argument: bool = False
    sequence: bool = False  # a tuple field, given as comma-separated values

    @property
    def name(self) -> str:
        """The flag (or argument) a refusal names."""
        if self.argument:
            return self.field.upper()
        return next((f for f in self.flags if f.startswith("--")), self.flags[0]).split("/")[0]


def _schema_extra(info: FieldInfo) -> Mapping[str, Any]:
    extra = info.json_schema_extra
    return extra if isinstance(extra, Mapping) else {}


def _without_none(annotation: Any) -> tuple[Any, bool]:
    """The annotation without ``| None``, and whether None was allowed."""
    if get_origin(annotation) in (Union, UnionType):
        args = [a for a in get_args(annotation) if a is not NoneType]
        if len(args) == 1:
            return args[0], len(args) < len(get_args(annotation))
    return annotation, False


def _choices(annotation: Any, info: FieldInfo) -> tuple[str, ...] | None:
    """The values a field allows: its Literal or Enum, or the ``enum`` of its schema."""
    listed = _schema_extra(info).get("enum")
    if isinstance(listed, list | tuple):
        return tuple(str(v) for v in listed)
    if get_origin(annotation) is Literal:
        return tuple(str(a) for a in get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return tuple(str(member.value) for member in annotation)
    return None


def _bounds(model: type[GameOptions], field: str) -> str | None:
    low, high = field_range(model, field)
    if low is None and high is None:
        return None
    return f"{'' if low is None else low}..{'' if high is None else high}"


def _cli_type(annotation: Any) -> tuple[type, bool]:
    """What the command line reads for a field of this type, and whether it is a list."""
    base = get_origin(annotation) or annotation
    if base is Annotated:
        return _cli_type(get_args(annotation)[0])
    if base is tuple or base is list:
        return str, True
    if base in (bool, int, float):
        return base, False
    return str, False


def _text_default(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    if isinstance(value, Fraction | Enum):
        return str(value.value if isinstance(value, Enum) else value)
    return value


def option_specs(model: type[GameOptions]) -> list[OptionSpec]:
    """The command-line options of ``model``'s fields, in the model's order."""
    specs = []
    for field, info in model.model_fields.items():
        settings = _schema_extra(info).get(CLI_KEY)
        if settings is False:
            continue
        if isinstance(settings, str):
            settings = {"flags": [settings]}
        elif isinstance(settings, list | tuple):
            settings = {"flags": list(settings)}
        settings = dict(settings or {})
        annotation, _ = _without_none(info.annotation)
        cli_type, sequence = _cli_type(annotation)
        kebab = field.replace("_", "-")
        flags = tuple(settings.get("flags") or
                      ([f"--{kebab}/--no-{kebab}"] if cli_type is bool else [f"--{kebab}"]))
        choices = _choices(annotation, info)
        metavar = settings.get("metavar") or ("|".join(choices) if choices
                                              else _bounds(model, field))
        if "default" in settings:
            default = settings["default"]
        elif info.default is PydanticUndefined:
            default = None
        else:
            default = _text_default(info.default)
        specs.append(OptionSpec(field=field, flags=flags, help=info.description or "",
                                default=default, cli_type=cli_type, metavar=metavar,
                                argument=bool(settings.get("argument")), sequence=sequence))
    return specs


def _parameter(spec: OptionSpec) -> inspect.Parameter:
    """The Typer parameter of one option."""
    info: Any
    if spec.argument:
        info = typer.Argument(help=spec.help, show_default=False)
        annotation: Any = spec.cli_type
        default = spec.default if spec.default is not None else inspect.Parameter.empty
    else:
        info = typer.Option(*spec.flags, help=spec.help, metavar=spec.metavar)
        annotation = spec.cli_type if spec.default is not None else spec.cli_type | None
        default = spec.default
    return inspect.Parameter(spec.field, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=Annotated[annotation, info])


def _model_value(spec: OptionSpec, value: Any) -> Any:
    """A command-line value as the model reads it (comma-separated text as a list)."""
    if spec.sequence and isinstance(value, str):
        return values_from_text(value)
    return value


class GivenOptions(Generic[OptionsT]):
    """The options a command line gave, checked only by :meth:`parse` (the model)."""

    def __init__(self, model: type[OptionsT], specs: list[OptionSpec],
                 given: Mapping[str, Any]) -> None:
        self.model = model
        self.specs = specs
        self.given = {k: v for k, v in given.items() if v is not None}

    def get(self, field: str) -> Any:
        """The value given for ``field``, else the model's default (unchecked)."""
        if field in self.given:
            return self.given[field]
        info = self.model.model_fields[field]
        return info.get_default(call_default_factory=True)

    def parse(self, **supplied: Any) -> OptionsT:
        """The checked options, with values the command ``supplied`` (such as a player
        count); a refusal is one :class:`OptionsError` naming the flag."""
        values = {spec.field: _model_value(spec, self.given[spec.field])
                  for spec in self.specs if spec.field in self.given}
        values.update({k: v for k, v in supplied.items() if v is not None})
        try:
            return self.model.model_validate(values)
        except ValidationError as exc:
            names = {spec.field: spec.name for spec in self.specs}
            text, words = validation_refusal(exc, self.model.game_title, names, self.model)
            refused = OptionsError(text)
            refused.message = words  # the command line words it in its own language
            raise refused from None


def game_options(model: type[OptionsT]) -> Callable[[CommandT], CommandT]:
    """Give a Typer command the options of ``model`` in place of its parameter annotated
    ``GivenOptions[...]``; the command receives them as a :class:`GivenOptions`.

    Put it below ``@app.command()``::

        @app.command()
        @game_options(KeirinOptions)
        def watch(seed: SeedOpt = None, race: GivenOptions[KeirinOptions] = GIVEN, ...):
            options = race.parse()
    """
    specs = option_specs(model)
    made = [_parameter(spec) for spec in specs]

    def decorate(command: CommandT) -> CommandT:
        run = splice_parameter(command, lambda p: get_origin(p.annotation) is GivenOptions,
                               made, lambda given: GivenOptions(model, specs, given))
        run.options_model = model  # type: ignore[attr-defined]  # (tests find the commands)
        return run

    return decorate


def field_option(model: type[GameOptions], field: str) -> Any:
    """One field of ``model`` as the default of a command's parameter, for a command that
    takes that option alone (a match takes the variant, not a position); the model checks
    the value. Write ``variant: str = field_option(HairpinOptions, "variant")``."""
    spec = next(s for s in option_specs(model) if s.field == field)

    def check(value: Any) -> Any:
        if value is not None:
            GivenOptions(model, [spec], {field: value}).parse()
        return value

    return typer.Option(spec.default, *spec.flags, help=spec.help, metavar=spec.metavar,
                        callback=check)
