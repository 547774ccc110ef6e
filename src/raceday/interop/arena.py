"""Play two agents against each other for N seeded games, sides alternated.

Agents are named by text:

- ours: ``random``, ``mcts[:N]`` (the project's generic UCT), and the game's own computer
  players where it has them (Hairpin: ``easy``, ``medium``, ``hard``, ``expert``,
  ``greedy``, ``alphabeta[:N]``, ``alphabeta:Xs``...; PISTARD: ``easy``, ``medium``,
  ``hard``);
- OpenSpiel's bots (need ``raceday[rl]``): ``openspiel-random``, ``openspiel-mcts[:N]``
  (N simulations per move) or ``openspiel-mcts:Xs`` (X seconds per move; random
  rollouts, compiled on Hairpin).

Game ``i`` (from 0) uses the seed sequence ``[seed, i]`` for its dice and for our agents'
random choices; agent A takes seat 0 in even games and seat 1 in odd ones. The result of a
game compares the two players' utilities (the engine's returns, or money in the betting
games): higher wins, equal is a draw.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from raceday.analysis.stats import wilson_interval
from raceday.core.agents import MCTSAgent, RandomAgent
from raceday.core.discovery import agents_module
from raceday.core.errors import OptionsError
from raceday.core.files import check_output_file
from raceday.core.protocol import State
from raceday.core.record import Record, records_text
from raceday.core.serialize import atomic_write_text
from raceday.interop import require
from raceday.interop.adapters import Adapter, adapter

OPENSPIEL = "openspiel-"


@dataclass
class Player:
    """One side: its name, and how it chooses (ours) or which OpenSpiel bot it is."""

    name: str
    choose: Callable[[State, np.random.Generator], int] | None = None  # engine action
    bot: Any = None  # an OpenSpiel bot (returns dense ids)
    thinking: float = 0.0
    moves: int = 0



def _our_agent(game: str, name: str) -> Callable[[State, np.random.Generator], int]:
    key = name.strip().lower()
    kind, _, budget = key.partition(":")
    if key == "random":
        return RandomAgent().choose
    module = agents_module(game)
    if kind == "mcts" and "mcts" not in getattr(module, "AGENT_NAMES", ()):  # not its own
        try:
            sims = int(budget) if budget else 300
        except ValueError:
            raise OptionsError(f"mcts simulations must be a whole number, got {budget!r}") from None
        if not 1 <= sims <= 10_000_000:
            raise OptionsError("mcts simulations must be 1 to 10,000,000")
        return MCTSAgent(sims).choose
    make = getattr(module, "make_agent", None)
    if make is None:
        raise OptionsError(f"unknown agent {name!r} for {game}; use random, mcts[:N], "
                           "openspiel-random or openspiel-mcts[:N|:Xs]")
    return make(name).choose  # type: ignore[no-any-return]


def make_player(game: str, name: str, os_game: Any, seed: int) -> Player:
    """The side named ``name`` (see the module docstring)."""
    key = name.strip().lower()
    if not key.startswith(OPENSPIEL):
        return Player(name, choose=_our_agent(game, key))
    require("pyspiel")
    from raceday.interop import openspiel

    kind, _, budget = key.removeprefix(OPENSPIEL).partition(":")
    if kind == "random" and not budget:
        return Player(name, bot=UniformRandomBot(seed))
    if kind == "mcts":
        return Player(name, bot=openspiel.mcts_bot(os_game, budget, seed))
    raise OptionsError(f"unknown OpenSpiel bot {name!r}; use openspiel-random, "
                       "openspiel-mcts:N (simulations) or openspiel-mcts:Xs (seconds)")


class UniformRandomBot:
    """A uniformly random choice among an OpenSpiel state's legal actions."""

    def __init__(self, seed: int) -> None:
        self._random = np.random.RandomState(seed % 2**32)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        return int(legal[self._random.randint(len(legal))])


@dataclass
class GameRecord:
    game: int
    seed: int
    a_seat: int
    winner: str  # "a", "b" or "draw"
    steps: int
    a_utility: float
    b_utility: float


@dataclass
class ArenaResult:
    game: str
    params: Mapping[str, Any]
    a: str
    b: str
    seed: int
    records: list[GameRecord] = field(default_factory=list)
    a_seconds_per_move: float = 0.0
    b_seconds_per_move: float = 0.0
    matches: list[Record] = field(default_factory=list)  # each game's record, when kept

    def count(self, who: str) -> int:
        return sum(1 for r in self.records if r.winner == who)

    def summary(self) -> dict[str, Any]:
        n = len(self.records)
        out: dict[str, Any] = {"game": self.game, "params": dict(self.params), "a": self.a,
                               "b": self.b, "seed": self.seed, "games": n,
                               "a_wins": self.count("a"), "b_wins": self.count("b"),
                               "draws": self.count("draw")}
        if n:
            for side in ("a", "b"):
                low, high = wilson_interval(self.count(side), n)
                out[f"{side}_win_rate"] = round(self.count(side) / n, 4)
                out[f"{side}_win_rate_95"] = [round(low, 4), round(high, 4)]
        out["a_seconds_per_move"] = round(self.a_seconds_per_move, 4)
        out["b_seconds_per_move"] = round(self.b_seconds_per_move, 4)
        return out

    def to_json(self) -> dict[str, Any]:
        return {**self.summary(), "records": [asdict(r) for r in self.records]}

    def to_csv(self) -> str:
        buffer = io.StringIO()
        names = list(GameRecord.__dataclass_fields__)
        writer = csv.DictWriter(buffer, fieldnames=names, lineterminator="\n")
        writer.writeheader()
        for record in self.records:
            writer.writerow(asdict(record))
        return buffer.getvalue()


def check_out_path(path: Path, force: bool = False) -> Path:
    """A results file ending in .csv or .json whose folder exists, not overwriting a file
    unless ``force`` (checked before playing)."""
    if path.suffix.lower() not in (".csv", ".json"):
        raise OptionsError(f"--out must end in .csv or .json, got {str(path)!r}")
    return check_output_file(path, "--out", force=force)


def write_results(result: ArenaResult, path: Path) -> None:
    text = (result.to_csv() if path.suffix.lower() == ".csv"
            else json.dumps(result.to_json(), indent=2) + "\n")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise OptionsError(f"cannot write {path}: {exc.strerror or exc}") from None


def check_save_path(path: Path, force: bool = False) -> Path:
    """A records file (``--save``) whose folder exists, not overwriting a file unless
    ``force`` (checked before playing)."""
    return check_output_file(path, "--save", force=force)


def write_records(result: ArenaResult, path: Path) -> None:
    """Every game's record (:attr:`ArenaResult.matches`) in one record file, written
    atomically."""
    try:
        atomic_write_text(path, records_text(result.matches))
    except OSError as exc:
        raise OptionsError(f"cannot write {path}: {exc.strerror or exc}") from None


def parse_params(pairs: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionsError(f"--option must look like KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def _play_one(adp: Adapter, params: Mapping[str, Any], os_game: Any, seats: list[Player],
              rng: np.random.Generator, record: dict[str, Any] | None = None
              ) -> tuple[State, int, Record | None]:
    state = adp.new_state(params)
    recorder = None
    if record is not None:
        from raceday.interop.records import follow

        recorder = follow(adp, params, state, face="arena", **record)
    mirror = os_game.new_initial_state() if os_game is not None else None
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            if mirror is not None:
                mirror.apply_action(adp.chance_id(state, draw.outcome))
            state.apply_action(draw.outcome, draw.detail)
        else:
            player = seats[state.current_player()]
            start = time.perf_counter()
            if player.bot is not None:
                action_id = int(player.bot.step(mirror))
                action = adp.engine_action(state, action_id)
            else:
                assert player.choose is not None
                action = player.choose(state, rng)
                action_id = adp.action_id(state, action)
            player.thinking += time.perf_counter() - start
            player.moves += 1
            if mirror is not None:
                mirror.apply_action(action_id)
            state.apply_action(action)
        steps += 1
    return state, steps, None if recorder is None else recorder.record(rng)


@dataclass
class Arena:
    """Two checked sides ready to play (see :func:`prepare`)."""

    adapter: Adapter
    params: dict[str, Any]
    os_game: Any
    a: Player
    b: Player
    seed: int


def prepare(game: str, a: str, b: str, seed: int, params: Mapping[str, Any] | None = None
            ) -> Arena:
    """Check the game, its parameters and both agents; :class:`OptionsError` if anything
    is wrong (nothing is played)."""
    adp = adapter(game)
    checked = adp.check_params(params)
    players = adp.shape(checked).players
    if players != 2:
        raise OptionsError(f"the arena plays two agents; {game} with these options has "
                           f"{players} player(s)")
    os_game = None
    if any(name.strip().lower().startswith(OPENSPIEL) for name in (a, b)):
        require("pyspiel")
        from raceday.interop import openspiel

        os_game = openspiel.load_game(game, **checked)
    return Arena(adp, checked, os_game, make_player(game, a, os_game, seed),
                 make_player(game, b, os_game, seed + 1), seed)


def run_arena(game: str, a: str, b: str, games: int, seed: int,
              params: Mapping[str, Any] | None = None,
              progress: Callable[[int, int], None] | None = None,
              records: bool = False) -> ArenaResult:
    """Play ``games`` games of ``a`` against ``b`` (see the module docstring)."""
    return play(prepare(game, a, b, seed, params), games, progress, records)


def play(arena: Arena, games: int, progress: Callable[[int, int], None] | None = None,
         records: bool = False) -> ArenaResult:
    """Play the prepared arena's ``games`` games (each written down as a record in
    :attr:`ArenaResult.matches` with ``records``)."""
    adp, checked, os_game, seed = arena.adapter, arena.params, arena.os_game, arena.seed
    side_a, side_b = arena.a, arena.b
    result = ArenaResult(adp.name, checked, side_a.name, side_b.name, seed)
    for i in range(games):
        a_seat = i % 2
        seats = [side_a, side_b] if a_seat == 0 else [side_b, side_a]
        rng = np.random.default_rng([seed, i])
        tags = None
        if records:
            tags = {"seed": [seed, i], "seats": [{"name": s.name, "player": s.name}
                                                 for s in seats],
                    "tags": {"Event": f"arena {side_a.name} v {side_b.name}",
                             "Round": i + 1}}
        state, steps, match = _play_one(adp, checked, os_game, seats, rng, tags)
        if match is not None:
            result.matches.append(match)
        utilities = adp.utilities(state)
        ua, ub = utilities[a_seat], utilities[1 - a_seat]
        winner = "a" if ua > ub else "b" if ub > ua else "draw"
        result.records.append(GameRecord(i, seed, a_seat, winner, steps, ua, ub))
        if progress is not None:
            progress(i + 1, games)
    result.a_seconds_per_move = side_a.thinking / max(1, side_a.moves)
    result.b_seconds_per_move = side_b.thinking / max(1, side_b.moves)
    return result


__all__ = ["Arena", "ArenaResult", "GameRecord", "check_out_path", "check_save_path",
           "make_player", "parse_params", "play", "prepare", "run_arena", "write_records",
           "write_results"]
