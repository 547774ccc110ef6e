"""Dice Derby's party on the record of a game (#47): a party typed at the terminal saves
the record of its evening (``derby_evening``) through store.records.save_game; stopped,
exported, checked, replayed and resumed (by its name, or from the record file into
another database) it ends exactly as the party played without stopping; parties saved
before records (EVENING_FORMAT 2, made by 3629d33: tests/fixtures/saves/derby-*.json)
open, convert and resume as they did then; a damaged record is refused by its line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.events import event_log_text
from raceday.core.record import RecordError, check_text, parse_record, replay
from raceday.games.derby import replay as derby_replay
from raceday.games.derby.evening import EveningState
from raceday.games.derby.saved import GAME, convert, open_party, saved_evening
from raceday.store.sessions import SessionStore

runner = CliRunner()
FIXTURES = Path(__file__).parents[2] / "fixtures" / "saves"
OLD_PARTIES = sorted(FIXTURES.glob("derby-*.json"))

# Two people and two computers; loans and the first-out bonus allowed.
ARGS = ["--players", "Aki,Ben", "--computers", "2", "--seed", "21", "--races", "4",
        "--delay", "0", "--borrowing", "--first-out-bonus"]
# The auction: Aki seals 1000 for the d4, Ben's undo lets Aki seal 1200 instead; Ben
# passes the d4, then bids 0 for the d6 and 1500 for the d8 (which he buys).
AUCTION = ["1000", "undo", "1200", "0", "0", "1500"]
# Race 1's tickets: Aki buys two, takes a loan, takes back a ticket and the loan; Ben one.
RACE_1 = ["win d20 500", "q 5-6 300", "borrow", "undo", "undo", "", "win 1 200", ""]
# Then race 2 on: tickets typed, a loan kept, and empty lines (done) to the end.
LATER = ["q 1-2 300", "borrow", "win 3 1500", "", "win d20 700", "", "win 6 100", ""]
FINISH = [""] * 40


def invoke(db: Path, args: list[str], lines: list[str]) -> Any:
    result = runner.invoke(app, ["derby", "play", "--db", str(db), *args],
                           input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    return result


def events_text(text: str) -> str:
    """The event log of a record's evening: every move's events, played by the rules."""
    played = replay(parse_record(text))
    return "\n".join(event_log_text(events) for events in played.events)


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The party played without stopping: its saved record, evening and log."""
    db = tmp_path_factory.mktemp("whole") / "whole.sqlite"
    output = invoke(db, [*ARGS, "--save", "night"], AUCTION + RACE_1 + LATER + FINISH).output
    store = SessionStore(db)
    saved = open_party(store, "night")
    return {"output": output, "record": saved.record, "state": saved.state().to_json(),
            "log": store.log(GAME, "night"), "store": store}


def test_the_whole_party_is_its_record(whole: dict[str, Any]) -> None:
    assert "Final standings" in whole["output"]
    record = whole["record"]
    assert record.game == "derby_evening" and record.tags["Seed"] == 21
    assert record.tags["Result"] != "*" and "Start" not in record.tags  # a new party
    assert [s["name"] for s in record.seats] == ["Aki", "Ben", "Computer 1", "Computer 2"]
    names = [m.text() for m in record.moves]
    # the undone bid, ticket and loan are not in it; the bid sealed again is, once
    assert names[:2] == ["p1: bid 1200", "p2: bid 0"] and "p1: bid 1000" not in names
    race_1 = names[names.index("p1: win d20 500"):names.index("p1: done")]
    assert race_1 == ["p1: win d20 500"]
    assert "p1: borrow" in names  # the loan of race 2, kept
    text = record.text()
    (played,) = check_text(text)
    assert played.state.to_json() == whole["state"]
    assert [e["race"]["race"] for e in whole["log"] if "race" in e] == [1, 2, 3, 4]
    # the record alone gives what the party logged, and the same replay steps
    assert derby_replay.record_entries(record) == whole["log"]
    assert [s.to_json() for s in derby_replay.record_steps(record)] == [
        s.to_json() for s in derby_replay.steps(whole["store"], "night")]


def test_derby_code_saves_only_through_the_records_writer() -> None:
    source = Path(derby_replay.__file__).parent
    callers = [path.name for path in sorted(source.glob("*.py"))
               if re.search(r"store\.save\(", path.read_text(encoding="utf-8"))]
    assert callers == []


def test_stopped_exported_checked_and_resumed_by_name_ends_the_same(
    whole: dict[str, Any], tmp_path: Path,
) -> None:
    db = tmp_path / "split.sqlite"
    first = invoke(db, [*ARGS, "--save", "night"], AUCTION + RACE_1)  # input ends at race 2
    assert "--resume night" in first.output
    store = SessionStore(db)
    stopped = open_party(store, "night")
    assert stopped.state().ledger.race == 2 and stopped.state().phase == "betting"
    text = stopped.record.text()  # the record as exported
    (played,) = check_text(text)
    assert played.state.to_json() == stopped.state().to_json()
    assert text.startswith('[Game "derby_evening"]') and stopped.record.result == "*"
    again = invoke(db, ["--resume", "night"], LATER + FINISH)
    assert "Resuming 'night': race 2 of 4" in again.output
    resumed = open_party(store, "night")
    assert resumed.state().to_json() == whole["state"]
    assert resumed.record.moves == whole["record"].moves
    assert events_text(resumed.record.text()) == events_text(whole["record"].text())
    assert store.log(GAME, "night") == whole["log"]
    assert again.output.split("Race 2 of 4")[-1] == whole["output"].split("Race 2 of 4")[-1]


def test_a_record_file_resumes_into_another_database_and_ends_the_same(
    whole: dict[str, Any], tmp_path: Path,
) -> None:
    db = tmp_path / "first.sqlite"
    invoke(db, [*ARGS, "--save", "night"], AUCTION + RACE_1)
    first = SessionStore(db)
    path = tmp_path / "night.record"
    path.write_text(open_party(first, "night").record.text(), encoding="utf-8")
    other = tmp_path / "other.sqlite"
    again = invoke(other, ["--resume", str(path), "--save", "later"], LATER + FINISH)
    assert "Final standings" in again.output
    store = SessionStore(other)
    resumed = open_party(store, "later")
    assert resumed.record.tags["Name"] == "later"
    assert resumed.state().to_json() == whole["state"]
    assert resumed.record.moves == whole["record"].moves
    assert events_text(resumed.record.text()) == events_text(whole["record"].text())
    assert first.log(GAME, "night") + store.log(GAME, "later") == whole["log"]
    # the replay of each part shows the whole party's steps, read from the records
    whole_steps = [step.to_json() for step in derby_replay.steps(whole["store"], "night")]
    parts = [*derby_replay.steps(first, "night"), *derby_replay.steps(store, "later")]
    assert [step.to_json() for step in parts] == whole_steps and len(whole_steps) == 10


def test_a_host_typed_race_stopped_mid_race_resumes_from_its_record(tmp_path: Path) -> None:
    args = ["--players", "Aki", "--computers", "1", "--real-dice", "--seed", "3",
            "--races", "4", "--delay", "0", "--save", "table"]
    before = ["5000", "win 1 1000", "", "4 2 3 4 5 6", "4 F 5 6 7"]
    after = ["4 3 6 7", "4 F F", "9 9"]
    whole_db, split_db = tmp_path / "whole.sqlite", tmp_path / "split.sqlite"
    invoke(whole_db, args, before + after)
    invoke(split_db, args, before)
    stopped = open_party(SessionStore(split_db), "table")
    assert any(m.who == "host" for m in stopped.record.moves)  # the typed dice
    (played,) = check_text(stopped.record.text())
    assert played.state.to_json() == stopped.state().to_json()
    invoke(split_db, ["--resume", "table", "--delay", "0"], after)
    done, whole = open_party(SessionStore(split_db), "table"), open_party(
        SessionStore(whole_db), "table")
    assert done.record.moves == whole.record.moves
    assert done.state().to_json() == whole.state().to_json()
    assert done.state().ledger.history[0].first == 1


# --- parties saved before records -----------------------------------------------------------
@pytest.mark.parametrize("path", OLD_PARTIES, ids=lambda p: p.stem)
def test_a_party_saved_before_records_converts_and_resumes_as_it_did(
    path: Path, tmp_path: Path,
) -> None:
    fixture = json.loads(path.read_text(encoding="utf-8"))
    document, name = fixture["document"], fixture["name"]
    record = convert(document)
    assert record.tags["Start"] == EveningState.from_json(document).to_json()
    (played,) = check_text(record.text())
    assert played.state.to_json() == EveningState.from_json(document).to_json()
    db = tmp_path / "old.sqlite"
    store = SessionStore(db)
    store.save(GAME, name, document)  # as the code of that time saved it
    assert saved_evening(store, name).to_json() == EveningState.from_json(document).to_json()
    resume = fixture["resume"]
    result = runner.invoke(app, ["derby", "play", "--db", str(db), "--delay", "0",
                                 "--resume", name], input=resume["input"])
    assert result.exit_code == resume["exit_code"], result.output
    final = open_party(store, name)
    assert final.state().to_json() == EveningState.from_json(resume["final"]).to_json()
    assert store.log(GAME, name) == resume["log_after"]
    assert final.record.tags["Start"] == record.tags["Start"]  # the record goes on
    (replayed,) = check_text(final.record.text())
    assert replayed.state.to_json() == final.state().to_json()


# --- refusals -------------------------------------------------------------------------------
def _one_error(code: int, capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert code == 2, captured
    assert "Traceback" not in captured.err
    return captured.err


def test_a_damaged_record_is_refused_by_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "p.sqlite"
    invoke(db, [*ARGS, "--save", "night"], AUCTION + RACE_1)
    lines = open_party(SessionStore(db), "night").record.text().splitlines()
    at = lines.index("p1: win d20 500")
    lines[at] = "p1: win d20 999900"  # more than Aki holds
    bad = tmp_path / "bad.record"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=f"line {at + 1}"):
        check_text(bad.read_text(encoding="utf-8"))
    err = _one_error(run(["derby", "play", "--resume", str(bad), "--db", str(db)]), capsys)
    assert f"line {at + 1}" in err
    lines[at] = "p1 win d20 500"  # no colon
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert f"line {at + 1}" in _one_error(
        run(["derby", "play", "--resume", str(bad), "--db", str(db)]), capsys)
    assert SessionStore(db).names(GAME) == ["night"]  # nothing saved from a bad record


def test_another_games_record_is_refused_naming_its_game_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    other = tmp_path / "hairpin.record"
    other.write_text('[Game "hairpin"]\n[Format 1]\n[Options {}]\n\n', encoding="utf-8")
    err = _one_error(run(["derby", "play", "--resume", str(other), "--db",
                          str(tmp_path / "p.sqlite")]), capsys)
    assert "line 1" in err and "hairpin" in err
    assert not (tmp_path / "p.sqlite").exists() or not SessionStore(
        tmp_path / "p.sqlite").names(GAME)


@pytest.mark.parametrize("cut", ["mid-lot", "mid-race"])
def test_a_record_cut_anywhere_goes_on_from_where_it_stops(
    whole: dict[str, Any], cut: str, tmp_path: Path,
) -> None:
    record = whole["record"]
    whos = [m.who for m in record.moves]
    # after Aki's first bid (Ben's still to come), or after three dice of race 1
    stop = 1 if cut == "mid-lot" else whos.index("chance") + 3
    lines = record.text().splitlines()
    moves_from = lines.index("") + 1
    path = tmp_path / "cut.record"
    path.write_text("\n".join(lines[:moves_from + stop]) + "\n", encoding="utf-8")
    db = tmp_path / "cut.sqlite"
    result = invoke(db, ["--resume", str(path), "--save", "cut"], ["0", *FINISH])
    assert "Final standings" in result.output
    if cut == "mid-race":
        assert "Race 1 continues from round" in result.output
    else:
        assert "Ben, your sealed bid for the d4" in result.output
        assert "Aki, your sealed bid for the d4" not in result.output
    done = open_party(SessionStore(db), "cut")
    assert done.record.moves[:stop] == record.moves[:stop]
    (played,) = check_text(done.record.text())
    assert played.state.is_terminal() and played.state.to_json() == done.state().to_json()
