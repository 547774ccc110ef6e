"""``raceday print``: print-and-play pages of every game (boards, sheets, odds tables).

Every option is checked before anything is drawn or written; the pages are worded in the
command's language (``--lang``, else the locale's). ``--out`` chooses the form:
a ``.pdf`` gets one multi-page PDF (made in pure Python by svglib and reportlab), a
``.svg`` or a folder one SVG file a page (``name-01.svg``, ...). The drawing and printing
modules are imported only when the command runs, so ``raceday --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from raceday.core.errors import OptionsError
from raceday.terminal.common import LangOpt, console, resolve_lang

HELP = "Print-and-play pages: boards, tracks, sheets and exact odds tables as PDF or SVG."

app = typer.Typer(help=HELP, add_completion=False)

PARTS_HELP = "One of the game's printed parts (see --list). Default: every part of the game."
OPTIONS_HELP = ("The game's own options follow as --name value (e.g. keirin odds --riders 7 "
                "--margin 0.1); --list shows each game's parts and options.")


def _given(words: list[str]) -> dict[str, str]:
    """``--name value`` and ``--name=value`` pairs after the command's own options, by
    field name (``--fall-rate`` is ``fall_rate``)."""
    given: dict[str, str] = {}
    rest = list(words)
    while rest:
        word = rest.pop(0)
        if not word.startswith("--") or len(word) < 3:
            raise OptionsError(f"unexpected {word!r}; a game's options are --name value")
        name, has_value, value = word[2:].partition("=")
        if not has_value:
            if not rest:
                raise OptionsError(f"{word} needs a value")
            value = rest.pop(0)
        given[name.replace("-", "_")] = value
    return given


def _list_games() -> None:
    from raceday.printing.catalog import flag_of, games

    for name, info in games().items():
        console.print(f"[bold]{name}[/bold] ({escape(info.credit.title)})")
        schemas = info.schema()
        for part in info.parts:
            options = ", ".join(flag_of(o) for o in part.options) or "no options"
            console.print(f"  {part.name}: {escape(part.summary)} ({options})")
        for option, schema in schemas.items():
            console.print(f"  {flag_of(option)}: {escape(str(schema.get('description', '')))}")


@app.command(name="print", context_settings={"allow_extra_args": True,
                                             "ignore_unknown_options": True},
             epilog=OPTIONS_HELP)
def print_pages(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Argument(
        help="The game (see --list).", show_default=False)] = None,
    part: Annotated[str | None, typer.Argument(help=PARTS_HELP)] = None,
    paper: Annotated[str, typer.Option("--paper", metavar="a4|letter",
                                       help="Paper size: a4 or letter.")] = "a4",
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", metavar="PATH", help="A .pdf file (one PDF), a .svg file or a folder "
        "(one SVG a page). Default: GAME[-PART].pdf here.")] = None,
    list_games: Annotated[bool, typer.Option(
        "--list", help="List every game's printed parts and options, then stop.")] = False,
    lang: LangOpt = None,
) -> None:
    """Make print-ready pages of a game's boards, sheets and odds tables."""
    if list_games:
        _list_games()
        return
    if game is None:
        raise OptionsError("name a game to print (raceday print --list shows them)")
    from raceday.printing.catalog import build, command_line, game_info, read_options, render
    from raceday.printing.output import plan_output, write_pdf, write_svgs

    words = list(ctx.args)
    if part is not None and part.startswith("-"):  # no part: the game's options follow
        words, part = [part, *words], None
    info = game_info(game)
    chosen = info.part(part.strip().lower()).name if part is not None else None
    said_in = resolve_lang(lang)  # the pages' words and the command's own
    options = read_options(info, _given(words), paper, lang=said_in)
    stem = info.game + (f"-{chosen}" if chosen else "")
    kind, target = plan_output(out if out is not None else Path(f"{stem}.pdf"), stem)
    pages = build(info.game, chosen, options)
    documents = render(pages, command_line(info.game, chosen, options))
    from raceday.present import render as worded

    if kind == "pdf":
        write_pdf(documents, target)
        said = worded("tool.print.pdf_one" if len(documents) == 1 else "tool.print.pdf",
                      said_in, params={"pages": len(documents), "path": str(target)})
    else:
        names = write_svgs(documents, target)
        where = names[0] if len(names) == 1 else f"{names[0]} ... {names[-1].name}"
        said = worded("tool.print.svg_one" if len(names) == 1 else "tool.print.svg",
                      said_in, params={"pages": len(names), "where": str(where)})
    console.print(escape(said), soft_wrap=True)
