"""Replaying Hairpin Racers: a room's board after each step is the state the game's own
rules make again from the room's log (:func:`raceday.present.replay.rebuild_states`),
drawn by the game's ``static/frame.js`` as the room draws it live; a saved game replays
from its final position (the default)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from raceday.core.events import Message
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


def _start(final: HairpinState) -> HairpinState | None:
    """The start of a saved game whose final position is ``final``: a new game of its
    rules, with its setup dice (the state keeps them) thrown again by the rules."""
    state = HairpinState(final.rules)
    for roll in final.setup_rolls:
        if not state.is_chance_node():
            return None
        for action, _ in state.chance_outcomes():
            trial = state.clone()
            trial.apply_action(action)
            if trial.setup_rolls[-1:] == [roll]:
                state = trial
                break
        else:
            return None
    return state


def _played(start: HairpinState, moves: Sequence[Mapping[str, Any]]
            ) -> list[HairpinState] | None:
    """The state after each logged move from ``start``: each move is the legal action the
    rules name as the logged move (``action_to_string``) at the logged ply; None where a
    move is not one the rules allow there (a game begun from another position)."""
    state, after = start, []
    for entry in moves:
        if state.is_terminal() or state.position.ply != entry.get("ply"):
            return None
        named = [a for a in state.legal_actions() if state.action_to_string(a) == entry.get(
            "move")]
        if len(named) != 1:
            return None
        state = state.clone()
        state.apply_action(named[0])
        after.append(state)
    return after


def terminal_steps(store: Any, name: str, lang: str = "en") -> list[Any]:
    """A saved game in the terminal, move by move: the game's moves (the save's ``moves``)
    played again by the rules from the start of its rules and setup dice, each step the
    board after a move (the last with the result), if they give the saved position; else
    (a save without its moves, or one begun from a given position) the saved position as
    one step."""
    from raceday.present.replay import ReplayStep, final_step
    from raceday.present.terminal_replay import TerminalStep

    doc, _ = store.load("hairpin", name)
    final = HairpinState.from_json(doc["state"])
    moves = [m for m in doc.get("moves", []) if isinstance(m, dict)]
    start = _start(final) if moves else None
    after = None if start is None else _played(start, moves)
    if start is None or not after or after[-1].to_json() != final.to_json():
        step = (final_step(final) if final.is_terminal() else
                ReplayStep(Message("terminal.replay.saved_position")))
        return [TerminalStep(step.to_json(), terminal_board(final, lang))]
    out = []
    for k, (entry, state) in enumerate(zip(moves, after, strict=True)):
        side = Message("side.red" if entry.get("side") == 0 else "side.black").to_json()
        before = start if k == 0 else after[k - 1]
        move = before.action_message(before.string_to_action(entry["move"])).to_json()
        step = ReplayStep(Message("term.plays", {"player": side, "move": move}))
        if k == len(moves) - 1 and state.is_terminal():
            step = ReplayStep(step.title, final_step(state).lines)
        out.append(TerminalStep(step.to_json(), terminal_board(state, lang),
                                {"ply": entry["ply"], "side": entry.get("side"),
                                 "move": entry["move"]}))
    return out
