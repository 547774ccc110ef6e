"""The store of commands that only read (:class:`ReadOnlyStore`): it reads what
:class:`SessionStore` saved and writes nothing, whatever it is given."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from raceday.core.errors import SaveFormatError
from raceday.store.sessions import NoDatabaseError, ReadOnlyStore, SessionStore


def test_it_reads_what_was_saved(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    SessionStore(db).save("keirin", "friday", {"races": 1}, log_entry={"race": 1})
    held = db.read_bytes()
    store = ReadOnlyStore(db)
    assert store.has_sessions and not store.has_rooms and not store.missing
    assert store.names("keirin") == ["friday"] and store.exists("keirin", "friday")
    assert store.load("keirin", "friday") == ({"races": 1}, 1)
    assert store.log("keirin", "friday") == [{"race": 1}]
    with pytest.raises(SaveFormatError, match="no saved keirin session named 'sunday'"):
        store.load("keirin", "sunday")
    with pytest.raises(SaveFormatError, match="read only"):
        store.save("keirin", "friday", {"races": 2}, expected_revision=1)
    assert db.read_bytes() == held and sorted(os.listdir(tmp_path)) == ["s.sqlite"]


def test_a_missing_file_is_an_empty_store_and_stays_missing(tmp_path: Path) -> None:
    db = tmp_path / "no" / "such" / "s.sqlite"
    store = ReadOnlyStore(db)
    assert store.missing and store.names("keirin") == [] and store.query("SELECT 1") == []
    assert not store.exists("keirin", "friday")
    with pytest.raises(NoDatabaseError, match="there is no database at"):
        store.load("keirin", "friday")
    assert os.listdir(tmp_path) == []


def test_an_empty_file_gets_no_tables(tmp_path: Path) -> None:
    db = tmp_path / "empty.sqlite"
    db.touch()
    store = ReadOnlyStore(db)
    assert store.names("keirin") == [] and not store.has_sessions
    with pytest.raises(SaveFormatError, match="no saved keirin session"):
        store.load("keirin", "friday")
    assert db.read_bytes() == b"" and os.listdir(tmp_path) == ["empty.sqlite"]


def test_another_programs_file_a_corrupt_one_and_a_pipe_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
    conn.close()
    with pytest.raises(SaveFormatError, match=r"not a raceday database \(tables: notes\)"):
        ReadOnlyStore(other)
    text = tmp_path / "text.sqlite"
    text.write_text("hello " * 100)
    with pytest.raises(SaveFormatError, match="not a raceday database"):
        ReadOnlyStore(text)
    pipe = tmp_path / "pipe.sqlite"
    os.mkfifo(pipe)
    with pytest.raises(SaveFormatError, match=r"it is a named pipe \(FIFO\), not a database"):
        ReadOnlyStore(pipe)
    with pytest.raises(SaveFormatError, match="it is a directory, not a database"):
        ReadOnlyStore(tmp_path)
    with pytest.raises(SaveFormatError, match="is a regular file, not a folder"):
        ReadOnlyStore(text / "s.sqlite")
    assert sorted(os.listdir(tmp_path)) == ["other.sqlite", "pipe.sqlite", "text.sqlite"]


def test_the_saving_store_names_a_pipe_too(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.sqlite"
    os.mkfifo(pipe)
    with pytest.raises(SaveFormatError, match=r"it is a named pipe \(FIFO\), not a database"):
        SessionStore(pipe)


def test_a_write_ahead_logged_file_in_use_is_read_with_its_log(tmp_path: Path) -> None:
    """A server has the file open (its -wal is there): what it committed is read from the
    log, and the -wal and -shm it made are all that stays beside the file."""
    db = tmp_path / "s.sqlite"
    SessionStore(db)
    server = sqlite3.connect(db, isolation_level=None)
    try:
        server.execute("PRAGMA journal_mode=WAL")
        server.execute("BEGIN")  # a read under way: the -wal stays, the save stays in it
        server.execute("SELECT COUNT(*) FROM sessions").fetchone()
        SessionStore(db).save("derby", "party-1", {"race": 2})
        beside = sorted(os.listdir(tmp_path))
        assert beside == ["s.sqlite", "s.sqlite-shm", "s.sqlite-wal"]
        assert ReadOnlyStore(db).load("derby", "party-1") == ({"race": 2}, 1)
        assert sorted(os.listdir(tmp_path)) == beside
    finally:
        server.execute("ROLLBACK")
        server.close()
