"""Full-screen play and watch (Textual) for every terminal game, and the one entry point
their play and watch commands call: :func:`run_game`.

A game's loop is a function of a :class:`~raceday.terminal.surface.Surface`; it never
knows whether it runs in full screen (:class:`GameApp`, when :func:`wants_full_screen`) or
line by line (:class:`~raceday.terminal.surface.LineSurface`: pipes, ``--plain``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text

from raceday.terminal.surface import LineSurface, Quit, Surface, wants_full_screen

if TYPE_CHECKING:
    from rich.console import Console

    from raceday.terminal.tui.app import GameApp
    from raceday.terminal.tui.surface import FullScreenSurface

# The smallest terminal the full-screen view opens in (its board, log and bars fit).
MIN_COLUMNS, MIN_LINES = 80, 24

__all__ = ["FullScreenSurface", "GameApp", "opens_full_screen", "run_app", "run_command",
           "run_game"]


def run_game(main: Callable[[Surface], int | None], *, title: str, lang: str, plain: bool,
             console: Console | None = None) -> int:
    """Run a game's loop ``main`` and return its exit code (None -> 0; :class:`Quit`
    escaping it -> 0). With a real terminal and not ``plain`` it runs in the full-screen
    :class:`GameApp`, else on a :class:`LineSurface` over ``console``. An exception ``main``
    raises (a :class:`~raceday.core.errors.RacedayError`: bad input) reaches the caller in
    both modes, so the CLI words it and exits 2 as for every command; in full screen the
    view has shown it first."""
    if not opens_full_screen(plain, lang, console):
        try:
            result = main(LineSurface(console, lang))
        except Quit:
            return 0
        return 0 if result is None else int(result)
    from raceday.terminal.tui.app import GameApp

    return run_app(GameApp(main, title=title, lang=lang), console)


def opens_full_screen(plain: bool, lang: str, console: Console | None = None) -> bool:
    """Whether play and watch open the full-screen view: :func:`wants_full_screen`, and a
    terminal of at least :data:`MIN_COLUMNS` × :data:`MIN_LINES` (a smaller one is told so
    on ``console`` and plays line by line)."""
    if not wants_full_screen(plain):
        return False
    size = shutil.get_terminal_size()
    if size.columns >= MIN_COLUMNS and size.lines >= MIN_LINES:
        return True
    from raceday.present.messages import render

    (console or _shared_console()).print(render(
        "terminal.tui.too_small", lang, params={"need": f"{MIN_COLUMNS}×{MIN_LINES}",
                                                "size": f"{size.columns}×{size.lines}"}),
        markup=False, highlight=False)
    return False


def _shared_console() -> Console:
    from raceday.terminal.common import console as shared_console

    return shared_console


def run_command(main: Callable[[Surface], int | None], *, title: str, lang: str,
                plain: bool) -> None:
    """What a play or watch command calls: :func:`run_game` on the shared console, and a
    non-zero exit code of the loop leaves the command with that code."""
    import typer

    from raceday.terminal.common import console

    code = run_game(main, title=title, lang=lang, plain=plain, console=console)
    if code:
        raise typer.Exit(code)


def run_app(app: GameApp, console: Console | None = None) -> int:
    """Run a full-screen ``app`` (a :class:`GameApp`, or a view built on it) to its end,
    leave its ending on ``console`` (default: the shared one), and return its exit code;
    what its loop raised is raised again here (see :func:`run_game`)."""
    app.run()
    if console is None:
        from raceday.terminal.common import console as shared_console

        console = shared_console
    for entry in app.ending():  # the view is gone: its result stays on the terminal
        # a line (say, the command that resumes) is left whole for copying, not cut at the
        # terminal's width; a table still fits the width
        console.print(entry, soft_wrap=isinstance(entry, str | Text))
    from raceday.terminal.lineinput import take_after_view

    kept = take_after_view()
    if kept:
        from rich.markup import escape

        from raceday.terminal.common import err_console

        for line in kept:
            err_console.print(escape(line), soft_wrap=True)
    if app.error is not None:
        raise app.error
    code = app.return_code if app.return_code is not None else app.exit_code
    return code or 0


def __getattr__(name: str) -> object:  # the Textual parts load only when used
    if name == "GameApp":
        from raceday.terminal.tui.app import GameApp

        return GameApp
    if name == "FullScreenSurface":
        from raceday.terminal.tui.surface import FullScreenSurface

        return FullScreenSurface
    raise AttributeError(name)
