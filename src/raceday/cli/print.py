"""``raceday print``: print-and-play pages of every game (boards, sheets, odds tables).

Every option is checked before anything is drawn or written. ``--out`` chooses the form:
a ``.pdf`` gets one multi-page PDF (made in pure Python by svglib and reportlab), a
``.svg`` or a folder one SVG file a page (``name-01.svg``, ...). The drawing and printing
modules are imported only when the command runs, so ``raceday --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from raceday.terminal.common import console, in_range

HELP = "Print-and-play pages: boards, tracks, sheets and exact odds tables as PDF or SVG."

app = typer.Typer(help=HELP, add_completion=False)

PARTS_HELP = ("pistard: track, counters; keirin: track, counters, slip, odds; derby: scores, "
              "auction, odds; hairpin: board, tally; wielersim: schedule, markers, riders. "
              "Default: every part of the game.")


@app.command(name="print")
def print_pages(
    game: Annotated[str, typer.Argument(help="pistard, keirin, derby, hairpin or wielersim.")],
    part: Annotated[str | None, typer.Argument(help=PARTS_HELP)] = None,
    paper: Annotated[str, typer.Option("--paper", help="Paper size: a4 or letter.")] = "a4",
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="A .pdf file (one PDF), a .svg file or a folder (one SVG a page). "
        "Default: GAME[-PART].pdf here.")] = None,
    track: Annotated[str | None, typer.Option(
        "--track", help="PISTARD: a shipped track (default, short) or a TOML track file.")
    ] = None,
    riders: Annotated[int | None, typer.Option(
        "--riders", callback=in_range(6, 9, "riders"),
        help="KEIRIN: riders in the race, 6-9 (default 9).")] = None,
    length: Annotated[int | None, typer.Option(
        "--length", callback=in_range(19, 1000, "squares"),
        help="KEIRIN: squares from the derny's start to the finish line, 19-1000 (default 50).")
    ] = None,
    margin: Annotated[str | None, typer.Option(
        "--margin", help="KEIRIN: fixed-odds margin, 0 to below 1 (default 0). Dice Derby: "
        "board margin, 0 to 0.5 (default 0.1).")] = None,
    fall_rate: Annotated[str | None, typer.Option(
        "--fall-rate", help="Dice Derby: chance that a roll is a fall, e.g. 0.05 or 1/20 "
        "(default 0).")] = None,
    races: Annotated[int | None, typer.Option(
        "--races", callback=in_range(4, 6, "races"),
        help="Dice Derby: races in the session, 4-6 (default 5).")] = None,
    route: Annotated[str | None, typer.Option(
        "--route", help="WielerSIM: a shipped route (flanders, ardennes, flat-stage, "
        "mountain-stage), a route file, or a .gpx/.csv track to import (default flanders).")
    ] = None,
    peloton: Annotated[str | None, typer.Option(
        "--peloton", help="WielerSIM: a shipped peloton or start list, or a peloton file "
        "(default classics).")] = None,
) -> None:
    """Make print-ready pages of a game's boards, sheets and odds tables."""
    from raceday.printing.catalog import (
        PrintOptions,
        build,
        command_line,
        game_info,
        render,
    )
    from raceday.printing.output import plan_output, write_pdf, write_svgs
    from raceday.printing.page import paper as paper_size

    info = game_info(game)
    chosen = info.part(part.strip().lower()).name if part is not None else None
    options = PrintOptions(paper=paper_size(paper), track=track, riders=riders, length=length,
                           margin=margin, fall_rate=fall_rate, races=races, route=route,
                           peloton=peloton)
    stem = info.credit.game + (f"-{chosen}" if chosen else "")
    kind, target = plan_output(out if out is not None else Path(f"{stem}.pdf"), stem)
    pages = build(info.credit.game, chosen, options)
    documents = render(pages, command_line(info.credit.game, chosen, options))
    if kind == "pdf":
        write_pdf(documents, target)
        console.print(f"wrote {len(documents)} page(s) to {target}")
    else:
        names = write_svgs(documents, target)
        where = names[0] if len(names) == 1 else f"{names[0]} ... {names[-1].name}"
        console.print(f"wrote {len(names)} SVG page(s): {where}")
