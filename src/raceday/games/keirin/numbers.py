"""KEIRIN's browser jobs: the exact odds of a race (:func:`raceday.games.keirin.odds.
race_odds`) or ``n`` simulated races (:func:`raceday.games.keirin.simulate.simulate`), run
by the server's Numbers page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import StrictInt

from raceday.core.game import field_range
from raceday.games.keirin.rules import KeirinOptions
from raceday.research.jobs import (
    ODDS_MODES,
    RACES_LIMIT,
    OddsOrSimulationJob,
    Plan,
    Progress,
    col,
    count,
    job_mode,
    odds_or_simulation,
    shown,
)

RIDERS = field_range(KeirinOptions, "riders")
LENGTH = field_range(KeirinOptions, "length")
LIMITS = {  # the largest job in the browser (the CLI allows more)
    "races": RACES_LIMIT,
    # the longest track: its exact odds cannot be stopped midway (1,000 laps take seconds)
    "length": LENGTH[1],
}


class KeirinJob(OddsOrSimulationJob):
    """KEIRIN's exact odds (``mode`` ``odds``) or ``n`` simulated races (``simulate``)."""

    game: Literal["keirin"]
    riders: Annotated[StrictInt | None, shown(
        {"type": "integer", "minimum": RIDERS[0], "maximum": RIDERS[1]})] = None
    length: Annotated[StrictInt | None, shown(
        {"type": "integer", "minimum": LENGTH[0], "maximum": LENGTH[1],
         "description": "the race's length"})] = None


Body = KeirinJob  # the request model the server collects


def plan(body: Mapping[str, Any], limits: Mapping[str, int]) -> Plan:
    """An odds or simulation job, checked (nothing runs here)."""
    mode = job_mode(body, {"riders", "length"}, ODDS_MODES)
    riders = count(body.get("riders", 9), "riders", *RIDERS)
    length = count(body.get("length", 50), "length", LENGTH[0],
                   limits.get("length", LENGTH[1]))
    options = KeirinOptions.parse({"riders": riders, "length": length})
    return odds_or_simulation(mode, {"riders": riders, "length": length}, body, limits,
                              lambda job: odds_job(job, options),
                              lambda job, n, chosen: simulate_job(job, options, n, chosen))


def odds_job(job: Progress, options: Any) -> dict[str, Any]:
    from raceday.games.keirin.odds import BET_TYPES, race_odds

    job.progress(0, 1)
    odds = race_odds(options)
    job.progress(1, 1)
    win = odds.bet("win")
    tables = [{"id": "riders", "title": "nm_table_keirin_riders", "columns": [
        col("rider", "nm_col_rider"), col("win", "nm_col_win", "pct"),
        col("top2", "nm_col_top2", "pct"), col("top3", "nm_col_top3", "pct"),
        col("fair", "nm_col_fair", "odds")],
        "rows": [{"rider": f"R{r}", "win": win[(r,)],
                  "top2": float(odds.two[r - 1].sum() + odds.two[:, r - 1].sum()),
                  "top3": float(odds.three[r - 1].sum() + odds.three[:, r - 1].sum()
                                + odds.three[:, :, r - 1].sum()),
                  "fair": 1 / win[(r,)] if win[(r,)] > 0 else None}
                 for r in range(1, options.riders + 1)]}]
    for kind in BET_TYPES[1:]:
        sep = "-" if kind in ("exacta", "trifecta") else "="
        ranked = sorted(odds.bet(kind).items(), key=lambda kv: (-kv[1], kv[0]))
        tables.append({"id": kind, "title": f"nm_bet_{kind}", "columns": [
            col("bet", "nm_col_bet"), col("p", "nm_col_probability", "pct"),
            col("fair", "nm_col_fair", "odds")],
            "rows": [{"bet": sep.join(map(str, combo)), "p": p,
                      "fair": 1 / p if p > 0 else None} for combo, p in ranked]})
    return {"title": {"key": "nm_title_keirin_odds", "riders": options.riders,
                      "length": options.length},
            "tables": tables,
            "chart": {"table": "riders", "label": "rider", "values": ["win", "top3"],
                      "top": 9}}


def simulate_job(job: Progress, options: Any, n: int, seed: int) -> dict[str, Any]:
    from raceday.games.keirin.simulate import simulate

    summary = simulate(options, n, np.random.default_rng(seed), engine="fast",
                       progress=job.progress)

    def ci(r: int, k: int) -> list[float]:
        lo, hi = summary.interval(r, k)
        return [summary.rate(r, k), lo, hi]

    rows = [{"rider": f"R{r}", "win": ci(r, 1), "top2": ci(r, 2), "top3": ci(r, 3)}
            for r in range(1, options.riders + 1)]
    mean, lo, hi = summary.mean_turns_interval()
    return {"title": {"key": "nm_title_keirin_sim", "riders": options.riders,
                      "length": options.length, "n": n, "seed": str(seed)},
            "tables": [{"id": "riders", "title": "nm_table_keirin_riders", "columns": [
                col("rider", "nm_col_rider"), col("win", "nm_col_win", "ci"),
                col("top2", "nm_col_top2", "ci"), col("top3", "nm_col_top3", "ci")],
                "rows": rows}],
            "notes": [{"key": "nm_mean_turns", "mean": round(mean, 2), "low": round(lo, 2),
                       "high": round(hi, 2)}],
            "chart": {"table": "riders", "label": "rider", "values": ["win", "top3"],
                      "top": 9}}
