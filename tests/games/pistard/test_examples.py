"""The rule text's worked examples, rebuilt square for square on our default velodrome.

The default track embeds the examples' squares at fixed columns (see docs/rules/pistard.md):
examples 1-3 put rider 33 in lane 3 at column 14; the tactics example puts riders 22 and 33
level at column 34. Expected sets below come from the text, not from running the code.
"""

from __future__ import annotations

from raceday.games.pistard.moves import die_options
from raceday.games.pistard.state import PistardState, position_state
from raceday.games.pistard.track import colour_index

Y, G, B, R = (colour_index(c) for c in ("yellow", "green", "blue", "red"))
EX = 14  # column of rider 33 in examples 1-3
TAC = 34  # column of riders 22 and 33 in the tactics example
# Rider 33 throws 5 green, 4 yellow, 3 blue, 1 red (dice in yellow, green, blue, red order).
THROW = (4, 5, 3, 1)

# (columns ahead, lane, colour used, value used)
A = (5, 3, G, 5)  # 5 straight ahead to green
B_ = (4, 3, Y, 4)  # 4 straight ahead to yellow
C = (3, 2, B, 3)  # 2 ahead and one step inwards to blue
D = (3, 4, Y, 4)  # 2 ahead and one step outwards (2 pips) to yellow
E = (3, 1, B, 3)  # 1 ahead and 2 steps inwards, behind rider 22
F = (1, 3, R, 1)  # 1 ahead, behind rider 14


def plain_moves(state: PistardState) -> set[tuple[int, int, int, int]]:
    """The legal moves that spend no token, as (ahead, lane, colour, value)."""
    table = state.move_table()
    return {
        (m.ahead, m.lane, m.colour, m.value)
        for a, m in table.items()
        if a in state.legal_actions() and not m.token
    }


def test_example_1_exact_moves() -> None:
    state = position_state([(33, EX, 3)], mover=33, dice=THROW)
    assert plain_moves(state) == {A, B_, C, D}
    # the red 1 is useless
    assert state.moves_with(R, 1) == []


def test_example_2_adds_the_move_behind_rider_22() -> None:
    state = position_state([(33, EX, 3), (22, EX + 4, 1)], mover=33, dice=THROW)
    assert plain_moves(state) == {A, B_, C, D, E}
    e = next(m for m in state.move_table().values() if (m.ahead, m.lane) == (3, 1))
    assert e.behind
    # the square of (e) is not blue: the move is legal only because 22 is right in front
    assert state.track.colour(EX + 3, 1) != B


def test_example_3_blocked_path_and_outward_step_first() -> None:
    state = position_state([(33, EX, 3), (14, EX + 2, 3)], mover=33, dice=THROW)
    assert plain_moves(state) == {C, D, F}
    # (d) still works because the outward step can be taken before (or between) the steps
    # ahead: with the square diagonally ahead taken too, the step "between" remains ...
    between = position_state([(33, EX, 3), (14, EX + 2, 3), (24, EX + 1, 4)], mover=33,
                             dice=THROW)
    assert D in plain_moves(between)
    # ... and with column EX+2 of lane 4 taken, no route of (d) is left.
    blocked = position_state([(33, EX, 3), (14, EX + 2, 3), (24, EX + 2, 4)], mover=33,
                             dice=THROW)
    assert D not in plain_moves(blocked)


def test_energy_token_example() -> None:
    # 6 green, 5 red, 3 yellow, 3 blue
    dice = (3, 6, 3, 5)
    assert sorted(die_options(dice, token=False)) == sorted([(Y, 3), (G, 6), (B, 3), (R, 5)])
    # a token makes 6 red, 4 yellow or 4 blue; the green six cannot be raised
    assert sorted(die_options(dice, token=True)) == sorted([(Y, 4), (B, 4), (R, 6)])


def test_energy_token_moves_on_the_track() -> None:
    dice = (3, 6, 3, 5)
    state = position_state([(33, EX, 3)], mover=33, dice=dice, tokens=3)
    table = state.move_table()
    boosted = {(m.colour, m.value) for m in table.values() if m.token}
    assert boosted <= {(Y, 4), (B, 4), (R, 6)}
    assert all(not m.token or (m.colour, m.value) != (G, 7) for m in table.values())
    # every token move is one the dice alone do not allow (no wasted token offered)
    plain_dest = {(m.ahead, m.lane) for m in table.values() if not m.token}
    assert all((m.ahead, m.lane) not in plain_dest for m in table.values() if m.token)
    none = position_state([(33, EX, 3)], mover=33, dice=dice, tokens=0)
    assert all(not m.token for m in none.move_table().values())


def test_tactics_outer_rider_uses_any_six_inner_rider_only_red_or_yellow() -> None:
    for colour in (Y, G, B, R):
        outer = position_state([(33, TAC, 4), (22, TAC, 1)], mover=33, dice=(1, 1, 1, 1))
        assert outer.moves_with(colour, 6), f"outer rider cannot use a {colour} six"
        inner = position_state([(33, TAC, 4), (22, TAC, 1)], mover=22, dice=(1, 1, 1, 1))
        assert bool(inner.moves_with(colour, 6)) == (colour in (R, Y))
    inner = position_state([(33, TAC, 4), (22, TAC, 1)], mover=22, dice=(1, 1, 1, 1))
    assert (6, 1) in inner.moves_with(R, 6)  # six straight ahead on red
    assert (3, 4) in inner.moves_with(Y, 6)  # three lanes outwards to yellow in lane 4


def test_tactics_inner_rider_moves_first_and_can_block() -> None:
    state = position_state([(33, TAC, 4), (22, TAC, 1)])
    assert [state.riders[i].ident for i in state.race_order()] == [22, 33]
    # 22 takes the red six straight ahead: 33 can no longer play a red six
    after_red = position_state([(33, TAC, 4), (22, TAC + 6, 1)], mover=33, dice=(1, 1, 1, 1))
    assert after_red.moves_with(R, 6) == []
    # 22 takes the yellow six three lanes outwards: 33's yellow six is blocked
    after_yellow = position_state([(33, TAC, 4), (22, TAC + 3, 4)], mover=33,
                                  dice=(1, 1, 1, 1))
    assert after_yellow.moves_with(Y, 6) == []
    assert after_yellow.stay_action() not in after_yellow.legal_actions()
