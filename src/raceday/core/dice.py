"""Dice as exact distributions: immutable maps from outcome to a ``Fraction`` probability.

In the spirit of icepool: build a die, combine dice with ``+`` (sum), :meth:`Dist.max`,
:meth:`Dist.combine`, transform with :meth:`Dist.map`, and read exact means and
probabilities. Rules use these for chance nodes; odds use them for exact answers.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar

import numpy as np

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


class Dist(Generic[T]):
    """An exact finite probability distribution over hashable outcomes."""

    __slots__ = ("_probs",)

    def __init__(self, weights: Mapping[T, Fraction | int]) -> None:
        total = sum(Fraction(w) for w in weights.values())
        if total <= 0:
            raise ValueError("a distribution needs positive total weight")
        probs: dict[T, Fraction] = {}
        for outcome, w in weights.items():
            w = Fraction(w)
            if w < 0:
                raise ValueError(f"negative weight for outcome {outcome!r}")
            if w:
                probs[outcome] = probs.get(outcome, Fraction(0)) + w / total
        self._probs = dict(sorted(probs.items(), key=lambda kv: _sort_key(kv[0])))

    # --- construction -----------------------------------------------------------------
    @staticmethod
    def die(faces: int) -> Dist[int]:
        """A fair die numbered 1..faces."""
        if faces < 1:
            raise ValueError("a die needs at least one face")
        return Dist({f: 1 for f in range(1, faces + 1)})

    @staticmethod
    def from_faces(faces: list[Any]) -> Dist[Any]:
        """A fair die with the given faces (repeats allowed, e.g. KEIRIN's 3,3,3,4,5,6)."""
        weights: dict[Any, int] = {}
        for f in faces:
            weights[f] = weights.get(f, 0) + 1
        return Dist(weights)

    @staticmethod
    def constant(value: T) -> Dist[T]:
        return Dist({value: 1})

    # --- reading ----------------------------------------------------------------------
    def __getitem__(self, outcome: T) -> Fraction:
        return self._probs.get(outcome, Fraction(0))

    def __iter__(self) -> Iterator[T]:
        return iter(self._probs)

    def __len__(self) -> int:
        return len(self._probs)

    def items(self) -> list[tuple[T, Fraction]]:
        return list(self._probs.items())

    def outcomes(self) -> list[T]:
        return list(self._probs)

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        return sum((p for o, p in self._probs.items() if predicate(o)), Fraction(0))

    def mean(self) -> Fraction:
        return sum((Fraction(o) * p for o, p in self._probs.items()), Fraction(0))  # type: ignore[call-overload]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._probs == other._probs

    def __hash__(self) -> int:
        return hash(tuple(self._probs.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {p}" for o, p in self._probs.items())
        return f"Dist({{{inner}}})"

    # --- combining --------------------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Dist[U]:
        weights: dict[U, Fraction] = {}
        for o, p in self._probs.items():
            key = f(o)
            weights[key] = weights.get(key, Fraction(0)) + p
        return Dist(weights)

    def combine(self, other: Dist[U], f: Callable[[T, U], Any]) -> Dist[Any]:
        """Distribution of ``f(a, b)`` for independent ``a ~ self`` and ``b ~ other``."""
        weights: dict[Any, Fraction] = {}
        for a, pa in self._probs.items():
            for b, pb in other._probs.items():
                key = f(a, b)
                weights[key] = weights.get(key, Fraction(0)) + pa * pb
        return Dist(weights)

    def __add__(self, other: Dist[Any]) -> Dist[Any]:
        return self.combine(other, lambda a, b: a + b)

    def max(self, other: Dist[Any]) -> Dist[Any]:
        return self.combine(other, lambda a, b: a if a >= b else b)

    def repeat(self, n: int, f: Callable[[Any, T], Any], start: Any) -> Dist[Any]:
        """Fold ``n`` independent copies into ``start`` with ``f(acc, outcome)``."""
        acc: Dist[Any] = Dist.constant(start)
        for _ in range(n):
            acc = acc.combine(self, f)
        return acc

    def sum_of(self, n: int) -> Dist[Any]:
        """The sum of ``n`` independent copies (e.g. 3d6)."""
        return self.repeat(n, lambda acc, o: acc + o, 0)

    def highest_of(self, n: int) -> Dist[Any]:
        """The largest of ``n`` independent copies."""
        if n < 1:
            raise ValueError("need at least one die")
        return self.repeat(n, lambda acc, o: o if acc is None or o > acc else acc, None)

    # --- sampling ---------------------------------------------------------------------
    def sample(self, rng: np.random.Generator, size: int | None = None) -> Any:
        """Draw from the distribution (numeric outcomes) using ``rng``."""
        values = np.array(list(self._probs), dtype=object)
        probs = np.array([float(p) for p in self._probs.values()])
        idx = rng.choice(len(values), size=size, p=probs / probs.sum())
        if size is None:
            return values[int(idx)]
        return values[idx]


def _sort_key(outcome: Any) -> tuple[int, Any]:
    if isinstance(outcome, int | float | Fraction):
        return (0, outcome)
    return (1, repr(outcome))
