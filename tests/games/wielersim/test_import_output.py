"""``raceday wielersim route import --out FILE`` checks FILE's folder before any work:
a missing, non-folder or unwritable folder is refused (exit 2, one line) before the track
is read, not after the import."""

from __future__ import annotations

from pathlib import Path

import pytest

from raceday.cli.main import run
from raceday.games.wielersim import importer
from tests.cli.test_read_only_db import read_only


def _gpx(path: Path) -> Path:
    """A 50 km GPX track along a meridian, with one climb: a track that imports."""
    import gpxpy.gpx

    gpx = gpxpy.gpx.GPX()
    seg = gpxpy.gpx.GPXTrackSegment()
    for k in range(0, 46):  # about 1.11 km apart
        seg.points.append(gpxpy.gpx.GPXTrackPoint(
            50.0 + k * 0.01, 3.6, elevation=20 + (60 * (k - 35) if 35 <= k <= 37 else
                                                  (120 if k > 37 else 0))))
    track = gpxpy.gpx.GPXTrack()
    track.segments.append(seg)
    gpx.tracks.append(track)
    path.write_text(gpx.to_xml(), encoding="utf-8")
    return path


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str | Path]:
    """The tracks the command read (the import's first work)."""
    seen: list[str | Path] = []
    real = importer.read_track

    def spy(track: str | Path) -> list[importer.Point]:
        seen.append(track)
        return real(track)

    monkeypatch.setattr(importer, "read_track", spy)
    return seen


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = run(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert out == ""  # no sections table: nothing was imported
    return err


def test_the_track_imports_into_an_existing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reads: list[str | Path]
) -> None:
    track = _gpx(tmp_path / "ronde.gpx")
    out = tmp_path / "ronde.toml"
    assert run(["wielersim", "route", "import", str(track), "-o", str(out)]) == 0
    assert "route written to" in capsys.readouterr().out
    assert out.read_text(encoding="utf-8") and reads == [str(track)]


def test_a_missing_output_folder_is_refused_before_the_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reads: list[str | Path]
) -> None:
    track = _gpx(tmp_path / "ronde.gpx")
    out = tmp_path / "no such folder" / "ronde.toml"
    err = _refused(capsys, ["wielersim", "route", "import", str(track), "--out", str(out)])
    assert "--out" in err and "does not exist" in err, err
    assert reads == []
    assert not out.parent.exists()


def test_an_output_folder_that_is_a_file_is_refused_before_the_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reads: list[str | Path]
) -> None:
    track = _gpx(tmp_path / "ronde.gpx")
    (tmp_path / "routes").write_text("not a folder", encoding="utf-8")
    err = _refused(capsys, ["wielersim", "route", "import", str(track), "-o",
                            str(tmp_path / "routes" / "ronde.toml")])
    assert "--out" in err and "not a folder" in err, err
    assert reads == []


def test_an_unwritable_output_folder_is_refused_before_the_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reads: list[str | Path]
) -> None:
    track = _gpx(tmp_path / "ronde.gpx")
    folder = tmp_path / "routes"
    folder.mkdir()
    with read_only(folder):
        err = _refused(capsys, ["wielersim", "route", "import", str(track), "-o",
                                str(folder / "ronde.toml")])
    assert "--out" in err and "not writable" in err, err
    assert reads == [] and not (folder / "ronde.toml").exists()
