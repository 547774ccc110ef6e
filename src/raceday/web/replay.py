"""Replays: every finished game or race saved by the CLI or by the party server, as steps
the page can step through, play, or jump to the end of, at a link that can be shared.

What is *finished* and how its steps are rebuilt, per source (see docs/usage/browser.md):

* **Party-server rooms** (any game): a room whose evening is over (``rooms.finished``).
  The steps are its event log (``room_events``), one step per accepted intent, in order,
  with the public events it produced and who sent it (host, a seat's name, or a
  spectator's join). Intents are never shown: they may hold a sealed bid or a ticket.
* **WielerSIM stage races** (``raceday wielersim tour``, or the Watch page): every
  ridden stage is finished. A stage is ridden again by the engine from the campaign's
  seed (stage ``i`` rides with the ``i``-th generator spawned from it), turn by turn,
  and must give the saved record; its replay is that film.
  ``/replay/wielersim/NAME`` lists the stages, ``/replay/wielersim/NAME/I`` plays one.
* **KEIRIN betting nights** (``raceday keirin play``): the session log, one step per
  settled race (order, derny, tickets and returns, purses after it).
* **Dice Derby parties** (``raceday derby play``): the session log, one step per sold
  horse and per settled race (places, first out, payouts).
* **Hairpin and PISTARD** (``play``/``watch`` in the terminal): the CLI saves the
  position after each move, not the moves, so a finished game (a terminal state) replays
  as one step: its final board and result.

Links: ``/replay`` (the list), ``/replay/room/CODE``, ``/replay/GAME/NAME`` and
``/replay/wielersim/NAME/STAGE``; the JSON behind each is under ``/api/replay/...``.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.store.sessions import SessionStore
from raceday.web.watch import WatchError, page, stage_film, store_of

GAMES = ("wielersim", "keirin", "derby", "hairpin", "pistard")
MAX_STEPS = 20_000  # steps of one replay sent to the page at most (the first ones)
MAX_LISTED = 500  # items of each kind on the list page

router = APIRouter()


def _db(request: Request) -> Path:
    return Path(request.app.state.rooms.store.path)


def _read(path: Path, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Rows of a read-only query on the server's database (the rooms' own tables)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)) as conn:
        return conn.execute(sql, args).fetchall()


# --- rooms ------------------------------------------------------------------------------
def finished_rooms(path: Path) -> list[dict[str, Any]]:
    rows = _read(path, "SELECT code, game, revision, updated FROM rooms WHERE finished = 1 "
                       "ORDER BY updated DESC LIMIT ?", (MAX_LISTED,))
    return [{"source": "room", "game": str(g), "name": str(c), "steps": int(r),
             "when": str(u), "url": f"/replay/room/{c}"} for c, g, r, u in rows]


def room_replay(path: Path, code: str) -> dict[str, Any]:
    code = code.strip().upper()
    rows = _read(path, "SELECT game, finished FROM rooms WHERE code = ?", (code,))
    if not rows:
        raise WatchError(f"there is no room {code!r} on this server", 404)
    game, finished = rows[0]
    if not finished:
        raise WatchError(f"room {code} is still being played: watch it at /watch/{code}", 409)
    names = dict(_read(path, "SELECT seat, name FROM room_seats WHERE code = ?", (code,)))
    steps = []
    for seq, actor_text, events_text in _read(
            path, "SELECT seq, actor, events FROM room_events WHERE code = ? ORDER BY seq "
                  "LIMIT ?", (code, MAX_STEPS)):
        actor = json.loads(actor_text)
        if actor.get("kind") == "seat":
            who = {"kind": "seat", "seat": actor.get("seat"),
                   "name": names.get(actor.get("seat"), "?")}
        else:
            who = {"kind": str(actor.get("kind"))}
        steps.append({"kind": "events", "seq": int(seq), "who": who,
                      "events": json.loads(events_text)})
    return {"source": "room", "game": str(game), "name": code, "steps": steps}


# --- sessions saved by the CLI ----------------------------------------------------------
def _is_finished(store: SessionStore, game: str, name: str) -> bool:
    """Whether a saved session has something finished to replay (see the module doc)."""
    try:
        if game == "wielersim":
            from raceday.games.wielersim.campaign import load_campaign

            return load_campaign(store, name).next_stage > 0
        if game in ("keirin", "derby"):
            return bool(store.log(game, name))
        return bool(_final_state(store, game, name).is_terminal())
    except (RacedayError, KeyError, TypeError, ValueError):
        return False


def _final_state(store: SessionStore, game: str, name: str) -> Any:
    doc, _ = store.load(game, name)
    if game == "hairpin":
        from raceday.games.hairpin.rules import HairpinState

        return HairpinState.from_json(doc["state"])
    from raceday.core.serialize import loads_state

    return loads_state(str(doc["state"]))


def saved_sessions(store: SessionStore) -> list[dict[str, Any]]:
    out = []
    for game in GAMES:
        for name in store.names(game)[:MAX_LISTED]:
            if _is_finished(store, game, name):
                out.append({"source": "session", "game": game, "name": name,
                            "url": f"/replay/{game}/{name}"})
    return out


def _money(cents: int) -> str:
    return f"{cents / 100:,.2f}"


def keirin_steps(store: SessionStore, name: str) -> list[dict[str, Any]]:
    steps = []
    for entry in store.log("keirin", name)[:MAX_STEPS]:
        lines = [f"Order: {'-'.join(str(r) for r in entry.get('ranking', []))}"
                 + (f" (derny {entry['derny']})" if entry.get("derny") is not None else "")]
        for t in entry.get("tickets", []):
            combo = "-".join(str(r) for r in t.get("riders", t.get("selection", [])))
            lines.append(f"{t.get('player', '?')}: {t.get('kind', '?')} {combo} "
                         f"stake {_money(int(t.get('stake', 0)))} returned "
                         f"{_money(int(t.get('returned', 0)))}")
        purses = ", ".join(f"{who} {_money(int(c))}" for who, c in
                           entry.get("bankrolls", {}).items())
        if purses:
            lines.append(f"Purses: {purses}")
        steps.append({"kind": "lines", "title": f"Race {entry.get('race', '?')}",
                      "lines": lines})
    return steps


def derby_steps(store: SessionStore, name: str) -> list[dict[str, Any]]:
    from raceday.games.derby.rules import horse_name

    doc, _ = store.load("derby", name)
    players = [str(p.get("name", "?")) for p in doc.get("players", [])]

    def who(p: Any) -> str:
        return players[p] if isinstance(p, int) and 0 <= p < len(players) else "the house"

    steps = []
    for entry in store.log("derby", name)[:MAX_STEPS]:
        if "auction" in entry:
            lot = entry["auction"]
            horse = horse_name(int(lot["post"]))
            line = (f"Post {lot['post']} ({horse}): bought by {who(lot['buyer'])} for "
                    f"{lot['price']:,}" if lot.get("buyer") is not None else
                    f"Post {lot['post']} ({horse}): no bid, the house runs it")
            steps.append({"kind": "lines", "title": f"Auction: {horse}", "lines": [line]})
        elif "race" in entry:
            race = entry["race"]
            lines = [f"1st {horse_name(int(race['first']))}, 2nd "
                     f"{horse_name(int(race['second']))}"]
            if race.get("first_out"):
                lines.append("First out: " + ", ".join(horse_name(int(h))
                                                       for h in race["first_out"]))
            for pay in race.get("payouts", []):
                lines.append(f"{who(pay['player'])}: {pay['what']} {pay['amount']:,}")
            steps.append({"kind": "lines", "title": f"Race {race.get('race', '?')}",
                          "lines": lines})
    return steps


def wielersim_steps(store: SessionStore, name: str) -> list[dict[str, Any]]:
    from raceday.web.watch import campaign_view

    view = campaign_view(store, name)
    steps = []
    for st in view["stages"]:
        if not st["ridden"]:
            continue
        top = ", ".join(f"{i + 1}. {r['name']} ({r['number']})"
                        for i, r in enumerate(st["result"][:3]))
        leader = st["gc"][0]
        steps.append({"kind": "stage", "title": st["name"], "stage": st["index"],
                      "lines": [top, f"GC: {leader['name']} ({leader['number']})"],
                      "url": f"/replay/wielersim/{name}/{st['index']}"})
    return steps


def session_replay(store: SessionStore, game: str, name: str) -> dict[str, Any]:
    if game not in GAMES:
        raise WatchError(f"unknown game {game!r}; replays exist for {', '.join(GAMES)}", 404)
    if not store.exists(game, name):
        raise WatchError(f"no saved {game} session named {name!r}", 404)
    if game == "wielersim":
        steps = wielersim_steps(store, name)
    elif game == "keirin":
        steps = keirin_steps(store, name)
    elif game == "derby":
        steps = derby_steps(store, name)
    else:
        try:
            state = _final_state(store, game, name)
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFormatError(f"saved {game} session {name!r} cannot be read: {exc}") \
                from None
        if not state.is_terminal():
            raise WatchError(f"{game} session {name!r} is not finished: resume it with "
                             f"raceday {game} play --resume", 409)
        out = state.outcome()
        steps = [{"kind": "board", "title": "Final position", "text": str(state),
                  "lines": [out.description]}]
    if not steps:
        raise WatchError(f"{game} session {name!r} has nothing finished to replay yet", 409)
    return {"source": "session", "game": game, "name": name, "steps": steps}


# --- routes -----------------------------------------------------------------------------
def _answer(make: Any) -> JSONResponse:
    try:
        return JSONResponse(make())
    except WatchError as exc:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)
    except RacedayError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)


@router.get("/replay", include_in_schema=False)
async def replay_list_page() -> FileResponse:
    return page("replay.html")


@router.get("/replay/{rest:path}", include_in_schema=False)
async def replay_page(rest: str) -> FileResponse:
    return page("replay.html")


@router.get("/api/replays")
def replays(request: Request) -> JSONResponse:
    return _answer(lambda: {"rooms": finished_rooms(_db(request)),
                            "sessions": saved_sessions(store_of(request))})


@router.get("/api/replay/room/{code}")
def replay_room(code: str, request: Request) -> JSONResponse:
    return _answer(lambda: room_replay(_db(request), code))


@router.get("/api/replay/wielersim/{name}/{stage}")
def replay_stage(name: str, stage: int, request: Request) -> JSONResponse:
    return _answer(lambda: stage_film(store_of(request), name, stage))


@router.get("/api/replay/{game}/{name}")
def replay_session(game: str, name: str, request: Request) -> JSONResponse:
    return _answer(lambda: session_replay(store_of(request), game, name))
