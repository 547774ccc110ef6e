"""WielerSIM's browser face: watch one race, or a saved stage race (a campaign).

Found by discovery as the game's ``watch`` face: the web app mounts :data:`router`.
The engine rides every race on the server; the browser gets a *film*: the route (its
profile drawn by :func:`raceday.games.wielersim.drawing.profile`), the riders, and one
frame per turn (the state's own :meth:`~WielersimState.frame`, with the commentary's
ticker items as messages the page renders from the game's message tables), then the
result (:mod:`raceday.games.wielersim.filming`). Watching live is a watch room
(:mod:`raceday.games.wielersim.room`): the server plays one frame a paced step to every
screen; the whole film of a saved stage (``stages/{i}``) is for replays, where the reader
scrubs. Nothing is decided in the browser.

Campaigns are the very records ``raceday wielersim tour`` saves, one per ridden stage
(:mod:`raceday.games.wielersim.campaign`) in the server's database, so a stage race
started in the terminal can be continued here and the other way round. Stage ``i`` always
rides with the generator spawned for ``i`` from the campaign's seed, so a stage is the
same race whichever face rides it, and any stage already ridden can be ridden again as a
film (a replay) that must give the record that was saved (checked; a mismatch is an
error, never a silently different race). Riding a stage saves its record (the stage's
moves and result) with the store's compare-and-swap: if the terminal saved the stage
first, the browser is told so.
Request bodies are the models of :mod:`raceday.games.wielersim.choices`.

REST (JSON; errors are ``{"error": "..."}`` with a 4xx status):

* ``GET /wielersim`` — the page (served by the app from ``static/page.json``);
* ``GET /api/wielersim/choices`` — shipped routes, pelotons and stage races;
* ``POST /api/wielersim/race`` ``{"route", "peloton", "seed"?}`` — the film of one race;
* ``GET /api/wielersim/campaigns?limit=&offset=`` — one page of the stage races whose
  owner keys the browser sends (``X-Campaign-Keys``; see :mod:`.owners`);
* ``POST /api/wielersim/campaigns`` ``{"tour", "peloton", "name"?, "seed"?}`` — a new one;
  the answer carries its owner ``key`` (only this answer);
* ``DELETE /api/wielersim/campaigns/{name}`` — delete it (its key needed);
* ``GET /api/wielersim/campaigns/{name}`` — its stages, tables after each stage, GC chart;
* ``POST /api/wielersim/campaigns/{name}/ride`` ``{"stage": i}`` — ride the next stage
  (``i`` must be the next one) and save it (its key needed: ``X-Campaign-Key``);
* ``POST /api/wielersim/campaigns/{name}/watch`` ``{"stage": i}`` — a watch room for stage
  ``i`` (the next one is ridden and saved first; its key needed): ``{"code",
  "host_token", ...}``;
* ``GET /api/wielersim/campaigns/{name}/stages/{i}`` — the film of a ridden stage;
* ``GET /api/wielersim/lesson`` — the lesson's first race (``/wielersim?lesson=wielersim``,
  the last step of ``/learn/wielersim``): its route (as :func:`route_info` draws it) and
  peloton, both from the lesson's own data (``lessons/basics.json``);
* ``POST /api/wielersim/lesson`` ``{}`` — a watch room for that race, with a fresh seed:
  ``{"code", "host_token", ...}``. The page sends no route (a body naming one is refused):
  the server takes it from the lesson.

New campaigns and watch rooms take from the server's one creation allowance of the client
address (429); an address keeps at most ``campaigns_per_address`` campaigns (429) and the
server ``max_campaigns`` (409), both :func:`raceday.web.app.create_app` parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from raceday.core.errors import RacedayError
from raceday.games.wielersim.choices import (
    PELOTONS,
    CampaignBody,
    LessonBody,
    RaceBody,
    RideBody,
)
from raceday.games.wielersim.commentary import Commentator
from raceday.games.wielersim.filming import next_frame, result_rows, riders_info, route_info
from raceday.games.wielersim.game import GAME as ENGINE
from raceday.games.wielersim.owners import KEY_HEADER, KEYS_HEADER, Owners, parse_keys
from raceday.games.wielersim.peloton import Peloton
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.rules import WielersimState, peloton_spec
from raceday.present import refusal
from raceday.store.sessions import SessionStore

GAME = "wielersim"
GC_SERIES = 8  # riders drawn on the GC chart
PAGE = 20  # campaigns listed a page by default
MAX_PAGE = 100
TABLE_ROWS = 10

router = APIRouter()


class WatchError(RacedayError):
    """A request the watch page refuses (400, or 404/409 as raised)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def refused(key: str, status: int = 400, **params: Any) -> WatchError:
    """A WatchError in words of the game's table (``refusal.<key>``), told in English and
    sent with its message so the page words it in its reader's language."""
    error = refusal(WatchError, f"{GAME}.refusal.{key}", **params)
    error.status = status
    return error


def store_of(request: Request) -> SessionStore:
    """The CLI's session store in the server's database file."""
    return SessionStore(request.app.state.rooms.store.path)


def owners_of(request: Request) -> Owners:
    """The owner keys of the server's campaigns (:mod:`.owners`)."""
    state = request.app.state
    found: Owners | None = getattr(state, "wielersim_owners", None)
    if found is None:
        found = state.wielersim_owners = Owners(state.rooms.store.path)
    return found


def server_machine(request: Request) -> bool:
    """A request from the server's own machine: a loopback peer and no proxy between."""
    import ipaddress

    peer = request.client.host if request.client else ""
    try:
        loopback = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        return False
    return loopback and "x-forwarded-for" not in request.headers


def may_ride(request: Request, name: str) -> bool:
    """Whether this request may ride, watch or delete the campaign ``name``: its key, or
    (for a campaign without owner: the terminal's) the server's own machine."""
    owners = owners_of(request)
    if owners.opens(name, request.headers.get(KEY_HEADER)):
        return True
    return server_machine(request) and not owners.owned(name)


def _not_yours(name: str) -> JSONResponse:
    return _refused(refused("campaign_key", 403, name=repr(name)))


def _creation_refusal(request: Request) -> Response | None:
    """The server's one creation allowance of this client address (429), if it is spent."""
    check = getattr(request.app.state, "creation_refusal", None)
    answer: Response | None = None if check is None else check(request)
    return answer


# --- the film of one race ---------------------------------------------------------------
def film(state: WielersimState, rng: np.random.Generator) -> dict[str, Any]:
    """Ride ``state`` to the end with ``rng`` and return its frames, one per turn (see
    :mod:`raceday.games.wielersim.filming`), then the result."""
    talk = Commentator()
    frames: list[dict[str, Any]] = []
    while not state.is_terminal():
        frames.append(next_frame(state, rng, talk))
    return {"route": route_info(state), "riders": riders_info(state.peloton),
            "jersey": state.peloton_spec.get("jersey"), "frames": frames,
            "result": result_rows(state)}


def race_film(choice: RaceBody) -> dict[str, Any]:
    """The film of the race ``choice`` names, ridden from its seed."""
    state = ENGINE.new_state(choice.options())
    out = film(state, np.random.default_rng(choice.seed))
    out["seed"] = str(choice.seed)
    return out


# --- the lesson's first race -------------------------------------------------------------
def lesson_options() -> dict[str, Any]:
    """The options of the lesson's first race, from its play step (its own short route and
    peloton: data shipped with the game, never a page's)."""
    from raceday.core.lesson import load_lesson

    plays = [step.play for step in load_lesson(GAME).steps if step.play is not None]
    if not plays:
        raise refused("no_lesson_race", 404)
    return dict(plays[-1].options)


def lesson_race() -> dict[str, Any]:
    """The lesson's first race as the watch page shows it before it is ridden."""
    options = lesson_options()
    state = ENGINE.new_state(ENGINE.options(options))
    peloton = options.get("peloton")
    return {"route": route_info(state), "riders": len(state.peloton.riders),
            "peloton": peloton if isinstance(peloton, str) else None}


# --- campaigns --------------------------------------------------------------------------
def campaign_summary(store: SessionStore, name: str) -> dict[str, Any]:
    from raceday.games.wielersim.campaign import load_campaign
    from raceday.games.wielersim.stage import stage_count

    c = load_campaign(store, name)
    return {"name": name, "tour": c.tour["name"], "done": c.next_stage,
            "total": stage_count(c.tour), "finished": c.finished}


def list_campaigns(store: SessionStore, names: list[tuple[str, bool]]) -> list[dict[str, Any]]:
    """The summaries of the campaigns ``names`` ((name, has an owner) pairs)."""
    out = []
    for name, owned in names:
        try:
            out.append({**campaign_summary(store, name), "owner": owned})
        except RacedayError:
            continue  # not a stage race's records: not listed
    return out


def _who(peloton: Peloton, number: int) -> dict[str, Any]:
    r = peloton.riders[peloton.index_of(number)]
    return {"number": number, "name": r.name, "team": peloton.teams[r.team],
            "type": r.type_name}


def campaign_view(store: SessionStore, name: str) -> dict[str, Any]:
    """The campaign for the page: stages (ridden or not), the stage results and the four
    classifications after every ridden stage, and the GC chart's series."""
    from raceday.games.wielersim.campaign import load_campaign
    from raceday.games.wielersim.commentary import stage_message, stage_name
    from raceday.games.wielersim.stage import stage_count

    c = load_campaign(store, name)
    peloton = c.peloton
    total = stage_count(c.tour)
    stages = []
    for i in range(total):
        info: dict[str, Any] = {"index": i, "name": stage_name(c.tour, i),
                                "words": stage_message(c.tour, i).to_json(),
                                "ridden": i < c.next_stage,
                                "prologue": bool(c.tour["prologue"]) and i == 0}
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
    from raceday.games.wielersim.commentary import stage_message, stage_name
    from raceday.games.wielersim.stage import (
        ride_stage,
        stage_record,
        stage_rng,
        start_stage,
    )

    c = load_campaign(store, name)
    if not 0 <= index < c.next_stage:
        raise refused("stage_not_ridden", 404, stage=index, name=repr(name),
                      done=c.next_stage)
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
        raise refused("stage_differs", 409, stage=index + 1, name=repr(name))
    out.update({"campaign": name, "stage": index, "stage_name": stage_name(c.tour, index),
                "stage_words": stage_message(c.tour, index).to_json()})
    return out


def stage_room_options(store: SessionStore, name: str, index: int) -> dict[str, Any]:
    """The watch room's options for ridden stage ``index`` of the stage race ``name``: its
    route, the peloton, the jersey on the GC leader, and the stage race's seed with the
    stage's number, so the room rides the stage with the generator spawned for it and shows
    the race that was saved (:mod:`raceday.games.wielersim.room`)."""
    from raceday.games.wielersim.campaign import load_campaign
    from raceday.games.wielersim.commentary import stage_name

    c = load_campaign(store, name)
    if not 0 <= index < c.next_stage:
        raise refused("stage_not_ridden", 404, stage=index, name=repr(name),
                      done=c.next_stage)
    road = index - int(c.tour["prologue"])
    if road < 0:
        raise refused("prologue_no_film")
    jersey = c.standings(index).leader if index else c.peloton_spec.get("jersey")
    return {"route": c.tour["stages"][road]["route"], "peloton": dict(c.peloton_spec),
            "jersey": jersey, "seed": c.seed, "stage": index, "campaign": name,
            "title": stage_name(c.tour, index)}


def ride_next(store: SessionStore, name: str, stage: int) -> dict[str, Any]:
    """Ride the campaign's next stage (it must be ``stage``) and save its record."""
    from raceday.games.wielersim.campaign import load_campaign

    c = load_campaign(store, name)
    if c.finished:
        raise refused("tour_over", 409, name=repr(name))
    if stage != c.next_stage:
        raise refused("not_next_stage", 409, stage=stage + 1, name=repr(name),
                      done=c.next_stage)
    c.ride()  # its record saved; compare-and-swap: refused if the terminal saved it first
    return {"name": name, "stage": stage, "done": c.next_stage}


def new_campaign_from(store: SessionStore, choice: CampaignBody) -> dict[str, Any]:
    """Start and save the stage race ``choice`` names."""
    from raceday.games.wielersim.campaign import new_campaign
    from raceday.games.wielersim.stage import resolve_tour

    tour = resolve_tour(choice.tour)
    name = choice.name or f"{tour['name']} {choice.seed}"
    c = new_campaign(store, name, tour, peloton_spec(choice.peloton), choice.seed)
    return campaign_summary(store, c.name)


# --- routes -----------------------------------------------------------------------------
def _refused(exc: RacedayError) -> JSONResponse:
    """A refusal as its answer: 404 for what is not saved, 409 for a clash, else 400."""
    text = str(exc)
    status = getattr(exc, "status", None)
    if isinstance(status, int) and 400 <= status < 500:
        code = status
    else:
        code = 404 if text.startswith("no saved") else (409 if "changed since" in text or
                                                       "already" in text else 400)
    words = {} if exc.message is None else {"words": exc.message.to_json()}
    return JSONResponse({"error": text, **words}, status_code=code)


def _answer(make: Callable[[], dict[str, Any]], status: int = 200) -> JSONResponse:
    try:
        return JSONResponse(make(), status_code=status)
    except RacedayError as exc:
        return _refused(exc)


async def _in_thread(make: Callable[[], dict[str, Any]], status: int = 200) -> JSONResponse:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_answer, make, status)


_REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"content": {"application/json": {"schema": {
        "type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}}}}
    for status in (400, 403, 404, 409, 413, 415, 429)}
_READ_REFUSALS: dict[int | str, dict[str, Any]] = {  # a GET's
    status: _REFUSALS[status] for status in (400, 404, 409)}


@router.get("/api/wielersim/choices")
def choices() -> JSONResponse:
    from raceday.games.wielersim.stage import SHIPPED_TOURS

    return JSONResponse({"routes": list(SHIPPED_ROUTES), "pelotons": list(PELOTONS),
                         "tours": list(SHIPPED_TOURS)})


def race_answer(body: RaceBody) -> JSONResponse:
    """The answer to ``POST /api/wielersim/race``: the work the server's heavy-work pool
    does (module-level, a picklable argument)."""
    return _answer(lambda: race_film(body))


@router.post("/api/wielersim/race", responses=_REFUSALS)
async def one_race(body: RaceBody, request: Request) -> Response:
    """The film of one race, ridden in the server's heavy-work pool
    (``app.state.heavy``: :mod:`raceday.web.heavy`, a fair share and an allowance per
    address). A race with the seed it names is the same race every time, so its film is
    cached and shared; one asked for without a seed is a fresh race, never cached."""
    heavy = getattr(request.app.state, "heavy", None)
    if heavy is None:
        return await _in_thread(lambda: race_film(body))
    key = ("wielersim-race", body.route, body.peloton, body.seed) \
        if "seed" in body.model_fields_set else None
    answer: Response = await heavy.answer(request, key, race_answer, body)
    return answer


@router.get("/api/wielersim/campaigns", responses=_REFUSALS)
def campaigns(request: Request, limit: int = Query(PAGE, ge=1, le=MAX_PAGE),
              offset: int = Query(0, ge=0, le=1_000_000)) -> JSONResponse:
    """One page of the stage races this browser holds keys of (header ``X-Campaign-Keys``,
    comma-separated), newest first; from the server's own machine also those without
    owner (the terminal's)."""
    def make() -> dict[str, Any]:
        names, total = owners_of(request).page(
            parse_keys(request.headers.get(KEYS_HEADER)), limit, offset,
            ownerless=server_machine(request))
        after = offset + len(names)
        return {"campaigns": list_campaigns(store_of(request), names), "total": total,
                "limit": limit, "offset": offset,
                "next_offset": after if after < total else None}

    return _answer(make)


@router.post("/api/wielersim/campaigns", status_code=201, responses=_REFUSALS)
async def create_campaign(body: CampaignBody, request: Request) -> Response:
    """A new stage race; the answer carries its owner key (only this answer does)."""
    spent = _creation_refusal(request)
    if spent is not None:
        return spent
    state = request.app.state
    address = str(state.client_of(request.scope)) if hasattr(state, "client_of") else "?"
    owners = owners_of(request)

    def make() -> dict[str, Any]:
        most = int(getattr(state, "campaigns_per_address", 20))
        if owners.held_by(address) >= most:
            raise refused("campaigns_per_address", 429, max=most)
        kept = int(getattr(state, "max_campaigns", 500))
        if owners.total() >= kept:
            raise refused("too_many_campaigns", 409, max=kept)
        made = new_campaign_from(store_of(request), body)
        return {**made, "key": owners.add(made["name"], address)}

    answer = await _in_thread(make, 201)
    if answer.status_code == 201:
        answer.headers["Cache-Control"] = "no-store"
    return answer


@router.delete("/api/wielersim/campaigns/{name}", responses=_REFUSALS)
async def delete_campaign(name: str, request: Request) -> JSONResponse:
    """Delete a stage race (its key needed)."""
    if not may_ride(request, name):
        return _not_yours(name)
    owners_of(request).forget(name)
    return JSONResponse({"name": name, "deleted": True})


@router.get("/api/wielersim/campaigns/{name}", responses=_READ_REFUSALS)
def campaign(name: str, request: Request) -> JSONResponse:
    return _answer(lambda: campaign_view(store_of(request), name))


@router.post("/api/wielersim/campaigns/{name}/ride", responses=_REFUSALS)
async def ride(name: str, body: RideBody, request: Request) -> JSONResponse:
    """Ride the campaign's next stage and save it (its key needed)."""
    if not may_ride(request, name):
        return _not_yours(name)
    return await _in_thread(lambda: ride_next(store_of(request), name, body.stage))


@router.post("/api/wielersim/campaigns/{name}/watch", status_code=201, responses=_REFUSALS)
async def watch_stage(name: str, body: RideBody, request: Request) -> Response:
    """A watch room for a stage: the next one is ridden and saved first, a ridden one is
    watched again. The answer is the room's code and the host's token, as a new room's
    (its key needed; a new room takes from the creation allowance and counts against the
    address's rooms as ``POST /api/rooms`` does)."""
    from starlette.concurrency import run_in_threadpool

    if not may_ride(request, name):
        return _not_yours(name)
    spent = _creation_refusal(request)
    if spent is not None:
        return spent
    state = request.app.state
    owner = str(state.client_of(request.scope)) if hasattr(state, "client_of") else None
    try:  # the caps first: nothing is ridden for a room that would be refused
        state.rooms.make_way(owner)
    except RacedayError as exc:
        return _refused(exc)

    def prepare() -> dict[str, Any]:
        from raceday.games.wielersim.campaign import load_campaign

        store = store_of(request)
        c = load_campaign(store, name)
        if c.tour["prologue"] and body.stage == 0:  # refused before anything is ridden
            raise refused("prologue_no_film")
        if body.stage == c.next_stage:
            ride_next(store, name, body.stage)
        return stage_room_options(store, name, body.stage)

    try:
        options = await run_in_threadpool(prepare)
        room, token = state.rooms.create(GAME, options, owner=owner)
    except RacedayError as exc:
        return _refused(exc)
    return JSONResponse({"code": room.code, "game": GAME, "host_token": token,
                         "host_url": f"/host/{room.code}"}, status_code=201,
                        headers={"Cache-Control": "no-store"})


@router.get("/api/wielersim/lesson", responses=_READ_REFUSALS)
def lesson() -> JSONResponse:
    """The lesson's first race: its route and peloton (see the module text)."""
    return _answer(lesson_race)


@router.post("/api/wielersim/lesson", status_code=201, responses=_REFUSALS)
async def watch_lesson(body: LessonBody, request: Request) -> Response:
    """A watch room for the lesson's first race, on the lesson's own route (taken from the
    lesson: the body ``{}`` names nothing), with a fresh seed; it takes from the creation
    allowance and counts against the address's rooms as ``POST /api/rooms`` does."""
    spent = _creation_refusal(request)
    if spent is not None:
        return spent
    state = request.app.state
    owner = str(state.client_of(request.scope)) if hasattr(state, "client_of") else None
    try:
        state.rooms.make_way(owner)
        room, token = state.rooms.create(GAME, {**lesson_options(), "lesson": True},
                                         owner=owner)
    except RacedayError as exc:
        return _refused(exc)
    return JSONResponse({"code": room.code, "game": GAME, "host_token": token,
                         "host_url": f"/host/{room.code}"}, status_code=201,
                        headers={"Cache-Control": "no-store"})


def stage_answer(path: str, name: str, index: int) -> JSONResponse:
    """The answer to ``GET .../stages/{index}``: the work of the server's heavy-work pool
    (the stage is ridden again)."""
    return _answer(lambda: stage_film(SessionStore(path), name, index))


@router.get("/api/wielersim/campaigns/{name}/stages/{index}",
            responses={**_READ_REFUSALS, 429: _REFUSALS[429]})
async def stage(name: str, index: int, request: Request) -> Response:
    """The film of a ridden stage, ridden again in the server's heavy-work pool (not
    cached: a stage race's name may name another one later)."""
    path = str(request.app.state.rooms.store.path)
    heavy = getattr(request.app.state, "heavy", None)
    if heavy is None:
        return await _in_thread(lambda: stage_film(SessionStore(path), name, index))
    answer: Response = await heavy.answer(request, None, stage_answer, path, name, index)
    return answer
