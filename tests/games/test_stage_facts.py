"""The facts the TV's stage is drawn from, worked out by the rules' side: the horse ahead
after a Derby furlong (a lead change is a change of it) and KEIRIN's bell and sprint."""

from __future__ import annotations

from raceday.games.derby.rules import furlong_ahead
from raceday.games.keirin.track import BELL_TO_GO, stage_marks


def test_the_horse_ahead_is_the_highest_die_still_running() -> None:
    rolls = {"d4": 3, "d6": 5, "d8": 1, "d20": 17}
    assert furlong_ahead(rolls, ["d8"], False) == ["d20"]
    # the horse that dropped or fell is never ahead; level horses are ahead together
    assert furlong_ahead({"d4": 4, "d6": 4, "d20": None}, ["d20"], False) == ["d4", "d6"]
    assert furlong_ahead({"d10": 9, "d12": 12}, ["d12"], False) == ["d10"]
    # a roll-off is for places behind: nobody is ahead in it
    assert furlong_ahead({"d4": 4, "d6": 2}, ["d6"], True) == []


def test_the_bell_rings_at_a_quarter_lap_and_the_sprint_is_one_best_throw_away() -> None:
    assert stage_marks(None, 9) == {"bell": False, "sprint": False}
    assert stage_marks(BELL_TO_GO + 1, 9) == {"bell": False, "sprint": False}
    assert stage_marks(BELL_TO_GO, 9) == {"bell": True, "sprint": False}
    # nine dice all sixes make 14 squares; six dice make 11
    assert stage_marks(14, 9) == {"bell": True, "sprint": True}
    assert stage_marks(12, 6) == {"bell": True, "sprint": False}
    assert stage_marks(11, 6)["sprint"]
