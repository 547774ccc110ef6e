"""The state's text picture (the game's ``picture`` face, used by replays and the research
faces) draws the same readable road as the terminal: terrain in its own row, so a free
square on a climb or on cobbles never shows a number that reads like a rider ("-4" used
to)."""

from __future__ import annotations

import re

from raceday.games.wielersim.render import road_text
from raceday.present.pictures import text_picture
from tests.games.wielersim.test_terminal_line import known_state


def test_the_state_picture_draws_the_terminal_road_with_its_terrain_row() -> None:
    s = known_state()
    picture = text_picture(s)
    road = picture.split("\n", 1)[1]
    assert road.rstrip("\n") == road_text(s, 30).plain.rstrip("\n")
    lanes = [line for line in road.splitlines() if line.startswith("lane ")]
    assert len(lanes) == 6
    assert not any(re.search(r"-\d", line) for line in lanes)  # no terrain number in a lane
    assert any(line.startswith("road ") and "/4" in line for line in road.splitlines())
