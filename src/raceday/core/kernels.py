"""The decorator of every compiled engine's functions: numba's ``njit(cache=True)``, one
machine-code version per argument type.

numba types a call from one compiled function to another with the literal type of each
constant argument (``f(a, 0)`` is typed ``f(array, Literal[int](0))``), and compiles a
separate version of the callee for every distinct constant it is called with: a third of
the warm-up's compiles were such copies (Hairpin's ``pack_move`` six times, PISTARD's
``_add_die`` four). :func:`kernel` types those calls with the plain types instead
(``int64``), so each function is compiled once per real argument type. The constants
still reach the machine code: LLVM inlines the small callees and folds them there.

Options are numba's: ``inline="always"`` inlines in numba's own IR (costly to compile:
every call site is typed again), ``refcounts=False`` compiles without numba's reference
counting (numba's private ``_nrt=False``; such a function must not allocate arrays),
``parallel=True`` for ``prange``, ``nogil=True`` to release the GIL while it runs.

Imported only by the compiled engines (numba is heavy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast, overload

from numba.core import types
from numba.core.registry import CPUDispatcher

_F = TypeVar("_F", bound=Callable[..., Any])


class OneVersionDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, typing calls from compiled code without literal types."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        plain: Callable[[Any], Any] = types.unliteral
        args = tuple(plain(a) for a in args)
        kws = {k: plain(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


@overload
def kernel(fn: _F) -> _F: ...


@overload
def kernel(*, inline: str = ..., refcounts: bool = ..., parallel: bool = ...,
           nogil: bool = ...) -> Callable[[_F], _F]: ...


def kernel(fn: Any = None, *, inline: str = "never", refcounts: bool = True,
           parallel: bool = False, nogil: bool = False) -> Any:
    """``njit(cache=True)`` with one compiled version per argument type (see the module)."""
    options: dict[str, Any] = {"nopython": True, "boundscheck": None}
    if inline != "never":
        options["inline"] = inline
    if parallel:
        options["parallel"] = True
    if nogil:
        options["nogil"] = True
    if not refcounts:
        options["_nrt"] = False

    def wrap(function: _F) -> _F:
        try:
            dispatcher = OneVersionDispatcher(py_func=function, locals={},
                                              targetoptions=dict(options))
        except (KeyError, TypeError, ValueError):  # a numba without the private option
            plain = {k: v for k, v in options.items() if k != "_nrt"}
            dispatcher = OneVersionDispatcher(py_func=function, locals={}, targetoptions=plain)
        dispatcher.enable_caching()
        return cast(_F, dispatcher)

    return wrap(fn) if fn is not None else wrap
