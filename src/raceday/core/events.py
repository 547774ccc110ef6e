"""Structured records of what happened in a transition, for commentary, replays and tests."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened: a kind (``"move"``, ``"throw"``, ``"finish"``, ...) and data.

    ``data`` must hold only JSON values (numbers, strings, lists, dicts, booleans, None).
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}

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
