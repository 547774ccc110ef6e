"""Every number an imported track gives is bounded, and the message names the bad point:
latitudes and longitudes on the globe, elevations from -500 to 9,000 m, a track at most
500 km long; NaN and infinities are refused; a surface the game does not know (gravel)
is refused, naming the ones it knows, instead of quietly becoming flat road."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from raceday.core.errors import InputFileError
from raceday.games.wielersim.importer import (
    MAX_SPRINT_WAYPOINTS,
    MAX_TRACK_KM,
    build_route,
    parse_gpx,
    parse_track_csv,
)

HANG_GUARD = 60  # seconds; an import takes about a second


def _gpx(*segments: str, extra: str = "") -> str:
    segs = "".join(f"<trkseg>{seg}</trkseg>" for seg in segments)
    return ('<?xml version="1.0"?><gpx version="1.1" creator="t" '
            f'xmlns="http://www.topografix.com/GPX/1/1">{extra}<trk>{segs}</trk></gpx>')


def _pt(lat: object, lon: object = "4.0", ele: object = "10", inner: str = "") -> str:
    return f'<trkpt lat="{lat}" lon="{lon}"><ele>{ele}</ele>{inner}</trkpt>'


# 0.5 degrees of latitude apart: about 55.6 km between points, 100 km in all
GOOD_POINTS = [_pt(50.0), _pt(50.5), _pt(50.9)]


def test_a_good_gpx_track_still_imports() -> None:
    points = parse_gpx(_gpx("".join(GOOD_POINTS)), "t.gpx")
    assert points[-1].km == pytest.approx(100, rel=0.01)
    assert sum(s["length"] for s in build_route(points, "ok")["sections"]) == 100


@pytest.mark.parametrize(("point", "message"), [
    (_pt(50.5, ele="1e308"), "elevation 1e+308 m is outside -500 to 9,000 m"),
    (_pt(50.5, ele="9e15"), "elevation 9e+15 m is outside -500 to 9,000 m"),
    (_pt(50.5, ele="9000.5"), "elevation 9000.5 m is outside -500 to 9,000 m"),
    (_pt(50.5, ele="-501"), "elevation -501 m is outside -500 to 9,000 m"),
    (_pt(50.5, ele="nan"), "elevation nan m is outside -500 to 9,000 m"),
    (_pt(50.5, ele="inf"), "elevation inf m is outside -500 to 9,000 m"),
    (_pt(50.5, ele="-inf"), "elevation -inf m is outside -500 to 9,000 m"),
    (_pt("95"), "latitude 95 is outside -90 to 90"),
    (_pt("nan"), "latitude nan is outside -90 to 90"),
    (_pt(50.5, lon="-180.5"), "longitude -180.5 is outside -180 to 180"),
    (_pt(50.5, lon="inf"), "longitude inf is outside -180 to 180"),
    (_pt(50.5, inner="<type>gravel</type>"), "<type>: unknown surface 'gravel'; the game "
     "knows paved road (paved, asphalt, road, tarmac, flat or nothing) and cobbles (cobbles"),
])
def test_a_bad_gpx_point_is_named_with_its_track_and_segment(point: str, message: str
                                                              ) -> None:
    text = _gpx(GOOD_POINTS[0], _pt(50.2) + point + GOOD_POINTS[2])
    with pytest.raises(InputFileError) as err:
        parse_gpx(text, "t.gpx")
    assert str(err.value) == f"t.gpx: point 2 (track 1, segment 2): {message}" or (
        message.startswith("<type>") and str(err.value).startswith(
            f"t.gpx: point 2 (track 1, segment 2): {message}")), str(err.value)


def test_route_points_and_sprint_waypoints_are_checked_too() -> None:
    route = ('<?xml version="1.0"?><gpx version="1.1" creator="t" '
             'xmlns="http://www.topografix.com/GPX/1/1"><rte>'
             '<rtept lat="50" lon="4"><ele>10</ele></rtept>'
             '<rtept lat="50.5" lon="4"><ele>1e308</ele></rtept></rte></gpx>')
    with pytest.raises(InputFileError, match=r"t\.gpx: route point 2 \(route 1\): elevation "
                       r"1e\+308 m is outside"):
        parse_gpx(route, "t.gpx")
    waypoint = '<wpt lat="91" lon="4"><name>Sprint Ninove</name></wpt>'
    with pytest.raises(InputFileError, match=r"t\.gpx: waypoint 1 \('Sprint Ninove'\): "
                       "latitude 91 is outside -90 to 90"):
        parse_gpx(_gpx("".join(GOOD_POINTS), extra=waypoint), "t.gpx")
    many = '<wpt lat="50" lon="4"><name>sprint</name></wpt>' * (MAX_SPRINT_WAYPOINTS + 1)
    with pytest.raises(InputFileError, match=f"at most {MAX_SPRINT_WAYPOINTS}"):
        parse_gpx(_gpx("".join(GOOD_POINTS), extra=many), "t.gpx")


def test_a_track_longer_than_500_km_is_refused_at_the_point_that_passes_it() -> None:
    # 5 degrees of latitude between points: about 557 km, already too far at point 2;
    # a track around half the globe (about 16,600 km) stops there too
    far = _gpx(_pt(0.0, lon="0") + _pt(5.0, lon="0") + _pt(-50.0, lon="170"))
    with pytest.raises(InputFileError) as err:
        parse_gpx(far, "t.gpx")
    assert str(err.value) == ("t.gpx: point 2 (track 1, segment 1) is 556.6 km along the "
                              f"track; a track is at most {MAX_TRACK_KM:g} km")
    # 9 points 0.5 degrees apart (445.3 km) pass; the 10th (500.9 km) does not
    near = _gpx("".join(_pt(50 + 0.5 * k) for k in range(10)))
    with pytest.raises(InputFileError, match=r"point 10 \(track 1, segment 1\) is 500\.9 km"):
        parse_gpx(near, "t.gpx")
    assert parse_gpx(_gpx("".join(_pt(50 + 0.5 * k) for k in range(9))), "t.gpx")


@pytest.mark.parametrize(("row", "message"), [
    ("50,1e308", "field 'elevation_m': 1e+308 m is outside -500 to 9,000 m"),
    ("50,9000.5", "field 'elevation_m': 9000.5 m is outside -500 to 9,000 m"),
    ("50,inf", "field 'elevation_m': must be a number, got 'inf'"),
    ("50,NaN", "field 'elevation_m': must be a number, got 'NaN'"),
    ("50,1_000", "field 'elevation_m': must be a number, got '1_000'"),
    ("50,١٠", "field 'elevation_m': must be a number, got '١٠'"),
    ("50," + "9" * 400, "field 'elevation_m': must be a finite number, got '999"),
    ("16642,10", "field 'distance_km': 16642 km is outside 0 to 500 km (a track is at "
     "most 500 km)"),
    ("50,10,gravel", "field 'surface': unknown surface 'gravel'; the game knows paved road"),
    ("50,10,dirt", "field 'surface': unknown surface 'dirt'"),
])
def test_a_bad_csv_row_is_named_by_line_and_field(row: str, message: str) -> None:
    text = f"distance_km,elevation_m,surface\n0,10,\n{row}\n100,10,\n"
    with pytest.raises(InputFileError) as err:
        parse_track_csv(text, "t.csv")
    assert str(err.value).startswith(f"t.csv:3: {message}"), str(err.value)


def test_known_surfaces_in_any_case_still_map() -> None:
    text = ("distance_km,elevation_m,surface\n0,10,Paved\n30,10,KASSEIEN\n40,10,asphalt\n"
            "100,10, Cobbles \n")
    points = parse_track_csv(text, "t.csv")
    assert [p.cobbles for p in points] == [False, True, False, True]


def test_the_cli_refuses_an_absurd_elevation_on_one_line(tmp_path: Path) -> None:
    """Before the bounds this crashed with OverflowError (or looped forever on the NaN
    gradient infinity minus infinity makes); now: one line, exit code 2."""
    track = tmp_path / "alp.gpx"
    track.write_text(_gpx(GOOD_POINTS[0] + _pt(50.1, ele="1e308") + GOOD_POINTS[2]),
                     encoding="utf-8")
    code = "import sys\nfrom raceday.cli.main import run\nsys.exit(run(sys.argv[1:]))\n"
    done = subprocess.run([sys.executable, "-c", code, "wielersim", "route", "import",
                           str(track)], capture_output=True, text=True, timeout=HANG_GUARD,
                          check=False, env={**os.environ, "COLUMNS": "300"})
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip() == (f"error: {track}: point 2 (track 1, segment 1): elevation "
                                   "1e+308 m is outside -500 to 9,000 m")


def test_point_names_with_line_breaks_and_quotes_write_a_route_file_that_reads_back(
        tmp_path: Path) -> None:
    """A CSV or GPX name may hold a line break, a tab, a quote or a backslash; the written
    route must still be TOML (a raw line break in a TOML string is not)."""
    from raceday.games.wielersim.importer import route_toml
    from raceday.games.wielersim.route import load_route_file

    name = 'Kwaremont\n"oud"\t\\ \x7f é'
    quoted = '"' + name.replace('"', '""') + '"'
    text = ("distance_km,elevation_m,surface,name\n0,10,,\n"
            f"30,10,cobbles,{quoted}\n40,10,,\n100,10,,\n")
    route = build_route(parse_track_csv(text, "t.csv"), 'Ronde "mini"\n2026')
    out = tmp_path / "r.toml"
    out.write_text(route_toml(route), encoding="utf-8")
    loaded = load_route_file(out)
    assert loaded["name"] == 'Ronde "mini"\n2026'
    assert name in [s["name"] for s in loaded["sections"]]
