"""What a Hairpin state says for the faces: the outcome's termination and message, the
decisive bump's warning as facts, each move's facts, the board frame, and no result before
the end. The words come from the message tables in English and Japanese."""

from __future__ import annotations

import json

import numpy as np
import pytest

from raceday.core.errors import GameNotOverError
from raceday.core.protocol import Termination
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.rules import DISQUALIFIED, HairpinState, Rules
from raceday.present import describe_action, describe_event, describe_outcome, render

BUMP_FIFTH = "..bbb./..bb.r2/rrr... r 0-0 4-0 0-0"  # Red may play "f2 charge d2 bump"
LAP_TO_WIN = "bbbbr./....b./r.rrr. r 4-0 0-0 0-0"  # "e3 charge b1" is Red's fifth lap


def after(text: str, move: str, variant: str = "standard") -> HairpinState:
    state = HairpinState.from_text(text, Rules.from_variant(variant))
    state.apply_action(state.string_to_action(move))
    return state


def test_no_result_before_the_end() -> None:
    state = HairpinState.from_text(BUMP_FIFTH)
    with pytest.raises(GameNotOverError, match="not over"):
        state.outcome()


@pytest.mark.parametrize(("text", "move", "variant", "termination", "english"), [
    (LAP_TO_WIN, "e3 charge b1", "standard", Termination.LAPS, "red completes 5 laps"),
    (BUMP_FIFTH, "f2 charge d2 bump", "standard", DISQUALIFIED,
     "red bumped 5 racers and is disqualified"),
    (BUMP_FIFTH, "f2 charge d2 bump", "derby", Termination.BUMPS, "red bumps 5 racers"),
])
def test_the_outcome_says_how_it_ended(text: str, move: str, variant: str, termination: str,
                                       english: str) -> None:
    out = after(text, move, variant).outcome()
    assert out.termination == termination
    assert describe_outcome("hairpin", out, "en") == english == out.description
    assert describe_outcome("hairpin", out, "ja") not in ("", english)


@pytest.mark.parametrize(("variant", "key", "decides", "english"), [
    ("standard", "warning.disqualified", "loses",
     "your 5th bump: you would be disqualified and lose"),
    ("derby", "warning.derby", "wins", "your 5th bump: it wins the derby"),
])
def test_the_decisive_bump_is_a_fact(variant: str, key: str, decides: str,
                                     english: str) -> None:
    state = HairpinState.from_text(BUMP_FIFTH, Rules.from_variant(variant))
    bump = state.string_to_action("f2 charge d2 bump")
    facts = state.action_message(bump).params
    assert facts["name"] == "f2 charge d2 bump" and facts["kind"] == "bump"
    warning = facts["warning"]
    assert warning["key"] == key and warning["params"]["decides"] == decides
    assert render(warning, "en", "hairpin") == english
    assert "5回目" in render(warning, "ja", "hairpin")
    plain = [a for a in state.legal_actions() if state.action_message(a).params["kind"] != "bump"]
    assert plain and all(state.action_message(a).params["warning"] is None for a in plain)
    assert describe_action(state, bump) == "f2 charge d2 bump"


def test_the_frame_is_the_board_as_data() -> None:
    state = HairpinState.from_text(BUMP_FIFTH)
    frame = json.loads(json.dumps(state.frame()))
    assert frame["text"] == state.position_text() and frame["to_move"] == 0
    assert frame["bumps"] == [4, 0] and sum(c > 0 for c in frame["cells"]) > 0
    assert after(LAP_TO_WIN, "e3 charge b1").frame()["to_move"] is None


def test_every_event_has_words_in_both_languages() -> None:
    state = new_game({"variant": "short+derby+random"})
    rng = np.random.default_rng(5)
    kinds: set[str] = set()
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            events = state.apply_action(draw.outcome, draw.detail)
        else:
            legal = state.legal_actions()
            events = state.apply_action(legal[int(rng.integers(len(legal)))])
        for event in events:
            kinds.add(event.kind)
            for lang in ("en", "ja"):
                words = describe_event("hairpin", event, lang)
                assert words != event.key and "{" not in words, (lang, event)
    assert {"setup", "move", "result"} <= kinds


def test_a_moves_message_reads_as_its_name_in_english_and_in_japanese_words() -> None:
    state = HairpinState.from_text(BUMP_FIFTH)
    kinds = set()
    for action in state.legal_actions():
        message = state.action_message(action)
        kinds.add(message.params["kind"])
        assert render(message, "en", "hairpin") == message.params["name"]
        japanese = render(message, "ja", "hairpin")
        assert "{" not in japanese and not any(
            word in japanese for word in ("cruise", "charge", "bump", "pass"))
    assert kinds == {"cruise", "charge", "bump", "pass"}
