"""WielerSIM in the one Game shape: options, the Game object, states, saves and outcome."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from raceday.core.errors import IllegalActionError, OptionsError, SaveFormatError
from raceday.core.play import play_game
from raceday.core.registry import get_game
from raceday.games.wielersim import GAME, WielersimOptions, WielersimState
from raceday.games.wielersim.rules import (
    SPRINT_THROW,
    EndOfTurn,
    Throw,
    route_spec,
)
from raceday.present.pictures import text_picture

SAVED = Path(__file__).parent / "data" / "saved-mid-sprint.json"


def test_the_game_is_registered_with_its_credits_and_no_players() -> None:
    assert get_game("wielersim") is GAME
    assert (GAME.name, GAME.title, GAME.designer) == ("wielersim", "WielerSIM", "Ludo Nauws")
    assert GAME.Options is WielersimOptions and GAME.players == (0, 0)
    # 250 a set find a defect in 1.2 % of a set's races with 95 % probability
    assert GAME.harness_games >= 250
    assert GAME.harness_games * len(GAME.harness_configs) >= 1000
    routes = {json.dumps(route_spec(c["route"])) for c in GAME.harness_configs}
    assert len(routes) == 4  # each shipped route once (flanders twice: random, fixed board)


def test_options_parse_names_files_and_tables_and_round_trip(tmp_path: Path) -> None:
    by_name = WielersimOptions.parse({"route": "ardennes", "peloton": "small", "jersey": 41})
    assert by_name.route == route_spec("ardennes") and by_name.jersey == 41
    assert WielersimOptions.parse(by_name.to_json()) == by_name
    assert WielersimOptions.parse(json.loads(json.dumps(by_name.to_json()))) == by_name
    as_table = WielersimOptions.parse({"route": route_spec("ardennes"), "peloton": "small",
                                       "jersey": 41})
    assert as_table == by_name
    defaults = WielersimOptions.parse({})
    assert defaults.route == route_spec("flanders") and len(defaults.peloton["riders"]) == 36
    assert defaults.board is None and defaults.monotonic_gaps is None


@pytest.mark.parametrize(("raw", "named"), [
    ({"jersey": 999}, "jersey"),
    ({"jersey": True}, "jersey"),
    ({"board": 256}, "board"),
    ({"board": -1}, "board"),
    ({"board": "3"}, "board"),
    ({"monotonic_gaps": "yes"}, "monotonic_gaps"),
    ({"route": "no-such-route"}, "route"),
    ({"route": 7}, "route"),
    ({"peloton": {"riders": []}}, "peloton"),
    ({"colour": 3}, "colour"),
])
def test_bad_options_are_one_options_error_naming_the_option(raw: dict[str, object],
                                                              named: str) -> None:
    with pytest.raises(OptionsError, match=named) as caught:
        GAME.new_state(raw)
    assert "\n" not in str(caught.value) and str(caught.value).startswith(
        ("WielerSIM option", "unknown WielerSIM option"))


def test_jersey_and_monotonic_gaps_override_the_peloton_and_the_route() -> None:
    s = GAME.new_state({"route": "mountain-stage", "peloton": "small", "jersey": 52,
                        "monotonic_gaps": True})
    assert s.peloton.jersey == 52 and s.route.monotonic_gaps
    plain = GAME.new_state({"route": "mountain-stage", "peloton": "small"})
    assert plain.peloton.jersey is None and not plain.route.monotonic_gaps
    assert GAME.max_steps({"route": "flanders"}) > GAME.max_steps({"route": "flat-stage",
                                                                    "peloton": "small"})


def test_the_outcome_ranks_riders_by_arrival_with_seconds_behind() -> None:
    record = GAME.play({"route": "ardennes", "peloton": "small"}, rng=11)
    state = record.final_state
    out = state.outcome()
    assert isinstance(state, WielersimState)
    assert out.ranking == tuple(state.num(r) for r, _, _ in state.results)
    assert out.winner == out.ranking[0] and len(out.ranking) == 12
    assert out.score_name == "seconds behind" and out.scores[out.winner] == 0
    assert out.winning_players == () and state.returns() == []
    assert out.description.endswith("wins")


def test_pending_throw_and_end_of_turn_step_have_names() -> None:
    s = GAME.new_state({"route": "flat-stage", "peloton": "small", "board": None})
    rng = np.random.default_rng(4)
    seen: set[EndOfTurn] = set()
    while not s.is_terminal():
        assert isinstance(s.pending, Throw) and isinstance(s.eot_stage, EndOfTurn)
        seen.add(s.eot_stage)
        draw = s.sample_chance(rng)
        s.apply_action(draw.outcome, draw.detail)
    assert {EndOfTurn.CLIMBS, EndOfTurn.SPRINTS, EndOfTurn.FINISH} <= seen
    with pytest.raises(AttributeError):
        Throw("2d6", 1, "roll").kind = "d6"  # type: ignore[misc]


def test_a_save_written_before_the_names_still_loads_and_plays_on_the_same() -> None:
    """The save (mid-way through an intermediate sprint) was written by the version with
    a bare tuple and a bare number; the JSON is unchanged, and the race ends as it did
    there with the same generator (pinned from that version)."""
    data = json.loads(SAVED.read_text())
    assert data["eot_stage"] == 1 and data["pending"] == ["d6", 3, "sprint"]
    s = GAME.state_from_json(data)
    assert s.eot_stage is EndOfTurn.SPRINTS and s.pending == Throw("d6", 3, SPRINT_THROW)
    assert s.to_json() == data
    play_game(s, [], np.random.default_rng(99))
    assert [[s.num(r), g, t] for r, g, t in s.results] == [
        [52, 0, 16], [62, 0, 16], [41, 0, 16], [73, 0, 16], [43, 0, 16], [61, 0, 16],
        [51, 0, 16], [53, 0, 16], [72, 96, 18], [63, 96, 18], [71, 96, 18], [42, 126, 18]]
    assert s.sprint_places == [[4, 6, 0, 7, 1, 10, 11, 5], [4, 3, 2, 7, 0, 6, 11, 5]]
    for broken in ({**data, "eot_stage": 5}, {**data, "pending": ["d6", 3]},
                   {**data, "pending": ["d6", "3", "sprint"]}):
        with pytest.raises(SaveFormatError):
            GAME.state_from_json(broken)


def test_clones_share_the_route_and_peloton_and_move_on_their_own() -> None:
    s = GAME.new_state({"route": "flanders", "peloton": "small"})
    rng = np.random.default_rng(2)
    for _ in range(120):
        draw = s.sample_chance(rng)
        s.apply_action(draw.outcome, draw.detail)
    before = s.to_json()
    twin = s.clone()
    assert twin == s and twin is not s
    assert twin.route is s.route and twin.peloton is s.peloton
    assert twin.route_spec is s.route_spec
    assert twin.cells is not s.cells and twin.cells[0] is not s.cells[0]
    for _ in range(40):
        draw = twin.sample_chance(rng)
        twin.apply_action(draw.outcome, draw.detail)
    assert s.to_json() == before and twin != s
    assert copy.deepcopy(s) == s
    with pytest.raises(TypeError):
        hash(s)


def test_illegal_throw_values_are_refused() -> None:
    s = GAME.new_state({"route": "flat-stage", "peloton": "small"})
    assert s.pending is not None and s.pending.kind == "d6"  # the weather
    with pytest.raises(IllegalActionError):
        s.apply_action(7)
    s.apply_action(6)
    assert s.pending is not None and s.pending.kind == "3d10b2"  # a leader starts
    with pytest.raises(IllegalActionError):
        s.apply_action(1)
    done = GAME.play({"route": "flat-stage", "peloton": "small"}, rng=1).final_state
    with pytest.raises(IllegalActionError):
        done.apply_action(2)


def test_the_state_prints_the_road_as_plain_text() -> None:
    s = GAME.new_state({"route": "ardennes", "peloton": "small"})
    assert repr(s) == "<WielersimState Waalse Pijl: before the start, 0 of 12 riders finished>"
    rng = np.random.default_rng(5)
    while s.phase != "race":
        draw = s.sample_chance(rng)
        s.apply_action(draw.outcome, draw.detail)
    text = text_picture(s)
    assert text.startswith("<WielersimState Waalse Pijl: turn 1,") and "lane 5" in text
    assert "\x1b[" not in text
    assert all(f"{s.num(r)}" in text for r in range(s.n))
