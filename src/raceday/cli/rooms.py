"""``raceday rooms``: the party server's rooms in its database: list, prune, archive.

The party server keeps every room in its database file. Rooms nobody plays close by
themselves (``raceday serve --idle-close``); finished and closed rooms stay, so their
replays do, until this command removes the old ones: ``prune`` deletes them, ``archive``
first writes them to a JSON Lines file (see :mod:`raceday.web.lifecycle`). Both take
``--older-than DAYS`` (counted from a room's last play) and ``--dry-run``, never touch a
room still being played, and may run while the server runs (from a systemd timer, say).
Bad input is refused in one line (exit 2) before anything is changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.markup import escape

from raceday.present import render
from raceday.terminal import common
from raceday.terminal.common import console, in_range

HELP = "The party server's rooms: list them, prune or archive the old finished ones."

app = typer.Typer(help=HELP, add_completion=False, no_args_is_help=True)

OlderOpt = Annotated[int, typer.Option(
    "--older-than", metavar="DAYS", callback=in_range(1, 36_500, "days"),
    help="Only rooms whose last play is more than this many days ago.")]
DryRunOpt = Annotated[bool, typer.Option(
    "--dry-run", help="Only list the rooms that would go; change nothing.")]


def _say(key: str, lang: str, **params: object) -> str:
    """One of this tool's lines (``tool.rooms.<key>`` of the shared tables) in ``lang``."""
    return render(f"tool.rooms.{key}", lang, params=params)


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded to ``width`` terminal cells (a wide character takes two)."""
    fill = " " * max(0, width - cell_len(text))
    return fill + text if right else text + fill


def _db(db: Path | None, lang: str) -> Path | None:
    """The database to work on; None (after saying so) when the default one does not
    exist yet; a given one that does not exist is refused, and so is anything at either
    path that is not a regular file (a named pipe, a directory: never opened)."""
    from raceday.store.sessions import default_db_path, kind_of_file

    path = db if db is not None else default_db_path()
    what = kind_of_file(path)
    if what is not None:
        raise typer.BadParameter(f"{path} is {what}, not a database file", param_hint="'--db'")
    if db is not None:
        if not db.is_file():
            raise typer.BadParameter(f"there is no database at {db}", param_hint="'--db'")
        return db
    if not path.is_file():
        console.print(escape(_say("no_database", lang, path=str(path))),
                      highlight=False, soft_wrap=True)
        return None
    return path


@app.command(name="list")
def list_rooms(db: common.DbOpt = None, json_out: common.JsonOpt = False,
               lang: common.LangOpt = None) -> None:
    """List every room: code, game, status, seats, events and last play (UTC)."""
    from raceday.web.lifecycle import list_rooms as rooms_of

    lang = common.resolve_lang(lang)
    path = _db(db, lang)
    if path is None:
        return
    found = rooms_of(path)
    if json_out:
        typer.echo(json.dumps([room.to_json() for room in found], ensure_ascii=False))
        return
    if not found:
        console.print(_say("none", lang))
        return
    # columns: (key, width at least, right-aligned); a heading wider than that widens it
    columns = (("code", 6, False), ("game", 10, False), ("status", 17, False),
               ("seats", 5, True), ("events", 6, True))
    heads = [_say(key, lang) for key, _, _ in columns]
    widths = [max(least, cell_len(head)) for head, (_, least, _) in zip(heads, columns,
                                                                         strict=True)]

    def line(cells: list[str], last: str) -> str:
        return escape(" ".join(_pad(cell, width, right) for cell, width, (_, _, right)
                               in zip(cells, widths, columns, strict=True)) + "  " + last)

    console.print(line(heads, _say("last_play", lang)), highlight=False, soft_wrap=True)
    for room in found:
        console.print(line([room.code, room.game, room.status, str(room.seats),
                            str(room.events)], str(room.updated)),
                      highlight=False, soft_wrap=True)
    playing = sum(1 for r in found if r.status == "playing")
    console.print(_say("count", lang, n=len(found), playing=playing),
                  highlight=False, soft_wrap=True)


def _remove(db: Path | None, older_than: int, dry_run: bool, out: Path | None,
            lang: str | None) -> None:
    from raceday.web.lifecycle import prune as prune_rooms

    lang = common.resolve_lang(lang)
    path = _db(db, lang)
    if path is None:
        return
    done = prune_rooms(path, older_than, archive_to=out, dry_run=dry_run)
    if not done.codes:
        console.print(_say("none_old", lang, n=older_than), soft_wrap=True)
        return
    codes = " ".join(done.codes)
    if dry_run:
        console.print(_say("would_remove", lang, n=len(done.codes), codes=codes),
                      highlight=False, soft_wrap=True)
        return
    if done.archive is not None:
        console.print(escape(_say("archived", lang, n=len(done.codes),
                                  path=str(done.archive))),
                      highlight=False, soft_wrap=True)
    console.print(_say("removed", lang, n=len(done.codes), codes=codes), highlight=False,
                  soft_wrap=True)


@app.command()
def prune(older_than: OlderOpt, db: common.DbOpt = None, dry_run: DryRunOpt = False,
          lang: common.LangOpt = None) -> None:
    """Delete finished and closed rooms (with their replays) not played for DAYS days."""
    _remove(db, older_than, dry_run, None, lang)


@app.command()
def archive(
    older_than: OlderOpt,
    out: Annotated[str, typer.Option(
        "--out", "-o", metavar="PATH",
        help="A new file (.jsonl, or .jsonl.gz to compress) or a folder to make a dated "
             "file in; an existing file is never replaced.")],
    db: common.DbOpt = None,
    dry_run: DryRunOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """Write old finished and closed rooms to a file, then delete them (both or neither)."""
    if not out.strip():
        raise typer.BadParameter("must be a file or folder path, got an empty text",
                                 param_hint="'--out'")
    _remove(db, older_than, dry_run, Path(out), lang)
