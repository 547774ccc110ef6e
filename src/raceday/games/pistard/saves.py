"""PISTARD's saved races as records (:mod:`raceday.core.record`).

``raceday pistard play`` and ``watch`` save a race as its record, through
:func:`raceday.store.records.save_game`: the options, the seats (each player's kind,
``human`` or a computer level), the seed, every move by its name (the dice's throws as
``chance`` lines with their faces) and the generator where the race stands.

A race saved before records (a document ``{"state", "players", "rng"}``, with ``start``
and ``actions`` since saves kept their log) is converted by :func:`convert_document`: the
state at its start becomes the record's ``Start``, every logged action a move by its name,
its generator the ``Generator``. A save without a log (or whose log does not lead to its
saved position) becomes a record starting at the saved position, with no moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.protocol import CHANCE
from raceday.core.record import (
    FORMAT,
    UNFINISHED,
    Move,
    Record,
    RecordError,
    parse_record,
    result_text,
)
from raceday.core.serialize import dumps_state, loads_state
from raceday.games.pistard.agents import LEVELS
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import SHIPPED_TRACKS
from raceday.store.records import SavedGame, load_game

GAME_NAME = "pistard"
KINDS = ("human", *LEVELS)

# The ``Converted`` tag of a record converted from a save made before records: where its
# moves come from ("log": the save's log of actions; "position": the save kept no log, the
# record starts at its saved position; "unreadable log": its log did not lead to the saved
# position, so the record starts there too)
FROM_LOG, FROM_POSITION, LOG_REFUSED = "log", "position", "unreadable log"


def seats(kinds: Sequence[str]) -> list[dict[str, str]]:
    """The record's seats: each player's kind (``human`` or a computer's level)."""
    return [{"name": f"player {p}", "player": kind} for p, kind in enumerate(kinds, 1)]


def start_tags(state: PistardState) -> dict[str, Any]:
    """Tags a new race's record needs beyond its options: its start position when its
    track is a file (the record then holds the track, not a path that may go away)."""
    if state.options.track in SHIPPED_TRACKS:
        return {}
    return {"Start": state.to_json()}


def kinds_of(record: Record, players: int) -> list[str]:
    """The kind of each player a PISTARD record seats (:class:`RecordError` if they are
    not ``players`` known kinds)."""
    kinds = [str(seat.get("player")) for seat in record.seats]
    if len(kinds) != players or any(k not in KINDS for k in kinds):
        raise RecordError(f"the Seats tag does not seat {players} PISTARD players (human, "
                          f"easy, medium, hard or expert): {kinds!r}", record.line)
    return kinds


def _logged_moves(start: PistardState, actions: Sequence[Any],
                  final: PistardState) -> list[Move] | None:
    """The old log's actions as moves by their names, or None where the log is not one
    of this race (an action not legal where it comes, or another position at its end)."""
    state = start.clone()
    moves = []
    for entry in actions:
        if (state.is_terminal() or not isinstance(entry, list) or len(entry) != 2
                or type(entry[0]) is not int
                or not (entry[1] is None or isinstance(entry[1], dict))):
            return None
        action, detail = entry
        player = CHANCE if state.is_chance_node() else state.current_player()
        legal = ([a for a, _ in state.chance_outcomes()] if player == CHANCE
                 else state.legal_actions())
        if action not in legal:
            return None
        name = state.action_to_string(action)
        try:
            state.apply_action(action, detail)
        except RacedayError:
            return None
        moves.append(Move(player, name, detail if player == CHANCE else None))
    if dumps_state(state) != dumps_state(final):
        return None
    return moves


def convert_document(document: Mapping[str, Any]) -> Record:
    """The record a PISTARD save made before records stands for (see the module)."""
    import raceday

    final = loads_state(str(document["state"]))
    if not isinstance(final, PistardState):
        raise SaveFormatError("this save is not of a PISTARD race")
    kinds = [str(k) for k in document["players"]]
    rng = document["rng"]
    if not isinstance(rng, dict):
        raise SaveFormatError("this save's generator is not a generator's state")
    start_text, actions = document.get("start"), document.get("actions")
    start, moves, converted = final, [], FROM_POSITION
    if start_text is not None or actions is not None:
        converted = LOG_REFUSED
        try:
            logged_start = loads_state(str(start_text))
        except (RacedayError, KeyError, TypeError, ValueError):
            logged_start = None
        if isinstance(logged_start, PistardState) and isinstance(actions, list):
            logged = _logged_moves(logged_start, actions, final)
            if logged is not None:
                start, moves, converted = logged_start, logged, FROM_LOG
    tags: dict[str, Any] = {
        "Game": GAME_NAME, "Format": FORMAT, "Raceday": raceday.__version__,
        "Face": "terminal", "Options": final.options.to_json(), "Seats": seats(kinds),
        "Result": result_text(final) if final.is_terminal() else UNFINISHED,
        "Generator": dict(rng), "Start": start.to_json(), "Converted": converted}
    if len(kinds) != final.num_players:
        raise SaveFormatError(f"this save seats {len(kinds)} players in a race of "
                              f"{final.num_players}")
    return Record(tags, moves)  # its kinds are checked where it is played on (kinds_of)


def load_race(store: Any, name: str) -> SavedGame:
    """The saved race ``name`` as a record (a save made before records converted)."""
    return load_game(store, GAME_NAME, name, convert_document)


def race_file(path: str | Path) -> SavedGame:
    """A PISTARD record file, read and played through the rules: another game's record,
    or one the rules refuse, is a :class:`RecordError` naming its line."""
    from raceday.core.files import read_user_text
    from raceday.core.record import replay

    record = parse_record(read_user_text(path, kind="record"))
    if record.game != GAME_NAME:
        raise RecordError(f"{path} is a record of {record.game}, not of PISTARD", record.line)
    replayed = replay(record)
    if not isinstance(replayed.state, PistardState):
        raise RecordError(f"{path} is not a record of a PISTARD race", record.line)
    kinds_of(record, replayed.state.num_players)
    return SavedGame(record, {"state": replayed.state.to_json(),
                              "moves": len(record.moves)})
