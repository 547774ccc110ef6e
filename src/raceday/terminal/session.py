"""The terminal's session kit: one game at one terminal, on the parts the rooms use.

A :class:`GameSession` holds what every game's terminal face plays on: the protocol state,
the record written as it is played (:mod:`raceday.core.record`), the one seeded generator
(chance is drawn with it, computers think with it, off the main thread), undo, and the
save (:func:`raceday.store.records.save_game`, the one writer of saved games). A face
asks, shows and decides when to save; it never keeps a save document of its own, so a
game begun at one face is resumed, exported, replayed or taken to a room at any other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from raceday.core.errors import RacedayError
from raceday.core.record import Record, Recorder, generator_from, parse_record
from raceday.core.registry import record_game
from raceday.store.records import Converter, SavedGame, load_game, save_game

if TYPE_CHECKING:
    from raceday.core.agents import Agent
    from raceday.core.events import Event
    from raceday.core.protocol import Action, State
    from raceday.store.sessions import SessionStore

S = TypeVar("S")

_THINKING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="raceday-computer")


@dataclass
class _Undo:
    state: dict[str, Any]
    moves: int


class GameSession:
    """One game being played at a terminal (see the module docstring)."""

    def __init__(self, state: State, recorder: Recorder, rng: np.random.Generator, *,
                 store: SessionStore | None = None, name: str | None = None,
                 revision: int | None = None) -> None:
        self.state, self.recorder, self.rng = state, recorder, rng
        self.store, self.name, self.revision = store, name, revision
        self.game = str(recorder.tags["Game"])
        # the store's key: the game's command (Dice Derby's evening saves as "derby")
        self.store_game = self.game.split("_", 1)[0]
        self._undo: list[_Undo] = []
        recorder.follow(state)

    # --- beginning ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: str, options: Mapping[str, Any], *, seed: int | None,
            seats: Sequence[Mapping[str, str]] = (), store: SessionStore | None = None,
            name: str | None = None, tags: Mapping[str, Any] | None = None,
            state: State | None = None) -> GameSession:
        """A new game of ``game`` (``state``: one the face built itself from ``options``)."""
        start = state if state is not None else record_game(game).new_state(options)
        recorder = Recorder(game, options, seats=seats, seed=seed,
                            tags={"Face": "terminal", **({"Name": name} if name else {}),
                                  **(tags or {})})
        return cls(start, recorder, np.random.default_rng(seed), store=store, name=name)

    @classmethod
    def from_saved(cls, saved: SavedGame, *, store: SessionStore | None = None,
                   name: str | None = None, seed: int | None = None) -> GameSession:
        """A saved game, ready to go on where its record stops."""
        state, recorder, rng = saved.resume(seed)
        return cls(state, recorder, rng, store=store, name=name, revision=saved.revision)

    @classmethod
    def resume(cls, store: SessionStore, game: str, name: str,
               convert: Converter | None = None) -> GameSession:
        """The session ``name`` of ``game`` saved in ``store`` (a save from before records
        converted by ``convert``)."""
        return cls.from_saved(load_game(store, game, name, convert), store=store, name=name)

    @classmethod
    def from_file(cls, path: str | Path, game: str | None = None) -> GameSession:
        """The game of a record file (``game``: refuse a record of another game)."""
        from raceday.core.files import read_user_text
        from raceday.core.record import RecordError

        record = parse_record(read_user_text(path, kind="record"))
        if game is not None and record.game != game:
            raise RecordError(f"{path} is a record of {record.game}, not of {game}")
        return cls.from_saved(SavedGame(record))

    def state_as(self, kind: type[S]) -> S:
        """The state, as the ``kind`` of state a face knows it plays."""
        state = self.state
        if not isinstance(state, kind):
            raise TypeError(f"a {type(state).__name__} is not a {kind.__name__}")
        return state

    # --- playing -----------------------------------------------------------------------
    def draw(self) -> list[Event]:
        """Draw the chance node with the session's generator and apply it."""
        drawn = self.state.sample_chance(self.rng)
        return self.state.apply_action(drawn.outcome, drawn.detail)

    def move(self, player: int, action: Action, *, undoable: bool = False) -> list[Event]:
        """Apply ``player``'s ``action`` (kept for :meth:`undo` when ``undoable``)."""
        if undoable:
            self.mark()
        return self.state.apply_action_for(player, action)

    def think(self, agent: Agent) -> Future[Action]:
        """A computer's choice for the player to move, worked out off the main thread (on
        a copy, with the session's generator: the same seed gives the same game)."""
        state = self.state.clone()
        return _THINKING.submit(agent.choose, state, self.rng)

    def mark(self) -> None:
        """Remember this position as one an :meth:`undo` goes back to."""
        self._undo.append(_Undo(self.state.to_json(), len(self.recorder.moves)))

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> None:
        """Go back to the last marked position (its moves leave the record)."""
        if not self._undo:
            raise RacedayError("there is no move to take back")
        back = self._undo.pop()
        self.state = record_game(self.game).state_from_json(back.state)
        self.recorder.take_back(len(self.recorder.moves) - back.moves)
        self.recorder.follow(self.state)

    def replace_state(self, state: State) -> None:
        """Play on from ``state`` (a face that rebuilt it); the record keeps its moves."""
        self.state = state
        self.recorder.follow(state)

    # --- the record and the save ---------------------------------------------------------
    def record(self, result: Callable[[State], str] | None = None) -> Record:
        """The game's record so far, with the generator where it stands."""
        return self.recorder.record(self.rng, result)

    def save(self, *, cache: Mapping[str, Any] | None = None,
             log_entry: dict[str, Any] | None = None) -> None:
        """Save the record to the session's store (nothing without one)."""
        if self.store is None or self.name is None:
            return
        self.revision = save_game(self.store, self.store_game, self.name, self.record(),
                                  cache=cache, state=self.state,
                                  expected_revision=self.revision, log_entry=log_entry)


__all__ = ["GameSession", "generator_from"]
