"""Property tests on arbitrary legal-looking positions (not only ones random games reach)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from raceday.games.hairpin import fast
from raceday.games.hairpin.rules import (
    Position,
    Rules,
    apply_move,
    legal_moves,
    position_from_text,
    position_to_text,
)
from tests.games.hairpin import naive

VARIANTS = ["standard", "nobump", "short", "derby", "v1", "derby+v1+short"]


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, Rules]:
    rules = Rules.from_variant(draw(st.sampled_from(VARIANTS)))
    cells = [0] * 18
    pit = [0, 0]
    for player, sign in ((0, 1), (1, -1)):
        for _ in range(5):
            if draw(st.integers(0, 9)) == 0:
                pit[player] += 1
                continue
            free = [sq for sq in range(18) if cells[sq] * sign >= 0]
            cells[draw(st.sampled_from(free))] += sign
    limit = rules.target - 1
    laps = (draw(st.integers(0, limit)), draw(st.integers(0, limit)))
    bumps = (draw(st.integers(0, limit)), draw(st.integers(0, limit))) if rules.bumping else (
        0, 0)
    clock = draw(st.integers(0, rules.quiet_limit - 1)) if rules.derby else 0
    pos = Position(tuple(cells), draw(st.integers(0, 1)), laps, bumps, (pit[0], pit[1]),
                   clock, draw(st.integers(0, 500)))
    return pos, rules


@settings(max_examples=300, deadline=None)
@given(positions())
def test_text_form_round_trips(case: tuple[Position, Rules]) -> None:
    pos, rules = case
    assert position_from_text(position_to_text(pos), rules) == pos


@settings(max_examples=300, deadline=None)
@given(positions())
def test_compiled_engine_agrees_on_any_position(case: tuple[Position, Rules]) -> None:
    pos, rules = case
    moves = legal_moves(pos, rules)
    assert fast.legal_moves_fast(pos, rules) == [(m.action, m.dest, int(m.lap)) for m in moves]
    for m in moves:
        assert fast.apply_fast(pos, rules, m.action) == apply_move(pos, m, rules)


@settings(max_examples=300, deadline=None)
@given(positions())
def test_naive_generator_agrees_on_any_position(case: tuple[Position, Rules]) -> None:
    pos, rules = case
    if rules.derby or rules.v1:
        return  # the naive generator knows the standard, short and nobump rules only
    text = position_to_text(pos)
    expected = sorted(position_to_text(apply_move(pos, m, rules)).rsplit(" ", 2)[0]
                      for m in legal_moves(pos, rules))
    got = []
    for child in naive.moves(naive.from_text(text), rules.target, rules.bumping):
        board = "/".join(
            "".join(
                "." if not child.board[(c, r)]
                else child.board[(c, r)][0] + (str(len(child.board[(c, r)]))
                                              if len(child.board[(c, r)]) > 1 else "")
                for c in range(6)
            )
            for r in (2, 1, 0)
        )
        got.append(f"{board} {child.side} {child.laps['r']}-{child.laps['b']} "
                   f"{child.bumps['r']}-{child.bumps['b']} {child.pit['r']}-{child.pit['b']}")
    assert sorted(got) == expected
