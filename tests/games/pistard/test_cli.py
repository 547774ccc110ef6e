"""The `raceday pistard` commands, driven with scripted stdin."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.core.errors import InputFileError, OptionsError
from raceday.present import table
from raceday.store.sessions import SessionStore

runner = CliRunner()


def test_play_scripted_human_refusals_then_a_whole_race(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    script = "1\n9 9\n1 4\n" + "99\ngreen 9\n" + "1\n" * 300
    result = runner.invoke(app, ["pistard", "play", "--players", "human,easy",
                                 "--riders-per-player", "1", "--seed", "4", "--db", str(db),
                                 "--delay", "0"], input=script)
    assert result.exception is None, result.output
    out = result.output
    assert "Refused: type two numbers" in out
    assert "Refused: riders start 1 to 6" in out
    assert "Refused: 99 is not on the list" in out
    assert "Refused: you threw green" in out
    assert "result" in out and "wins" in out
    doc, _ = SessionStore(db).load("pistard", "pistard")  # the race's record
    assert doc["record"].startswith('[Game "pistard"]') and '[Result "rider' in doc["record"]


def test_play_eof_saves_and_resume_continues(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    args = ["pistard", "play", "--players", "human,medium", "--riders-per-player", "1",
            "--seed", "9", "--db", str(db), "--delay", "0"]
    first = runner.invoke(app, [*args, "--save", "t"], input="2 4\n1\n1\n")
    assert first.exception is None, first.output
    assert "Saved as 't'; continue with: raceday pistard play --resume t" in first.output
    _doc, rev = SessionStore(db).load("pistard", "t")
    assert rev >= 2
    second = runner.invoke(app, [*args, "--resume", "t"], input="1\n" * 300)
    assert second.exception is None, second.output
    assert "resuming 't'" in second.output and "wins" in second.output
    store = SessionStore(db)
    logged = len(store.log("pistard", "t"))
    assert logged == 1
    third = runner.invoke(app, [*args, "--resume", "t"], input="")
    assert third.exception is None and "already over" in third.output
    assert len(store.log("pistard", "t")) == logged  # the result is not counted twice


def test_play_every_variant_with_computers_only(tmp_path: Path) -> None:
    cases = [
        ["--variant", "scratch", "--players", "easy,medium,easy", "--riders-per-player", "2"],
        ["--variant", "points", "--laps", "2", "--players", "easy,easy",
         "--riders-per-player", "2"],
        ["--variant", "elimination", "--players", "easy,medium", "--riders-per-player", "2"],
        ["--variant", "sprint", "--players", "medium,easy"],
        ["--variant", "ttt", "--players", "medium"],
        ["--variant", "pursuit", "--players", "easy,medium", "--riders-per-player", "3"],
    ]
    for extra in cases:
        result = runner.invoke(app, ["pistard", "play", *extra, "--seed", "1", "--delay", "0",
                                     "--db", str(tmp_path / "x.sqlite")])
        assert result.exception is None, (extra, result.output)
        assert "result" in result.output


def test_team_time_trial_human_chooses_the_order(tmp_path: Path) -> None:
    script = "".join(f"{k} {lane}\n" for k, lane in ((1, 4), (1, 3), (2, 4), (2, 3)))
    script += "77\n" + "1\n" * 400
    result = runner.invoke(app, ["pistard", "play", "--variant", "ttt", "--players", "human",
                                 "--seed", "2", "--delay", "0", "--db",
                                 str(tmp_path / "t.sqlite")], input=script)
    assert result.exception is None, result.output
    assert "which rider throws next?" in result.output
    assert "Refused: choose one of" in result.output
    assert "team time" in result.output


def test_simulate_json_statistics() -> None:
    result = runner.invoke(app, ["pistard", "simulate", "-n", "6", "--seed", "3", "--json",
                                 "--players", "easy,medium"])
    assert result.exception is None, result.output
    data = json.loads(result.output)
    assert data["races"] == 6
    assert sum(v["wins"] for v in data["win_rate_by_level"].values()) == 6
    assert sum(v["wins"] for v in data["win_rate_by_start_lane"].values()) == 6
    assert data["turns"]["mean"] > 5


def test_bad_options_raise_user_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["pistard", "simulate", "-n", "2", "--players", "human,easy"])
    assert isinstance(result.exception, OptionsError)
    result = runner.invoke(app, ["pistard", "play", "--players", "human,wizard"])
    assert isinstance(result.exception, OptionsError)
    result = runner.invoke(app, ["pistard", "play", "--variant", "sprint", "--players",
                                 "easy,easy,easy", "--db", str(tmp_path / "x.sqlite")])
    assert isinstance(result.exception, OptionsError)
    bad = tmp_path / "bad.toml"
    bad.write_text('rows = ["YGBR"]\n', encoding="utf-8")
    result = runner.invoke(app, ["pistard", "track", str(bad)])
    assert isinstance(result.exception, InputFileError)


def test_entry_point_prints_one_line_and_exits_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "raceday", "pistard", "play", "--variant", "madison"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert "unknown variant" in proc.stderr and "Traceback" not in proc.stderr


def test_track_command_shows_the_lap() -> None:
    result = runner.invoke(app, ["pistard", "track", "--json"])
    assert result.exception is None
    data = json.loads(result.output)
    assert len(data["rows"]) == 4 and len(data["rows"][0]) == 56


def test_simulate_team_time_trial_reports_the_team_time() -> None:
    result = runner.invoke(app, ["pistard", "simulate", "-n", "3", "--variant", "ttt",
                                 "--players", "medium", "--seed", "5", "--json"])
    assert result.exception is None, result.output
    data = json.loads(result.output)
    # the third rider needs at least (56 + 1) / 7 rounds to cover a lap at best
    assert data["team_time"]["mean"] > 57 / 7
    assert data["team_time"]["mean"] <= data["turns"]["max"]


def test_sprint_human_sur_place_then_forced(tmp_path: Path) -> None:
    script = "1 4\nstay\nstay\nstay\n" + "1\n" * 200
    result = runner.invoke(app, ["pistard", "play", "--variant", "sprint", "--players",
                                 "human,medium", "--seed", "5", "--delay", "0", "--db",
                                 str(tmp_path / "s.sqlite")], input=script)
    assert result.exception is None, result.output
    assert result.output.count("rider 11 stands still") >= 2
    assert "Refused: after two stand-stills in a row you must move" in result.output
    assert "wins" in result.output


def test_play_and_watch_word_their_lines_from_the_message_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commentary and the listed moves are the table's words: another table's text
    for a move, a token and a hint shows in the terminal instead of the English."""
    entries = table("en").entries
    for colour in ("yellow", "green", "blue", "red"):
        monkeypatch.setitem(entries, f"pistard.event.move.{colour}", f"R{{rider}} {colour}!")
    monkeypatch.setitem(entries, "pistard.term.move", "⇒ +{ahead} L{lane} #{col}")
    watched = runner.invoke(app, ["pistard", "watch", "-p", "easy,easy", "--seed", "2",
                                  "--track", "short", "--db", str(tmp_path / "w.sqlite"),
                                  "--delay", "0"])
    assert watched.exception is None, watched.output
    assert "R11 " in watched.output and " plays " not in watched.output
    played = runner.invoke(app, ["pistard", "play", "-p", "human,easy", "--riders-per-player",
                                 "1", "--seed", "4", "--db", str(tmp_path / "p.sqlite"),
                                 "--delay", "0"], input="1 4\n" + "1\n" * 300)
    assert played.exception is None, played.output
    assert "⇒ +" in played.output and "→ +" not in played.output
    assert "R11 " in played.output and " plays " not in played.output
