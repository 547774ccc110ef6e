"""Our completion (docs/rules/pistard.md, "Shelter behind a rider on another lap"): in the
points race the square directly behind a rider is a legal end of a move whatever lap that
rider is on, because he physically stands on the track in front of the mover."""

from __future__ import annotations

from raceday.games.pistard.moves import move_action
from raceday.games.pistard.state import position_state
from raceday.games.pistard.track import colour_index
from raceday.games.pistard.variants import OUT

GREEN, RED = colour_index("green"), colour_index("red")
LAP = 56  # the default velodrome

# Rider 11 is a full lap (and 5 squares) ahead of rider 21 and stands physically 5 squares
# in front of him in lane 2; riders 12 and 22 sit in the middle of the field (distances 30
# and 31), so 11 has not yet been counted as having gained a lap. Rider 21 throws yellow 1,
# green 4, blue 1, red 1 with no tokens.
RIDERS = [(11, LAP + 5, 2), (12, 30, 1), (21, 0, 2), (22, 31, 1)]
DICE = (1, 4, 1, 1)


def _state(without_lapper: bool = False):  # type: ignore[no-untyped-def]
    state = position_state(RIDERS, mover=21, dice=DICE, variant="points")
    if without_lapper:
        state.riders[0].status = OUT
        state.invalidate_moves()
    return state


def test_the_position_is_what_the_decision_is_about() -> None:
    state = _state()
    lapper, mover = state.riders[0], state.riders[2]
    assert (lapper.ident, mover.ident) == (11, 21)
    assert lapper.dist - mover.dist >= LAP  # a full lap ahead in the race...
    assert state.square_of(lapper) == (5, 2)  # ...and physically 5 squares in front
    assert state.square_of(mover) == (0, 2)
    # the square 4 ahead in lane 2 is not green, so colour alone would not allow green 4
    assert state.track.colour(4, 2) != GREEN


def test_the_square_behind_a_rider_a_lap_ahead_ends_a_legal_move() -> None:
    state = _state()
    sheltered = move_action(21, 4, 2, False)
    assert state.legal_actions() == [move_action(21, 1, 2, False), sheltered]
    info = state.move_table()[sheltered]
    assert (info.colour, info.value, info.behind) == (GREEN, 4, True)
    events = state.apply_action(sheltered)
    assert any(e.kind == "move" and e["to"] == [4, 2] for e in events)
    assert not any(e.kind in ("lap_gained", "lap_lost") for e in events)


def test_without_that_rider_the_green_four_is_not_legal() -> None:
    state = _state(without_lapper=True)
    assert state.legal_actions() == [move_action(21, 1, 2, False)]
    assert state.move_table()[move_action(21, 1, 2, False)].colour == RED

