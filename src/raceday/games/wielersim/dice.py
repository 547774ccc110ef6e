"""The dice throws of WielerSIM as exact distributions, samplers and a fast buffer.

Every throw in the game is one of a few kinds (2D6, the best two of 3D6, 2D10, ...).
Each kind has an exact :class:`Dist` (for the protocol's chance nodes) and a function
from the dice faces to the thrown value, shared by the reference sampler and the fast
buffered sampler used by predictions, so that both read the same faces the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache

import numpy as np

from raceday.core.dice import Dist

D6_KIND = "d6"
TWO_D6 = "2d6"
BEST_TWO_OF_3D6 = "3d6b2"
TWO_D10 = "2d10"
BEST_TWO_OF_3D10 = "3d10b2"
FOUR_D6 = "4d6"
FOUR_D6_REROLL = "4d6r"
BOARD = "board"

BOARD_LAYOUTS = 256  # cobble boards drawn at random when a route gives no roughness
REROLL_MAX = 2  # 4D6 start: the favoured riders re-roll up to two dice showing 1 or 2

KINDS = (D6_KIND, TWO_D6, BEST_TWO_OF_3D6, TWO_D10, BEST_TWO_OF_3D10, FOUR_D6, FOUR_D6_REROLL,
         BOARD)


def best_two(faces: Sequence[int]) -> int:
    """The sum of the two highest faces (the acceleration throw: 3 dice, best two count)."""
    ordered = sorted(faces, reverse=True)
    return ordered[0] + ordered[1]


def rerolled_faces(first: Sequence[int], second: Sequence[int]) -> list[int]:
    """Faces after re-rolling up to two dice that show 1 or 2 (the lowest first).

    ``second`` supplies the new faces in order; only as many are used as dice re-rolled.
    """
    faces = list(first)
    low = sorted((i for i, f in enumerate(faces) if f <= 2), key=lambda i: (faces[i], i))
    for k, i in enumerate(low[:REROLL_MAX]):
        faces[i] = second[k]
    return faces


@cache
def distribution(kind: str) -> Dist[int]:
    """The exact distribution of the value thrown by ``kind``."""
    d6 = Dist.die(6)
    d10 = Dist.die(10)
    if kind == D6_KIND:
        return d6
    if kind == TWO_D6:
        return d6.sum_of(2)
    if kind == BEST_TWO_OF_3D6:
        return _best_two_of_three(6)
    if kind == TWO_D10:
        return d10.sum_of(2)
    if kind == BEST_TWO_OF_3D10:
        return _best_two_of_three(10)
    if kind == FOUR_D6:
        return d6.sum_of(4)
    if kind == FOUR_D6_REROLL:
        return _four_d6_reroll()
    if kind == BOARD:
        return Dist({i: 1 for i in range(BOARD_LAYOUTS)})
    raise ValueError(f"unknown throw kind {kind!r}")


@cache
def outcome_table(kind: str) -> tuple[tuple[int, Fraction], ...]:
    """``(value, probability)`` pairs of ``kind``, cached for chance nodes."""
    return tuple(distribution(kind).items())


@cache
def possible_values(kind: str) -> frozenset[int]:
    """The values ``kind`` can show (for checking a chance outcome without Fractions)."""
    return frozenset(value for value, p in outcome_table(kind) if p > 0)


def _best_two_of_three(faces: int) -> Dist[int]:
    weights: dict[int, int] = {}
    for a in range(1, faces + 1):
        for b in range(1, faces + 1):
            for c in range(1, faces + 1):
                v = best_two((a, b, c))
                weights[v] = weights.get(v, 0) + 1
    return Dist(weights)


def _four_d6_reroll() -> Dist[int]:
    d6 = Dist.die(6)
    weights: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                for d in range(1, 7):
                    faces = (a, b, c, d)
                    low = sorted(f for f in faces if f <= 2)[:REROLL_MAX]
                    kept = sum(faces) - sum(low)
                    rest = d6.sum_of(len(low)) if low else Dist.constant(0)
                    for v, p in rest.items():
                        weights[kept + v] = weights.get(kept + v, Fraction(0)) + p
    return Dist(weights)


def value_from_faces(kind: str, faces: Sequence[int], extra: Sequence[int] = ()) -> int:
    """The thrown value given the faces (``extra``: the re-rolled faces for 4D6 re-roll)."""
    if kind in (BEST_TWO_OF_3D6, BEST_TWO_OF_3D10):
        return best_two(faces)
    if kind == FOUR_D6_REROLL:
        return sum(rerolled_faces(faces, extra))
    return sum(faces)


DICE_OF_KIND: dict[str, tuple[int, int]] = {
    D6_KIND: (1, 6),
    TWO_D6: (2, 6),
    BEST_TWO_OF_3D6: (3, 6),
    TWO_D10: (2, 10),
    BEST_TWO_OF_3D10: (3, 10),
    FOUR_D6: (4, 6),
    FOUR_D6_REROLL: (4, 6),
}


def throw(kind: str, rng: np.random.Generator) -> tuple[int, dict[str, list[int]]]:
    """Throw ``kind`` with ``rng``; return the value and the faces (for the event log)."""
    if kind == BOARD:
        layout = int(rng.integers(BOARD_LAYOUTS))
        return layout, {"dice": [layout]}
    count, sides = DICE_OF_KIND[kind]
    faces: list[int] = rng.integers(1, sides + 1, size=count).tolist()
    if kind == FOUR_D6_REROLL:
        extra: list[int] = rng.integers(1, 7, size=REROLL_MAX).tolist()
        return value_from_faces(kind, faces, extra), {"dice": faces, "rerolls": extra}
    return value_from_faces(kind, faces), {"dice": faces}


class _Faces:
    """Faces of one kind of die, drawn from ``rng`` a block at a time and handed out in order
    (a new block only when the rest of the current one is too short)."""

    def __init__(self, rng: np.random.Generator, sides: int, block: int) -> None:
        self.rng, self.sides, self.block = rng, sides, block
        self._faces: list[int] = []
        self.used = 0  # faces of the current block handed out

    def take(self, n: int) -> list[int]:
        """The next ``n`` faces."""
        if self.used + n > len(self._faces):
            self._faces = self.rng.integers(1, self.sides + 1, size=self.block).tolist()
            self.used = 0
        out = self._faces[self.used:self.used + n]
        self.used += n
        return out


class DiceBuffer:
    """Fast throws for simulation loops: faces are drawn from ``rng`` in large blocks.

    Reads faces exactly like :func:`throw` (same face-to-value rules), so the values have
    the same distributions; it only avoids one numpy call per throw.
    """

    BLOCK = 16384

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._d6 = _Faces(rng, 6, self.BLOCK)
        self._d10 = _Faces(rng, 10, self.BLOCK)

    @property
    def faces_used(self) -> tuple[int, int]:
        """How far into its current block of d6 and of d10 faces this buffer has read."""
        return self._d6.used, self._d10.used

    def throw(self, kind: str) -> int:
        """The value of one throw of ``kind``."""
        if kind == TWO_D6:
            f = self._d6.take(2)
            return f[0] + f[1]
        if kind == D6_KIND:
            return self._d6.take(1)[0]
        if kind == BEST_TWO_OF_3D6:
            return best_two(self._d6.take(3))
        if kind == TWO_D10:
            return sum(self._d10.take(2))
        if kind == BEST_TWO_OF_3D10:
            return best_two(self._d10.take(3))
        if kind == FOUR_D6:
            return sum(self._d6.take(4))
        if kind == FOUR_D6_REROLL:
            return value_from_faces(kind, self._d6.take(4), self._d6.take(REROLL_MAX))
        if kind == BOARD:
            return int(self.rng.integers(BOARD_LAYOUTS))
        raise ValueError(f"unknown throw kind {kind!r}")
