"""The invariant harness every game must pass (in the spirit of OpenSpiel's random_sim_test).

:func:`check_random_games` plays random games from a fixed seed and checks at every step:
legal actions are non-empty and unique with unique names; chance probabilities are
positive and sum to exactly 1; save/restore round-trips to an equal state; a clone is equal
and independent; the game ends within the stated bound; the same seed gives the same log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from raceday.core.agents import RandomAgent
from raceday.core.events import event_log_text
from raceday.core.play import play_game
from raceday.core.protocol import CHANCE, TERMINAL, State
from raceday.core.registry import GameSpec
from raceday.core.serialize import dumps_state, loads_state


class InvariantError(AssertionError):
    """A game broke one of the protocol's invariants."""


def check_state(state: State, spec: GameSpec) -> None:
    """Check the invariants that hold at a single state."""
    player = state.current_player()
    if player == TERMINAL:
        out = state.outcome()
        if not out.ranking and out.winner is None and not out.scores:
            raise InvariantError("terminal state reports an empty result")
        if len(state.returns()) != state.num_players:
            raise InvariantError("returns() has the wrong length")
    elif player == CHANCE:
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise InvariantError("chance node without outcomes")
        actions = [a for a, _ in outcomes]
        if len(set(actions)) != len(actions):
            raise InvariantError("chance outcomes are not unique")
        if any(not isinstance(p, Fraction) or p <= 0 for _, p in outcomes):
            raise InvariantError("chance probabilities must be positive Fractions")
        if sum(p for _, p in outcomes) != 1:
            raise InvariantError("chance probabilities do not sum to 1")
        names = [state.action_to_string(a) for a in actions]
        if len(set(names)) != len(names):
            raise InvariantError("chance outcome names are not unique")
    else:
        if not 0 <= player < max(1, state.num_players):
            raise InvariantError(f"current player {player} out of range")
        actions = state.legal_actions()
        if not actions:
            raise InvariantError("decision node without legal actions")
        if len(set(actions)) != len(actions):
            raise InvariantError("legal actions are not unique")
        names = [state.action_to_string(a) for a in actions]
        if len(set(names)) != len(names):
            raise InvariantError(f"action names are not unique: {names}")
        for a, name in zip(actions, names, strict=True):
            if state.string_to_action(name) != a:
                raise InvariantError(f"name {name!r} does not map back to its action")
    restored = loads_state(dumps_state(state))
    if restored != state or type(restored) is not type(state):
        raise InvariantError("save/restore did not round-trip to an equal state")
    restored_text = json.dumps(restored.to_json(), sort_keys=True)
    if restored_text != json.dumps(state.to_json(), sort_keys=True):
        raise InvariantError("restored state serializes differently")


def check_clone_independent(state: State, rng: np.random.Generator) -> None:
    """A clone equals its original, and moving the clone leaves the original unchanged."""
    before = json.dumps(state.to_json(), sort_keys=True)
    twin = state.clone()
    if twin != state:
        raise InvariantError("clone is not equal to its original")
    if not twin.is_terminal():
        if twin.is_chance_node():
            draw = twin.sample_chance(rng)
            twin.apply_action(draw.outcome, draw.detail)
        else:
            twin.apply_action(twin.legal_actions()[0])
        if json.dumps(state.to_json(), sort_keys=True) != before:
            raise InvariantError("moving a clone changed the original")


def play_checked_game(spec: GameSpec, options: Mapping[str, Any], seed: int) -> str:
    """Play one random game with every check; return its event log text."""
    rng = np.random.default_rng(seed)
    state = spec.new_initial_state(options)
    agents = [RandomAgent() for _ in range(max(1, state.num_players))]
    checker_rng = np.random.default_rng(seed + 1_000_003)

    def on_events(s: State, _events: object) -> None:
        check_state(s, spec)
        check_clone_independent(s, checker_rng)

    check_state(state, spec)
    record = play_game(state, agents, rng, max_steps=spec.max_steps, on_events=on_events)
    return record.log_text()


def check_random_games(
    spec: GameSpec, games: int | None = None, seed: int = 20261122
) -> int:
    """Run the harness over every option set of ``spec``; return the number of games played."""
    played = 0
    n = spec.harness_games if games is None else games
    for config_index, options in enumerate(spec.harness_configs):
        for g in range(n):
            game_seed = seed + 7919 * config_index + g
            log = play_checked_game(spec, options, game_seed)
            if g < 3:  # replaying the same seed must give the same bytes
                again = _replay_log(spec, options, game_seed)
                if again != log:
                    raise InvariantError(f"seed {game_seed} did not reproduce its event log")
            played += 1
    return played


def _replay_log(spec: GameSpec, options: Mapping[str, Any], seed: int) -> str:
    rng = np.random.default_rng(seed)
    state = spec.new_initial_state(options)
    agents = [RandomAgent() for _ in range(max(1, state.num_players))]
    return event_log_text(play_game(state, agents, rng, max_steps=spec.max_steps).events)
