"""raceday.present's rules, on small made-up tables: slots, nested messages, lists per
language, fallbacks to English and to the key, a game's own key first; and the describe_*
helpers that the terminal, replays and commentary share."""

from __future__ import annotations

import pytest

from raceday.core.events import Event, Message
from raceday.core.protocol import Outcome
from raceday.present import (
    describe_event,
    describe_events,
    describe_outcome,
    outcome_message,
    render,
)
from raceday.present import messages as present

TABLES = {
    "en": {"a": "A {x} and {y}", "only_en": "English {n}", "g.a": "game A {x}",
           "g.event.throw": "#{rider} throws {dice}", "termination.laps": "the most laps",
           "g.termination.laps": "{winner} lapped them all", "list": "{items}",
           "pts.one": "{n} point", "pts.other": "{n} points", "g.pts.one": "{n} lap",
           "by.one@past": "by {past} square", "by.other@past": "by {past} squares",
           "g.event.cross": "{riders} across", "g.event.cross.tie.one@past": "a tie, {past} square",
           "g.event.cross.tie.other@past": "a tie, {past} squares"},
    "ja": {"a": "ア {x}、{y}", "g.event.throw": "{rider}番の出目 {dice}", "list": "{items}",
           "pts": "{n}点", "by.one@past": "{past}マス差", "by.other@past": "{past}マス差"},
}


@pytest.fixture(autouse=True)
def made_up_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(present, "table",
                        lambda lang: present.MessageTable(lang, TABLES[lang]))


def test_slots_take_the_parameters_and_unknown_slots_stay() -> None:
    assert render("a", params={"x": 1, "y": "b"}) == "A 1 and b"
    assert render("a", params={"x": 1}) == "A 1 and {y}"
    assert render(Message("a", {"x": 2.0, "y": 2.5})) == "A 2 and 2.5"
    assert render(Message("a", {"x": True, "y": None})) == "A yes and "
    assert render({"key": "a", "params": {"x": 3, "y": 4}}, "ja") == "ア 3、4"  # JSON form


def test_a_nested_message_and_a_list_render_in_the_language() -> None:
    nested = {"key": "only_en", "params": {"n": 3}}
    assert render(Message("list", {"items": [nested, "b", 7]}), "en") == "English 3, b, 7"
    assert render(Message("list", {"items": [nested, "b", 7]}), "ja") == "English 3、b、7"


def test_missing_in_japanese_falls_back_to_english_then_to_the_key() -> None:
    assert render("only_en", "ja", params={"n": 4}) == "English 4"
    assert render("nowhere", "ja") == "nowhere"


def test_a_games_own_key_comes_first() -> None:
    assert render("a", "en", "g", {"x": 1}) == "game A 1"
    assert render("a", "ja", "g", {"x": 1, "y": 2}) == "ア 1、2"  # ja has no g.a but has a
    assert render("a", "en", "other", {"x": 1, "y": 2}) == "A 1 and 2"


def test_the_count_n_chooses_a_keys_plural_form() -> None:
    assert [render("pts", params={"n": n}) for n in (1, 2, 0, 1.0, 1.5)] == [
        "1 point", "2 points", "0 points", "1 point", "1.5 points"]
    assert render("pts", params={"n": "1"}) == "1 point"  # a number's text counts too
    assert render("pts", params={"n": "1,200"}) == "1,200 points"
    assert render("pts", params={"n": True}) == "yes points"  # no count: the other form
    assert render("pts", params={"n": ""}) == " points"
    assert render("pts", "ja", params={"n": 1}) == "1点"  # a language without plurals
    assert render("pts", "en", "g", {"n": 1}) == "1 lap"  # the game's own form first
    assert render("pts", "en", "g", {"n": 3}) == "3 points"
    nested = Message("list", {"items": [Message("pts", {"n": 1}), Message("pts", {"n": 4})]})
    assert render(nested) == "1 point, 4 points"


def test_a_form_may_name_the_count_that_chooses_it() -> None:
    """"<key>.one@past": a key counted by a parameter other than n (n first, were both
    there); an event's variant may come in such forms only."""
    assert [render("by", params={"past": n}) for n in (1, 2, 1.0, 0)] == [
        "by 1 square", "by 2 squares", "by 1 square", "by 0 squares"]
    assert render("by", params={"past": "1"}) == "by 1 square"
    assert render("by", params={"past": "1,001"}) == "by 1,001 squares"
    assert render("by", params={"past": "one"}) == "by one squares"  # no count: other form
    assert render("by", params={"n": 1, "past": 2}) == "by 2 squares"  # no form for n
    assert render("pts", params={"past": 1, "n": 2}) == "2 points"  # no form for past
    assert render("by", "ja", params={"past": 1}) == "1マス差"
    tie = Event("cross", {"riders": [2, 5], "tie": True, "past": 1})
    assert describe_event("g", tie) == "a tie, 1 square"
    assert describe_event("g", Event("cross", {"riders": [2, 5], "tie": False, "past": 3})
                          ) == "2, 5 across"


def test_events_and_outcomes_are_described_from_their_keys() -> None:
    throw = Event("throw", {"rider": 4, "dice": [2, 5]})
    assert describe_event("g", throw) == "#4 throws 2, 5"
    assert describe_events("g", [throw, throw], "ja") == ["4番の出目 2、5"] * 2
    ended = Outcome(ranking=(1, 0), winner=1, termination="laps")
    assert outcome_message(ended) == Message("termination.laps", {"winner": 1})
    assert describe_outcome("g", ended) == "1 lapped them all"
    assert describe_outcome("h", ended) == "the most laps"
    told = Outcome(ranking=(0,), winner=0, message=Message("only_en", {"n": 9}))
    assert describe_outcome("g", told, "ja") == "English 9"
