"""The game protocol shared by every game, with chance made explicit (as in OpenSpiel).

A state says who acts next: a player (0, 1, ...), :data:`CHANCE`, or :data:`TERMINAL`.
At a chance node it lists every outcome with its exact probability; at a decision node it
lists the legal actions, each an ``int`` with a unique readable name. Applying an action or
outcome advances the state in place and returns the events it produced.
"""

from __future__ import annotations

import copy
import functools
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Self

from raceday.core.errors import GameNotOverError, IllegalActionError
from raceday.core.events import Event, Message

if TYPE_CHECKING:
    import numpy as np

CHANCE = -1
TERMINAL = -4
HOST = -5  # the host of a party game: a player of its state (legal_actions_for), not a seat

Action = int


@dataclass(frozen=True)
class ChanceDraw:
    """A sampled chance outcome, with optional detail of how it looked (e.g. dice faces).

    The detail never changes what the rules do; it only enriches the event log.
    """

    outcome: Action
    detail: Mapping[str, Any] | None = None


class Termination(StrEnum):
    """How a game ended, one word every face can branch on (never a sentence to parse).

    Rendered as ``termination.<value>`` by :mod:`raceday.present`. A game may use its own
    string for an ending not listed here, with its own message ``<game>.termination.<x>``.
    """

    FINISH = "finish"  # order of arrival over a finish line
    LAPS = "laps"  # laps completed (or the most laps when the game stops)
    BUMPS = "bumps"  # a player was bumped out (or ran out of bumps)
    BLOCKED = "blocked"  # a player had no legal move
    ELIMINATED = "eliminated"  # riders taken out one by one (elimination race)
    FELL = "fell"  # every rival fell
    TIME = "time"  # the best time (time trial, pursuit, general classification)
    POINTS = "points"  # the most points
    MONEY = "money"  # the richest player at the end of a betting evening
    DRAW = "draw"  # nobody won
    RESIGNED = "resigned"  # a player gave up


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game, with one meaning in every game.

    - ``ranking``: the competitors (riders, horses, cars or teams, by the game's own ids)
      best first.
    - ``winner``: the winning competitor (``ranking[0]``), or None for a draw.
    - ``scores``: competitor id → the number the ranking was decided by, in the unit named
      by ``score_name`` (e.g. "points", "seconds behind", "squares past the line"); empty
      where the ranking is decided by order of arrival alone.
    - ``winning_players``: the decision-making players (0, 1, ...) who won; several for a
      draw; empty in a game without players (a race decided by dice alone).
    - ``description``: one English sentence saying who won and why (for logs; faces
      render ``message`` instead).
    - ``termination``: how it ended (a :class:`Termination` value or a game's own word).
    - ``message``: the result as a message key and parameters for :mod:`raceday.present`.
    """

    ranking: tuple[int, ...]
    winner: int | None
    scores: Mapping[int, float] = field(default_factory=dict)
    description: str = ""
    winning_players: tuple[int, ...] = ()
    score_name: str = ""
    termination: str = Termination.FINISH
    message: Message | None = None


class State(ABC):
    """Abstract game state. Subclasses keep all fields JSON-friendly.

    Optional: a state whose players have too many legal actions to name each one (a
    bettor's tickets at any stake) may define ``action_named(player, name) -> Action |
    None``: the legal action of ``player`` (or of :data:`CHANCE`) named ``name`` (as
    :meth:`action_to_string` names it; case and repeated spaces ignored), or None. A
    record's moves are looked up with it first (:func:`raceday.core.record.apply_move`).
    """

    game_name: ClassVar[str] = "abstract"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _note_overrides(cls)  # a game's own apply_action notes its moves too

    # --- who acts -------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """A player id, :data:`CHANCE` or :data:`TERMINAL`."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of decision-making players (0 for a pure chance game)."""

    # --- what can happen --------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Every chance outcome with its exact probability (only at chance nodes)."""
        raise IllegalActionError("chance", "this state is not a chance node")

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player to move (empty at chance and terminal nodes)."""
        return []

    @abstractmethod
    def action_to_string(self, action: Action) -> str:
        """A unique readable name for an action or chance outcome in this state."""

    def string_to_action(self, text: str) -> Action:
        """The action whose name is ``text`` (case and surrounding space ignored)."""
        wanted = " ".join(text.split()).lower()
        if self.is_chance_node():
            candidates = [a for a, _ in self.chance_outcomes()]
        else:
            candidates = self.legal_actions()
        for action in candidates:
            if self.action_to_string(action).lower() == wanted:
                return action
        raise IllegalActionError(text, "no legal action has that name")

    def action_message(self, action: Action) -> Message:
        """What ``action`` (or chance outcome) means here, as a message key and facts, so
        that no face decodes action numbers. Games override this; the default names it."""
        return Message("action", {"name": self.action_to_string(action)})

    # --- who may act, when several may (sealed bids, tickets) ---------------------------
    def acting_players(self) -> list[int]:
        """Every player who may act now. One player in a turn-based game; in a phase of
        sealed choices (bids, tickets) every player who has not yet chosen, in any order.
        :meth:`current_player` is the lowest of them, so sequential tools still work."""
        player = self.current_player()
        return [player] if player >= 0 else []

    def legal_actions_for(self, player: int) -> list[Action]:
        """The legal actions of ``player`` now (empty if it is not theirs to act)."""
        return self.legal_actions() if player in self.acting_players() else []

    def apply_action_for(self, player: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``player``, who must be among :meth:`acting_players`."""
        if self.is_terminal():
            raise IllegalActionError(action, "the game is over")
        if player not in self.acting_players():
            raise IllegalActionError(action, f"it is not player {player}'s turn to act")
        if action not in self.legal_actions_for(player):
            raise IllegalActionError(action, "not among that player's legal actions here")
        return self._apply_for(player, action)

    def _apply_for(self, player: int, action: Action) -> list[Event]:
        """Apply a checked action of ``player`` (games with sealed phases override)."""
        return self._apply(action, None)

    # --- what a seat may see ------------------------------------------------------------
    def observation(self, player: int | None) -> dict[str, Any]:
        """Everything ``player`` may see now as JSON values; ``None`` is a spectator, who
        sees the public view. Games with hidden information override this, and no face
        reads a secret any other way. The default (perfect information) is the state."""
        return self.to_json()

    def frame(self) -> dict[str, Any]:
        """The board as a serialisable picture (positions, marks, labels as message keys)
        that the browser, replays and the terminal draw. Games override this."""
        return {"game": self.game_name, "public": self.observation(None)}

    # --- moving -----------------------------------------------------------------------
    def apply_action(self, action: Action, detail: Mapping[str, Any] | None = None) -> list[Event]:
        """Check ``action`` and apply it; return the events it produced."""
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalActionError(action, "the game is over")
        if player == CHANCE:
            outcomes = dict(self.chance_outcomes())
            if outcomes.get(action, 0) <= 0:
                raise IllegalActionError(action, "not a possible chance outcome here")
        elif action not in self.legal_actions():
            raise IllegalActionError(action, "not among the legal actions here")
        return self._apply(action, detail)

    @abstractmethod
    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        """Apply an already checked action."""

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        """Draw a chance outcome with the exact probabilities of :meth:`chance_outcomes`."""
        outcomes = self.chance_outcomes()
        return ChanceDraw(sample_outcome(outcomes, rng))

    # --- results ----------------------------------------------------------------------
    @abstractmethod
    def outcome(self) -> Outcome:
        """The result; :class:`GameNotOverError` before the end (see :meth:`require_over`)."""

    def require_over(self) -> None:
        """Raise :class:`GameNotOverError` unless the game has ended."""
        if not self.is_terminal():
            raise GameNotOverError(self.game_name)

    def returns(self) -> list[float]:
        """Per-player reward at the end, one meaning in every game: the players named in
        ``outcome().winning_players`` share 1 equally (a draw of two gives 0.5 each), every
        other player gets 0. A game without players returns an empty list."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        winners = self.outcome().winning_players
        share = 1.0 / len(winners) if winners else 0.0
        return [share if p in winners else 0.0 for p in range(self.num_players)]

    # --- copies and saving ------------------------------------------------------------
    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """All fields as JSON values; :meth:`from_json` must give back an equal state."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a state; raise :class:`SaveFormatError` on anything malformed."""

    def clone(self) -> Self:
        """An independent copy (a deep copy; games with large shared immutable parts, such
        as a track or a route, override ``__deepcopy__`` to share them)."""
        return copy.deepcopy(self)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return self.to_json() == other.to_json()

    # A state changes in place, so it must not be hashed (use a key of its own instead).
    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        """A short text form (a game may override it). A game's full picture is its
        ``picture`` face, drawn by :func:`raceday.present.pictures.text_picture`."""
        return self.__repr__()

    def __repr__(self) -> str:
        player = self.current_player()
        who = {CHANCE: "chance", TERMINAL: "over"}.get(player, f"player {player}")
        return f"<{type(self).__name__} {self.game_name}: {who} to act>"


# The states whose moves are being written down (see :func:`note_moves`), by id: a
# state's clones (searches, probes) are other objects and write nothing.
_NOTEBOOKS: dict[int, Callable[[int, str, Mapping[str, Any] | None], None]] = {}


def note_moves(state: State, note: Callable[[int, str, Mapping[str, Any] | None], None]
               ) -> None:
    """Call ``note(player, name, detail)`` for every action and chance outcome applied to
    ``state`` from now on (``player`` is :data:`CHANCE` for a draw; ``name`` is the
    action's unique name in the state it was applied to): what a game's record is written
    from (:mod:`raceday.core.record`), whatever face applies the moves."""
    key = id(state)
    _NOTEBOOKS[key] = note
    weakref.finalize(state, _NOTEBOOKS.pop, key, None)


def stop_noting(state: State) -> None:
    """Stop :func:`note_moves` on ``state``."""
    _NOTEBOOKS.pop(id(state), None)


def _noting(apply: Callable[..., list[Event]], for_player: bool) -> Callable[..., list[Event]]:
    """``apply`` (a state's ``apply_action`` or ``apply_action_for``) noting the move it
    applies when the state is being written down (:func:`note_moves`); a move the state
    applies inside another (an override calling the base) is noted once."""

    @functools.wraps(apply)
    def noted(self: State, *args: Any, **kwargs: Any) -> list[Event]:
        note = _NOTEBOOKS.pop(id(self), None)
        if note is None:
            return apply(self, *args, **kwargs)
        try:
            if for_player:
                player, action, detail = args[0], args[1], None
            else:
                player, action = self.current_player(), args[0]
                detail = args[1] if len(args) > 1 else kwargs.get("detail")
            try:
                name: str | None = self.action_to_string(action)
            except (ValueError, KeyError, IndexError, TypeError):
                name = None  # not a move here: the rules refuse it below
            events = apply(self, *args, **kwargs)
        finally:
            _NOTEBOOKS[id(self)] = note
        note(int(player), str(action) if name is None else name, detail)
        return events

    noted.notes_moves = True  # type: ignore[attr-defined]
    return noted


def _note_overrides(cls: type) -> None:
    for attribute, for_player in (("apply_action", False), ("apply_action_for", True)):
        method = cls.__dict__.get(attribute)
        if method is not None and not getattr(method, "notes_moves", False):
            setattr(cls, attribute, _noting(method, for_player))


_note_overrides(State)


class SealedState(State):
    """A state with phases of sealed choices (bids, tickets), where every player among
    :meth:`acting_players` may act, in any order. The player to move is the lowest of
    them, and each acting player's legal actions come from :meth:`_legal_for`."""

    def legal_actions(self) -> list[Action]:
        player = self.current_player()
        return self.legal_actions_for(player) if player >= 0 else []

    def legal_actions_for(self, player: int) -> list[Action]:
        return self._legal_for(player) if player in self.acting_players() else []

    @abstractmethod
    def _legal_for(self, player: int) -> list[Action]:
        """The legal actions of ``player``, who is among :meth:`acting_players`."""


def sample_outcome(outcomes: Sequence[tuple[Action, Fraction]], rng: np.random.Generator) -> Action:
    """Draw one outcome by its probability using a single uniform from ``rng``."""
    u = float(rng.random())
    cumulative = 0.0
    for action, p in outcomes:
        cumulative += float(p)
        if u < cumulative:
            return action
    return outcomes[-1][0]
