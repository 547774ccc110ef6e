"""The `raceday wielersim` commands, driven through Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.core.errors import RacedayError

runner = CliRunner()


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["wielersim", *args], input=input)


def test_race_draws_the_road_comments_and_prints_the_result() -> None:
    result = run("race", "flat-stage", "small", "--seed", "3", "--delay", "0")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Turn 1:" in out and "lane 5" in out
    assert "result" in out and "Sprint 1" in out
    # every rider of the peloton has a place in the table
    for number in ("41", "52", "63", "73"):
        assert number in out


def test_race_is_reproducible_with_a_seed() -> None:
    a = run("race", "ardennes", "small", "--seed", "9", "--no-road")
    b = run("race", "ardennes", "small", "--seed", "9", "--no-road")
    assert a.exit_code == 0 and a.output == b.output


def test_predict_json_has_the_documented_shape(tmp_path: Path) -> None:
    plot = tmp_path / "p.png"
    result = run("predict", "flat-stage", "small", "-n", "60", "--seed", "1", "--json",
                 "--plot", str(plot), "--workers", "1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "wielersim" and data["n"] == 60
    assert set(data["win"]) == set(data["podium"])
    assert abs(sum(data["win"].values()) - 1) < 1e-9
    assert abs(sum(data["podium"].values()) - 3) < 1e-9
    assert plot.exists() and plot.stat().st_size > 1000


def test_predict_table_by_rider_and_type() -> None:
    result = run("predict", "ardennes", "small", "-n", "40", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "By rider type" in result.output and "win" in result.output


def test_bad_input_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "r.toml"
    bad.write_text('name = "x"\nhierarchy = ["leader"]\n')
    result = run("race", str(bad), "small")
    assert result.exit_code != 0
    assert isinstance(result.exception, RacedayError)
    assert "r.toml:2: field 'hierarchy'" in str(result.exception)
    result = run("predict", "flat-stage", "small", "-n", "0")
    assert isinstance(result.exception, RacedayError)


def test_race_from_user_files(tmp_path: Path) -> None:
    from tests.games.wielersim.test_files import CSV, GOOD

    route = tmp_path / "mini.toml"
    route.write_text(GOOD)
    pel = tmp_path / "p.csv"
    pel.write_text(CSV)
    result = run("race", str(route), str(pel), "--seed", "1", "--no-road")
    assert result.exit_code == 0, result.output
    assert "Mini: 64 squares, flat finish, 6 riders" in result.output
    assert "Sprint 1 (30 to go)" in result.output
