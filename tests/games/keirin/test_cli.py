"""The `raceday keirin` commands, driven through the real entry point."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.games.keirin.saved_night import BetSession
from raceday.store.sessions import SessionStore

runner = CliRunner()


def test_root_help_lists_the_games() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "keirin" in result.output


def test_keirin_help_lists_its_commands() -> None:
    result = runner.invoke(app, ["keirin", "--help"])
    assert result.exit_code == 0
    assert "watch" in result.output and "simulate" in result.output


def test_watch_shows_turns_and_a_full_ranking() -> None:
    result = runner.invoke(app, ["keirin", "watch", "--seed", "7", "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert "Turn 1" in result.output and "derny throws" in result.output
    winner_line = [ln for ln in result.output.splitlines() if ln.startswith("Rider ")][-1]
    assert winner_line.endswith("wins!")
    for rider in range(1, 10):
        assert f"R{rider}" in result.output


def test_watch_is_reproducible_with_a_seed() -> None:
    a = runner.invoke(app, ["keirin", "watch", "--seed", "99", "--delay", "0", "-r", "6"])
    b = runner.invoke(app, ["keirin", "watch", "--seed", "99", "--delay", "0", "-r", "6"])
    assert a.output == b.output and "R7" not in a.output


def test_simulate_json_has_the_documented_keys() -> None:
    result = runner.invoke(
        app, ["keirin", "simulate", "-n", "300", "--seed", "1", "--riders", "7", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"game", "n", "riders", "length", "win", "win_ci95", "mean_turns"} <= set(data)
    assert data["game"] == "keirin" and data["n"] == 300 and data["riders"] == 7
    assert set(data["win"]) == {str(r) for r in range(1, 8)}
    assert sum(data["win"].values()) == pytest.approx(1.0)
    for r, (lo, hi) in data["win_ci95"].items():
        assert lo <= data["win"][r] <= hi


@pytest.mark.parametrize(
    "args",
    [
        ["keirin", "watch", "--riders", "5"],
        ["keirin", "watch", "--riders", "10"],
        ["keirin", "watch", "--length", "12"],
        ["keirin", "simulate", "-n", "0"],
        ["keirin", "watch", "--delay", "-1"],
        ["keirin", "watch", "--derny", "40"],
        ["keirin", "watch", "--riders", "many"],
    ],
)
def test_bad_options_exit_2_with_one_line_and_no_traceback(args: list[str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "raceday", *args], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stderr.strip(), "an error message is printed"


# --- verbs and seeds ------------------------------------------------------------------------
def test_help_lists_play_and_hides_the_old_bet() -> None:
    result = runner.invoke(app, ["keirin", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    commands = [line.split()[1] for line in result.output.splitlines()
                if line.startswith("│ ") and len(line.split()) > 1]
    assert "play" in commands and "bet" not in commands


def test_play_prints_the_session_seed(tmp_path: Path) -> None:
    result = runner.invoke(app, ["keirin", "play", "-p", "Ann", "--save", "s", "--delay",
                                 "0", "--db", str(tmp_path / "s.sqlite")], input="")
    assert result.exit_code == 0, result.output
    seed = int(re.search(r"seed (\d+)\)", result.output).group(1))  # type: ignore[union-attr]
    assert BetSession.load(SessionStore(tmp_path / "s.sqlite"), "s").seed == seed


def test_watch_without_a_seed_prints_a_fresh_one_that_replays_the_race() -> None:
    first = runner.invoke(app, ["keirin", "watch", "--delay", "0", "-r", "6"])
    assert first.exit_code == 0, first.output
    seed = int(re.findall(r"seed (\d+) \(--seed", first.output)[-1])
    again = runner.invoke(app, ["keirin", "watch", "--delay", "0", "-r", "6", "--seed",
                                str(seed)])
    assert again.output == first.output


def test_simulate_json_carries_the_seed_it_used() -> None:
    fresh = json.loads(runner.invoke(app, ["keirin", "simulate", "-n", "200", "--json"]).output)
    assert isinstance(fresh["seed"], int) and 0 <= fresh["seed"] < 2**63
    replay = runner.invoke(app, ["keirin", "simulate", "-n", "200", "--json", "--seed",
                                 str(fresh["seed"])])
    assert json.loads(replay.output) == fresh
    given = json.loads(runner.invoke(app, ["keirin", "simulate", "-n", "200", "--json",
                                           "--seed", "1"]).output)
    assert given["seed"] == 1 and list(given)[:3] == ["game", "n", "seed"]


def test_play_with_computer_bettors_who_buy_and_come_back_on_resume(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    first = runner.invoke(app, ["keirin", "play", "-p", "Ann", "--computers", "2", "--save",
                                "s", "--seed", "4", "--delay", "0", "--plain", "--db", db],
                          input="done\nn\n")
    assert first.exit_code == 0, first.output
    out = " ".join(first.output.split())
    # each computer says the tickets it buys, before Ann is asked for hers
    assert re.search(r"CPU 1 buys: win \d [\d,]+\.00\.", out), out
    assert re.search(r"CPU 2 buys: \w+ [\d=-]+ [\d,]+\.00", out), out
    saved = BetSession.load(SessionStore(tmp_path / "s.sqlite"), "s")
    assert saved.computers == {1: "cautious", 2: "sharp"}
    assert saved.races == 1 and saved.state.accounts[1].tickets == 1  # the cautious one
    again = runner.invoke(app, ["keirin", "play", "--resume", "s", "--delay", "0", "--plain",
                                "--db", db], input="done\nn\n")
    assert again.exit_code == 0, again.output
    assert "CPU 1 buys: win" in " ".join(again.output.split())  # still a computer


def test_play_refuses_too_many_computers_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "raceday", "keirin", "play", "-p", "Ann", "--computers", "9",
         "--db", str(tmp_path / "s.sqlite")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout and "computer bettors" in proc.stderr
