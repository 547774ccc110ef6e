"""``raceday rooms``: list, prune and archive the party server's rooms.

Rooms are made with the server's own kit (:class:`raceday.web.rooms.Rooms`), then aged by
setting their last play (``updated``) in the file: no test waits for a clock. Prune and
archive remove only finished or closed rooms older than the given days, never one still
being played; an archive is written before anything is deleted, and a failure at any
step leaves the rooms (and no archive) behind. Bad input ends with one line and exit 2.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from raceday.cli.main import run
from raceday.web.lifecycle import read_archive
from raceday.web.rooms import Rooms

OLD = "2020-01-01 00:00:00"


def _sql(db: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        with conn:
            return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def _codes(db: Path) -> set[str]:
    return {str(row[0]) for row in _sql(db, "SELECT code FROM rooms")}


def _counts(db: Path) -> tuple[int, int, int]:
    return tuple(int(_sql(db, f"SELECT COUNT(*) FROM {t}")[0][0])  # type: ignore[return-value]
                 for t in ("rooms", "room_seats", "room_events"))


@pytest.fixture
def party(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A database with one room of each kind: old closed, old finished, old but still
    played, recently closed; each has two seats."""
    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    made = {}
    for kind in ("old_closed", "old_finished", "old_playing", "new_closed"):
        room, _ = rooms.create("derby", {})
        for name in ("Aki", "Ben"):
            rooms.join(room.code, name)
        made[kind] = room.code
    for kind in ("old_closed", "new_closed"):
        rooms.close(rooms.get(made[kind]))
    rooms.store.close()
    _sql(db, "UPDATE rooms SET finished = 1 WHERE code = ?", (made["old_finished"],))
    for kind in ("old_closed", "old_finished", "old_playing"):
        _sql(db, "UPDATE rooms SET updated = ? WHERE code = ?", (OLD, made[kind]))
    return db, made


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(["rooms", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_shows_every_room_and_its_status(party: tuple[Path, dict[str, str]],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    db, made = party
    code, out, err = _run(capsys, "list", "--db", str(db))
    assert code == 0 and err == ""
    lines = {line.split()[0]: line for line in out.splitlines()[1:-1]}
    assert set(lines) == set(made.values())
    assert "closed" in lines[made["old_closed"]] and OLD in lines[made["old_closed"]]
    assert "finished" in lines[made["old_finished"]]
    assert "playing" in lines[made["old_playing"]]
    assert out.splitlines()[-1] == "4 rooms, 1 being played"
    code, out, _ = _run(capsys, "list", "--db", str(db), "--json")
    listed = {r["code"]: r for r in json.loads(out)}
    assert listed[made["old_playing"]]["status"] == "playing"
    assert listed[made["new_closed"]]["closed"] is True
    assert {r["seats"] for r in listed.values()} == {2}
    assert {r["events"] for r in listed.values()} == {3}  # created, two joins


def test_prune_removes_only_old_finished_or_closed_rooms(
        party: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]) -> None:
    db, made = party
    before = _counts(db)
    code, out, _ = _run(capsys, "prune", "--older-than", "30", "--db", str(db), "--dry-run")
    assert code == 0 and "would remove 2 rooms" in out
    assert _counts(db) == before  # a dry run changes nothing
    code, out, _ = _run(capsys, "prune", "--older-than", "30", "--db", str(db))
    assert code == 0
    assert sorted(out.split(":")[-1].split()) == sorted([made["old_closed"],
                                                        made["old_finished"]])
    assert _codes(db) == {made["old_playing"], made["new_closed"]}  # played / recent
    assert _counts(db) == (2, 4, 6)  # their seats and events went with them
    code, out, _ = _run(capsys, "prune", "--older-than", "30", "--db", str(db))
    assert code == 0 and "no finished or closed room" in out
    rooms = Rooms(db)  # the server opens the file as before: the played room goes on
    assert set(rooms.rooms) == {made["old_playing"]}
    rooms.store.close()


@pytest.mark.parametrize("name", ["rooms.jsonl", "rooms.jsonl.gz"])
def test_archive_writes_the_rooms_then_deletes_them(
        party: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path, name: str) -> None:
    db, made = party
    hashes = {str(h) for (h,) in _sql(db, "SELECT host_hash FROM rooms")}
    hashes |= {str(h) for (h,) in _sql(db, "SELECT token_hash FROM room_seats")}
    target = tmp_path / name
    code, out, err = _run(capsys, "archive", "--older-than", "30", "--db", str(db),
                          "--out", str(target))
    assert code == 0, err
    assert f"archived 2 rooms to {target}" in out
    header, archived = read_archive(target)
    assert header["format"] == "raceday-rooms-archive" and header["rooms"] == 2
    assert {r["code"] for r in archived} == {made["old_closed"], made["old_finished"]}
    for room in archived:
        assert [s["name"] for s in room["seats"]] == ["Aki", "Ben"]
        assert [e["seq"] for e in room["events"]] == [1, 2, 3]
        assert room["state"]["game"] == "derby" and room["updated"] == OLD
    raw = gzip.decompress(target.read_bytes()) if name.endswith(".gz") else \
        target.read_bytes()
    assert not any(h.encode() in raw for h in hashes)  # no secret, not even hashed
    assert _codes(db) == {made["old_playing"], made["new_closed"]}
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_archive_into_a_folder_makes_a_dated_file(
        party: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    db, _ = party
    folder = tmp_path / "archives"
    folder.mkdir()
    code, _, err = _run(capsys, "archive", "--older-than", "30", "--db", str(db), "-o",
                        str(folder))
    assert code == 0, err
    (made,) = list(folder.iterdir())
    assert made.name.startswith("rooms-") and made.name.endswith(".jsonl.gz")
    assert len(read_archive(made)[1]) == 2


def test_an_archive_never_replaces_a_file_and_refusals_change_nothing(
        party: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    db, _ = party
    kept = tmp_path / "kept.jsonl"
    kept.write_text("mine\n")
    before = _counts(db)
    refused = [
        ("archive", "--older-than", "30", "--db", str(db), "--out", str(kept)),
        ("archive", "--older-than", "30", "--db", str(db), "--out",
         str(tmp_path / "missing" / "a.jsonl")),
        ("archive", "--older-than", "30", "--db", str(db), "--out", ""),
        ("archive", "--older-than", "30", "--db", str(db)),  # no --out
        ("prune", "--older-than", "0", "--db", str(db)),
        ("prune", "--older-than", "-3", "--db", str(db)),
        ("prune", "--older-than", "soon", "--db", str(db)),
        ("prune", "--db", str(db)),  # no age
        ("prune", "--older-than", "30", "--db", str(tmp_path / "nothing.sqlite")),
        ("prune", "--older-than", "30", "--db", str(tmp_path)),  # a folder
        ("list", "--db", str(kept)),  # not a database
        ("list", "--db", str(tmp_path / "nothing.sqlite")),
        ("wipe",),
    ]
    for args in refused:
        code, out, err = _run(capsys, *args)
        assert code == 2, (args, out, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (args, err)
    assert kept.read_text() == "mine\n"
    assert _counts(db) == before
    assert not (tmp_path / "nothing.sqlite").exists()


def test_a_failed_archive_deletes_nothing(party: tuple[Path, dict[str, str]],
                                          capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db, _ = party
    before = _counts(db)
    target = tmp_path / "a.jsonl"

    def no_link(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("raceday.web.lifecycle.os.link", no_link)
    code, _, err = _run(capsys, "archive", "--older-than", "30", "--db", str(db), "--out",
                        str(target))
    assert code == 2 and "No space left" in err
    assert _counts(db) == before and not target.exists()
    assert list(tmp_path.glob(".a.jsonl.*")) == []  # the half-written file is gone too


def test_a_failed_delete_removes_the_archive_again(party: tuple[Path, dict[str, str]],
                                                   capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    db, _ = party
    before = _counts(db)
    _sql(db, "CREATE TRIGGER keep BEFORE DELETE ON rooms BEGIN "
             "SELECT RAISE(ABORT, 'rooms are kept'); END")
    target = tmp_path / "a.jsonl"
    code, _, err = _run(capsys, "archive", "--older-than", "30", "--db", str(db), "--out",
                        str(target))
    assert code == 2 and "rooms are kept" in err and len(err.strip().splitlines()) == 1
    assert _counts(db) == before  # the events and seats deleted first came back too
    assert not target.exists()  # both or neither


def test_a_busy_database_is_refused_in_one_line(party: tuple[Path, dict[str, str]],
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    db, _ = party
    real = sqlite3.connect

    def impatient(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return real(*args, **{**kwargs, "timeout": 0.05})  # a hang guard, not a wait

    monkeypatch.setattr("raceday.web.lifecycle.sqlite3.connect", impatient)
    holder = real(db, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # a server in the middle of a write
        code, _, err = _run(capsys, "prune", "--older-than", "30", "--db", str(db))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 2 and "locked" in err and len(err.strip().splitlines()) == 1
    assert len(_codes(db)) == 4


def test_no_database_yet_is_said_not_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for args in (("list",), ("prune", "--older-than", "7")):
        code, out, err = _run(capsys, *args)
        assert code == 0 and err == "" and out.startswith("no rooms: there is no database")
    assert not (tmp_path / "data").exists()  # nothing made on the way
