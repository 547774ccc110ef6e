"""The one reader of files people name: regular files of bounded size only, never a wait.

Every refusal here happens before the file is opened (a named pipe is never opened, so a
test cannot hang on it); the FIFO tests still run in a subprocess with a generous timeout,
so a regression shows as a failure, not a test run that never ends.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from raceday.core.errors import InputFileError
from raceday.core.files import read_user_bytes, read_user_text

HANG_GUARD = 60  # seconds; reading a refused path takes milliseconds

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_bytes("name = \"Ronde\" # é\n".encode())
    assert read_user_text(path, kind="route") == "name = \"Ronde\" # é\n"
    assert read_user_bytes(str(path), kind="route") == path.read_bytes()


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbfdistance_km,elevation_m\n")
    assert read_user_text(path, kind="track") == "distance_km,elevation_m\n"


def test_a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "edge.txt"
    path.write_bytes(b"x" * 1000)
    assert len(read_user_bytes(path, kind="route", max_bytes=1000)) == 1000
    path.write_bytes(b"x" * 1001)
    with pytest.raises(InputFileError) as err:
        read_user_bytes(path, kind="route", max_bytes=1000)
    assert str(err.value) == (f"{path}: larger than 0.001 MB (1,000 bytes), too big for a "
                              "route file; is it the right file?")


def test_an_oversized_file_is_refused_by_its_size(tmp_path: Path) -> None:
    path = tmp_path / "big.gpx"
    with path.open("wb") as handle:  # a sparse file: 6 MB that take no disk
        handle.truncate(6_000_000)
    with pytest.raises(InputFileError, match=r"big\.gpx: larger than 5 MB \(5,000,000 bytes"):
        read_user_bytes(path, kind="track")


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputFileError) as err:
        read_user_text(tmp_path, kind="peloton")
    assert str(err.value) == (f"{tmp_path}: cannot read the peloton file: it is a directory, "
                              "not a regular file")


def test_a_missing_file_and_an_empty_path_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputFileError,
                       match=r"nope\.toml: cannot read the route file: no such file"):
        read_user_text(tmp_path / "nope.toml", kind="route")
    with pytest.raises(InputFileError, match="give a file path, not an empty text"):
        read_user_text("  ", kind="route")
    with pytest.raises(InputFileError, match="cannot read the route file"):
        read_user_text("a\x00b", kind="route")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_an_endless_device_is_refused() -> None:
    with pytest.raises(InputFileError) as err:
        read_user_bytes("/dev/zero", kind="track")
    assert str(err.value) == ("/dev/zero: cannot read the track file: it is a device, not a "
                              "regular file")


def test_bytes_that_are_not_utf8_or_hold_nul_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bin.csv"
    path.write_bytes(b"ab\xffcd")
    with pytest.raises(InputFileError) as err:
        read_user_text(path, kind="peloton")
    assert str(err.value) == (f"{path}: not a text file (byte 0xff at offset 2 is not UTF-8); "
                              "a peloton file is UTF-8 text")
    path.write_bytes(b"a\x00b")
    with pytest.raises(InputFileError, match=r"bin\.csv: not a text file \(it contains NUL"):
        read_user_text(path, kind="peloton")


@needs_fifo
def test_a_named_pipe_is_refused_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.gpx"
    os.mkfifo(fifo)
    code = ("import sys\nfrom raceday.core.errors import InputFileError\n"
            "from raceday.core.files import read_user_text\n"
            "try:\n    read_user_text(sys.argv[1], kind='track')\n"
            "except InputFileError as exc:\n    print(exc)\n    sys.exit(2)\n")
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True,
                          text=True, timeout=HANG_GUARD, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stdout.strip() == (f"{fifo}: cannot read the track file: it is a named pipe "
                                   "(FIFO), not a regular file")


@needs_fifo
def test_a_path_swapped_for_a_pipe_after_the_look_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The opened file is checked again: a regular file at stat time that is a pipe by
    the time it is opened (a race) is refused, and the non-blocking open does not wait."""
    fifo = tmp_path / "swapped.toml"
    os.mkfifo(fifo)
    regular = tmp_path / "regular.toml"
    regular.write_text("x = 1\n", encoding="utf-8")
    real_stat = os.stat

    def stat_sees_a_regular_file(path: object, *args: object, **kwargs: object
                                 ) -> os.stat_result:
        seen = regular if str(path) == str(fifo) else path
        return real_stat(seen, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat_sees_a_regular_file)
    with pytest.raises(InputFileError, match="it is a named pipe"):
        read_user_text(fifo, kind="route")


@needs_fifo
def test_pistard_track_reads_through_the_gate(tmp_path: Path) -> None:
    """PISTARD's --track uses the same reader: a named pipe is refused on one line, exit
    code 2, before the session store is created."""
    fifo = tmp_path / "track.toml"
    os.mkfifo(fifo)
    db = tmp_path / "s.sqlite"
    code = "import sys\nfrom raceday.cli.main import run\nsys.exit(run(sys.argv[1:]))\n"
    for args in (["simulate", "-n", "1", "--players", "easy,easy"],
                 ["play", "--players", "easy,easy", "--db", str(db)]):
        done = subprocess.run([sys.executable, "-c", code, "pistard", *args, "--track",
                               str(fifo)], capture_output=True, text=True,
                              timeout=HANG_GUARD, check=False, stdin=subprocess.DEVNULL)
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert done.stderr.strip() == (f"error: {fifo}: cannot read the track file: it is a "
                                       "named pipe (FIFO), not a regular file")
    assert not db.exists()
