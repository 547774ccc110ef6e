"""A game's research parameters are its options model's fields.

OpenSpiel's parameters (and so PettingZoo's and Gymnasium's keyword arguments) are plain
values: whole numbers, decimals, text or true/false, each with a default. :func:`model_params`
writes every field of a game's :class:`~raceday.core.game.GameOptions` that way, with the
model's default; :func:`options_from_params` reads them back into what the model checks, so
the model alone refuses a bad value (one :class:`~raceday.core.errors.OptionsError`).

How a field is written:

- an optional field left to the game (``None``) is ``0`` for a whole number or a decimal
  whose values are above 0, ``-1`` where 0 is a value of its own (a board layout), and ``""``
  for text; an optional switch is ``""``, ``"true"`` or ``"false"``;
- a list of whole numbers is text, the numbers separated by spaces (``"5 3 2 1"``: OpenSpiel's
  game strings split on commas);
- an exact fraction is its text (``"1/20"``);
- a field whose value is a table (a WielerSIM route) is the name it is made from, declared
  on the field as ``json_schema_extra={"plain_default": "flanders"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from types import NoneType, UnionType
from typing import Annotated, Any, Self, Union, get_args, get_origin

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from raceday.core.game import GameOptions, field_range, values_from_text

ParamValue = int | float | str  # (a bool is an int: true/false parameters too)

PLAIN_DEFAULT = "plain_default"


def _parts(info: FieldInfo) -> tuple[Any, bool]:
    """A field's type without ``| None``, and whether it may be None."""
    annotation = info.annotation
    if get_origin(annotation) in (Union, UnionType):
        args = [a for a in get_args(annotation) if a is not NoneType]
        return (args[0] if len(args) == 1 else str), len(args) < len(get_args(annotation))
    return annotation, False


def _base(annotation: Any) -> Any:
    """The plain type of an annotation: ``int`` for ``Annotated[int, ...]``, ``tuple`` for
    ``tuple[int, ...]``."""
    if get_origin(annotation) is Annotated:
        return _base(get_args(annotation)[0])
    return get_origin(annotation) or annotation


def _none_value(model: type[GameOptions], field: str) -> ParamValue:
    """How an optional field's "left to the game" is written."""
    base = _base(_parts(model.model_fields[field])[0])
    if base is bool:
        return ""
    if base in (int, float):
        low, _ = field_range(model, field)
        none = -1 if low is not None and low <= 0 else 0
        return float(none) if base is float else none
    return ""


def _plain(value: Any) -> ParamValue:
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):  # spaces: OpenSpiel's game strings split on commas
        return " ".join(str(v) for v in value)
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"no plain parameter for the default {value!r}")


def model_params(model: type[GameOptions]) -> dict[str, ParamValue]:
    """Every field of ``model`` as a plain parameter with the model's default."""
    params: dict[str, ParamValue] = {}
    for field, info in model.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, Mapping) else {}
        if PLAIN_DEFAULT in extra:
            params[field] = _plain(extra[PLAIN_DEFAULT])
            continue
        default = info.get_default(call_default_factory=True)
        params[field] = _none_value(model, field) if default is None else _plain(default)
    return params


def options_from_params(model: type[GameOptions], params: Mapping[str, Any]
                        ) -> dict[str, Any]:
    """The options the plain ``params`` stand for, as the model reads them (unchecked: the
    model checks). Fields not given are left to the model's defaults."""
    options: dict[str, Any] = {}
    for field, info in model.model_fields.items():
        if field not in params:
            continue
        value = params[field]
        annotation, optional = _parts(info)
        if optional and value == _none_value(model, field) and not isinstance(value, bool):
            continue
        base = _base(annotation)
        if base in (tuple, list) and isinstance(value, str):
            value = values_from_text(value)
        elif base is bool and optional and value in ("true", "false"):
            value = value == "true"
        options[field] = value
    return options


def field_like(model: type[GameOptions], field: str, default: Any) -> Any:
    """A research model's field standing for ``model``'s ``field``, with the research
    environment's own ``default`` and ``model``'s description (``model`` still checks the
    value: the research model hands it on)."""
    return Field(default=default, description=model.model_fields[field].description)


class ResearchOptions(GameOptions):
    """A research environment's own values that stand for a game's options (fewer
    players, a fixed purse, ...): parsing them also checks the game's options they make,
    so a bad value is refused with the game model's one line."""

    def for_game(self) -> GameOptions:
        """The game's options these values stand for (:class:`OptionsError` names a
        problem)."""
        raise NotImplementedError

    @classmethod
    def parse(cls, raw: Mapping[str, Any] | BaseModel | None = None) -> Self:
        values = super().parse(raw)
        values.for_game()
        return values

