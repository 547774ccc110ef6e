"""What a PISTARD state says for the faces: how each race ended (the outcome's
termination and message), what each action means (facts, so no face decodes action
numbers), the race as a frame, and no result before the end."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from raceday.core.errors import GameNotOverError
from raceday.core.protocol import Termination
from raceday.games.pistard.agents import make_agent
from raceday.games.pistard.moves import choose_action, place_action
from raceday.games.pistard.state import PistardState, new_race
from raceday.present import describe_action, describe_event, describe_outcome


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
