"""The random numbers of the compiled engines (numba): xorshift64* (Vigna).

A compiled engine keeps its generator state in a one-element uint64 array ``rs`` seeded
from the caller's ``numpy.random.Generator`` with :func:`seed_from`, so a run is fully
determined by the caller's seed. Imported only by the compiled engines (numba is heavy).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from raceday.core.kernels import kernel


def seed_from(rng: np.random.Generator) -> int:
    """A non-zero 63-bit seed for the compiled generator, drawn from ``rng``."""
    return int(rng.integers(1, 2**63 - 1))


@kernel
def next_random(rs: np.ndarray) -> Any:
    """The next 64-bit number; ``rs[0]`` holds the state as uint64."""
    x = rs[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rs[0] = x
    return x * np.uint64(2685821657736338717)


@kernel
def random_below(rs: np.ndarray, n: int) -> Any:
    """A uniform integer in [0, n)."""
    return np.int64((next_random(rs) >> np.uint64(11)) % np.uint64(n))


@kernel
def random_unit(rs: np.ndarray) -> Any:
    """A uniform float in [0, 1)."""
    return np.float64(next_random(rs) >> np.uint64(11)) / 9007199254740992.0
