"""Records of the games the research faces play (the arena, Gymnasium, PettingZoo,
OpenSpiel): a :class:`~raceday.core.record.Recorder` that follows the engine's state from
its first position, so every match and every episode reads back as a record
(docs/record-format.md) and replays through the rules to the same state.

A record starts from the game's first position for its ``Options``; where the options an
adapter's parameters stand for do not make that very position (an adapter's own start),
the start state's JSON is kept as the record's ``Start`` instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from raceday.core.errors import RacedayError
from raceday.core.record import Recorder
from raceday.core.registry import record_game
from raceday.research import Adapter, ParamValue

FACE = "research"


def _options_json(candidate: Any) -> dict[str, Any] | None:
    to_json = getattr(candidate, "to_json", None)
    if not callable(to_json):
        return None
    try:
        made = to_json()
    except (RacedayError, TypeError, ValueError):
        return None
    return dict(made) if isinstance(made, Mapping) else None


def start_options(adapter: Adapter, params: Mapping[str, ParamValue], start: Any
                  ) -> tuple[dict[str, Any], bool]:
    """The record's ``Options`` for a game whose first position is ``start`` (made by
    ``adapter`` from ``params``), and whether the game's own first position for them is
    ``start`` (else the record keeps ``start`` as its ``Start``)."""
    game = record_game(start.game_name)
    candidates = [getattr(start, "options", None)]
    if adapter.options_model is not None:
        with contextlib.suppress(RacedayError, TypeError):
            candidates.append(adapter.game_options(params))
    wanted = start.to_json()
    for candidate in candidates:
        options = _options_json(candidate)
        if options is None:
            continue
        try:
            if game.new_state(options).to_json() == wanted:
                return options, True
        except (RacedayError, TypeError, ValueError, KeyError):
            continue
    first = next((o for o in map(_options_json, candidates) if o is not None), {})
    return first, False


def follow(adapter: Adapter, params: Mapping[str, ParamValue], state: Any, *,
           seed: Any = None, seats: Sequence[Mapping[str, str]] = (), face: str = FACE,
           tags: Mapping[str, Any] | None = None) -> Recorder:
    """A recorder following ``state`` (a game's first position, made by ``adapter``) from
    now on: ``Face`` is ``face``, ``Seed`` ``seed`` (when given)."""
    options, own_start = start_options(adapter, params, state)
    recorder = Recorder(state.game_name, options, seats=seats,
                        tags={"Face": face, **({"Seed": seed} if seed is not None else {}),
                              **(tags or {})},
                        start=None if own_start else state)
    recorder.follow(state)
    return recorder


__all__ = ["FACE", "follow", "start_options"]
