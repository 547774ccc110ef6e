"""Dice Derby's browser jobs: the exact odds and the board (:func:`raceday.games.derby.
odds.exact_odds`) or ``n`` simulated races (:func:`raceday.games.derby.fast.simulate_odds`),
run by the server's Numbers page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field

from raceday.research.jobs import (
    DIGITS_SCHEMA,
    FRACTION_LENGTH,
    FRACTION_TEXT,
    ODDS_MODES,
    RACES_LIMIT,
    JobError,
    OddsOrSimulationJob,
    Plan,
    Progress,
    col,
    fraction_text,
    job_mode,
    number_or_text,
    odds_or_simulation,
    shown,
)

LIMITS = {"races": RACES_LIMIT}


class DerbyJob(OddsOrSimulationJob):
    """Dice Derby's exact odds and board (``odds``: ``fall_rate``, ``margin``) or ``n``
    simulated races (``simulate``: ``fall_rate``, ``n``, ``seed``)."""

    game: Literal["derby"]
    fall_rate: Annotated[str | None, Field(max_length=FRACTION_LENGTH), shown(
        {**DIGITS_SCHEMA, "description": "from 0 to 1/2, such as '0', '0.05' or '1/20'"})
    ] = None
    margin: Annotated[float | int | str | None,
                      number_or_text(f"a number from 0 to 0.5, or {FRACTION_TEXT}",
                                     FRACTION_LENGTH, True),
                      shown({"anyOf": [{"type": "number", "minimum": 0, "maximum": 0.5},
                                       DIGITS_SCHEMA],
                             "description": "the bookmaker's margin, from 0 to 0.5"})] = None


Body = DerbyJob  # the request model the server collects


def plan(body: Mapping[str, Any], limits: Mapping[str, int]) -> Plan:
    """An odds or simulation job, checked (nothing runs here)."""
    from raceday.games.derby.odds import parse_margin
    from raceday.games.derby.rules import parse_fall_rate

    mode = job_mode(body, {"fall_rate", "margin"}, ODDS_MODES)
    rate_text = body.get("fall_rate", "0")
    if not isinstance(rate_text, str):
        raise JobError(f"fall_rate is {FRACTION_TEXT}")
    rate = parse_fall_rate(fraction_text(rate_text, "fall_rate"))
    margin = parse_margin(fraction_text(body.get("margin", "0.1"), "margin")) \
        if mode == "odds" else None
    return odds_or_simulation(
        mode, {"fall_rate": str(rate), "margin": str(margin)}, body, limits,
        lambda job: odds_job(job, rate, margin),
        lambda job, n, chosen: simulate_job(job, rate, n, chosen),
        simulation_params={"fall_rate": str(rate)})


def odds_job(job: Progress, rate: Any, margin: Any) -> dict[str, Any]:
    from raceday.games.derby.odds import exact_odds, format_odds, make_board, pair_name
    from raceday.games.derby.rules import POSTS, horse_name

    job.progress(0, 1)
    exact = exact_odds(rate)
    board = make_board(exact, margin)
    job.progress(1, 1)
    win = [{"horse": horse_name(h), "post": h, "p": float(exact.win[h]),
            "fair": float(1 / exact.win[h]), "board": format_odds(board.win[h])}
           for h in POSTS]
    quin = [{"horse": pair_name(pr), "p": float(p), "fair": float(1 / p),
             "board": format_odds(board.quinella[pr])}
            for pr, p in sorted(exact.quinella.items(), key=lambda kv: -kv[1])]
    cols = [col("horse", "nm_col_horse"), col("p", "nm_col_probability", "pct"),
            col("fair", "nm_col_fair", "odds"), col("board", "nm_col_board")]
    return {"title": {"key": "nm_title_derby_odds", "fall_rate": str(rate),
                      "margin": str(margin)},
            "tables": [{"id": "win", "title": "nm_table_win", "columns": cols, "rows": win},
                       {"id": "quinella", "title": "nm_table_quinella", "columns": cols,
                        "rows": quin}],
            "chart": {"table": "win", "label": "horse", "values": ["p"], "top": 6}}


def simulate_job(job: Progress, rate: Any, n: int, seed: int) -> dict[str, Any]:
    from raceday.games.derby.fast import simulate_odds
    from raceday.games.derby.odds import exact_odds, pair_name
    from raceday.games.derby.rules import horse_name

    sim = simulate_odds(n, np.random.default_rng(seed), rate, progress=job.progress,
                        chunk=min(100_000, max(1_000, n // 50)))
    exact = exact_odds(rate)
    win = [{"horse": horse_name(h), "p": [e.p, e.low, e.high], "exact": float(exact.win[h])}
           for h, e in sim.win.items()]
    quin = [{"horse": pair_name(pr), "p": [e.p, e.low, e.high],
             "exact": float(exact.quinella[pr])} for pr, e in sim.quinella.items()]
    cols = [col("horse", "nm_col_horse"), col("p", "nm_col_estimate", "ci"),
            col("exact", "nm_col_exact", "pct")]
    return {"title": {"key": "nm_title_derby_sim", "fall_rate": str(rate), "n": n,
                      "seed": str(seed)},
            "tables": [{"id": "win", "title": "nm_table_win", "columns": cols, "rows": win},
                       {"id": "quinella", "title": "nm_table_quinella", "columns": cols,
                        "rows": quin}],
            "chart": {"table": "win", "label": "horse", "values": ["p"], "top": 6}}
