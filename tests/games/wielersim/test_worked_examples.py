"""The worked examples of the WielerSIM text, each built as the exact position it shows."""

from __future__ import annotations

from raceday.games.wielersim import dice
from raceday.games.wielersim.rules import (
    ACCEL,
    EVENT,
    ROLL,
    SPRINT_THROW,
    flat_gap,
    format_gap,
    sprint_bonus,
    uphill_gap,
)
from tests.games.wielersim.positions import peloton, route, square, state, throw

# The cobble board of the example: four lanes (top line = leftmost lane), 15 squares.
BOARD_LINES = [
    [4, 1, 1, 4, 1, 2, 3, 1, 2, 1, 1, 1, 3, 1, 2],
    [1, 2, 2, 1, 3, 1, 1, 4, 2, 4, 2, 2, 1, 4, 1],
    [2, 1, 4, 2, 1, 2, 2, 1, 1, 1, 3, 1, 1, 1, 1],
    [1, 3, 1, 1, 2, 4, 1, 2, 3, 2, 1, 4, 2, 2, 3],
]
COBBLE_START = 20


def cobble_example_state():  # type: ignore[no-untyped-def]
    roughness = [[BOARD_LINES[lane][col] for lane in range(4)] for col in range(15)]
    r = route(
        [
            {"length": COBBLE_START, "colour": "helper"},
            {"length": 15, "colour": "leader", "road": "cobbles", "roughness": roughness},
            {"length": 25, "colour": "helper"},
        ],
        ["leader", "sprinter", "climber", "helper"],  # yellow, green, red, blue
    )
    p = peloton([[(1, "Yellow", "leader"), (2, "Green", "sprinter"), (3, "Red", "climber"),
                  (4, "Blue", "helper")]])
    s = state(r, p)
    # yellow behind on a -1; green, red and blue side by side one square ahead
    s.setup({1: (COBBLE_START + 0, 1), 2: (COBBLE_START + 1, 2), 3: (COBBLE_START + 1, 1),
             4: (COBBLE_START + 1, 3)})
    return s


def test_cobblestone_example_rolls_and_landing_squares() -> None:
    s = cobble_example_state()
    # green goes first (furthest, and above red and blue in the hierarchy) and rolls 11
    throw(s, 2, ROLL, 11)
    assert square(s, 2) == (COBBLE_START + 11, 2)  # 10 squares, the rightmost -1
    # no counter on cobbles: red must roll himself next
    throw(s, 3, ROLL, 8)
    assert square(s, 3) == (COBBLE_START + 7, 2)  # 8 - 2 = 6 squares, onto a -1
    assert BOARD_LINES[2][7] == 1
    throw(s, 4, ROLL, 6)  # no aspiration on cobbles: blue rolls
    assert square(s, 4)[0] == COBBLE_START + 4  # 6 - 3 = 3 squares
    # yellow may accelerate on a yellow cobbled section: 3D6, best two
    assert s.pending is not None and s.pending.kind == dice.BEST_TWO_OF_3D6
    assert dice.best_two([6, 3, 6]) == 12
    throw(s, 1, ROLL, 12)
    # 11 squares, beside green, on the other -1 of that square: the leftmost
    assert square(s, 1) == (COBBLE_START + 11, 0)
    assert BOARD_LINES[0][11] == 1


def sprint_example_state():  # type: ignore[no-untyped-def]
    r = route([{"length": 40, "colour": "sprinter"}],
              ["helper", "leader", "climber", "sprinter"])
    p = peloton([
        [(1, "Yellow", "leader"), (2, "Red", "climber"), (3, "Purple", "helper"),
         (6, "Green", "sprinter")],
        [(4, "Orange", "leader"), (5, "Black", "climber"), (7, "Blue", "helper")],
    ])
    s = state(r, p)
    base = 42  # the group has crossed the line at square 40
    s.setup({1: (base + 2, 5), 2: (base + 1, 5), 3: (base, 5), 4: (base, 4), 5: (base, 3),
             6: (base, 2), 7: (base - 1, 5)}, play_turn=False)
    return s, base


def test_flat_sprint_example() -> None:
    s, base = sprint_example_state()
    throw(s, 1, SPRINT_THROW, 6)  # yellow
    throw(s, 2, SPRINT_THROW, 4)  # red
    throw(s, 3, SPRINT_THROW, 3)  # purple
    sp = s.sprint
    assert sp is not None
    throw(s, 4, SPRINT_THROW, 4)  # orange passes purple: one bonus square, beside red
    assert sp.vpos[3] == sp.vpos[1] == base + 5
    throw(s, 5, SPRINT_THROW, 6)  # black passes purple and red/orange: two rows, +2
    assert sp.vpos[4] == base + 8
    assert s.pending is not None and s.pending.kind == dice.TWO_D6  # the sprinter's 2D6
    throw(s, 6, SPRINT_THROW, 8)  # green: +2 for the same two rows, 10 squares
    assert sp.vpos[5] == base + 10
    throw(s, 7, SPRINT_THROW, 4)  # blue comes beside purple: no bonus
    assert s.outcome().ranking[0] == 6  # the sprinter wins
    # every rider of the group finishes with the same time
    assert {gap for _, gap, _ in s.results} == {0}


def test_sprint_bonus_counts_rows_not_riders() -> None:
    assert sprint_bonus(0, 4, [3]) == 1
    assert sprint_bonus(0, 6, [3, 5, 5]) == 2  # red and orange share a row
    assert sprint_bonus(0, 4, [4]) == 0  # beside is not beyond


def time_gap_example_state():  # type: ignore[no-untyped-def]
    r = route([{"length": 40, "colour": "climber"}], ["leader", "sprinter", "helper", "climber"])
    p = peloton([
        [(1, "Red", "leader"), (2, "Yellow", "sprinter"), (3, "White", "helper")],
        [(4, "Black", "leader"), (5, "Purple", "sprinter"), (6, "Green", "helper")],
    ])
    s = state(r, p)
    red = 42  # the square where red, first of the winning group, ends the turn
    s.setup({1: (red, 5), 2: (red, 4), 3: (red - 1, 5), 4: (red - 5, 5), 5: (red - 6, 5),
             6: (red - 8, 5)}, play_turn=False)
    return s, red


def test_flat_finish_time_gap_example() -> None:
    s, red = time_gap_example_state()
    for number in (1, 2, 3):  # the leading three sprint; their time is already taken
        throw(s, number, SPRINT_THROW, 3)
    throw(s, 4, ROLL, 8)  # black rolls 8, purple follows by aspiration
    assert square(s, 4)[0] == red + 3
    throw(s, 6, ROLL, 6)  # green rolls 6 on his own
    assert square(s, 6)[0] == red - 2
    throw(s, 4, SPRINT_THROW, 2)  # black and purple sprint for 4th and 5th
    throw(s, 5, SPRINT_THROW, 2)  # purple is a sprinter: 2D6
    gaps = {s.num(r): gap for r, gap, _ in s.results}
    assert gaps[4] == gaps[5] == 42
    assert gaps[6] == 72
    assert format_gap(42) == "0'42\"" and format_gap(72) == "1'12\""
    assert flat_gap(1, -3) == 42 and flat_gap(1, 2) == 72


def uphill_example_state():  # type: ignore[no-untyped-def]
    steep = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 6]
    r = route([{"length": 46, "colour": "helper"},
               {"length": 14, "colour": "climber", "road": "uphill", "category": "1",
                "max_steepness": 6, "steepness": steep}],
              ["climber", "leader", "helper", "sprinter"], finish="uphill")
    p = peloton([
        [(1, "Black", "helper"), (2, "Green", "leader"), (3, "Red", "climber")],
        [(4, "Purple", "leader"), (5, "Blue", "sprinter"), (6, "Yellow", "helper")],
    ])
    s = state(r, p)
    w = 62  # black's square; the line is at 60
    s.setup({1: (w, 5), 4: (w - 1, 5), 5: (w - 1, 4), 6: (w - 2, 5), 2: (w - 3, 5),
             3: (w - 4, 5)}, play_turn=False)
    return s, w


def test_uphill_finish_example() -> None:
    s, w = uphill_example_state()
    first = [(s.num(r), gap) for r, gap, _ in s.results]
    # black wins; purple second before blue (level, purple rightmost), yellow fourth
    assert first == [(1, 0), (4, 12), (5, 12), (6, 24)]
    throw(s, 2, ROLL, 7)  # green throws 7: the event table
    throw(s, 2, EVENT, 8)  # nothing happens: 7 forward, minus 6 = one square
    assert square(s, 2)[0] == w - 2
    assert s.pending is not None and s.pending.kind == dice.BEST_TWO_OF_3D6
    throw(s, 3, ACCEL, 11)  # red accelerates on a red climb: 11 - 6 = 5 squares
    assert square(s, 3)[0] == w + 1
    ranking = [(s.num(r), gap) for r, gap, _ in s.results]
    assert ranking[4:] == [(3, 48), (2, 84)]
    assert uphill_gap(1, -1) == 48 and uphill_gap(1, 2) == 84
    assert s.is_terminal()


def test_uphill_example_failed_acceleration_uses_aspiration() -> None:
    s, w = uphill_example_state()
    throw(s, 2, ROLL, 7)
    throw(s, 2, EVENT, 8)
    throw(s, 3, ACCEL, 6)  # worse than the 7 he may follow: he follows, one square
    assert square(s, 3)[0] == w - 3
    assert s.peloton.index_of(3) not in {r for r, _, _ in s.results}
