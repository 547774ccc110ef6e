"""Replay steps: what a replay shows at each step, as messages (rendered in the reader's
language by the page) and, where the game's state draws one, a board frame.

A game declares a ``replay`` face module in its package (found with
:func:`raceday.core.discovery.face`) where its saves or old logs need their own reading;
each of its functions is optional:

* ``finished(store, name) -> bool`` and ``steps(store, name) -> list[ReplayStep]``: its
  saved sessions (without them, a session replays its saved final state, :func:`final_step`);
* ``part(store, name, part) -> dict``: one part of a session (a stage), which the page
  draws with the game's ``static/film.js`` (``mountFilm(element, data)``);
* ``room_event(event, names) -> Message | None``: the message of an event its rooms
  logged, where old logs need their facts brought to today's shape (None: the event is
  ``event.<kind>``, :func:`room_event_message`).

The terminal's replay (``raceday replay``) reads the same face for its boards:
``terminal_steps``, ``terminal_final`` and ``room_boards``
(:mod:`raceday.present.terminal_replay`).

A step's ``frame`` is drawn by the game's ``static/frame.js`` (or ``board.js``) when it
exports ``drawFrame(frame, element, options)``, which the replay page imports from the
address the server's answer names (``drawer``; the contract is in docs/adding-a-game.md);
otherwise the page shows ``board``, the text picture.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.present.messages import event_key, outcome_message
from raceday.present.pictures import text_picture

if TYPE_CHECKING:
    from raceday.core.events import Event
    from raceday.core.protocol import State


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: a title and lines as messages, and optionally the board
    (``frame`` from :meth:`State.frame`, ``board`` its text picture) and a link."""

    title: Message
    lines: Sequence[Message] = ()
    frame: Mapping[str, Any] | None = None
    board: str | None = None
    url: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "step", "title": self.title.to_json(),
                               "lines": [line.to_json() for line in self.lines]}
        for name in ("frame", "board", "url"):
            value = getattr(self, name)
            if value is not None:
                out[name] = dict(value) if isinstance(value, Mapping) else value
        return out


def place_name(place: Any) -> Any:
    """A player of a logged ``started`` event as a replay names them: a name (the event
    may give just the name), else a message: a person who played on the host screen is the
    big screen's, a computer is named by its level."""
    if isinstance(place, str):
        return place
    if not isinstance(place, Mapping):
        return Message("rp_unknown_player")
    if place.get("name"):
        return str(place["name"])
    kind = place.get("kind")
    if isinstance(kind, str) and kind != "human":
        return Message("finale_computer", {"level": Message(f"level_{kind}")})
    return Message("rp_host_screen")


def player_names(events: Sequence[Any]) -> list[Any] | None:
    """The evening's players in order, from a ``started`` event (see :func:`place_name`:
    names, and messages for the places without one); None without one."""
    for event in events:
        if isinstance(event, Mapping) and event.get("type") == "started":
            return [place_name(p) for p in event.get("players", [])]
    return None


def final_step(state: State) -> ReplayStep:
    """A finished game as one step: its final board and its result."""
    return ReplayStep(Message("replay.final_position"), [outcome_message(state.outcome())],
                      frame=state.frame(), board=text_picture(state))


def room_event_message(event: Mapping[str, Any], names: Sequence[Any] = (),
                       game: str | None = None) -> Message:
    """A room's logged event (``{"type": kind, **facts}``) as its message
    ``event.<kind>`` (the game's own first), with a seat's name added where the facts give
    a player's number (``names`` in the order of the evening's players). With ``game``,
    a true fact picks the variant ``event.<kind>.<fact>`` where the game's table has one,
    as :func:`~raceday.present.describe_event` does."""
    params = {k: v for k, v in event.items() if k != "type"}
    player = params.get("player")
    if (isinstance(player, int) and not isinstance(player, bool) and "name" not in params
            and 0 <= player < len(names)):
        params["name"] = names[player]
    key = f"event.{event.get('type')}"
    return Message(key if game is None else event_key(game, key, params), params)


def step_text(step: Mapping[str, Any], game: str, lang: str = "en") -> list[str]:
    """A replay step as the page shows it in words: the title, then each line (a room
    step's events one per line)."""
    from raceday.present.messages import render

    def words(message: Mapping[str, Any]) -> str:
        return render(Message(str(message["key"]), message.get("params") or {}), lang, game)

    if step.get("kind") == "events":
        return [words(m) for m in step["events"]]
    return [words(step["title"]), *(words(m) for m in step.get("lines", []))]


# --- a room's states rebuilt from its log ------------------------------------------------
ROOM_KINDS = frozenset({"created", "joined", "started", "pace", "paused", "resumed",
                        "abandoned", "undone", "thinking", "again", "left"})
"""Logged events the room makes around the game (never one of the state's own)."""

EventJson = Callable[["Event"], Mapping[str, Any]]
ChanceHint = Callable[["State", Mapping[str, Any]], "int | None"]


def _same(made: Mapping[str, Any], logged: Mapping[str, Any]) -> bool:
    """Whether an event the state makes now is the logged one: every fact it makes is
    the logged fact (a fact it leaves None, such as dice it was not shown, matches any)."""
    return all(value is None or logged.get(key) == value for key, value in made.items())


def _try(state: State, player: int | None, action: int, logged: Sequence[Mapping[str, Any]],
         event_json: EventJson) -> tuple[State, int] | None:
    """The state after ``action`` and how many logged events it made, if they match."""
    trial = state.clone()
    try:
        made = (trial.apply_action(action) if player is None
                else trial.apply_action_for(player, action))
    except (RacedayError, ValueError, KeyError, IndexError, TypeError, AssertionError):
        return None
    made_json = [event_json(e) for e in made]
    if len(made_json) > len(logged) or not made_json:
        return None
    if all(_same(m, g) for m, g in zip(made_json, logged, strict=False)):
        return trial, len(made_json)
    return None


def _step(state: State, logged: Sequence[Mapping[str, Any]], event_json: EventJson,
          hint: ChanceHint | None, first: int | None) -> tuple[State, int] | None:
    """The one move (a chance outcome or a player's action) that makes the next logged
    events from ``state``, found by the game's own rules (``first``: try this action
    first, e.g. the one the intent asked for)."""
    if state.is_chance_node():
        tried = hint(state, logged[0]) if hint is not None else None
        if tried is not None:
            found = _try(state, None, tried, logged, event_json)
            if found is not None:
                return found
        for action, _ in state.chance_outcomes():
            found = _try(state, None, action, logged, event_json)
            if found is not None:
                return found
        return None
    for player in state.acting_players():
        actions = state.legal_actions_for(player)
        if first is not None and first in actions:
            actions = [first, *(a for a in actions if a != first)]
        for action in actions:
            found = _try(state, player, action, logged, event_json)
            if found is not None:
                return found
    return None


def rebuild_states(new_state: Callable[[], State],
                   rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
                   event_json: EventJson, hint: ChanceHint | None = None
                   ) -> list[State | None]:
    """The game's state after each logged row of a room (``(intent, events)``; None before
    the start), rebuilt by the game's own rules: each state event logged is made again by
    the one move that makes it (a chance outcome, a player's or a computer's action), so
    no rule is repeated here. A ``started`` event starts from ``new_state()``; ``undone``
    goes back to the state before the last person's move. Where the log cannot be followed
    (an event no move makes), the states stop: the rest is None."""
    states: list[State | None] = []
    state: State | None = None
    before_moves: list[State] = []
    lost = False
    for intent, events in rows:
        if lost:
            states.append(None)
            continue
        asked = intent.get("action")
        first = asked if isinstance(asked, int) and not isinstance(asked, bool) else None
        if first is not None and state is not None:
            before_moves.append(state.clone())
        i = 0
        while i < len(events):
            kind = events[i].get("type")
            if kind == "started":
                state, before_moves = new_state(), []
                i += 1
            elif kind == "undone" and before_moves:
                state = before_moves.pop()
                i += 1
            elif kind in ROOM_KINDS or state is None or state.is_terminal():
                i += 1
            else:
                found = _step(state, events[i:], event_json, hint, first)
                if found is None:
                    lost = True
                    break
                state, used = found
                first = None
                i += used
        states.append(None if lost or state is None else state)
    return states
