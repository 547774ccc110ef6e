"""Perft: node counts of the full game tree pin the move generator.

Why these numbers can be trusted: depths 1-2 from the start were worked by hand (five
racers, each with one cruise and one charge onto an empty or friendly square: 10, and
Black's reply is the mirror: 10 x 10). Every other count was produced by three separate
implementations that agree: the reference engine (rules.py), the compiled array engine
(fast.py) and a naive square-walking generator written straight from the rule text that
shares no code with either (tests/games/hairpin/naive.py, run here up to depth 4).
Any change to the rules engine that alters a count fails this file.
"""

from __future__ import annotations

import pytest

from raceday.games.hairpin import fast
from raceday.games.hairpin.rules import (
    Rules,
    perft,
    perft_divide,
    position_from_text,
    symmetric_position,
)
from tests.games.hairpin import naive

START = ".bbbbb/....../rrrrr. r 0-0 0-0 0-0"
HIT = "..bbb./..bb.r2/rrr... r 0-0 0-0 0-0"
LOOP = "bbbbr./....b./r.rrr. r 0-0 0-0 0-0"
STACKS = ".b2.b.b2/....../r2.r.r2. r 0-0 0-0 0-0"
PIT = "b..b2b./....../b.rrrr r 0-0 0-1 1-0"
LATE = "bb.r.b/.r.b.r/r2.b... b 4-3 2-3 0-0"
LAP_BUMP = "bbb.r./....b./rbrrr. r 4-4 4-4 0-0"

PINNED: list[tuple[str, str, list[int]]] = [
    ("standard", START, [10, 100, 860, 7396, 59387]),
    ("nobump", START, [10, 100, 860, 7396, 59332]),
    ("standard", HIT, [9, 78, 629, 5428, 44918]),
    ("nobump", HIT, [8, 73, 550, 4880, 38660]),
    ("standard", LOOP, [11, 107, 983, 8700, 76985]),
    ("standard", STACKS, [6, 36, 252, 1774, 13182]),
    ("nobump", STACKS, [6, 36, 252, 1772, 13140]),
    ("standard", PIT, [1, 8, 80, 620, 5396]),
    ("standard", LATE, [12, 102, 863, 7342, 62912]),
    ("standard", LAP_BUMP, [12, 96, 703, 5694, 39092]),
    # the short game ends sooner; the same position with 2-2 counters
    ("short", "bb.r.b/.r.b.r/r2.b... b 2-2 2-2 0-0", [12, 100, 821, 6462, 54400]),
    # v1: charges only (5 from the start: every racer's one charge)
    ("v1", START, [5, 25, 110, 484, 2029]),
    ("v1", HIT, [5, 19, 86, 380, 1749]),
    # derby, clock at 97: quiet plies run out at ply 3 unless someone bumps
    ("derby+short", "bb.r.b/.r.b.r/r2.b... b 4-3 2-1 0-0 97 300", [12, 102, 903, 253, 2573]),
]


@pytest.mark.parametrize(("variant", "text", "counts"), PINNED)
def test_reference_perft_is_pinned(variant: str, text: str, counts: list[int]) -> None:
    rules = Rules.from_variant(variant)
    pos = position_from_text(text, rules)
    assert [perft(pos, rules, d) for d in range(1, 6)] == counts


@pytest.mark.parametrize(("variant", "text", "counts"), PINNED)
def test_compiled_perft_is_pinned(variant: str, text: str, counts: list[int]) -> None:
    rules = Rules.from_variant(variant)
    pos = position_from_text(text, rules)
    assert [fast.perft(pos, rules, d) for d in range(1, 6)] == counts


@pytest.mark.parametrize(
    ("variant", "text", "counts"),
    [p for p in PINNED if p[0] in ("standard", "nobump")],
)
def test_naive_generator_agrees_to_depth_4(variant: str, text: str, counts: list[int]) -> None:
    game = naive.from_text(text)
    assert [naive.perft(game, d, 5, variant != "nobump") for d in range(1, 5)] == counts[:4]


def test_divide_sums_to_perft() -> None:
    rules = Rules()
    parts = perft_divide(symmetric_position(), rules, 3)
    assert len(parts) == 10 and sum(n for _, n in parts) == 860
    assert dict(parts)["a1 cruise b1"] == perft(
        position_from_text(".bbbbb/....../.r2rrr. b 0-0 0-0 0-0"), rules, 2
    )
