"""``raceday print`` fed odd games, parts, options and files ends with exit code 0 or 2,
one line and no traceback (the shape of tests/test_cli_fuzz.py, aimed at this command)."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raceday.cli.main import run
from raceday.printing.catalog import games

PRINTING = games()  # every game that prints, found from the game packages
GAMES = [*PRINTING, "chess", "", "KEIRIN", "³"]
PARTS = [*sorted({p.name for info in PRINTING.values() for p in info.parts}), "nothing", "",
         "ODDS"]
ODD_TEXT = st.sampled_from(["nan", "inf", "-1", "0", "0.5", "1/20", "1e308", "", "abc", "٣",
                            "2", "0.1", "1"])
INTS = st.sampled_from(["-1", "0", "6", "9", "10", "19", "1000", "1001", "4", "7", "nan", "",
                        "³", "1_000"])


@pytest.fixture(scope="module")
def odd_files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    root = tmp_path_factory.mktemp("print-fuzz")
    made = {"random.toml": bytes((i * 7919 + 13) % 256 for i in range(2048)),
            "empty.csv": b"", "deep.toml": b"a = " + b"[" * 50_000 + b"]" * 50_000 + b"\n",
            "latin1.gpx": "número".encode("latin-1")}
    paths = []
    for name, data in made.items():
        (root / name).write_bytes(data)
        paths.append(str(root / name))
    (root / "folder").mkdir()
    return [*paths, str(root / "folder"), str(root / "missing" / "x.toml")]


def _option(flag: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.one_of(st.just([]), values.map(lambda v: [flag, v]))


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_print_survives_odd_input(data: st.DataObject, odd_files: list[str],
                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    out_dir = tmp_path_factory.mktemp("out")
    files = st.sampled_from(odd_files)
    argv = ["print", data.draw(st.sampled_from(GAMES))]
    argv += data.draw(st.one_of(st.just([]), st.sampled_from(PARTS).map(lambda p: [p])))
    argv += data.draw(_option("--paper", st.sampled_from(["a4", "letter", "A4", "a3", ""])))
    argv += data.draw(_option("--track", st.one_of(st.sampled_from(["default", "short"]),
                                                   files)))
    argv += data.draw(_option("--riders", INTS))
    argv += data.draw(_option("--length", INTS))
    argv += data.draw(_option("--margin", ODD_TEXT))
    argv += data.draw(_option("--fall-rate", ODD_TEXT))
    argv += data.draw(_option("--races", INTS))
    argv += data.draw(_option("--route", st.one_of(st.sampled_from(["flanders", "ardennes"]),
                                                   files)))
    argv += data.draw(_option("--peloton", st.one_of(st.sampled_from(["small", "classics"]),
                                                     files)))
    target = data.draw(st.sampled_from([str(out_dir), str(out_dir / "p.svg"),
                                        str(out_dir / "p.txt"), odd_files[0] + "/x.pdf", ""]))
    argv += ["--out", target]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = run(argv)
    shown = f"raceday {argv}\n{out.getvalue()}{err.getvalue()}"
    assert code in (0, 2), shown
    assert "Traceback" not in shown
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1, shown
    else:
        assert any(Path(out_dir).iterdir()), shown
