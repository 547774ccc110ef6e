"""Commands that only read a database write nothing (#43): every ``--list``, ``wielersim
standings``, ``hairpin analyse --from``, ``replay`` and ``rooms list``.

* A path that does not exist stays so: no folder, no file is made; a listing says nothing
  is saved, a command that needs a saved session says there is no database (exit 2).
* A database as the party server leaves it (write-ahead logged), writable or read-only
  (file and folder), is still read and listed, and no ``-wal``, ``-shm`` or ``-journal``
  file is left beside it.
* A named pipe is named as one (exit 2), and is never opened (opening one waits).

The commands run in this process on the CLI's click command, built once (see
tests/test_cli_fuzz.py); the database is made once for the module and copied."""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
import typer

from raceday.cli.main import app, run
from raceday.store.sessions import SessionStore
from tests.cli.test_read_only_db import read_only
from tests.cli_tree import time_limit

ROOT = typer.main.get_command(app)
HANG_GUARD = 60  # seconds; each command here takes well under one

# command -> (its words, what its output shows of the saved database, exit code on a
# missing database, what it says then)
READS: dict[str, tuple[list[str], str, int, str]] = {
    "keirin play --list": (["keirin", "play", "--list"], "friday", 0, "No saved keirin"),
    "derby play --list": (["derby", "play", "--list"], "party-x", 0, "No saved Dice Derby"),
    "hairpin play --list": (["hairpin", "play", "--list"], "duel", 0, "No saved Hairpin"),
    "hairpin analyse --from": (["hairpin", "analyse", "--from", "nosuch"], "(saved: duel)",
                               2, "there is no database at"),
    "pistard play --list": (["pistard", "play", "--list"], "race-x", 0, "No saved PISTARD"),
    "pistard watch --list": (["pistard", "watch", "--list"], "race-x", 0, "No saved PISTARD"),
    "wielersim tour --list": (["wielersim", "tour", "--list"], "tour1", 0,
                              "No stage race is saved"),
    "wielersim standings": (["wielersim", "standings", "tour1"], "General classification",
                            2, "there is no database at"),
    "replay --list": (["replay", "--list"], "friday", 2, "there is no database at"),
    "replay NAME": (["replay", "friday", "--step", "1"], "friday", 2,
                    "there is no database at"),
    "rooms list": (["rooms", "list"], "BCDF", 2, "there is no database at"),
}


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         argv: list[str], typed: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    with time_limit(HANG_GUARD):  # as opening a named pipe would wait for ever
        code = run(argv, ROOT)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database as the party server leaves it after an evening of saves and one room:
    a KEIRIN night, a Hairpin game and a stage race saved by their commands, a Dice Derby
    party and a PISTARD race saved as rows (their listings name any saved one), a room;
    write-ahead logged, no ``-wal`` beside it (every program closed it)."""
    from raceday.web.rooms import RoomStore

    db = tmp_path_factory.mktemp("read-only-template") / "saves.sqlite"
    patch = pytest.MonkeyPatch()
    try:
        for argv, typed in (
            (["keirin", "play", "-p", "Ann", "--save", "friday", "--seed", "1"], "done\n"),
            (["hairpin", "play", "--players", "human,human", "--save", "duel", "--seed", "1",
              "--delay", "0"], "q\n"),
            (["wielersim", "tour", "ronde-van-belgie", "small", "--save", "tour1", "--seed",
              "1", "--delay", "0"], "s\n"),
        ):
            patch.setattr(sys, "stdin", io.StringIO(typed))
            assert run([*argv, "--db", str(db)], ROOT) == 0, argv
    finally:
        patch.undo()
    store = SessionStore(db)
    store.save("derby", "party-x", {})
    store.save("pistard", "race-x", {})
    rooms = RoomStore(db)  # the server's tables, write-ahead logged
    rooms.close()
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO rooms (code, game, host_hash, state, rng, revision) "
                     "VALUES ('BCDF', 'keirin', 'x', '{}', '{}', 0)")
    conn.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()
    assert _listing(db.parent) == ["saves.sqlite"]
    return db


@pytest.mark.parametrize("command", list(READS))
def test_a_missing_database_is_not_made(command: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    argv, _, code_if_missing, said = READS[command]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the default one too
    db = tmp_path / "new" / "dir" / "x.sqlite"
    before = _listing(tmp_path)
    code, out, err = _run(capsys, monkeypatch, [*argv, "--db", str(db)])
    assert code == code_if_missing, (out, err)
    assert said in (out if code == 0 else err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
    assert _listing(tmp_path) == before  # no folder, no file


@pytest.mark.parametrize("writable", [True, False], ids=["writable", "read-only"])
@pytest.mark.parametrize("command", list(READS))
def test_a_database_is_read_and_nothing_is_left_beside_it(
    command: str, writable: bool, template: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv, shown, _, _ = READS[command]
    folder = tmp_path / "saves"
    folder.mkdir()
    db = folder / "saves.sqlite"
    shutil.copyfile(template, db)
    held = db.read_bytes()
    if writable:
        code, out, err = _run(capsys, monkeypatch, [*argv, "--db", str(db)])
    else:
        with read_only(db), read_only(folder):
            code, out, err = _run(capsys, monkeypatch, [*argv, "--db", str(db)])
    expected = 2 if command == "hairpin analyse --from" else 0  # no such name: it read them
    assert code == expected, (out, err)
    assert shown in (out if code == 0 else err), out + err
    assert _listing(folder) == ["saves.sqlite"]  # no -wal, -shm or -journal
    assert db.read_bytes() == held


@pytest.mark.parametrize("command", list(READS))
def test_a_named_pipe_is_named_and_never_opened(command: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    argv, _, _, _ = READS[command]
    pipe = tmp_path / "pipe.sqlite"
    os.mkfifo(pipe)
    code, out, err = _run(capsys, monkeypatch, [*argv, "--db", str(pipe)])
    assert code == 2, (out, err)
    assert "named pipe (FIFO), not a database file" in err
    assert "no database" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert _listing(tmp_path) == ["pipe.sqlite"]


def test_a_named_pipe_is_named_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pipe = tmp_path / "pipe.sqlite"
    os.mkfifo(pipe)
    code, _, err = _run(capsys, monkeypatch,
                        ["keirin", "play", "--list", "--db", str(pipe), "--lang", "ja"])
    assert code == 2 and "名前付きパイプ（FIFO）" in err


def test_no_database_is_said_in_japanese_and_nothing_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "new" / "x.sqlite"
    code, _, err = _run(capsys, monkeypatch,
                        ["wielersim", "standings", "tour1", "--db", str(db), "--lang", "ja"])
    assert code == 2 and "tour1" in err and "データベースがありません" in err
    assert _listing(tmp_path) == []
