"""``raceday record``: export a saved game or a room as a record file, and check record
files (the format: docs/record-format.md).

``raceday record export NAME`` writes the record of the saved session NAME (of any game;
``--game`` where two games saved the name), ``--room CODE`` the record of a room the party
server kept; ``-o FILE`` (``--out``) writes it to a file, else it is printed. ``raceday record check
FILE`` plays every game of FILE through its rules: one line per game, or the first bad line
as ``FILE:LINE: problem`` and exit code 2.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.record import Record, RecordError, Replayed, records_text, result_text
from raceday.terminal import common

HELP = ("Export a saved game or a room as a record file, and check record files."
        "\n\n"
        "A record is one readable text of a game: its tags, then its moves by their names "
        "(docs/record-format.md). export writes a saved game's record (or a room's, with "
        "--room); check plays every game of a record file through the rules and names the "
        "first bad line.")

app = typer.Typer(help=HELP, add_completion=False, no_args_is_help=True)


class RecordCommandError(RacedayError):
    """A record that cannot be exported (no such save, a name two games saved, a save made
    before records that its game cannot convert): one line, exit code 2."""


def words(key: str, lang: str, **params: Any) -> str:
    from raceday.present import render

    return render(f"tool.record.{key}", lang, params=params)


# --- export ---------------------------------------------------------------------------------
def session_games(store: Any, name: str, game: str | None) -> list[str]:
    """The games that saved a session ``name`` in ``store`` (only ``game`` if given)."""
    if not store.has_sessions:
        return []
    rows = store.query("SELECT game FROM sessions WHERE name = ? ORDER BY game", (name,))
    found = [str(g) for (g,) in rows]
    if game is not None:
        key = game.split("_", 1)[0]
        found = [g for g in found if g == key]
    return found


def session_records(store: Any, name: str, game: str | None = None) -> list[Record]:
    """The records of the saved session ``name`` (of ``game``, else of the one game that
    saved it; a stage race has one per stage): as saved, or a save made before records
    converted by its game's ``record_convert``
    (:func:`raceday.store.converters.record_converter`)."""
    from raceday.store.converters import record_converter
    from raceday.store.records import opened

    if game is None and "/" in name and not session_games(store, name, None):
        game, _, name = name.partition("/")
    found = session_games(store, name, game)
    if not found:
        where = f"{game} " if game else ""
        raise RecordCommandError(f"no saved {where}game named {name!r} in {store.path} "
                                 "(raceday replay --list shows them)")
    if len(found) > 1:
        raise RecordCommandError(f"more than one game saved {name!r}: "
                                 f"{', '.join(found)}; choose one with --game")
    owner = found[0]
    document, revision = store.load(owner, name)
    convert = record_converter(owner)
    if not isinstance(document.get("record"), str) and convert is None:
        raise RecordCommandError(f"saved {owner} session {name!r} was made before records "
                                 f"and {owner} cannot convert it: it cannot be exported")
    return opened(document, revision, convert, name).records


def room_record(store: Any, code: str) -> Record:
    """The record of the room ``code`` of the party server's database (the rooms' own
    ``raceday.rooms.record.room_record_from_db``)."""
    if not store.has_rooms:
        raise RecordCommandError(f"there are no rooms in {store.path}: the server's "
                                 "database keeps them (give it with --db)")
    try:
        module = importlib.import_module("raceday.rooms.record")
    except ImportError:
        module = None
    from_db = getattr(module, "room_record_from_db", None)
    if from_db is None:
        raise RecordCommandError("this raceday cannot write a room's record yet")
    made = from_db(store.query, code.strip().upper())
    if not isinstance(made, Record):
        raise RecordCommandError(f"there is no room {code!r} in {store.path}")
    return made


def check_output(path: Path, force: bool) -> None:
    """A record file to write: not a folder, in a folder that exists, not overwriting a
    file unless ``force``."""
    from raceday.core.files import check_output_file

    check_output_file(path, "--out", force=force)


NameArg = Annotated[str, typer.Argument(
    metavar="NAME", help="A saved game's name (GAME/NAME or --game where two games saved "
    "it), or a room's code with --room.", show_default=False)]
GameOpt = Annotated[str | None, typer.Option(
    "--game", "-g", metavar="GAME", help="The game that saved NAME (where several did).")]
RoomOpt = Annotated[bool, typer.Option(
    "--room", help="NAME is a room's code: export the room the party server kept in the "
    "database.")]
OutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", metavar="PATH", help="Write the record to this file (else it is "
    "printed).")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite the --out file if it "
                                        "exists.")]


@app.command("export")
def export(
    name: NameArg,
    game: GameOpt = None,
    room: RoomOpt = False,
    out: OutOpt = None,
    force: ForceOpt = False,
    db: common.DbOpt = None,
    lang: common.LangOpt = None,
) -> None:
    """Write the record of a saved game (or of a room with --room)."""
    from raceday.cli.replay import open_db
    from raceday.core.serialize import atomic_write_text

    language = common.resolve_lang(lang)
    if room and game is not None:
        raise RecordCommandError("--game names a saved game's game; a room knows its own")
    if out is not None:
        check_output(out, force)
    store = open_db(db)
    try:
        records = [room_record(store, name)] if room else session_records(store, name, game)
        text = records_text(records)
    except RecordError as exc:
        raise RecordCommandError(f"the saved game cannot be read as a record: {exc}") \
            from None
    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        atomic_write_text(out, text)
    except OSError as exc:
        raise RecordCommandError(f"cannot write {out}: {exc.strerror or exc}") from None
    common.console.print(escape(words("written", language, path=str(out))),
                         soft_wrap=True)


# --- check ----------------------------------------------------------------------------------
def checked_line(done: Replayed, lang: str) -> str:
    """One checked game as a line: its game, its moves and its result (the record's
    Result where the rules end the game, else "not finished")."""
    record, state = done.record, done.state
    if state.is_terminal():
        result = record.result if record.result != "*" else result_text(state)
    else:
        result = words("unfinished", lang)
    return words("checked", lang, game=record.game, moves=len(record.moves), result=result)


FileArg = Annotated[Path, typer.Argument(metavar="FILE", help="A record file (one game "
                                         "or several).", show_default=False)]


@app.command("check")
def check(file: FileArg, lang: common.LangOpt = None) -> None:
    """Check every game of a record file through the rules (exit code 2 at a bad line)."""
    from raceday.core.files import read_user_text
    from raceday.core.record import check_text

    language = common.resolve_lang(lang)
    text = read_user_text(file, kind="record")
    try:
        games = check_text(text)
    except RecordError as exc:
        where = f"{file}:{exc.line}" if exc.line is not None else str(file)
        common.err_console.print(escape(f"{where}: {exc.problem}"), soft_wrap=True)
        raise typer.Exit(2) from None
    except SaveFormatError as exc:
        common.err_console.print(escape(f"{file}: {exc}"), soft_wrap=True)
        raise typer.Exit(2) from None
    for done in games:
        common.console.print(escape(checked_line(done, language)), soft_wrap=True)


__all__ = ["HELP", "RecordCommandError", "app", "room_record", "session_records"]
