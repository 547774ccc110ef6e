"""Replays: every finished game or race saved by the CLI or by the party server, as steps
the page can step through, play, or jump to the end of, at a link that can be shared.

A step is words and, where the game draws one, a board: its title and lines are messages
(key and parameters, rendered in the reader's language by the page's ``present.js``) and
its ``frame`` is the game's :meth:`State.frame`. Nothing here names a game:

* **Party-server rooms** (any game): a room whose evening is over (``rooms.finished``),
  and each game of a room that the host's "again" followed (``room_games``: its span of
  the log and its final state), each its own replay.
  The steps are its event log (``room_events``), one step per accepted intent, in order,
  with the public events it produced as messages (``event.<kind>``, the game's own first)
  and who sent it (host, a seat's name, or a spectator's join). Intents are never shown:
  they may hold a sealed bid or a ticket.
* **A record** (:mod:`raceday.core.record`) dropped on the page or chosen with its button:
  sent as text (``POST /api/replay/record``), played through the game's rules from its
  start, one step per move (who made it, its name, the events it made) with the board
  after it; the first line the rules refuse is told by its number.
  A room opened from a record (``raceday serve --record``) shows the record's moves from
  before the room first, then the room's log.
* **Sessions saved by the CLI**: a game whose saved format needs its own reading declares a
  ``replay`` face module (:mod:`raceday.present.replay`), e.g. a stage race (one step per
  ridden stage) or a betting night (one step per settled race). Any other game saves its
  position, so a finished game (a terminal state) replays as one step: its final board and
  result.

Links: ``/replay`` (the list), ``/replay/room/CODE`` (its latest finished game),
``/replay/room/CODE/N`` (its N-th game), ``/replay/GAME/NAME`` and
``/replay/GAME/NAME/PART`` (one part of a session, such as a stage of a stage race, from
the game's replay face, drawn by its ``film.js``); the JSON behind each is under
``/api/replay/...``.

Rebuilding a replay (every logged step's board by the game's own rules, a stage ridden
again) may cost far more than a page: the JSON of a room's or a session's replay is made
in the server's heavy-work pool (:mod:`raceday.web.heavy`: a process, a fair share and an
allowance per address), never on the event loop. It is not cached: a room's code and a
session's name may name another game later.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from raceday.core.discovery import asset_folder, face, game_packages
from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.events import Message
from raceday.core.record import Move, Record, RecordError, apply_move, parse_record, replay
from raceday.present.lessons import worded_events
from raceday.present.messages import event_key, outcome_message
from raceday.present.pictures import text_picture
from raceday.present.replay import (
    ReplayStep,
    final_step,
    player_names,
    rebuild_states,
    room_event_message,
)
from raceday.rooms import JSON, RoomError, logic_class
from raceday.rooms.log import stored_state
from raceday.store.sessions import SessionStore
from raceday.web.api_models import StatusError, answer_or_refusal, error_answer, status_refusal
from raceday.web.guard import MISS_COST, Limiter, client_key, refusal_body, retry_after
from raceday.web.heavy import Heavy
from raceday.web.pages import PAGES

if TYPE_CHECKING:
    from raceday.core.protocol import State

MAX_STEPS = 20_000  # steps of one replay sent to the page at most (the first ones)
MAX_LISTED = 500  # items of each kind on the list page
DRAWERS = ("frame.js", "board.js")  # a game's module that may export drawFrame(frame, el, …)

router = APIRouter()


class ReplayError(StatusError):
    """A replay that cannot be given: 404 (no such room, game or session) or 409 (not
    finished yet)."""


def _refused(status: int, key: str, /, **params: Any) -> ReplayError:
    """A request refused with ``status``, in words from the tables."""
    return status_refusal(ReplayError, status, key, **params)


def _store(request: Request) -> SessionStore:
    """The CLI's session store in the server's database file."""
    return SessionStore(_db(request))


def _db(request: Request) -> Path:
    return Path(request.app.state.rooms.store.path)


def _read(path: Path, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Rows of a read-only query on the server's database (the rooms' own tables)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)) as conn:
        return conn.execute(sql, args).fetchall()


# --- rooms ------------------------------------------------------------------------------
def _ended_games(path: Path, code: str, kept: bool | None = None
                 ) -> list[tuple[int, int, str, str]]:
    """The games of room ``code`` that "again" followed, in order: (first seq, last seq,
    final state's JSON text, when it ended); none in a file no server of this version has
    opened (it has no ``room_games``; ``kept`` says so when the caller has looked)."""
    if not (_ended_games_kept(path) if kept is None else kept):
        return []
    return [(int(f), int(la), str(s), str(e)) for f, la, s, e in _read(
        path, "SELECT first_seq, last_seq, state, ended FROM room_games WHERE code = ? "
              "ORDER BY last_seq", (code,))]


def finished_rooms(path: Path) -> list[dict[str, Any]]:
    """One entry per finished game of a room: each game "again" followed (at
    ``/replay/room/CODE/N``) and the room's current one once it is over (at
    ``/replay/room/CODE``), the newest first."""
    kept = _ended_games_kept(path)  # looked up once for the whole list
    which = "finished = 1 OR code IN (SELECT code FROM room_games)" if kept else "finished = 1"
    rows = _read(path, f"SELECT code, game, revision, finished, updated FROM rooms WHERE {which} "
                       "ORDER BY updated DESC LIMIT ?", (MAX_LISTED,))
    out: list[dict[str, Any]] = []
    for c, g, r, finished, u in rows:
        code, game = str(c), str(g)
        ended = _ended_games(path, code, kept)
        for number, (first, last, state, when) in enumerate(ended, 1):
            out.append({"source": "room", "game": game, "name": code, "number": number,
                        "steps": last - first + 1, "when": when,
                        "url": f"/replay/room/{code}/{number}",
                        "winners": _winners(game, _state_object(state))})
        if finished:
            first = ended[-1][1] + 1 if ended else 1
            out.append({"source": "room", "game": game, "name": code,
                        "number": len(ended) + 1, "steps": int(r) - first + 1, "when": str(u),
                        "url": f"/replay/room/{code}", "winners": _winners(game, _current(
                            path, code))})
    out.sort(key=lambda item: (str(item["when"]), int(item["number"])), reverse=True)
    return out[:MAX_LISTED]


def _ended_games_kept(path: Path) -> bool:
    return bool(_read(path, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                      ("room_games",)))


def _state_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _current(path: Path, code: str) -> dict[str, Any] | None:
    """The room's state as of its last logged intent (None where it cannot be read back)."""
    try:
        return stored_state(lambda sql, args: _read(path, sql, args), code)
    except (RacedayError, KeyError, TypeError, ValueError, sqlite3.Error):
        return None


def _winners(game: str, snapshot: dict[str, Any] | None) -> list[JSON]:
    """Who won a finished game of a room, as its finale's podium names them (``{"name",
    "who"}`` of each first place); none where it has no finale or cannot be read back."""
    finale = _finale(game, snapshot) if snapshot is not None else None
    podium = finale.get("podium") if isinstance(finale, dict) else None
    return [{"name": p.get("name"), "who": p.get("who")} for p in podium or []
            if isinstance(p, dict) and p.get("place") == 1]


def _event_words(words: Any, event: dict[str, Any], players: list[Any]) -> Message:
    """A logged room event as a message: the game's replay face words the events its
    rooms logged before events were messages; any other (or one the face cannot read) is
    ``event.<kind>``."""
    try:
        message = words(event, players) if words is not None else None
    except (KeyError, IndexError, TypeError, ValueError):
        message = None
    return message if isinstance(message, Message) else room_event_message(event, players)


def room_replay(path: Path, code: str, number: int | None = None) -> dict[str, Any]:
    """The replay of one finished game of room ``code``: its ``number``-th (from 1), or
    without one the latest finished (the one being played is not finished)."""
    code = code.strip().upper()
    rows = _read(path, "SELECT game, finished, revision FROM rooms WHERE code = ?", (code,))
    if not rows:
        raise _refused(404, "refusal.replay_no_room", code=repr(code))
    game, finished, revision = rows[0]
    ended = _ended_games(path, code)
    if number is None:
        number = len(ended) + 1 if finished or not ended else len(ended)
    if not 1 <= number <= len(ended) + 1:
        raise _refused(404, "refusal.replay_no_game", code=code, number=number)
    if number == len(ended) + 1 and not finished:
        raise _refused(409, "refusal.replay_playing", code=code)
    if number <= len(ended):
        first, last, state, _ = ended[number - 1]
        own_snapshot = _state_object(state)
    else:
        first, last, own_snapshot = (ended[-1][1] + 1 if ended else 1), int(revision), None
    seats = dict(_read(path, "SELECT seat, name FROM room_seats WHERE code = ?", (code,)))
    words = getattr(face(str(game), "replay"), "room_event", None)
    players: list[Any] = []
    places: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    rows = _read(path, "SELECT seq, actor, events, intent FROM room_events WHERE code = ? "
                       "AND seq BETWEEN ? AND ? ORDER BY seq LIMIT ?",
                 (code, first, last, MAX_STEPS))
    logged = [(_public_intent(intent_text), [e for e in json.loads(events_text)
                                             if isinstance(e, dict)])
              for _, _, events_text, intent_text in rows]
    try:
        snapshot = own_snapshot if number <= len(ended) else \
            stored_state(lambda sql, args: _read(path, sql, args), code)
    except (SaveFormatError, RoomError) as exc:
        raise _refused(409, "refusal.replay_unreadable", code=code, problem=str(exc)) \
            from None
    if snapshot is None:
        raise _refused(404, "refusal.replay_no_room", code=repr(code))
    earlier, start = _record_before_room(snapshot)
    frames = room_frames(str(game), snapshot, logged, start)
    steps.extend(earlier)
    for seq, actor_text, events_text, _ in rows:
        actor = json.loads(actor_text)
        events = [e for e in json.loads(events_text) if isinstance(e, dict)]
        places = _places(events) or places
        players = player_names(events) or players
        if actor.get("kind") == "seat":
            who = {"kind": "seat", "seat": actor.get("seat"),
                   "name": seats.get(actor.get("seat"), "?")}
        else:
            who = {"kind": str(actor.get("kind")), **_mover(events, places)}
        step = {"kind": "events", "seq": int(seq), "who": who,
                "events": [_event_words(words, e, players).to_json() for e in events]}
        at = len(steps) - len(earlier)
        if frames is not None and frames[at] is not None:
            step["frame"] = frames[at]
        steps.append(step)
    return {"source": "room", "game": str(game), "name": code, "number": number,
            "steps": steps,
            "board": frames is not None, "drawer": drawer(str(game)),
            "finale": _finale(str(game), snapshot),
            "players": [{"place": p.get("place"), "kind": p.get("kind"), "name": p.get("name")}
                        for p in places]}


def _places(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The places of a ``started`` event of a turn room (``{place, kind, name}``)."""
    for event in events:
        if event.get("type") == "started" and all(
                isinstance(p, dict) for p in event.get("players", [])):
            return [dict(p) for p in event["players"]]
    return None


def _mover(events: Sequence[dict[str, Any]], places: list[dict[str, Any]]) -> dict[str, Any]:
    """Whose move a step the timeline played was (a computer's: its level; a person's
    forced move: their name), from the place its events are ``by``; {} for none."""
    by = next((e["by"] for e in events if isinstance(e.get("by"), int)), None)
    if by is None or not 0 <= by < len(places):
        return {}
    place = places[by]
    if place.get("name"):
        return {"name": str(place["name"])}
    kind = place.get("kind")
    return {"level": str(kind)} if isinstance(kind, str) and kind != "human" else {}


def _finale(game: str, snapshot: dict[str, Any]) -> JSON | None:
    """The room's podium and awards as its screens showed them at the end (None where the
    room has none, or its save cannot be read back)."""
    try:
        logic: Any = logic_class(game).from_json(snapshot)
        finale = getattr(logic, "finale", None)
        return None if finale is None else finale()
    except (RacedayError, KeyError, TypeError, ValueError, AttributeError):
        return None


def _public_intent(text: str) -> dict[str, Any]:
    """What the rebuilding may read of a logged intent: the action a move asked for (never
    a bid or a ticket, which stay sealed and are not sent to any page)."""
    intent = json.loads(text)
    action = intent.get("action") if isinstance(intent, dict) else None
    return {"action": action} if isinstance(action, int) else {}


def room_frames(game: str, snapshot: dict[str, Any],
                rows: Sequence[tuple[dict[str, Any], list[dict[str, Any]]]],
                start: State | None = None) -> list[JSON | None] | None:
    """The board after each logged row of a room, as its live pages draw it, from the
    game's replay face: ``room_frames(snapshot, rows)`` of its own, or ``room_frame(logic,
    state)`` on the states :func:`~raceday.present.replay.rebuild_states` makes again by
    the game's own rules from the room's options (``chance_action(state, event)`` names a
    logged chance event's outcome, ``current_shape(event)`` brings an old event to today's
    facts). None: the game draws no board in its replays (its steps are words), or the
    log cannot be read back."""
    own_face = face(game, "replay")
    own = getattr(own_face, "room_frames", None)
    frame_of = getattr(own_face, "room_frame", None)
    shape = getattr(own_face, "current_shape", None)
    try:
        if shape is not None:
            rows = [(intent, [shape(e) for e in events]) for intent, events in rows]
        if own is not None:
            frames: list[JSON | None] = list(own(snapshot, rows))
            return frames
        if frame_of is None:
            return None
        logic: Any = logic_class(game).from_json(snapshot)  # a room on the kit (RoomBase)
        # a room opened from a record starts where the record's moves led
        new_state = logic.new_state if start is None else start.clone
        states = rebuild_states(new_state, rows, logic.event_json,
                                getattr(own_face, "chance_action", None))
        return [None if s is None else frame_of(logic, s) for s in states]
    except (RacedayError, KeyError, TypeError, ValueError, IndexError, AttributeError,
            AssertionError):  # a log the rules cannot follow: the words stay, no board
        return None


# --- records ----------------------------------------------------------------------------
def _record_before_room(snapshot: dict[str, Any]) -> tuple[list[dict[str, Any]], State | None]:
    """The steps of the moves a room's record holds from before the room (a game begun at
    the terminal and opened with ``serve --record``), and the state the room started
    from; none (and None) for a room that began its game itself."""
    text, before = snapshot.get("record"), snapshot.get("record_before")
    if not isinstance(text, str) or not isinstance(before, int) or before <= 0:
        return [], None
    try:
        record = parse_record(text)
        earlier = Record(record.tags, record.moves[:before])
        done = replay(earlier)
    except RacedayError:
        return [], None
    return record_steps(earlier, done.start, done.events), done.state


def _who(record: Record, move: Move) -> Any:
    """Who made ``move``: its seat's name, else the words for a draw, the host or a player."""
    seats = record.seats
    if move.player >= 0:
        if move.player < len(seats) and seats[move.player].get("name"):
            return str(seats[move.player]["name"])
        return Message("replay.record_player", {"n": move.player + 1})
    return Message("replay.record_chance" if move.who == "chance" else "replay.record_host")


def record_steps(record: Record, start: State, events: Sequence[Sequence[Any]]
                 ) -> list[dict[str, Any]]:
    """A record's replay steps: its start, then one step per move (who, the move's name
    and the events it made, the board after it); ``events`` are the replay's per move."""
    words_of = record.game.split("_", 1)[0]  # derby_evening is worded by derby's tables
    with_frames = drawer(words_of) is not None
    state = start.clone()

    def board(step: dict[str, Any]) -> dict[str, Any]:
        try:
            if with_frames:
                step["frame"] = state.frame()
            else:
                step["board"] = text_picture(state)
        except (RacedayError, KeyError, TypeError, ValueError, AttributeError):
            pass  # a state that draws nothing: the words stay
        return step

    steps = [board({"kind": "step", "title": Message("replay.record_start").to_json(),
                    "lines": []})]
    for number, (move, made) in enumerate(zip(record.moves, events, strict=False), 1):
        apply_move(state, move)
        lines = [Message(event_key(words_of, e.key, e.params), e.params).to_json()
                 for e in worded_events(words_of, list(made))]  # codes as the tables' words
        if state.is_terminal() and number == len(record.moves):
            lines.append(outcome_message(state.outcome()).to_json())
        steps.append(board({"kind": "step", "title": Message("replay.record_move", {
            "n": number, "who": _who(record, move), "move": move.name}).to_json(),
            "lines": lines}))
        if len(steps) >= MAX_STEPS:
            break
    return steps


def record_replay(text: str) -> dict[str, Any]:
    """The replay of the one game in a record's ``text`` (see the module doc); refused
    (400) with the first bad line's number where the record cannot be read or its moves
    are not legal."""
    try:
        record = parse_record(text)
        done = replay(record)
    except RecordError as exc:
        raise record_refusal(exc) from None
    game = record.game.split("_", 1)[0]
    named = record.tags.get("Name") or record.tags.get("Event")
    return {"source": "record", "game": game, "name": None if named is None else str(named),
            "record_game": record.game, "result": record.result,
            "steps": record_steps(record, done.start, done.events),
            "drawer": drawer(game), "moves": len(record.moves)}


def record_refusal(exc: RecordError) -> ReplayError:
    """A record refused, in words: its first bad line's number and the problem."""
    if exc.line is None:
        return _refused(400, "refusal.record_bad_whole", problem=exc.problem)
    return _refused(400, "refusal.record_bad", line=exc.line, problem=exc.problem)


# --- sessions saved by the CLI ----------------------------------------------------------
def _final_state(store: SessionStore, game: str, name: str) -> State:
    """The position a game without a replay face saved (``doc["state"]``: the state's
    JSON, or the text of :func:`raceday.core.serialize.dumps_state`)."""
    from raceday.core.registry import get_game
    from raceday.core.serialize import loads_state

    doc, _ = store.load(game, name)
    if isinstance(doc.get("record"), str):  # a game saved as its record
        from raceday.store.records import opened

        return opened(doc, None, None, name).state()
    saved = doc["state"]
    if isinstance(saved, str):
        return loads_state(saved)
    state: State = get_game(game).state_from_json(saved)
    return state


def _is_finished(store: SessionStore, game: str, name: str) -> bool:
    """Whether a saved session has something finished to replay (see the module doc)."""
    finished = getattr(face(game, "replay"), "finished", None)
    try:
        if finished is not None:
            return bool(finished(store, name))
        return _final_state(store, game, name).is_terminal()
    except (RacedayError, KeyError, TypeError, ValueError):
        return False


def saved_sessions(store: SessionStore) -> list[dict[str, Any]]:
    out = []
    for game in game_packages():
        for name in store.names(game)[:MAX_LISTED]:
            if _is_finished(store, game, name):
                out.append({"source": "session", "game": game, "name": name,
                            "url": f"/replay/{game}/{name}"})
    return out


def session_steps(store: SessionStore, game: str, name: str) -> list[ReplayStep]:
    """The steps of a saved session: the game's replay face's, else its final position."""
    own_steps = getattr(face(game, "replay"), "steps", None)
    try:
        if own_steps is not None:
            steps: list[ReplayStep] = own_steps(store, name)
            return steps
        state = _final_state(store, game, name)
    except RacedayError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise SaveFormatError(f"saved {game} session {name!r} cannot be read: {exc}") from None
    if not state.is_terminal():
        raise _refused(409, "refusal.replay_unfinished", game=game, name=repr(name))
    return [final_step(state)]


def drawer(game: str) -> str | None:
    """The address of the game's module that draws a board frame, if any: the first of
    ``DRAWERS`` in its ``static/`` that exports ``drawFrame``. Every replay answer (a
    room's or a session's) names it as ``drawer``; the page imports it from there, so a
    game installed beside raceday gets its boards drawn as a built-in game does (the
    contract is in docs/adding-a-game.md)."""
    folder = asset_folder(game, "static")
    for module in DRAWERS:
        path = None if folder is None else folder / module
        if path is not None and path.is_file() and \
                "export function drawFrame" in path.read_text(encoding="utf-8"):
            return f"/games/{game}/static/{module}"
    return None


def _check_session(store: SessionStore, game: str, name: str) -> None:
    games = game_packages()
    if game not in games:
        raise _refused(404, "refusal.replay_unknown_game", game=repr(game), games=list(games))
    if not store.exists(game, name):
        raise _refused(404, "refusal.replay_no_session", game=game, name=repr(name))


def session_part(store: SessionStore, game: str, name: str, part: str) -> dict[str, Any]:
    """One part of a saved session (a stage race's stage) as the game's replay face gives
    it (``part(store, name, part)``), drawn on the page by the game's ``film.js``."""
    _check_session(store, game, name)
    own_part = getattr(face(game, "replay"), "part", None)
    if own_part is None:
        raise _refused(404, "refusal.replay_no_parts", game=game, name=name)
    answer: dict[str, Any] = own_part(store, name, part)
    return answer


def session_replay(store: SessionStore, game: str, name: str) -> dict[str, Any]:
    _check_session(store, game, name)
    steps = [step.to_json() for step in session_steps(store, game, name)[:MAX_STEPS]]
    if not steps:
        raise _refused(409, "refusal.replay_nothing", game=game, name=repr(name))
    return {"source": "session", "game": game, "name": name, "steps": steps,
            "drawer": drawer(game)}


# --- routes -----------------------------------------------------------------------------
_answer = answer_or_refusal


def _refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals a route may answer, for the API's description (``{"error", "words"}``)."""
    error = {"application/json": {"schema": {
        "type": "object", "properties": {"error": {"type": "string"}, "words": {"type": "object"}},
        "required": ["error"]}}}
    return {status: {"description": "Refused", "content": error} for status in statuses}


@router.get("/replay", include_in_schema=False)
@router.get("/replay/{rest:path}", include_in_schema=False)
async def replay_page() -> HTMLResponse:
    return PAGES["replay"].response()


@router.get("/api/replays", responses=_refusals(400))
def replays(request: Request) -> JSONResponse:
    return _answer(lambda: {"rooms": finished_rooms(_db(request)),
                            "sessions": saved_sessions(_store(request))})


def room_answer(path: Path, code: str, number: int | None = None) -> JSONResponse:
    """The answer to ``/api/replay/room/{code}`` or ``/api/replay/room/{code}/{number}``
    (the heavy-work pool's work)."""
    return _answer(lambda: room_replay(path, code, number))


def session_answer(path: Path, game: str, name: str, part: str | None) -> JSONResponse:
    """The answer to ``/api/replay/{game}/{name}`` or one ``part`` of it (the heavy-work
    pool's work)."""
    store = SessionStore(path)
    if part is None:
        return _answer(lambda: session_replay(store, game, name))
    return _answer(lambda: session_part(store, game, name, part))


async def _heavy(request: Request, work: Callable[..., JSONResponse], *args: Any) -> Response:
    """``work(*args)`` in the server's heavy-work pool for this request's address."""
    heavy: Heavy | None = getattr(request.app.state, "heavy", None)
    if heavy is None:  # a router mounted on an app of its own: a worker thread
        return await run_in_threadpool(work, *args)
    return await heavy.answer(request, None, work, *args)


@router.get("/api/replay/room/{code}", responses=_refusals(400, 404, 409, 429))
async def replay_room(code: str, request: Request) -> Response:
    """A room's latest finished game's replay. Naming a room by its code is a lookup like
    ``/api/rooms/{code}`` (its answer tells a live code from a free one): it takes from the
    same per-address allowance, a code that names no room costing ``MISS_COST`` (429 when
    spent)."""
    return await _room_lookup(request, code, None)


@router.get("/api/replay/room/{code}/{number}", responses=_refusals(400, 404, 409, 429))
async def replay_room_game(code: str, number: int, request: Request) -> Response:
    """The replay of a room's ``number``-th game (from 1; "again" starts the next)."""
    return await _room_lookup(request, code, number)


async def _room_lookup(request: Request, code: str, number: int | None) -> Response:
    lookups: Limiter | None = getattr(request.app.state, "lookups", None)
    if lookups is None:
        return await _heavy(request, room_answer, _db(request), code, number)
    bucket = lookups.bucket(client_key(request.scope, request.app.state.trusted_proxies))
    if not bucket.ready():
        return Response(refusal_body(Message("refusal.too_many")), status_code=429,
                        media_type="application/json",
                        headers={"Retry-After": retry_after(bucket)})
    answer = await _heavy(request, room_answer, _db(request), code, number)
    if answer.status_code != 429:  # refused by the heavy work's allowance: no look made
        bucket.charge(MISS_COST if answer.status_code == 404 else 1)
    return answer


def record_answer(text: str) -> JSONResponse:
    """The answer to ``POST /api/replay/record`` (the heavy-work pool's work)."""
    return _answer(lambda: record_replay(text))


@router.post("/api/replay/record", responses=_refusals(400, 403, 413, 415, 429),
             openapi_extra={"requestBody": {"required": True, "content": {
                 "text/plain": {"schema": {"type": "string"}}}}})
async def replay_record(request: Request) -> Response:
    """The replay of a game's record sent as UTF-8 text (``Content-Type: text/plain``, at
    most ``RECORD_BODY`` bytes): its steps as a stored game's; a record the rules refuse
    is 400 naming its first bad line."""
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        return error_answer(400, Message("refusal.record_not_text"))
    return await _heavy(request, record_answer, text)


@router.get("/api/replay/{game}/{name}/{part}", responses=_refusals(400, 404, 409, 429))
async def replay_part(game: str, name: str, part: str, request: Request) -> Response:
    return await _heavy(request, session_answer, _db(request), game, name, part)


@router.get("/api/replay/{game}/{name}", responses=_refusals(400, 404, 409, 429))
async def replay_session(game: str, name: str, request: Request) -> Response:
    return await _heavy(request, session_answer, _db(request), game, name, None)
