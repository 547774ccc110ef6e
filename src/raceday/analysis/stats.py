"""Confidence intervals for Monte Carlo estimates."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def z_value(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (0.95 -> 1.96)."""
    if not 0 < confidence < 1:
        raise ValueError("confidence must lie strictly between 0 and 1")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Always ``0 <= low <= successes / trials <= high <= 1``: the bound is exactly 0 for no
    successes and exactly 1 for all (rounding cannot push it past the estimate, so error
    bars drawn from it are never negative).
    """
    if trials <= 0:
        raise ValueError("need at least one trial")
    if not 0 <= successes <= trials:
        raise ValueError("successes must lie between 0 and the number of trials")
    z = z_value(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else min(p, max(0.0, centre - half))
    high = 1.0 if successes == trials else max(p, min(1.0, centre + half))
    return low, high


def mean_interval(values: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``values`` with a normal-approximation confidence interval."""
    n = len(values)
    if n == 0:
        raise ValueError("need at least one value")
    mean = float(np.mean(values))
    if n == 1:
        return mean, mean, mean
    half = z_value(confidence) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def proportion_agrees(
    successes: int, trials: int, expected: float, confidence: float = 0.99
) -> bool:
    """True when ``expected`` lies in the Wilson interval of ``successes / trials``."""
    lo, hi = wilson_interval(successes, trials, confidence)
    return lo <= expected <= hi
