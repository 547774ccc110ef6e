"""Rendering, commentary and saved states: they read the engine and never change it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from raceday.core.errors import SaveFormatError
from raceday.core.events import Event
from raceday.core.play import play_game
from raceday.core.serialize import dumps_state, loads_state
from raceday.games.wielersim.commentary import Commentator
from raceday.games.wielersim.game import new_race
from raceday.games.wielersim.render import draw_road, group_summary, result_table
from raceday.games.wielersim.rules import ROLL, SPRINT_THROW, WielersimState
from tests.games.wielersim.positions import peloton, route, square, state, throw

PEL = peloton([
    [(1, "Ann", "leader"), (2, "Bo", "sprinter"), (3, "Cy", "helper")],
    [(4, "Di", "leader"), (5, "Ed", "sprinter"), (6, "Fa", "helper")],
])
HIER = ["leader", "sprinter", "helper", "climber"]


def test_a_group_straddling_the_line_finishes_together_on_its_first_riders_time() -> None:
    s = state(route([{"length": 60, "colour": "climber"}], HIER), PEL)
    s.setup({1: (61, 5), 2: (60, 5), 3: (59, 5), 4: (58, 5), 5: (55, 5)}, play_turn=False)
    # 1..4 form one group (no empty row) although 3 and 4 have not crossed
    for number in (1, 2, 3, 4):
        throw(s, number, SPRINT_THROW, 1 if number != 2 else 2)
    finished = {s.num(r): gap for r, gap, _ in s.results}
    assert finished == {1: 0, 2: 0, 3: 0, 4: 0}
    assert s.peloton.index_of(5) not in {r for r, _, _ in s.results}
    throw(s, 5, ROLL, 9)  # next turn: 64, three squares past the winner's 61
    assert {s.num(r): g for r, g, _ in s.results}[5] == 60 - 3 * 6


def test_road_picture_shows_riders_steepness_markers_and_groups() -> None:
    r = route([{"length": 30, "colour": "helper"},
               {"length": 12, "colour": "climber", "road": "uphill", "category": "2",
                "max_steepness": 4},
               {"length": 20, "colour": "sprinter"}], HIER)
    s = state(r, PEL)
    s.setup({1: (38, 5), 4: (37, 5), 2: (30, 3)})
    text = draw_road(s, 20).plain
    assert " 1" in text and " 4" in text and " 2" in text
    road_row = next(line for line in text.splitlines() if line.startswith("road "))
    assert "/4" in road_row and "^2" in text  # the steepness in the terrain row, the top
    lines = group_summary(s)
    assert lines[0].startswith("Group of 2 at the front")
    assert lines[1].startswith("Alone 8 squares behind") and "of 1" not in lines[1]


def test_commentary_reports_attacks_crashes_climbs_and_breaks() -> None:
    s = state(route([{"length": 100, "colour": "climber"}], HIER), PEL)
    s.setup({1: (60, 5), 2: (50, 5), 3: (50, 4), 4: (50, 3), 5: (49, 5), 6: (49, 4)})
    c = Commentator()
    lines = c.comment(s, [Event("attack", {"rider": 1, "value": 12, "turn": 1}),
                          Event("crash", {"rider": 4, "caused": True, "behind": [5],
                                          "square": 50, "turn": 1}),
                          Event("climb_top", {"climb": "Muur", "category": "1", "rider": 1,
                                              "turn": 1})])
    text = "\n".join(lines)
    assert "ATTACK by Ann (1, Team 0)" in text
    assert "CRASH! Di (4, Team 1)" in text and "(5)" in text
    assert "leads over the Muur (cat. 1)" in text
    assert "At the front: alone (1), 10 squares" in text
    assert c.comment(s, []) == []  # the same break is not reported twice
    throw(s, 1, ROLL, 2)
    throw(s, 4, ROLL, 11)  # the bunch attacks, and everyone counters
    for number in (2, 3, 5, 6):
        throw(s, number, "counter", 12)
    assert square(s, 1)[0] == 62
    assert "The break is caught." in c.comment(s, [])


def test_result_table_lists_everyone() -> None:
    s = new_race({"route": "ardennes", "peloton": "small"})
    play_game(s, [], np.random.default_rng(3))
    table = result_table(s)
    assert table.row_count == 12


def test_saved_states_round_trip_and_bad_saves_are_refused() -> None:
    s = new_race({"route": "flanders", "peloton": "small"})
    rng = np.random.default_rng(8)
    for _ in range(150):
        draw = s.sample_chance(rng)
        s.apply_action(draw.outcome, draw.detail)
    again = loads_state(dumps_state(s))
    assert isinstance(again, WielersimState) and again == s
    data = s.to_json()
    for broken in ({**data, "phase": "tea"}, {**data, "pos": data["pos"][:-1]},
                   {**data, "pending": ["2d6", 99, "roll"]}, {**data, "route": {"name": 3}},
                   {k: v for k, v in data.items() if k != "turn"}):
        with pytest.raises(SaveFormatError):
            WielersimState.from_json(json.loads(json.dumps(broken)))


def test_commentary_leaves_out_the_stragglers_moves_after_the_win() -> None:
    s = state(route([{"length": 60, "colour": "climber"}], HIER), PEL)
    s.setup({1: (61, 5), 4: (40, 5), 5: (20, 5)}, play_turn=False)
    assert s.results  # 1 has won
    c = Commentator()
    said = c.comment(s, [Event("attack", {"rider": 4, "value": 11, "turn": 2}),
                         Event("flat_tyre", {"rider": 5, "turn": 2, "square": 20})])
    assert not any("ATTACK" in line for line in said)
    assert any("Flat tyre for Ed" in line for line in said)
