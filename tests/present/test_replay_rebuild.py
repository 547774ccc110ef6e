"""present.replay.rebuild_states: a game's states made again from logged events alone, by
the game's own rules (each logged event matched by the one move or chance outcome that
makes it), with the room's own events skipped, ``undone`` going back and a log that cannot
be followed stopping the states."""

from __future__ import annotations

from typing import Any

import numpy as np

from raceday.core.agents import RandomAgent
from raceday.core.events import Event
from raceday.games.pistard import GAME as PISTARD
from raceday.games.pistard.replay import chance_action
from raceday.present.replay import rebuild_states


def _json(e: Event) -> dict[str, Any]:
    return {"type": e.kind, **e.data}


def _played(seed: int) -> tuple[list[Any], list[tuple[dict[str, Any], list[dict[str, Any]]]]]:
    """A PISTARD race with chance (dice) and moves, logged one action a row."""
    options = {"variant": "scratch", "players": 2}
    state = PISTARD.new_state(options, seed=seed)
    rng = np.random.default_rng(seed)
    agent = RandomAgent()
    states, rows = [], []
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            events = state.apply_action(draw.outcome, draw.detail)
        else:
            events = state.apply_action(agent.choose(state, rng))
        rows.append(({}, [_json(e) for e in events]))
        states.append(state.clone())
    return states, rows


def _fresh(seed: int) -> Any:
    return lambda: PISTARD.new_state({"variant": "scratch", "players": 2}, seed=seed)


def test_every_state_is_made_again_from_the_events() -> None:
    states, rows = _played(3)
    start = [({}, [{"type": "created"}]), ({}, [{"type": "started", "players": []}])]
    rebuilt = rebuild_states(_fresh(3), [*start, *rows], _json, chance_action)
    assert rebuilt[0] is None and rebuilt[1] == _fresh(3)()
    assert rebuilt[2:] == states


def test_without_a_hint_every_chance_outcome_is_tried() -> None:
    states, rows = _played(6)
    throws = [i for i, (_, events) in enumerate(rows) if events[0]["type"] == "throw"]
    assert len(throws) >= 2
    head = rows[:throws[1] + 1]  # the placements and the first two throws (1,296 outcomes each)
    rebuilt = rebuild_states(_fresh(6), [({}, [{"type": "started"}]), *head], _json)
    assert rebuilt[1:] == states[:len(head)]


def test_undone_goes_back_to_the_state_before_the_persons_move() -> None:
    states, rows = _played(4)
    start = [({}, [{"type": "started", "players": []}])]
    move = next(i for i, (_, events) in enumerate(rows) if events[0]["type"] == "move")
    asked = {"action": 0}  # a person's move: the state before it is kept for an undo
    log = [*start, *rows[:move], (asked, rows[move][1]), ({}, [{"type": "undone"}])]
    rebuilt = rebuild_states(_fresh(4), log, _json)
    assert rebuilt[-2] == states[move]
    assert rebuilt[-1] == (states[move - 1] if move else _fresh(4)())


def test_a_log_the_rules_cannot_make_stops_the_states() -> None:
    states, rows = _played(5)
    start = [({}, [{"type": "started", "players": []}])]
    torn = [*rows[:6], ({}, [{**rows[6][1][0], "rider": 99}]), *rows[7:]]
    rebuilt = rebuild_states(_fresh(5), [*start, *torn], _json, chance_action)
    assert rebuilt[1:7] == states[:6]
    assert rebuilt[7:] == [None] * (len(rows) - 6)
