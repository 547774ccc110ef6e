"""A CSV track's unreadable row is reported on its own line: ``csv.DictReader.line_num``
moves only after a row was read, so the line must come from the underlying reader."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from raceday.core.errors import InputFileError
from raceday.games.wielersim.importer import parse_track_csv, read_track

# a field over the CSV reader's size limit: the reader itself refuses the row (csv.Error)
UNREADABLE = "30,100," + "x" * (csv.field_size_limit() + 1)


def _track(bad_line: int) -> str:
    """A CSV track whose line ``bad_line`` (1 = the header) is unreadable."""
    lines = ["distance_km,elevation_m,surface"]
    lines += [f"{km},100," for km in range(0, 10 * 40, 10)]
    lines.insert(bad_line - 1, UNREADABLE)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("bad_line", [2, 5, 17])
def test_an_unreadable_row_is_reported_on_its_own_line(bad_line: int) -> None:
    with pytest.raises(InputFileError, match=rf"^t\.csv:{bad_line}: field 'csv': "
                                             r"not a readable CSV file"):
        parse_track_csv(_track(bad_line), "t.csv")


def test_read_track_names_the_file_and_the_unreadable_line(tmp_path: Path) -> None:
    path = tmp_path / "track.csv"
    path.write_text(_track(9), encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        read_track(path)
    assert str(caught.value).startswith(f"{path}:9: field 'csv': ")


def test_a_readable_bad_row_keeps_its_line() -> None:
    """The rows the reader can read are still named by their own line (unchanged)."""
    lines = _track(2).splitlines()
    lines[1] = "5,lots,"  # line 2: readable, but not a number
    with pytest.raises(InputFileError, match=r"^t\.csv:2: field 'elevation_m'"):
        parse_track_csv("\n".join(lines) + "\n", "t.csv")
