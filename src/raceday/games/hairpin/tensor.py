"""Hairpin's observation tensor, read from the compiled engine's array form: what the
research adapter and the OpenSpiel state on the compiled engine both observe."""

from __future__ import annotations

import numpy as np

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
