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

A step's ``frame`` is drawn by the game's ``static/frame.js`` (or ``board.js``) when it
exports ``drawFrame(frame, element)``; otherwise the page shows ``board``, the text picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from raceday.core.events import Message
from raceday.present.messages import event_key, outcome_message

if TYPE_CHECKING:
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


def final_step(state: State) -> ReplayStep:
    """A finished game as one step: its final board and its result."""
    return ReplayStep(Message("replay.final_position"), [outcome_message(state.outcome())],
                      frame=state.frame(), board=str(state))


def room_event_message(event: Mapping[str, Any], names: Sequence[str] = (),
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
