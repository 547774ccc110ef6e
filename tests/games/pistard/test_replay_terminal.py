"""A PISTARD race saved by the terminal (``raceday pistard play`` and ``watch``) replays
decision by decision in ``raceday replay``: the save is the race's record (every move by
its name, the riders' decisions and the dice, in order; undo takes moves back, a resumed
race goes on writing), the replay rides it again through the rules and shows one step a
decision. The boards are checked square by square against the states the rules rebuild
from the record (each rider's square read from the state, never a pinned picture). A save
made before records without a log (the shape of tests/fixtures/saves/pistard-no-log.json)
still loads, goes on from its position and replays from there; a log that does not lead
to the saved position replays as one step that says so."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from raceday.cli.main import run
from raceday.core.protocol import CHANCE
from raceday.core.record import Record, apply_move, start_state
from raceday.core.serialize import loads_state
from raceday.games.pistard.picture import RACE
from raceday.games.pistard.saves import load_race
from raceday.games.pistard.state import PHASE_PLACE, PistardState
from raceday.games.pistard.track import LETTERS
from raceday.present.messages import render
from raceday.store.sessions import SessionStore

PLAY = ["pistard", "play", "-p", "human,easy", "--riders-per-player", "2", "--seed", "3",
        "--delay", "0", "--plain"]
WATCH = ["pistard", "watch", "-p", "easy,medium", "--riders-per-player", "2", "--seed", "2",
         "--delay", "0", "--plain"]
# the person places rider 11 at 1 behind the line in lane 1 and rider 12 in lane 2, takes
# rider 12's placement back and places it in lane 3; five moves later takes back a move
# (the same dice) and then always takes the first listed move to the end
SCRIPT = "1 1\n1 2\nundo\n1 3\n" + "1\n" * 5 + "undo\n" + "1\n" * 600
FIXTURES = Path(__file__).parents[2] / "fixtures" / "saves"


def command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            args: list[str], script: str = "") -> tuple[int, str, str]:
    """``raceday ARGS`` with ``script`` as its input (a pipe: line mode)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = run(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def replay_doc(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               *args: str) -> dict[str, Any]:
    code, out, err = command(monkeypatch, capsys, ["replay", *args, "--json"])
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def position(text: str) -> PistardState:
    """A saved position (the text of :func:`dumps_state`)."""
    state = loads_state(text)
    assert isinstance(state, PistardState)
    return state


def saved(db: Path, name: str) -> Record:
    """The record of the race saved as ``name``."""
    return load_race(SessionStore(db), name).record


def end_of(db: Path, name: str) -> PistardState:
    """The saved race's position (its cache, else its record ridden again)."""
    state = load_race(SessionStore(db), name).state()
    assert isinstance(state, PistardState)
    return state


def rebuilt(record: Record) -> tuple[list[tuple[PistardState, int]], PistardState]:
    """The race the record writes down, ridden again here through the rules: the state
    after each decision with the player who took it, and the state the record ends in."""
    _, state = start_state(record)
    assert isinstance(state, PistardState)
    decisions = []
    for move in record.moves:
        apply_move(state, move)
        if move.player != CHANCE:
            decisions.append((state.clone(), move.player))
    return decisions, state


def squares(board: str) -> dict[tuple[int, int], tuple[str, str]]:
    """The board's text read square by square: (column, lane) -> (its colour letter, the
    rider number on it or ""), each square found under its column number in the ruler."""
    lines = board.splitlines()
    out: dict[tuple[int, int], tuple[str, str]] = {}
    for k, ruler in enumerate(lines):
        if not ruler.startswith("ride"):
            continue
        columns = [(int(m.group()), m.start()) for m in re.finditer(r"\d+", ruler)]
        for row in lines[k + 1:k + 5]:
            lane = re.match(r"lane (\d)", row)
            assert lane is not None, row
            for column, at in columns:
                cell = row[at:at + 3].ljust(3)
                out[(column, int(lane.group(1)))] = (cell[0], cell[1:].strip())
    return out


def assert_board_is(board: str, state: PistardState) -> None:
    """Every square of the lap on ``board`` has the state's colour and, where a rider of
    the state is racing on it, that rider's number (and no number elsewhere)."""
    frame = state.frame()
    seen = squares(board)
    lanes = len(frame["grid"])
    assert set(seen) == {(c, lane) for c in range(frame["length"])
                         for lane in range(1, lanes + 1)}  # the whole lap is drawn
    riders = {(r["col"], r["lane"]): str(r["rider"]) for r in frame["riders"]
              if r["status"] == RACE}
    assert riders  # a board with riders on it (what is checked is not empty)
    for (column, lane), (letter, rider) in seen.items():
        assert letter == LETTERS[frame["grid"][lane - 1][column]], (column, lane)
        assert rider == riders.get((column, lane), ""), (column, lane)


# --- play: humans and computers, with undo ----------------------------------------------------
@pytest.fixture
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "play.sqlite"
    code, out, err = command(monkeypatch, capsys, [*PLAY, "--db", str(db), "--save", "duel"],
                             SCRIPT)
    assert code == 0, err
    assert out.count("took back") == 2 and "wins" in out
    return db


def test_a_played_race_keeps_its_record_with_the_undone_decisions_taken_back(
        played: Path) -> None:
    record = saved(played, "duel")
    decisions, end = rebuilt(record)
    assert end.is_terminal() and end.to_json() == end_of(played, "duel").to_json()
    # the person's placements: lane 1, then lane 3 (lane 2 was taken back)
    _, state = start_state(record)
    assert isinstance(state, PistardState)
    mine = []
    for move in record.moves:
        if state.phase == PHASE_PLACE and move.player == 0:
            mine.append(move.name)
        apply_move(state, move)
    assert mine == ["place 11 at 1 behind the line in lane 1",
                    "place 12 at 1 behind the line in lane 3"]
    throws = [m.detail for m in record.moves if m.player == CHANCE]
    assert throws and all(d is not None and len(d["dice"]) == 4 for d in throws)
    assert {p for _, p in decisions} == {0, 1}
    winner = end.riders[end.ranking[0]].ident
    assert record.tags["Seed"] == 3 and record.result == f"rider {winner} wins"


def test_a_played_race_replays_decision_by_decision(
        played: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    decisions, end = rebuilt(saved(played, "duel"))
    doc = replay_doc(monkeypatch, capsys, "duel", "--db", str(played))
    assert set(doc) == {"source", "game", "name", "lang", "total", "steps"}
    assert (doc["source"], doc["game"], doc["name"], doc["lang"]) == (
        "session", "pistard", "duel", "en")
    assert doc["total"] == len(doc["steps"]) == len(decisions) > 10
    for n, (step, (state, player)) in enumerate(zip(doc["steps"], decisions, strict=True), 1):
        assert set(step) == {"step", "words", "board", "round", "player"}
        assert (step["step"], step["round"], step["player"]) == (n, state.round, player + 1)
        assert step["words"][0] == render("terminal.replay.round", "en",
                                          params={"round": state.round, "player": player + 1})
    first, last = doc["steps"][0], doc["steps"][-1]
    assert_board_is(first["board"], decisions[0][0])
    assert_board_is(last["board"], end)
    assert "rider 11 lines up 1 behind the line in lane 1" in first["words"]
    winner = end.riders[end.ranking[0]].ident
    assert f"Rider {winner} wins" in last["words"]


def test_step_n_shows_that_decision(played: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    decisions, _ = rebuilt(saved(played, "duel"))
    n = len(decisions) // 2
    doc = replay_doc(monkeypatch, capsys, "duel", "--db", str(played), "--step", str(n))
    assert doc["total"] == len(decisions) and [s["step"] for s in doc["steps"]] == [n]
    assert_board_is(doc["steps"][0]["board"], decisions[n - 1][0])
    code, out, _ = command(monkeypatch, capsys, ["replay", "duel", "--db", str(played),
                                                 "--step", str(n), "--plain"])
    assert code == 0
    assert f"Step {n} of {len(decisions)}" in out and "Step 1 of" not in out
    assert doc["steps"][0]["words"][0] in out
    code, _, err = command(monkeypatch, capsys, ["replay", "duel", "--db", str(played),
                                                 "--step", str(len(decisions) + 1)])
    assert code == 2 and f"from 1 to {len(decisions)}" in err


def test_a_resumed_race_goes_on_writing_its_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "resume.sqlite"
    args = [*PLAY, "--db", str(db)]
    code, out, _ = command(monkeypatch, capsys, [*args, "--save", "r"], "1 1\n1 2\n1\n1\n")
    assert code == 0  # the input ended: saved mid-race
    assert "Saved as 'r'; continue with: raceday pistard play --resume r" in out
    before = saved(db, "r")
    half, position_then = rebuilt(before)
    assert position_then.to_json() == end_of(db, "r").to_json()
    doc = replay_doc(monkeypatch, capsys, "r", "--db", str(db))
    assert doc["total"] == len(half) > 1  # not over yet: the decisions so far
    assert_board_is(doc["steps"][-1]["board"], position_then)
    code, out, _ = command(monkeypatch, capsys, [*args, "--resume", "r"], "1\n" * 600)
    assert code == 0 and "resuming 'r'" in out and "wins" in out
    after = saved(db, "r")
    assert after.tags["Started"] == before.tags["Started"] and "Start" not in after.tags
    assert after.moves[:len(before.moves)] == before.moves
    whole, end = rebuilt(after)
    assert end.is_terminal() and end.to_json() == end_of(db, "r").to_json()
    assert replay_doc(monkeypatch, capsys, "r", "--db", str(db))["total"] == len(whole)


# --- watch ------------------------------------------------------------------------------------
def test_a_watched_race_replays_decision_by_decision(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "watch.sqlite"
    code, out, err = command(monkeypatch, capsys, [*WATCH, "--db", str(db), "--save", "w"])
    assert code == 0 and "wins" in out, err
    decisions, end = rebuilt(saved(db, "w"))
    assert end.is_terminal() and end.to_json() == end_of(db, "w").to_json()
    doc = replay_doc(monkeypatch, capsys, "w", "--db", str(db))
    assert doc["total"] == len(decisions) > 10
    assert_board_is(doc["steps"][0]["board"], decisions[0][0])
    assert_board_is(doc["steps"][-1]["board"], end)
    code, listed, _ = command(monkeypatch, capsys, ["replay", "--list", "--db", str(db),
                                                    "--json"])
    assert code == 0
    assert [(i["name"], i["steps"], i["finished"]) for i in json.loads(listed)["replays"]] == [
        ("w", len(decisions), True)]


# --- saves made before records: without a log, and with a log of another race ---------------
def old_save(db: Path, name: str, document: dict[str, Any]) -> None:
    """Put a document of the shape saves had before records into the database (as
    today's main wrote them: tests/fixtures/saves/pistard-*.json)."""
    SessionStore(db).save("pistard", name, document)


def fixture(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / f"pistard-{name}.json").read_text())
    return loaded


def test_an_old_save_without_a_log_loads_goes_on_and_replays_from_its_position(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite"
    old = fixture("no-log")
    assert set(old) == {"state", "players", "rng"}  # the shape saves had before logs
    old_save(db, "old", old)
    one = replay_doc(monkeypatch, capsys, "old", "--db", str(db))
    assert one["total"] == 1
    assert one["steps"][0]["words"] == [render("terminal.replay.saved_position", "en")]
    assert_board_is(one["steps"][0]["board"], position(old["state"]))
    code, out, _ = command(monkeypatch, capsys, [*PLAY, "--db", str(db), "--resume", "old"],
                           "1\n" * 600)
    assert code == 0 and "resuming 'old'" in out and "wins" in out
    record = saved(db, "old")  # now a record: it starts at the old save's position
    assert position(old["state"]).to_json() == record.tags["Start"]
    assert record.tags["Converted"] == "position"
    decisions, end = rebuilt(record)
    assert end.is_terminal() and end.to_json() == end_of(db, "old").to_json()
    replayed = replay_doc(monkeypatch, capsys, "old", "--db", str(db))
    assert replayed["total"] == len(decisions) > 1
    assert_board_is(replayed["steps"][-1]["board"], end)


def test_a_log_that_does_not_lead_to_the_saved_position_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite"
    doc = fixture("mid-race")
    old_save(db, "short", {**doc, "actions": doc["actions"][:-3]})
    for lang in ("en", "ja"):
        one = replay_doc(monkeypatch, capsys, "short", "--db", str(db), "--lang", lang)
        assert one["total"] == 1
        assert one["steps"][0]["words"][-1] == render("terminal.replay.not_rebuilt", lang)
        if lang == "en":  # the board's words are read in English
            assert_board_is(one["steps"][0]["board"], position(doc["state"]))
    # a log whose actions are not legal there (another race's) says the same
    old_save(db, "other", {**doc, "actions": [[7, None], *doc["actions"]]})
    one = replay_doc(monkeypatch, capsys, "other", "--db", str(db))
    assert one["total"] == 1
    assert one["steps"][0]["words"][-1] == render("terminal.replay.not_rebuilt", "en")
