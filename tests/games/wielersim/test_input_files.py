"""Every WielerSIM file reader goes through one gate (raceday.core.files): a named pipe,
a device, a directory or an oversized file is refused on one line with exit code 2, before
any work, and never waited on.

The commands run in a subprocess with a hang guard far above their normal time (a second
or two), so a reader that opened a pipe again would fail the test instead of hanging it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HANG_GUARD = 60  # seconds

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


def _raceday(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys\nfrom raceday.cli.main import run\nsys.exit(run(sys.argv[1:]))\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True, timeout=HANG_GUARD, check=False, cwd=cwd,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def _one_line_exit_2(done: subprocess.CompletedProcess[str], needle: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert needle in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def _commands(tmp_path: Path, db: Path) -> list[tuple[str, tuple[str, ...]]]:
    """Every command that reads a WielerSIM file the user names: (file name, arguments),
    ``{}`` in the arguments standing for the file."""
    out = str(tmp_path / "out.pdf")
    return [
        ("route.toml", ("wielersim", "watch", "{}", "small", "--seed", "1", "--delay", "0")),
        ("peloton.csv", ("wielersim", "watch", "flanders", "{}", "--seed", "1", "--delay",
                         "0")),
        ("route.toml", ("wielersim", "predict", "{}", "small", "-n", "5", "--workers", "1")),
        ("peloton.toml", ("wielersim", "predict", "flanders", "small", "-n", "5", "--workers",
                          "1", "--compare", "peloton={}")),
        ("tour.toml", ("wielersim", "tour", "{}", "small", "--auto", "--db", str(db))),
        ("peloton.csv", ("wielersim", "tour", "ronde-van-belgie", "{}", "--auto", "--db",
                         str(db))),
        ("tour.toml", ("wielersim", "predict-tour", "{}", "small", "-n", "1", "--workers",
                       "1")),
        ("track.gpx", ("wielersim", "route", "import", "{}")),
        ("track.csv", ("wielersim", "route", "import", "{}")),
        ("track.gpx", ("print", "wielersim", "--route", "{}", "--out", out)),
        ("route.toml", ("print", "wielersim", "--route", "{}", "--out", out)),
        ("peloton.csv", ("print", "wielersim", "--peloton", "{}", "--out", out)),
    ]


@needs_fifo
def test_a_named_pipe_is_refused_by_every_reader(tmp_path: Path) -> None:
    db = tmp_path / "tours.sqlite"
    for name, args in _commands(tmp_path, db):
        fifo = tmp_path / name
        if not fifo.exists():
            os.mkfifo(fifo)
        done = _raceday(*(a.replace("{}", str(fifo)) for a in args), cwd=tmp_path)
        _one_line_exit_2(done, f"{fifo}: cannot read the")
        assert "it is a named pipe (FIFO), not a regular file" in done.stderr, (args,
                                                                                done.stderr)
    assert not db.exists()  # refused before the store was opened
    assert not (tmp_path / "out.pdf").exists()


@needs_fifo
def test_a_stage_route_given_as_a_pipe_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "stage1.toml"
    os.mkfifo(fifo)
    tour = tmp_path / "tour.toml"
    tour.write_text('name = "Pipe Tour"\n\n[[stages]]\nname = "one"\nroute = "stage1.toml"\n',
                    encoding="utf-8")
    done = _raceday("wielersim", "predict-tour", str(tour), "small", "-n", "1", "--workers",
                    "1", cwd=tmp_path)
    _one_line_exit_2(done, "it is a named pipe (FIFO), not a regular file")
    assert "stage 1" in done.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_dev_zero_is_refused(tmp_path: Path) -> None:
    for args in (("wielersim", "watch", "/dev/zero", "small", "--delay", "0"),
                 ("wielersim", "watch", "flanders", "/dev/zero", "--delay", "0")):
        done = _raceday(*args, cwd=tmp_path)
        _one_line_exit_2(done, "/dev/zero: cannot read the")
        assert "it is a device, not a regular file" in done.stderr


def test_a_directory_track_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "track.gpx"
    folder.mkdir()
    done = _raceday("wielersim", "route", "import", str(folder), cwd=tmp_path)
    _one_line_exit_2(done, f"{folder}: cannot read the track file: it is a directory")


def test_an_oversized_track_is_refused_before_reading(tmp_path: Path) -> None:
    from raceday.games.wielersim.importer import MAX_TRACK_BYTES

    big = tmp_path / "big.gpx"
    with big.open("wb") as handle:  # sparse: no disk used
        handle.truncate(MAX_TRACK_BYTES + 1)
    done = _raceday("wielersim", "route", "import", str(big), cwd=tmp_path)
    _one_line_exit_2(done, f"{big}: larger than 5 MB (5,000,000 bytes), too big for a track "
                     "file")
