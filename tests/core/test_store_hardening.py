"""The session store refuses files that are not its own and never loses an update."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from pathlib import Path

import pytest

from raceday.core.errors import SaveFormatError
from raceday.store import sessions
from raceday.store.sessions import SessionExistsError, SessionStore, StaleSessionError


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SaveFormatError, match="is a directory"):
        SessionStore(tmp_path)


def test_a_path_under_a_regular_file_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "notes.txt"
    plain.write_text("hello")
    with pytest.raises(SaveFormatError, match="regular file, not a folder"):
        SessionStore(plain / "sub" / "db.sqlite")
    assert plain.read_text() == "hello"


def test_a_corrupt_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    payload = bytes(range(256)) * 64
    bad.write_bytes(payload)
    with pytest.raises(SaveFormatError, match="not a raceday database"):
        SessionStore(bad)
    assert bad.read_bytes() == payload


def test_a_foreign_sqlite_file_is_refused_and_not_written(tmp_path: Path) -> None:
    foreign = tmp_path / "other.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        conn.execute("INSERT INTO contacts VALUES ('Ann', '123')")
    conn.close()
    before = foreign.read_bytes()
    with pytest.raises(SaveFormatError, match=r"another program \(tables: contacts\)"):
        SessionStore(foreign)
    assert foreign.read_bytes() == before


def test_a_table_of_our_name_with_other_columns_is_refused(tmp_path: Path) -> None:
    odd = tmp_path / "odd.sqlite"
    with sqlite3.connect(odd) as conn:
        conn.execute("CREATE TABLE sessions (id INTEGER)")
        conn.execute("CREATE TABLE session_log (id INTEGER)")
    conn.close()
    with pytest.raises(SaveFormatError, match="lacks the columns"):
        SessionStore(odd)


def test_a_read_only_database_can_be_read_but_a_save_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ro.sqlite"
    SessionStore(path).save("keirin", "night", {"race": 1})
    path.chmod(0o444)
    if os.geteuid() == 0:
        # root ignores file modes: open the file read-only, as the OS would for a user
        real_connect = sqlite3.connect

        def read_only(database: object, *args: object, **kwargs: object) -> sqlite3.Connection:
            return real_connect(f"file:{database}?mode=ro", *args, uri=True, **kwargs)  # type: ignore[call-overload,no-any-return]

        monkeypatch.setattr(sessions.sqlite3, "connect", read_only)
    store = SessionStore(path)
    assert store.load("keirin", "night")[0] == {"race": 1}
    with pytest.raises(SaveFormatError, match="read-only"):
        store.save("keirin", "night", {"race": 2}, expected_revision=1)
    monkeypatch.undo()
    path.chmod(0o644)
    assert SessionStore(path).load("keirin", "night") == ({"race": 1}, 1)


def test_a_new_session_never_overwrites_an_existing_one(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "db.sqlite")
    store.save("hairpin", "game", {"ply": 12})
    with pytest.raises(SessionExistsError, match="already exists"):
        store.save("hairpin", "game", {"ply": 0})
    assert store.load("hairpin", "game") == ({"ply": 12}, 1)
    assert store.fresh_name("hairpin", "game") == "game-2"
    store.save("hairpin", "game-2", {"ply": 0})
    assert store.fresh_name("hairpin", "game") == "game-3"
    assert store.fresh_name("pistard", "game") == "game"


def _increment(path: str, worker: int, count: int) -> int:
    """Add ``count`` to the shared counter, retrying refused saves; return the refusals."""
    store = SessionStore(path)
    refused = 0
    done = 0
    while done < count:
        doc, revision = store.load("test", "counter")
        doc = {"total": doc["total"] + 1, "last": worker}
        try:
            store.save("test", "counter", doc, expected_revision=revision,
                       log_entry={"worker": worker, "n": done, "total": doc["total"]})
        except StaleSessionError:
            refused += 1
            continue
        done += 1
    return refused


def test_several_processes_writing_one_session_lose_no_update(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    SessionStore(path).save("test", "counter", {"total": 0, "last": -1})
    workers, each = 4, 60
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        pool.starmap(_increment, [(str(path), w, each) for w in range(workers)])
    store = SessionStore(path)
    doc, revision = store.load("test", "counter")
    assert doc["total"] == workers * each
    assert revision == workers * each + 1
    log = store.log("test", "counter")
    # every accepted save is in the log once, in order, each adding exactly one
    assert [e["total"] for e in log] == list(range(1, workers * each + 1))
    for w in range(workers):
        assert [e["n"] for e in log if e["worker"] == w] == list(range(each))
