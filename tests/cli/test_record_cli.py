"""``raceday record export``, ``raceday record check`` and ``raceday replay FILE`` (#47):
records made by the arena's games (several games in one file) are checked game by game, a
hand-corrupted one is refused at its line number with exit code 2 and no traceback, a
record file replays with the board of every step from the first position, and a saved
game exports as the record it was saved as (a save from before records only where its
game converts it)."""

from __future__ import annotations

import importlib
import json
import sqlite3
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from raceday.cli.main import run
from raceday.core.record import Record, parse_record, parse_records, records_text, replay
from raceday.interop.arena import run_arena
from raceday.store.records import save_game
from raceday.store.sessions import ROOM_COLUMNS, SessionStore


def call(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def matches() -> list[Record]:
    """Three short Hairpin games of the arena, written down (made once)."""
    result = run_arena("hairpin", "random", "random", 3, seed=5, params={"variant": "short"},
                       records=True)
    assert len(result.matches) == 3
    return result.matches


@pytest.fixture
def record_file(tmp_path: Path, matches: list[Record]) -> Path:
    path = tmp_path / "matches.txt"
    path.write_text(records_text(matches), encoding="utf-8")
    return path


def corrupted(path: Path, number: int, line: str) -> Path:
    """``path`` with its line ``number`` (from 1) replaced by ``line``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = line
    bad = path.with_name("bad.txt")
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bad


def first_move_line(path: Path, skip: int = 0) -> int:
    """The number of the first move line of ``path`` (after ``skip`` others)."""
    moves = [n for n, line in enumerate(path.read_text().splitlines(), start=1)
             if line.startswith(("p1:", "p2:", "chance:"))]
    return moves[skip]


# --- check ------------------------------------------------------------------------------------
def test_check_names_every_game_with_its_moves_and_result(
        capsys: pytest.CaptureFixture[str], record_file: Path, matches: list[Record]) -> None:
    code, out, err = call(capsys, "record", "check", str(record_file), "--lang", "en")
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 3
    for line, match in zip(lines, matches, strict=True):
        assert line == f"hairpin: {len(match.moves)} moves, {match.result}"
        assert match.result != "*"  # each game was played to its end


def test_check_words_its_lines_in_japanese(capsys: pytest.CaptureFixture[str],
                                          record_file: Path, matches: list[Record]) -> None:
    code, out, _ = call(capsys, "record", "check", str(record_file), "--lang", "ja")
    assert code == 0
    assert out.splitlines()[0] == f"hairpin: {len(matches[0].moves)} 手、{matches[0].result}"


def test_check_refuses_an_illegal_move_at_its_line(
        capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    number = first_move_line(record_file, skip=1)  # the second move: black's
    bad = corrupted(record_file, number, "p2: a1 fly f3")
    code, out, err = call(capsys, "record", "check", str(bad))
    assert code == 2
    assert err.startswith(f"{bad}:{number}: ")
    assert "cannot play 'a1 fly f3'" in err and "Traceback" not in err + out


def test_check_refuses_a_move_of_the_wrong_player_in_a_later_game(
        capsys: pytest.CaptureFixture[str], record_file: Path, matches: list[Record]) -> None:
    number = first_move_line(record_file, skip=len(matches[0].moves))  # game 2's first move
    bad = corrupted(record_file, number, "p2: " + matches[1].moves[0].name)
    code, _, err = call(capsys, "record", "check", str(bad))
    assert code == 2 and err.strip() == f"{bad}:{number}: it is not p2's turn here"


def test_check_refuses_a_broken_tag_and_a_missing_file(
        capsys: pytest.CaptureFixture[str], record_file: Path, tmp_path: Path) -> None:
    bad = corrupted(record_file, 2, "[Format 1")
    code, _, err = call(capsys, "record", "check", str(bad))
    assert code == 2 and err.startswith(f"{bad}:2: a tag is written")
    empty = tmp_path / "empty.txt"
    empty.write_text("; nothing\n", encoding="utf-8")
    code, _, err = call(capsys, "record", "check", str(empty))
    assert code == 2 and "no game in this text" in err
    code, _, err = call(capsys, "record", "check", str(tmp_path / "missing.txt"))
    assert code == 2 and "missing.txt" in err and "Traceback" not in err


def test_check_says_a_game_is_not_finished(capsys: pytest.CaptureFixture[str],
                                           matches: list[Record], tmp_path: Path) -> None:
    half = Record(dict(matches[0].tags), matches[0].moves[:4])
    path = tmp_path / "half.txt"
    path.write_text(half.text(), encoding="utf-8")
    code, out, _ = call(capsys, "record", "check", str(path), "--lang", "en")
    assert code == 0 and out.strip() == "hairpin: 4 moves, not finished"


# --- replay FILE ------------------------------------------------------------------------------
def test_replay_of_a_record_file_has_every_step_and_the_final_board(
        capsys: pytest.CaptureFixture[str], record_file: Path, matches: list[Record]) -> None:
    code, out, err = call(capsys, "replay", str(record_file), "--json", "--lang", "en")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["source"] == "record" and doc["game"] == "hairpin"
    assert doc["total"] == sum(len(m.moves) + 1 for m in matches)
    steps = doc["steps"]
    assert steps[0]["words"] == ["hairpin: the first position"] and steps[0]["game"] == 1
    first = replay(matches[0])
    assert steps[0]["frame"] == first.start.frame()
    last_of_first = steps[len(matches[0].moves)]
    assert last_of_first["frame"] == first.state.frame()
    assert last_of_first["move"] == matches[0].moves[-1].text()
    assert last_of_first["words"][-1] == matches[0].result  # the result at the end
    second = steps[len(matches[0].moves) + 1]
    assert second["game"] == 2 and second["words"] == ["hairpin: the first position"]
    assert all(step["board"] for step in steps)  # the game's board at every step
    assert "laps" in steps[-1]["board"]


def test_replay_of_a_record_file_prints_every_step_with_all(
        capsys: pytest.CaptureFixture[str], matches: list[Record], tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(matches[0].text(), encoding="utf-8")
    total = len(matches[0].moves) + 1
    code, out, err = call(capsys, "replay", str(path), "--all", "--delay", "0",
                          "--lang", "en")
    assert code == 0, err
    assert out.count(f" of {total} ") == total
    first_move = matches[0].moves[0]
    assert f"(p1) plays {first_move.name}" in out
    code, out, _ = call(capsys, "replay", str(path), "--step", "2", "--lang", "en")
    assert code == 0 and f"Step 2 of {total}" in out and out.count(f" of {total} ") == 1


def test_replay_refuses_a_corrupted_record_at_its_line(
        capsys: pytest.CaptureFixture[str], record_file: Path) -> None:
    number = first_move_line(record_file, skip=2)
    bad = corrupted(record_file, number, "chance: 7")
    code, out, err = call(capsys, "replay", str(bad), "--plain")
    assert code == 2 and f"{bad}:{number}:" in err and "Traceback" not in err + out


# --- export -----------------------------------------------------------------------------------
@pytest.fixture
def db(tmp_path: Path, matches: list[Record]) -> Path:
    """A database with the first match saved as ``duel`` by hairpin and pistard (the same
    name in two games) and the second as ``solo``."""
    path = tmp_path / "saves.sqlite"
    store = SessionStore(path)
    save_game(store, "hairpin", "duel", matches[0], state=replay(matches[0]).state)
    save_game(store, "hairpin", "solo", matches[1])
    pistard = run_arena("pistard", "random", "random", 1, seed=2, records=True).matches[0]
    save_game(store, "pistard", "duel", pistard)
    return path


def test_export_prints_the_saved_record(capsys: pytest.CaptureFixture[str], db: Path,
                                        matches: list[Record]) -> None:
    code, out, err = call(capsys, "record", "export", "solo", "--db", str(db))
    assert code == 0, err
    assert out == matches[1].text()
    assert parse_record(out).tags["Round"] == 2


def test_export_writes_a_file_that_checks_and_refuses_to_overwrite_it(
        capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path,
        matches: list[Record]) -> None:
    out_file = tmp_path / "duel.txt"
    code, out, err = call(capsys, "record", "export", "duel", "--game", "hairpin", "--db",
                          str(db), "-o", str(out_file), "--lang", "en")
    assert code == 0, err
    assert out.strip() == f"record written to {out_file}"
    assert out_file.read_text(encoding="utf-8") == matches[0].text()
    code, out, _ = call(capsys, "record", "check", str(out_file), "--lang", "en")
    assert code == 0 and out.startswith(f"hairpin: {len(matches[0].moves)} moves")
    code, _, err = call(capsys, "record", "export", "hairpin/duel", "--db", str(db), "-o",
                        str(out_file))
    assert code == 2 and "exists" in err and "--force" in err


def test_export_of_a_name_two_games_saved_lists_them(capsys: pytest.CaptureFixture[str],
                                                     db: Path) -> None:
    code, out, err = call(capsys, "record", "export", "duel", "--db", str(db))
    assert code == 2 and out == ""
    assert "hairpin, pistard" in err and "--game" in err
    code, out, err = call(capsys, "record", "export", "duel", "-g", "pistard", "--db", str(db))
    assert code == 0, err
    assert parse_record(out).game == "pistard"


def test_export_refuses_an_unknown_name(capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, _, err = call(capsys, "record", "export", "nobody", "--db", str(db))
    assert code == 2 and "no saved game named 'nobody'" in err


def test_a_save_from_before_records_exports_only_through_its_games_converter(
        capsys: pytest.CaptureFixture[str], db: Path, matches: list[Record],
        monkeypatch: pytest.MonkeyPatch) -> None:
    SessionStore(db).save("hairpin", "old", {"state": replay(matches[2]).state.to_json()})
    import raceday.store.converters as converters

    # a game with no converter (every built-in game has one; a plugin may not)
    monkeypatch.setattr(converters, "face", lambda game, name: None)
    code, _, err = call(capsys, "record", "export", "old", "--db", str(db))
    assert code == 2 and "made before records" in err and "Traceback" not in err

    def convert(document: dict[str, Any]) -> Record:
        return Record({"Game": "hairpin", "Format": 1, "Options": {"variant": "short"},
                       "Start": document["state"]})

    module = types.ModuleType("record_convert")
    module.convert = convert  # type: ignore[attr-defined]
    monkeypatch.setattr(converters, "face", lambda game, name: module
                        if (game, name) == ("hairpin", "record_convert") else None)
    code, out, err = call(capsys, "record", "export", "old", "--db", str(db))
    assert code == 0, err
    converted = parse_record(out)
    assert converted.tags["Start"] == replay(matches[2]).state.to_json()
    assert replay(converted).state.to_json() == replay(matches[2]).state.to_json()


def test_the_converter_registry_finds_a_games_record_convert_module() -> None:
    from raceday.core.discovery import has_face
    from raceday.store.converters import record_converter

    for game in ("hairpin", "derby_evening", "keirin"):
        package = game.split("_")[0]
        found = record_converter(game)
        assert (found is not None) == has_face(package, "record_convert")
        if found is not None:
            module = importlib.import_module(f"raceday.games.{package}.record_convert")
            assert found is module.convert


def test_export_of_a_room_asks_the_rooms_for_its_record(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, matches: list[Record],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "rooms.sqlite"
    with sqlite3.connect(path) as conn:
        for table, columns in ROOM_COLUMNS.items():
            conn.execute(f"CREATE TABLE {table} ({', '.join(sorted(columns))})")
    asked: list[str] = []

    def room_record_from_db(query: Any, code: str) -> Record | None:
        asked.append(code)
        assert query("SELECT COUNT(*) FROM rooms") == [(0,)]
        return matches[0] if code == "ABCD" else None

    fake = types.ModuleType("raceday.rooms.record")
    fake.room_record_from_db = room_record_from_db  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "raceday.rooms.record", fake)
    code, out, err = call(capsys, "record", "export", "--room", "abcd", "--db", str(path))
    assert code == 0, err
    assert out == matches[0].text() and asked == ["ABCD"]
    code, _, err = call(capsys, "record", "export", "--room", "ZZZZ", "--db", str(path))
    assert code == 2 and "no room 'ZZZZ'" in err


def test_a_record_file_of_several_games_reads_back_as_the_matches(
        record_file: Path, matches: list[Record]) -> None:
    read = parse_records(record_file.read_text(encoding="utf-8"))
    assert [r.moves for r in read] == [m.moves for m in matches]


@pytest.mark.parametrize("game", ["hairpin", "pistard"])
def test_export_of_a_played_room_checks_and_replays_to_its_end(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str) -> None:
    """A room played to its end on the party server's database exports (``--room``, the
    rooms' ``room_record_from_db``) as a record that checks and ends as the room ended."""
    from raceday.rooms import logic_class
    from tests.web.test_replay_frames import play_room

    db = tmp_path / "party.sqlite"
    code = play_room(db, game)
    out_file = tmp_path / "room.txt"
    exported, _, err = call(capsys, "record", "export", code.lower(), "--room", "--db",
                            str(db), "-o", str(out_file))
    assert exported == 0, err
    (done,) = check_text_of(out_file)
    assert done.record.tags["Face"] == "room" and done.record.tags["Name"] == code
    with sqlite3.connect(db) as conn:
        (snapshot,) = conn.execute("SELECT state FROM rooms WHERE code = ?", (code,)).fetchone()
    room_state = logic_class(game).from_json(json.loads(snapshot)).state
    assert done.state.is_terminal() and done.state.to_json() == room_state.to_json()
    checked, out, err = call(capsys, "record", "check", str(out_file), "--lang", "en")
    assert checked == 0 and out.startswith(f"{game}: {len(done.record.moves)} moves"), err


def check_text_of(path: Path) -> list[Any]:
    from raceday.core.record import check_text

    return check_text(path.read_text(encoding="utf-8"))
