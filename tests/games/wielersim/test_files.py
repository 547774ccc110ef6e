"""Route and peloton files: the shipped examples load; mistakes name file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from raceday.core.errors import InputFileError
from raceday.games.wielersim.model import COBBLES, UPHILL
from raceday.games.wielersim.peloton import (
    SHIPPED_PELOTONS,
    load_peloton_file,
    parse_peloton_csv,
    parse_peloton_toml,
    shipped_peloton,
)
from raceday.games.wielersim.route import (
    SHIPPED_ROUTES,
    compile_route,
    load_route_file,
    parse_route_text,
    ramp,
    shipped_route,
)

GOOD = """name = "Mini"
finish = "flat"
hierarchy = ["leader", "sprinter", "helper", "climber"]
sprints = [30]

[[sections]]
length = 40
colour = "green"

[[sections]]
length = 14
colour = "climber"
road = "uphill"
category = "C2"

[[sections]]
length = 10
colour = "yellow"
road = "cobbles"
"""


def test_shipped_routes_and_pelotons_load() -> None:
    for name in SHIPPED_ROUTES:
        spec = shipped_route(name)
        compiled = compile_route(spec)
        assert compiled.distance == spec["distance"]
    kinds = {compile_route(shipped_route(n)).finish for n in SHIPPED_ROUTES}
    assert kinds == {"flat", "uphill"}
    assert any(COBBLES in compile_route(shipped_route(n)).road for n in SHIPPED_ROUTES)
    classics = shipped_peloton("classics")
    assert len(classics["teams"]) == 9 and len(classics["riders"]) == 36
    assert set(SHIPPED_PELOTONS) == {"classics", "small"}


def test_route_compiles_squares_colours_and_markers() -> None:
    spec = parse_route_text(GOOD, "mini.toml")
    assert spec["distance"] == 64 and spec["sections"][1]["category"] == "2"
    c = compile_route(spec)
    assert c.road[39] == 0 and c.road[40] == UPHILL and c.road[54] == COBBLES
    assert c.steepness[40:54] == tuple(ramp(14, 4))
    assert c.steepness[53] == 4  # the category's maximum at the top
    assert c.climbs[0].top == 54 and c.sprints == (34,)
    assert c.width[54] == 4 and c.width[53] == 6
    assert len({c.roughness(1)[p] for p in range(54, 64)}) > 1  # spread at random ...
    assert c.roughness(1) == c.roughness(1)  # ... but fixed by the layout
    assert c.roughness(1) != c.roughness(2)


def test_ramp_rises_to_the_maximum() -> None:
    assert ramp(12, 6) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    assert ramp(14, 5)[-1] == 5 and min(ramp(14, 5)) == 1


@pytest.mark.parametrize(("change", "message"), [
    (('colour = "green"', 'colour = "purple"'), "mini.toml:8: field 'sections[0].colour'"),
    (('length = 14', 'length = 9'), "mini.toml:11: field 'sections[1].length'"),
    (('category = "C2"', 'category = "4"'), "mini.toml:14: field 'sections[1].category'"),
    (('hierarchy = ["leader", "sprinter", "helper", "climber"]', 'hierarchy = ["leader"]'),
     "mini.toml:3: field 'hierarchy'"),
    (('finish = "flat"', 'finish = "downhill"'), "mini.toml:2: field 'finish'"),
    (('sprints = [30]', 'sprints = [300]'), "mini.toml:4: field 'sprints'"),
    (('road = "cobbles"', 'road = "gravel"'), "mini.toml:19: field 'sections[2].road'"),
])
def test_route_errors_name_file_line_and_field(change: tuple[str, str], message: str) -> None:
    with pytest.raises(InputFileError) as err:
        parse_route_text(GOOD.replace(*change), "mini.toml")
    assert message in str(err.value)


def test_a_climb_top_inside_the_flying_start_is_refused() -> None:
    text = GOOD.replace("length = 40", "length = 8").replace("length = 10", "length = 40")
    with pytest.raises(InputFileError, match=r"mini\.toml:10: field 'sections\[1\]'"):
        parse_route_text(text, "mini.toml")


def test_route_needs_uphill_for_an_uphill_finish_and_bad_toml_is_reported() -> None:
    with pytest.raises(InputFileError, match="uphill finish"):
        parse_route_text(GOOD.replace('finish = "flat"', 'finish = "uphill"'), "x.toml")
    with pytest.raises(InputFileError, match="not valid TOML"):
        parse_route_text("name = ", "x.toml")
    with pytest.raises(InputFileError, match="cannot read"):
        load_route_file("/nonexistent/route.toml")


def test_to_go_sections_must_end_at_the_line(tmp_path: Path) -> None:
    text = shipped_route_text_mountain().replace("to_go = 0", "to_go = 3")
    with pytest.raises(InputFileError, match="to_go = 0"):
        parse_route_text(text, "m.toml")


def shipped_route_text_mountain() -> str:
    from raceday.games.wielersim.route import shipped_route_text

    return shipped_route_text("mountain-stage")


CSV = """team,number,name,type
A,1,Ann,leader
A,2,Bo,sprinter
A,3,Cy,helper
B,4,Di,leader
B,5,Ed,sprinter
B,6,Fa,climber
"""


def test_peloton_csv_and_toml(tmp_path: Path) -> None:
    spec = parse_peloton_csv(CSV, "p.csv")
    assert [r["number"] for r in spec["riders"]] == [1, 2, 3, 4, 5, 6]
    toml = """jersey = 2
[[teams]]
name = "A"
colour = "red"
[[teams.riders]]
number = 1
name = "Ann"
type = "yellow"
[[teams.riders]]
number = 2
name = "Bo"
type = "green"
[[teams.riders]]
number = 3
name = "Cy"
type = "blue"
"""
    spec = parse_peloton_toml(toml, "p.toml")
    assert spec["jersey"] == 2 and spec["riders"][0]["type"] == "leader"
    path = tmp_path / "p.toml"
    path.write_text(toml)
    assert load_peloton_file(path) == spec


@pytest.mark.parametrize(("text", "message"), [
    (CSV.replace("A,2,Bo,sprinter", "A,2,Bo,domestique"), "p.csv:3: field 'type'"),
    (CSV.replace("B,5,Ed", "B,4,Ed"), "p.csv:6: field 'number'"),
    (CSV.replace("A,3,Cy,helper\n", ""), "p.csv:2: field 'team'"),
    (CSV.replace("B,6,Fa,climber", "B,6,Fa,leader"), "field 'type'"),
    (CSV.replace("team,number", "ploeg,number"), "p.csv:1: field 'team'"),
    (CSV.replace("A,1,Ann", "A,x1,Ann"), "p.csv:2: field 'number'"),
    (CSV.replace("A,2,Bo,sprinter", "A,2,Bo,sprinter,red,no,extra"), "p.csv:3: field 'columns'"),
])
def test_peloton_errors_name_file_line_and_field(text: str, message: str) -> None:
    with pytest.raises(InputFileError) as err:
        parse_peloton_csv(text, "p.csv")
    assert message in str(err.value)


def test_files_that_are_not_text_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(InputFileError, match="not UTF-8"):
        load_peloton_file(bad)
    with pytest.raises(InputFileError, match="not UTF-8"):
        load_route_file(bad)


# --- hostile and huge files ----------------------------------------------------------------
def _rows(n: int, bad_at: int | None = None) -> str:
    lines = ["team,number,name,type"]
    types = ("leader", "sprinter", "helper")
    for i in range(n):
        kind = "wizard" if i == bad_at else types[i % 3]
        lines.append(f"T{i // 3},{i % 999 + 1},Rider {i},{kind}")
    return "\n".join(lines) + "\n"


def test_a_huge_csv_stops_at_the_first_bad_row(tmp_path: Path) -> None:
    """200,000 rows: the reading stops at the first bad row, with its line number, and
    reads no row after it (rows are checked as they are read). The proof does not time
    anything: the row right after the stopping row is one the CSV reader cannot read (a
    field over its size limit), so a parser that read on, or read the whole file first,
    would fail on that line with another message."""
    import csv

    unreadable = "T0,1,Rider," + "x" * (csv.field_size_limit() + 1)

    def rows_then_unreadable(n: int, after_line: int, bad_at: int | None = None) -> str:
        lines = _rows(n, bad_at).splitlines()
        lines.insert(after_line, unreadable)  # becomes line after_line + 1
        return "\n".join(lines) + "\n"

    text = rows_then_unreadable(200_000, 12, bad_at=10)
    with pytest.raises(InputFileError, match=r"p\.csv:12: field 'type'"):
        parse_peloton_csv(text, "p.csv")
    # the unreadable row alone is refused on its own line: it is a real trap
    with pytest.raises(InputFileError, match=r"p\.csv:13: field 'csv'"):
        parse_peloton_csv(rows_then_unreadable(20, 12), "p.csv")
    # no bad row at all: the 49th rider is refused on his own line, before line 51
    with pytest.raises(InputFileError, match=r"p\.csv:50: field 'riders': .*at most 48"):
        parse_peloton_csv(rows_then_unreadable(200_000, 50), "p.csv")


def test_input_files_are_capped_in_size(tmp_path: Path) -> None:
    from raceday.games.wielersim.model import MAX_FILE_BYTES
    from raceday.games.wielersim.stage import load_tour_file

    big = tmp_path / "big.csv"
    big.write_text(_rows(200_000))
    assert big.stat().st_size > MAX_FILE_BYTES
    too_big = r"big\.{}: larger than 1 MB .*, too big for a {} file"
    with pytest.raises(InputFileError, match=too_big.format("csv", "peloton")):
        load_peloton_file(big)
    big_toml = tmp_path / "big.toml"
    big_toml.write_text(GOOD + "#" * MAX_FILE_BYTES)
    with pytest.raises(InputFileError, match=too_big.format("toml", "route")):
        load_route_file(big_toml)
    with pytest.raises(InputFileError, match=too_big.format("toml", "stage-race")):
        load_tour_file(big_toml)


@pytest.mark.parametrize("content", [
    b"", b"\n\n", bytes(range(256)) * 40, b"team,number\x00,name,type\n",
    b"\xff\xfe\x00garbage", b"team,number,name,type\n\"unclosed,1,x,leader\n",
    ("a = " + "[" * 5000 + "]" * 5000 + "\n").encode(),
    ("a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n").encode(),
], ids=["empty", "blank", "random", "nul", "not-utf8", "unclosed-quote", "deep-array",
        "deep-table"])
@pytest.mark.parametrize("suffix", [".csv", ".toml"])
def test_hostile_files_give_an_input_file_error_naming_the_file(
        tmp_path: Path, content: bytes, suffix: str) -> None:
    from raceday.games.wielersim.stage import load_tour_file

    file = tmp_path / f"hostile{suffix}"
    file.write_bytes(content)
    loaders = [load_peloton_file, load_route_file, load_tour_file]
    for load in loaders:
        with pytest.raises(InputFileError) as info:
            load(file)
        assert str(file) in str(info.value)
        assert len(str(info.value)) < 400 and "\n" not in str(info.value).strip()


def test_a_directory_is_not_a_route_file(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="cannot read the route file"):
        load_route_file(tmp_path)
