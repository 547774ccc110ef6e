"""Exact odds of one throw for the rider about to move, by enumerating all 1296 throws."""

from __future__ import annotations

from fractions import Fraction

from raceday.core.dice import Dist
from raceday.games.pistard.moves import THROWS, dice_from_action
from raceday.games.pistard.state import PistardState


def furthest_move_distribution(state: PistardState, use_token: bool = False) -> Dist[int]:
    """Distribution of the most columns the mover can gain with his next throw (0 when he
    has no legal move), exactly over the 6^4 equally likely throws.

    ``state`` must be a chance node whose next throw is the mover's. With ``use_token`` the
    rider may raise one die (if his player has a token left)."""
    if not state.is_chance_node() or state.mover is None:
        raise ValueError("furthest_move_distribution needs the mover's throw to be next")
    weights: dict[int, int] = {}
    for action in range(THROWS):
        probe = state.clone()
        probe.dice = list(dice_from_action(action))
        table = probe.move_table()
        best = max((m.ahead for m in table.values() if use_token or not m.token), default=0)
        weights[best] = weights.get(best, 0) + 1
    return Dist(weights)


def chance_of_a_move(state: PistardState) -> Fraction:
    """Exact probability that the mover's next throw leaves him a legal move (no token)."""
    return 1 - furthest_move_distribution(state)[0]
