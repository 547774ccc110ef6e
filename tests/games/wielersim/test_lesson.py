"""WielerSIM's lesson (lessons/basics.json): every step's position is built by the rules,
every expected throw does what the step's words say, a wrong throw changes nothing, and
every word is there in English and Japanese."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import numpy as np
import pytest

from raceday.core.events import Event
from raceday.core.lesson import Step, a_wrong_move, check_lesson, load_lesson
from raceday.core.protocol import CHANCE
from raceday.core.record import Move, apply_move
from raceday.games.wielersim import dice
from raceday.games.wielersim.game import GAME
from raceday.games.wielersim.rules import WielersimState
from raceday.present.lessons import step_parts
from raceday.present.messages import describe_action, render, table

LESSON = load_lesson("wielersim")
POSITIONS = [s for s in LESSON.steps if s.play is None]


def rider_moves(events: list[Event], rider: int) -> list[Event]:
    return [e for e in events if e.kind == "move" and e.data["rider"] == rider]


def place(state: WielersimState, number: int) -> float:
    """The place of rider ``number`` at the finish (1 is the winner; not yet: infinity)."""
    finished = [state.num(r) for r, _, _ in state.results]
    return finished.index(number) + 1 if number in finished else float("inf")


def gap(state: WielersimState, number: int) -> int | None:
    """Rider ``number``'s seconds behind the winner (None: not finished)."""
    return next((g for r, g, _ in state.results if state.num(r) == number), None)


def square_of(state: WielersimState, number: int) -> int:
    return state.pos[state.peloton.index_of(number)]


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


# What each step's words promise, checked on the state after the throw and its answer.
Idea = Callable[[WielersimState, list[Event]], bool]
IDEAS: dict[str, Idea] = {
    # #12 and #21 move without throwing, the same number as #11
    "aspiration": lambda s, ev: all(
        [m.data["how"] for m in rider_moves(ev, n)] == ["follow"] for n in (12, 21)),
    # #11 attacks; nobody follows him in the slipstream
    "attack": lambda s, ev: [e.data["rider"] for e in kinds(ev, "attack")] == [11]
    and not any(e.data["how"] == "follow" for e in kinds(ev, "move")),
    # red accelerates and finishes ahead of green
    "climb": lambda s, ev: [e.data["rider"] for e in kinds(ev, "accelerate")] == [3]
    and place(s, 3) < place(s, 2),
    # yellow ends level with green on the cobbles
    "cobbles": lambda s, ev: square_of(s, 1) == square_of(s, 2) == 31,
    # a 7 sends #11 to the event table, where the answer is a flat tyre
    "event_table": lambda s, ev: [e.data["rider"] for e in kinds(ev, "flat_tyre")] == [11],
    # the sprinter wins the sprint from the back
    "sprint": lambda s, ev: s.is_terminal() and s.outcome().ranking[0] == 6,
    # green finishes this turn, 1'12" behind; black and purple 42 s
    "time_gaps": lambda s, ev: gap(s, 6) == 72 and gap(s, 4) == gap(s, 5) == 42,
    # the whole group crosses together and sprints; the sprinter takes the points
    "points": lambda s, ev: len(kinds(ev, "sprint")) == 1
    and [s.num(r) for r in s.sprint_places[0]] == [12, 11, 21],
    # the jersey takes the first start place, on square 20
    "jersey": lambda s, ev: [(e.data["rider"], e.data["square"]) for e in kinds(ev, "grid")]
    == [(21, 20)],
}


def test_the_lesson_holds_and_ends_with_a_first_race() -> None:
    assert check_lesson(LESSON) == []
    assert len(POSITIONS) >= 6
    assert [s.id for s in POSITIONS] == list(IDEAS)
    assert LESSON.steps[-1].play is not None
    assert all(s.play is None for s in LESSON.steps[:-1])
    assert all(s.learner == CHANCE for s in POSITIONS)  # the learner throws the dice


@pytest.mark.parametrize("step", POSITIONS, ids=lambda s: s.id)
def test_every_expected_throw_shows_the_idea_and_the_wrong_one_does_not(step: Step) -> None:
    start = step.start()
    assert isinstance(start, WielersimState)
    for name in step.expect:
        state = start.clone()
        tried = step.attempt(state, name)
        assert tried.right
        assert IDEAS[step.id](state, tried.events), f"{step.id}: {name}"
    wrong = a_wrong_move(step, start)
    assert wrong is not None
    played = start.clone()
    events = apply_move(played, Move(CHANCE, wrong))
    for move in step.answer:  # the same answer, where the rules still take it
        if any(played.action_to_string(a) == move.name for a, _ in played.chance_outcomes()):
            events += apply_move(played, move)
    assert not IDEAS[step.id](played, events), f"{step.id}: the wrong {wrong} shows it too"


@pytest.mark.parametrize("step", POSITIONS, ids=lambda s: s.id)
def test_a_wrong_throw_is_legal_gets_the_hint_and_changes_nothing(step: Step) -> None:
    state = step.start()
    before = json.dumps(state.to_json(), sort_keys=True)
    wrong = a_wrong_move(step, state)
    assert wrong is not None and wrong in step.legal_names(state)
    tried = step.attempt(state, wrong)
    assert not tried.right and tried.legal and tried.events == []
    assert json.dumps(state.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_word_of_the_lesson_is_in_both_tables(lang: str) -> None:
    words = table(lang).entries
    keys = ["wielersim.lesson.title", "wielersim.lesson.intro"]
    for step in LESSON.steps:
        keys += [step.key("wielersim", part) for part in step_parts(step)]
    missing = [k for k in keys if not words.get(k, "").strip()]
    assert missing == []


def test_the_first_race_is_short_and_rides_to_the_end() -> None:
    play = LESSON.steps[-1].play
    assert play is not None and play.learner == CHANCE
    options = GAME.options(play.options)
    assert options.peloton["riders"] and len(options.peloton["riders"]) <= 12
    state = GAME.new_state(options)
    rng = np.random.default_rng(48)
    throws = 0
    while not state.is_terminal() and throws < 2000:  # a hang guard, not a timing
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
        throws += 1
    assert state.is_terminal()
    assert len(state.results) == len(options.peloton["riders"])


DICE_CODE = re.compile(r"\b\d*d(?:6|10)(?:b2|r)?\b")  # d6, 2d6, 3d6b2, 4d6r, 2d10


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_kind_of_throw_has_its_words_in_both_tables(lang: str) -> None:
    words = table(lang).entries
    for kind in dice.KINDS:
        text = words.get(f"wielersim.dice.{kind}", "")
        assert text.strip() and text != kind and not DICE_CODE.search(text), f"{lang}: {kind}"
    assert len({words[f"wielersim.dice.{kind}"] for kind in dice.KINDS}) == len(dice.KINDS)


def test_the_words_of_the_dice_say_how_many_and_which_count() -> None:
    assert render("wielersim.dice.3d6b2", "en") == "3 dice, best two"
    assert render("wielersim.dice.3d6b2", "ja") == "サイコロ3個の上位2個"
    assert render("wielersim.dice.2d10", "ja") == "10面ダイス2個"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("step", POSITIONS, ids=lambda s: s.id)
def test_the_lessons_menu_and_answer_show_no_dice_code(step: Step, lang: str) -> None:
    from raceday.cli.learn import _menu
    from raceday.present.lessons import event_words

    state = step.start()
    labels = [label for _, label in _menu(step, state, lang)]
    assert labels and [label for label in labels if DICE_CODE.search(label)] == []
    # the record's move names keep their codes (records and saves depend on them)
    assert all(DICE_CODE.search(name) for name, _ in _menu(step, state, lang))
    told = event_words("wielersim", step.attempt(state, step.expect[0]).events, lang)
    assert told and [line for line in told if DICE_CODE.search(line)] == []


def test_a_throw_reads_naturally() -> None:
    climb = next(s for s in POSITIONS if s.id == "climb")
    state = climb.start()
    action = next(a for a, _ in state.chance_outcomes() if a == 7)
    assert describe_action(state, action, "en") == "#3 accelerates: 3 dice, best two → 7"
    assert describe_action(state, action, "ja") == "#3 加速：サイコロ3個の上位2個 → 7"
    assert state.action_to_string(action) == "#3 accelerate 3d6b2 = 7"  # the record's name


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_records_replay_words_the_dice(lang: str) -> None:
    from raceday.present.replay import step_text
    from raceday.web.replay import record_replay

    climb = next(s for s in POSITIONS if s.id == "climb")
    text = climb.position.text() + f"chance: {climb.expect[0]}\n"
    steps = record_replay(text)["steps"]
    lines = [line for step in steps[1:] for line in step_text(step, "wielersim", lang)[1:]]
    assert any(render("wielersim.dice.3d6b2", lang) in line for line in lines)
    assert [line for line in lines if DICE_CODE.search(line)] == []
