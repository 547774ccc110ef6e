"""The loop that plays a game to the end with given agents, sampling chance outcomes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from raceday.core.agents import Agent
from raceday.core.errors import RacedayError
from raceday.core.events import Event, event_log_text
from raceday.core.protocol import Action, State


class GameTooLongError(RacedayError):
    """A game exceeded its stated bound on the number of steps."""


@dataclass
class PlayRecord:
    """What happened in one played game: the final state, every action and every event."""

    final_state: State
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def log_text(self) -> str:
        return event_log_text(self.events)


def play_game(
    state: State,
    agents: Sequence[Agent] | Mapping[int, Agent],
    rng: np.random.Generator,
    *,
    max_steps: int = 1_000_000,
    on_events: Callable[[State, list[Event]], None] | None = None,
) -> PlayRecord:
    """Play ``state`` (modified in place) to the end.

    Chance outcomes are drawn from ``rng``; ``agents[p]`` chooses for player ``p`` and may
    use the same ``rng``. ``on_events`` is called after every step with the new events.
    """
    record = PlayRecord(final_state=state)
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise GameTooLongError(f"game did not end within {max_steps} steps")
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            action, detail = draw.outcome, draw.detail
        else:
            action, detail = agents[state.current_player()].choose(state, rng), None
        events = state.apply_action(action, detail)
        record.actions.append(action)
        record.events.extend(events)
        if on_events is not None:
            on_events(state, events)
        steps += 1
    return record
