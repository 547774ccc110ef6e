"""Saving, restoring, cloning and seeded reproducibility of PISTARD states."""

from __future__ import annotations

import json

import numpy as np
import pytest

from raceday.core.agents import RandomAgent
from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.play import play_game
from raceday.core.serialize import dumps_state, loads_state
from raceday.games.pistard import GAME
from raceday.games.pistard.state import PistardState, new_race


def test_round_trip_mid_race_and_bad_saves_rejected() -> None:
    state = new_race({"variant": "points", "laps": 2})
    rng = np.random.default_rng(11)
    for _ in range(60):
        if state.is_chance_node():
            d = state.sample_chance(rng)
            state.apply_action(d.outcome, d.detail)
        else:
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.integers(len(acts)))])
    again = loads_state(dumps_state(state))
    assert again == state and again.legal_actions() == state.legal_actions()
    data = state.to_json()
    broken = json.loads(json.dumps(data))
    broken["track"]["rows"][0] = broken["track"]["rows"][0][:-1] + "Q"
    with pytest.raises(SaveFormatError, match="bad colour"):
        PistardState.from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["riders"][0][5] = "flying"
    with pytest.raises(SaveFormatError, match="malformed rider"):
        PistardState.from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["dice"] = [7, 1, 1, 1]
    with pytest.raises(SaveFormatError):
        PistardState.from_json(broken)


def test_same_seed_same_log_for_every_variant() -> None:
    for options in GAME.harness_configs:
        logs = []
        for _ in range(2):
            state = new_race(options)
            agents = [RandomAgent() for _ in range(state.num_players)]
            logs.append(play_game(state, agents, np.random.default_rng(42)).log_text())
        assert logs[0] == logs[1]


def test_bad_options_are_refused_with_reasons() -> None:
    with pytest.raises(OptionsError, match="unknown variant"):
        new_race({"variant": "keirin"})
    with pytest.raises(OptionsError, match="2 to 5 players"):
        new_race({"players": 6})
    with pytest.raises(OptionsError, match="riders in all"):
        new_race({"players": 5, "riders_per_player": 3})
    with pytest.raises(OptionsError, match="laps can only"):
        new_race({"laps": 3})
    with pytest.raises(OptionsError, match="unknown PISTARD option"):
        new_race({"colour": "red"})


def test_every_harness_option_set_ends_within_the_stated_bound() -> None:
    for options in GAME.harness_configs:
        state = new_race(options)
        assert state.options.max_steps(state.track.length) == GAME.max_steps(options)
