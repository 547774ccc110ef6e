"""Hairpin at the terminal saves its record (docs/record-format.md): play -> save -> export
-> check -> replay -> resume gives the same game, byte for byte, as one played without
stopping; a save made before records (tests/fixtures/saves/hairpin-*.json, written by the
code of commit 3629d33) opens, converts and resumes; ``--resume FILE`` goes on from a
record file and refuses a damaged one, or one of another game, naming the line."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.protocol import CHANCE
from raceday.core.record import Record, check_text, parse_record, replay
from raceday.games.hairpin.replay import record_steps
from raceday.games.hairpin.rules import HairpinState
from raceday.games.hairpin.saves import convert, final_state, load
from raceday.store.records import opened
from raceday.store.sessions import SessionStore

runner = CliRunner()
FIXTURES = Path(__file__).parents[2] / "fixtures" / "saves"
# a short game with a random setup against the easy computer: the person always plays the
# first move listed (30 of them end it; the setup's rolls and the computer use the seed)
GAME = ["-p", "human,easy", "--variant", "short+random", "--seed", "9"]
ENOUGH = "1\n" * 60


def play(args: list[str], stdin: str) -> str:
    result = runner.invoke(app, ["hairpin", "play", "--delay", "0", *args], input=stdin)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def cli(args: list[str], stdin: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """The real entry point's exit code and standard error."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = run(args)
    return code, capsys.readouterr().err


def record_of(db: Path, name: str) -> Record:
    return load(SessionStore(db), name).record


def moves_text(record: Record) -> list[str]:
    return [move.text() for move in record.moves]


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[Record, HairpinState]:
    """The game played without stopping: its record and final position."""
    db = tmp_path_factory.mktemp("whole") / "s.sqlite"
    play([*GAME, "--db", str(db), "--save", "whole"], ENOUGH)
    saved = load(SessionStore(db), "whole")
    return saved.record, final_state(saved)


def test_the_record_written_at_the_terminal_has_seats_options_seed_and_every_move(
        whole: tuple[Record, HairpinState]) -> None:
    record, final = whole
    assert record.game == "hairpin" and record.tags["Face"] == "terminal"
    assert record.options == {"variant": "short+random"} and record.tags["Seed"] == 9
    assert record.seats == [{"name": "Red", "player": "human"},
                            {"name": "Black", "player": "easy"}]
    assert [m.player for m in record.moves[:5]] == [CHANCE] * 5  # the setup's rolls
    assert final.is_terminal() and record.result != "*"
    assert "Start" not in record.tags  # the moves start from the options' first position


def test_play_save_export_check_replay_resume_is_the_game_played_without_stopping(
        tmp_path: Path, whole: tuple[Record, HairpinState]) -> None:
    record, final = whole
    db = tmp_path / "s.sqlite"
    out = play([*GAME, "--db", str(db), "--save", "part"], "1\n" * 12 + "q\n")
    assert "Saved as 'part'" in out
    saved = load(SessionStore(db), "part")
    assert saved.record.result == "*"
    # export: the record's text, checked and replayed by the rules alone
    exported = tmp_path / "part.txt"
    exported.write_text(saved.record.text(), encoding="utf-8")
    (checked,) = check_text(exported.read_text(encoding="utf-8"))
    assert checked.state.to_json() == final_state(saved).to_json()
    assert moves_text(saved.record) == moves_text(record)[:len(saved.record.moves)]
    steps = record_steps(parse_record(exported.read_text(encoding="utf-8")))
    assert [step.facts["move"] for step in steps] == [
        m.name for m in saved.record.moves if m.player != CHANCE]  # the replay, move by move
    # resume from the exported file (into another database) and play on to the end
    other = tmp_path / "other.sqlite"
    out = play(["--resume", str(exported), "--db", str(other)], ENOUGH)
    assert f"Resuming '{exported}' at ply 24." in out
    resumed = load(SessionStore(other), "part")  # saved on under the record's name
    assert moves_text(resumed.record) == moves_text(record)
    assert resumed.record.tags["Generator"] == record.tags["Generator"]
    assert resumed.record.result == record.result
    assert final_state(resumed).to_json() == final.to_json()
    assert replay(parse_record(resumed.record.text())).state.to_json() == final.to_json()
    # and resuming the saved game by its name gives the same game too
    play(["--resume", "part", "--db", str(db)], ENOUGH)
    again = record_of(db, "part")
    assert moves_text(again) == moves_text(record)
    assert again.tags["Generator"] == record.tags["Generator"]


def test_undo_goes_on_working_after_a_resume(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    play(["-p", "human,greedy", "--db", str(db), "--save", "g"], "a1 cruise b1\nq\n")
    out = play(["--resume", "g", "--db", str(db)], "u\nq\n")
    assert "Undone: back to your previous move." in out
    assert record_of(db, "g").moves == []


# --- saves made before records -------------------------------------------------------------
def old_document(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize(("fixture", "rolls", "played"), [
    ("hairpin-human-vs-easy.json", 0, 4), ("hairpin-random-setup.json", 5, 2)])
def test_an_old_save_converts_to_a_record_with_its_moves(fixture: str, rolls: int,
                                                          played: int) -> None:
    document = old_document(fixture)
    record = convert(document)
    assert "Start" not in record.tags  # its moves, played again from the start
    assert [m.player == CHANCE for m in record.moves] == [True] * rolls + [False] * played
    assert [m.name for m in record.moves[rolls:]] == [m["move"] for m in document["moves"]]
    assert record.seats == [{"name": "Red", "player": document["red"]},
                            {"name": "Black", "player": document["black"]}]
    assert record.tags["Generator"] == document["rng"]
    (checked,) = check_text(record.text())
    assert checked.state.to_json() == HairpinState.from_json(document["state"]).to_json()


def test_an_old_save_opens_lists_and_resumes_with_its_generator(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    document = old_document("hairpin-human-vs-easy.json")
    SessionStore(db).save("hairpin", "old", document)  # as the code before records saved it
    saved = load(SessionStore(db), "old")
    assert saved.converted and final_state(saved).to_json() == document["state"]
    listed = play(["--list", "--db", str(db)], "")
    assert "old" in listed
    out = play(["--resume", "old", "--db", str(db)], "1\nq\n")
    assert "Resuming 'old' at ply 4." in out
    record = record_of(db, "old")  # saved on as a record
    assert [m.name for m in record.moves[:4]] == [m["move"] for m in document["moves"]]
    assert len(record.moves) == 6
    # the computer's reply drew from the old save's generator: the same as a game resumed
    # from the converted record itself
    from raceday.games.hairpin.cli import HairpinPlay
    from raceday.terminal.session import generator_from

    rng = generator_from(convert(document))
    assert rng.bit_generator.state == document["rng"]
    loop = HairpinPlay.resumed(convert(document), store=None, name=None)
    assert loop.state.to_json() == document["state"]
    assert loop.session.can_undo()  # the person's moves can be taken back again


def test_an_old_save_whose_moves_do_not_give_its_position_starts_from_it() -> None:
    position = HairpinState.from_text("..bbb./..bb.r2/rrr... r 0-0 4-0 0-0")
    document = {"state": position.to_json(), "red": "human", "black": "easy",
                "moves": [{"ply": 0, "side": 0, "move": "a1 cruise b1"}], "undo": [],
                "rng": {}}
    record = convert(document)
    assert record.tags["Start"] == position.to_json() and record.moves == []
    assert "Generator" not in record.tags
    assert opened(document, None, convert, "x").state().to_json() == position.to_json()


def test_an_old_save_that_is_not_a_hairpin_game_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.sqlite"
    SessionStore(db).save("hairpin", "bad", {"state": {"position": "nonsense"}})
    code, err = cli(["hairpin", "play", "--resume", "bad", "--db", str(db)], "", capsys,
                    monkeypatch)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1


# --- --resume FILE ---------------------------------------------------------------------------
@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    db = tmp_path / "made.sqlite"
    play(["-p", "human,greedy", "--db", str(db), "--save", "g"],
         "a1 cruise b1\ne1 cruise f1\nq\n")
    path = tmp_path / "g.txt"
    path.write_text(record_of(db, "g").text(), encoding="utf-8")
    return path


def test_resume_file_goes_on_under_a_new_name_that_is_free(record_file: Path,
                                                          tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    play(["-p", "human,greedy", "--db", str(db), "--save", "g"], "q\n")  # 'g' is taken
    out = play(["--resume", str(record_file), "--db", str(db)], "q\n")
    assert "this one is saved as 'g-2'" in out
    assert len(record_of(db, "g-2").moves) == 4
    out = play(["--resume", str(record_file), "--db", str(db), "--save", "mine"], "q\n")
    assert "Saved as 'mine'" in out and record_of(db, "mine").tags["Name"] == "mine"


def test_resume_file_refuses_a_corrupted_move_naming_its_line(
        record_file: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    lines = record_file.read_text(encoding="utf-8").splitlines()
    third = [i for i, line in enumerate(lines) if line.startswith(("p1:", "p2:"))][2]
    lines[third] = "p1: z9 fly"
    record_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = record_file.parent / "s.sqlite"
    code, err = cli(["hairpin", "play", "--resume", str(record_file), "--db", str(db)], "",
                    capsys, monkeypatch)
    assert code == 2, err
    assert f"line {third + 1}" in err and "z9 fly" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not db.exists()  # refused before the store was opened


@pytest.mark.parametrize(("text", "needle"), [
    ('[Game "keirin"]\n[Format 1]\n[Options {}]\n', "record of keirin, not of hairpin"),
    ('[Game "hairpin"]\n[Format 1]\n[Options {nope}]\n', "line 3"),
    ('[Game "hairpin"]\n[Format 1]\n[Options {}]\n[Seats [{"name": "R", "player": "human"},'
     ' {"name": "B", "player": "wizard"}]]\n', "Seats"),
    ('[Game "hairpin"]\n[Format 1]\n[Options {}]\n\np2: a1 cruise b1\n', "line 5"),
])
def test_resume_file_refuses_a_bad_record_or_another_games(
        tmp_path: Path, text: str, needle: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    code, err = cli(["hairpin", "play", "--resume", str(path), "--db",
                     str(tmp_path / "s.sqlite")], "", capsys, monkeypatch)
    assert code == 2 and needle in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_record_saved_at_the_terminal_replays_in_the_browser(tmp_path: Path) -> None:
    from raceday.present.replay import step_text
    from tests.web.conftest import serving

    db = tmp_path / "s.sqlite"
    play(["-p", "easy,easy", "--variant", "short", "--seed", "3", "--db", str(db),
          "--save", "duel"], "")
    final = final_state(load(SessionStore(db), "duel"))
    assert final.is_terminal()
    with serving(db) as tc:
        listed = {(s["game"], s["name"]) for s in tc.get("/api/replays").json()["sessions"]}
        assert ("hairpin", "duel") in listed
        steps = tc.get("/api/replay/hairpin/duel").json()["steps"]
        assert steps[-1]["frame"] == final.frame()
        assert step_text(steps[-1], "hairpin")[0] == "Final position"
