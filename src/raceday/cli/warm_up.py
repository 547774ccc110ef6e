"""``raceday warm-up``: compile every game's engine now, not at the first computer move.

The computer players and the fast simulators run numba-compiled code that is compiled on
first use and kept in numba's on-disk cache; on a fresh install that first use took 20-40 s.
This command fills the cache (see :mod:`raceday.terminal.warm`), the engines in parallel on
the machine's cores: an engine whose kernels are all cached is skipped, so a second run
takes about a second. ``make demo`` runs it beside its first race and ``make test`` before
the tests (``--all``); run it again after ``pip install`` of a new version.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer
from rich.markup import escape

from raceday.present import render
from raceday.terminal.common import LangOpt, console, err_console, resolve_lang

HELP = ("Compile the computer players and simulators ahead, so their first use is quick."
        "\n\n"
        "Every game's compiled engine (each game declares its own; a game without compiled "
        "code has none) is compiled into numba's on-disk cache, the engines in parallel on "
        "the machine's cores: about a minute and a half of CPU the first time, about a "
        "second once warm (engines already cached are skipped). make demo and make test "
        "run it; run it again after pip install. The cache lives beside the installed "
        "package, or in NUMBA_CACHE_DIR when that is set.")

app = typer.Typer(help=HELP, add_completion=False)

QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but errors.")]
OnlyOpt = Annotated[
    list[str] | None,
    typer.Option("--only", metavar="NAME",
                 help="Warm only this engine (repeatable), named as a full warm-up lists "
                      "it (e.g. hairpin, pistard-sprint). Default: every engine a computer "
                      "player or simulator uses."),
]
AllOpt = Annotated[bool, typer.Option(
    "--all", help="Also the engines no computer player uses (the benchmarks' exact PISTARD "
                  "sprint), which otherwise compile on first use.")]
JobsOpt = Annotated[int | None, typer.Option(
    "--jobs", "-j", min=1, max=64, metavar="N",
    help="Engines compiled at once, each in a process of its own. Default: the "
         "machine's cores.")]
NiceOpt = Annotated[int, typer.Option(
    "--nice", min=0, max=19, metavar="N",
    help="Lower the compiling processes' priority by N (0-19), to warm up beside "
         "something a person is watching. Default: 0.")]

BackgroundOpt = Annotated[bool, typer.Option(
    "--background", hidden=True,
    help="raceday serve's warm-up beside the server: quiet but for one line when there is "
         "something to compile and one when it is done.")]


@app.command()
def warm_up(quiet: QuietOpt = False, only: OnlyOpt = None, every: AllOpt = False,
            jobs: JobsOpt = None, nice: NiceOpt = 0,
            background: BackgroundOpt = False,
            lang: LangOpt = None) -> None:
    """Compile and cache every compiled engine of every game."""
    from raceday.terminal import warm

    lang = resolve_lang(lang)

    try:
        engines = warm.engines_named(only or None, optional=every)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--only'") from None
    if background:
        _background(engines)
        return
    cold = [e for e in engines if warm.cold_kernels([e.name])]
    results = {e.name: warm.Result(e, False, 0.0, len(warm.kernels(e)), ())
               for e in engines if e not in cold}
    if cold:
        results.update(_compile(cold, jobs or os.cpu_count() or 1, nice, quiet, lang))
    failed = crashed = False
    for engine in engines:
        result = results[engine.name]
        failed = failed or bool(result.missing)
        crashed = crashed or warm.WORKER_FAILED in result.missing
        if result.missing:
            err_console.print(escape(_say("missing", lang, engine=engine.name,
                                          n=len(result.missing),
                                          names=", ".join(result.missing))))
        if not quiet and engine not in cold:
            console.print(f"✓ {engine.name:15} "
                          + escape(_say("already", lang,
                                        kernels=_kernels(result.kernels, lang))))
    if not quiet and not failed:
        console.print(_say("ready", lang))
    if crashed:  # a compiler error (printed above by the process): not a cache's quirk
        raise typer.Exit(1)


def _say(key: str, lang: str, **params: object) -> str:
    """One of warm-up's lines (``tool.warm.<key>`` of the shared tables) in ``lang``."""
    return render(f"tool.warm.{key}", lang, params=params)


def _kernels(count: int, lang: str = "en") -> str:
    return _say("kernels", lang, n=count)


def _compile(cold: list[Any], jobs: int, nice: int, quiet: bool,
             lang: str = "en") -> dict[str, Any]:
    """Compile the ``cold`` engines ``jobs`` at a time, with a line for each when it is
    done and a spinner naming those being compiled."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from raceday.terminal import warm

    jobs = min(jobs, len(cold))
    found: dict[str, Any] = {}
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=console, transient=True, disable=quiet) as progress:
        task = progress.add_task(_say("compiling_start", lang), total=None)
        busy: list[str] = []

        def say() -> None:
            progress.update(task, description=_say(
                "compiling_jobs" if jobs > 1 else "compiling", lang, engines=", ".join(busy),
                done=len(found), total=len(cold), jobs=jobs))

        def started(engine: Any) -> None:
            busy.append(escape(engine.name))
            say()

        def finished(result: Any) -> None:
            busy.remove(escape(result.engine.name))
            found[result.engine.name] = result
            say()
            if not quiet:
                mark = "!" if result.missing else "✓"
                said = _say("compiled", lang, kernels=_kernels(result.kernels, lang),
                            seconds=f"{result.seconds:.1f}")
                progress.console.print(f"{mark} {result.engine.name:15} {escape(said)}")

        warm.warm_in_parallel(cold, jobs, nice=nice, started=started, finished=finished)
    return found


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
