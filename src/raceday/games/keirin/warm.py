"""KEIRIN's compiled engine for ``raceday warm-up``: the fast sampler of simulate."""

from __future__ import annotations

import numpy as np

from raceday.terminal.warm import Engine


def _warm_keirin() -> None:
    from raceday.games.keirin import fast
    from raceday.games.keirin.rules import KeirinOptions

    for _ in fast.iter_race_batches(KeirinOptions(), 1, np.random.default_rng(0)):
        pass


ENGINES = (
    Engine("keirin", "KEIRIN: the fast sampler of simulate", ("raceday.games.keirin.fast",),
           _warm_keirin),
)
