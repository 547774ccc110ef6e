"""The invariant harness every game must pass (in the spirit of OpenSpiel's random_sim_test).

:func:`check_random_games` plays random games of a :class:`Game` from a fixed seed. In the
first ``full_games`` games of each option set it checks at every step: legal actions are
non-empty and unique with unique names that map back; chance probabilities are positive
Fractions summing to exactly 1; save/restore round-trips to an equal state; a clone is
equal and independent. In every game it checks each step's player and actions, that the
game ends within the stated bound with a result and one return per player, that the final
state round-trips, and (for the first games) that the same seed gives the same log.

The full checks of 10 games a set visit thousands of states (a WielerSIM race has about
780 steps, a PISTARD race hundreds): a defect at 0.04 % of a set's WielerSIM states, or
0.3 % of its PISTARD states, is met with 95 % probability; the light checks of every game
find a defect confined to rarer races (each game states its own power).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import orjson

from raceday.core.agents import RandomAgent
from raceday.core.events import Event, event_log_text
from raceday.core.game import AnyGame
from raceday.core.play import PlayRecord, play_game
from raceday.core.protocol import CHANCE, TERMINAL, Action, State


class InvariantError(AssertionError):
    """A game broke one of the protocol's invariants."""


def check_state(state: State, game: AnyGame) -> str:
    """Check the invariants that hold at a single state; return its saved text."""
    return _check_state(state, game)[0]


def _check_state(state: State, game: AnyGame) -> tuple[str, Any]:
    player = state.current_player()
    if player == TERMINAL:
        out = state.outcome()
        if not out.ranking and out.winner is None and not out.scores:
            raise InvariantError("terminal state reports an empty result")
        returns = state.returns()
        if len(returns) != state.num_players:
            raise InvariantError("returns() has the wrong length")
        if state.num_players and not (out.winning_players and abs(sum(returns) - 1) < 1e-9):
            raise InvariantError("the winning players must share a return of 1")
    elif player == CHANCE:
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise InvariantError("chance node without outcomes")
        actions = [a for a, _ in outcomes]
        if not _checked_before(outcomes):
            _check_distribution(outcomes, actions)
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
    return _check_saved(state, game)


def _check_saved(state: State, game: AnyGame) -> tuple[str, Any]:
    """Save/restore round-trips to an equal state that saves the same text; return the
    text and the saved data (each state's ``to_json`` taken once: equality is by it)."""
    data = state.to_json()
    text, read = _encoded(data)
    restored = game.state_from_json(read(text))
    if type(restored) is not type(state):
        raise InvariantError("save/restore did not round-trip to an equal state")
    again = restored.to_json()
    if again != data:
        raise InvariantError("save/restore did not round-trip to an equal state")
    if _encoded(again)[0] != text:
        raise InvariantError("restored state serializes differently")
    return text, data


# The chance distributions already found sound, by length (the last few of each): a game
# whose chance nodes hand out the same immutable outcome pairs again (a PISTARD throw's
# 1,296, from one table) is not summed again at every throw. The lists are kept, so the
# identities compared are those of live objects.
_SOUND: dict[int, list[list[tuple[Action, Fraction]]]] = {}
_SOUND_KEPT = 4


def _checked_before(outcomes: list[tuple[Action, Fraction]]) -> bool:
    """Whether ``outcomes`` holds the very same pairs, in order, as a distribution already
    found sound (pairs are immutable tuples, so the same objects are the same values)."""
    return any(all(map(operator.is_, outcomes, sound)) for sound in _SOUND.get(len(outcomes), ()))


def _check_distribution(outcomes: list[tuple[Action, Fraction]], actions: list[Action]) -> None:
    if len(set(actions)) != len(actions):
        raise InvariantError("chance outcomes are not unique")
    if any(not isinstance(p, Fraction) or p.numerator <= 0 for _, p in outcomes):
        raise InvariantError("chance probabilities must be positive Fractions")
    if _exact_sum(p for _, p in outcomes) != 1:
        raise InvariantError("chance probabilities do not sum to 1")
    if all(type(pair) is tuple for pair in outcomes):
        kept = _SOUND.setdefault(len(outcomes), [])
        kept.append(list(outcomes))
        del kept[:-_SOUND_KEPT]


def state_text(state: State) -> str:
    """The state as saved: its JSON text, keys sorted."""
    return _encoded(state.to_json())[0]


def _encoded(data: Any) -> tuple[str, Callable[[str], Any]]:
    """``data`` as JSON text with sorted keys, and the reader that gives it back: orjson
    (ten times faster than the standard library on a WielerSIM race) unless the data has
    what orjson does not take (an integer beyond 64 bits, a key that is not a string),
    then the standard library, whose reader keeps such integers exact."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode(), orjson.loads
    except TypeError:
        return json.dumps(data, sort_keys=True), json.loads


def _exact_sum(fractions: Iterable[Fraction]) -> Fraction:
    """The exact sum of ``fractions``: the numerators of each denominator added as integers
    first (a PISTARD throw has 1,296 outcomes of one denominator; adding them as Fractions,
    a gcd each, was half of the harness's time)."""
    numerators: dict[int, int] = {}
    for p in fractions:
        numerators[p.denominator] = numerators.get(p.denominator, 0) + p.numerator
    return sum((Fraction(n, d) for d, n in numerators.items()), Fraction(0))


def check_clone_independent(state: State, rng: np.random.Generator,
                            before: str | None = None, saved: Any = None) -> None:
    """A clone equals its original, and moving the clone leaves the original unchanged
    (``before``: the original's :func:`state_text`, and ``saved`` its ``to_json()``, when
    known)."""
    before = state_text(state) if before is None else before
    twin = state.clone()
    if type(twin) is not type(state) or twin.to_json() != (
            state.to_json() if saved is None else saved):
        raise InvariantError("clone is not equal to its original")
    if not twin.is_terminal():
        if twin.is_chance_node():
            draw = twin.sample_chance(rng)
            twin.apply_action(draw.outcome, draw.detail)
        else:
            twin.apply_action(twin.legal_actions()[0])
        if state_text(state) != before:
            raise InvariantError("moving a clone changed the original")


def check_step_light(state: State) -> None:
    """The cheap checks made at every step of every game."""
    player = state.current_player()
    if player in (TERMINAL, CHANCE):
        return
    if not 0 <= player < max(1, state.num_players):
        raise InvariantError(f"current player {player} out of range")
    actions = state.legal_actions()
    if not actions or len(set(actions)) != len(actions):
        raise InvariantError("legal actions must be non-empty and unique")


def play_checked_game(game: AnyGame, options: Mapping[str, Any], seed: int,
                      *, full: bool = True) -> PlayRecord:
    """Play one random game (every check at every step when ``full``); return its record."""
    rng = np.random.default_rng(seed)
    state = game.new_state(options)
    agents = [RandomAgent() for _ in range(max(1, state.num_players))]
    checker_rng = np.random.default_rng(seed + 1_000_003)

    def on_events(s: State, events: list[Event]) -> None:
        hiding = [e for e in events if "kind" in e.data]
        if hiding:  # the log line {"kind": ..., **facts} would lose one of the two
            raise InvariantError(f"a {hiding[0].kind!r} event has a fact named 'kind'")
        if full:
            check_clone_independent(s, checker_rng, *_check_state(s, game))
        else:
            check_step_light(s)

    if full:
        check_state(state, game)
    record = play_game(state, agents, rng, max_steps=game.max_steps(options),
                       on_events=on_events)
    check_state(state, game)  # the finished game: result, returns, save/restore
    return record


def check_random_games(
    game: AnyGame, games: int | None = None, seed: int = 20261122, full_games: int = 10,
    configs: Iterable[int] | None = None,
) -> int:
    """Run the harness over every option set of ``game`` (or those of the indices
    ``configs``: a test may run each on its own); return the number of games played."""
    played = 0
    n = game.harness_games if games is None else games
    chosen = range(len(game.harness_configs)) if configs is None else configs
    for config_index in chosen:
        options = game.harness_configs[config_index]
        for g in range(n):
            game_seed = seed + 7919 * config_index + g
            record = play_checked_game(game, options, game_seed, full=g < full_games)
            if g < 3:  # replaying the same seed must give the same bytes
                again = _replay_log(game, options, game_seed)
                if again != record.log_text():
                    raise InvariantError(f"seed {game_seed} did not reproduce its event log")
            played += 1
    return played


def _replay_log(game: AnyGame, options: Mapping[str, Any], seed: int) -> str:
    rng = np.random.default_rng(seed)
    state = game.new_state(options)
    agents = [RandomAgent() for _ in range(max(1, state.num_players))]
    return event_log_text(
        play_game(state, agents, rng, max_steps=game.max_steps(options)).events
    )
