"""Hairpin in line mode (piped or --plain), scripted: the universal words at every prompt
(help, ?, quit, undo), --resume NAME, the one vocabulary (--players, --list), one prefix
per refusal, Japanese, and the watch."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.record import Record
from raceday.games.hairpin.rules import HairpinState
from raceday.games.hairpin.saves import final_state, load
from raceday.store.sessions import SessionStore

runner = CliRunner()

BUMP_FIFTH = "..bbb./..bb.r2/rrr... r 0-0 4-0 0-0"  # Red's "f2 charge d2 bump" is action 8
MOVE_HELP = "Type the number of a move (1 to 10) or its name, e.g. a1 cruise b1."
UNIVERSAL = "At any prompt: help or ? (this help), undo"
PROMPT = "Your move (number or action name, ? = help, u = undo, q = save and quit): "


def play(args: list[str], stdin: str) -> str:
    result = runner.invoke(app, ["hairpin", "play", "--delay", "0", *args], input=stdin)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def saved(db: Path, name: str) -> Record:
    """The record of a saved game (a game is saved as its record)."""
    return load(SessionStore(db), name).record


def saved_state(db: Path, name: str) -> HairpinState:
    return final_state(load(SessionStore(db), name))


def cli(args: list[str], stdin: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """Run the real entry point (notes on stderr, exit codes) with ``stdin``."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = run(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("word", ["help", "?", "HELP", "h"])
def test_help_and_question_mark_answer_at_the_move_prompt_and_ask_again(
        tmp_path: Path, word: str) -> None:
    out = play(["-p", "human,greedy", "--db", str(tmp_path / "s.sqlite")], f"{word}\nq\n")
    assert MOVE_HELP in out and UNIVERSAL in out
    assert out.count(PROMPT) == 2  # asked again after the help, nothing played
    assert "Refused" not in out and "plays" not in out


def test_help_at_the_fifth_bump_question_then_no(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    out = play(["--position", BUMP_FIFTH, "--db", str(db)], "8\n?\nn\nq\n")
    assert out.count("Careful: your 5th bump: you would be disqualified and lose. Play it? "
                     "(y/N)") == 2
    assert "y plays this move anyway; n or Enter goes back to the list of moves." in out
    assert UNIVERSAL in out
    assert saved_state(db, "hairpin").position.ply == 0  # not played


@pytest.mark.parametrize("word", ["q", "quit", "exit"])
def test_quit_saves_and_says_how_to_resume(tmp_path: Path, word: str) -> None:
    db = tmp_path / "s.sqlite"
    out = play(["-p", "human,greedy", "--db", str(db), "--save", "g1"],
               f"a1 cruise b1\n{word}\n")
    assert f"Saved as 'g1'; continue with: raceday hairpin play --resume g1 --db {db}" \
        in out
    assert saved_state(db, "g1").position.ply == 2


def test_quit_at_the_fifth_bump_question_saves(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    out = play(["--position", BUMP_FIFTH, "--db", str(db)], "8\nquit\n")
    assert "Saved as 'hairpin'; continue with" in out
    assert saved_state(db, "hairpin").position.ply == 0


def test_undo_against_the_computer_takes_back_the_pair(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    out = play(["-p", "human,greedy", "--db", str(db), "--save", "g"],
               "undo\na1 cruise b1\nundo\nq\n")
    assert out.count("Refused: nothing to take back yet: no move of yours has been played.") == 1
    assert "Undone: back to your previous move." in out
    state = saved_state(db, "g")
    assert state.position.ply == 0 and state.position.side == 0
    assert saved(db, "g").moves == []  # the undone moves leave the record


def test_undo_between_two_people_takes_back_one_move(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    out = play(["-p", "human,human", "--db", str(db), "--save", "g"],
               "a1 cruise b1\nf3 cruise e3\nu\nq\n")
    assert "Undone: f3 cruise e3 is taken back; Black to move again." in out
    state = saved_state(db, "g")
    assert state.position.ply == 1 and state.position.side == 1
    assert [m.name for m in saved(db, "g").moves] == ["a1 cruise b1"]


def test_undo_at_the_fifth_bump_question(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    # nothing played yet: refused, asked again; then n, and the game is where it was
    out = play(["--position", BUMP_FIFTH, "--db", str(db)], "8\nundo\nn\nq\n")
    assert "Refused: nothing to take back yet" in out
    assert out.count("Play it? (y/N)") == 2
    # after a move of Red's and Black's reply, undo at the question takes them back
    two = "..bbb./..bb.r2/rrr... r 0-0 4-0 0-0"
    out = play(["--position", two, "-p", "human,human", "--db", str(db), "--save", "h"],
               "a1 cruise b1\nc3 cruise b3\nf2 charge d2 bump\nu\nq\n")
    assert "Undone: c3 cruise b3 is taken back; Black to move again." in out
    assert saved_state(db, "h").position.ply == 1


def test_resume_by_name_continues_with_the_move_list(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    play(["-p", "human,greedy", "--db", str(db), "--save", "g1"], "a1 cruise b1\n")
    out = play(["--resume", "g1", "--db", str(db)], "1\nq\n")
    assert "Resuming 'g1' at ply 2." in out
    assert "Got unexpected extra argument" not in out
    moves = saved(db, "g1").moves
    assert [m.who for m in moves] == ["p1", "p2", "p1", "p2"]


def test_resume_of_an_unknown_name_is_one_line_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = cli(["hairpin", "play", "--resume", "g1", "--db",
                        str(tmp_path / "s.sqlite")], "", capsys, monkeypatch)
    assert code == 2
    assert "no saved hairpin session named 'g1'" in err and "extra argument" not in err


def test_resume_refuses_an_option_as_its_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = cli(["hairpin", "play", "--resume", "--db", str(tmp_path / "s.sqlite")],
                       "", capsys, monkeypatch)
    assert code == 2 and "--resume" in err
    assert not (tmp_path / "s.sqlite").exists()


def test_resume_refuses_new_players_or_variant(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.sqlite"
    play(["-p", "human,greedy", "--db", str(db), "--save", "g"], "q\n")
    for extra, named in ((["-p", "human,easy"], "--players"), (["--black", "hard"], "--black"),
                         (["--variant", "short"], "--variant")):
        code, out, err = cli(["hairpin", "play", "--resume", "g", "--db", str(db), *extra],
                             "", capsys, monkeypatch)
        assert code == 2 and f"leave out {named}" in err, err
        assert "Your move" not in out


def test_minus_p_is_players_and_position_text_gets_a_pointer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.sqlite"
    for args, needle in (
        (["-p", BUMP_FIFTH], "-p now means --players"),
        (["-p", "easy"], "--players takes two players, Red then Black"),
        (["-p", "human,wizard"], "--players: unknown agent"),
        (["-p", "human,easy", "--red", "hard"], "not both"),
    ):
        code, _, err = cli(["hairpin", "play", *args, "--db", str(db)], "", capsys,
                           monkeypatch)
        assert code == 2 and needle in err, (args, err)
        assert len(err.strip().splitlines()) == 1
    assert not db.exists()
    out = play(["--players", "human", "--players", "greedy", "--db", str(db)], "q\n")
    assert "Saved as 'hairpin'; continue with" in out


def test_a_bad_position_is_refused_with_one_prefix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    for position, reason in (("..bbb./..bb.r2/rrr... x 0-0 0-0 0-0",
                              "side to move must be 'r' or 'b'"),
                             ("..bbb./..bb.r2/rrr... r 9-0 0-0 0-0",
                              "laps cannot exceed 5 in this variant")):
        code, _, err = cli(["hairpin", "play", "--position", position, "--db",
                            str(tmp_path / "s.sqlite")], "", capsys, monkeypatch)
        assert code == 2
        assert err.strip() == f"error: Hairpin option --position: {reason}"
        assert "options:" not in err and err.count("position") == 1


def test_list_shows_the_saved_games(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    result = runner.invoke(app, ["hairpin", "play", "--list", "--db", str(db)])
    assert result.exit_code == 0 and "No saved Hairpin games yet." in result.output
    assert not db.exists()
    play(["-p", "human,greedy", "--db", str(db), "--save", "g1"], "a1 cruise b1\n")
    result = runner.invoke(app, ["hairpin", "play", "--list", "--db", str(db)])
    assert "g1: ply 2, Red (human) against Black (greedy)" in result.output
    assert "raceday hairpin play --resume NAME" in result.output


def test_japanese_words_in_play(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    out = play(["--lang", "ja", "-p", "human,greedy", "--db", str(db), "--save", "g"],
               "?\n0\nb1 fly\na1 cruise b1\nq\n")
    assert "赤の番" in out and "周回 0/5" in out and "ゴールライン" in out
    assert "あなたの番（番号か手の名前" in out
    assert "手の番号（1〜10）か手の名前" in out  # the help
    assert "受け付けません：1〜10の番号を選んでください" in out
    assert "受け付けません：b1の車が指せる手：b1 cruise c1, b1 charge d1" in out
    assert "赤（人）：a1 cruise b1" in out
    assert "「g」として保存しました。続きは：" in out
    assert "Your move" not in out and "Refused" not in out


def test_japanese_from_the_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    out = play(["--db", str(tmp_path / "s.sqlite")], "q\n")
    assert "赤の番" in out


def test_japanese_result_line(tmp_path: Path) -> None:
    out = play(["--lang", "ja", "--position", "bbbbr./....b./r.rrr. r 4-0 0-0 0-0", "--db",
                str(tmp_path / "s.sqlite")], "e3 charge b1\n")
    assert "赤（人）の勝ち" in out and "（周回 5-0、バンプ 0-0、赤-黒）" in out
    assert "ゲーム終了：" in out


def test_a_derby_draw_is_said_once(tmp_path: Path) -> None:
    quiet = "..bbb./..bb.r2/rrr... r 0-0 0-0 0-0 99 50"  # one quiet ply from the draw
    out = play(["--variant", "derby", "--position", quiet, "--db", str(tmp_path / "s.sqlite")],
               "a1 cruise b1\n")
    assert "Draw: 100 plies without a bump." in out and "Draw: draw" not in out
    out = play(["--variant", "derby", "--position", quiet, "--lang", "ja", "--db",
                str(tmp_path / "s.sqlite")], "a1 cruise b1\n")
    assert "引き分け：100手のあいだバンプなし。" in out and "引き分け：引き分け" not in out


def test_watch_plays_two_computers_to_the_end() -> None:
    result = runner.invoke(app, ["hairpin", "watch", "-p", "greedy,random", "--seed", "3",
                                 "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert "Red (greedy) plays" in result.output and "Black (random) plays" in result.output
    assert "Game over:" in result.output
    again = runner.invoke(app, ["hairpin", "watch", "-p", "greedy,random", "--seed", "3",
                                "--delay", "0"])
    assert again.output == result.output  # the same seed, the same game


def test_a_random_setup_says_its_rolls() -> None:
    result = runner.invoke(app, ["hairpin", "watch", "-p", "greedy,greedy", "--variant",
                                 "random", "--seed", "4", "--delay", "0"])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("Setup roll ") and ": red on " in first and "[" not in first


def test_watch_refuses_a_person() -> None:
    result = runner.invoke(app, ["hairpin", "watch", "-p", "human,easy"])
    assert result.exit_code != 0


def test_match_takes_players_as_one_list() -> None:
    result = runner.invoke(app, ["hairpin", "match", "-p", "greedy,random", "-n", "2",
                                 "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "greedy vs random: 2 games" in result.output
