"""KEIRIN's lesson (games/keirin/lessons/basics.json): every step holds in the rules, does
what its words say, and its words exist in English and Japanese; the numbers the words
quote are the engine's own odds."""

from __future__ import annotations

from typing import Any

import pytest

from raceday.core.events import Event
from raceday.core.lesson import Step, a_wrong_move, check_lesson, load_lesson
from raceday.core.protocol import State
from raceday.core.record import Move, apply_move
from raceday.games.keirin.night import NightOptions, odds_board
from raceday.games.keirin.room import KeirinRoom
from raceday.games.keirin.rules import KeirinState
from raceday.present.lessons import PLAY_WORDS, step_parts
from raceday.present.messages import table

LESSON = load_lesson("keirin")
POSITIONS = [s for s in LESSON.steps if s.play is None]


def step(step_id: str) -> Step:
    return next(s for s in LESSON.steps if s.id == step_id)


def right_events(step_id: str, move: str | None = None) -> list[Event]:
    s = step(step_id)
    tried = s.attempt(s.start(), move or s.expect[0])
    assert tried.right
    return tried.events


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def test_the_lesson_holds_in_the_rules() -> None:
    assert check_lesson(LESSON) == []


def test_six_positions_or_more_then_a_first_night_last() -> None:
    assert len(POSITIONS) >= 6
    assert all(s.play is None for s in LESSON.steps[:-1])
    play = LESSON.steps[-1].play
    assert play is not None and play.learner == 0
    # the easiest (the only) computer a KEIRIN night has: a seat that never bets
    room = KeirinRoom.create({"races": 1, "riders": 6}, 1)
    assert play.level == room.stand_in_levels()[0]
    NightOptions.parse(play.options)  # options a night accepts


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_word_is_in_both_languages(lang: str) -> None:
    entries = table(lang).entries
    keys = ["keirin.lesson.title", "keirin.lesson.intro"]
    for s in LESSON.steps:
        keys += [s.key("keirin", part) for part in step_parts(s)]
    missing = [k for k in keys if not entries.get(k, "").strip()]
    assert missing == []


@pytest.mark.parametrize("s", POSITIONS, ids=lambda s: s.id)
def test_each_expected_move_is_right_and_shows_what_the_step_says(s: Step) -> None:
    for name in s.expect:
        tried = s.attempt(s.start(), name)
        assert tried.right and tried.legal
        kinds = {e.kind for e in tried.events}
        assert set(s.shows) <= kinds, name


@pytest.mark.parametrize("s", POSITIONS, ids=lambda s: s.id)
def test_a_wrong_move_is_refused_and_changes_nothing(s: Step) -> None:
    state: State = s.start()
    before = state.to_json()
    wrong = a_wrong_move(s, state)
    assert wrong is not None and wrong in s.legal_names(state)  # a move one might make
    tried = s.attempt(state, wrong)
    assert not tried.right and tried.legal and not tried.events
    assert state.to_json() == before


def test_the_derny_step_leaves_rider_1_forty_squares_out() -> None:
    lineup = of_kind(right_events("derny"), "lineup")[0]
    slip = of_kind(right_events("derny"), "slipstream")[0]
    assert slip["to"] == 10 and lineup["finish"] - slip["to"] == 40


def test_the_dice_steps_move_the_rules_examples() -> None:
    assert of_kind(right_events("dice"), "throw")[0]["advance"] == 3
    sixes = of_kind(right_events("sixes"), "throw")[0]
    assert (sixes["rider"], sixes["from"], sixes["to"]) == (3, 3, 10)


def test_the_passing_step_passes_and_the_wrong_throw_only_draws_level() -> None:
    for name in step("passing").expect:
        passed = of_kind(right_events("passing", name), "overtake")
        assert passed == [{**passed[0], "rider": 3, "passed": [2]}]
    s = step("passing")
    state = s.start()
    assert isinstance(state, KeirinState) and s.wrong is not None
    events = list(apply_move(state, Move(s.learner, s.wrong)))
    for move in s.answer:
        events += apply_move(state, move)
    assert not of_kind(events, "overtake")
    assert state.positions[1] == state.positions[2] == 15


def test_the_finish_step_wins_for_rider_6_and_its_wrong_throw_is_a_photo() -> None:
    for name in step("finish").expect:
        first = of_kind(right_events("finish", name), "place")[0]
        assert first["rider"] == 6
    s = step("finish")
    assert s.wrong is not None
    events = apply_move(s.start(), Move(s.learner, s.wrong))
    assert of_kind(events, "photo_finish")[0]["riders"] == [3, 6]


def win_board() -> dict[int, tuple[float, int]]:
    """Rider -> (chance, odds in hundredths) of the night the betting steps are on."""
    record = step("win_ticket").position
    assert record is not None and record.game == "keirin_night"
    o = NightOptions.parse(record.options)
    board = odds_board(o.riders, o.length, o.derny, o.mode, o.margin)
    return {row["riders"][0]: (row["chance"], row["odds"]) for row in board["top"]["win"]}


def test_the_betting_steps_name_the_favourite_and_the_long_shot() -> None:
    board = win_board()
    favourite = min(board, key=lambda r: board[r][1])
    long_shot = max(board, key=lambda r: board[r][1])
    assert step("win_ticket").expect == [f"win {favourite} for 100.00"]
    assert step("fair_odds").expect == [f"win {long_shot} for 100.00"]
    # fair odds: every ticket returns its stake on average (the 'why' of fair_odds)
    assert all(chance * odds / 100 == pytest.approx(1, abs=0.01)
               for chance, odds in board.values())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_odds_the_words_quote_are_the_boards(lang: str) -> None:
    board = win_board()
    entries = table(lang).entries
    idea = entries["keirin.lesson.win_ticket.idea"]
    for _, odds in board.values():
        assert f"{odds // 100}.{odds % 100:02d}" in idea
    rider4_chance, rider4_odds = board[4]
    rider6_chance, rider6_odds = board[6]
    why = entries["keirin.lesson.fair_odds.why"]
    # a 100.00 ticket at odds 8.11 returns 811.00
    assert f"{rider6_chance:.1%}" in why and f"{rider6_odds}.00" in why
    assert f"{rider4_chance:.1%} × {rider4_odds}" in why
    assert f"{rider4_chance:.1%}" in entries["keirin.lesson.fair_odds.idea"]


def test_done_starts_the_race() -> None:
    events = right_events("done")
    assert of_kind(events, "betting_closed")[0]["tickets"] == 3
    assert of_kind(events, "derny")[0]["roll"] == 12


def test_the_lesson_reads_in_a_few_minutes() -> None:
    """The words a newcomer reads on the way through (hints only come after a wrong try):
    under 1,000, about five minutes at an unhurried 200 words a minute."""
    entries = table("en").entries
    read = ["keirin.lesson.title", "keirin.lesson.intro"] + [
        s.key("keirin", p) for s in LESSON.steps
        for p in (PLAY_WORDS if s.play else ("title", "idea", "prompt", "why"))]
    assert sum(len(entries[k].split()) for k in read) < 1000


def test_the_lesson_page_draws_the_riders_where_the_race_has_them() -> None:
    """The page's board is the velodrome of a room's frame (``static/frame.js``): the derny
    step shows the riders queued behind the derny on square 0, a race step every rider on
    his square, a betting step the empty track of the race on sale."""
    from raceday.web.learn import board_frame

    derny = board_frame("keirin", step("derny").start())
    assert derny["derny"] == 0 and derny["riders"] == 6 and derny["finish"] == 50
    assert derny["positions"] == {str(r): -3 * r for r in range(1, 7)}
    race = step("finish").start()
    frame = board_frame("keirin", race)
    assert frame["phase"] == "race" and frame["turn"] == race.turn
    assert frame["positions"] == {str(r): p for r, p in enumerate(race.positions, start=1)}
    betting = board_frame("keirin", step("win_ticket").start())
    assert betting["phase"] == "betting" and betting["positions"] == {}
    assert betting["race"] == 1 and betting["lap"] > betting["finish"] > 0
