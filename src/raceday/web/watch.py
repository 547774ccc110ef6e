"""Watch WielerSIM in the browser: one race, or a saved stage race (a campaign).

The engine rides every race on the server; the browser gets a *film*: the route (its
profile drawn by :func:`raceday.games.wielersim.drawing.profile`), the riders, and one frame per
turn (every rider's square and lane, the groups, and a ticker of what happened: attacks,
counters, crashes, breaks, climb tops, sprint results, the first finishers), then the
result. The page plays the frames at the speed the viewer chooses; nothing is decided in
the browser.

Campaigns are the very documents ``raceday wielersim tour`` saves
(:mod:`raceday.games.wielersim.campaign`) in the server's database, so a stage race
started in the terminal can be continued here and the other way round. Stage ``i`` always
rides with the generator spawned for ``i`` from the campaign's seed, so a stage is the
same race whichever face rides it, and any stage already ridden can be ridden again as a
film (a replay) that must give the record that was saved (checked; a mismatch is an
error, never a silently different race). Riding a stage saves its record with the
store's compare-and-swap: if the terminal saved the stage first, the browser is told so.

REST (JSON; errors are ``{"error": "..."}`` with a 4xx status):

* ``GET /wielersim`` — the page;
* ``GET /api/wielersim/choices`` — shipped routes, pelotons and stage races;
* ``POST /api/wielersim/race`` ``{"route", "peloton", "seed"?}`` — the film of one race;
* ``GET /api/wielersim/campaigns`` — the saved stage races;
* ``POST /api/wielersim/campaigns`` ``{"tour", "peloton", "name"?, "seed"?}`` — a new one;
* ``GET /api/wielersim/campaigns/{name}`` — its stages, tables after each stage, GC chart;
* ``POST /api/wielersim/campaigns/{name}/ride`` ``{"stage": i}`` — ride the next stage
  (``i`` must be the next one) and save it;
* ``GET /api/wielersim/campaigns/{name}/stages/{i}`` — the film of a ridden stage.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from raceday.core.digits import ascii_int
from raceday.core.errors import RacedayError
from raceday.core.events import Event
from raceday.drawing.svg import num as svg_num
from raceday.games.wielersim import drawing
from raceday.games.wielersim.model import RIDER_TYPES, UPHILL
from raceday.games.wielersim.peloton import START_LISTS, Peloton
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.rules import WielersimState, groups_of, peloton_spec, route_spec
from raceday.store.sessions import SessionStore

GAME = "wielersim"
STATIC = Path(__file__).parent / "static"
PROFILE_WIDTH = 300.0  # the profile's user units (the drawing module draws in mm)
PROFILE_HEIGHT = 62.0
BREAK_MAX = 6  # a front group this small, clear of the rest, is "a break" (as the CLI says)
WATCHED_GROUPS = 3
MOVES = frozenset(("attack", "counter", "steering_error", "acceleration"))
PELOTONS = ("classics", "small", *START_LISTS)
MAX_NAME = 60
MAX_SEED = 2**63 - 1
GC_SERIES = 8  # riders drawn on the GC chart
TABLE_ROWS = 10

router = APIRouter()


class WatchError(RacedayError):
    """A request the watch page refuses (400, or 404/409 as raised)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def store_of(request: Request) -> SessionStore:
    """The CLI's session store in the server's database file."""
    return SessionStore(request.app.state.rooms.store.path)


def page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


def check_seed(value: object) -> int:
    """A seed as a number or as digits (a browser's numbers are exact only to 2**53, so the
    pages send seeds as text); none: a fresh one below 2**53, exact in any browser."""
    if value is None or value == "":
        return secrets.randbits(53)
    if isinstance(value, str):
        value = ascii_int(value, max_digits=19)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise WatchError("seed must be a whole number from 0 to 2**63 - 1")
    return value


def check_choice(value: object, allowed: Sequence[str], what: str) -> str:
    """A shipped name only: the browser never names files on the server."""
    if not isinstance(value, str) or value not in allowed:
        raise WatchError(f"{what} must be one of {', '.join(allowed)}")
    return value


def check_fields(body: Mapping[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise WatchError(f"unknown field(s): {', '.join(unknown)}")


# --- the film of one race ---------------------------------------------------------------
def route_info(state: WielersimState) -> dict[str, Any]:
    """The route for the page: its profile drawing, where each square's surface is on it,
    the climbs, sprints and cobbles."""
    route = state.route
    n = route.distance
    drawn = drawing.profile(route, 0, 0, PROFILE_WIDTH, PROFILE_HEIGHT)
    # the same geometry as drawing.wielersim.profile: where a rider stands on square p
    band = 5.0
    base = PROFILE_HEIGHT - band - 7
    unit = (PROFILE_HEIGHT - band - 16) / 7
    step = PROFILE_WIDTH / n
    surface = [round(base - unit * (0.6 + (route.steepness[p] if route.road[p] == UPHILL
                                           else 0)), 2) for p in range(n)]
    return {
        "name": route.name, "distance": n, "finish": route.finish,
        "width": PROFILE_WIDTH, "height": PROFILE_HEIGHT, "step": float(svg_num(step)),
        "surface": surface, "svg": drawn,
        "climbs": [{"name": c.name, "top": c.top, "category": c.category,
                    "steepness": c.max_steepness} for c in route.climbs],
        "sprints": list(route.sprints),
        "sections": [{"name": s.name, "start": s.start, "end": s.end,
                      "colour": RIDER_TYPES[s.colour], "road": s.road} for s in route.sections],
    }


def riders_info(peloton: Peloton) -> list[dict[str, Any]]:
    return [{"number": r.number, "name": r.name, "team": peloton.teams[r.team],
             "type": r.type_name} for r in peloton.riders]


class Ticker:
    """What the ticker says about one turn: the moves of riders who matter (the first
    groups, as the terminal's commentary), crashes, climb tops, sprints, finishes, and
    breaks forming and being caught. Items are data; the page words them."""

    def __init__(self) -> None:
        self.break_riders: frozenset[int] = frozenset()

    def items(self, state: WielersimState, events: Sequence[Event]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        road = state.on_road()
        groups = groups_of(road, state.pos) if road else []
        finished_now = {e["rider"] for e in events if e.kind == "finish"}
        watched = {state.num(r) for g in groups[:WATCHED_GROUPS] for r in g} | finished_now
        if len(state.results) > len(finished_now):
            watched = set()
        for e in events:
            k = e.kind
            if k in MOVES and e["rider"] not in watched:
                continue
            if k == "weather":
                out.append({"k": "weather", "rain": bool(e["rain"]), "start": e["turn"] == 0})
            elif k in ("attack", "counter", "flat_tyre", "steering_error", "acceleration",
                       "evade"):
                out.append({"k": k, "rider": e["rider"]})
            elif k == "crash" and e.get("caused"):
                out.append({"k": "crash", "rider": e["rider"], "behind": list(e.get("behind", []))})
            elif k == "climb_top":
                out.append({"k": "climb", "rider": e["rider"], "climb": e["climb"],
                            "category": e["category"]})
            elif k == "sprint_result":
                out.append({"k": "sprint", "sprint": e["sprint"],
                            "ranking": list(e["ranking"][:3])})
            elif k == "finish" and e["place"] <= 3:
                out.append({"k": "finish", "rider": e["rider"], "place": e["place"],
                            "gap": e["gap"]})
        if road and not state.results:
            front = frozenset(groups[0])
            if len(groups) > 1 and len(front) <= BREAK_MAX:
                if front != self.break_riders:
                    gap = state.pos[groups[0][0]] - state.pos[groups[1][0]]
                    out.append({"k": "break", "riders": sorted(state.num(r) for r in front),
                                "gap": gap})
                    self.break_riders = front
            elif self.break_riders:
                out.append({"k": "caught"})
                self.break_riders = frozenset()
        return out


def frame(state: WielersimState, turn: int, items: list[dict[str, Any]]) -> dict[str, Any]:
    road = state.on_road()
    groups = groups_of(road, state.pos) if road else []
    return {
        "turn": turn, "rain": state.rain,
        "riders": [[state.num(r), state.pos[r], state.lane[r]] for r in road],
        "groups": [[min(state.pos[r] for r in g), max(state.pos[r] for r in g),
                    [state.num(r) for r in g]] for g in groups],
        "finished": len(state.results),
        "items": items,
    }


def film(state: WielersimState, rng: np.random.Generator) -> dict[str, Any]:
    """Ride ``state`` to the end with ``rng`` (throw by throw, as ``raceday wielersim
    watch`` and ``tour`` do) and return its frames, one per turn."""
    ticker = Ticker()
    frames: list[dict[str, Any]] = []
    pending: list[Event] = []
    turn = state.turn
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        pending.extend(state.apply_action(draw.outcome, draw.detail))
        if state.turn != turn or state.is_terminal():
            frames.append(frame(state, turn, ticker.items(state, pending)))
            pending = []
            turn = state.turn
    points = state.sprint_points()
    mountains = state.mountain_points()
    result = [{"place": i + 1, "number": state.num(r), "gap": gap,
               "points": points[r], "mountains": mountains[r]}
              for i, (r, gap, _) in enumerate(state.results)]
    return {"route": route_info(state), "riders": riders_info(state.peloton),
            "jersey": state.peloton_spec.get("jersey"), "frames": frames, "result": result}


def race_film(route: str, peloton: str, seed: int) -> dict[str, Any]:
    from raceday.games.wielersim.game import GAME as ENGINE

    state = ENGINE.new_state({"route": route_spec(route), "peloton": peloton_spec(peloton)})
    out = film(state, np.random.default_rng(seed))
    out["seed"] = str(seed)
    return out


# --- campaigns --------------------------------------------------------------------------
def campaign_summary(store: SessionStore, name: str) -> dict[str, Any]:
    from raceday.games.wielersim.campaign import load_campaign
    from raceday.games.wielersim.stage import stage_count

    c = load_campaign(store, name)
    return {"name": name, "tour": c.tour["name"], "done": c.next_stage,
            "total": stage_count(c.tour), "finished": c.finished}


def list_campaigns(store: SessionStore) -> list[dict[str, Any]]:
    out = []
    for name in store.names(GAME):
        try:
            out.append(campaign_summary(store, name))
        except RacedayError:
            continue  # not a campaign document: not listed
    return out


def _who(peloton: Peloton, number: int) -> dict[str, Any]:
    r = peloton.riders[peloton.index_of(number)]
    return {"number": number, "name": r.name, "team": peloton.teams[r.team],
            "type": r.type_name}


def campaign_view(store: SessionStore, name: str) -> dict[str, Any]:
    """The campaign for the page: stages (ridden or not), the stage results and the four
    classifications after every ridden stage, and the GC chart's series."""
    from raceday.games.wielersim.campaign import load_campaign
    from raceday.games.wielersim.stage import stage_count, stage_name

    c = load_campaign(store, name)
    peloton = c.peloton
    total = stage_count(c.tour)
    stages = []
    for i in range(total):
        info: dict[str, Any] = {"index": i, "name": stage_name(c.tour, i),
                                "ridden": i < c.next_stage}
        if i < c.next_stage:
            rec = c.records[i]
            st = c.standings(i + 1)
            lead = st.gc[0][1] if st.gc else 0
            best_team = st.teams[0][1] if st.teams else 0
            info.update({
                "kind": rec["kind"],
                "result": [{**_who(peloton, n), "gap": gap,
                            "bonus": int(rec["bonus"].get(str(n), 0))}
                           for n, gap in rec["results"][:TABLE_ROWS]],
                "gc": [{**_who(peloton, n), "gap": t - lead} for n, t in st.gc[:TABLE_ROWS]],
                "points": [{**_who(peloton, n), "points": p} for n, p in st.points[:TABLE_ROWS]],
                "mountains": [{**_who(peloton, n), "points": p}
                              for n, p in st.mountains[:TABLE_ROWS]],
                "teams": [{"team": peloton.teams[t], "gap": s - best_team}
                          for t, s in st.teams[:TABLE_ROWS]],
            })
        stages.append(info)
    series: list[dict[str, Any]] = []
    if c.records:
        final = c.standings()
        top = [n for n, _ in final.gc[:GC_SERIES]]
        gaps: dict[int, list[int]] = {n: [] for n in top}
        for k in range(1, c.next_stage + 1):
            after = c.standings(k)
            lead = after.gc[0][1]
            times = dict(after.gc)
            for n in top:
                gaps[n].append(times[n] - lead)
        series = [{**_who(peloton, n), "gaps": gaps[n]} for n in top]
    return {"name": name, "tour": c.tour["name"], "seed": c.seed, "done": c.next_stage,
            "total": total, "finished": c.finished, "stages": stages, "gc_chart": series}


def stage_film(store: SessionStore, name: str, index: int) -> dict[str, Any]:
    """The film of a ridden stage, ridden again from the campaign's seed; it must give the
    saved record (the same dice give the same race)."""
    from raceday.games.wielersim.campaign import load_campaign
    from raceday.games.wielersim.stage import (
        ride_stage,
        stage_name,
        stage_record,
        stage_rng,
        start_stage,
    )

    c = load_campaign(store, name)
    if not 0 <= index < c.next_stage:
        raise WatchError(f"stage {index + 1} of {name!r} has not been ridden yet "
                         f"({c.next_stage} done)", 404)
    records = c.records
    jersey = c.standings(index).leader if index else c.peloton_spec.get("jersey")
    state = start_stage(c.tour, c.peloton_spec, index, jersey)
    rng = stage_rng(c.seed, index)
    if state is None:  # the prologue: a throw of dice per rider, no road
        record = ride_stage(c.tour, c.peloton_spec, index, records[:index], c.seed, rng=rng)
        out: dict[str, Any] = {"prologue": True, "riders": riders_info(c.peloton),
                               "frames": [], "result": [{"place": i + 1, "number": n,
                                                         "gap": gap, "points": 0,
                                                         "mountains": 0}
                                                        for i, (n, gap) in
                                                        enumerate(record["results"])]}
    else:
        out = film(state, rng)
        record = stage_record(state, stage_name(c.tour, index), bonuses=c.tour["bonuses"],
                              flat_stage_race=c.tour["flat_stage_race"])
    if record != records[index]:
        raise WatchError(f"stage {index + 1} of {name!r} rides differently from its saved "
                         "record (saved by another version of raceday?)", 409)
    out.update({"campaign": name, "stage": index, "stage_name": stage_name(c.tour, index)})
    return out


def ride_next(store: SessionStore, name: str, stage: object) -> dict[str, Any]:
    """Ride the campaign's next stage (it must be ``stage``) and save its record."""
    from raceday.games.wielersim.campaign import load_campaign
    from raceday.games.wielersim.stage import ride_stage

    c = load_campaign(store, name)
    if c.finished:
        raise WatchError(f"{name!r} is over: every stage has been ridden", 409)
    if isinstance(stage, bool) or not isinstance(stage, int):
        raise WatchError("stage must be the number of the next stage (0 for the first)")
    if stage != c.next_stage:
        raise WatchError(f"stage {stage + 1} is not the next stage of {name!r}: "
                         f"{c.next_stage} stages are done (saved elsewhere?); reload", 409)
    record = ride_stage(c.tour, c.peloton_spec, stage, c.records, c.seed)
    c.add_record(record)  # compare-and-swap: refused if the terminal saved it first
    return {"name": name, "stage": stage, "done": c.next_stage}


def new_campaign_from(store: SessionStore, body: Mapping[str, Any]) -> dict[str, Any]:
    from raceday.games.wielersim.campaign import new_campaign
    from raceday.games.wielersim.stage import SHIPPED_TOURS, resolve_tour

    check_fields(body, {"tour", "peloton", "name", "seed"})
    tour = resolve_tour(check_choice(body.get("tour"), SHIPPED_TOURS, "tour"))
    peloton = peloton_spec(check_choice(body.get("peloton"), PELOTONS, "peloton"))
    seed = check_seed(body.get("seed"))
    name = body.get("name") or f"{tour['name']} {seed}"
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or any(
            not ch.isprintable() for ch in name):
        raise WatchError(f"name must be 1 to {MAX_NAME} printable characters")
    c = new_campaign(store, name.strip(), tour, peloton, seed)
    return campaign_summary(store, c.name)


# --- routes -----------------------------------------------------------------------------
def _answer(make: Any, status: int = 200) -> JSONResponse:
    try:
        return JSONResponse(make(), status_code=status)
    except WatchError as exc:
        return error(exc.status, str(exc))
    except RacedayError as exc:
        text = str(exc)
        code = 404 if text.startswith("no saved") else (409 if "changed since" in text or
                                                       "already" in text else 400)
        return error(code, text)


Seed = int | str | None
SEED = Field(None, description="a whole number from 0 to 2**63 - 1, as a number or as digits "
                               "(browsers' numbers are exact only to 2**53); none: a fresh one")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RaceBody(_Body):
    """One race to film."""

    route: str = Field(max_length=80, description="a shipped route (see /api/wielersim/choices)")
    peloton: str = Field(max_length=80, description="a peloton (see /api/wielersim/choices)")
    seed: Seed = SEED


class CampaignBody(_Body):
    """A new stage race, saved in the server's database."""

    tour: str = Field(max_length=80, description="a shipped stage race")
    peloton: str = Field(max_length=80, description="a peloton")
    name: str | None = Field(None, max_length=4 * MAX_NAME,
                             description=f"1 to {MAX_NAME} printable characters")
    seed: Seed = SEED


class RideBody(_Body):
    """Ride the next stage: its number must be the next one (0 for the first)."""

    stage: int = Field(description="the next stage's number, from 0")

    @field_validator("stage", mode="before")
    @classmethod
    def _whole(cls, value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("stage must be the number of the next stage (0 for the first)")
        return value


_REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"content": {"application/json": {"schema": {
        "type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}}}}
    for status in (400, 403, 404, 409, 413, 415)}


@router.get("/wielersim", include_in_schema=False)
async def wielersim_page() -> FileResponse:
    return page("wielersim.html")


@router.get("/api/wielersim/choices")
def choices() -> JSONResponse:
    from raceday.games.wielersim.stage import SHIPPED_TOURS

    return JSONResponse({"routes": list(SHIPPED_ROUTES), "pelotons": list(PELOTONS),
                         "tours": list(SHIPPED_TOURS)})


@router.post("/api/wielersim/race", responses=_REFUSALS)
async def one_race(body: RaceBody) -> JSONResponse:
    """The film of one race."""

    def make() -> dict[str, Any]:
        return race_film(check_choice(body.route, SHIPPED_ROUTES, "route"),
                         check_choice(body.peloton, PELOTONS, "peloton"),
                         check_seed(body.seed))

    return await _in_thread(make)


@router.get("/api/wielersim/campaigns")
def campaigns(request: Request) -> JSONResponse:
    return _answer(lambda: {"campaigns": list_campaigns(store_of(request))})


@router.post("/api/wielersim/campaigns", status_code=201, responses=_REFUSALS)
async def create_campaign(body: CampaignBody, request: Request) -> JSONResponse:
    """A new stage race."""
    fields = body.model_dump(exclude_none=True)
    return await _in_thread(lambda: new_campaign_from(store_of(request), fields), 201)


@router.get("/api/wielersim/campaigns/{name}")
def campaign(name: str, request: Request) -> JSONResponse:
    return _answer(lambda: campaign_view(store_of(request), name))


@router.post("/api/wielersim/campaigns/{name}/ride", responses=_REFUSALS)
async def ride(name: str, body: RideBody, request: Request) -> JSONResponse:
    """Ride the campaign's next stage and save it."""
    return await _in_thread(lambda: ride_next(store_of(request), name, body.stage))


@router.get("/api/wielersim/campaigns/{name}/stages/{index}")
def stage(name: str, index: int, request: Request) -> JSONResponse:
    return _answer(lambda: stage_film(store_of(request), name, index))


async def _in_thread(make: Any, status: int = 200) -> JSONResponse:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_answer, make, status)

