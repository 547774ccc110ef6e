"""`raceday keirin odds` and `raceday keirin simulate` from the command line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from raceday.cli.main import run
from raceday.core.errors import OptionsError
from raceday.games.keirin.cli import app

runner = CliRunner()


def _json(args: list[str]) -> dict[str, object]:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    return data


def test_odds_json_has_every_bet_type_summing_to_one() -> None:
    data = _json(["odds", "--riders", "7", "--length", "60", "--json"])
    assert (data["game"], data["riders"], data["length"]) == ("keirin", 7, 60)
    sizes = {"win": 7, "exacta": 42, "quinella": 21, "trifecta": 210, "trio": 35}
    for kind, size in sizes.items():
        table = data[kind]
        assert isinstance(table, dict) and len(table) == size
        assert abs(sum(table.values()) - 1) < 1e-9
    assert "3-1" in data["exacta"] and "3-1" not in data["quinella"]  # type: ignore[operator]
    assert all(k.split("-") == sorted(k.split("-"), key=int)
               for k in data["trio"])  # type: ignore[union-attr]


def test_odds_fixed_derny_is_reported_and_changes_the_odds() -> None:
    long_pull = _json(["odds", "--derny", "18", "--json"])
    short_pull = _json(["odds", "--derny", "3", "--json"])
    assert long_pull["derny"] == 18
    assert long_pull["win"]["1"] > short_pull["win"]["1"]  # type: ignore[index]


def test_odds_table_shows_top_entries_or_all() -> None:
    top = runner.invoke(app, ["odds", "--riders", "6", "--bet", "trifecta", "--top", "4"],
                        env={"COLUMNS": "200"})
    assert top.exit_code == 0 and "trifecta (4 of 120)" in top.output
    assert "fair odds" in top.output
    every = runner.invoke(app, ["odds", "--riders", "6", "--bet", "trio", "--all"],
                          env={"COLUMNS": "200"})
    assert every.exit_code == 0 and "of 20" not in every.output
    assert sum(line.count("=") == 2 for line in every.output.splitlines()) == 20


@pytest.mark.parametrize("args", [["odds", "--bet", "place"], ["simulate", "--engine", "warp"]])
def test_bad_options_raise_options_error(args: list[str]) -> None:
    assert isinstance(runner.invoke(app, args).exception, OptionsError)


@pytest.mark.parametrize("args", [["odds", "--top", "0"], ["odds", "--riders", "5"]])
def test_bad_counts_are_usage_errors_with_exit_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["keirin", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_simulate_json_keeps_its_keys_on_both_engines(engine: str) -> None:
    data = _json(["simulate", "-n", "300", "--seed", "1", "--riders", "6", "--engine", engine,
                  "--json"])
    for key in ("game", "n", "riders", "length", "win", "win_ci95", "top2", "top2_ci95",
                "top3", "top3_ci95", "mean_turns"):
        assert key in data
    assert data["n"] == 300 and len(data["win"]) == 6  # type: ignore[arg-type]
    assert abs(sum(data["win"].values()) - 1) < 1e-12  # type: ignore[union-attr]
    assert abs(sum(data["top3"].values()) - 3) < 1e-12  # type: ignore[union-attr]


def test_simulate_same_seed_same_output() -> None:
    a = runner.invoke(app, ["simulate", "-n", "5000", "--seed", "9", "--json"]).output
    b = runner.invoke(app, ["simulate", "-n", "5000", "--seed", "9", "--json"]).output
    assert a == b
