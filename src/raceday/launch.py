"""The ``raceday`` console script.

Kept free of heavy imports: a request that has a fast start (today ``raceday keirin odds``,
see :mod:`raceday.games.keirin.quick`) is answered before the full command line
(:mod:`raceday.cli.main`) is imported; everything else goes to it unchanged.

The root help (``raceday --help`` or a bare ``raceday``) is drawn by
:mod:`raceday.cli._quick_help` with Rich alone. When that module leaves it to the full
command line (Typer's own switches in the environment, an output that is not Unicode),
:func:`defer_unused_help_modules` first replaces two modules that Typer's help renderer
imports and never uses for raceday's help by stand-ins that import the real module the
moment anything touches them; the help printed is the same, byte for byte.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

# Modules ``typer.rich_utils`` imports at its top but raceday's help never uses: Markdown
# is only for ``rich_markup_mode="markdown"`` and Traceback only for pretty exceptions,
# both off in raceday. Together they load markdown-it, pygments and attrs: a third of the
# start-up of ``raceday --help`` (bench/bench_startup.py).
UNUSED_BY_HELP = (("rich.markdown", "Markdown"), ("rich.traceback", "Traceback"))
HELP_ONLY: tuple[list[str], ...] = ([], ["--help"])


def _real_module(name: str) -> types.ModuleType:
    """Import the real module ``name`` in place of its stand-in."""
    if isinstance(sys.modules.get(name), _StandInModule):
        del sys.modules[name]
    return importlib.import_module(name)


class _Deferred(type):
    """The type of a stand-in class: calling it, reading its attributes or testing an
    instance against it imports the real module and hands over to the real class."""

    def _real(cls) -> Any:
        return getattr(_real_module(cls.__module__), cls.__name__)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._real()(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        return getattr(cls._real(), name)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls._real())


class _StandInModule(types.ModuleType):
    """A module not imported yet: any name not stood in for imports the real module."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # the import system asking (``__path__``...): not yet
            raise AttributeError(name)
        return getattr(_real_module(self.__name__), name)


def defer_unused_help_modules() -> None:
    """Put stand-ins for :data:`UNUSED_BY_HELP` in ``sys.modules`` (unless the real
    modules are already loaded)."""
    for module_name, class_name in UNUSED_BY_HELP:
        if module_name in sys.modules:
            continue
        stand_in = _StandInModule(module_name)
        setattr(stand_in, class_name, _Deferred(class_name, (), {"__module__": module_name}))
        sys.modules[module_name] = stand_in
        parent, _, child = module_name.rpartition(".")
        setattr(importlib.import_module(parent), child, stand_in)


def main() -> None:
    """Run the command line and exit with its code."""
    if sys.argv[1:3] == ["keirin", "odds"]:
        from raceday.games.keirin.quick import run

        code = run(sys.argv[1:])
        if code is not None:
            sys.exit(code)
    if sys.argv[1:] in HELP_ONLY:
        from raceday.cli._quick_help import run as quick_help

        code = quick_help(sys.argv[1:])
        if code is not None:
            sys.exit(code)
    if sys.argv[1:] in HELP_ONLY:
        defer_unused_help_modules()
    from raceday.cli.main import main as full_main

    full_main()
