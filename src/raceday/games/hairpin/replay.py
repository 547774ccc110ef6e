"""Replaying Hairpin Racers: a room's board after each step is the state the game's own
rules make again from the room's log (:func:`raceday.present.replay.rebuild_states`),
drawn by the game's ``static/frame.js`` as the room draws it live; a saved game is read
as its record (:mod:`raceday.games.hairpin.saves`) and replays move by move in the
terminal, from its final position in the browser."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from raceday.core.events import Message
from raceday.core.protocol import CHANCE
from raceday.core.record import Record, apply_move, replay
from raceday.games.hairpin import saves
from raceday.games.hairpin.rules import HairpinState
from raceday.present.replay import room_event_message


def room_frame(logic: Any, state: HairpinState) -> dict[str, Any]:
    """The board the room's screens draw for ``state`` (its frame)."""
    return state.frame()


# --- the terminal's replay (``raceday replay``) --------------------------------------------
def terminal_board(state: HairpinState, lang: str = "en") -> Any:
    """The board as the terminal draws it (the render's ``board_view``, fitted to the space
    it gets; else :func:`raceday.games.hairpin.render.state_markup`), with the counters and
    who is to move or the result."""
    from rich.text import Text

    from raceday.games.hairpin import render

    view = getattr(render, "board_view", None)  # the board fitted to the space it gets
    if view is not None:
        return view(state, lang)
    return Text.from_markup(render.state_markup(state))


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


SIDE_WORDS = {"red": "hp_red", "black": "hp_black"}  # the rules' sides, as the pages say them
SIDE_FACTS = ("player", "victim", "winner")


def room_event(event: Mapping[str, Any], names: Sequence[Any]) -> Message:
    """A logged event of a Hairpin room in the reader's words: its sides as the pages name
    them (``hp_red``) and a move as ``move.<kind>``, not by the rules' English names."""
    facts = {k: (Message(SIDE_WORDS[v]).to_json() if k in SIDE_FACTS and v in SIDE_WORDS
                 else v) for k, v in event.items()}
    if event.get("type") == "move":
        kind = event.get("choice") or event.get("kind")
        facts["action"] = Message(f"move.{kind}", {"from": event.get("from"),
                                                   "to": event.get("to")}).to_json()
    return room_event_message(facts, names, "hairpin")


def convert(document: Mapping[str, Any]) -> Record:
    """A Hairpin save from before records as its record (:func:`saves.convert`)."""
    return saves.convert(document)


def finished(store: Any, name: str) -> bool:
    """Whether the saved game ``name`` is over (read as its record)."""
    return saves.final_state(saves.load(store, name)).is_terminal()


def terminal_steps(store: Any, name: str, lang: str = "en") -> list[Any]:
    """A saved game in the terminal, move by move: its record (:func:`saves.load`, a save
    from before records converted) played again by the rules from its start, each step
    the board after a player's move (the last with the result); a record without moves (a
    converted save that did not keep them) is its saved position as one step."""
    return record_steps(saves.load(store, name).record, lang)


def record_steps(record: Record, lang: str = "en") -> list[Any]:
    """A Hairpin record in the terminal, move by move (see :func:`terminal_steps`); the
    first move the rules refuse is a :class:`~raceday.core.record.RecordError`."""
    from raceday.present.replay import ReplayStep, final_step
    from raceday.present.terminal_replay import TerminalStep

    played = replay(record)
    state = played.start.clone()
    out = []
    for move in record.moves:
        before = state.clone()
        apply_move(state, move)
        if move.player == CHANCE:
            continue  # the setup's rolls: the board after them shows with the first move
        assert isinstance(before, HairpinState) and isinstance(state, HairpinState)
        action = before.string_to_action(move.name)
        side = Message("side.red" if move.player == 0 else "side.black").to_json()
        step = ReplayStep(Message("term.plays", {
            "player": side, "move": before.action_message(action).to_json()}))
        out.append((step, state.clone(), {"ply": before.position.ply, "side": move.player,
                                          "move": before.action_to_string(action)}))
    if not out:
        final = played.state
        assert isinstance(final, HairpinState)
        step = (final_step(final) if final.is_terminal() else
                ReplayStep(Message("terminal.replay.saved_position")))
        return [TerminalStep(step.to_json(), terminal_board(final, lang))]
    last_step, last_state, last_facts = out[-1]
    if last_state.is_terminal():
        out[-1] = (ReplayStep(last_step.title, final_step(last_state).lines), last_state,
                   last_facts)
    return [TerminalStep(step.to_json(), terminal_board(board, lang), facts)
            for step, board, facts in out]
