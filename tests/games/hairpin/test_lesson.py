"""Hairpin Racers' lesson (lessons/basics.json): it plays through its own rules, every
step's words exist in English and Japanese, every right move does what its words say, and a
wrong move is refused without touching the board."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from raceday.core.lesson import WORDS, Step, a_wrong_move, check_lesson, load_lesson
from raceday.core.protocol import TERMINAL
from raceday.games.hairpin.agents import LEVELS
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.rules import BLACK, RED, TRACK_INDEX, HairpinState, parse_square
from raceday.present import LANGUAGES, table
from raceday.present.messages import PLACEHOLDER

LESSON = load_lesson("hairpin")
POSITIONS = [s for s in LESSON.steps if s.play is None]


def test_the_lesson_holds_when_played_through_its_rules() -> None:
    assert check_lesson(LESSON) == []


def test_six_or_more_positions_then_a_first_game_against_the_easiest_computer() -> None:
    assert len(POSITIONS) >= 6
    last = LESSON.steps[-1]
    assert last.play is not None and all(s.play is None for s in LESSON.steps[:-1])
    assert last.play.level in LEVELS and last.play.level == next(iter(LEVELS))
    assert last.play.learner == RED
    game = new_game(dict(last.play.options))  # the options make a game
    assert game.current_player() == RED


def test_the_steps_teach_the_rules_in_order() -> None:
    ids = [s.id for s in POSITIONS]
    topics = ["track", "charge", "cruise", "hairpin", "bump", "lap", "win"]
    assert [i for i in ids if i in topics] == topics


def _keys(step: Step) -> list[str]:
    parts = ("title", "idea", "prompt") if step.play is not None else WORDS
    return [step.key("hairpin", part) for part in parts]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_of_the_lesson_is_in_the_table(lang: str) -> None:
    entries = table(lang).entries
    keys = ["hairpin.lesson.title", "hairpin.lesson.intro"]
    keys += [k for step in LESSON.steps for k in _keys(step)]
    missing = [k for k in keys if not entries.get(k, "").strip()]
    assert missing == []
    slots = {k: set(PLACEHOLDER.findall(entries[k])) - {"move"} for k in keys}
    assert {k: s for k, s in slots.items() if s} == {}  # only {move} is given


def test_no_prompt_names_the_move_it_asks_for() -> None:
    for step in POSITIONS:
        for lang in LANGUAGES:
            prompt = table(lang).entries[step.key("hairpin", "prompt")]
            assert "{move}" not in prompt and step.expect[0] not in prompt


@pytest.mark.parametrize("step", POSITIONS, ids=lambda s: s.id)
def test_a_wrong_move_is_legal_refused_and_changes_nothing(step: Step) -> None:
    state = step.start()
    before = state.to_json()
    wrong = a_wrong_move(step, state)
    assert wrong is not None and wrong in step.legal_names(state)
    tried = step.attempt(state, wrong)
    assert not tried.right and tried.legal and tried.events == []
    assert state.to_json() == before


def _squares(state: HairpinState, name: str) -> int:
    """How many squares along Red's track the move ``name`` (from ``state``) travels."""
    origin, _, dest = name.split()[:3]
    return (TRACK_INDEX[RED][parse_square(dest)] - TRACK_INDEX[RED][parse_square(origin)]) % 18


def _column(state: HairpinState, square: str) -> int:
    """How many racers (both colours) stand in ``square``'s column."""
    column = parse_square(square) % 6
    return sum(abs(state.position.cells[column + 6 * row]) for row in range(3))


def _track(before: HairpinState, after: HairpinState, name: str) -> None:
    assert _squares(before, name) == 1 and after.current_player() == RED  # Black answered


def _charge(before: HairpinState, after: HairpinState, name: str) -> None:
    assert "charge" in name and _squares(before, name) == _column(before, name.split()[0]) == 4
    others = [n for n in _names(before) if n.startswith("b1") and n != name]
    assert others == ["b1 cruise c1"] and _squares(before, others[0]) == 1


def _cruise(before: HairpinState, after: HairpinState, name: str) -> None:
    assert "cruise" in name and _squares(before, name) == 3
    assert not any(n.startswith("a1 charge") for n in _names(before))  # the charge is blocked


def _hairpin(before: HairpinState, after: HairpinState, name: str) -> None:
    dest = parse_square(name.split()[2])
    assert parse_square(name.split()[0]) // 6 == 0 and dest // 6 == 1  # row 1 to row 2
    assert [n for n in _names(before) if parse_square(n.split()[2]) // 6 == 1] == [name]


def _bump(before: HairpinState, after: HairpinState, name: str) -> None:
    assert after.position.bumps == (1, 0) and after.position.pit == (0, 0)
    assert after.position.cells[parse_square("f3")] == -1  # re-entered at Black's start
    assert after.current_player() == RED  # and Red moves again


def _pass(before: HairpinState, after: HairpinState, name: str) -> None:
    assert before.position.bumps[RED] == 4 and after.position.bumps[RED] == 4
    assert not after.is_terminal() and after.position.cells[parse_square("b2")] == 1


def _lap(before: HairpinState, after: HairpinState, name: str) -> None:
    assert after.position.laps == (1, 0) and _squares(before, name) == 3
    cruised = before.clone()
    cruised.apply_action(cruised.string_to_action("e3 cruise f3"))
    assert cruised.position.laps == (0, 0)  # the cruise stops short of the line


def _win(before: HairpinState, after: HairpinState, name: str) -> None:
    assert after.current_player() == TERMINAL and after.outcome().winner == RED
    assert before.position.bumps[RED] == 4  # so the tempting bump would lose
    bumped = before.clone()
    bumped.apply_action(bumped.string_to_action("c1 charge f1 bump"))
    assert bumped.outcome().winner == BLACK


def _names(state: HairpinState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


CLAIMS: dict[str, Callable[[HairpinState, HairpinState, str], None]] = {
    "track": _track, "charge": _charge, "cruise": _cruise, "hairpin": _hairpin,
    "bump": _bump, "pass": _pass, "lap": _lap, "win": _win,
}


def test_every_position_step_has_its_claims_checked() -> None:
    assert sorted(CLAIMS) == sorted(s.id for s in POSITIONS)


@pytest.mark.parametrize("step", POSITIONS, ids=lambda s: s.id)
def test_every_right_move_does_what_the_words_say(step: Step) -> None:
    for name in step.expect:
        before = step.start()
        assert isinstance(before, HairpinState) and before.current_player() == RED
        after = before.clone()
        tried = step.attempt(after, name)
        assert tried.right and {e.kind for e in tried.events} >= set(step.shows)
        CLAIMS[step.id](before, after, name)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["red: e1 cruise f1", "black: b3 cruise a3"]),
    ("ja", ["赤：e1→f1 クルーズ", "黒：b3→a3 クルーズ"])])
def test_what_a_move_did_is_said_in_the_tables_words(lang: str, said: list[str]) -> None:
    """The page's ``told`` events are messages whose facts are the tables' words (the side,
    the move): a move event's own fact ``kind`` no longer hides that it is a move (the
    page had left every move unsaid), and no code (``red``, ``cruise``) reaches a Japanese
    reader; the terminal says the same."""
    from raceday.present.lessons import event_words
    from raceday.present.messages import render
    from raceday.web.learn import try_answer

    step = LESSON.step(1)
    told = try_answer("hairpin", 1, {"move": step.expect[0]})["told"]
    assert [m["key"] for m in told][:2] == ["event.move", "event.move"]
    assert [render(m, lang, "hairpin") for m in told][:2] == said
    tried = step.attempt(step.start(), step.expect[0])
    assert event_words("hairpin", tried.events, lang)[:2] == said
