"""What a research framework needs to know about a game, without importing any framework.

An :class:`Adapter` turns a game of the project (a :class:`~raceday.core.protocol.State`)
into the fixed shapes OpenSpiel, PettingZoo and Gymnasium expect:

- a **dense action space** ``0 .. num_actions - 1`` (the engines number actions sparsely,
  e.g. PISTARD's ``1000 * rider + code``) and a dense chance-outcome space;
- **parameters** of plain types (int, float, str) with defaults, mapped to the game's
  options (0 or "" means "the game's own default" where the option is optional);
- **observation tensors** of a size fixed by the parameters, and observation strings;
- the **utility** each player receives (the engine's ``returns()`` unless the adapter says
  otherwise, e.g. money won in a betting game) and its range;
- the **information** structure: perfect, or imperfect where tickets are sealed.

Nothing here re-implements a rule: states are the engines' own, and the encoders only
read them. A game carries its adapter in its ``adapter`` face (attribute ``ADAPTER``), found
by :func:`raceday.core.discovery.face`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np

from raceday.core.digits import plain_number
from raceday.core.errors import OptionsError
from raceday.core.game import Game, GameOptions
from raceday.core.protocol import CHANCE, Action, State
from raceday.core.registry import get_game
from raceday.present import render
from raceday.present.pictures import text_picture
from raceday.research.params import ParamValue, model_params, options_from_params

OptionsT = TypeVar("OptionsT", bound=GameOptions)


@dataclass(frozen=True)
class Shape:
    """Sizes fixed by the parameters."""

    players: int
    num_actions: int
    max_chance: int
    obs_size: int
    max_length: int
    min_utility: float
    max_utility: float


class Adapter(ABC):
    """One game, as the research frameworks see it.

    An adapter that names its ``game`` takes from it the name, title, player range and
    options model it does not declare itself."""

    game: ClassVar[Game[Any, Any] | None] = None
    name: ClassVar[str]  # the raceday game name
    title: ClassVar[str]
    player_range: ClassVar[tuple[int, int]]  # fewest and most decision-making players
    perfect_information: ClassVar[bool] = True
    utility: ClassVar[str] = "general_sum"  # general_sum | constant_sum
    utility_sum: ClassVar[float | None] = None
    params: ClassVar[Mapping[str, ParamValue]] = {}
    # With the game's options model, the parameters are its fields (model_params), plus the
    # adapter's own (an engine choice), and the model checks them.
    options_model: ClassVar[type[GameOptions] | None] = None
    own_params: ClassVar[Mapping[str, ParamValue]] = {}
    description: ClassVar[str] = ""  # where the game's tables have no research.description

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        game = cls.__dict__.get("game")
        if game is not None:
            for attribute, value in (("name", game.name), ("title", game.title),
                                     ("player_range", game.players),
                                     ("options_model", game.Options)):
                if attribute not in cls.__dict__:
                    setattr(cls, attribute, value)
        if cls.options_model is not None and "params" not in cls.__dict__:
            cls.params = {**model_params(cls.options_model), **cls.own_params}

    # --- parameters -------------------------------------------------------------------
    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, ParamValue]:
        """The parameters with defaults filled in; :class:`OptionsError` for unknown ones."""
        given = dict(params or {})
        unknown = sorted(set(given) - set(self.params))
        if unknown:
            raise OptionsError(f"unknown {self.name} parameter(s) {', '.join(unknown)}; "
                               f"known: {', '.join(self.params) or 'none'}")
        out: dict[str, ParamValue] = dict(self.params)
        for key, value in given.items():
            out[key] = self._typed(key, value)
        if self.options_model is not None:
            self.game_options(out)  # the model refuses a bad value, naming it
        return out

    def _typed(self, key: str, value: Any) -> ParamValue:
        """``value`` as the type of the parameter's default (text from a command line
        becomes a number where the default is one); OptionsError if it cannot be."""
        kind: type = type(self.params[key])
        if not isinstance(value, str) or kind is str:
            return value  # type: ignore[no-any-return]  # the model (or the wrapper) judges it
        text = value.strip()
        number = plain_number(text, signed=True)
        if kind is bool and text.lower() in ("true", "false"):
            return text.lower() == "true"
        if kind is bool and number in (0, 1):
            return bool(number)
        if kind is int and number is not None and number.denominator == 1:
            return int(number)
        if kind is float and number is not None:
            return float(number)
        raise OptionsError(f"{self.name} parameter {key} must be "
                           f"{'a whole number' if kind is int else 'a ' + kind.__name__}, "
                           f"got {value!r}")

    def game_options(self, params: Mapping[str, ParamValue]) -> GameOptions:
        """The game's checked options that ``params`` stand for (with an options model)."""
        if self.options_model is None:
            raise TypeError(f"the {self.name} adapter declares no options model")
        return self.options_model.parse(options_from_params(self.options_model, params))

    def options_as(self, params: Mapping[str, ParamValue], model: type[OptionsT]) -> OptionsT:
        """:meth:`game_options`, typed as the adapter's own options ``model``."""
        options = self.game_options(params)
        if not isinstance(options, model):
            raise TypeError(f"the {self.name} adapter's options are not {model.__name__}")
        return options

    def describe(self, lang: str = "en") -> str:
        """What the game is to the research frameworks, in ``lang``: the game's message
        ``research.description``, else the adapter's :attr:`description`."""
        key = f"{self.name}.research.description"
        text = render(key, lang)
        return self.description if text == key else text

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        """A fresh state of the game these parameters describe (by default the game's own,
        from the options they stand for)."""
        state: State = get_game(self.name).new_state(self.game_options(params))
        return state

    @abstractmethod
    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        """The sizes the frameworks need up front."""

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        state: State = get_game(self.name).state_from_json(data)
        return state

    # --- actions ----------------------------------------------------------------------
    def action_id(self, state: State, action: Action) -> int:
        """The dense id of an engine action."""
        return action

    def engine_action(self, state: State, action_id: int) -> Action:
        """The engine action of a dense id."""
        return action_id

    def chance_id(self, state: State, outcome: Action) -> int:
        return outcome

    def engine_outcome(self, state: State, outcome_id: int) -> Action:
        return outcome_id

    def legal_ids(self, state: State) -> list[int]:
        return sorted(self.action_id(state, a) for a in state.legal_actions())

    def chance_ids(self, state: State) -> list[tuple[int, float]]:
        return sorted((self.chance_id(state, a), float(p)) for a, p in state.chance_outcomes()
                      if p > 0)

    def apply_id(self, state: State, action_id: int) -> None:
        if state.current_player() == CHANCE:
            state.apply_action(self.engine_outcome(state, action_id))
        else:
            state.apply_action(self.engine_action(state, action_id))

    def id_to_string(self, state: State, action_id: int) -> str:
        if state.current_player() == CHANCE:
            return state.action_to_string(self.engine_outcome(state, action_id))
        return state.action_to_string(self.engine_action(state, action_id))

    # --- results and views --------------------------------------------------------------
    def utilities(self, state: State) -> list[float]:
        """What each player receives at the end (the engine's returns by default)."""
        return [float(r) for r in state.returns()]

    @abstractmethod
    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        """Fill ``out`` (zeros, length ``obs_size``) with what ``player`` sees."""

    def observation_string(self, state: State, player: int) -> str:
        """What ``player`` sees, as text (the board, for perfect information)."""
        return text_picture(state)

    def private_string(self, state: State, player: int) -> str:
        """What only ``player`` knows (empty in a game of perfect information)."""
        return ""

    # --- OpenSpiel ----------------------------------------------------------------------
    def has_chance(self, params: Mapping[str, ParamValue]) -> bool:
        """Whether a game with these parameters has chance nodes (OpenSpiel's chance mode:
        a game without any is deterministic)."""
        return True

    def openspiel_state(self, game: Any) -> Any:
        """An OpenSpiel state of the adapter's own for the loaded ``game`` (which holds
        ``adapter`` and ``params``), e.g. one on a compiled engine; None (the default): the
        generic state around the engine's :class:`State`."""
        return None


class Shared:
    """An immutable value shared by clones of an OpenSpiel state (deep copy returns it as
    it is; pickled as the value)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self

    def __getstate__(self) -> Any:
        return self.value

    def __setstate__(self, value: Any) -> None:
        self.value = value

