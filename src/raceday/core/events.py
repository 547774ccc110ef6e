"""Structured records of what happened in a transition, for commentary, replays and tests."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    """A message key and its parameters: what a face renders in the reader's language.

    ``key`` is looked up in the message tables of :mod:`raceday.present` (a game's own keys
    are written ``"<game>.<key>"`` there); ``params`` holds only JSON values, and a param
    may itself be a message written as ``{"key": ..., "params": {...}}``.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The message as JSON; a param that is a Message (also inside a list) becomes its
        ``{"key", "params"}`` form."""
        return {"key": self.key, "params": {k: _json(v) for k, v in self.params.items()}}


def _json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True)
class Event:
    """One thing that happened: a kind (``"move"``, ``"throw"``, ``"finish"``, ...) and data.

    The kind is the event's message key within its game (rendered by :mod:`raceday.present`
    from ``"<game>.event.<kind>"``) and ``data`` its parameters: facts, never prose.
    ``data`` must hold only JSON values (numbers, strings, lists, dicts, booleans, None).
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The message key of this event within its game's table: ``event.<kind>``."""
        return f"event.{self.kind}"

    @property
    def params(self) -> Mapping[str, Any]:
        return self.data

    def to_dict(self) -> dict[str, Any]:
        """The event as one JSON object: its facts and its kind, which no fact may hide
        (the rules name no fact ``kind``; were one to, the event's kind still wins)."""
        return {**self.data, "kind": self.kind}

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


def event_log_text(events: Iterable[Event]) -> str:
    """The canonical text of an event log: one JSON object per line, keys sorted.

    Two runs with the same seed and options must give byte-identical text.
    """
    return "".join(
        json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":")) + "\n" for e in events
    )
