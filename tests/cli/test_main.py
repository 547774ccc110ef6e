"""The `raceday` entry point: one-line errors, version, interruptions, a light start."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer

from raceday import __version__
from raceday.cli.main import run
from raceday.core.discovery import discover, game_packages
from raceday.terminal import common


def test_usage_errors_are_one_line_with_a_help_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["keirin", "watch", "--no-such-option"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "No such option: --no-such-option" in err
    assert "raceday keirin watch --help" in err
    assert "╭" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["keirin", "watch", "--seed", "-1"], "--seed"),
        (["keirin", "watch", "--delay", "nan"], "--delay"),
        (["keirin", "watch", "--delay", "inf"], "--delay"),
        (["keirin", "watch", "--delay", "-0.5"], "--delay"),
        (["keirin", "watch", "--seed", "twelve"], "--seed"),
    ],
)
def test_bad_shared_options_name_the_option(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert named in err and err.startswith("error:") and err.count("\n") == 1


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["chess"]) == 2
    assert "No such command 'chess'" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"raceday {__version__}"


def test_a_bare_game_shows_its_help_without_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["keirin"]) == 0
    captured = capsys.readouterr()
    assert "watch" in captured.out and "error" not in captured.err


def test_games_are_discovered_from_the_packages() -> None:
    games = discover()
    assert set(games) == set(game_packages())  # every package found, built in or installed
    assert {"keirin", "derby", "hairpin", "pistard", "wielersim"} <= set(games)
    assert "Anki Toner" in games["keirin"] and "domi" in games["derby"]


def test_help_lists_every_game_without_importing_numpy() -> None:
    code = (
        "import sys\n"
        "from raceday.cli.main import run\n"
        "assert run(['--help']) == 0\n"
        "heavy = [m for m in ('numpy', 'numba', 'matplotlib') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    for game in discover("cli"):  # every game with terminal commands
        assert game in done.stdout


def test_an_interruption_without_a_saving_command_says_nothing_was_saved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("raceday.games.keirin.cli.KeirinState", interrupted)
    assert run(["keirin", "watch", "--delay", "0", "--seed", "1"]) == 130
    assert capsys.readouterr().err.strip().endswith("interrupted: nothing was saved")


def test_on_interrupt_prints_one_unbroken_line(capsys: pytest.CaptureFixture[str]) -> None:
    resume = common.shell_quote("raceday", "keirin", "play", "--resume", "friday night",
                                "--db", "/a/rather/long/path/to/the/database/file.sqlite")
    with pytest.raises(typer.Exit) as stop, common.on_interrupt("race 3 is saved", resume):
        raise KeyboardInterrupt
    assert stop.value.exit_code == 130
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) > 80
    assert "'friday night'" in err and "file.sqlite" in err
    assert common.interrupt_reported() and not common.interrupt_reported()


@pytest.mark.parametrize(
    ("answers", "expected"),
    [(["y"], True), (["YES"], True), (["n"], False), (["no"], False), ([""], True),
     (["sure", "ok", "n"], False), (["maybe", "yes"], True)],
)
def test_yes_no_accepts_only_clear_answers(answers: list[str], expected: bool) -> None:
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return answers[len(asked) - 1]

    assert common.ask_yes_no("Another race?", default=True, read=read) is expected
    assert len(asked) == len(answers)
    assert asked[0] == "Another race? (Y/n) "


def test_yes_no_at_end_of_input_takes_the_default() -> None:
    def ended(prompt: str) -> str:
        raise EOFError

    assert common.ask_yes_no("Overwrite?", default=False, read=ended) is False


@pytest.mark.parametrize("bad", [-1, 2**63])
def test_seed_range(bad: int) -> None:
    with pytest.raises(typer.BadParameter, match="0 to"):
        common.check_seed(bad)
    assert common.check_seed(0) == 0 and common.check_seed(2**63 - 1) == 2**63 - 1


def test_db_checks(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    with pytest.raises(typer.BadParameter, match="is a directory"):
        common.check_db(tmp_path)
    with pytest.raises(typer.BadParameter, match="is a file"):
        common.check_db(plain / "db.sqlite")
    assert common.check_db(tmp_path / "new" / "db.sqlite") == tmp_path / "new" / "db.sqlite"


def test_in_range_names_the_limits() -> None:
    check = common.in_range(1, 1000, "races")
    assert check(1) == 1 and check(None) is None
    with pytest.raises(typer.BadParameter, match="from 1 to 1,000 races, got 0"):
        check(0)


def test_tools_beside_the_games_are_listed_without_importing_them() -> None:
    from raceday.cli._tools import discover_tools

    tools = discover_tools()
    assert "serve" in tools and "party" in tools["serve"].lower()
    assert "common" not in tools and "main" not in tools
