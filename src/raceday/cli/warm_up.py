"""``raceday warm-up``: compile every game's engine now, not at the first computer move.

The computer players and the fast simulators run numba-compiled code that is compiled on
first use and kept in numba's on-disk cache; on a fresh install that first use took 20-40 s.
This command fills the cache (see :mod:`raceday.terminal.warm`): an engine whose kernels are all
cached is skipped, so a second run takes about a second. ``make demo`` and ``make test`` run
it after installing; run it again after ``pip install`` of a new version.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape

from raceday.terminal.common import console, err_console

HELP = ("Compile the computer players and simulators ahead, so their first use is quick."
        "\n\n"
        "Every game's compiled engine (each game declares its own; a game without compiled "
        "code has none) is compiled into numba's on-disk cache: 2-4 minutes of CPU the first time, "
        "about a second once warm (engines already cached are skipped). make demo and make "
        "test run it; run it again after pip install. The cache lives beside the installed "
        "package, or in NUMBA_CACHE_DIR when that is set.")

app = typer.Typer(help=HELP, add_completion=False)

QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")]
OnlyOpt = Annotated[
    list[str] | None,
    typer.Option("--only", metavar="ENGINE",
                 help="Warm only this engine (repeatable), named as a full warm-up lists "
                      "it (e.g. hairpin, pistard-sprint). Default: all of them."),
]

BackgroundOpt = Annotated[bool, typer.Option(
    "--background", hidden=True,
    help="raceday serve's warm-up beside the server: quiet but for one line when there is "
         "something to compile and one when it is done.")]


@app.command()
def warm_up(quiet: QuietOpt = False, only: OnlyOpt = None,
            background: BackgroundOpt = False) -> None:
    """Compile and cache every compiled engine of every game."""
    from raceday.terminal import warm

    try:
        engines = warm.engines_named(only or None)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--only'") from None
    if background:
        _background(engines)
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    failed = False
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=err_console, transient=True, disable=quiet) as progress:
        for engine in engines:
            task = progress.add_task(f"warming {escape(engine.title)}", total=None)
            result = warm.warm_engine(engine)
            progress.remove_task(task)
            if result.missing:
                failed = True
                err_console.print(f"warning: {engine.name}: {len(result.missing)} kernel(s) "
                                  f"still not cached: {', '.join(result.missing)}")
            if quiet:
                continue
            kernels = f"{result.kernels} kernel{'s' if result.kernels != 1 else ''}"
            mark = "!" if result.missing else "✓"
            if result.compiled:
                console.print(f"{mark} {engine.name:15} {kernels} compiled in "
                              f"{result.seconds:.1f} s")
            else:
                console.print(f"{mark} {engine.name:15} {kernels} already warm")
    if not quiet and not failed:
        console.print("The computer players and simulators are ready.")


def _background(engines: list[Any]) -> None:
    """Warm ``engines``, saying so only if one is cold (``raceday serve`` starts this in a
    process of its own, at low priority, outside the terminal's Ctrl-C)."""
    from raceday.terminal import warm

    if not warm.cold_kernels([e.name for e in engines]):
        return
    console.print(warm.COLD_LINE)
    for engine in engines:
        warm.warm_engine(engine)
    console.print("the computer players are ready")
