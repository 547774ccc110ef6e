"""Replaying Hairpin Racers: a room's board after each step is the state the game's own
rules make again from the room's log (:func:`raceday.present.replay.rebuild_states`),
drawn by the game's ``static/frame.js`` as the room draws it live; a saved game replays
from its final position (the default)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from raceday.games.hairpin.rules import HairpinState


def room_frame(logic: Any, state: HairpinState) -> dict[str, Any]:
    """The board the room's screens draw for ``state`` (its frame)."""
    return state.frame()


# --- the terminal's replay (``raceday replay``) --------------------------------------------
def terminal_board(state: HairpinState, lang: str = "en") -> Any:
    """The board as the terminal draws it (:func:`raceday.games.hairpin.render.state_markup`),
    with the counters and who is to move or the result."""
    from rich.text import Text

    from raceday.games.hairpin.render import state_markup

    return Text.from_markup(state_markup(state))


def terminal_final(state: HairpinState, lang: str = "en") -> Any:
    """A saved game's final position as the terminal draws it."""
    return terminal_board(state, lang)


def room_boards(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
                lang: str = "en") -> list[Any]:
    """The board after each logged row of a Hairpin room as the terminal draws it: the
    states the game's own rules make again from the log
    (:func:`raceday.present.replay.rebuild_states`); None before the start."""
    from raceday.present.replay import rebuild_states
    from raceday.rooms import logic_class

    logic: Any = logic_class("hairpin").from_json(snapshot)
    states = rebuild_states(logic.new_state, rows, logic.event_json)
    return [None if s is None else terminal_board(cast(HairpinState, s), lang)
            for s in states]
