"""Research interfaces: the five games in OpenSpiel, PettingZoo and Gymnasium.

Everything framework-specific lives in the submodules :mod:`raceday.interop.openspiel`,
:mod:`raceday.interop.pettingzoo` and :mod:`raceday.interop.gym`, which import their
framework when they are imported; ``import raceday`` and the CLI never do. Install the
frameworks with ``pip install 'raceday[rl]'``. See docs/usage/research.md.
"""

from __future__ import annotations

import importlib

from raceday.core.errors import RacedayError

RL_HINT = "install the research extra: pip install 'raceday[rl]'"


class MissingExtraError(RacedayError):
    """A research framework is not installed."""


def require(module: str) -> None:
    """Import ``module`` or raise :class:`MissingExtraError` with the one-line fix."""
    try:
        importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"{module} is not installed; {RL_HINT}") from None
