"""The arena: seeded and alternated games, honest counts and intervals, results files, and
the command's one-line errors; the interop modules stay out of `import raceday`."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from raceday.analysis.stats import wilson_interval
from raceday.cli.main import run
from raceday.interop.arena import run_arena


def test_arena_alternates_sides_and_replays_by_seed() -> None:
    first = run_arena("hairpin", "random", "greedy", 4, seed=9, params={"variant": "short"})
    again = run_arena("hairpin", "random", "greedy", 4, seed=9, params={"variant": "short"})
    assert [r.a_seat for r in first.records] == [0, 1, 0, 1]
    assert [(r.winner, r.steps) for r in first.records] == \
        [(r.winner, r.steps) for r in again.records]
    s = first.summary()
    assert s["a_wins"] + s["b_wins"] + s["draws"] == 4
    low, high = wilson_interval(s["a_wins"], 4)
    assert s["a_win_rate_95"] == [round(low, 4), round(high, 4)]


def test_expert_beats_random_in_every_game() -> None:
    # the expert never loses to random moves on the short course (10 of 10 in practice;
    # a failure here would mean the sides or the results are mixed up)
    result = run_arena("hairpin", "hard", "random", 4, seed=1, params={"variant": "short"})
    assert result.count("a") == 4


def test_arena_against_openspiel_mcts_on_the_betting_games() -> None:
    pytest.importorskip("pyspiel")
    result = run_arena("derby", "random", "openspiel-mcts:4", 2, seed=3)
    assert len(result.records) == 2
    for r in result.records:
        assert r.a_utility >= -5 and r.b_utility >= -5


def test_arena_command_writes_csv_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    out = tmp_path / "r.csv"
    code = run(["arena", "--game", "hairpin", "--a", "greedy", "--b", "random", "-n", "2",
                "--seed", "5", "--option", "variant=short", "--out", str(out)])
    assert code == 0
    rows = list(csv.DictReader(out.open()))
    assert [r["a_seat"] for r in rows] == ["0", "1"]
    text = capsys.readouterr().out
    assert "seed 5" in text and "95% interval" in text
    js = tmp_path / "r.json"
    assert run(["arena", "-n", "1", "--seed", "5", "--option", "variant=short",
                "--out", str(js), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == 1 and json.loads(js.read_text())["records"][0]["game"] == 0


def test_arena_options_typed_as_text_become_the_parameters_types(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A game whose adapter takes its parameters from the options model gets numbers, not
    the command line's text (OpenSpiel refused 'riders_per_player=1' as a string)."""
    assert run(["arena", "--game", "pistard", "--a", "random", "--b", "random", "-n", "1",
                "--seed", "3", "--option", "riders_per_player=1"]) == 0
    assert "wins" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["arena", "--a", "nobody"],
    ["arena", "--b", "openspiel-minimax"],
    ["arena", "--game", "wielersim"],
    ["arena", "--game", "chess"],
    ["arena", "--out", "results.txt"],
    ["arena", "--option", "colour=red"],
    ["arena", "--option", "novalue"],
    ["arena", "-n", "0"],
    ["arena", "--game", "pistard", "--option", "riders_per_player=x"],
    ["arena", "--game", "pistard", "--option", "riders_per_player=1.5"],
])
def test_arena_refuses_bad_input_in_one_line(argv: list[str], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert run(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error") and "\n" not in err and "Traceback" not in err


def test_arena_refuses_a_directory_or_an_existing_file_as_output(tmp_path: Path) -> None:
    assert run(["arena", "--out", str(tmp_path)]) == 2
    kept = tmp_path / "kept.csv"
    kept.write_text("mine\n")
    assert run(["arena", "-n", "1", "--out", str(kept)]) == 2
    assert kept.read_text() == "mine\n"
    assert run(["arena", "-n", "1", "--out", str(kept), "--force"]) == 0
    assert kept.read_text().startswith("game,seed")


def test_missing_extra_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if it were not installed
    assert run(["arena", "--b", "openspiel-mcts:5"]) == 2
    err = capsys.readouterr().err
    assert "raceday[rl]" in err and err.count("\n") == 1


def test_import_raceday_and_cli_start_without_the_frameworks() -> None:
    code = ("import sys, raceday, raceday.cli.main, raceday.interop, raceday.interop.adapters\n"
            "from raceday.cli.main import run\n"
            "run(['--help'])\n"
            "bad = [m for m in ('pyspiel', 'pettingzoo', 'gymnasium', 'open_spiel') "
            "if m in sys.modules]\n"
            "print(bad)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip().endswith("[]")
