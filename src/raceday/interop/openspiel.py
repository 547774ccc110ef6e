"""Every game with a research adapter as an OpenSpiel Python game (``pyspiel.register_game``).

Importing this module imports ``pyspiel`` and registers every game whose package carries an
``adapter`` face under the short name ``raceday_<game>`` (``raceday_hairpin``, ...); an
adapter may give its own state (:meth:`~raceday.research.Adapter.openspiel_state`, e.g.
Hairpin's on its compiled engine) and say when there is no chance at all. Afterwards
``pyspiel.load_game("raceday_hairpin(variant=short)")`` works like any OpenSpiel game.
Each game's ``GameType`` says honestly what it is (see :data:`GAME_NOTES` and
docs/usage/research.md):

- chance mode: explicit stochastic (every roll is a chance node with the engine's exact
  probabilities, given to OpenSpiel as floats); a Hairpin game without the random setup is
  deterministic;
- information: perfect, except the KEIRIN and Dice Derby betting games (sealed tickets);
- utility: Hairpin is constant-sum (winner 1, loser 0, a derby draw 1/2 each); PISTARD
  general-sum (winners share 1); the betting games general-sum in stake units won;
  WielerSIM has no players at all (a 0-player game: a race of dice alone);
- rewards at the end only.

States keep the engine's own state (each game's adapter, a
:class:`raceday.research.Adapter`, maps its sparse action numbers to dense ids).
Serialisation is OpenSpiel's for Python games (history plus the pickled attributes), where
the engine state pickles as its own JSON save. Hairpin runs, by default, on a state that
keeps the compiled engine's array (:mod:`raceday.games.hairpin.fast`); ``engine=reference``
wraps the readable rules instead.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]

from raceday.core.errors import OptionsError
from raceday.core.protocol import State
from raceday.core.record import Record
from raceday.core.registry import get_game
from raceday.interop.adapters import adapters
from raceday.present.pictures import text_picture
from raceday.research import Adapter, ParamValue, Shape

PREFIX = "raceday_"

GAME_NOTES = {name: a.describe() for name, a in adapters().items()}


def short_name(game: str) -> str:
    return PREFIX + game


# --- the engine inside an OpenSpiel state ---------------------------------------------------
def _restore(game: str, text: str) -> _Engine:
    return _Engine(game, adapters()[game].state_from_json(json.loads(text)))


class _Engine:
    """Holds the engine's state: cloned with the engine's ``clone()``, pickled as its JSON."""

    __slots__ = ("game", "state")

    def __init__(self, game: str, state: State) -> None:
        self.game = game
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game, self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return _restore, (self.game, json.dumps(self.state.to_json(), sort_keys=True))


def _game_type(adapter: Adapter, chance: bool = True) -> pyspiel.GameType:
    info = (pyspiel.GameType.Information.PERFECT_INFORMATION if adapter.perfect_information
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    utility = (pyspiel.GameType.Utility.CONSTANT_SUM if adapter.utility == "constant_sum"
               else pyspiel.GameType.Utility.GENERAL_SUM)
    low, high = adapter.player_range
    return pyspiel.GameType(
        short_name=short_name(adapter.name),
        long_name=f"raceday {adapter.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=info,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(adapter.params),
    )


# --- the game ---------------------------------------------------------------------------------
class RacedayGame(pyspiel.Game):  # type: ignore[misc]
    """One raceday game as an OpenSpiel game; parameters as in :mod:`adapters`."""

    adapter: Adapter

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        adapter = self.adapter
        self.params: dict[str, ParamValue] = adapter.check_params(params)
        self.shape: Shape = adapter.shape(self.params)
        shape = self.shape
        info = pyspiel.GameInfo(
            num_distinct_actions=shape.num_actions,
            max_chance_outcomes=shape.max_chance,
            num_players=shape.players,
            min_utility=shape.min_utility,
            max_utility=shape.max_utility,
            utility_sum=adapter.utility_sum,
            max_game_length=shape.max_length,
        )
        super().__init__(_game_type(adapter, self.has_chance()), info, dict(self.params))

    def has_chance(self) -> bool:
        return self.adapter.has_chance(self.params)

    def new_initial_state(self) -> pyspiel.State:
        own = self.adapter.openspiel_state(self)  # e.g. a state on a compiled engine
        return own if own is not None else RacedayState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)


class RacedayState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around the engine's state."""

    def __init__(self, game: RacedayGame, engine: State | None = None) -> None:
        super().__init__(game)
        self._game = game.adapter.name
        self._engine = _Engine(self._game, engine or game.adapter.new_state(game.params))

    @property
    def engine(self) -> State:
        """The engine's own state (a :class:`raceday.core.protocol.State`)."""
        return self._engine.state

    @property
    def adapter(self) -> Adapter:
        return adapters()[self._game]

    def current_player(self) -> int:
        return self._engine.state.current_player()  # CHANCE and TERMINAL as in OpenSpiel

    def _legal_actions(self, player: int) -> list[int]:
        return self.adapter.legal_ids(self._engine.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.adapter.chance_ids(self._engine.state)

    def _apply_action(self, action: int) -> None:
        self.adapter.apply_id(self._engine.state, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.adapter.id_to_string(self._engine.state, action)

    def is_terminal(self) -> bool:
        return self._engine.state.is_terminal()

    def returns(self) -> list[float]:
        state = self._engine.state
        if not state.is_terminal():
            return [0.0] * state.num_players
        return self.adapter.utilities(state)

    def observe(self, player: int, out: np.ndarray) -> None:
        out[:] = 0.0
        self.adapter.observe(self._engine.state, player, out)

    def observation_text(self, player: int) -> str:
        return self.adapter.observation_string(self._engine.state, player)

    def private_text(self, player: int) -> str:
        return self.adapter.private_string(self._engine.state, player)

    def __str__(self) -> str:
        return text_picture(self._engine.state)

    def record(self) -> Record:
        """The game so far as a record (see :func:`episode_record`)."""
        return episode_record(self)


def episode_record(state: Any) -> Record:
    """The game an OpenSpiel state of a raceday game has played so far, as a record
    (:mod:`raceday.core.record`, ``Face`` "research"): its history of dense ids played
    again on the engine from the first position, so any such state has one (a clone, a
    compiled engine's state too); it replays through the rules to the same position."""
    from raceday.interop.records import follow

    game = state.get_game()
    name = game.get_type().short_name.removeprefix(PREFIX)
    adapter = adapters()[name]
    params = adapter.check_params(game.get_parameters())
    engine = adapter.new_state(params)
    recorder = follow(adapter, params, engine)
    for action_id in state.history():
        adapter.apply_id(engine, int(action_id))
    return recorder.record()


# --- observation --------------------------------------------------------------------------------
class Observer:
    """OpenSpiel's Python observer: the adapter's tensor; the board (observation) or the
    player's whole view of the history (information state) as text.

    With ``private_info`` NONE (a public observer) the sealed tickets of every player stay
    hidden. The information-state tensor is the observation tensor: the position (plus a
    bettor's own ticket) determines everything that can still happen."""

    def __init__(self, game: Any, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.size = game.shape.obs_size
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        self.private = (iig_obs_type is None or iig_obs_type.private_info
                        != pyspiel.PrivateInfoType.NONE)
        self.tensor = np.zeros(self.size, np.float32)
        self.dict = {"observation": self.tensor}
        self._buffer = np.zeros(self.size, np.float64)

    def set_from(self, state: Any, player: int) -> None:
        state.observe(player if self.private else -1, self._buffer)
        self.tensor[:] = self._buffer

    def string_from(self, state: Any, player: int) -> str:
        who = player if self.private else -1
        if not self.perfect_recall:
            return str(state.observation_text(who))
        return information_state_text(state, who)


def information_state_text(state: Any, player: int) -> str:
    """The player's view of the whole history (perfect recall). With perfect information,
    the history itself; otherwise what the player observed after each step, in order (the
    adapter's observation, which shows a sealed choice to its player alone), unless the
    adapter says it itself (``information_string``)."""
    own = getattr(getattr(state, "adapter", None), "information_string", None)
    if own is not None:
        return str(own(state.engine, player))
    game = state.get_game()
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return f"history: {' '.join(str(a) for a in state.history())}"
    replay = game.new_initial_state()
    seen = [replay.observation_text(player)]
    for action in state.history():
        replay.apply_action(action)
        seen.append(replay.observation_text(player))
    return f"player {player}; " + " | ".join(seen)


# --- bots ---------------------------------------------------------------------------------------
class FastRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's random-rollout evaluator (uniform random moves to the end, the average of
    ``n_rollouts`` results), with the rollout run inside the compiled engine when the state
    offers one (``fast_rollout(seed_array)``, the returns of one random play-out, e.g.
    Hairpin's state on its compiled engine); any other state rolls out step by step as
    OpenSpiel's :class:`~open_spiel.python.algorithms.mcts.RandomRolloutEvaluator` does."""

    def __init__(self, n_rollouts: int = 1, random_state: np.random.RandomState | None = None
                 ) -> None:
        self.n_rollouts = n_rollouts
        self._random_state = random_state or np.random.RandomState()
        self._fallback = mcts.RandomRolloutEvaluator(n_rollouts, self._random_state)
        self._rs = np.empty(1, dtype=np.uint64)
        self._rs[0] = np.uint64(int(self._random_state.randint(1, 2**62)))

    def evaluate(self, state: Any) -> np.ndarray:
        rollout: Callable[[np.ndarray], np.ndarray | None] | None = getattr(
            state, "fast_rollout", None)
        results = [rollout(self._rs) for _ in range(self.n_rollouts)] if rollout else [None]
        if any(r is None for r in results):
            return np.asarray(self._fallback.evaluate(state))
        average: np.ndarray = np.asarray(results, dtype=np.float64).mean(axis=0)
        return average

    def prior(self, state: Any) -> list[tuple[int, float]]:
        return self._fallback.prior(state)  # type: ignore[no-any-return]


class TimedMCTSBot(mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's MCTSBot given a wall-time budget per move instead of a simulation count:
    before each search it sets ``max_simulations`` from the simulation rate measured on
    its own earlier searches (a short calibration search before the first move). Time is
    read on ``clock`` (tests give one that counts simulations)."""

    def __init__(self, game: Any, seconds: float, evaluator: Any, uct_c: float = 2.0,
                 random_state: np.random.RandomState | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        super().__init__(game, uct_c, 1, evaluator, solve=True, random_state=random_state)
        self.seconds = seconds
        self.clock = clock
        self.rate: float | None = None
        self.searched = 0
        self.spent = 0.0

    def mcts_search(self, state: Any) -> Any:
        if self.rate is None:
            self.max_simulations = 32
            start = self.clock()
            root = super().mcts_search(state)
            self.rate = root.explore_count / max(self.clock() - start, 1e-6)
        self.max_simulations = max(8, int(self.rate * self.seconds))
        start = self.clock()
        root = super().mcts_search(state)
        elapsed = max(self.clock() - start, 1e-6)
        self.searched += root.explore_count
        self.spent += elapsed
        if root.explore_count >= self.max_simulations:  # a solved root stops early
            self.rate = 0.5 * self.rate + 0.5 * root.explore_count / elapsed
        return root


def mcts_bot(game: Any, budget: str, seed: int) -> Any:
    """OpenSpiel's MCTSBot with random rollouts: ``budget`` "N" simulations per move or
    "Xs" seconds per move; the compiled rollouts on Hairpin's fast states."""
    rng = np.random.RandomState(seed % 2**32)
    evaluator = FastRolloutEvaluator(1, rng)
    text = budget.strip().lower()
    if text.endswith("s"):
        try:
            seconds = float(text[:-1])
        except ValueError:
            raise OptionsError(f"MCTS seconds must be a number, got {budget!r}") from None
        if not (math.isfinite(seconds) and 0.001 <= seconds <= 600):
            raise OptionsError("MCTS seconds per move must be 0.001 to 600")
        return TimedMCTSBot(game, seconds, evaluator, random_state=rng)
    try:
        sims = int(text or "1000")
    except ValueError:
        raise OptionsError(f"MCTS simulations must be a whole number, got {budget!r}") from None
    if not 1 <= sims <= 10_000_000:
        raise OptionsError("MCTS simulations per move must be 1 to 10,000,000")
    return mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=rng)


# --- registration -----------------------------------------------------------------------------
_GAME_CLASSES: dict[str, type[RacedayGame]] = {}


def _register() -> None:
    for name, adapter in adapters().items():
        cls = type(f"Raceday{name.title()}Game", (RacedayGame,), {"adapter": adapter})
        _GAME_CLASSES[name] = cls
        pyspiel.register_game(_game_type(adapter), cls)


_register()


def load_game(game: str, **params: Any) -> Any:
    """``load_game("hairpin", variant="short")``: the registered OpenSpiel game."""
    if game not in adapters():
        get_game(game)  # an unknown name gets the registry's message
        raise OptionsError(f"{game} has no OpenSpiel adapter")
    try:
        checked = adapters()[game].check_params(params)
    except ValueError as exc:  # OptionsError, or a value of the wrong type
        if isinstance(exc, OptionsError):
            raise
        raise OptionsError(f"{game}: {exc}") from None
    return pyspiel.load_game(short_name(game), checked)


__all__ = ["GAME_NOTES", "FastRolloutEvaluator", "Observer",
           "RacedayGame", "RacedayState", "TimedMCTSBot", "episode_record", "load_game", "mcts_bot",
           "short_name"]
