"""Saving and restoring states as JSON text, and writing files atomically."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from raceday.core.errors import OptionsError, SaveFormatError
from raceday.core.protocol import State

FORMAT_VERSION = 1

T = TypeVar("T")


def dumps_state(state: State) -> str:
    """A self-describing JSON text of ``state`` (game name, format version, fields)."""
    doc = {"game": state.game_name, "version": FORMAT_VERSION, "state": state.to_json()}
    return json.dumps(doc, sort_keys=True)


def loads_state(text: str) -> State:
    """Rebuild a state from :func:`dumps_state` text; :class:`SaveFormatError` if malformed."""
    from raceday.core.registry import get_game

    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFormatError(f"saved state is not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or not {"game", "version", "state"} <= doc.keys():
        raise SaveFormatError("saved state must be an object with game, version and state")
    if doc["version"] != FORMAT_VERSION:
        raise SaveFormatError(f"saved state has format version {doc['version']!r}; expected 1")
    try:
        spec = get_game(str(doc["game"]))
    except OptionsError as exc:
        raise SaveFormatError(f"saved state: {exc}") from None
    state: State = spec.state_from_json(doc["state"])
    return state


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new, never half."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Fields:
    """Checked access to a saved JSON object, raising :class:`SaveFormatError` on mistakes."""

    def __init__(self, data: Mapping[str, Any], what: str) -> None:
        if not isinstance(data, Mapping):
            raise SaveFormatError(f"{what}: expected a JSON object")
        self.data = data
        self.what = what

    def get(self, key: str, kind: type | tuple[type, ...]) -> Any:
        if key not in self.data:
            raise SaveFormatError(f"{self.what}: missing field {key!r}")
        value = self.data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise SaveFormatError(f"{self.what}: field {key!r} has the wrong type")
        return value

    def parsed(self, key: str, parse: Callable[[Mapping[str, Any]], T]) -> T:
        """A nested object read by ``parse`` (e.g. an options class's ``from_mapping``);
        any :class:`OptionsError` or ``TypeError`` it raises becomes a save error."""
        try:
            return parse(self.get(key, dict))
        except (OptionsError, TypeError) as exc:
            raise SaveFormatError(f"{self.what}: bad {key}: {exc}") from None

    def int_list(self, key: str) -> list[int]:
        value = self.get(key, list)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise SaveFormatError(f"{self.what}: field {key!r} must be a list of integers")
        return list(value)
