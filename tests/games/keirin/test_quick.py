"""The fast start of `raceday keirin odds`: the same bytes as the full command (tables and
JSON), light imports, and every other request left to the full command line."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from raceday.games.keirin import quick

ANSWERED = [
    ["--json"],
    [],
    ["--riders", "6", "--bet", "trifecta", "--top", "4"],
    ["-b", "trio", "--bet=win", "--all", "--length", "80"],
    ["--top=1000", "--derny", "3"],
    ["--bet", "exacta", "--json", "--top", "2", "--all"],
    ["--riders", "7", "--json"],
    ["--json", "--riders=6", "--length", "19"],
    ["-r", "8", "-l", "120", "--derny", "12", "--json"],
    ["--derny=18", "--json", "--length=1000"],
]

LEFT_TO_THE_FULL_COMMAND = [
    ["--top", "0"],
    ["--top", "1001", "--json"],
    ["--top", "3", "--top", "4"],
    ["--bet", "place", "--json"],  # the full command names the unknown bet type
    ["--bet"],
    ["-b=win"],
    ["--all", "--all"],
    ["--riders", "5", "--json"],  # out of range: the full command names the problem
    ["--riders", "x", "--json"],
    ["--riders", "+7", "--json"],
    ["--riders", "٧", "--json"],  # a digit, but not ASCII
    ["--riders", "7", "--riders", "8", "--json"],
    ["--json", "--json"],
    ["--riders", "--json"],
    ["--riders"],
    ["-r=7", "--json"],
    ["--derny", "2", "--json"],
    ["--length", "18", "--json"],
    ["--help"],
    ["--json", "extra"],
]


def _output(launcher: str, args: list[str]) -> str:
    """What a fresh process prints for ``raceday keirin odds ARGS`` through ``launcher``."""
    code = f"import sys; sys.argv = ['raceday', 'keirin', 'odds', *{args!r}]; {launcher}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("args", ANSWERED)
def test_fast_answer_is_the_full_commands_output(args: list[str]) -> None:
    full = _output("from raceday.cli.main import main; main()", args)
    assert full.startswith('{"game": "keirin"') or "KEIRIN exact odds" in full
    assert _output("from raceday.games.keirin.quick import run; sys.exit(run(sys.argv[1:]))",
                   args) == full


@pytest.mark.parametrize("args", LEFT_TO_THE_FULL_COMMAND)
def test_anything_else_goes_to_the_full_command(args: list[str]) -> None:
    assert quick.parse(args) is None
    assert quick.run(["keirin", "odds", *args]) is None


@pytest.mark.parametrize("argv", [[], ["keirin"], ["derby", "odds", "--json"],
                                  ["keirin", "simulate", "--json"]])
def test_other_commands_go_to_the_full_command(argv: list[str]) -> None:
    assert quick.run(argv) is None


def _launch_and_list_heavy(argv: list[str], heavy: tuple[str, ...]) -> tuple[str, list[str]]:
    """Run the console script's ``main`` with ``argv`` in a fresh process (it must exit 0);
    return what it printed and which of the ``heavy`` modules it had imported."""
    code = (
        "import sys\n"
        "from raceday.launch import main\n"
        f"sys.argv = ['raceday', *{argv!r}]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as stop:\n"
        "    assert stop.code == 0, stop.code\n"
        f"print('HEAVY', [m for m in {heavy!r} if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    printed, _, loaded = done.stdout.rpartition("HEAVY ")
    return printed, ast.literal_eval(loaded.strip())


def test_the_fast_start_imports_neither_the_command_line_nor_the_rules() -> None:
    printed, loaded = _launch_and_list_heavy(
        ["keirin", "odds", "--json"],
        ("typer", "click", "pydantic", "raceday.cli", "raceday.core.registry",
         "raceday.games.keirin.rules"))
    assert loaded == []
    assert printed.startswith('{"game": "keirin", "riders": 9, "length": 50')


def test_the_launcher_imports_nothing_heavy_for_other_commands() -> None:
    printed, loaded = _launch_and_list_heavy(["--help"], ("numpy",))
    assert loaded == []
    assert "keirin" in printed


def test_a_bad_value_still_gets_the_full_commands_error() -> None:
    done = subprocess.run([sys.executable, "-m", "raceday", "keirin", "odds", "--riders", "5",
                           "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--riders" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("game", ["derby", "hairpin", "keirin", "pistard", "wielersim"])
def test_every_game_package_gives_its_game_on_first_use_as_the_registry_has_it(
        game: str) -> None:
    import importlib

    from raceday.core.registry import get_game

    package = importlib.import_module(f"raceday.games.{game}")
    assert package.GAME is get_game(game)
    with pytest.raises(AttributeError, match="no attribute 'Nonsense'"):
        package.Nonsense  # noqa: B018
