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


def test_watch_draws_the_road_comments_and_prints_the_result() -> None:
    result = run("watch", "flat-stage", "small", "--seed", "3", "--delay", "0")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Turn 1:" in out and "lane 5" in out
    assert "result" in out and "Sprint 1" in out
    # every rider of the peloton has a place in the table
    for number in ("41", "52", "63", "73"):
        assert number in out


def test_watch_is_reproducible_with_a_seed() -> None:
    a = run("watch", "ardennes", "small", "--seed", "9", "--no-road")
    b = run("watch", "ardennes", "small", "--seed", "9", "--no-road")
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
    result = run("watch", str(bad), "small")
    assert result.exit_code != 0
    assert isinstance(result.exception, RacedayError)
    assert "r.toml:2: field 'hierarchy'" in str(result.exception)
    result = run("predict", "flat-stage", "small", "-n", "0")
    assert result.exit_code == 2 and "-n" in result.output


def test_watch_from_user_files(tmp_path: Path) -> None:
    from tests.games.wielersim.test_files import CSV, GOOD

    route = tmp_path / "mini.toml"
    route.write_text(GOOD)
    pel = tmp_path / "p.csv"
    pel.write_text(CSV)
    result = run("watch", str(route), str(pel), "--seed", "1", "--no-road")
    assert result.exit_code == 0, result.output
    assert "Mini: 64 squares, flat finish, 6 riders" in result.output
    assert "Sprint 1 (30 to go)" in result.output


# --- hardening: options, files, interruptions, plots, ordering -------------------------------
import pytest  # noqa: E402

from raceday.cli.main import run as run_main  # noqa: E402

BAD_OPTIONS = [
    ["race", "flat-stage", "small", "--width", "9"],  # the old name checks the same options
    ["watch", "flat-stage", "small", "--seed", "-1"],
    ["watch", "flat-stage", "small", "--delay", "inf"],
    ["watch", "flat-stage", "small", "--delay", "nan"],
    ["watch", "flat-stage", "small", "--delay", "-1"],
    ["watch", "flat-stage", "small", "--width", "9"],
    ["watch", "flat-stage", "small", "--width", "121"],
    ["predict", "flat-stage", "small", "-n", "0"],
    ["predict", "flat-stage", "small", "-n", "-5"],
    ["predict", "flat-stage", "small", "-n", "1000001"],
    ["predict", "flat-stage", "small", "--workers", "0"],
    ["predict", "flat-stage", "small", "--workers", "33"],
    ["predict", "flat-stage", "small", "--top", "0"],
    ["predict", "flat-stage", "small", "--seed", "-1"],
    ["predict-tour", "ronde-van-belgie", "small", "--workers", "0"],
    ["predict-tour", "ronde-van-belgie", "small", "--top", "0"],
    ["predict-tour", "ronde-van-belgie", "small", "-n", "0"],
    ["predict-tour", "ronde-van-belgie", "small", "-n", "100001"],
    ["tour", "ronde-van-belgie", "small", "--seed", "-1", "--auto"],
    ["tour", "ronde-van-belgie", "small", "--delay", "inf", "--auto"],
    ["standings", "x", "--top", "-3"],
]


@pytest.mark.parametrize("args", BAD_OPTIONS, ids=[" ".join(a[:1] + a[3:]) for a in BAD_OPTIONS])
def test_bad_options_are_one_line_errors_with_exit_2(args: list[str], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    db = tmp_path / "s.sqlite"
    extra = ["--db", str(db)] if args[0] in ("tour", "standings") else []
    assert run_main(["wielersim", *args, *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert not db.exists()  # nothing written to the store


def test_db_must_be_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(["wielersim", "tour", "ronde-van-belgie", "small", "--auto",
                     "--db", str(tmp_path)]) == 2
    assert "directory" in capsys.readouterr().err


def test_tour_checks_everything_before_writing_to_the_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.sqlite"
    bad_peloton = tmp_path / "p.csv"
    bad_peloton.write_text("team,number,name,type\nA,1,X,wizard\n")
    cases = [["ronde-van-belgie", str(bad_peloton)],
             [str(tmp_path / "missing.toml"), "small"],
             ["ronde-van-belgie", "small", "--save", "  "],
             ["ronde-van-belgie", "small", "--resume", "x"]]
    for case in cases:
        assert run_main(["wielersim", "tour", *case, "--auto", "--db", str(db)]) == 2, case
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1, err
        assert not db.exists(), case


def test_ctrl_c_during_a_tour_says_what_was_kept_and_how_to_resume(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from raceday.games.wielersim.campaign import Campaign

    db = tmp_path / "my races.sqlite"
    real = Campaign.ride  # rides a stage and saves its record
    calls = {"n": 0}

    def interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(Campaign, "ride", interrupted)
    code = run_main(["wielersim", "tour", "ronde-van-belgie", "small", "--seed", "4",
                     "--save", "my tour", "--auto", "--db", str(db)])
    assert code == 130
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "Saved: 2 of 6 stages of 'my tour'" in err
    assert err.endswith(f"resume with: raceday wielersim tour --resume 'my tour' --db '{db}'")
    monkeypatch.setattr(Campaign, "ride", real)
    assert run_main(["wielersim", "tour", "--resume", "my tour", "--auto",
                     "--db", str(db)]) == 0
    assert "Resuming 'my tour': 2 of 6 stages done." in capsys.readouterr().out


def _column(table, name: str) -> list[float]:  # type: ignore[no-untyped-def]
    column = next(c for c in table.columns if c.header == name)
    return [float(str(cell).split("%")[0]) for cell in column.cells]


def test_prediction_tables_are_sorted_by_probability() -> None:
    from raceday.games.wielersim.cli import _prediction_table, _type_table
    from raceday.games.wielersim.predict import predict
    from raceday.games.wielersim.rules import peloton_spec, route_spec

    pred = predict(route_spec("ardennes"), peloton_spec("classics"), 200, seed=3, workers=1)
    riders = _column(_prediction_table(pred, 36), "win")
    assert len(riders) == 36 and riders == sorted(riders, reverse=True)
    assert riders[0] > riders[-1]
    types = _column(_type_table(pred), "win")
    assert len(types) == 4 and types == sorted(types, reverse=True)
    data = json.loads(run("predict", "ardennes", "classics", "-n", "200", "--seed", "3",
                          "--workers", "1", "--json").output)
    for key in ("win", "podium", "top10", "win_by_type"):
        values = list(data[key].values())
        assert values == sorted(values, reverse=True), key
    assert list(data["win"].values()) == [w / 100 for w in riders]  # same order, same n
    tour = json.loads(run("predict-tour", "ronde-van-belgie", "small", "-n", "20", "--seed",
                          "1", "--workers", "1", "--json").output)
    for key in ("gc", "points", "mountains"):
        values = list(tour[key].values())
        assert values and values == sorted(values, reverse=True), key


def test_plot_with_chances_of_zero_and_one(tmp_path: Path) -> None:
    """A rider who wins every race and riders who win none: Wilson intervals stay inside
    [0, 1] and contain the estimate, so matplotlib gets no negative error bar."""
    import numpy as np

    from raceday.analysis.stats import wilson_interval
    from raceday.games.wielersim.plots import plot_prediction, win_bars
    from raceday.games.wielersim.predict import Prediction
    from raceday.games.wielersim.rules import route_spec

    for n in (1, 7, 20, 1000):
        lo, hi = wilson_interval(0, n)
        assert lo == 0.0 and 0 < hi < 1
        lo, hi = wilson_interval(n, n)
        assert hi == 1.0 and 0 < lo < 1
        for k in range(0, n + 1, max(1, n // 10)):
            lo, hi = wilson_interval(k, n)
            assert 0 <= lo <= k / n <= hi <= 1
    pred = Prediction(n=20, numbers=[1, 2, 3], names=["A", "B", "C"],
                      types=["leader", "sprinter", "helper"], wins=np.array([20, 0, 0]),
                      podiums=np.array([20, 20, 20]), top10=np.array([20, 20, 20]))
    probs, below, above = win_bars(pred, [0, 1, 2])
    assert probs == [1.0, 0.0, 0.0]
    assert below[0] > 0 and above[0] == 0 and below[1] == 0 and above[1] > 0
    assert min(below + above) >= 0
    out = tmp_path / "p.png"
    plot_prediction(route_spec("flat-stage"), pred, out)
    assert out.stat().st_size > 1000


def test_predict_plot_on_a_tiny_run_has_zero_chances(tmp_path: Path) -> None:
    out = tmp_path / "p.png"
    result = run("predict", "flat-stage", "small", "-n", "20", "--seed", "1", "--plot",
                 str(out), "--workers", "1")
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 1000


# --- one naming scheme, one seed rule -------------------------------------------------------
def _seed_of(output: str) -> int:
    line = next(x for x in output.splitlines() if x.startswith("seed "))
    return int(line.split()[1])


def test_predictions_without_a_seed_use_a_fresh_one_and_say_which() -> None:
    args = ["predict", "flat-stage", "small", "-n", "30", "--workers", "1"]
    first, second = run(*args), run(*args)
    assert first.exit_code == 0 and second.exit_code == 0, first.output
    seed = _seed_of(first.output)
    assert seed != _seed_of(second.output)  # two draws of 63 bits differ
    again = run(*args, "--seed", str(seed))
    assert again.output == first.output
    data = json.loads(run(*args, "--json").output)
    replay = json.loads(run(*args, "--json", "--seed", str(data["seed"])).output)
    assert replay == data and isinstance(data["seed"], int)
    assert json.loads(run(*args, "--json", "--seed", "7").output)["seed"] == 7


def test_tour_predictions_without_a_seed_use_a_fresh_one_and_say_which() -> None:
    args = ["predict-tour", "ronde-van-belgie", "small", "-n", "2", "--workers", "1"]
    data = json.loads(run(*args, "--json").output)
    assert list(data)[:3] == ["game", "n", "seed"] and data["n"] == 2
    assert json.loads(run(*args, "--json", "--seed", str(data["seed"])).output) == data
    table = run(*args, "--seed", "11")
    assert table.exit_code == 0 and _seed_of(table.output) == 11
