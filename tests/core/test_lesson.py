"""The lesson engine (raceday.core.lesson): steps read from data, positions built by the
rules, right and wrong moves told apart, and a lesson's own mistakes found."""

from __future__ import annotations

from typing import Any

import pytest

from raceday.core.lesson import LessonError, a_wrong_move, check_lesson, read_lesson

HEADER = ['[Game "hairpin"]', "[Format 1]", '[Options {"variant": "standard"}]', ""]


def lesson(**step: Any) -> dict[str, Any]:
    base = {"id": "first", "position": [*HEADER, "p1: c1 cruise d1"], "learner": "p2",
            "expect": ["d3 charge a3"]}
    return {"format": 1, "steps": [{**base, **step}]}


def test_a_step_builds_its_position_and_tells_right_from_wrong() -> None:
    step = read_lesson("hairpin", lesson()).step(1)
    state = step.start()
    assert state.current_player() == 1
    wrong = a_wrong_move(step, state)
    assert wrong is not None and not step.is_right(wrong)
    tried = step.attempt(state, wrong)
    assert not tried.right and tried.legal and state.current_player() == 1  # unchanged
    assert not step.attempt(state, "fly away").legal
    right = step.attempt(state, "D3  Charge a3")  # case and spaces do not matter
    assert right.right and right.events and state.current_player() == 0


def test_check_lesson_finds_a_step_that_does_not_hold() -> None:
    assert check_lesson(read_lesson("hairpin", lesson())) == []
    illegal = check_lesson(read_lesson("hairpin", lesson(expect=["d3 charge f3"])))
    assert illegal and "d3 charge f3" in illegal[0]
    shows = check_lesson(read_lesson("hairpin", lesson(shows=["bump"])))
    assert shows and "shows no bump" in shows[0]
    not_yours = check_lesson(read_lesson("hairpin", lesson(learner="p1")))
    assert not_yours and "no move here" in not_yours[0]


@pytest.mark.parametrize(("data", "words"), [
    ({"format": 2, "steps": []}, "format 1"),
    ({"format": 1, "steps": [{}]}, "no id"),
    (lesson(position=["nonsense"]), "position"),
    (lesson(expect=[]), "expect"),
    (lesson(learner="red"), "learner"),
    (lesson(answer=["red moves"]), "answer"),
    ({"format": 1, "steps": [lesson()["steps"][0], lesson()["steps"][0]]}, "two steps"),
])
def test_a_malformed_lesson_is_refused_with_words(data: dict[str, Any], words: str) -> None:
    with pytest.raises(LessonError, match=words):
        read_lesson("hairpin", data)


def test_choices_are_the_moves_offered_in_their_order() -> None:
    choices = ["d3 cruise c3", "d3 charge a3"]
    step = read_lesson("hairpin", lesson(choices=choices)).step(1)
    state = step.start()
    assert len(step.legal_names(state)) > len(choices)  # the rules allow more
    assert step.offered(step.legal_names(state)) == choices
    assert a_wrong_move(step, state) == "d3 cruise c3"  # the wrong one offered, not any
    assert check_lesson(read_lesson("hairpin", lesson(choices=choices))) == []


@pytest.mark.parametrize(("choices", "wrong", "words"), [
    (["d3 cruise c3", "d3 charge a3", "d3 charge f3"], None, "'d3 charge f3' is not a legal"),
    (["d3 cruise c3"], None, "leave out 'd3 charge a3'"),
    (["d3 cruise c3", "d3 charge a3"], "d3 charge b3", "leave out 'd3 charge b3'"),
    (["d3 charge a3"], None, "every choice is right"),
])
def test_check_lesson_finds_choices_that_do_not_teach(choices: list[str], wrong: str | None,
                                                      words: str) -> None:
    found = check_lesson(read_lesson("hairpin", lesson(choices=choices, wrong=wrong)))
    assert any(words in problem for problem in found), found


@pytest.mark.parametrize("choices", [[], "d3 charge a3", [3]])
def test_malformed_choices_are_refused_with_words(choices: Any) -> None:
    with pytest.raises(LessonError, match="choices"):
        read_lesson("hairpin", lesson(choices=choices))
