"""WielerSIM's words come from its message tables: every event kind, the commentary, the
throws and the results render in English and Japanese with every slot filled; outcomes
say how the race (or each classification of a stage race) was decided; frames are JSON."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from raceday.core.errors import GameNotOverError
from raceday.core.events import Event, Message
from raceday.core.protocol import Termination
from raceday.games.wielersim.commentary import Commentator
from raceday.games.wielersim.dice import KINDS
from raceday.games.wielersim.game import GAME, new_race
from raceday.games.wielersim.peloton import peloton_from_spec
from raceday.games.wielersim.render import group_summary, scoring_lines
from raceday.games.wielersim.rules import EVENT_KINDS, PURPOSES, WielersimState, peloton_spec
from raceday.games.wielersim.stage import (
    classification_outcomes,
    classifications,
    resolve_tour,
    tour_records,
)
from raceday.present import (
    LANGUAGES,
    describe_action,
    describe_event,
    describe_outcome,
    render,
    table,
)

SLOT = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
# a race on each shipped route with the whole peloton: every kind of event happens in them
RACES = [("flanders", 1), ("ardennes", 2), ("mountain-stage", 3), ("flat-stage", 4),
         ("flanders", 5), ("ardennes", 6)]


def ridden(route: str, seed: int) -> tuple[WielersimState, list[list[Event]]]:
    """A race ridden to the end, with its events turn by turn."""
    state = new_race({"route": route, "peloton": "classics"})
    rng = np.random.default_rng(seed)
    turns: list[list[Event]] = [[]]
    turn = state.turn
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        turns[-1].extend(state.apply_action(draw.outcome, draw.detail))
        if state.turn != turn:
            turns.append([])
            turn = state.turn
    return state, turns


@pytest.fixture(scope="module")
def races() -> list[tuple[WielersimState, list[list[Event]]]]:
    return [ridden(route, seed) for route, seed in RACES]


def filled(text: str) -> bool:
    return SLOT.search(text) is None and text.strip() != ""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_kind_and_purpose_has_words(lang: str) -> None:
    entries = table(lang).entries
    for kind in EVENT_KINDS:
        assert f"wielersim.event.{kind}" in entries, kind
    for purpose in PURPOSES:
        assert f"wielersim.purpose.{purpose}" in entries, purpose


def test_english_and_japanese_tables_have_the_same_keys() -> None:
    en = {k for k in table("en").entries if k.startswith("wielersim.")}
    ja = {k for k in table("ja").entries if k.startswith("wielersim.")}
    assert en == ja


def test_every_event_of_the_races_renders_in_both_languages(races: list[
        tuple[WielersimState, list[list[Event]]]]) -> None:
    seen = set()
    for _, turns in races:
        for events in turns:
            for e in events:
                seen.add(e.kind)
                json.dumps(dict(e.data))  # facts: JSON values only
                for lang in LANGUAGES:
                    text = describe_event("wielersim", e, lang)
                    assert filled(text) and not text.startswith("event."), (lang, text)
    assert seen == set(EVENT_KINDS)  # the races saw every kind, and no undeclared one


def test_the_commentary_renders_in_both_languages_with_every_slot_filled() -> None:
    kinds = set()
    for route, seed in RACES[:3]:
        state = new_race({"route": route, "peloton": "classics"})
        rng = np.random.default_rng(seed)
        talk = Commentator()
        pending: list[Event] = []
        turn = state.turn
        while not state.is_terminal():
            draw = state.sample_chance(rng)
            pending += state.apply_action(draw.outcome, draw.detail)
            if state.turn != turn or state.is_terminal():
                for said in talk.said(state, pending):
                    kinds.add(said.message.key)
                    for lang in LANGUAGES:
                        text = render(said.message, lang, "wielersim")
                        assert filled(text) and "ticker." not in text, (lang, text)
                pending, turn = [], state.turn
    assert {"ticker.victory", "ticker.place", "ticker.attack", "ticker.break_alone",
            "ticker.caught", "ticker.sprint", "ticker.climb"} <= kinds


def test_throws_are_described_by_the_state_not_decoded_by_a_face() -> None:
    state = new_race({"route": "flanders", "peloton": "small"})
    rng = np.random.default_rng(9)
    codes = set(KINDS) - {"board"}  # "board" is a word too ("board: a cobble board ...")
    for _ in range(300):
        draw = state.sample_chance(rng)
        words = describe_action(state, draw.outcome, "en")
        # the state's own words (whose throw, why, which dice in words), never its codes:
        # the record's move name keeps the code ("#3 accelerate 3d6b2 = 7")
        assert words.endswith(f"→ {draw.outcome}")
        assert not codes & set(words.replace(":", " ").split()), words
        assert state.pending is not None and state.pending.kind in \
            state.action_to_string(draw.outcome).split()
        assert filled(describe_action(state, draw.outcome, "ja"))
        state.apply_action(draw.outcome, draw.detail)


def test_a_race_is_decided_at_the_finish_and_has_no_result_before(races: list[
        tuple[WielersimState, list[list[Event]]]]) -> None:
    fresh = new_race({"route": "flanders", "peloton": "small"})
    with pytest.raises(GameNotOverError):
        fresh.outcome()
    state = races[0][0]
    outcome = state.outcome()
    assert outcome.termination == Termination.FINISH
    winner = state.peloton.riders[state.peloton.index_of(outcome.ranking[0])]
    en = describe_outcome("wielersim", outcome, "en")
    assert en == f"{winner.name} ({winner.number}, {state.peloton.teams[winner.team]}) wins " \
                 f"{state.route.name}."
    assert winner.name in describe_outcome("wielersim", outcome, "ja")


def ridden_tour() -> tuple[Any, Any, Any, Any]:
    """The Ronde van Belgie ridden by the small peloton (seed 4): the tour, the peloton,
    each stage's record and the classifications."""
    tour = resolve_tour("ronde-van-belgie")
    spec = peloton_spec("small")
    peloton = peloton_from_spec(spec)
    records = tour_records(tour, spec, np.random.default_rng(4))
    return tour, peloton, records, classifications(peloton, records)


def test_stage_race_classifications_are_decided_by_time_and_by_points() -> None:
    tour, peloton, _, standings = ridden_tour()
    outcomes = classification_outcomes(tour["name"], peloton, standings)
    assert {name: o.termination for name, o in outcomes.items()} == {
        "gc": Termination.TIME, "points": Termination.POINTS,
        "mountains": Termination.POINTS, "teams": Termination.TIME}
    gc = outcomes["gc"]
    assert gc.ranking == tuple(n for n, _ in standings.gc) and gc.winner == standings.leader
    assert list(gc.scores.values()) == sorted(gc.scores.values())
    points = outcomes["points"]
    assert list(points.scores.values()) == sorted(points.scores.values(), reverse=True)
    for name, outcome in outcomes.items():
        for lang in LANGUAGES:
            text = describe_outcome("wielersim", outcome, lang)
            assert filled(text) and tour["name"] in text, (name, lang, text)


def test_frames_are_json_and_show_every_rider_on_the_road() -> None:
    state = new_race({"route": "ardennes", "peloton": "small"})
    rng = np.random.default_rng(12)
    while not state.is_terminal():
        frame = state.frame()
        assert json.loads(json.dumps(frame)) == frame
        assert len(frame["riders"]) + frame["finished"] == state.n
        assert sum(len(g[2]) for g in frame["groups"]) == len(frame["riders"])
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
    assert state.frame()["riders"] == [] and state.frame()["finished"] == state.n
    assert GAME.name == state.frame()["game"]


def test_the_terminal_pictures_lines_come_from_the_tables_in_both_languages() -> None:
    state = new_race({"route": "flanders", "peloton": "classics"})
    rng = np.random.default_rng(3)
    summaries: list[list[str]] = []
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        state.apply_action(draw.outcome, draw.detail)
        if state.phase == "race" and state.turn % 10 == 0:
            summaries.append(group_summary(state, limit=3, lang="ja"))
            english = group_summary(state, limit=3)
            assert all(line.startswith(("Group of", "Alone ", "... and")) for line in english)
            assert not any("Alone of" in line or " 1 riders" in line for line in english)
    assert any(len(lines) > 3 for lines in summaries)  # "further back" was said too
    for lang in LANGUAGES:
        lines = [*scoring_lines(state, lang), *(line for s in summaries for line in s)]
        assert lines and all(filled(line) and "road." not in line for line in lines), lang
    assert scoring_lines(state)[0].startswith("Sprint 1 (")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_turn_heading_renders_in_both_languages(lang: str) -> None:
    for where in (Message("turn.to_go", {"n": 12}), Message("turn.to_go", {"n": 1}),
                  Message("turn.finished", {"finished": 3, "n": 0}),
                  Message("turn.finished_next", {"finished": 3, "n": 4})):
        for weather in ("weather.rain", "weather.dry"):
            text = render(Message("turn.heading", {"turn": 7, "where": where.to_json(),
                                                   "weather": {"key": weather}}),
                          lang, "wielersim")
            assert filled(text) and "turn." not in text and "weather." not in text, text
    assert render(Message("turn.heading", {"turn": 7, "where": {"key": "turn.to_go",
                                                                 "params": {"n": 1}},
                                           "weather": {"key": "weather.dry"}}),
                  "en", "wielersim") == "Turn 7: 1 square to go, dry"
