"""Gymnasium environments: one learner in a seat of any game with players, the other seats
played by computer players.

Importing this module registers ``raceday/<Game>-v0`` for every game whose research
adapter has players (``raceday/Hairpin-v0``, ``raceday/Pistard-v0``, ``raceday/Derby-v0``,
``raceday/Keirin-v0`` and every installed plugin game, found by discovery; WielerSIM, a
race of dice alone, has none), and ``raceday/KeirinBettor-v0``. Gymnasium 1.x reads no
plugin entry points, so import this module first, or name it in the id:
``gymnasium.make("raceday.interop.gym:raceday/Hairpin-v0")``.

:class:`RacedayEnv` drives the game's adapter (a :class:`raceday.research.Adapter`, the
same one OpenSpiel and PettingZoo wrap):

- **seat**: the learner plays seat ``seat`` (default 0); the game's parameters are the
  adapter's, as keyword arguments (``variant="short"``, ``bettors=3``...);
- **opponents**: the other seats, each a computer player: a name the arena knows
  (``random``, ``mcts[:N]``, the game's own levels from ``<package>.agents.make_agent``) or
  any object with ``choose(state, rng)``; one for every other seat or a list in seat order.
  Default: the game's easiest computer (the first of its ``agents.LEVELS``), else random;
- **chance and opponents' choices** are drawn from the environment's generator, seeded by
  ``reset(seed=...)``, so an episode is fixed by its seed and the learner's actions
  (unless an opponent searches against the clock);
- **observation**: the adapter's tensor for the learner's seat alone (float32 ``Box``): a
  sealed bid or ticket of another seat is never in it;
- **action**: ``Discrete`` over the adapter's dense ids; ``action_masks()`` (and
  ``info["action_mask"]``) marks the legal ones. An id outside the space raises
  :class:`~raceday.core.errors.OptionsError`. A legal-looking id that is illegal now
  forfeits: the episode ends with the game's worst return (the adapter's
  ``min_utility``) and ``info["illegal_action"]``; ``illegal="raise"`` raises
  :class:`IllegalActionError` instead;
- **reward**: 0 until the end, then the seat's return (the adapter's utilities: the
  engine's returns, or money won in stake units in the betting games);
- ``render_mode="ansi"``: the learner's view as text (the adapter's observation string);
- ``record()``: the episode so far as a record (:mod:`raceday.core.record`, ``Face``
  "research", ``Seed`` the seed ``reset`` was given), which replays through the rules to
  the environment's state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces

from raceday.core.discovery import agents_module
from raceday.core.errors import OptionsError
from raceday.core.protocol import Action, State
from raceday.core.record import Record, Recorder
from raceday.interop.adapters import Adapter, adapter, games_with_players
from raceday.interop.arena import OPENSPIEL, make_player

NAMESPACE = "raceday"
KEIRIN_BETTOR = f"{NAMESPACE}/KeirinBettor-v0"
ENV_ID = KEIRIN_BETTOR  # the id this module first registered, kept for older imports
Illegal = Literal["forfeit", "raise"]


class IllegalActionError(OptionsError):
    """The learner chose an action that is not legal now (with ``illegal="raise"``)."""


class ChoosingAgent(Protocol):
    """A computer player: chooses an engine action for the player to move."""

    def choose(self, state: State, rng: np.random.Generator) -> Action: ...


@dataclass(frozen=True)
class Opponent:
    """A seat the environment plays: who it is and how it chooses."""

    name: str
    choose: Callable[[State, np.random.Generator], Action]


def env_id(game: str) -> str:
    """The Gymnasium id of a game's environment: ``raceday/Hairpin-v0`` for ``hairpin``."""
    camel = "".join(part[:1].upper() + part[1:] for part in game.replace("-", "_").split("_"))
    return f"{NAMESPACE}/{camel}-v0"


def easiest_computer(game: str) -> str:
    """The name of the game's easiest computer player: the first of its package's
    ``agents.LEVELS`` (the levels a room offers, easiest first), else ``random``."""
    module = agents_module(game)
    levels = getattr(module, "LEVELS", ())
    if getattr(module, "make_agent", None) is None or not levels:
        return "random"
    return str(next(iter(levels)))


def opponent(game: str, chosen: str | ChoosingAgent) -> Opponent:
    """One computer seat from a name (as the arena makes it) or an agent object."""
    if not isinstance(chosen, str):
        choose = getattr(chosen, "choose", None)
        if not callable(choose):
            raise OptionsError(f"an opponent must be a name or have choose(state, rng), got "
                               f"{type(chosen).__name__}")
        return Opponent(str(getattr(chosen, "name", type(chosen).__name__)), choose)
    if chosen.strip().lower().startswith(OPENSPIEL):
        raise OptionsError(f"opponent {chosen!r}: OpenSpiel bots play in the arena, not in "
                           "the Gymnasium environment; use random, mcts[:N] or the game's own")
    player = make_player(game, chosen, None, 0)  # OptionsError names the known agents
    assert player.choose is not None
    return Opponent(chosen.strip().lower(), player.choose)


def seat_opponents(game: str, players: int, seat: int,
                   chosen: str | ChoosingAgent | Sequence[str | ChoosingAgent] | None
                   ) -> dict[int, Opponent]:
    """Every seat but the learner's, with its computer player (see the module docstring)."""
    others = [p for p in range(players) if p != seat]
    if chosen is None:
        chosen = easiest_computer(game)
    if isinstance(chosen, str) or not isinstance(chosen, Sequence):
        return {p: opponent(game, chosen) for p in others}
    if len(chosen) != len(others):
        raise OptionsError(f"opponents: give one for every other seat ({len(others)}), got "
                           f"{len(chosen)}")
    return {p: opponent(game, c) for p, c in zip(others, chosen, strict=True)}


class RacedayEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of one game, the others played by computers (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (as gymnasium declares it)

    def __init__(self, game: str = "hairpin", seat: int = 0,
                 opponents: str | ChoosingAgent | Sequence[str | ChoosingAgent] | None = None,
                 illegal: Illegal = "forfeit", render_mode: str | None = None,
                 **params: Any) -> None:
        if game not in games_with_players():
            raise OptionsError(f"no Gymnasium environment for {game!r}; choose from "
                               f"{', '.join(games_with_players())}")
        if render_mode not in (None, "ansi"):
            raise OptionsError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal not in ("forfeit", "raise"):
            raise OptionsError(f"illegal must be 'forfeit' or 'raise', got {illegal!r}")
        self.game = game
        self.adapter: Adapter = adapter(game)
        self.params = self.adapter.check_params(params)
        self.shape = self.adapter.shape(self.params)
        players = self.shape.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise OptionsError(f"seat must be a whole number from 0 to {players - 1}, got "
                               f"{seat!r}")
        self.seat = seat
        self.opponents = seat_opponents(game, players, seat, opponents)
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.shape.obs_size,),
                                            np.float32)
        self.action_space = spaces.Discrete(self.shape.num_actions)
        self.state: State = self.adapter.new_state(self.params)
        self.finished = False
        self._recorder: Recorder | None = None

    # --- what the learner sees -----------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """1 for every action the learner may take now (all 0 once the episode is over)."""
        mask = np.zeros(self.shape.num_actions, dtype=np.int8)
        if not self.finished and self.state.current_player() == self.seat:
            mask[self.adapter.legal_ids(self.state)] = 1
        return mask

    def _observation(self) -> np.ndarray:
        out = np.zeros(self.shape.obs_size, dtype=np.float64)
        self.adapter.observe(self.state, self.seat, out)
        return out.astype(np.float32)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), **extra}

    # --- the episode ---------------------------------------------------------------------
    def _play_until_the_learner(self) -> None:
        """Chance and the computers act until it is the learner's turn or the game ends."""
        state, rng = self.state, self.np_random
        while not state.is_terminal():
            if state.is_chance_node():
                draw = state.sample_chance(rng)
                state.apply_action(draw.outcome, draw.detail)
                continue
            player = state.current_player()
            if player == self.seat:
                return
            state.apply_action(self.opponents[player].choose(state, rng))
        self.finished = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if options:
            raise OptionsError("reset takes no options; give the game's parameters to "
                               "gymnasium.make or the constructor")
        self.state = self.adapter.new_state(self.params)
        self.finished = False
        self._recorder = self._follow(seed)
        self._play_until_the_learner()
        return self._observation(), self._info()

    def _follow(self, seed: int | None) -> Recorder:
        from raceday.interop.records import follow

        seats = [{"name": "learner", "player": "learner"} if p == self.seat else
                 {"name": self.opponents[p].name, "player": self.opponents[p].name}
                 for p in range(self.shape.players)]
        return follow(self.adapter, self.params, self.state, seed=seed, seats=seats)

    def record(self) -> Record:
        """The episode so far as a record: it replays through the rules to :attr:`state`
        (:func:`raceday.core.record.replay`). Before the first ``reset``, the record of
        the first position."""
        if self._recorder is None:
            self._recorder = self._follow(None)
        return self._recorder.record(self.np_random)

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool,
                                                     dict[str, Any]]:
        if self.finished:
            raise OptionsError("the episode is over; call reset() to start another")
        if not self.action_space.contains(action):
            raise OptionsError(f"action must be 0 to {self.shape.num_actions - 1}, got "
                               f"{action!r}")
        chosen = int(action)
        legal = self.adapter.legal_ids(self.state)
        if chosen not in legal:
            if self.illegal == "raise":
                raise IllegalActionError(f"action {chosen} is not legal now for seat "
                                         f"{self.seat} ({len(legal)} legal; see action_masks())")
            self.finished = True
            return (self._observation(), float(self.shape.min_utility), True, False,
                    self._info(illegal_action=True))
        self.adapter.apply_id(self.state, chosen)
        self._play_until_the_learner()
        reward = self.adapter.utilities(self.state)[self.seat] if self.finished else 0.0
        return self._observation(), float(reward), self.finished, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.adapter.observation_string(self.state, self.seat)


class KeirinBettorEnv(RacedayEnv):
    """One KEIRIN bettor against the house's fixed odds: the KEIRIN night's environment
    with one bettor, fixed odds and a 15 % margin unless told otherwise (see
    :mod:`raceday.games.keirin.adapter` for the tickets and the tensor)."""

    PRESET: ClassVar[dict[str, Any]] = {"bettors": 1, "mode": "fixed", "margin": 0.15}

    def __init__(self, illegal: Illegal = "forfeit", render_mode: str | None = None,
                 **params: Any) -> None:
        super().__init__("keirin", illegal=illegal, render_mode=render_mode,
                         **{**self.PRESET, **params})


def register_envs() -> list[str]:
    """Register every game's environment not yet registered (a game installed since the
    last call too); the ids registered now."""
    added = []
    for game in games_with_players():
        name = env_id(game)
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=f"{__name__}:RacedayEnv",
                               kwargs={"game": game})
            added.append(name)
    if KEIRIN_BETTOR not in gymnasium.registry and "keirin" in games_with_players():
        gymnasium.register(KEIRIN_BETTOR, entry_point=f"{__name__}:KeirinBettorEnv")
        added.append(KEIRIN_BETTOR)
    return added


register_envs()

__all__ = ["ENV_ID", "KEIRIN_BETTOR", "IllegalActionError", "KeirinBettorEnv", "Opponent",
           "RacedayEnv", "easiest_computer", "env_id", "register_envs",
           "seat_opponents"]
