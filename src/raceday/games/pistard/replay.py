"""Replaying PISTARD: a saved race replays from its final position (the default); a room's
logged events are the engine's events, each worded ``event.<kind>`` (or its variant) from
the message table. Rooms logged before the events held every fact their words need: this
module brings those to today's shape (shapes only; the words are the table's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.games.pistard.moves import action_from_dice
from raceday.games.pistard.state import WORD_FACT_KINDS, PistardState, with_word_facts
from raceday.present.replay import room_event_message
from raceday.rooms import Actor, TurnRoom

# A result's "why" as logged before it was a word (the sentences of that time).
OLD_WHY = {"race over": "line", "points race over": "points", "the other rider fell": "fell",
           "team time trial over": "ttt", "elimination race over": "elimination",
           "team pursuit over": "pursuit"}


def _move_facts(e: dict[str, Any]) -> dict[str, Any]:
    """A move logged before it said how far ahead, into which lane and with which die."""
    return {**e, "ahead": e["to"][0] - e["from"][0], "lane": e["to"][1], e["colour"]: True}


def _result_facts(e: dict[str, Any]) -> dict[str, Any]:
    """A result logged with ``why`` (a word or, older, a sentence) gains its true fact (a
    pursuit's is ``tie`` or ``team_won``, with the winning team's number) and its points as
    ``scores`` (a points race's ``points`` becomes its true fact)."""
    why = OLD_WHY.get(e["why"], e["why"])
    if why == "pursuit":
        tie = bool(e.get("tie"))
        teams = e.get("teams") or []
        return {"tie": tie, "team_won": not tie, **e,
                "team": None if tie or not teams else teams[0] + 1}
    return {**e, "scores": e.get("points"), why: True}


def current_shape(event: dict[str, Any]) -> dict[str, Any]:
    """A logged room event (``{"type": kind, **facts}``) with the facts the engine logs
    today added (the old ones are kept); an event in today's shape is returned as it is."""
    kind = event.get("type")
    if kind == "move" and "ahead" not in event:
        return _move_facts(event)
    if kind == "result" and "why" in event:
        return _result_facts(event)
    if kind in WORD_FACT_KINDS:
        return {"type": kind, **with_word_facts(str(kind), event)}
    return event


def room_event(event: dict[str, Any], names: list[str]) -> Message:
    """A logged event as its message (``event.<kind>`` or the variant its true fact picks);
    a move logged with an energy token before the token was an event of its own says so."""
    message = room_event_message(current_shape(event), names, "pistard")
    if event.get("type") == "move" and "ahead" not in event and event.get("token"):
        return Message("replay.with_token", {"move": message.to_json()})
    return message


def chance_action(state: PistardState, event: Mapping[str, Any]) -> int | None:
    """The throw outcome a logged ``throw`` event shows (its dice), so a replay need not
    try every throw; None for any other event."""
    dice = event.get("dice")
    if event.get("type") != "throw" or not isinstance(dice, list):
        return None
    return action_from_dice([int(d) for d in dice])


def room_frame(logic: TurnRoom[PistardState], state: PistardState) -> dict[str, Any]:
    """The race as the room's screens draw it: the state's frame and the room's track."""
    frame = {k: v for k, v in state.frame().items() if k != "grid"}  # the track has it
    return {**frame, "track": track_view(logic, state)}


def track_view(logic: TurnRoom[PistardState], state: PistardState) -> dict[str, Any]:
    """The track as the room's view gives it (name, length, lanes' letters, lines)."""
    held = logic.state
    logic.state = state
    try:
        track: dict[str, Any] = logic.lobby_view(Actor.spectator())["track"]
    finally:
        logic.state = held
    return track


# --- the terminal's replay (``raceday replay``) --------------------------------------------
def terminal_board(state: PistardState, lang: str = "en") -> Any:
    """The lap as the terminal draws it (the render's ``board_view``, fitted to the space
    it gets; else :func:`raceday.games.pistard.render.board`), with the standings."""
    from rich.console import Group

    from raceday.games.pistard import render

    view = getattr(render, "board_view", None)
    if view is not None:
        return view(state, lang)
    return Group(render.board(state), render.standings(state))


def terminal_final(state: PistardState, lang: str = "en") -> Any:
    """A saved race's final position as the terminal draws it."""
    return terminal_board(state, lang)


def room_boards(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
                lang: str = "en") -> list[Any]:
    """The lap after each logged row of a PISTARD room as the terminal draws it: the states
    the game's own rules make again from the log (old events in today's shape first,
    :func:`current_shape`; a throw's dice name its outcome, :func:`chance_action`); None
    before the start."""
    from raceday.present.replay import rebuild_states
    from raceday.rooms import logic_class

    logic: Any = logic_class("pistard").from_json(snapshot)
    shaped = [(intent, [current_shape(dict(e)) for e in events]) for intent, events in rows]
    states = rebuild_states(logic.new_state, shaped, logic.event_json,
                            cast(Any, chance_action))
    return [None if s is None else terminal_board(cast(PistardState, s), lang)
            for s in states]


Ridden = list[tuple[PistardState, list[Any], int | None]]


def _ridden(start: PistardState, actions: list[Any]) -> tuple[Ridden, PistardState] | None:
    """The race ridden again from ``start`` by the rules with the logged ``actions`` (each
    ``[action, detail]``, chance outcomes and decisions in the order they were applied,
    as ``raceday pistard play`` and ``watch`` save them): one entry per decision (a rider
    placed or moved), with the state after it, the events since the last decision and the
    player who decided, and the state the log ends in; None where an action is not legal
    there (a log of another race)."""
    state = start.clone()
    out: list[tuple[PistardState, list[Any], int | None]] = []
    events: list[Any] = []
    for entry in actions:
        if state.is_terminal() or not isinstance(entry, list) or len(entry) != 2:
            return None
        action, detail = entry
        if type(action) is not int:
            return None
        player = None if state.is_chance_node() else state.current_player()
        legal = ([a for a, _ in state.chance_outcomes()] if player is None
                 else state.legal_actions())
        if action not in legal:
            return None
        events += state.apply_action(action, detail if isinstance(detail, dict) else None)
        if player is not None:
            out.append((state.clone(), events, player))
            events = []
    if events and out:
        _, said, who = out[-1]
        out[-1] = (state.clone(), [*said, *events], who)
    return out, state


def terminal_steps(store: Any, name: str, lang: str = "en") -> list[Any]:
    """A saved race in the terminal. A save that keeps its start and its actions (``start``:
    the state's text at the start, ``actions``: every ``[action, detail]`` applied, the
    dice's outcomes too) replays decision by decision: the race ridden again by the rules,
    each step the lap after a rider's decision with what happened since the last one, if
    it ends in the saved position. Any other save replays its saved position as one
    step, with the board (a save made before saves kept their log, a race saved before its
    first decision; a log that does not lead to the saved position says so in a line)."""
    from raceday.core.serialize import dumps_state, loads_state
    from raceday.present.replay import ReplayStep, final_step
    from raceday.present.terminal_replay import TerminalStep

    doc, _ = store.load("pistard", name)
    final = loads_state(str(doc["state"]))
    if not isinstance(final, PistardState):
        raise ValueError(f"session {name!r} is not a PISTARD race")
    start_text, actions = doc.get("start"), doc.get("actions")
    logged = start_text is not None or actions is not None
    ridden: Ridden = []
    rebuilt = False
    if isinstance(start_text, str) and isinstance(actions, list):
        try:
            start = loads_state(start_text)
        except (RacedayError, KeyError, TypeError, ValueError):
            start = None
        got = _ridden(start, actions) if isinstance(start, PistardState) else None
        if got is not None:
            ridden = got[0]
            rebuilt = dumps_state(got[1]) == dumps_state(final)
    if not (rebuilt and ridden):
        step = (final_step(final) if final.is_terminal() else
                ReplayStep(Message("terminal.replay.saved_position")))
        if logged and not rebuilt:  # a log that does not lead to this position: say so
            step = ReplayStep(step.title, [*step.lines, Message("terminal.replay.not_rebuilt")],
                              step.frame, step.board, step.url)
        return [TerminalStep(step.to_json(), terminal_board(final, lang))]
    from raceday.games.pistard.render import SAID_EVENTS

    out = []
    for k, (state, events, player) in enumerate(ridden):
        said = [room_event_message({"type": e.kind, **e.data}, (), "pistard")
                for e in events if e.kind in SAID_EVENTS and e.kind != "result"]
        title = Message("terminal.replay.round", {"round": state.round,
                                                  "player": (player or 0) + 1})
        lines = said
        if k == len(ridden) - 1 and state.is_terminal():
            lines = [*said, *final_step(state).lines]
        out.append(TerminalStep(ReplayStep(title, lines).to_json(),
                                terminal_board(state, lang),
                                {"round": state.round, "player": (player or 0) + 1}))
    return out
