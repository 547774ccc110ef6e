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
from rich.markup import escape

from raceday.terminal import common
from raceday.terminal.common import console, in_range

HELP = "The party server's rooms: list them, prune or archive the old finished ones."

app = typer.Typer(help=HELP, add_completion=False, no_args_is_help=True)

OlderOpt = Annotated[int, typer.Option(
    "--older-than", metavar="DAYS", callback=in_range(1, 36_500, "days"),
    help="Only rooms whose last play is more than this many days ago.")]
DryRunOpt = Annotated[bool, typer.Option(
    "--dry-run", help="Only list the rooms that would go; change nothing.")]


def _db(db: Path | None) -> Path | None:
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
        console.print(f"no rooms: there is no database at {escape(str(path))} yet",
                      highlight=False, soft_wrap=True)
        return None
    return path


@app.command(name="list")
def list_rooms(db: common.DbOpt = None, json_out: common.JsonOpt = False,
               lang: common.LangOpt = None) -> None:  # its refusals in this language
    """List every room: code, game, status, seats, events and last play (UTC)."""
    from raceday.web.lifecycle import list_rooms as rooms_of

    path = _db(db)
    if path is None:
        return
    found = rooms_of(path)
    if json_out:
        typer.echo(json.dumps([room.to_json() for room in found], ensure_ascii=False))
        return
    if not found:
        console.print("no rooms")
        return
    console.print(f"{'CODE':<6} {'GAME':<10} {'STATUS':<17} {'SEATS':>5} {'EVENTS':>6}  "
                  "LAST PLAY (UTC)", highlight=False, soft_wrap=True)
    for room in found:
        console.print(f"{room.code:<6} {escape(room.game):<10} {room.status:<17} "
                      f"{room.seats:>5} {room.events:>6}  {room.updated}",
                      highlight=False, soft_wrap=True)
    playing = sum(1 for r in found if r.status == "playing")
    console.print(f"{len(found)} room(s), {playing} being played",
                  highlight=False, soft_wrap=True)


def _remove(db: Path | None, older_than: int, dry_run: bool, out: Path | None) -> None:
    from raceday.web.lifecycle import prune as prune_rooms

    path = _db(db)
    if path is None:
        return
    done = prune_rooms(path, older_than, archive_to=out, dry_run=dry_run)
    if not done.codes:
        console.print(f"no finished or closed room is older than {older_than} day(s)",
                      soft_wrap=True)
        return
    codes = " ".join(done.codes)
    if dry_run:
        console.print(f"would remove {len(done.codes)} room(s): {codes}",
                      highlight=False, soft_wrap=True)
        return
    if done.archive is not None:
        console.print(f"archived {len(done.codes)} room(s) to {escape(str(done.archive))}",
                      highlight=False, soft_wrap=True)
    console.print(f"removed {len(done.codes)} room(s): {codes}", highlight=False, soft_wrap=True)


@app.command()
def prune(older_than: OlderOpt, db: common.DbOpt = None, dry_run: DryRunOpt = False,
          lang: common.LangOpt = None) -> None:  # its refusals in this language
    """Delete finished and closed rooms (with their replays) not played for DAYS days."""
    _remove(db, older_than, dry_run, None)


@app.command()
def archive(
    older_than: OlderOpt,
    out: Annotated[str, typer.Option(
        "--out", "-o", metavar="PATH",
        help="A new file (.jsonl, or .jsonl.gz to compress) or a folder to make a dated "
             "file in; an existing file is never replaced.")],
    db: common.DbOpt = None,
    dry_run: DryRunOpt = False,
    lang: common.LangOpt = None,  # its refusals in this language (raceday.cli.main)
) -> None:
    """Write old finished and closed rooms to a file, then delete them (both or neither)."""
    if not out.strip():
        raise typer.BadParameter("must be a file or folder path, got an empty text",
                                 param_hint="'--out'")
    _remove(db, older_than, dry_run, Path(out))
