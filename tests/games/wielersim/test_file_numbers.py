"""Every number in a route or peloton file has a range and a type: TOML's true is not a
steepness, 1e308 is not a distance, and a CSV cell is ASCII digits (not ³, ٣ or 1_000)."""

from __future__ import annotations

import pytest

from raceday.core.errors import InputFileError
from raceday.games.wielersim.peloton import parse_peloton_csv, parse_peloton_toml
from raceday.games.wielersim.route import normalise_route, parse_route_text

ROUTE = """name = "Mini"
hierarchy = ["leader", "sprinter", "helper", "climber"]

[[sections]]
length = 40
colour = "green"

[[sections]]
length = 14
colour = "climber"
road = "uphill"
max_steepness = 4

[[sections]]
length = 10
colour = "yellow"
road = "cobbles"
"""


def test_the_sample_route_is_good() -> None:
    assert parse_route_text(ROUTE, "r.toml")["distance"] == 64


@pytest.mark.parametrize(("change", "message"), [
    (("max_steepness = 4", "max_steepness = true"),
     "r.toml:12: field 'sections[1].max_steepness': must be a whole number from 1 to 6; "
     "got True"),
    (("max_steepness = 4", "max_steepness = 4.0"),
     "r.toml:12: field 'sections[1].max_steepness': must be a whole number from 1 to 6; "
     "got 4.0"),
    (("max_steepness = 4", "max_steepness = inf"),
     "r.toml:12: field 'sections[1].max_steepness': must be a whole number from 1 to 6; "
     "got inf"),
    (("max_steepness = 4", "steepness = [" + "true, " * 13 + "true]"),
     "r.toml:12: field 'sections[1].steepness': must list 14 values from 1 to 6"),
    (('road = "cobbles"', 'road = "cobbles"\nroughness = ' + str([[True] * 4] * 10).lower()),
     "r.toml:18: field 'sections[2].roughness': must list 10 squares"),
    (("length = 40", "length = 1e308"),
     "r.toml:5: field 'sections[0].length': the length must be a whole number from 1 to "
     "400, got 1e+308"),
    (("length = 40", "length = nan"),
     "r.toml:5: field 'sections[0].length': the length must be a whole number from 1 to "
     "400, got nan"),
    (("length = 40", "length = " + "9" * 40),
     "r.toml:5: field 'sections[0].length': the length must be a whole number from 1 to "
     "400, got a huge number"),
    (('name = "Mini"', 'name = "Mini"\ndistance = 1e308'),
     "r.toml:2: field 'distance': must be a whole number of squares from 40 to 400, got "
     "1e+308"),
    (('name = "Mini"', 'name = "Mini"\ndistance = true'),
     "r.toml:2: field 'distance': must be a whole number of squares from 40 to 400, got True"),
    (('name = "Mini"', 'name = "Mini"\nsprints = [' + "9" * 40 + "]"),
     "r.toml:2: field 'sprints': a huge number is not a square to go"),
])
def test_a_number_out_of_type_or_range_is_refused(change: tuple[str, str], message: str
                                                  ) -> None:
    with pytest.raises(InputFileError) as err:
        parse_route_text(ROUTE.replace(*change), "r.toml")
    assert str(err.value).startswith(message), str(err.value)


def test_a_to_go_route_needs_a_bounded_distance() -> None:
    sections = [{"to_go": 0, "colour": "helper"}]
    for distance, shown in ((10**30, "a huge number"), (1000, "1000"), (True, "True"),
                            (39, "39")):
        with pytest.raises(InputFileError, match="field 'distance': must be a whole number of "
                           f"squares from 40 to 400, got {shown}"):
            normalise_route({"name": "x", "hierarchy": ["leader", "sprinter", "helper",
                                                        "climber"],
                             "distance": distance, "sections": sections})
    route = normalise_route({"name": "x", "hierarchy": ["leader", "sprinter", "helper",
                                                        "climber"],
                             "distance": 60, "sections": sections})
    assert route["distance"] == 60


PELOTON = """team,number,name,type,climb
A,1,Ann,leader,5
A,2,Bo,sprinter,5
A,3,Cy,helper,5
B,4,Di,leader,5
B,5,Ed,sprinter,5
B,6,Fa,climber,5
"""


def test_the_sample_peloton_is_good() -> None:
    assert [r["number"] for r in parse_peloton_csv(PELOTON, "p.csv")["riders"]] == [
        1, 2, 3, 4, 5, 6]
    spaced = PELOTON.replace("A,1,Ann,leader,5", "A, 7 ,Ann,leader, 6 ")
    rider = parse_peloton_csv(spaced, "p.csv")["riders"][0]
    assert rider["number"] == 7 and rider["ratings"]["climb"] == 6


@pytest.mark.parametrize("number", ["٣", "³", "1_0", "+5", "-1", "1000", "0", "1.0", "𝟓"])
def test_a_rider_number_is_ascii_digits_from_1_to_999(number: str) -> None:
    text = PELOTON.replace("A,1,Ann", f"A,{number},Ann")
    with pytest.raises(InputFileError) as err:
        parse_peloton_csv(text, "p.csv")
    assert str(err.value).startswith("p.csv:2: field 'number': must be a whole number from 1 "
                                     f"to 999; got {number!r}"), str(err.value)


@pytest.mark.parametrize("rating", ["٥", "⁵", "+5", "5.0", "10", "0", "05"])
def test_a_rating_is_one_ascii_digit_from_1_to_9(rating: str) -> None:
    text = PELOTON.replace("A,1,Ann,leader,5", f"A,1,Ann,leader,{rating}")
    with pytest.raises(InputFileError) as err:
        parse_peloton_csv(text, "p.csv")
    assert str(err.value).startswith("p.csv:2: field 'climb': a rating is a whole number "
                                     "from 1 to 9"), str(err.value)


def test_toml_peloton_numbers_have_types_and_ranges() -> None:
    base = ('[[teams]]\nname = "A"\n'
            + "".join(f'[[teams.riders]]\nnumber = {n}\nname = "R{n}"\ntype = "{t}"\n'
                      for n, t in ((1, "leader"), (2, "sprinter"), (3, "helper"))))
    assert len(parse_peloton_toml(base, "p.toml")["riders"]) == 3
    for bad, field in (("number = 1.0", "number"), ("number = true", "number"),
                       ("number = 1e308", "number"), ("number = 1000", "number")):
        with pytest.raises(InputFileError, match=f"field '{field}'"):
            parse_peloton_toml(base.replace("number = 1", bad, 1), "p.toml")
    with pytest.raises(InputFileError, match="field 'climb'"):
        parse_peloton_toml(base.replace('name = "R1"', 'name = "R1"\nclimb = true'), "p.toml")
    with pytest.raises(InputFileError, match="field 'jersey'"):
        parse_peloton_toml("jersey = 1e308\n" + base, "p.toml")


def test_a_profile_mark_that_is_not_an_ascii_digit_weighs_nothing() -> None:
    from raceday.games.wielersim.cli import _mark_weight

    assert [_mark_weight(m) for m in ("|", "6", "1", "#", "-")] == [10, 6, 1, 0.5, 0]
    assert _mark_weight("³") == 0 and _mark_weight("٣") == 0  # int('³') raised ValueError
