"""The browser's lessons: the ``/learn/<game>`` page and its JSON API.

- ``GET /api/learn`` — the games that ship a lesson;
- ``GET /api/learn/<game>`` — the lesson: its title and intro keys and every step's id and
  word keys (``title``, ``idea``, ``prompt``; ``hint`` and ``why`` for a position step);
- ``GET /api/learn/<game>/<n>`` — step ``n`` (from 1): its position's frame, the module
  that draws it (the game's ``drawFrame``, as replays use), the ``move`` parameter of its
  words, and the learner's legal moves (name and message); the play step: its level and
  the room options the page creates a room with, or (a race the dice decide) ``watch``,
  the game's watch page for the lesson's race (``/GAME?lesson=GAME``: the game's page
  reads the race from the lesson on the server);
- ``POST /api/learn/<game>/<n>/try`` ``{"move": name}`` — the learner's try: ``right``,
  ``legal``, the events (messages) of the move and the board's answer, the same events
  worded for the page (``told``: codes such as a side's name as messages), the frame
  after, and the hint's or the reason's key.

The server builds every position from the lesson itself: the page sends only a step's
number and a move's name. An unknown game, step or move is refused (4xx, in words).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from raceday.core.discovery import asset_folder
from raceday.core.lesson import Lesson, Step, lesson_games, load_lesson
from raceday.core.protocol import CHANCE, State
from raceday.present.lessons import (
    answer_messages,
    learner_actions,
    lesson_key,
    move_words,
    own_first_game,
    step_parts,
    worded_events,
)
from raceday.web.api_models import StatusError, answer_or_refusal, refusals, status_refusal
from raceday.web.pages import PAGES
from raceday.web.replay import drawer

router = APIRouter()
MAX_BODY = 2_000  # a try's body at most (a move's name)


class LearnError(StatusError):
    """A lesson request that cannot be answered (404: no such game or step; 400: no such
    move)."""


def _refused(status: int, key: str, /, **params: Any) -> LearnError:
    """A request refused with ``status``, in words from the tables."""
    return status_refusal(LearnError, status, key, **params)


_answer = answer_or_refusal


def _lesson(game: str) -> Lesson:
    games = lesson_games()
    if game not in games:
        raise _refused(404, "refusal.learn_unknown_game", game=repr(game),
                       games=", ".join(games))
    return load_lesson(game)


def _step(lesson: Lesson, number: int) -> Step:
    if not 1 <= number <= len(lesson.steps):
        raise _refused(404, "refusal.learn_no_step", game=lesson.game, number=number,
                       total=len(lesson.steps))
    return lesson.steps[number - 1]


def board_frame(game: str, state: State) -> Any:
    """What the game's replay board draws for ``state``: its replay face's
    ``lesson_frame(state)`` where it has one (a board drawn from more than the state's frame,
    e.g. WielerSIM's film), else the state's frame."""
    from raceday.core.discovery import face

    make = getattr(face(game, "replay"), "lesson_frame", None)
    return make(state) if make is not None else state.frame()


def _keys(lesson: Lesson, step: Step) -> dict[str, str]:
    return {part: step.key(lesson.game, part) for part in step_parts(step)}


def lesson_answer(game: str) -> dict[str, Any]:
    """The lesson: its words' keys and its steps (see the module text)."""
    lesson = _lesson(game)
    return {"game": lesson.game, "title": lesson_key(lesson.game, "title"),
            "intro": lesson_key(lesson.game, "intro"),
            "steps": [{"number": n, "id": s.id, "play": s.play is not None,
                       "words": _keys(lesson, s)}
                      for n, s in enumerate(lesson.steps, start=1)]}


def _has_page(game: str) -> bool:
    """Whether ``game`` ships a page of its own (``static/page.json``, served at /GAME)."""
    static = asset_folder(game, "static")
    return static is not None and (static / "page.json").is_file()


def step_answer(game: str, number: int) -> dict[str, Any]:
    """Step ``number``: its frame, drawer, words' keys, ``move`` and the learner's moves."""
    lesson = _lesson(game)
    step = _step(lesson, number)
    out: dict[str, Any] = {"game": lesson.game, "number": number, "total": len(lesson.steps),
                           "id": step.id, "words": _keys(lesson, step),
                           "play": step.play is not None, "drawer": drawer(lesson.game)}
    if step.play is not None:
        out["level"] = step.play.level
        out["room"] = dict(step.play.room) if step.play.room is not None else None
        # the host page of a room with a computer seat starts with one (Dice Derby's start)
        out["computers"] = 1 if step.play.room is not None and step.learner >= 0 else 0
        # a race the learner only watches (dice decide): the game's own watch page, which
        # reads the race from the lesson (``?lesson=GAME``)
        out["watch"] = f"/{lesson.game}?lesson={lesson.game}" if step.learner == CHANCE \
            and _has_page(lesson.game) else None
        # what the terminal's first game is: the game's own table (its hints), else a
        # game against the level with ``hint``
        out["terminal"] = "own" if own_first_game(lesson.game) is not None else "agents"
        out["params"] = {"move": ""}
        return out
    state = step.start()
    out["frame"] = board_frame(lesson.game, state)
    out["params"] = {"move": _move_param(step, state)}
    out["moves"] = [{"name": name, "message": state.action_message(action).to_json()}
                    for name, action in learner_actions(step, state)]
    return out


def _move_param(step: Step, state: State) -> dict[str, Any] | str:
    """The first expected move as a message the page words in its language."""
    wanted = " ".join(step.expect[0].split()).lower() if step.expect else ""
    for name, action in learner_actions(step, state):
        if " ".join(name.split()).lower() == wanted:
            return state.action_message(action).to_json()
    return move_words(step, state, "en")


def try_answer(game: str, number: int, body: Any) -> dict[str, Any]:
    """The learner's try at step ``number`` (see the module text)."""
    lesson = _lesson(game)
    step = _step(lesson, number)
    if step.play is not None:
        raise _refused(400, "refusal.learn_play_step", number=number)
    move = body.get("move") if isinstance(body, dict) else None
    if not isinstance(move, str) or not move.strip():
        raise _refused(400, "refusal.learn_no_move")
    state = step.start()
    legal = [name for name, _ in learner_actions(step, state)]
    if " ".join(move.split()).lower() not in {" ".join(n.split()).lower() for n in legal}:
        raise _refused(400, "refusal.learn_unknown_move", move=repr(move[:80]),
                       number=number)
    tried = step.attempt(state, move)
    out: dict[str, Any] = {"right": tried.right, "legal": tried.legal,
                           "events": [e.to_dict() for e in tried.events],
                           # the same events worded for the page (codes as messages),
                           # as messages: a fact named "kind" (Hairpin's move) cannot hide
                           # the event's own kind; a right move's answer at most
                           # ANSWER_LINES, the rest of a race folded ("learn_folded")
                           "told": [m.to_json() for m in answer_messages(
                               lesson.game, step, tried.events)] if tried.right else
                           [{"key": e.key, "params": dict(e.data)} for e in
                            worded_events(lesson.game, tried.events)],
                           "frame": board_frame(lesson.game, state)}
    out["words"] = step.key(lesson.game, "why" if tried.right else "hint")
    return out


@router.get("/learn", include_in_schema=False)
@router.get("/learn/{game}", include_in_schema=False)
async def learn_page() -> HTMLResponse:
    return PAGES["learn"].response()


@router.get("/api/learn")
def learn_games() -> JSONResponse:
    """The games that ship a lesson."""
    return _answer(lambda: {"games": [{"game": g, "title": lesson_key(g, "title")}
                                      for g in lesson_games()]})


@router.get("/api/learn/{game}", responses=refusals(400, 404))
def learn_lesson(game: str) -> JSONResponse:
    return _answer(lambda: lesson_answer(game))


@router.get("/api/learn/{game}/{number}", responses=refusals(400, 404))
def learn_step(game: str, number: int) -> JSONResponse:
    return _answer(lambda: step_answer(game, number))


@router.post("/api/learn/{game}/{number}/try", responses=refusals(400, 404, 413, 415))
async def learn_try(game: str, number: int, request: Request) -> JSONResponse:
    import json

    raw = await request.body()
    try:
        body = json.loads(raw[:MAX_BODY]) if len(raw) <= MAX_BODY else None
    except ValueError:
        body = None
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_answer, lambda: try_answer(game, number, body))


__all__ = ["LearnError", "lesson_answer", "router", "step_answer", "try_answer"]
