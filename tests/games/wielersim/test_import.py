"""Routes from real tracks (our gradient mapping): GPX and CSV, climbs, cobbles, sprints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.core.errors import InputFileError
from raceday.games.wielersim.importer import (
    build_route,
    category_of,
    parse_gpx,
    parse_track_csv,
    read_track,
    route_toml,
    steepness_of,
)
from raceday.games.wielersim.route import load_route_file

# 100 km: flat, a cobbled stretch (km 30-40), an intermediate sprint at km 50, a 4 km climb
# of 320 m (mean 8 %, steepest 10 %) topping out at km 70, flat to the line
CSV = """distance_km,elevation_m,surface,sprint,name
0,100,,,
30,100,cobbles,,Haaghoek
40,100,paved,,
50,100,,yes,Ninove
66,100,,,Muur
68,300,,,
70,420,,,
100,420,,,
"""


def test_category_and_steepness_mapping() -> None:
    assert category_of(1200, 8) == "HC" and category_of(700, 7) == "1"
    assert category_of(400, 6) == "2" and category_of(100, 6) == "3"
    assert category_of(50, 5) is None
    assert [steepness_of(g) for g in (3, 4, 5, 8, 10, 11, 20)] == [2, 2, 3, 4, 5, 6, 6]


def test_a_csv_track_maps_to_flat_cobbles_climb_and_sprint() -> None:
    route = build_route(parse_track_csv(CSV, "t.csv"), "Test")
    secs = route["sections"]
    assert sum(s["length"] for s in secs) == 100 and route["finish"] == "flat"
    cobbles = [s for s in secs if s.get("road") == "cobbles"]
    assert [(s["name"], s["length"], s["colour"]) for s in cobbles] == [("Haaghoek", 10,
                                                                         "leader")]
    (climb,) = [s for s in secs if s.get("road") == "uphill"]
    # the 4 climbing squares (10 %, 10 %, 6 %, 6 %) are lengthened backwards to 12; the
    # steepest (10 %) gives a top of 5; 320 m at a mean 8 % scores 2560: 2nd category
    assert climb["length"] == 12 and climb["colour"] == "climber"
    assert climb["max_steepness"] == 5 and climb["category"] == "2"
    assert route["sprints"] == [50]
    assert secs[-1]["colour"] == "sprinter" and secs[-1]["length"] == 20
    assert route["hierarchy"][0] == "leader"  # cobbles, no HC or 1st category climb


def test_a_summit_finish_and_a_mountain_hierarchy() -> None:
    text = "distance_km,elevation_m\n0,200\n80,200\n100,2000\n"
    route = build_route(parse_track_csv(text), "Summit")
    assert route["finish"] == "uphill" and route["sections"][-1]["category"] == "HC"
    assert route["hierarchy"][0] == "climber"
    assert route["sections"][-1]["max_steepness"] == 5  # 9 % -> 5


def test_a_gpx_track_with_a_sprint_waypoint_and_cobbled_points() -> None:
    import gpxpy.gpx

    gpx = gpxpy.gpx.GPX()
    seg = gpxpy.gpx.GPXTrackSegment()
    for k in range(0, 81):  # 80 points along a meridian, about 1.11 km apart
        point = gpxpy.gpx.GPXTrackPoint(50.0 + k * 0.01, 3.6, elevation=20 + (
            60 * (k - 70) if 70 <= k <= 72 else (120 if k > 72 else 0)))
        if 20 <= k < 25:
            point.type = "cobbles"
        seg.points.append(point)
    track = gpxpy.gpx.GPXTrack()
    track.segments.append(seg)
    gpx.tracks.append(track)
    gpx.waypoints.append(gpxpy.gpx.GPXWaypoint(50.4, 3.6, name="Sprint Ronse"))
    points = parse_gpx(gpx.to_xml(), "t.gpx")
    assert points[-1].km == pytest.approx(80 * 1.112, rel=0.01)
    assert sum(p.sprint for p in points) == 1
    route = build_route(points, "GPX")
    roads = {s.get("road", "flat") for s in route["sections"]}
    assert roads == {"flat", "cobbles", "uphill"}
    assert len(route["sprints"]) == 1


@pytest.mark.parametrize(("text", "where"), [
    ("distance,elevation_m\n0,1\n", "t.csv:1: field 'distance_km'"),
    ("distance_km,elevation_m\n0,1\n5,x\n", "t.csv:3: field 'elevation_m'"),
    ("distance_km,elevation_m\n0,1\n5,2\n4,2\n", "t.csv:4: field 'distance_km'"),
    ("distance_km,elevation_m,surface\n0,1,\n5,2,mud\n", "t.csv:3: field 'surface'"),
    ("distance_km,elevation_m,sprint\n0,1,\n5,2,maybe\n", "t.csv:3: field 'sprint'"),
    ("distance_km,elevation_m\n0,1\n5,nan\n", "t.csv:3: field 'elevation_m'"),
    ("distance_km,elevation_m\n0,1\n", "t.csv: a track needs at least two points"),
])
def test_bad_csv_tracks_name_file_line_and_field(text: str, where: str) -> None:
    with pytest.raises(InputFileError) as err:
        parse_track_csv(text, "t.csv")
    assert str(err.value).startswith(where), str(err.value)


def test_bad_gpx_files_are_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gpx"
    bad.write_text("<gpx><trk><trkseg><trkpt lat='1' lon='2'></trkpt>", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad\.gpx"):
        read_track(bad)
    no_ele = tmp_path / "noele.gpx"
    no_ele.write_text('<?xml version="1.0"?><gpx version="1.1" creator="t" '
                      'xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>'
                      '<trkpt lat="50" lon="3"></trkpt><trkpt lat="50.5" lon="3"></trkpt>'
                      '</trkseg></trk></gpx>', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"point 1 \(track 1, segment 1\): no elevation"):
        read_track(no_ele)
    with pytest.raises(InputFileError, match=r"\.gpx or \.csv"):
        read_track(tmp_path / "x.txt")


def test_route_import_command_writes_a_route_that_races(tmp_path: Path) -> None:
    track = tmp_path / "ronde.csv"
    track.write_text(CSV, encoding="utf-8")
    out, plot = tmp_path / "ronde.toml", tmp_path / "ronde.svg"
    runner = CliRunner()
    result = runner.invoke(app, ["wielersim", "route", "import", str(track), "--name",
                                 "Mini Ronde", "-o", str(out), "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "profile: " in result.output and "Haaghoek" in result.output
    assert plot.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    loaded = load_route_file(out)
    assert loaded["name"] == "Mini Ronde" and loaded["distance"] == 100
    assert route_toml(build_route(read_track(track), "Mini Ronde")) == out.read_text(
        encoding="utf-8")
    data = json.loads(runner.invoke(app, ["wielersim", "route", "import", str(track),
                                          "--json", "--squares", "60"]).output)
    assert data["route"]["distance"] == 60
    predicted = runner.invoke(app, ["wielersim", "predict", str(out), "small", "-n", "20",
                                    "--seed", "1", "--workers", "1", "--json"])
    assert predicted.exit_code == 0 and json.loads(predicted.output)["n"] == 20
    bad = runner.invoke(app, ["wielersim", "route", "import", str(track), "-o",
                              str(tmp_path / "x.txt")])
    assert bad.exit_code != 0
