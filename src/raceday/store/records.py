"""Saved games as records: the one writer of a saved game's document.

A saved session's document is ``{"record": <the record's text>, "cache": {...}}``: the
record (:mod:`raceday.core.record`) is the truth; the cache (the state's JSON after the
record's last move, and whatever a face keeps to draw quickly) only spares replaying a
long game when it is opened, and is thrown away when it does not match the record.

Every command that saves a game saves it with :func:`save_game` (a test finds no other
caller of :meth:`SessionStore.save`). :func:`load_game` opens a document of any version:
a record, or a document saved before records, converted by the game's own converter
(the state it holds becomes the record's ``Start``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.record import (
    Record,
    Recorder,
    generator_from,
    parse_records,
    records_text,
    replay,
)

if TYPE_CHECKING:
    import numpy as np

    from raceday.core.protocol import State
    from raceday.store.sessions import SessionStore

# A game's converter of a document saved before records: the record it stands for (or the
# records, for a document of several games: a stage race's stages).
Converter = Callable[[Mapping[str, Any]], Record | list[Record]]


def save_game(store: SessionStore, game: str, name: str, record: Record | Sequence[Record],
              *,
              cache: Mapping[str, Any] | None = None, state: State | None = None,
              expected_revision: int | None = None,
              log_entry: dict[str, Any] | None = None) -> int:
    """Save ``record`` as the session ``name`` of ``game`` (a compare-and-swap on
    ``expected_revision``, see :meth:`SessionStore.save`); ``state`` (the state after its
    last move) and ``cache`` are kept beside it to open it quickly. Several records (a
    stage race's stages) are saved as one text; ``state`` is then the last one's. Returns
    the revision."""
    records = [record] if isinstance(record, Record) else list(record)
    if not records:
        raise SaveFormatError(f"saved session {name!r} needs at least one record")
    kept: dict[str, Any] = dict(cache or {})
    if state is not None:
        kept["state"] = state.to_json()
        kept["moves"] = len(records[-1].moves)
    document = {"record": records_text(records), "cache": kept}
    return store.save(game, name, document, expected_revision=expected_revision,
                      log_entry=log_entry)


@dataclass
class SavedGame:
    """A saved game as opened: its record, the cache saved beside it, its revision; a text
    of several records (a stage race's stages) has them all in ``records``, ``record``
    being the last one (the one played on)."""

    record: Record
    cache: dict[str, Any] = field(default_factory=dict)
    revision: int | None = None
    converted: bool = False  # opened from a document saved before records
    records: list[Record] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.records:
            self.records = [self.record]

    def state(self) -> State:
        """The state after the record's last move: the cached one when it matches the
        record, else the record's moves played again through the rules."""
        from raceday.core.record import start_state
        from raceday.core.registry import record_game

        cached = self.cache.get("state")
        if isinstance(cached, dict) and self.cache.get("moves") == len(self.record.moves):
            game = record_game(self.record.game)
            try:
                restored: State = game.state_from_json(cached)
                return restored
            except RacedayError:
                pass  # a stale or damaged cache: the record decides
        if not self.record.moves:
            return start_state(self.record)[1]
        return replay(self.record).state

    def resume(self, seed: int | None = None) -> tuple[State, Recorder, np.random.Generator]:
        """The game ready to go on: its state, a recorder following it (writing on from
        the record's moves) and the generator where the record left it."""
        state = self.state()
        recorder = Recorder.resuming(self.record)
        recorder.follow(state)
        return state, recorder, generator_from(self.record, seed)


def load_game(store: SessionStore, game: str, name: str,
              convert: Converter | None = None) -> SavedGame:
    """The saved game ``name`` of ``game``: its record (a document saved before records
    is converted by ``convert``), its cache and revision; :class:`SaveFormatError` names
    what is wrong with a damaged one."""
    document, revision = store.load(game, name)
    return opened(document, revision, convert, name)


def opened(document: Mapping[str, Any], revision: int | None, convert: Converter | None,
           name: str) -> SavedGame:
    """A session's ``document`` read as a :class:`SavedGame`."""
    text = document.get("record")
    if isinstance(text, str):
        cache = document.get("cache")
        records = parse_records(text)
        return SavedGame(records[-1], dict(cache) if isinstance(cache, dict) else {},
                         revision, records=records)
    if convert is None:
        raise SaveFormatError(f"saved session {name!r} is not a record and this game "
                              "has no older format to read it as")
    try:
        converted = convert(document)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RacedayError):
            raise
        raise SaveFormatError(f"saved session {name!r} cannot be read: {exc}") from None
    records = [converted] if isinstance(converted, Record) else list(converted)
    if not records:
        raise SaveFormatError(f"saved session {name!r} holds no game")
    return SavedGame(records[-1], {}, revision, converted=True, records=records)
