"""Our extension, rider ratings: equal ratings ride the text's rules to the letter; edges
shift steepness, roughness and sprint throws; start lists are checked like pelotons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from raceday.core.errors import InputFileError, OptionsError
from raceday.games.wielersim import GAME
from raceday.games.wielersim.dice import DiceBuffer
from raceday.games.wielersim.model import COBBLES, FLAT, UPHILL
from raceday.games.wielersim.peloton import (
    START_LISTS,
    load_peloton_file,
    parse_peloton_csv,
    parse_peloton_toml,
    peloton_from_spec,
    rating_edges,
    shipped_peloton,
    strip_ratings,
)
from raceday.games.wielersim.rules import (
    fresh_race,
    peloton_spec,
    rated_penalty,
    rated_sprint,
    run_race_fast,
)


def rated(spec: dict[str, Any], value: int) -> dict[str, Any]:
    """``spec`` with every rider rated ``value`` in every rating."""
    return {**spec, "riders": [{**r, "ratings": {"climb": value, "cobbles": value,
                                                 "sprint": value}} for r in spec["riders"]]}


@pytest.mark.parametrize("route", ["flanders", "ardennes", "mountain-stage"])
@pytest.mark.parametrize("seed", [2012, 7])
def test_equal_ratings_give_the_same_race_record_as_no_ratings(route: str, seed: int) -> None:
    plain = peloton_spec("classics")
    off = GAME.play({"route": route, "peloton": plain}, rng=seed)
    on = GAME.play({"route": route, "peloton": rated(plain, 7)}, rng=seed)
    assert on.final_state.peloton.edges is None
    assert [(e.kind, e.data) for e in on.events] == [(e.kind, e.data) for e in off.events]
    assert on.actions == off.actions
    assert on.final_state.outcome() == off.final_state.outcome()


def test_switching_the_extension_off_ignores_unequal_ratings() -> None:
    start_list = shipped_peloton("flanders")
    plain = strip_ratings(start_list)
    off = GAME.play({"route": "flanders", "peloton": start_list, "ratings": False}, rng=3)
    bare = GAME.play({"route": "flanders", "peloton": plain}, rng=3)
    on = GAME.play({"route": "flanders", "peloton": start_list}, rng=3)
    assert [e.data for e in off.events] == [e.data for e in bare.events]
    assert [e.data for e in on.events] != [e.data for e in off.events]


def test_edges_are_ratings_less_the_lower_median_within_two() -> None:
    assert rating_edges([(5, 5, 5), (5, 5, 5)]) is None
    assert rating_edges([(1, 5, 9), (5, 5, 5), (9, 5, 1)]) == (
        (-2, 0, 2), (0, 0, 0), (2, 0, -2))
    # lower median of 4, 6 is 4
    assert rating_edges([(4, 5, 5), (6, 5, 5)]) == ((0, 0, 0), (2, 0, 0))


def test_rated_penalties_and_sprints() -> None:
    edge = (2, -1, 3)
    assert rated_penalty(5, UPHILL, edge) == 3
    assert rated_penalty(1, UPHILL, edge) == 0
    assert rated_penalty(3, COBBLES, edge) == 4
    assert rated_penalty(0, FLAT, edge) == 0
    assert rated_sprint(4, edge) == 7
    assert rated_sprint(1, (0, 0, -3)) == 1


def test_a_better_climber_wins_a_summit_finish_more_often() -> None:
    """Two climbers who differ only by climbing rating (9 against 1: edges +2 and -2) on
    the summit stage: in 300 seeded races the strong one finishes ahead of the weak one
    more than 80 % of the time (a fair coin would reach 80 % of 300 with
    probability far below 1e-20)."""
    spec = peloton_spec("classics")
    ratings = {14: 9, 24: 1}
    spec = {**spec, "riders": [{**r, "ratings": {"climb": ratings.get(r["number"], 5)}}
                               for r in spec["riders"]]}
    template = GAME.new_state({"route": "mountain-stage", "peloton": spec})
    strong, weak = template.peloton.index_of(14), template.peloton.index_of(24)
    ahead = 0
    throws = DiceBuffer(np.random.default_rng(11))
    for _ in range(300):
        state = run_race_fast(fresh_race(template), throws)
        order = [r for r, _, _ in state.results]
        ahead += order.index(strong) < order.index(weak)
    assert ahead > 240


@pytest.mark.parametrize("name", START_LISTS)
def test_the_shipped_start_lists_load_with_ratings(name: str) -> None:
    spec = shipped_peloton(name)
    peloton = peloton_from_spec(spec)
    assert peloton.rated and peloton.edges is not None
    assert 30 <= len(peloton.riders) <= 48
    assert all(set(r["ratings"]) == {"climb", "cobbles", "sprint"} for r in spec["riders"])


HEADER = "team,number,name,type,climb,cobbles,sprint\n"


@pytest.mark.parametrize(("row", "field"), [
    ("A,3,Cee,helper,10,5,5", "climb"),
    ("A,3,Cee,helper,5,x,5", "cobbles"),
    ("A,3,Cee,helper,5,5,0", "sprint"),
    ("A,3,Cee,helper,5,5,2.5", "sprint"),
])
def test_bad_ratings_name_the_file_line_and_field(row: str, field: str) -> None:
    text = HEADER + "A,1,Ay,leader,5,5,5\nA,2,Bee,sprinter,5,5,5\n" + row + "\n"
    with pytest.raises(InputFileError) as err:
        parse_peloton_csv(text, "list.csv")
    assert str(err.value).startswith(f"list.csv:4: field '{field}'")


def test_an_empty_rating_cell_is_ordinary() -> None:
    text = HEADER + "A,1,Ay,leader,,7,\nA,2,Bee,sprinter,5,5,5\nA,3,Cee,helper,5,5,5\n"
    spec = parse_peloton_csv(text, "list.csv")
    assert spec["riders"][0]["ratings"] == {"climb": 5, "cobbles": 7, "sprint": 5}


def test_toml_ratings_are_checked_with_their_line(tmp_path: Path) -> None:
    text = """[[teams]]
name = "A"
[[teams.riders]]
number = 1
name = "Ay"
type = "leader"
climb = 8
[[teams.riders]]
number = 2
name = "Bee"
type = "sprinter"
sprint = 12
[[teams.riders]]
number = 3
name = "Cee"
type = "helper"
"""
    with pytest.raises(InputFileError, match=r"^t\.toml:8: field 'sprint'"):
        parse_peloton_toml(text, "t.toml")
    good = parse_peloton_toml(text.replace("sprint = 12", "sprint = 6"), "t.toml")
    assert good["riders"][0]["ratings"] == {"climb": 8, "cobbles": 5, "sprint": 5}
    assert "ratings" not in good["riders"][2]
    file = tmp_path / "t.toml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError, match=r"t\.toml:8: field 'sprint'"):
        load_peloton_file(file)


def test_malformed_ratings_in_a_table_are_an_options_error() -> None:
    spec = peloton_spec("small")
    spec["riders"][0]["ratings"] = {"climb": 99}
    with pytest.raises(OptionsError, match="ratings"):
        GAME.options({"peloton": spec})
