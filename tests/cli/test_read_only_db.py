"""A database that can be read but not saved to is refused before any work: before a
ticket, a bid, a move or a stage is asked for, when a session is resumed or started, in all
five games. And a chart's missing folder is refused before the races are simulated.

Tests often run as root, which ignores file modes: there the file (or folder) is made
immutable, as ``chattr +i`` does, which refuses writes to root as well; SQLite then opens
the file read-only exactly as it does a read-only file for an ordinary user."""

from __future__ import annotations

import array
import fcntl
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.errors import SaveFormatError
from raceday.store.sessions import SessionStore, writable_store

runner = CliRunner()

FS_IOC_GETFLAGS = 0x80086601
FS_IOC_SETFLAGS = 0x40086602
FS_IMMUTABLE_FL = 0x10


def _immutable(path: Path, on: bool) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        flags = array.array("i", [0])
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags, True)
        flags[0] = flags[0] | FS_IMMUTABLE_FL if on else flags[0] & ~FS_IMMUTABLE_FL
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, flags, True)
    finally:
        os.close(fd)


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a file or a folder) cannot be written while the block runs."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    try:
        _immutable(path, True)
    except OSError as exc:
        pytest.skip(f"cannot make {path} read-only as root here: {exc}")
    try:
        yield
    finally:
        _immutable(path, False)


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str,
             monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """Run ``argv`` with ``stdin``; it must stop with exit code 2 and one line on stderr."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = run(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return out, err


# --- the store -------------------------------------------------------------------------
def test_check_writable_refuses_a_read_only_file_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    SessionStore(db).save("keirin", "friday", {"races": 1})
    before = db.read_bytes()
    with read_only(db):
        store = SessionStore(db)  # reading still works
        assert store.load("keirin", "friday") == ({"races": 1}, 1)
        with pytest.raises(SaveFormatError, match="read-only"):
            store.check_writable()
        with pytest.raises(SaveFormatError, match="read-only"):
            writable_store(db)
    writable_store(db).check_writable()  # writable again: accepted, and nothing changed
    assert db.read_bytes() == before
    assert not (tmp_path / "s.sqlite-journal").exists()


def test_check_writable_refuses_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    db = folder / "s.sqlite"
    SessionStore(db).save("keirin", "friday", {"races": 1})
    with read_only(folder), pytest.raises(SaveFormatError, match="folder is read-only"):
        writable_store(db)


def test_the_probe_catches_what_the_late_save_hit(tmp_path: Path) -> None:
    """The early check meets the same failure as a save: both are the store's read-only
    error, so a database that passes the check can be saved to."""
    db = tmp_path / "s.sqlite"
    store = SessionStore(db)
    store.save("keirin", "friday", {"races": 1})
    with read_only(db):
        with pytest.raises(SaveFormatError) as late:
            store.save("keirin", "friday", {"races": 2}, expected_revision=1)
        with pytest.raises(SaveFormatError) as early:
            store.check_writable()
    assert str(early.value) == str(late.value)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone() == (0,)
    conn.close()


# --- the five games --------------------------------------------------------------------
def _save_first(argv: list[str], stdin: str) -> None:
    result = runner.invoke(app, argv, input=stdin)
    assert result.exit_code == 0, (result.output, result.exception)


RESUMES = {
    "keirin": (["keirin", "play", "-p", "Ann", "--save", "s", "--seed", "1"], "",
               ["keirin", "play", "--resume", "s"], "win 1 10\ndone\n", "ticket"),
    "derby": (["derby", "play", "--players", "Ann", "--computers", "1", "--save", "s",
               "--seed", "1", "--delay", "0"], "",
              ["derby", "play", "--resume", "s", "--delay", "0"], "100\n", "bid"),
    "hairpin": (["hairpin", "play", "--black", "easy", "--save", "s", "--seed", "1",
                 "--delay", "0"], "q\n",
                ["hairpin", "play", "--resume", "s", "--delay", "0"], "1\nq\n",
                "Your move"),
    "pistard": (["pistard", "play", "--players", "human,medium", "--riders-per-player", "1",
                 "--save", "s", "--seed", "9", "--delay", "0"], "",
                ["pistard", "play", "--resume", "s", "--delay", "0"],
                "2 4\n1\n", "place rider"),
    "wielersim": (["wielersim", "tour", "ronde-van-belgie", "small", "--save", "s",
                   "--seed", "1", "--delay", "0"], "s\n",
                  ["wielersim", "tour", "--resume", "s", "--delay", "0"], "c\n", "Next:"),
}


@pytest.mark.parametrize("game", list(RESUMES))
def test_resuming_on_a_read_only_database_is_refused_before_any_input(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, first_input, resume, typed, prompt = RESUMES[game]
    db = tmp_path / "s.sqlite"
    _save_first([*first, "--db", str(db)], first_input)
    before = db.read_bytes()
    with read_only(db):
        out, err = _refused(capsys, [*resume, "--db", str(db)], typed, monkeypatch)
    assert "read-only" in err
    assert prompt not in out  # nothing was asked: no work to throw away
    assert db.read_bytes() == before


STARTS = {
    "keirin": (["keirin", "play", "-p", "Ann", "--save", "new"], "done\n"),
    "derby": (["derby", "play", "--computers", "1", "--save", "new", "--delay", "0"],
              "Ann\n"),  # the names would be asked: the database is refused first
    "hairpin": (["hairpin", "play", "--black", "easy", "--save", "new", "--delay", "0"],
                "1\nq\n"),
    "pistard": (["pistard", "play", "--players", "human,medium", "--riders-per-player", "1",
                 "--save", "new", "--delay", "0"], "2 4\n"),
    "wielersim": (["wielersim", "tour", "ronde-van-belgie", "small", "--save", "new",
                   "--delay", "0"], "c\n"),
}


@pytest.mark.parametrize("game", list(STARTS))
def test_starting_on_a_read_only_database_is_refused_before_any_input(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv, typed = STARTS[game]
    db = tmp_path / "s.sqlite"
    SessionStore(db)  # an empty raceday database
    before = db.read_bytes()
    with read_only(db):
        out, err = _refused(capsys, [*argv, "--db", str(db)], typed, monkeypatch)
    assert "read-only" in err
    assert "Player names" not in out and "Your move" not in out and "place rider" not in out
    assert db.read_bytes() == before


def test_a_read_only_folder_is_refused_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    db = folder / "s.sqlite"
    _save_first(["hairpin", "play", "--black", "easy", "--save", "s", "--seed", "1",
                 "--delay", "0", "--db", str(db)], "q\n")
    with read_only(folder):
        out, err = _refused(capsys, ["hairpin", "play", "--resume", "s",
                                     "--delay", "0", "--db", str(db)], "1\nq\n", monkeypatch)
    assert "folder is read-only" in err
    assert "Your move" not in out


# --- charts ----------------------------------------------------------------------------
def test_a_chart_into_a_missing_folder_is_refused_before_the_races(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plot = tmp_path / "no such folder" / "chart.png"
    out, err = _refused(capsys, ["wielersim", "predict", "flanders", "classics", "-n", "2000",
                                 "--seed", "1", "--plot", str(plot)], "", monkeypatch)
    assert "does not exist" in err and "--plot" in err
    assert out == ""  # no table: the races were never run
    assert not plot.parent.exists()
