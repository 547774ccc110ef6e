"""PISTARD's lesson (lessons/basics.json): every step's position is built by the rules, its
expected move is right and does what the step's words say, a wrong move changes nothing,
and every word exists in English and Japanese."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from raceday.core.lesson import Step, a_wrong_move, check_lesson, load_lesson
from raceday.core.record import Move, apply_move
from raceday.games.pistard.agents import LEVELS, make_agent
from raceday.games.pistard.game import GAME
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import colour_index
from raceday.games.pistard.variants import VARIANTS
from raceday.present.lessons import step_parts
from raceday.present.messages import table

GREEN = colour_index("green")
LESSON = load_lesson("pistard")
POSITIONS = [s for s in LESSON.steps if s.play is None]


def by_id(step_id: str) -> Step:
    return next(s for s in LESSON.steps if s.id == step_id)


def played(step: Step, name: str) -> tuple[PistardState, list[str], list[Any]]:
    """``name`` played in the step's position with the board's answer, as the rules play it
    (also for a wrong move, to see what it would have led to): the state, the event kinds
    and the events."""
    state = step.start()
    assert isinstance(state, PistardState)
    events = list(apply_move(state, Move(step.learner, name)))
    for move in step.answer:
        events += apply_move(state, move)
    return state, [e.kind for e in events], events


def rider(state: PistardState, ident: int) -> Any:
    return next(r for r in state.riders if r.ident == ident)


def test_the_lesson_holds_and_ends_with_a_first_race() -> None:
    assert check_lesson(LESSON) == []
    assert len(POSITIONS) >= 6
    last = LESSON.steps[-1]
    assert last.play is not None and all(s.play is None for s in LESSON.steps[:-1])
    assert last.play.level in LEVELS and last.play.level == LEVELS[0]  # the easiest
    GAME.options(last.play.options)  # options the game accepts


def test_the_steps_teach_colours_lanes_energy_shelter_then_every_race() -> None:
    assert [s.id for s in POSITIONS[:4]] == ["colours", "lanes", "energy", "shelter"]
    variants = [s.start().options.variant for s in POSITIONS[4:]]  # type: ignore[attr-defined]
    assert variants == list(VARIANTS)


@pytest.mark.parametrize("step", POSITIONS, ids=[s.id for s in POSITIONS])
def test_right_move_shows_its_events_and_a_wrong_one_changes_nothing(step: Step) -> None:
    state = step.start()
    before = json.dumps(state.to_json(), sort_keys=True)
    wrong = a_wrong_move(step, state)
    assert wrong is not None and not step.is_right(wrong)
    assert wrong in step.legal_names(state)
    tried = step.attempt(state, wrong)
    assert not tried.right and tried.legal and not tried.events
    assert json.dumps(state.to_json(), sort_keys=True) == before
    for name in step.expect:
        trial = step.start()
        right = step.attempt(trial, name)
        assert right.right
        assert set(step.shows) <= {e.kind for e in right.events}
        assert json.dumps(trial.to_json(), sort_keys=True) != before


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_word_of_the_lesson_exists_in_both_languages(lang: str) -> None:
    entries = table(lang).entries
    keys = ["pistard.lesson.title", "pistard.lesson.intro"]
    for step in LESSON.steps:
        keys += [step.key("pistard", part) for part in step_parts(step)]
    missing = [k for k in keys if not entries.get(k, "").strip()]
    assert missing == []
    for key in keys:
        entries[key].format(move="x")  # a template the faces can fill


def test_colours_the_die_lands_on_its_own_colour() -> None:
    step = by_id("colours")
    state, _, events = played(step, step.expect[0])
    move = next(e.data for e in events if e.kind == "move")
    r = rider(state, 11)
    assert move["colour"] == "green" and move["ahead"] == 5
    assert state.track.colour(r.dist, r.lane) == GREEN


def test_lanes_the_outer_rider_plays_his_six_inwards() -> None:
    step = by_id("lanes")
    start = step.start()
    assert isinstance(start, PistardState)
    state, _, _ = played(step, step.expect[0])
    assert rider(state, 11).dist - rider(start, 11).dist == 6
    assert rider(state, 11).lane < rider(start, 11).lane


def test_energy_a_token_wins_the_race_the_dice_alone_would_not() -> None:
    step = by_id("energy")
    state, kinds, _ = played(step, step.expect[0])
    assert "token" in kinds and state.is_terminal()
    assert state.outcome().winner == 11
    assert state.tokens[0] == 2
    no_token, _, _ = played(step, step.wrong or "")
    assert not no_token.is_terminal()


def test_shelter_the_move_ends_behind_a_rider_off_its_colour() -> None:
    step = by_id("shelter")
    state, _, events = played(step, step.expect[0])
    r, ahead = rider(state, 11), rider(state, 21)
    assert (r.lane, r.dist + 1) == (ahead.lane, ahead.dist)
    move = next(e.data for e in events if e.kind == "move")
    assert state.track.colour(r.dist, r.lane) != GREEN and move["colour"] == "green"


def test_scratch_furthest_past_the_line_wins_and_level_loses_to_the_inner_lane() -> None:
    step = by_id("scratch")
    won, _, _ = played(step, step.expect[0])
    assert won.outcome().winner == 11
    level, _, _ = played(step, step.wrong or "")
    assert level.outcome().winner == 21
    assert rider(level, 11).dist == rider(level, 21).dist


def test_points_the_crossing_wins_the_first_sprint() -> None:
    step = by_id("points")
    _, _, events = played(step, step.expect[0])
    sprint = next(e.data for e in events if e.kind == "sprint")
    assert sprint["places"][0] == [11, 1, 5]


def test_elimination_passing_31_puts_him_out_and_sheltering_puts_11_out() -> None:
    step = by_id("elimination")
    _, _, events = played(step, step.expect[0])
    assert next(e.data for e in events if e.kind == "heat")["eliminated"] == 31
    _, _, sheltered = played(step, step.wrong or "")
    assert next(e.data for e in sheltered if e.kind == "heat")["eliminated"] == 11


def test_sprint_standing_still_hands_the_lead_to_the_rival() -> None:
    step = by_id("sprint")
    state, _, _ = played(step, step.expect[0])
    assert rider(state, 21).dist > rider(state, 11).dist
    assert state.stills[0] == 1


def test_ttt_and_pursuit_the_third_riders_crossing_decides() -> None:
    ttt, kinds, _ = played(by_id("ttt"), by_id("ttt").expect[0])
    assert "team_time" in kinds and ttt.is_terminal()
    slow, _, _ = played(by_id("ttt"), by_id("ttt").wrong or "")
    assert not slow.is_terminal()
    step = by_id("pursuit")
    pursuit, _, _ = played(step, step.expect[0])
    assert pursuit.outcome().winning_players == (1,)  # the learner's team 2
    third, mate = rider(pursuit, 23), rider(pursuit, 22)
    assert (third.lane, third.dist + 1) == (mate.lane, mate.dist)  # in his shelter
    assert third.dist >= pursuit.track.length  # over the line
    short, _, _ = played(step, step.wrong or "")
    assert not short.is_terminal()


def test_the_first_race_is_short() -> None:
    """Played through by two easy riders (seed 48): the learner's decisions in the first
    race stay far under what ten minutes allow (a hang guard, not a timing)."""
    play = LESSON.steps[-1].play
    assert play is not None
    rng = np.random.default_rng(48)
    agent = make_agent(play.level)
    state = GAME.new_state(play.options, seed=48)
    learner_decisions = 0
    for _ in range(GAME.max_steps(play.options)):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            pick = rng.integers(len(outcomes))
            state.apply_action(outcomes[pick][0])
            continue
        if state.current_player() == play.learner:
            learner_decisions += 1
        state.apply_action(agent.choose(state, rng))
    assert state.is_terminal()
    assert learner_decisions <= 40


def test_the_lesson_page_draws_the_squares_colours() -> None:
    """The page's board (``static/frame.js``) reads the track's lanes as colour letters, as a
    room gives them: every step's board names each square's colour (the state's own grid
    holds numbers, which drew every square blank)."""
    from raceday.games.pistard.track import LETTERS
    from raceday.web.learn import board_frame

    for step in LESSON.steps:
        if step.play is not None:
            continue
        state = step.start()
        track = board_frame("pistard", state)["track"]
        assert track["length"] == state.track.length
        assert track["grid"] == ["".join(LETTERS[c] for c in state.track.grid[lane])
                                 for lane in range(1, state.track.lanes + 1)], step.id
        assert set("".join(track["grid"])) <= set(LETTERS) and track["lines"]
