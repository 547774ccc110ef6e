"""PISTARD's terminal saves its race as a record (issue 47): a race played, saved, exported
(:meth:`Record.text`), checked (:func:`check_text`), replayed and resumed from the file ends
byte for byte as the same race played without stopping (same seed, same typed input); the
saves today's main wrote before records (tests/fixtures/saves/pistard-*.json, made with
``raceday pistard play -p human,easy --riders-per-player 2 --seed 3`` typing
``1 1, 1 2, 1, 1, undo, 2, 1`` then input ended; and ``watch -p easy,medium
--riders-per-player 1 --seed 5`` to its end) open, convert and go on; a record file that
is hand-corrupted, or of another game, is refused by ``--resume FILE`` with its line."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from raceday.cli.main import run
from raceday.core.record import Record, check_text, parse_record, replay
from raceday.core.serialize import loads_state
from raceday.games.pistard.saves import load_race
from raceday.games.pistard.state import PistardState
from raceday.store.sessions import SessionStore
from tests.games.pistard.test_replay_terminal import fixture

FIXTURES = Path(__file__).parents[2] / "fixtures" / "saves"
PLAY = ["pistard", "play", "-p", "human,easy", "--riders-per-player", "2", "--seed", "3",
        "--delay", "0", "--plain"]
# placements (one taken back), five moves, a move taken back, then the first listed move
FIRST = "1 1\n1 2\nundo\n1 3\n" + "1\n" * 5 + "undo\n" + "1\n" * 2
REST = "1\n" * 600
# what the fixture pistard-mid-race.json was typed with, before its input ended
FIXTURE_TYPED = "1 1\n1 2\n1\n1\nundo\n2\n1\n"
# tags that say when and under which name, not what was played
CIRCUMSTANCES = ("Started", "Saved", "Name")


def command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            args: list[str], script: str = "") -> tuple[int, str, str]:
    """``raceday ARGS`` with ``script`` as its input (a pipe: line mode)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = run(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def record_of(db: Path, name: str) -> Record:
    return load_race(SessionStore(db), name).record


def played_text(record: Record) -> str:
    """The record's text without the tags of when and where it was saved."""
    return Record({k: v for k, v in record.tags.items() if k not in CIRCUMSTANCES},
                  record.moves).text()


def events_of(record: Record) -> list[list[tuple[str, Any]]]:
    return [[(e.kind, e.data) for e in events] for events in replay(record).events]


@pytest.fixture
def uninterrupted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  capsys: pytest.CaptureFixture[str]) -> Record:
    db = tmp_path / "whole.sqlite"
    code, out, err = command(monkeypatch, capsys, [*PLAY, "--db", str(db), "--save", "whole"],
                             FIRST + REST)
    assert code == 0 and "wins" in out, err
    return record_of(db, "whole")


def test_play_save_export_check_replay_resume_is_the_same_race(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], uninterrupted: Record) -> None:
    db = tmp_path / "part.sqlite"
    code, out, _ = command(monkeypatch, capsys, [*PLAY, "--db", str(db), "--save", "part"],
                           FIRST)
    assert code == 0 and "Saved as 'part'" in out and "wins" not in out
    saved = load_race(SessionStore(db), "part")
    # export: the record's text; check: read and played through the rules
    text = saved.record.text()
    exported = tmp_path / "part.pistard.txt"
    exported.write_text(text, encoding="utf-8")
    (checked,) = check_text(text)
    assert checked.state.to_json() == saved.state().to_json()
    assert not checked.state.is_terminal() and len(checked.record.moves) > 10
    # replay (the terminal's): one step a decision, the last one the saved position
    code, out, err = command(monkeypatch, capsys, ["replay", "part", "--db", str(db),
                                                   "--json"])
    assert code == 0, err
    decisions = [m for m in saved.record.moves if m.who != "chance"]
    assert json.loads(out)["total"] == len(decisions)
    # resume from the exported file, into another database
    other = tmp_path / "resumed.sqlite"
    code, out, err = command(monkeypatch, capsys,
                             [*PLAY, "--db", str(other), "--resume", str(exported)], REST)
    assert code == 0 and "wins" in out, err
    assert f"resuming {str(exported)!r}" in out.replace("\n", "")  # a long path wraps
    resumed = record_of(other, "part.pistard")  # saved under the file's name
    whole = uninterrupted
    # byte for byte the race played without stopping: its moves, tags, generator, result
    assert played_text(resumed) == played_text(whole)
    assert resumed.moves[:len(saved.record.moves)] == saved.record.moves
    end = load_race(SessionStore(other), "part.pistard").state()
    assert end.is_terminal()
    assert json.dumps(end.to_json(), sort_keys=True) == json.dumps(
        replay(whole).state.to_json(), sort_keys=True)
    assert events_of(resumed) == events_of(whole)
    assert end.outcome().ranking == replay(whole).state.outcome().ranking


def test_resume_by_name_is_the_same_race(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], uninterrupted: Record) -> None:
    db = tmp_path / "s.sqlite"
    command(monkeypatch, capsys, [*PLAY, "--db", str(db), "--save", "whole"], FIRST)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "whole").write_text("not a record\n")  # the saved race's name comes first
    code, out, _ = command(monkeypatch, capsys, [*PLAY, "--db", str(db), "--resume", "whole"],
                           REST)
    assert code == 0 and "resuming 'whole'" in out and "wins" in out
    assert played_text(record_of(db, "whole")) == played_text(uninterrupted)


# --- saves made before records ----------------------------------------------------------
def test_the_old_mid_race_save_converts_to_a_record_and_resumes_as_if_never_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    old = fixture("mid-race")
    assert {"state", "players", "rng", "start", "actions"} <= set(old)
    db = tmp_path / "old.sqlite"
    SessionStore(db).save("pistard", "mid", old)  # as today's main saved it
    saved = load_race(SessionStore(db), "mid")
    assert saved.converted and saved.record.tags["Converted"] == "log"
    assert len(saved.record.moves) == len(old["actions"])
    assert [s["player"] for s in saved.record.seats] == old["players"]
    (checked,) = check_text(saved.record.text())  # the converted record is a good record
    assert checked.state.to_json() == loads_state(old["state"]).to_json()
    code, out, _ = command(monkeypatch, capsys, ["pistard", "play", "--db", str(db),
                                                 "--resume", "mid", "--delay", "0",
                                                 "--plain"], REST)
    assert code == 0 and "resuming 'mid'" in out and "wins" in out
    whole = tmp_path / "whole.sqlite"
    code, _, _ = command(monkeypatch, capsys, [*PLAY, "--db", str(whole), "--save", "w"],
                         FIXTURE_TYPED + REST)
    assert code == 0
    resumed, never_stopped = record_of(db, "mid"), record_of(whole, "w")
    assert [m.text() for m in resumed.moves] == [m.text() for m in never_stopped.moves]
    assert resumed.tags["Generator"] == never_stopped.tags["Generator"]
    assert (load_race(SessionStore(db), "mid").state().to_json()
            == load_race(SessionStore(whole), "w").state().to_json())


def test_an_old_finished_save_opens_lists_replays_and_says_it_is_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    old = fixture("watched-over")
    db = tmp_path / "old.sqlite"
    SessionStore(db).save("pistard", "watched", old)
    saved = load_race(SessionStore(db), "watched")
    final = loads_state(old["state"])
    assert isinstance(final, PistardState) and final.is_terminal()
    assert saved.state().to_json() == final.to_json()
    assert saved.record.result == "rider 11 wins"
    code, out, _ = command(monkeypatch, capsys, ["pistard", "watch", "--db", str(db),
                                                 "--resume", "watched", "--plain"])
    assert code == 0 and "already over" in out and "wins" in out
    code, out, _ = command(monkeypatch, capsys, ["pistard", "play", "--db", str(db), "--list"])
    assert code == 0 and "watched" in out
    code, out, _ = command(monkeypatch, capsys, ["replay", "watched", "--db", str(db),
                                                 "--json"])
    assert code == 0
    decisions = [m for m in saved.record.moves if m.who != "chance"]
    assert json.loads(out)["total"] == len(decisions) > 5


# --- --resume FILE refuses what is not a good PISTARD record -------------------------------
@pytest.fixture
def exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> str:
    db = tmp_path / "s.sqlite"
    command(monkeypatch, capsys, [*PLAY, "--db", str(db), "--save", "x"], FIRST)
    return record_of(db, "x").text()


def _refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str], text: str) -> str:
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "fresh.sqlite"
    code, out, err = command(monkeypatch, capsys, [*PLAY[:2], "--db", str(db), "--resume",
                                                   str(path), "--plain"], REST)
    assert code == 2, (out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not db.exists()  # refused before anything is made
    return err


def test_resume_file_refuses_a_hand_corrupted_move_naming_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], exported: str) -> None:
    lines = exported.splitlines()
    at = lines.index("p1: place 12 at 1 behind the line in lane 3")
    lines[at] = "p1: place 12 at 9 behind the line in lane 3"
    err = _refused(tmp_path, monkeypatch, capsys, "\n".join(lines) + "\n")
    assert f"line {at + 1}:" in err and "place 12 at 9" in err


def test_resume_file_refuses_a_line_that_is_no_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], exported: str) -> None:
    lines = exported.splitlines()
    at = len(lines) - 2
    lines[at] = "rider eleven goes"
    err = _refused(tmp_path, monkeypatch, capsys, "\n".join(lines) + "\n")
    assert f"line {at + 1}:" in err


def test_resume_file_refuses_another_games_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], exported: str) -> None:
    other = parse_record(exported)
    hairpin = Record({"Game": "hairpin", "Format": 1, "Options": {}}, []).text()
    assert other.game == "pistard"
    err = _refused(tmp_path, monkeypatch, capsys, hairpin)
    assert "line 1:" in err and "hairpin" in err and "PISTARD" in err


def test_the_web_replay_page_reads_a_saved_record_decision_by_decision(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from raceday.web.replay import saved_sessions, session_replay

    db = tmp_path / "s.sqlite"
    code, _, _ = command(monkeypatch, capsys, [*PLAY, "--db", str(db), "--save", "done"],
                         FIRST + REST)
    assert code == 0
    store = SessionStore(db)
    assert [i["name"] for i in saved_sessions(store)] == ["done"]
    record = record_of(db, "done")
    answer = session_replay(store, "pistard", "done")
    assert len(answer["steps"]) == sum(m.who != "chance" for m in record.moves) > 10
    last = answer["steps"][-1]
    assert last["frame"]["game"] == "pistard" and last["frame"]["phase"] == "over"


def test_a_race_on_a_track_file_keeps_its_track_in_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    shipped = Path(__file__).parents[3] / "src/raceday/games/pistard/data/short.toml"
    track = tmp_path / "mine.toml"
    track.write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "s.sqlite"
    code, _, _ = command(monkeypatch, capsys, [*PLAY, "--track", str(track), "--db", str(db),
                                               "--save", "t"], "1 1\n1 2\n1\n")
    assert code == 0
    text = record_of(db, "t").text()
    track.unlink()  # the record does not need the file any more
    (checked,) = check_text(text)
    assert checked.record.tags["Start"]["track"] == checked.state.to_json()["track"]
    assert record_of(db, "t").tags["Options"]["track"] == str(track)
