"""What a research framework needs to know about each game, without importing any framework.

An :class:`Adapter` turns a game of the project (a :class:`~raceday.core.protocol.State`)
into the fixed shapes OpenSpiel, PettingZoo and Gymnasium expect:

- a **dense action space** ``0 .. num_actions - 1`` (the engines number actions sparsely,
  e.g. PISTARD's ``1000 * rider + code``) and a dense chance-outcome space;
- **parameters** of plain types (int, float, str) with defaults, mapped to the game's
  options (0 or "" means "the game's own default" where the option is optional);
- **observation tensors** of a size fixed by the parameters, and observation strings;
- the **utility** each player receives (the engine's ``returns()``, or for the betting
  games the money won, see :mod:`raceday.interop.betting`) and its range;
- the **information** structure: perfect, or imperfect where tickets are sealed.

Nothing here re-implements a rule: states are the engines' own, and the encoders only
read them.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from raceday.core.errors import OptionsError
from raceday.core.protocol import CHANCE, Action, State
from raceday.core.registry import get_game

ParamValue = int | float | str


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
    """One game, as the research frameworks see it."""

    name: ClassVar[str]  # the raceday game name
    title: ClassVar[str]
    perfect_information: ClassVar[bool] = True
    utility: ClassVar[str] = "general_sum"  # general_sum | constant_sum
    utility_sum: ClassVar[float | None] = None
    params: ClassVar[Mapping[str, ParamValue]] = {}
    description: ClassVar[str] = ""

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
            default = self.params[key]
            if isinstance(default, str):
                out[key] = str(value)
            elif isinstance(default, float):
                out[key] = float(value)
            else:
                out[key] = int(value)
        return out

    @abstractmethod
    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        """A fresh state of the game these parameters describe."""

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
        return str(state)

    def private_string(self, state: State, player: int) -> str:
        """What only ``player`` knows (empty in a game of perfect information)."""
        return ""


# --- Hairpin ----------------------------------------------------------------------------------
HAIRPIN_OBS = 18 * 2 + 2 + 2 + 2 + 2 + 1 + 1


def hairpin_tensor(st: np.ndarray, target: int, quiet_limit: int, out: np.ndarray) -> None:
    """Encode the compiled engine's array form (see :mod:`raceday.games.hairpin.fast`):
    red and black racers per square (/5), side to move, laps and bumps (/target), pit (/5),
    quiet clock (/limit); the caller sets the last entry while the random setup rolls."""
    cells = st[:18].astype(np.float64)
    out[0:18] = np.clip(cells, 0, None) / 5.0
    out[18:36] = np.clip(-cells, 0, None) / 5.0
    out[36 + int(st[18])] = 1.0
    out[38:40] = st[19:21] / target
    out[40:42] = st[21:23] / target
    out[42:44] = st[23:25] / 5.0
    out[44] = min(1.0, float(st[25]) / quiet_limit)


class HairpinAdapter(Adapter):
    name = "hairpin"
    title = "Hairpin Racers"
    utility = "constant_sum"
    utility_sum = 1.0
    params: ClassVar[Mapping[str, ParamValue]] = {"variant": "standard", "setup": "",
                                                  "position": "", "engine": "fast"}
    description = ("Two players, perfect information; chance only in the random setup. "
                   "Actions are the engine's numbers (origin square * 6 + kind).")

    def options(self, params: Mapping[str, ParamValue]) -> dict[str, Any]:
        opts: dict[str, Any] = {"variant": params["variant"]}
        if params["setup"]:
            opts["setup"] = params["setup"]
        if params["position"]:
            opts["position"] = params["position"]
        return opts

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, ParamValue]:
        out = super().check_params(params)
        if out["engine"] not in ("fast", "reference"):
            raise OptionsError(f"hairpin engine must be 'fast' or 'reference', got "
                               f"{out['engine']!r}")
        get_game(self.name).options(self.options(out))
        return out

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        state: State = get_game(self.name).new_state(self.options(params))
        return state

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        from raceday.games.hairpin.rules import KINDS, SKIP_ORIGIN

        steps = get_game(self.name).max_steps(self.options(params))
        return Shape(2, (SKIP_ORIGIN + 1) * KINDS, 6, HAIRPIN_OBS, steps, 0.0, 1.0)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        from raceday.games.hairpin import fast

        rules = state.rules  # type: ignore[attr-defined]
        hairpin_tensor(fast.encode(state.position), rules.target,  # type: ignore[attr-defined]
                       rules.quiet_limit, out)
        out[45] = float(state.in_setup)  # type: ignore[attr-defined]


# --- PISTARD ----------------------------------------------------------------------------------
PISTARD_SLOTS = 5 * 6  # player 0-4 x rider 1-6: the engine's rider numbers 11..56
PISTARD_CODES = 200  # token flag (100) + 10 * columns ahead + lane
PISTARD_PLACE = PISTARD_SLOTS * PISTARD_CODES
PISTARD_CHOOSE = PISTARD_PLACE + 100
PISTARD_ACTIONS = PISTARD_CHOOSE + PISTARD_SLOTS


def _pistard_slot(ident: int) -> int:
    player, k = divmod(ident, 10)
    if not 1 <= player <= 5 or not 1 <= k <= 6:
        raise ValueError(f"PISTARD rider number {ident} is outside the adapter's range")
    return (player - 1) * 6 + (k - 1)


def _pistard_ident(slot: int) -> int:
    player, k = divmod(slot, 6)
    return 10 * (player + 1) + k + 1


class PistardAdapter(Adapter):
    name = "pistard"
    title = "PISTARD"
    params: ClassVar[Mapping[str, ParamValue]] = {
        "variant": "scratch", "players": 0, "riders_per_player": 0, "tokens": 3, "laps": 0,
        "track": "default", "max_rounds": 0}
    description = ("1 to 5 players, perfect information, four dice per throw (1,296 chance "
                   "outcomes). Action id = rider slot * 200 + move code, then placements "
                   "and team 'next rider' choices.")

    def options(self, params: Mapping[str, ParamValue]) -> Any:
        opts: dict[str, Any] = {"variant": params["variant"], "tokens": params["tokens"],
                                "track": params["track"]}
        for key in ("players", "riders_per_player", "laps", "max_rounds"):
            if params[key]:
                opts[key] = params[key]
        return get_game(self.name).options(opts)

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, ParamValue]:
        out = super().check_params(params)
        self.options(out)
        return out

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        state: State = get_game(self.name).new_state(self.options(params))
        return state

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        from raceday.games.pistard.moves import THROWS

        opts = self.options(params)
        riders = opts.num_players * opts.riders_each
        steps = get_game(self.name).max_steps(opts)
        return Shape(opts.num_players, PISTARD_ACTIONS, THROWS, self._obs_size(riders), steps,
                     0.0, 1.0)

    @staticmethod
    def _obs_size(riders: int) -> int:
        # per rider: owner (5), distance, lane, waiting/racing/out (3), mover, next to place;
        # tokens (5), dice (4 x 6), phase (3), observer (5)
        return riders * 12 + 5 + 24 + 3 + 5

    def action_id(self, state: State, action: Action) -> int:
        from raceday.games.pistard.moves import CHOOSE_BASE, PLACE_BASE, RIDER_BASE

        if action >= CHOOSE_BASE:
            return PISTARD_CHOOSE + _pistard_slot(action - CHOOSE_BASE)
        if action >= PLACE_BASE:
            code = action - PLACE_BASE
            if not 0 <= code < 100:
                raise ValueError(f"PISTARD placement {action} is outside the adapter's range")
            return PISTARD_PLACE + code
        ident, code = divmod(action, RIDER_BASE)
        if not 0 <= code < PISTARD_CODES:
            raise ValueError(f"PISTARD move {action} is outside the adapter's range")
        return _pistard_slot(ident) * PISTARD_CODES + code

    def engine_action(self, state: State, action_id: int) -> Action:
        from raceday.games.pistard.moves import CHOOSE_BASE, PLACE_BASE, RIDER_BASE

        if not 0 <= action_id < PISTARD_ACTIONS:
            raise ValueError(f"PISTARD action id must be 0 to {PISTARD_ACTIONS - 1}")
        if action_id >= PISTARD_CHOOSE:
            return CHOOSE_BASE + _pistard_ident(action_id - PISTARD_CHOOSE)
        if action_id >= PISTARD_PLACE:
            return PLACE_BASE + action_id - PISTARD_PLACE
        slot, code = divmod(action_id, PISTARD_CODES)
        return RIDER_BASE * _pistard_ident(slot) + code

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        from raceday.games.pistard.variants import OUT, RACE

        s: Any = state
        length = s.track.length
        lanes = max(1, getattr(s.track, "lanes", 4))
        base = 0
        for i, rider in enumerate(s.riders):
            out[base + rider.owner] = 1.0
            out[base + 5] = rider.dist / length
            out[base + 6] = rider.lane / lanes
            out[base + 7 + (1 if rider.status == RACE else 2 if rider.status == OUT else 0)] = 1
            out[base + 10] = float(s.mover == i)
            out[base + 11] = float(bool(s.place_queue) and s.place_queue[0] == i)
            base += 12
        tokens_each = max(1, s.options.tokens)
        for p, t in enumerate(s.tokens):
            out[base + p] = t / tokens_each
        base += 5
        if s.dice is not None:
            for colour, value in enumerate(s.dice):
                out[base + colour * 6 + value - 1] = 1.0
        base += 24
        phases = ("place", "race", "over")
        out[base + (phases.index(s.phase) if s.phase in phases else 2)] = 1.0
        base += 3
        if 0 <= player < 5:
            out[base + player] = 1.0


# --- WielerSIM --------------------------------------------------------------------------------
class WielersimAdapter(Adapter):
    name = "wielersim"
    title = "WielerSIM"
    params: ClassVar[Mapping[str, ParamValue]] = {"route": "flanders", "peloton": "classics"}
    description = ("A solo simulation: no decision-making players (0 players), every node "
                   "is a throw of the engine's dice. Registered so that chance-only "
                   "analyses (sampling, exact chance outcomes, serialisation) can use it; "
                   "there is nothing for an agent to decide.")

    def options(self, params: Mapping[str, ParamValue]) -> Any:
        return get_game(self.name).options({"route": params["route"],
                                            "peloton": params["peloton"]})

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, ParamValue]:
        out = super().check_params(params)
        self.options(out)
        return out

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        state: State = get_game(self.name).new_state(self.options(params))
        return state

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        from raceday.games.wielersim import dice

        opts = self.options(params)
        top = max(v for kind in dice.KINDS for v, _ in dice.outcome_table(kind))
        riders = len(opts.peloton["riders"])
        return Shape(0, 1, top + 1, 2 * riders, get_game(self.name).max_steps(opts), 0.0, 1.0)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        s: Any = state
        distance = max(1, s.route.distance)
        n = s.n
        out[:n] = np.asarray(s.pos, dtype=np.float64) / distance
        out[n:2 * n] = np.asarray(s.finished, dtype=np.float64)


# --- the betting games ------------------------------------------------------------------------
class BettingAdapter(Adapter):
    """Shared by the KEIRIN and Dice Derby betting games (see :mod:`raceday.interop.betting`)."""

    perfect_information = False

    def utilities(self, state: State) -> list[float]:
        return state.payoffs()  # type: ignore[attr-defined, no-any-return]

    def private_string(self, state: State, player: int) -> str:
        s: Any = state
        if player >= len(s.tickets):
            return "your ticket: not chosen yet"
        return f"your ticket: {s.ticket_text(s.tickets[player])}"

    def observation_string(self, state: State, player: int) -> str:
        s: Any = state
        head = f"tickets sealed: {len(s.tickets)} of {s.bettors}"
        if 0 <= player < s.bettors:
            head += f"; {self.private_string(state, player)}"
        return f"{head}\n{s.race}"

    def _observe_common(self, state: State, player: int, out: np.ndarray) -> int:
        """Phase (2), observer (4), share of tickets sealed, own ticket one-hot; returns
        the next free index."""
        from raceday.interop.betting import MAX_BETTORS

        s: Any = state
        out[0 if s.betting else 1] = 1.0
        if 0 <= player < MAX_BETTORS:
            out[2 + player] = 1.0
        out[6] = len(s.tickets) / s.bettors
        base = 7
        if 0 <= player < len(s.tickets):
            out[base + s.tickets[player]] = 1.0
        return base + int(s.num_actions())

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        raise NotImplementedError


class KeirinBettingAdapter(BettingAdapter):
    name = "keirin"
    title = "KEIRIN (betting game)"
    params: ClassVar[Mapping[str, ParamValue]] = {"bettors": 2, "riders": 9, "length": 50,
                                                  "derny": 0, "mode": "pool", "margin": 0.2}
    description = ("Bettors (1-4) each seal one ticket on the engine's bet types (win, "
                   "exacta, quinella, trifecta, trio) at 1, 2 or 5 stake units, or no ticket; "
                   "then the race runs on the engine's dice; payoff = money returned minus "
                   "stake, by the engine's pools (mode=pool, margin = takeout) or fixed odds.")

    def race_options(self, params: Mapping[str, ParamValue]) -> dict[str, Any]:
        opts: dict[str, Any] = {"riders": params["riders"], "length": params["length"]}
        if params["derny"]:
            opts["derny"] = params["derny"]
        return opts

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, ParamValue]:
        out = super().check_params(params)
        get_game("keirin").options(self.race_options(out))
        self.new_state(out)  # checks bettors, mode and margin
        return out

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        from raceday.interop.betting import KeirinBettingState

        try:
            return KeirinBettingState(int(params["bettors"]), self.race_options(params),
                                      str(params["mode"]), float(params["margin"]))
        except ValueError as exc:
            raise OptionsError(f"keirin: {exc}") from None

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        from raceday.interop.betting import KeirinBettingState

        return KeirinBettingState.from_json(data)

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        from raceday.interop.betting import STAKES, keirin_selections

        state: Any = self.new_state(params)
        riders = int(params["riders"])
        selections = len(keirin_selections(riders))
        actions = state.num_actions()
        top = max(STAKES)
        bettors = int(params["bettors"])
        if params["mode"] == "fixed":
            best = max(p for p in state.prices() if p) / 100 * top - 1
        else:
            best = top * bettors - 1
        race_steps = get_game("keirin").max_steps(self.race_options(params))
        obs = 7 + actions + 2 * riders + selections
        return Shape(bettors, actions, 19, obs, race_steps + bettors, -float(top), best)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        s: Any = state
        base = self._observe_common(state, player, out)
        race = s.race
        length = max(1, int(s.race_options.get("length", 50)))
        ranked = set(getattr(race, "ranked", ()))
        positions = list(getattr(race, "positions", ()))
        for r in range(s.riders):
            if r < len(positions):
                out[base + r] = positions[r] / length
            out[base + s.riders + r] = float(r + 1 in ranked)
        base += 2 * s.riders
        if s.mode == "fixed":
            for i, price in enumerate(s.prices()):
                out[base + i] = 100.0 / price if price else 0.0


class DerbyBettingAdapter(BettingAdapter):
    name = "derby"
    title = "Dice Derby (betting game)"
    params: ClassVar[Mapping[str, ParamValue]] = {"bettors": 2, "fall_rate": 0.0,
                                                  "margin": 0.1}
    description = ("Bettors (1-4) each seal one win or quinella ticket at the engine's odds "
                   "board (1, 2 or 5 stake units) or no ticket; then the race runs on the "
                   "engine's dice; payoff = money returned minus stake.")

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, ParamValue]:
        out = super().check_params(params)
        self.new_state(out)
        return out

    def new_state(self, params: Mapping[str, ParamValue]) -> State:
        from raceday.interop.betting import DerbyBettingState

        try:
            return DerbyBettingState(int(params["bettors"]), {"fall_rate": params["fall_rate"]},
                                     str(params["margin"]))
        except ValueError as exc:
            raise OptionsError(f"derby: {exc}") from None

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        from raceday.interop.betting import DerbyBettingState

        return DerbyBettingState.from_json(data)

    def shape(self, params: Mapping[str, ParamValue]) -> Shape:
        from raceday.interop.betting import STAKES

        state: Any = self.new_state(params)
        top = max(STAKES)
        best = max(state.prices()) / 10 * top - 1
        bettors = int(params["bettors"])
        race_steps = get_game("derby").max_steps(state.race_options)
        obs = 7 + state.num_actions() + 6 * 2 + len(state.selections())
        return Shape(bettors, state.num_actions(), 21, obs, race_steps + bettors, -float(top),
                     best)

    def observe(self, state: State, player: int, out: np.ndarray) -> None:
        s: Any = state
        base = self._observe_common(state, player, out)
        places = dict(getattr(s.race, "places", {}))
        for post in range(1, 7):
            if post in places:
                out[base + post - 1] = places[post] / 6
            out[base + 6 + post - 1] = float(getattr(s.race, "roller", None) == post)
        base += 12
        for i, tenths in enumerate(s.prices()):
            out[base + i] = 10.0 / tenths


ADAPTERS: dict[str, Adapter] = {a.name: a for a in (
    DerbyBettingAdapter(), HairpinAdapter(), KeirinBettingAdapter(), PistardAdapter(),
    WielersimAdapter())}


@functools.cache
def _names() -> tuple[str, ...]:
    return tuple(sorted(ADAPTERS))


def adapter(name: str) -> Adapter:
    """The adapter of a game by its raceday name; :class:`OptionsError` if unknown."""
    try:
        return ADAPTERS[name]
    except KeyError:
        raise OptionsError(f"unknown game {name!r}; choose from {', '.join(_names())}") from None
