"""Dice Derby's lesson (#48): every step's position is built by the rules, every expected
move does what the step's words say (the d8 drops on a tie, the d4 beats the d20, the
d20 is bought, the tickets and the owner's prize pay what the text says), a wrong move is
answered with the hint and changes nothing, the odds quoted in the words are the board's,
and every word is in both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from raceday.core.events import Event
from raceday.core.lesson import Lesson, Step, a_wrong_move, check_lesson, load_lesson
from raceday.core.protocol import HOST
from raceday.games.derby import evening
from raceday.games.derby.agents import STYLES, expected_prizes
from raceday.games.derby.evening import EveningOptions, EveningState
from raceday.games.derby.odds import format_odds
from raceday.games.derby.rules import DerbyState
from raceday.present.lessons import step_parts

MESSAGES = Path(evening.__file__).parent / "messages"


@pytest.fixture(scope="module")
def lesson() -> Lesson:
    return load_lesson("derby")


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, str]]:
    return {lang: json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
            for lang in ("en", "ja")}


def step(lesson: Lesson, name: str) -> Step:
    return next(s for s in lesson.steps if s.id == name)


def tried(s: Step, name: str) -> tuple[Any, list[Event]]:
    """The state after ``name`` (and the board's answer) at step ``s``, and its events."""
    state = s.start()
    attempt = s.attempt(state, name)
    assert attempt.right, name
    return state, attempt.events


def one(events: list[Event], kind: str) -> Event:
    (found,) = [e for e in events if e.kind == kind]
    return found


def test_the_lesson_holds_by_the_rules(lesson: Lesson) -> None:
    assert check_lesson(lesson) == []


def test_six_position_steps_then_a_first_evening_against_the_easiest_computer(
        lesson: Lesson) -> None:
    *positions, last = lesson.steps
    assert len(positions) >= 6 and all(s.play is None for s in positions)
    assert [s.id for s in positions][:2] == ["lowest_drops", "d20_favourite"]  # the race first
    assert last.play is not None and last.play.learner == 0
    assert last.play.level == "cautious" and last.play.level in STYLES
    options = EveningOptions.parse(dict(last.play.options))
    assert options.races == 4  # the shortest evening


def test_every_word_is_in_english_and_japanese(
        lesson: Lesson, tables: dict[str, dict[str, str]]) -> None:
    keys = {"lesson.title", "lesson.intro"}
    for s in lesson.steps:
        parts = step_parts(s)
        keys |= {s.key("derby", part).removeprefix("derby.") for part in parts}
    for lang, table in tables.items():
        missing = sorted(k for k in keys if not table.get(k, "").strip())
        assert missing == [], (lang, missing)
        stray = sorted(k for k in table if k.startswith("lesson.") and k not in keys)
        assert stray == [], (lang, stray)
    # Japanese words are Japanese, and quinella is 馬連
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", tables["ja"][k]) for k in keys)
    assert "馬連" in tables["ja"]["lesson.quinella.idea"]


def test_every_expected_move_is_right_and_shows_what_the_step_says(lesson: Lesson) -> None:
    for s in lesson.steps:
        if s.play is not None:
            continue
        for name in s.expect:
            _, events = tried(s, name)
            kinds = {e.kind for e in events}
            assert set(s.shows) <= kinds, (s.id, name, s.shows, kinds)


def test_a_wrong_move_gets_the_hint_and_changes_nothing(lesson: Lesson) -> None:
    for s in lesson.steps:
        if s.play is not None:
            continue
        state = s.start()
        before = state.to_json()
        wrong = a_wrong_move(s, state)
        assert wrong is not None and wrong in s.legal_names(state), s.id
        attempt = s.attempt(state, wrong)
        assert not attempt.right and attempt.legal and attempt.events == []
        assert state.to_json() == before, s.id


def test_lowest_drops_is_the_documents_tie_the_d8_goes(lesson: Lesson) -> None:
    s = step(lesson, "lowest_drops")
    _, events = tried(s, "d8 shows 1")
    assert one(events, "round")["out"] == ["d8"]
    # the only way: any other throw of the d8 sends the d4 out
    for name in s.legal_names(s.start()):
        if name != "d8 shows 1":
            state = s.start()
            state.apply_action(int(name.split()[-1]))
            for line in s.answer:
                state.apply_action(int(line.name.split()[-1]))
            assert isinstance(state, DerbyState) and state.places == {1: 6}


def test_the_d4_wins_on_exactly_the_d20_throws_expected(lesson: Lesson) -> None:
    s = step(lesson, "d20_favourite")
    start = s.start()
    assert isinstance(start, DerbyState) and start.group == [1, 6]
    for value in range(1, 21):
        state = start.clone()
        state.apply_action(value)
        d4_wins = state.winner() == 1
        assert d4_wins == s.is_right(f"d20 shows {value}"), value
    assert len(s.expect) == 4  # four faces in twenty, as the words say


def test_the_auction_buys_the_d20_at_a_bid_worth_its_prizes(lesson: Lesson) -> None:
    s = step(lesson, "auction")
    start = s.start()
    assert isinstance(start, EveningState) and start.bids == {1: 3000}
    worth = expected_prizes(start.ledger, 6)
    assert 4200 < worth < 4400  # "about 4,300 over four races"
    for name in s.expect:
        bid = int(name.split()[-1])
        assert 3000 < bid <= worth
        state, events = tried(s, name)
        lot = one(events, "lot")
        assert lot["horse"] == "d20" and lot["buyer_name"] == "Aki" and lot["price"] == bid
        assert state.ledger.players[0].money == 10_000 - bid
    # the wrong bid loses the lot to Ben
    lost = start.clone()
    lost.apply_action_for(0, start.bid_action(0, 2000))
    assert lost.ledger.owner_of(6) == 1


def aki_paid(event: Event) -> list[tuple[str, int]]:
    return [(p["what"], p["amount"]) for p in event["payouts"] if p["player"] == 0]


def test_the_win_ticket_pays_stake_times_the_boards_odds(lesson: Lesson) -> None:
    s = step(lesson, "win_ticket")
    start = s.start()
    assert isinstance(start, EveningState)
    assert start.ledger.board().win[6] == 20  # 2.0, in tenths
    _, events = tried(s, "win d20 1000")
    settled = one(events, "settled")
    assert settled["order"][0] == "d20"
    assert aki_paid(settled) == [("win d20", 2000)]


def test_the_quinella_pays_in_either_order(lesson: Lesson) -> None:
    s = step(lesson, "quinella")
    start = s.start()
    assert isinstance(start, EveningState) and start.ledger.race == 2
    assert start.ledger.board().quinella[(5, 6)] == 44
    _, events = tried(s, "quinella d12-d20 500")
    assert one(events, "settled")["order"][:2] == ["d12", "d20"]  # the favourite 2nd
    assert aki_paid(one(events, "quinella_paid")) == [("quinella d12-d20", 2200)]


def test_owning_the_winner_pays_the_owners_prize(lesson: Lesson) -> None:
    s = step(lesson, "owners_prize")
    start = s.start()
    assert isinstance(start, EveningState) and start.options.host
    assert s.learner == HOST and start.ledger.owner_of(6) == 0 and start.ledger.owner_of(5) == 1
    for value in range(1, 21):
        right = s.is_right(f"d20 shows {value}")
        state = start.clone()
        events = state.apply_action_for(HOST, value)
        settled = one(events, "settled")
        assert (settled["order"][0] == "d20") == right, value
        if right:
            assert aki_paid(settled) == [("prize 1st (d20)", 2000)]
            assert [(p["player"], p["what"], p["amount"]) for p in settled["payouts"]
                    if p["player"] == 1] == [(1, "prize 2nd (d12)", 1000)]


def test_the_odds_in_the_words_are_the_boards(
        lesson: Lesson, tables: dict[str, dict[str, str]]) -> None:
    board = step(lesson, "win_ticket").start()
    assert isinstance(board, EveningState)
    win = board.ledger.board().win
    quinella = board.ledger.board().quinella[(5, 6)]
    for table in tables.values():
        for key in ("lesson.d20_favourite.idea", "lesson.win_ticket.idea"):
            assert format_odds(win[6]) in table[key] and format_odds(win[1]) in table[key]
        assert format_odds(quinella) in table["lesson.quinella.idea"]
