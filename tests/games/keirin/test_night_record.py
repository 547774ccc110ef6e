"""KEIRIN's terminal betting night saved as its record (#47): a night stopped at the
terminal, exported, checked, replayed and resumed (from its name or its record file) ends
byte for byte as the night played without stopping; nights saved before records (document
versions 1 and 2, fixtures made by the code before) open, convert and resume as the old
code resumed them; a record the rules refuse, or another game's, is refused with its line
(exit 2) and nothing is saved."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from raceday.cli.main import run
from raceday.core.events import event_log_text
from raceday.core.record import Record, check_text, parse_record, replay
from raceday.games.keirin.cli import app
from raceday.games.keirin.night import NightState
from raceday.games.keirin.saved_night import GAME, BetSession, night_record
from raceday.store.records import load_game
from raceday.store.sessions import SessionStore

FIXTURES = Path(__file__).parents[2] / "fixtures" / "saves"
ARGS = ["-p", "Ann", "-p", "Bob", "--seed", "42", "--margin", "0.1", "--riders", "7"]
RACE1 = "win 3 100\nexacta 3-4 50\nundo\nexacta 4-3 50\n\nquinella 4=5 20.5\ntrio 3 4 5 10\n\n"
RACE2 = "win 4 1000\n\ntrio 3=4=6 30\ntrifecta 5-4-3 1\n\n"
RACE3 = "win 1 5\n\n\n"


def _run(args: list[str], script: str) -> Result:
    return CliRunner().invoke(app, ["play", "--delay", "0", "--plain", *args], input=script,
                              env={"COLUMNS": "120"})


def _record(store: SessionStore, name: str) -> Record:
    return load_game(store, GAME, name, night_record).record


def _moves(record: Record) -> list[str]:
    return [move.text() for move in record.moves]


def _events(record: Record) -> str:
    return event_log_text([e for step in replay(record).events for e in step])


@pytest.fixture(scope="module")
def through(tmp_path_factory: pytest.TempPathFactory) -> SessionStore:
    """The night played without stopping: three races, then no more."""
    db = tmp_path_factory.mktemp("through") / "k.sqlite"
    done = _run([*ARGS, "--save", "night", "--db", str(db)],
                RACE1 + "y\n" + RACE2 + "y\n" + RACE3 + "n\n")
    assert done.exception is None, done.output
    return SessionStore(db)


@pytest.mark.parametrize("resume_from", ["name", "file"])
def test_a_night_stopped_and_resumed_ends_as_the_night_played_through(
        resume_from: str, through: SessionStore, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "k.sqlite"
    real_run = BetSession.run_race

    def die_running_race_2(self: BetSession, *args: Any, **kwargs: Any) -> Any:
        if self.races == 1:  # race 2's tickets are locked and saved: the program dies
            raise KeyboardInterrupt
        return real_run(self, *args, **kwargs)

    monkeypatch.setattr(BetSession, "run_race", die_running_race_2)
    first = _run([*ARGS, "--save", "night", "--db", str(db)], RACE1 + "y\n" + RACE2)
    assert first.exit_code == 130, first.output
    monkeypatch.setattr(BetSession, "run_race", real_run)
    store = SessionStore(db)
    stopped = _record(store, "night")
    night = BetSession.load(store, "night")
    assert night.races == 1 and night.pending is not None and len(night.pending) == 3

    # exported, checked and replayed: the record alone gives the saved night
    exported = tmp_path / "night.record"
    exported.write_text(stopped.text(), encoding="utf-8")
    (checked,) = check_text(exported.read_text(encoding="utf-8"))
    assert checked.state.to_json() == night.state.to_json()
    assert checked.game.name == "keirin_night" and stopped.tags["Seed"] == 42

    if resume_from == "name":
        resumed = _run(["--resume", "night", "--db", str(db)], "y\n" + RACE3 + "n\n")
        name = "night"
    else:
        resumed = _run(["--resume", str(exported), "--db", str(db)], "y\n" + RACE3 + "n\n")
        name = "night-2"  # the record's own name is taken in this database
        assert f"saved as session '{name}'" in " ".join(resumed.output.split())
    assert resumed.exception is None, resumed.output
    assert "Standings after 3 races" in " ".join(resumed.output.split())

    # byte for byte the night played through: the state, the races' log, the moves, the
    # events they replay to
    ours, theirs = BetSession.load(store, name), BetSession.load(through, "night")
    assert json.dumps(ours.state.to_json(), sort_keys=True) == \
        json.dumps(theirs.state.to_json(), sort_keys=True)
    if resume_from == "name":  # a file's night is a new session: its log starts there
        assert store.log(GAME, name) == through.log(GAME, "night")
    else:
        assert store.log(GAME, name) == through.log(GAME, "night")[1:]
    record, whole = _record(store, name), _record(through, "night")
    assert _moves(record) == _moves(whole)
    assert _events(record) == _events(whole)
    assert replay(parse_record(record.text())).state.to_json() == ours.state.to_json()
    assert [e["race"] for e in store.log(GAME, "night")] == (
        [1, 2, 3] if resume_from == "name" else [1])  # nothing paid twice


def test_the_night_is_saved_only_as_a_record(through: SessionStore) -> None:
    document, _ = through.load(GAME, "night")
    assert set(document) == {"record", "cache"}
    record = parse_record(document["record"])
    assert record.game == "keirin_night" and record.tags["Name"] == "night"
    assert [seat["name"] for seat in record.seats] == ["Ann", "Bob"]
    assert document["cache"]["moves"] == len(record.moves)
    assert NightState.from_json(document["cache"]["state"]) == replay(record).state
    source = (Path(__file__).parents[3] / "src" / "raceday" / "games" / "keirin")
    for path in source.glob("*.py"):  # the one writer is store/records.py's save_game
        assert "store.save(" not in path.read_text(encoding="utf-8"), path.name


# --- nights saved before records ---------------------------------------------------------------
@pytest.mark.parametrize("fixture", ["keirin-night-v2-open.json", "keirin-night-v2-locked.json"])
def test_a_night_of_document_version_2_opens_converts_and_resumes(fixture: str,
                                                                  tmp_path: Path) -> None:
    made = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
    db = tmp_path / "old.sqlite"
    store = SessionStore(db)
    store.save(GAME, made["name"], made["saved"]["document"])  # as the old code left it
    record = _record(store, made["name"])
    assert record.tags["Start"] == made["saved"]["document"]["night"]
    assert record.tags["Seed"] == made["seed"] and record.moves == []
    resumed = _run(["--resume", made["name"], "--db", str(db)], made["resume_input"])
    assert resumed.exception is None, resumed.output
    after = made["after_resume"]
    assert BetSession.load(store, made["name"]).state.to_json() == after["night"]
    assert store.log(GAME, made["name"]) == after["log"][len(made["saved"]["log"]):]
    saved = _record(store, made["name"])  # a record now: its Start, then the new moves
    assert replay(saved).state.to_json() == after["night"] and saved.moves


def test_a_night_of_document_version_1_resumes_its_locked_race(tmp_path: Path) -> None:
    made = json.loads((FIXTURES / "keirin" / "sessions_before_night.json").read_text(
        encoding="utf-8"))["locked"]
    db = tmp_path / "v1.sqlite"
    store = SessionStore(db)
    store.save(GAME, "locked", made["document"])
    record = _record(store, "locked")
    assert record.tags["Seed"] == made["document"]["seed"]
    assert record.tags["Start"]["phase"] == "race"  # the tickets were locked
    resumed = _run(["--resume", "locked", "--db", str(db)], "n\n")
    assert resumed.exception is None, resumed.output
    (entry,) = store.log(GAME, "locked")
    want = made["next_race"]
    assert entry["ranking"] == want["ranking"] and entry["derny"] == want["derny"]
    assert [t["returned"] for t in entry["tickets"]] == want["returns"]


# --- records refused -------------------------------------------------------------------------
def _play(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    held = sys.stdin
    sys.stdin = io.StringIO("n\n")
    try:
        code = run(["keirin", "play", "--delay", "0", "--plain", *args])
    finally:
        sys.stdin = held
    return code, capsys.readouterr().err


def test_a_corrupted_or_foreign_record_is_refused_with_its_line(
        through: SessionStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _record(through, "night").text()
    lines = text.splitlines()
    ticket = next(i for i, line in enumerate(lines) if line.startswith("p2: quinella"))
    lines[ticket] = "p2: quinella 4=5 for 99,999.00"  # more than Bob has
    bad = tmp_path / "bad.record"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "refused.sqlite"
    code, err = _play(capsys, "--resume", str(bad), "--db", str(db))
    assert code == 2 and f"line {ticket + 1}:" in err and "Traceback" not in err

    throw = next(i for i, line in enumerate(lines) if line.startswith("chance:"))
    lines[ticket] = _record(through, "night").text().splitlines()[ticket]
    lines[throw] = "chance: rider 1 +99"  # no die shows that
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, err = _play(capsys, "--resume", str(bad), "--db", str(db))
    assert code == 2 and f"line {throw + 1}:" in err

    other = tmp_path / "hairpin.record"
    other.write_text('[Game "hairpin"]\n[Format 1]\n[Options {}]\n\n', encoding="utf-8")
    code, err = _play(capsys, "--resume", str(other), "--db", str(db))
    assert code == 2 and "line 1:" in err and "hairpin" in err
    assert not db.exists() or SessionStore(db).names(GAME) == []  # nothing was saved


# --- the terminal's replay reads the record ------------------------------------------------------
def _places(board: str | None) -> dict[str, str]:
    assert board is not None
    return {line.split()[0]: line for line in board.splitlines() if line.split()}


def test_each_race_of_the_record_finishes_as_logged(through: SessionStore) -> None:
    from raceday.games.keirin.replay import finished_races

    races = finished_races(_record(through, "night"))
    log = through.log(GAME, "night")
    assert sorted(races) == [e["race"] for e in log] == [1, 2, 3]
    assert [list(races[e["race"]].ranked) for e in log] == [e["ranking"] for e in log]


def test_the_terminal_replay_of_a_converted_night_draws_every_race(tmp_path: Path) -> None:
    """Race 1 was settled before records (ridden again from the seed); race 2 is in the
    record's moves (rebuilt from them)."""
    from raceday.games.keirin.replay import terminal_steps
    from raceday.present.terminal_replay import board_text

    made = json.loads((FIXTURES / "keirin-night-v2-open.json").read_text(encoding="utf-8"))
    db = tmp_path / "old.sqlite"
    store = SessionStore(db)
    (entry,) = made["saved"]["log"]
    store.save(GAME, "v2-open", made["saved"]["document"], log_entry=entry)
    assert _run(["--resume", "v2-open", "--db", str(db)], made["resume_input"]).exception \
        is None
    log = store.log(GAME, "v2-open")
    steps = terminal_steps(store, "v2-open")
    assert len(steps) == len(log) == 2
    for step, logged in zip(steps, log, strict=True):
        rows = _places(board_text(step.board))
        for place, rider in enumerate(logged["ranking"], start=1):
            assert rows[f"R{rider}"].endswith(f"#{place}")


def test_the_hosts_close_of_betting_is_a_move_of_the_record(tmp_path: Path) -> None:
    """Betting closed before every player said done (the host's close) replays too, and a
    stake off the actions' menu (2.50) is read back by its name."""
    from raceday.games.keirin.rules import KeirinOptions

    store = SessionStore(tmp_path / "h.sqlite")
    night = BetSession.new("host", ["Ann", "Bob"], KeirinOptions(riders=6), seed=4)
    night.save(store)
    night.state.apply_action_for(1, night.state.ticket_from_text(1, "win 2 2.5"))
    night.lock(store)
    record = _record(store, "host")
    assert _moves(record) == ["p2: win 2 for 2.50", "host: close betting"]
    assert replay(parse_record(record.text())).state.to_json() == night.state.to_json()
    night.settle(store, night.run_race())
    assert replay(_record(store, "host")).state.to_json() == night.state.to_json()


def _night_of_races(races: int, settled: int, tmp_path: Path) -> Path:
    """A record of a night of ``races`` races played elsewhere (no seed: a room's), with
    ``settled`` of them run, as a file."""
    import numpy as np

    from raceday.core.record import Recorder
    from raceday.games.keirin.night import NIGHT

    options = NIGHT.options({"players": ["Aki", "Ben"], "races": races, "riders": 6})
    state = NIGHT.new_state(options)
    recorder = Recorder("keirin_night", options.to_json(), tags={"Face": "room"})
    recorder.follow(state)
    rng = np.random.default_rng(11)
    while state.settled < settled:
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            state.apply_action(draw.outcome, draw.detail)
        else:
            state.apply_action_for(state.current_player(), 0)  # done
    path = tmp_path / f"room-{races}-{settled}.record"
    path.write_text(recorder.record().text(), encoding="utf-8")
    return path


def test_any_nights_record_goes_on_at_the_terminal_to_its_last_race(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    path = _night_of_races(2, 1, tmp_path)
    resumed = _run(["--resume", str(path), "--db", str(db)], "win 1 1\n\n\n")
    assert resumed.exception is None, resumed.output
    said = " ".join(resumed.output.split())
    assert "The night is over (2 races run)." in said
    assert "Another race?" not in said  # the night's last race was run
    store = SessionStore(db)
    (name,) = store.names(GAME)
    assert name == path.stem
    record = _record(store, name)
    assert isinstance(record.tags["Seed"], int)  # a seed for the races it ran
    final = replay(record).state
    assert final.is_terminal() and final.to_json() == BetSession.load(store, name).state.to_json()
    assert [e["race"] for e in store.log(GAME, name)] == [2]

    over = _run(["--resume", str(_night_of_races(1, 1, tmp_path)), "--db", str(db)], "")
    assert over.exception is None, over.output
    assert "The night is over (1 race run)." in " ".join(over.output.split())
    assert "odds board" not in over.output  # no betting on a night that is over
