"""WielerSIM's browser jobs: a prediction of ``n`` races of a shipped route and peloton
(:func:`raceday.games.wielersim.predict.predict`), run by the server's Numbers page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, StrictInt

from raceday.games.wielersim.peloton import SHIPPED_PELOTONS, START_LISTS
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.research.jobs import (
    JobBody,
    JobError,
    Plan,
    Progress,
    Seed,
    choice,
    col,
    only_fields,
    races_schema,
    shown,
    simulation_plan,
)

LIMITS = {"races": 100_000}  # races per job in the browser (the CLI allows more)
PELOTONS = (*SHIPPED_PELOTONS, *START_LISTS)


class WielersimJob(JobBody):
    """A WielerSIM prediction: ``n`` races (at most 100,000) of a route and a peloton."""

    game: Literal["wielersim"]
    mode: Annotated[str | None, Field(max_length=20),
                    shown({"type": "string", "enum": ["predict"]})] = None
    route: Annotated[str, Field(max_length=80),
                     shown({"type": "string", "enum": list(SHIPPED_ROUTES)})]
    peloton: Annotated[str, Field(max_length=80),
                       shown({"type": "string", "enum": list(PELOTONS)})]
    n: Annotated[StrictInt | None, races_schema(LIMITS["races"])] = None
    seed: Seed = None


Body = WielersimJob  # the request model the server collects


def plan(body: Mapping[str, Any], limits: Mapping[str, int]) -> Plan:
    """A prediction job, checked (nothing runs here)."""
    only_fields(body, {"game", "mode", "n", "seed", "route", "peloton"})
    if body.get("mode", "predict") != "predict":
        raise JobError("a WielerSIM job is a prediction (mode 'predict')")
    route = choice(body.get("route"), SHIPPED_ROUTES, "route")
    peloton = choice(body.get("peloton"), PELOTONS, "peloton")
    return simulation_plan("predict", {"route": route, "peloton": peloton}, body, limits,
                           lambda job, n, chosen: predict_job(job, route, peloton, n, chosen),
                           default=1000)


def predict_job(job: Progress, route: str, peloton: str, n: int, seed: int
                      ) -> dict[str, Any]:
    from raceday.games.wielersim.predict import predict
    from raceday.games.wielersim.rules import peloton_spec, route_spec

    pred = predict(route_spec(route), peloton_spec(peloton), n, seed=seed, workers=1,
                   progress=job.progress)

    def ci(count: Any) -> list[float]:
        lo, hi = pred.interval(int(count))
        return [int(count) / n, lo, hi]

    rows = [{"rider": pred.names[i], "bib": pred.numbers[i], "type": f"wv_type_{pred.types[i]}",
             "win": ci(pred.wins[i]), "podium": ci(pred.podiums[i]), "top10": ci(pred.top10[i])}
            for i in pred.order()]
    types = [{"type": f"wv_type_{t}", "win": ci(w), "podium_places": p / n}
             for t, (w, p) in sorted(pred.by_type().items(), key=lambda kv: -kv[1][0])]
    return {
        "title": {"key": "nm_title_wielersim", "route": {"key": f"wv_route_{route}"},
                  "peloton": {"key": f"wv_peloton_{peloton}"}, "n": n,
                  "seed": str(seed)},
        "tables": [
            {"id": "riders", "title": "nm_table_riders", "columns": [
                col("rider", "nm_col_rider"), col("bib", "nm_col_bib", "int"),
                col("type", "nm_col_type", "word"), col("win", "nm_col_win", "ci"),
                col("podium", "nm_col_podium", "ci"), col("top10", "nm_col_top10", "ci")],
             "rows": rows},
            {"id": "types", "title": "nm_table_types", "columns": [
                col("type", "nm_col_type", "word"), col("win", "nm_col_win", "ci"),
                col("podium_places", "nm_col_podium_places", "num")], "rows": types},
        ],
        "chart": {"table": "riders", "label": "rider", "values": ["win", "podium"],
                  "top": 12},
    }
