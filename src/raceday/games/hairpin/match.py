"""AI-versus-AI matches: seeded, sides alternated, with varied random openings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from raceday.core.agents import Agent
from raceday.core.errors import OptionsError
from raceday.core.play import play_game
from raceday.games.hairpin.game import new_game
from raceday.games.hairpin.rules import BLACK, MAX_STEPS, RED

DEFAULT_OPENING_PLIES = 4


@dataclass
class MatchResult:
    """Totals of a match between agent A and agent B (from A's and B's point of view)."""

    a: str
    b: str
    plies: list[int] = field(default_factory=list)  # each game's length
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    a_wins_as_red: int = 0
    b_wins_as_red: int = 0

    @property
    def average_length(self) -> float:
        return float(np.mean(self.plies)) if self.plies else 0.0

    @property
    def a_score(self) -> float:
        """A's points per game (win 1, draw 1/2)."""
        return (self.a_wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a, "b": self.b, "games": self.games, "a_wins": self.a_wins,
            "b_wins": self.b_wins, "draws": self.draws,
            "a_wins_as_red": self.a_wins_as_red, "b_wins_as_red": self.b_wins_as_red,
            "average_plies": round(self.average_length, 2), "a_score": round(self.a_score, 4),
        }


def play_match(
    make_a: Callable[[], Agent],
    make_b: Callable[[], Agent],
    games: int,
    *,
    variant: str = "standard",
    seed: int = 0,
    opening_plies: int = DEFAULT_OPENING_PLIES,
    names: tuple[str, str] = ("A", "B"),
    alternate: bool = True,
    on_game: Callable[[int, MatchResult], None] | None = None,
) -> MatchResult:
    """Play ``games`` games; A is Red in even-numbered games and Black in odd ones (always
    Red with ``alternate=False``).

    Each pair of games (2k, 2k+1) starts from the same position after ``opening_plies``
    uniformly random plies, so with alternation both agents get each opening once from
    each side.
    """
    if games < 1:
        raise OptionsError("a match needs at least one game")
    if not 0 <= opening_plies <= 40:
        raise OptionsError("opening plies must be 0 to 40")
    result = MatchResult(names[0], names[1])
    master = np.random.default_rng(seed)
    opening_seed = 0
    for g in range(games):
        if g % 2 == 0:
            opening_seed = int(master.integers(2**62))
        game_rng = np.random.default_rng([opening_seed, g % 2])
        state = new_game({"variant": variant})
        open_rng = np.random.default_rng(opening_seed)
        plies = 0
        while not state.is_terminal() and (state.is_chance_node() or plies < opening_plies):
            if state.is_chance_node():
                draw = state.sample_chance(open_rng)
                state.apply_action(draw.outcome, draw.detail)
                continue
            acts = state.legal_actions()
            state.apply_action(acts[int(open_rng.integers(len(acts)))])
            plies += 1
        a, b = make_a(), make_b()
        a_side = RED if g % 2 == 0 or not alternate else BLACK
        agents = {a_side: a, 1 - a_side: b}
        play_game(state, agents, game_rng, max_steps=MAX_STEPS)
        out = state.outcome()
        result.games += 1
        result.plies.append(state.position.ply)
        if out.winner is None:
            result.draws += 1
        elif out.winner == a_side:
            result.a_wins += 1
            result.a_wins_as_red += a_side == RED
        else:
            result.b_wins += 1
            result.b_wins_as_red += a_side != RED
        if on_game is not None:
            on_game(g, result)
    return result
