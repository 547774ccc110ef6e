"""The host's announcements, and a property test of hand-entered races."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from raceday.games.derby.render import event_lines
from raceday.games.derby.rules import faces_of, new_race


def test_document_result_announcement_win_post_6_quinella_5_6() -> None:
    state = new_race()
    events = []
    for values in ([1, 6, 8, 10, 12, 20], [1, 8, 10, 12, 20], [1, 9, 11, 19], [1, 11, 19],
                   [5, 6]):
        for v in values:
            events.extend(state.enter_roll(v))
    (result,) = [e for e in events if e.kind == "result"]
    lines = event_lines([result], [])
    assert "Win: post 6 (d20); quinella 5-6 (d12-d20)." in lines
    assert lines[0] == "Result: 1st the d20, 2nd the d12."


def test_commentary_names_the_horse_to_drop_as_each_die_is_revealed() -> None:
    state = new_race()
    to_drop: list[str] = []
    lines = []
    for v in (3, 3, 5, None, 9, 9):
        lines += event_lines(state.enter_roll(v), to_drop)
    assert lines[0] == "Furlong 1:"
    assert lines[1] == "  The d4 shows 3."
    assert "level with the d4, and the die with more faces drops" in lines[2]
    assert "a fall!" in lines[4]
    assert lines[-1] == "  → Out after a fall: the d10."


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_hand_entered_race_places_every_horse_with_a_single_first_and_second(
    data: st.DataObject,
) -> None:
    state = new_race()
    rolls = 0
    while not state.is_terminal() and rolls < 300:
        post = state.to_roll[0]
        fall = data.draw(st.integers(0, 5)) == 0
        value = None if fall else data.draw(st.integers(1, faces_of(post)))
        state.enter_roll(value)
        rolls += 1
    if not state.is_terminal():
        return  # hypothesis found a long chain of re-rolls; nothing to check
    places = state.places
    assert sorted(places) == [1, 2, 3, 4, 5, 6]
    assert list(places.values()).count(1) == 1 and list(places.values()).count(2) == 1
    pair = state.quinella_pair()
    assert pair is not None and set(pair) == {state.winner(), state.second()}
