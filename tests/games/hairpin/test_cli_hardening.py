"""Hardening of `raceday hairpin`: checked options, no lost saves, Ctrl-C, and the
terminal's help for the player (arrow legend, forced moves, decisive bumps, the result)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.games.hairpin.rules import HairpinState
from raceday.games.hairpin.saves import final_state, load
from raceday.store.sessions import SessionStore
from raceday.terminal import lineinput
from raceday.terminal.surface import Prompt

runner = CliRunner()

BUMP_FIFTH = "..bbb./..bb.r2/rrr... r 0-0 4-0 0-0"  # Red's "f2 charge d2 bump" is action 8
PIT_FORCED = "bbbb../....b./rrrr.. r 0-0 0-1 1-0"  # Red must re-enter from the pit
LAP_TO_WIN = "bbbbr./....b./r.rrr. r 4-0 0-0 0-0"  # "e3 charge b1" is Red's fifth lap


def play(args: list[str], stdin: str) -> str:
    result = runner.invoke(app, ["hairpin", "play", "--delay", "0", *args], input=stdin)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def saved(db: Path, name: str) -> tuple[dict[str, object], int]:
    return SessionStore(db).load("hairpin", name)


def saved_state(db: Path, name: str) -> HairpinState:
    """The position of a saved game (its record's, read back)."""
    return final_state(load(SessionStore(db), name))


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["perft", "-v", "", "-d", "2"], "empty text"),
        (["perft", "-d", "0"], "from 1 to 8"),
        (["perft", "-d", "-1"], "from 1 to 8"),
        (["perft", "-d", "9"], "from 1 to 8"),
        (["perft", "-d", "123456789012345678901234567890"], "from 1 to 8"),
        (["perft", "-d", "2", "--position", ""], "empty text"),
        (["match", "--red", "easy", "--black", "easy", "-n", "0"], "from 1 to 100,000"),
        (["match", "--red", "easy", "--black", "easy", "-n", "-5"], "from 1 to 100,000"),
        (["match", "--red", "easy", "--black", "easy", "-n", "100001"], "from 1 to 100,000"),
        (["match", "--red", "easy", "--black", "easy", "--opening-plies", "-1"], "0 to 40"),
        (["match", "--red", "easy", "--black", "easy", "--seed", "-1"], "--seed"),
        (["play", "--seed", "-1"], "--seed"),
        (["play", "--delay", "inf"], "--delay"),
        (["play", "--delay", "nan"], "--delay"),
        (["play", "--delay", "-1"], "--delay"),
        (["play", "--save", ""], "empty text"),
        (["play", "--save", "x" * 65], "at most 64"),
        (["play", "--red", "wizard"], "unknown agent"),
        (["play", "--black", "mcts:0"], "budget"),
        (["play", "--variant", "turbo"], "no such variant word"),
        (["play", "--position", "nonsense"], "position text"),
    ],
)
def test_bad_options_give_one_line_exit_2_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    db = tmp_path / "s.sqlite"
    code = run(["hairpin", *args, "--db", str(db)] if args[0] == "play"
               else ["hairpin", *args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert needle in err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert not db.exists()  # every check ran before the store was opened


def test_a_new_game_never_overwrites_a_saved_one(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    play(["--black", "greedy", "--db", str(db)], "a1 cruise b1\n")
    before, revision = saved(db, "hairpin")
    assert saved_state(db, "hairpin").position.ply == 2
    out = play(["--black", "greedy", "--db", str(db)], "e1 charge f2\n")
    assert ("already saved as 'hairpin'; this one is saved as 'hairpin-2' (continue the old "
            "one with --resume hairpin)") in out
    assert saved(db, "hairpin") == (before, revision)  # the old save is untouched
    assert saved_state(db, "hairpin-2").to_json() != saved_state(db, "hairpin").to_json()
    out = play(["--black", "greedy", "--db", str(db)], "")
    assert "saved as 'hairpin-3'" in out
    # a name given with --save is used as given or refused, as in every game (#43)
    code = run(["hairpin", "play", "--black", "greedy", "--db", str(db), "--save", "hairpin"])
    assert code == 2
    assert saved(db, "hairpin") == (before, revision)
    # resuming still reaches the old game under its own name
    out = play(["--db", str(db), "--resume", "hairpin"], "q\n")
    assert "Resuming 'hairpin' at ply 2" in out


def test_ctrl_c_prints_one_line_with_the_resume_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "my games" / "s.sqlite"
    answers = iter(["a1 cruise b1"])

    def reader(prompt: Prompt, console: object = None) -> str:
        for answer in answers:
            return answer
        raise KeyboardInterrupt

    monkeypatch.setattr(lineinput, "ask", reader)
    code = run(["hairpin", "play", "--black", "greedy", "--save", "g", "--db", str(db),
                "--delay", "0"])
    err = capsys.readouterr().err
    assert code == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0] == (f"interrupted: the game is saved as 'g' up to the last move; resume "
                        f"with: raceday hairpin play --resume g --db '{db}'")
    assert saved_state(db, "g").position.ply == 2


def test_ctrl_c_at_the_bump_question_also_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["8"])

    def reader(prompt: Prompt, console: object = None) -> str:
        for answer in answers:
            return answer
        raise KeyboardInterrupt

    monkeypatch.setattr(lineinput, "ask", reader)
    db = tmp_path / "s.sqlite"
    code = run(["hairpin", "play", "--position", BUMP_FIFTH, "--db", str(db), "--delay", "0"])
    assert code == 130
    err = capsys.readouterr().err
    assert "resume with: raceday hairpin play --resume hairpin --db" in err
    assert saved_state(db, "hairpin").position.ply == 0


def test_the_board_explains_its_arrows() -> None:
    result = runner.invoke(app, ["hairpin", "show"])
    assert result.exit_code == 0
    assert "arrows: direction of travel, Red's on the right, Black's on the left" in result.output


def test_a_forced_pit_reentry_is_played_without_asking(tmp_path: Path) -> None:
    out = play(["--position", PIT_FORCED, "--black", "greedy", "--db",
                str(tmp_path / "s.sqlite")], "q\n")
    forced = "Red (human) plays pit enter a1 (played for you: a racer in the pit must re-enter"
    assert forced in out
    # the only question came after the re-entry and Black's reply
    assert out.index(forced) < out.index("Your move")
    assert out.count("Your move") == 1
    state = saved_state(tmp_path / "s.sqlite", "hairpin")
    assert state.position.pit == (0, 0) and state.position.ply == 2


def test_the_fifth_bump_is_marked_and_asked_before_it_is_played(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    out = play(["--position", BUMP_FIFTH, "--db", str(db)], "8\nmaybe\nn\nq\n")
    assert "8  f2 charge d2 bump  ⚠ your 5th bump: you would be disqualified and lose" in out
    assert "Play it? (y/N)" in out
    assert "Refused: answer y (yes) or n (no)." in out
    assert saved_state(db, "hairpin").position.ply == 0
    # the pass beside it is not marked, and a bump that is not the fifth is not either
    assert "b2 pass  ⚠" not in out
    out = play(["--position", BUMP_FIFTH.replace("4-0", "3-0"), "--db", str(db)], "q\n")
    assert "⚠" not in out


def test_confirming_the_fifth_bump_loses_and_says_why(tmp_path: Path) -> None:
    out = play(["--position", BUMP_FIFTH, "--db", str(tmp_path / "s.sqlite")],
               "f2 charge d2 bump\ny\n")
    assert "Black (expert) wins — red bumped 5 racers and is disqualified" in out


def test_the_end_says_who_won_and_why(tmp_path: Path) -> None:
    out = play(["--position", LAP_TO_WIN, "--db", str(tmp_path / "s.sqlite")],
               "e3 charge b1\n")
    assert "Red (human) wins — red completes 5 laps (laps 5-0, bumps 0-0, Red-Black)." in out


def test_the_derby_marks_the_winning_bump(tmp_path: Path) -> None:
    out = play(["--variant", "derby", "--position", BUMP_FIFTH, "--db",
                str(tmp_path / "s.sqlite")], "8\n")
    assert "your 5th bump: it wins the derby" in out
    assert "Play it?" not in out
    assert "Red (human) wins — red bumps 5 racers" in out
