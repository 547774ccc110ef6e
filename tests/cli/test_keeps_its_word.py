"""The terminal keeps its word (#43): one behaviour for the same option in every game, and
refusals in the user's words rather than the validator's.

Every run is in-process (the CLI's click command, built once) and stops before any game is
played: each refusal comes before the work, exit code 2, one line, no traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from raceday.cli.main import app, run
from raceday.store.sessions import SessionStore

ROOT = typer.main.get_command(app)


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line of a refusal (exit code 2)."""
    code = run(list(argv), command=ROOT)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return " ".join(err.split())


# --- errors in the user's words ------------------------------------------------------------
@pytest.mark.parametrize(("argv", "said"), [
    (["pistard", "simulate", "-n", "1", "--lap-points", "-1"],
     "PISTARD option --lap-points: value 1 must be a whole number of 0 or more, got '-1'"),
    (["pistard", "simulate", "-n", "1", "--lap-points", "5,x"],
     "--lap-points: value 2 must be a whole number of 0 or more, got 'x'"),
    (["pistard", "simulate", "-n", "1", "--lap-points", "1,2,3,4,5,6,7,8,9"],
     "PISTARD option --lap-points: takes at most 8 values (9 given)"),
    (["pistard", "simulate", "-n", "1", "--laps", "x"],
     "error: --laps: must be a whole number, got 'x'"),
    (["keirin", "simulate", "-n", "abc"], "error: --races: must be a whole number, got 'abc'"),
    (["keirin", "watch", "--delay", "soon"],
     "error: --delay: must be a number such as 0.5, got 'soon'"),
    (["derby", "play", "-p", ",".join(f"p{k}" for k in range(50)), "--computers", "20"],
     "error: --players: at most 64 players with the --computers, got 70"),
])
def test_a_bad_value_is_refused_in_plain_words_naming_the_option(
        capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    line = _refused(capsys, *argv)
    assert said in line
    for validator in ("input should be", "Input should be", "unable to parse", "tuple should",
                      "after validation", "--lap-points.0"):
        assert validator not in line


def test_a_gpx_number_that_is_not_one_names_the_file_and_the_place(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    track = tmp_path / "ride.gpx"
    track.write_text('<?xml version="1.0"?>\n<gpx version="1.1" creator="x" '
                     'xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n'
                     '<trkpt lat="50.1" lon="4.0"><ele>10</ele></trkpt>\n'
                     '<trkpt lat="north" lon="4.0"><ele>12</ele></trkpt>\n'
                     '</trkseg></trk></gpx>\n', encoding="utf-8")
    line = _refused(capsys, "wielersim", "route", "import", str(track))
    assert f"{track}: not a readable GPX file: line 4: lat is 'north', not a number" in line
    assert "Invalid value for" not in line and "<None>" not in line
    track.write_text(track.read_text(encoding="utf-8").replace('lat="north"', 'lat="50.2"')
                     .replace("<ele>12<", "<ele>high<"), encoding="utf-8")
    assert "line 4: <ele> is 'high', not a number" in _refused(
        capsys, "wielersim", "route", "import", str(track))


# --- an empty player name is refused in every game ----------------------------------------
@pytest.mark.parametrize("argv", [
    ["derby", "play", "-p", "A,B", "-p", ""],
    ["keirin", "play", "-p", ""],
    ["keirin", "play", "-p", "Ann,,Bob"],
    ["hairpin", "play", "-p", "human,"],
    ["pistard", "play", "-p", ",easy"],
])
def test_an_empty_player_name_is_refused_before_anything_is_saved(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    db = tmp_path / "s.sqlite"
    line = _refused(capsys, *argv, "--db", str(db))
    assert "--players: a player's name cannot be empty" in line
    assert not db.exists()


# --- a --save name already saved is refused in every game ---------------------------------
@pytest.mark.parametrize(("kind", "argv", "game"), [
    ("keirin", ["keirin", "play", "-p", "Ann"], "KEIRIN"),
    ("derby", ["derby", "play", "-p", "Ann,Bob"], "Dice Derby"),
    ("hairpin", ["hairpin", "play", "-p", "human,easy"], "Hairpin"),
    ("pistard", ["pistard", "play", "-p", "human,easy"], "PISTARD"),
    ("wielersim", ["wielersim", "tour", "ronde-van-belgie", "small", "--auto"], "WielerSIM"),
])
def test_a_taken_save_name_is_refused_before_any_work(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, argv: list[str],
        game: str) -> None:
    db = tmp_path / "s.sqlite"
    store = SessionStore(db)
    store.save(kind, "taken", {"kept": True}, expected_revision=None)
    before = store.load(kind, "taken")
    command = argv[1] if argv[0] != "wielersim" else "tour"
    line = _refused(capsys, *argv, "--save", "taken", "--db", str(db))
    assert (f"--save: a {game} game is already saved as 'taken'; choose another name, or go "
            f"on with it: raceday {argv[0]} {command} --resume taken --db {db}") in line
    assert SessionStore(db).load(kind, "taken") == before
    assert SessionStore(db).names(kind) == ["taken"]  # and no NAME-2 was made


# --- one name, one meaning ---------------------------------------------------------------
def test_derby_plays_real_dice_with_real_dice_and_host_is_only_an_address(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    assert run(["derby", "play", "--real-dice", "--list", "--db", str(db)], command=ROOT) == 0
    assert capsys.readouterr().err == ""


def test_hairpin_analyse_reads_a_save_with_from(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    line = _refused(capsys, "hairpin", "analyse", "--from", "nothing", "--db", str(db))
    assert "nothing" in line


def test_out_is_the_one_name_of_a_file_to_write(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    made = tmp_path / "Caddyfile"
    argv = ["caddyfile", "--site", "party.example.org", "--shard-address", "127.0.0.1:8001"]
    assert run([*argv, "-o", str(made)], command=ROOT) == 0 and made.exists()
    assert capsys.readouterr().err == ""
    made.unlink()
    assert run([*argv, "--out", str(made)], command=ROOT) == 0 and made.exists()
