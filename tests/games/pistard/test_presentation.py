"""What a PISTARD state says for the faces: how each race ended (the outcome's
termination and message), what each action means (facts, so no face decodes action
numbers), the race as a frame, and no result before the end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from raceday.core.errors import GameNotOverError
from raceday.core.events import Event
from raceday.core.protocol import Termination
from raceday.games.pistard.agents import make_agent
from raceday.games.pistard.moves import choose_action, place_action
from raceday.games.pistard.render import commentary
from raceday.games.pistard.replay import room_event
from raceday.games.pistard.state import PistardState, new_race, with_word_facts
from raceday.present import describe_action, describe_event, describe_outcome, render
from raceday.present.messages import plain_key


def played(options: dict[str, Any], seed: int = 3) -> PistardState:
    state = new_race(options)
    rng = np.random.default_rng(seed)
    agent = make_agent("easy")
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            state.apply_action(draw.outcome, draw.detail)
        else:
            state.apply_action(agent.choose(state, rng))
    return state


def test_no_result_before_the_end() -> None:
    with pytest.raises(GameNotOverError, match="not over"):
        new_race({"variant": "scratch"}).outcome()


@pytest.mark.parametrize(("options", "terminations"), [
    ({"variant": "scratch", "track": "short"}, {Termination.FINISH}),
    ({"variant": "points", "laps": 2, "track": "short"}, {Termination.POINTS}),
    ({"variant": "elimination", "players": 3, "riders_per_player": 1, "track": "short"},
     {Termination.ELIMINATED}),
    ({"variant": "sprint", "track": "short"}, {Termination.FINISH, Termination.FELL}),
    ({"variant": "ttt", "riders_per_player": 3, "track": "short"}, {Termination.TIME}),
    ({"variant": "pursuit", "riders_per_player": 3, "track": "short"},
     {Termination.TIME, Termination.DRAW}),
])
def test_each_race_says_how_it_ended(options: dict[str, Any], terminations: set[str]) -> None:
    out = played(options).outcome()
    assert out.termination in terminations
    keys = {"ttt": {"result.team_time"}, "pursuit": {"result.pursuit", "result.pursuit_tie"}}
    assert out.message is not None
    assert out.message.key in keys.get(options["variant"], {f"result.{out.termination}"})
    english = describe_outcome("pistard", out, "en")
    assert english and not english.startswith("result.")
    assert describe_outcome("pistard", out, "ja") != english


def test_every_action_says_what_it_means() -> None:
    state = new_race({"variant": "ttt", "riders_per_player": 3, "track": "short"})
    rng = np.random.default_rng(1)
    first = state.legal_actions()[0]
    facts = state.action_message(first).params
    assert state.action_message(first).key == "action.place"
    assert first == place_action(facts["back"], facts["lane"])
    assert describe_action(state, first) == state.action_to_string(first)
    agent = make_agent("easy")
    seen: set[str] = set()
    for _ in range(60):
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            state.apply_action(draw.outcome, draw.detail)
            continue
        for action in state.legal_actions():
            message = state.action_message(action)
            seen.add(message.key)
            if message.key == "action.choose":
                assert action == choose_action(message.params["rider"])
            if message.key == "action.move":
                info = state.move_table()[action]
                assert (message.params["ahead"], message.params["lane"]) == (info.ahead,
                                                                            info.lane)
        state.apply_action(agent.choose(state, rng))
    assert {"action.place", "action.choose", "action.move"} <= seen


def test_the_frame_is_the_race_as_data() -> None:
    state = played({"variant": "scratch", "track": "short"})
    frame = json.loads(json.dumps(state.frame()))
    assert frame["length"] == state.track.length and len(frame["riders"]) == len(state.riders)
    assert {r["rider"] for r in frame["riders"]} == {r.ident for r in state.riders}


@pytest.mark.parametrize("variant", ["scratch", "points", "elimination", "sprint", "ttt",
                                     "pursuit"])
def test_every_event_has_words_in_both_languages(variant: str) -> None:
    options: dict[str, Any] = {"variant": variant, "track": "short"}
    if variant in ("ttt", "pursuit"):
        options["riders_per_player"] = 3
    if variant == "elimination":
        options.update(players=3, riders_per_player=1)
    if variant == "points":
        options["laps"] = 2
    state = new_race(options)
    rng = np.random.default_rng(7)
    agent = make_agent("easy")
    kinds: set[str] = set()
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            events = state.apply_action(draw.outcome, draw.detail)
        else:
            events = state.apply_action(agent.choose(state, rng))
        for event in events:
            kinds.add(event.kind)
            for lang in ("en", "ja"):
                words = describe_event("pistard", event, lang)
                assert words != event.key and "{" not in words, (lang, event)
    assert {"place", "throw", "move", "result"} <= kinds


# Every event the engine logs, in each shape its words take (the variants' facts completed
# as the state completes them), so every "event.*" key of the table is rendered below.
LOGGED_EVENTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("started", {"players": [], "variant": "scratch"}),
    ("place", {"heat": 1, "rider": 11, "behind": 2, "lane": 3}),
    ("next", {"rider": 12}),
    ("throw", {"round": 1, "rider": 11, "dice": [3, 5, 2, 6]}),
    ("token", {"round": 1, "rider": 11, "left": 2}),
    *(("move", {"round": 1, "rider": 11, "colour": colour, "value": 5, "token": False,
                "from": [0, 2], "to": [4, 1], "ahead": 4, "lane": 1, colour: True})
      for colour in ("yellow", "green", "blue", "red")),
    ("move", {"round": 1, "rider": 11, "colour": "red", "value": 5}),  # a room's old log
    ("no_move", {"round": 2, "rider": 21}),
    ("stand_still", {"round": 2, "rider": 21}),
    ("fall", {"round": 4, "rider": 21, "reason": "stand_stills"}),
    ("fall", {"round": 4, "rider": 21}),
    ("lap_gained", {"rider": 11, "bonus": 20}),
    ("lap_lost", {"rider": 21, "bonus": -20}),
    ("heat", {"heat": 1, "order": [11, 21, 31], "eliminated": 31, "stopped": False}),
    ("heat", {"heat": 2, "order": [21, 11], "eliminated": 11, "stopped": True}),
    ("team_time", {"team": 0, "rounds": 9, "past": 3}),
    ("round", {"heat": 1, "round": 3, "order": [11, 21]}),
    ("positions", {"round": 3, "riders": {"11": [5, 2]}}),
    ("sprint", {"lap": 1, "places": [[11, 1, 5], [21, 2, 3]]}),
    *(("result", {why: True, "ranking": [11, 21], "rounds": 12, "stopped": False,
                  "scores": None})
      for why in ("line", "points", "fell", "elimination", "ttt")),
    ("result", {"tie": False, "team_won": True, "teams": [1, 0], "team": 2, "rounds": 9,
                "stopped": False}),
    ("result", {"tie": True, "team_won": False, "teams": [0, 1], "team": None, "rounds": 9,
                "stopped": True}),
    ("result", {"rounds": 9}),
)


def _table(lang: str) -> dict[str, str]:
    """PISTARD's own table, a key's plural forms under the key they belong to."""
    path = Path(__file__).parents[3] / "src/raceday/games/pistard/messages" / f"{lang}.json"
    table: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return {plain_key(key): text for key, text in table.items()}


def _worded_key(event: Event) -> str:
    """The key describe_event words ``event`` by: the variant of its first true fact that
    the table has, else ``event.<kind>``."""
    table = _table("en")
    return next((f"{event.key}.{fact}" for fact, value in event.params.items()
                 if value is True and f"{event.key}.{fact}" in table), event.key)


def test_every_event_key_of_the_table_is_worded_in_english_and_japanese() -> None:
    """Each logged shape renders with no raw key and no {slot} left, in Japanese other
    than in English; and together they reach every ``event.*`` key of the table."""
    used = set()
    for kind, facts in LOGGED_EVENTS:
        event = Event(kind, with_word_facts(kind, facts))
        en, ja = (describe_event("pistard", event, lang) for lang in ("en", "ja"))
        for words in (en, ja):
            assert "{" not in words and not words.startswith("event."), (kind, words)
        assert ja != en, (kind, en)
        used.add(_worded_key(event))
    event_keys = {k for k in _table("en") if k.startswith("event.")}
    assert event_keys == used, sorted(event_keys ^ used)
    assert event_keys <= set(_table("ja"))


def test_the_commentary_is_the_table_in_the_readers_language() -> None:
    event = Event("move", {"round": 1, "rider": 11, "colour": "green", "value": 5,
                           "token": False, "from": [0, 2], "to": [4, 1], "ahead": 4,
                           "lane": 1, "green": True})
    assert commentary(event) == "rider 11 plays green 5: 4 ahead to lane 1"
    assert commentary(event, "ja") == "11番が緑の5を使う：4マス前へ、1レーン"
    assert commentary(Event("positions", {"round": 1, "riders": {}})) is None


def test_a_room_logged_before_words_the_old_shapes_from_the_table() -> None:
    """Old room logs (a move without ``ahead``, a result with ``why``, a sprint of triples)
    read as today's events do, in both languages."""
    old = [
        {"type": "move", "round": 1, "rider": 11, "colour": "blue", "value": 2,
         "token": False, "from": [-1, 1], "to": [0, 2], "text": "rider 11 plays blue 2"},
        {"type": "move", "round": 1, "rider": 11, "colour": "red", "value": 2,
         "token": True, "from": [0, 1], "to": [3, 2]},
        {"type": "result", "why": "team pursuit over", "teams": [1, 0], "tie": False,
         "rounds": 9, "stopped": False},
        {"type": "result", "why": "points", "ranking": [21, 11], "rounds": 12,
         "stopped": False, "points": {"21": 9, "11": 3}},
        {"type": "sprint", "lap": 1, "places": [[21, 2, 3]]},
        {"type": "team_time", "team": 0, "rounds": 7, "past": 1},
    ]
    words = [[render(room_event(e, []), lang, "pistard") for e in old] for lang in ("en", "ja")]
    assert words[0] == [
        "rider 11 plays blue 2: 1 ahead to lane 2",
        "rider 11 plays red 2: 3 ahead to lane 2 (+1 energy token)",
        "team 2 wins the pursuit after 9 turns",
        "points race over after 12 turns; finishing order 21, 11",
        "lap 1 sprint — places 2: riders 21, points 3",
        "team 1's third rider is over the line after 7 turns",
    ]
    assert all("{" not in w and not w.startswith("event.") for w in words[1])
    assert words[1][0] == "11番が青の2を使う：1マス前へ、2レーン"
