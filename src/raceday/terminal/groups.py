"""Typer options that come to a command as one object (a dataclass of option-annotated
fields), and the signature splice that :func:`raceday.terminal.options.game_options` shares.

Light on purpose (typer and the standard library): a tool's ``--help`` imports it.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast, get_type_hints

CommandT = TypeVar("CommandT", bound=Callable[..., Any])
GroupT = TypeVar("GroupT")


def option_group(group: type[GroupT]) -> Callable[[CommandT], CommandT]:
    """Give a Typer command the options of the dataclass ``group`` (its fields annotated and
    defaulted as a command's parameters are) in place of its parameter annotated ``group``;
    the command receives them as one ``group``. Put it below ``@app.command()`` (and below
    :func:`raceday.terminal.options.game_options`)."""
    hints = get_type_hints(group, include_extras=True)
    made = [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default,
                              annotation=hints[f.name])
            for f in dataclasses.fields(cast(Any, group))]

    def decorate(command: CommandT) -> CommandT:
        return splice_parameter(command, lambda p: p.annotation is group, made,
                                lambda given: group(**given))

    return decorate


def splice_parameter(command: CommandT, stands_in: Callable[[inspect.Parameter], bool],
                     made: list[inspect.Parameter],
                     gather: Callable[[dict[str, Any]], Any]) -> CommandT:
    """``command`` with the parameters ``made`` in place of its first parameter that
    ``stands_in`` for them; it receives there what ``gather`` makes of their values."""
    signature = inspect.signature(command, eval_str=True)
    before = list(signature.parameters.values())
    at = next(i for i, p in enumerate(before) if stands_in(p))
    param = before[at].name
    ordinary = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in before]
    parameters = ordinary[:at] + made + ordinary[at + 1:]

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        kwargs[param] = gather({p.name: kwargs.pop(p.name, None) for p in made})
        return command(*args, **kwargs)

    run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    return run  # type: ignore[return-value]
