"""Replaying PISTARD: a saved race replays from its record (the moves ridden again by the
rules, decision by decision; read with :func:`raceday.store.records.load_game`); a room's
logged events are the engine's events, each worded ``event.<kind>`` (or its variant) from
the message table. Rooms logged before the events held every fact their words need: this
module brings those to today's shape (shapes only; the words are the table's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from raceday.core.events import Message
from raceday.core.protocol import CHANCE
from raceday.core.record import Record, RecordError, apply_move, start_state
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


def lesson_frame(state: PistardState) -> dict[str, Any]:
    """One position as the replay board (``static/frame.js``'s velodrome) draws it: the
    state's frame with its track as a room names it (its lanes' colour letters, its lines)
    — the board of a lesson step (``/learn/pistard``); the state's own grid holds colour
    numbers, which the board does not read."""
    from raceday.games.pistard.track import LETTERS

    opts, track = state.options, state.track
    frame = {k: v for k, v in state.frame().items() if k != "grid"}
    return {**frame, "track": {
        "name": track.name, "length": track.length,
        "grid": ["".join(LETTERS[c] for c in track.grid[lane])
                 for lane in range(1, track.lanes + 1)],
        "lines": sorted({opts.rules.start_offset(p, track.length)
                         for p in range(opts.num_players)})}}


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


def _ridden(record: Record) -> tuple[Ridden, PistardState]:
    """The race of ``record`` ridden again by the rules: one entry per decision (a rider
    placed, chosen or moved), with the state after it, the events since the last decision
    and the player who decided (a draw after the last decision joins it), and the state
    the record ends in; :class:`RecordError` names the first move the rules refuse."""
    _, start = start_state(record)
    if not isinstance(start, PistardState):
        raise RecordError("this record is not of a PISTARD race", record.line)
    state = start.clone()
    out: Ridden = []
    events: list[Any] = []
    for move in record.moves:
        events += apply_move(state, move)
        if move.player != CHANCE:
            out.append((state.clone(), events, move.player))
            events = []
    if events and out:
        _, said, who = out[-1]
        out[-1] = (state.clone(), [*said, *events], who)
    return out, state


def finished(store: Any, name: str) -> bool:
    """Whether the saved race ``name`` is over (for ``raceday replay --list``)."""
    from raceday.games.pistard.saves import load_race

    return bool(load_race(store, name).state().is_terminal())


def _decision_steps(record: Record, drawn: bool) -> list[tuple[Any, PistardState]]:
    """The steps of a race's record (see :func:`terminal_steps`), each with the state it
    shows; ``drawn``: with the board's frame and text picture (the web's replay page)."""
    from raceday.games.pistard.render import SAID_EVENTS
    from raceday.games.pistard.saves import LOG_REFUSED
    from raceday.present.pictures import text_picture
    from raceday.present.replay import ReplayStep, final_step

    ridden, final = _ridden(record)
    if not ridden:
        step = (final_step(final) if final.is_terminal() else
                ReplayStep(Message("terminal.replay.saved_position")))
        if record.tags.get("Converted") == LOG_REFUSED:  # a log that did not lead there
            step = ReplayStep(step.title, [*step.lines, Message("terminal.replay.not_rebuilt")],
                              step.frame, step.board, step.url)
        if not drawn:
            step = ReplayStep(step.title, step.lines)
        return [(step, final)]
    out = []
    for k, (state, events, player) in enumerate(ridden):
        said = [room_event_message({"type": e.kind, **e.data}, (), "pistard")
                for e in events if e.kind in SAID_EVENTS and e.kind != "result"]
        title = Message("terminal.replay.round", {"round": state.round,
                                                  "player": (player or 0) + 1})
        lines = said
        if k == len(ridden) - 1 and state.is_terminal():
            lines = [*said, *final_step(state).lines]
        out.append((ReplayStep(title, lines, frame=state.frame(), board=text_picture(state))
                    if drawn else ReplayStep(title, lines), state))
    return out


def steps(store: Any, name: str) -> list[Any]:
    """A saved race's replay steps for the web's replay page (one a decision, each with
    its board; see :func:`terminal_steps`)."""
    from raceday.games.pistard.saves import load_race

    return [step for step, _ in _decision_steps(load_race(store, name).record, drawn=True)]


def terminal_steps(store: Any, name: str, lang: str = "en") -> list[Any]:
    """A saved race in the terminal, read as its record (a save made before records is
    converted, :mod:`raceday.games.pistard.saves`): the race ridden again by the rules,
    each step the lap after a rider's decision with what happened since the last one. A
    record with no decision (a save made before saves kept their log, converted to a
    record starting at its saved position; a race saved before its first decision)
    replays its position as one step, with the board (a log that did not lead to the
    saved position says so in a line)."""
    from raceday.games.pistard.saves import load_race
    from raceday.present.terminal_replay import TerminalStep

    record = load_race(store, name).record
    made = _decision_steps(record, drawn=False)
    if len(made) == 1 and not any(m.player != CHANCE for m in record.moves):
        step, final = made[0]
        return [TerminalStep(step.to_json(), terminal_board(final, lang))]
    return [TerminalStep(step.to_json(), terminal_board(state, lang),
                         {"round": state.round, "player": step.title.params["player"]})
            for step, state in made]
