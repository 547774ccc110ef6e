"""A Dice Derby party as it is saved: the record of its evening.

A party saves the record (:mod:`raceday.core.record`) of its evening, the protocol game
``derby_evening`` (:class:`~raceday.games.derby.evening.EveningState`), through
:func:`raceday.store.records.save_game` under the store's key ``derby``. The evening's
``seed`` (its options', also the record's ``Seed`` tag) is all the party draws with: the
dice of race ``r`` come from ``default_rng([seed, r])``, a computer's choices and a tied
lot's draw from generators keyed the same way, so a party resumed from its record draws
what it would have drawn had it never stopped, and the record needs no ``Generator`` tag.

A party saved before records (the evening's JSON, ``EVENING_FORMAT`` 2, or the ledger
alone, format 1) opens through :func:`convert`: that state becomes the record's ``Start``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from raceday.core.errors import SaveFormatError
from raceday.core.record import FORMAT, Record, Recorder, RecordError, parse_record
from raceday.games.derby.evening import EVENING, EveningState
from raceday.store.records import SavedGame, load_game
from raceday.store.sessions import SessionStore

GAME = "derby"  # the sessions' key in the store
RECORD_GAME = EVENING.name  # "derby_evening": the game a party's record is of


def seats(state: EveningState) -> list[dict[str, str]]:
    """The record's ``Seats``: each player's name and who plays it (human, cautious, bold)."""
    return [{"name": p.name, "player": p.kind} for p in state.ledger.players]


def record_tags(state: EveningState, name: str | None = None) -> dict[str, Any]:
    """The tags of the record of a party whose evening stands at ``state`` now (its
    ``Start`` only when it is not the evening its options begin)."""
    options = state.options.to_json()
    tags: dict[str, Any] = {"Game": RECORD_GAME, "Format": FORMAT, "Options": options,
                            "Seed": state.options.seed, "Seats": seats(state),
                            "Face": "terminal"}
    if name is not None:
        tags["Name"] = name
    try:
        fresh = EVENING.new_state(options).to_json()
    except SaveFormatError:
        fresh = None
    if fresh != state.to_json():
        tags["Start"] = state.to_json()
    return tags


def new_recorder(state: EveningState, name: str | None = None) -> Recorder:
    """A recorder writing the party from ``state`` on (follow the state with it)."""
    tags = record_tags(state, name)
    recorder = Recorder(RECORD_GAME, tags["Options"], seats=tags["Seats"],
                        seed=tags["Seed"])
    recorder.tags.update(tags)
    return recorder


def convert(document: Mapping[str, Any]) -> Record:
    """The record of a party saved before records: its evening (``EVENING_FORMAT`` 2, or
    the ledger alone, format 1) as the ``Start``, no moves."""
    state = EveningState.from_json(document)
    tags = record_tags(state)
    tags["Start"] = state.to_json()
    tags["Result"] = "*" if not state.is_terminal() else _result(state)
    return Record(tags, [])


def _result(state: EveningState) -> str:
    from raceday.core.record import result_text

    return result_text(state)


def open_party(store: SessionStore, name: str) -> SavedGame:
    """The saved party ``name``: its record (converted from an older save) and cache."""
    saved = load_game(store, GAME, name, convert)
    if saved.record.game != RECORD_GAME:
        raise RecordError(f"saved party {name!r} is a record of {saved.record.game}, not of "
                          f"{RECORD_GAME}", saved.record.line)
    return saved


def saved_evening(store: SessionStore, name: str) -> EveningState:
    """The evening of the saved party ``name`` as it stands (its last save)."""
    state = open_party(store, name).state()
    assert isinstance(state, EveningState)
    return state


def read_record_file(path: str | Path) -> Record:
    """The record of a Dice Derby evening in the file at ``path``: :class:`RecordError`
    naming the line for a text that is no record, or a record of another game."""
    from raceday.core.files import read_user_text

    record = parse_record(read_user_text(path, kind="record"))
    if record.game != RECORD_GAME:
        raise RecordError(f"{path} is a record of {record.game}, not of a Dice Derby "
                          f"evening ({RECORD_GAME})", record.line)
    return record


def file_evening(record: Record) -> EveningState:
    """The evening where ``record`` stops, its moves played through the rules
    (:class:`RecordError` naming the first line they refuse)."""
    state = SavedGame(record).state()
    if not isinstance(state, EveningState):
        raise RecordError(f"not a Dice Derby evening: {record.game}", record.line)
    return state
