"""The Hairpin Racers lesson's terminal face: a step's board in the learner's language.

``raceday learn hairpin`` draws each step's position with :func:`lesson_picture` (the
game's own picture, every word from its message tables); its first game is the generic
one of :mod:`raceday.cli.learn` (the easiest computer, ``hint`` on the learner's turn).
Both faces word what a move did with :func:`lesson_event`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from raceday.core.events import Event

if TYPE_CHECKING:
    from raceday.games.hairpin.rules import HairpinState


def lesson_picture(state: HairpinState, lang: str) -> str:
    """The board, the counters and who moves, as plain text in ``lang`` (without the
    position's code, which tells a newcomer nothing)."""
    from raceday.games.hairpin.picture import frame_text

    frame = dict(state.frame())
    frame["text"] = ""
    return "\n".join(line.rstrip() for line in frame_text(frame, lang).splitlines())


def lesson_event(event: Event) -> Event:
    """``event`` with its facts worded for a lesson's reader: the sides by their names in
    the tables (``side.*``), a move by its words (``move.*``) rather than its code."""
    data = dict(event.data)
    for fact in ("player", "victim"):
        if isinstance(data.get(fact), str):
            data[fact] = {"key": f"side.{data[fact]}"}
    if event.kind == "move" and isinstance(data.get("how"), str):
        kind = data.get("choice") or data["how"]
        data["action"] = {"key": f"move.{kind}",
                          "params": {"from": data.get("from"), "to": data.get("to")}}
    return Event(event.kind, data)
