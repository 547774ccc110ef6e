"""Saving a PISTARD race as JSON and restoring it, refusing anything malformed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, TypeVar

from raceday.core.errors import InputFileError, SaveFormatError
from raceday.core.serialize import Fields
from raceday.games.pistard.moves import DICE, FACES
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.state import PHASE_PLACE, PHASE_RACE, PHASES, PistardState, Rider
from raceday.games.pistard.track import Track, track_from_mapping
from raceday.games.pistard.variants import STATUSES

StateT = TypeVar("StateT", bound=PistardState)
WHAT = "PISTARD state"


def state_to_json(state: PistardState) -> dict[str, Any]:
    """All fields of ``state`` as JSON values (the track included, so a save is whole)."""
    return {
        "options": state.options.to_json(),
        "track": state.track.to_json(),
        "riders": [r.to_json() for r in state.riders],
        "tokens": list(state.tokens),
        "phase": state.phase,
        "heat": state.heat,
        "round": state.round,
        "rounds_total": state.rounds_total,
        "place_queue": list(state.place_queue),
        "to_move": list(state.to_move),
        "mover": state.mover,
        "dice": None if state.dice is None else list(state.dice),
        "stills": list(state.stills),
        "points": list(state.points),
        "laps_delta": list(state.laps_delta),
        "sprints": [list(s) for s in state.sprints],
        "crossed": [list(c) for c in state.crossed],
        "eliminated": list(state.eliminated),
        "ranking": list(state.ranking),
        "stopped": state.stopped,
        "team_times": [list(t) for t in state.team_times],
    }


@lru_cache(maxsize=32)
def _saved_track(text: str) -> Track:
    """A saved track, checked once per distinct track (tracks are immutable and shared)."""
    return track_from_mapping(json.loads(text), "saved track")


def _fail(message: str) -> SaveFormatError:
    return SaveFormatError(f"{WHAT}: {message}")


def _riders(raw_riders: list[Any], expected: list[Rider]) -> list[Rider]:
    if len(raw_riders) != len(expected):
        raise _fail(f"expected {len(expected)} riders")
    riders = []
    for raw in raw_riders:
        ok = (isinstance(raw, list) and len(raw) == 6
              and all(isinstance(v, int) and not isinstance(v, bool) for v in raw[:5])
              and raw[5] in STATUSES)
        if not ok:
            raise _fail(f"malformed rider {raw!r}")
        riders.append(Rider(*raw))
    if [(r.ident, r.owner, r.offset) for r in riders] != [
        (r.ident, r.owner, r.offset) for r in expected
    ]:
        raise _fail("riders do not match the options")
    return riders


def _dice(dice: Any) -> list[int] | None:
    if dice is None:
        return None
    if (not isinstance(dice, list) or len(dice) != DICE
            or any(not isinstance(d, int) or not 1 <= d <= FACES for d in dice)):
        raise _fail("dice must be four values 1..6 or null")
    return list(dice)


def state_from_json(cls: type[StateT], data: Mapping[str, Any]) -> StateT:
    """Rebuild a saved race as ``cls``; :class:`SaveFormatError` names what is wrong."""
    f = Fields(data, WHAT)
    options = f.parsed("options", PistardOptions.parse)
    try:
        track = _saved_track(json.dumps(f.get("track", dict), sort_keys=True))
    except InputFileError as exc:
        raise _fail(str(exc)) from None
    state = cls(options, track)
    n = len(state.riders)
    state.riders = _riders(f.get("riders", list), state.riders)
    state.tokens = f.int_list("tokens")
    phase = f.get("phase", str)
    if phase not in PHASES:
        raise _fail(f"unknown phase {phase!r}")
    state.phase = phase
    state.heat = f.get("heat", int)
    state.round = f.get("round", int)
    state.rounds_total = f.get("rounds_total", int)
    state.place_queue = f.int_list("place_queue")
    state.to_move = f.int_list("to_move")
    mover = data.get("mover")
    if mover is not None and (not isinstance(mover, int) or not 0 <= mover < n):
        raise _fail("mover must be a rider index or null")
    state.mover = mover
    state.dice = _dice(data.get("dice"))
    state.stills = f.int_list("stills")
    state.points = f.int_list("points")
    state.laps_delta = f.int_list("laps_delta")
    state.eliminated = f.int_list("eliminated")
    state.ranking = f.int_list("ranking")
    state.stopped = f.get("stopped", bool)
    try:
        state.sprints = [[int(i) for i in s] for s in f.get("sprints", list)]
        state.crossed = [[int(i) for i in c] for c in f.get("crossed", list)]
        state.team_times = [[int(i) for i in t] for t in f.get("team_times", list)]
    except (TypeError, ValueError):
        raise _fail("malformed sprint or team fields") from None
    _check_consistent(state)
    return state


def _check_consistent(state: PistardState) -> None:
    options = state.options
    n = len(state.riders)
    if len(state.tokens) != options.num_players:
        raise _fail(f"expected {options.num_players} token counts")
    for name in ("stills", "points", "laps_delta"):
        if len(getattr(state, name)) != n:
            raise _fail(f"{name} needs one entry per rider")
    if len(state.sprints) != options.race_laps:
        raise _fail("one sprint list per lap expected")
    indices = (state.place_queue + state.to_move + state.eliminated
               + [i for s in state.sprints for i in s] + [c[0] for c in state.crossed])
    if options.rules.ranks_riders:
        indices += state.ranking
    if any(not 0 <= i < n for i in indices):
        raise _fail("rider index out of range")
    if state.phase == PHASE_PLACE and not state.place_queue:
        raise _fail("placement with nobody left to place")
    if state.phase == PHASE_RACE and state.mover is None and not state.to_move:
        raise _fail("a running round with nobody left to move")
    if state.mover is None and state.dice is not None:
        raise _fail("dice without a rider to move")
    if state.phase == PHASE_RACE and state.mover is not None and state.dice is not None:
        state.invalidate_moves()
        if not state.move_table() and not state.stay_allowed():
            raise _fail("the mover has no move to make")
