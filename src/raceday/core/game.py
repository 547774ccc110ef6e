"""One :class:`Game` object per game: its name, its typed options, and how to start a state.

This is the only thing a face (terminal, browser, research adapters), the registry, the
conformance harness or the runner needs to know about a game. Modelled on OpenSpiel's
Game/State split: a Game is immutable and describes the game; a :class:`State` is one
position of it, advanced by actions and chance outcomes.

Options are a pydantic model per game (:class:`GameOptions`): unknown fields are
refused, values are checked against documented ranges, and every failure becomes one
:class:`OptionsError` naming the option, the bad value and what is allowed.
"""

from __future__ import annotations

import re
from abc import ABC
from collections.abc import Callable, Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Self,
    TypeVar,
    cast,
    get_args,
    get_origin,
)

from pydantic import BaseModel, ConfigDict, ValidationError

from raceday.core.errors import OptionsError, RacedayError
from raceday.core.events import Message

if TYPE_CHECKING:
    import numpy as np

    from raceday.core.agents import Agent
    from raceday.core.events import Event
    from raceday.core.play import PlayRecord
    from raceday.core.protocol import State

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(done, total)`` with absolute counts (never increments)."""


def values_from_text(text: str) -> list[int | str]:
    """Values separated by commas or spaces (``"5,3,2,1"``, ``"5 3 2 1"``) as a list field
    of options reads them: whole numbers where a piece is ASCII digits, else the piece itself
    (for the model to refuse)."""
    from raceday.core.digits import ascii_int

    pieces = text.replace(",", " ").split() or [text]
    return [number if (number := ascii_int(piece)) is not None else piece for piece in pieces]


def field_range(model: type[BaseModel], field: str, *, inclusive: bool = False
                ) -> tuple[Any, Any]:
    """The (low, high) bounds a model's field declares (``ge``/``gt``, ``le``/``lt``; with
    ``inclusive``, only ``ge`` and ``le``); None where it declares none."""
    info = model.model_fields.get(field)
    low = high = None
    for mark in info.metadata if info is not None else ():
        low = getattr(mark, "ge", low if inclusive else getattr(mark, "gt", low))
        high = getattr(mark, "le", high if inclusive else getattr(mark, "lt", high))
    return low, high


def _item_bounds(model: type[BaseModel] | None, field: str) -> tuple[Any, Any]:
    """The (ge, le) bounds of each item of a list or tuple field (None where none)."""
    info = model.model_fields.get(field) if model is not None else None
    if info is None:
        return None, None
    from typing import Annotated

    inner = [a for a in get_args(info.annotation) if a is not Ellipsis]
    low = high = None
    for arg in inner:
        for mark in (get_args(arg)[1:] if get_origin(arg) is Annotated else ()):
            for part in getattr(mark, "metadata", [mark]):
                low = getattr(part, "ge", low)
                high = getattr(part, "le", high)
    return low, high


def _whole_number(low: Any, high: Any) -> str:
    if low is not None and high is not None:
        return f"a whole number from {low:,} to {high:,}"
    if low is not None:
        return f"a whole number of {low:,} or more"
    if high is not None:
        return f"a whole number of {high:,} or less"
    return "a whole number"


def _whole_number_words(low: Any, high: Any, where: Any) -> Message:
    """:func:`_whole_number`'s reason as words (``where``: which value, or "")."""
    if low is not None and high is not None:
        return Message("reason.whole_range", {"where": where, "low": f"{low:,}",
                                              "high": f"{high:,}"})
    if low is not None:
        return Message("reason.whole_min", {"where": where, "low": f"{low:,}"})
    if high is not None:
        return Message("reason.whole_max", {"where": where, "high": f"{high:,}"})
    return Message("reason.whole", {"where": where})


def _problem_place(problem: Mapping[str, Any], model: type[BaseModel] | None
                   ) -> tuple[str, int | None, Any, Any]:
    """A validation problem's kind, the list item it names (None for a whole field) and
    the bounds the value had to keep."""
    kind = str(problem.get("type", ""))
    loc = [part for part in problem.get("loc", ())]
    item = loc[-1] if len(loc) > 1 and isinstance(loc[-1], int) else None
    field = str(loc[0]) if loc else ""
    if item is not None:
        low, high = _item_bounds(model, field)
    elif model is not None and field in model.model_fields:
        low, high = field_range(model, field, inclusive=True)
    else:
        low = high = None
    return kind, item, low, high


def plain_reason_words(problem: Mapping[str, Any], model: type[BaseModel] | None = None
                       ) -> Message | None:
    """:func:`plain_reason` as words from the tables (its English is the same text), for a
    reader of another language; None where it has no words (the English is all there is)."""
    kind, item, low, high = _problem_place(problem, model)
    where: Any = Message("reason.item", {"n": item + 1}) if item is not None else ""
    if kind in ("int_type", "int_parsing", "int_from_float", "int_parsing_size") or (
            kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than")
            and item is not None):
        return _whole_number_words(low, high, where)
    if kind in ("float_type", "float_parsing", "finite_number"):
        return Message("reason.number", {"where": where})
    if kind in ("bool_type", "bool_parsing"):
        return Message("reason.bool", {"where": where})
    if kind == "string_type":
        return Message("reason.text", {"where": where})
    return _more_reason_words(problem, kind, where)


CHOICE = re.compile(r"'((?:[^'\\]|\\.)*)'")  # a choice pydantic quotes: 'fixed' or 'pool'
BOUNDS = {"greater_than_equal": ("ge", "reason.at_least"), "greater_than": ("gt", "reason.above"),
          "less_than_equal": ("le", "reason.at_most"), "less_than": ("lt", "reason.below")}


def _more_reason_words(problem: Mapping[str, Any], kind: str, where: Any) -> Message | None:
    """The words of the problems pydantic words in English only: a choice not among the
    allowed ones, a list expected, a bound passed, a list too long or too short."""
    ctx = problem.get("ctx") or {}
    if kind in ("literal_error", "enum"):
        choices = CHOICE.findall(str(ctx.get("expected", "")))
        return Message("reason.one_of", {"where": where, "choices": [f"'{c}'" for c in choices]})
    if kind in ("list_type", "tuple_type", "set_type", "frozen_set_type", "iterable_type"):
        return Message("reason.list", {"where": where})
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return Message("reason.mapping", {"where": where})
    if kind in BOUNDS:
        bound, key = BOUNDS[kind]
        value = ctx.get(bound)
        shown = (f"{value:,}" if isinstance(value, int) and not isinstance(value, bool)
                 else f"{value:g}" if isinstance(value, float) else str(value))
        return Message(key, {"where": where, "bound": shown})
    if kind in ("too_long", "too_short"):
        most, least = ctx.get("max_length"), ctx.get("min_length")
        given = ctx.get("actual_length")
        if kind == "too_long" and most is not None:
            return Message("reason.most_values", {"n": most, "given": given})
        if least is not None:
            return Message("reason.least_values", {"n": least, "given": given})
    if kind in ("string_too_long", "string_too_short"):
        most, least = ctx.get("max_length"), ctx.get("min_length")
        if kind == "string_too_long" and most is not None:
            return Message("reason.most_characters", {"n": most})
        if least is not None:
            return Message("reason.least_characters", {"n": least})
    return None


def plain_reason(problem: Mapping[str, Any], model: type[BaseModel] | None = None
                 ) -> str | None:
    """What is wrong with a value, in the user's words rather than the validator's, for
    the kinds of problem pydantic words for programmers ("input should be a valid
    integer", "tuple should have at most 8 items after validation"); None for the others
    (their own message is plain enough). For one item of a list (``loc`` ends with its
    index) it says which item."""
    kind, item, low, high = _problem_place(problem, model)
    ctx = problem.get("ctx") or {}
    where = f"value {item + 1} " if item is not None else ""
    if kind in ("int_type", "int_parsing", "int_from_float", "int_parsing_size"):
        return f"{where}must be {_whole_number(low, high)}"
    if kind in ("float_type", "float_parsing", "finite_number"):
        return f"{where}must be a number such as 0.5"
    if kind in ("bool_type", "bool_parsing"):
        return f"{where}must be true or false"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than") \
            and item is not None:
        return f"{where}must be {_whole_number(low, high)}"
    if kind in ("too_long", "too_short"):
        most = ctx.get("max_length")
        least = ctx.get("min_length")
        count = ctx.get("actual_length")
        limit = (f"at most {most:,}" if kind == "too_long" and most is not None
                 else f"at least {least:,}" if least is not None else "another number of")
        unit = "value" if limit.endswith(" 1") else "values"
        got = f" ({count:,} given)" if count is not None else ""
        return f"takes {limit} {unit}{got}"
    if kind == "string_type":
        return f"{where}must be text"
    more = _more_reason_words(problem, kind, where)
    return None if more is None else _english_reason(more)


# The English of the reasons _more_reason_words gives (the tables say the same), so that a
# refusal's text never depends on whether the tables are loaded.
REASON_ENGLISH = {
    "reason.one_of": "{where}must be one of {choices}",
    "reason.list": "{where}must be a list of values",
    "reason.mapping": "{where}must be an object of names and values",
    "reason.at_least": "{where}must be at least {bound}",
    "reason.above": "{where}must be above {bound}",
    "reason.at_most": "{where}must be at most {bound}",
    "reason.below": "{where}must be below {bound}",
    "reason.most_values": "takes at most {n} value{s} ({given} given)",
    "reason.least_values": "takes at least {n} value{s} ({given} given)",
    "reason.most_characters": "must be at most {n} character{s} long",
    "reason.least_characters": "must be at least {n} character{s} long",
}


def _english_reason(reason: Message) -> str:
    """``reason`` (one of :data:`REASON_ENGLISH`) in English, without the tables."""
    params = dict(reason.params)
    values = {name: ", ".join(map(str, value)) if isinstance(value, list) else
              ("" if value is None else str(value)) for name, value in params.items()}
    values["s"] = "" if params.get("n") == 1 else "s"
    return REASON_ENGLISH[reason.key].format_map(values)


def describe_validation_error(error: ValidationError, what: str,
                              names: Mapping[str, str] | None = None,
                              model: type[BaseModel] | None = None) -> str:
    """One line for the first problem pydantic found: option, value, what is allowed.
    ``names`` shows a field under another name (the command line's ``--riders``); with
    the ``model``, a value out of range is told the whole range."""
    return validation_refusal(error, what, names, model)[0]


def validation_refusal(error: ValidationError, what: str,
                       names: Mapping[str, str] | None = None,
                       model: type[BaseModel] | None = None) -> tuple[str, Message]:
    """:func:`describe_validation_error`'s line and the same refusal as a message key
    (``refusal.option_*``) with its parameters, for a face in another language; the line
    is the words in English (once the presentation layer words refusals). A game's own
    check gives its reason in English inside the key's words, unless it raised a
    :class:`RacedayError` carrying its message (:func:`raceday.core.errors.refusal`)."""
    return _validation_refusal(error, what, names, model)


def _validation_refusal(error: ValidationError, what: str, names: Mapping[str, str] | None,
                        model: type[BaseModel] | None) -> tuple[str, Message]:
    first = error.errors()[0]
    loc = [str(part) for part in first.get("loc", ())]
    if model is not None and len(loc) == 1 and first.get("type") in ("greater_than_equal",
                                                                      "less_than_equal"):
        low, high = field_range(model, loc[0], inclusive=True)
        if low is not None and high is not None:
            shown = names.get(loc[0], loc[0]) if names else loc[0]
            got = repr(first["input"])
            return (f"{what} option {shown}: must be from {low:,} to {high:,}, got {got}",
                    Message("refusal.option_range", {"game": what, "option": shown,
                                                     "low": f"{low:,}", "high": f"{high:,}",
                                                     "got": got}))
    plain = plain_reason(first, model)
    if plain is not None:  # one option, however deep the problem lies in it
        loc = loc[:1]
    if loc and names and loc[0] in names:
        loc[0] = names[loc[0]]
    field = ".".join(loc)
    message = plain if plain is not None else str(first.get("msg", "is not valid"))
    message = message.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    # one line whatever the value held (a file name with a line break): escapes instead
    message = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    kind = first.get("type", "")
    facts: dict[str, Any] = {"game": what, "option": field, "reason": message}
    cause = first.get("ctx", {}).get("error")
    worded = plain_reason_words(first, model)
    if isinstance(cause, RacedayError) and cause.message is not None:
        facts["reason"] = cause.message.to_json()  # a check that words its reason itself
    elif worded is not None:
        facts["reason"] = worded.to_json()
    if not field:  # a check across several options
        return f"{what} options: {message}", Message("refusal.options", facts)
    if kind == "extra_forbidden":
        return f"unknown {what} option {field!r}", Message("refusal.option_unknown", facts)
    if kind == "missing":
        return f"{what} option {field!r} is required", Message("refusal.option_missing", facts)
    if kind in ("too_long", "too_short") and plain is not None:
        return f"{what} option {field}: {message}", Message("refusal.option", facts)
    if "input" in first and kind not in ("value_error", "assertion_error"):
        got = repr(first["input"])
        return (f"{what} option {field}: {message.lower()}, got {got}",
                Message("refusal.option_value",
                        {**facts, "reason": facts["reason"] if worded is not None
                         else message.lower(), "got": got}))
    return f"{what} option {field}: {message}", Message("refusal.option", facts)


def _options_refused(error: ValidationError, what: str, model: type[BaseModel]
                     ) -> OptionsError:
    """The OptionsError of a model's first problem, carrying its words (the game named by
    its title's words, where the model has them)."""
    text, words = validation_refusal(error, what, model=model)
    title = getattr(model, "title_words", None)
    if title is not None and "game" in words.params:
        words = Message(words.key, {**words.params, "game": Message(title).to_json()})
    refused = OptionsError(text)
    refused.message = words  # the same refusal in the reader's language
    return refused


def one_of(choices: Sequence[str], message: str) -> Callable[[str], str]:
    """A check for a pydantic ``AfterValidator``: the value if it is one of ``choices``,
    else ``ValueError(message)`` with ``{value!r}`` and ``{choices}`` (joined by ", ")
    filled in, so that each option keeps its own wording."""

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(message.format(value=value, choices=", ".join(choices)))
        return value

    return check


class GameOptions(BaseModel):
    """Base of every game's options: frozen, strict about unknown fields.

    Subclasses declare fields with defaults and documented ranges (``Field(ge=..., le=...,
    description=...)``) and may add validators that raise ``ValueError`` with a message
    meant for the user.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    game_title: ClassVar[str] = "game"
    # the message key of the game's title ("keirin.keirin"), so that a refusal names the
    # game in its reader's language; None: the title as it is
    title_words: ClassVar[str | None] = None

    def __init__(self, **data: Any) -> None:
        """Options from keyword arguments; a bad value is an :class:`OptionsError`."""
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise _options_refused(exc, self.game_title, type(self)) from None

    # Validation (model_validate, parse) need not run this __init__: without the mark,
    # pydantic calls it and wraps its OptionsError as a nameless error of the whole model.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, raw: Mapping[str, Any] | BaseModel | None = None) -> Self:
        """Options from a mapping (or an instance), or :class:`OptionsError`."""
        if isinstance(raw, cls):
            return raw
        if isinstance(raw, BaseModel):
            raw = raw.model_dump()
        if raw is not None and not isinstance(raw, Mapping):
            raise OptionsError(f"{cls.game_title} options must be a mapping, got {raw!r}")
        try:
            return cls.model_validate(dict(raw or {}))
        except ValidationError as exc:
            raise _options_refused(exc, cls.game_title, cls) from None

    def to_json(self) -> dict[str, Any]:
        """JSON values that :meth:`parse` reads back to equal options."""
        return self.model_dump(mode="json")


OptionsT = TypeVar("OptionsT", bound=GameOptions)
StateT = TypeVar("StateT", bound="State")


class Game(ABC, Generic[OptionsT, StateT]):
    """A game: name, credits, options model, players, and how to make or restore a state.

    ``players`` is the (fewest, most) number of decision-making players; (0, 0) for a race
    decided by dice alone. ``harness_configs`` are the option sets the conformance harness
    plays, ``harness_games`` how many random games of each.

    The class's type arguments ``Game[OptionsModel, StateClass]`` are its ``Options`` (the
    options model) and its ``state_class`` (built from the checked options, restored by its
    ``from_json``; a game whose state starts otherwise overrides :meth:`_new_state`). A game
    declares either a constant ``step_bound`` or a :meth:`max_steps` of its own.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    designer: ClassVar[str]
    Options: type[OptionsT]
    state_class: type[StateT]
    step_bound: ClassVar[int | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is Game:
                options, state = get_args(base)
                for attribute, value in (("Options", options), ("state_class", state)):
                    if isinstance(value, type) and attribute not in cls.__dict__:
                        setattr(cls, attribute, value)
    players: ClassVar[tuple[int, int]] = (0, 0)
    harness_configs: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    harness_games: ClassVar[int] = 1000

    def options(self, raw: Mapping[str, Any] | GameOptions | None = None) -> OptionsT:
        """Checked options (raising :class:`OptionsError` naming the problem)."""
        return self.Options.parse(raw)

    def new_state(self, options: Mapping[str, Any] | GameOptions | None = None,
                  seed: int | None = None) -> StateT:
        """A fresh game. ``seed`` is used only by games whose setup is drawn outside the
        chance nodes; every other random event is a chance node sampled by the caller."""
        return self._new_state(self.options(options), seed)

    @property
    def summary(self) -> str:
        """One line about the game: the first paragraph of its package's docstring (what
        ``raceday --help`` lists); a game that is not a package of its own says its own."""
        from raceday.core.discovery import package_summary

        return package_summary(self.name) or ""

    def _new_state(self, options: OptionsT, seed: int | None) -> StateT:
        """A fresh game from checked options: ``state_class(options)``."""
        start = cast("Callable[[OptionsT], StateT]", self.state_class)
        return start(options)

    def state_from_json(self, data: Mapping[str, Any]) -> StateT:
        """Rebuild a saved state; :class:`SaveFormatError` on anything malformed."""
        return self.state_class.from_json(data)

    def max_steps(self, options: Mapping[str, Any] | GameOptions | None = None) -> int:
        """An upper bound on the steps (actions and chance outcomes) of any game with these
        options (for unbounded re-rolls, a bound exceeded with vanishing probability): the
        game's ``step_bound``, unless its bound depends on the options."""
        if self.step_bound is None:
            raise NotImplementedError(f"{type(self).__name__} declares neither a step_bound "
                                      "nor a max_steps of its own")
        return self.step_bound

    def play(
        self,
        options: Mapping[str, Any] | GameOptions | None = None,
        agents: Sequence[Agent] | Mapping[int, Agent] | None = None,
        rng: np.random.Generator | int | None = None,
        *,
        on_events: Callable[[State, list[Event]], None] | None = None,
    ) -> PlayRecord:
        """Play one game to the end: random agents by default, chance drawn from ``rng``."""
        import numpy as np

        from raceday.core.agents import RandomAgent
        from raceday.core.play import play_game

        generator = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        checked = self.options(options)
        state = self._new_state(checked, None)
        if agents is None:
            agents = [RandomAgent() for _ in range(max(1, state.num_players))]
        return play_game(state, agents, generator, max_steps=self.max_steps(checked),
                         on_events=on_events)

    def __repr__(self) -> str:
        return f"<Game {self.name}: {self.title} by {self.designer}>"


AnyGame = Game[Any, Any]
