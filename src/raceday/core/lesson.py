"""Lessons: a game taught by doing, step by step, from real positions (data, not code).

A game package ships its lesson as ``lessons/basics.json`` beside its engine (a plugin game
ships its own the same way). A lesson is a list of steps. Each step is one idea:

- ``position``: the record (:mod:`raceday.core.record`, as a list of lines) of the position
  the step starts from, built by the engine by playing its moves — so every position is a
  legal one, and the rule documents' worked examples can be written as they are;
- ``learner``: who the learner moves for (``p1``, ``p2``, ..., ``host``; or ``chance``:
  the learner throws the dice, choosing what they show — how a race game with no
  decisions teaches what each throw does);
- ``expect``: the names of the moves the idea asks for (any of them is right);
- ``answer``: the moves (record lines) the board answers with after a right move — the
  dice, the other riders — so the step ends on the position the idea leads to;
- ``shows``: event kinds the right move and its answer must produce (a test checks that
  every expected move does what the step's words say, e.g. a ``bump``);
- ``wrong``: a move a test tries to see the hint (else any legal move not expected);
- ``choices``: optional, the names of the few moves the faces offer where the position has
  too many legal ones for a menu (a betting window's hundreds of tickets): every expected
  move and the ``wrong`` one among them, each legal, at least one not expected.

A step's words are message keys of the game's table, named from its ``id``:
``lesson.<id>.title``, ``.idea``, ``.prompt``, ``.hint`` and ``.why`` (the reason, shown
after the right move), each given ``move`` (the words of the first expected move) as a
parameter. The lesson's last step is ``{"id": ..., "play": {"level": ..., "options":
{...}, "learner": "p1"}}``: a first game against that computer level, with hints on
(the options are the game's; an optional ``"room": {...}`` gives the options of the
browser room the lesson page creates for it, e.g. who plays each seat; an optional
``"game"`` names the registered game the first game is played as when it is not the
lesson's own, e.g. ``"derby_evening"`` for a whole Dice Derby evening or
``"keirin_night"`` for a KEIRIN betting night).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.events import Event
from raceday.core.protocol import CHANCE, HOST, State
from raceday.core.record import (
    Move,
    Record,
    RecordError,
    apply_move,
    parse_record,
    replay,
    who_text,
)

LESSON_FORMAT = 1
LESSON_FILE = "basics.json"
WORDS = ("title", "idea", "prompt", "hint", "why")


class LessonError(SaveFormatError):
    """A lesson file that cannot be read, or a step its own rules refuse."""


@dataclass(frozen=True)
class Play:
    """The lesson's last step: a first game against a computer level, hints on."""

    level: str
    options: Mapping[str, Any]
    learner: int = 0
    room: Mapping[str, Any] | None = None
    # the face's game the first game is played as, where it is not the lesson's own game
    # (a Dice Derby evening, a KEIRIN betting night): None for the game itself
    game: str | None = None


@dataclass
class Step:
    """One step of a lesson (see the module docstring)."""

    id: str
    position: Record | None = None
    learner: int = 0
    expect: list[str] = field(default_factory=list)
    answer: list[Move] = field(default_factory=list)
    shows: list[str] = field(default_factory=list)
    wrong: str | None = None
    choices: list[str] | None = None
    play: Play | None = None

    def key(self, game: str, part: str) -> str:
        """The message key of one of the step's words (``title``, ``idea``, ...)."""
        return f"{game}.lesson.{self.id}.{part}"

    def start(self) -> State:
        """The step's position, built by the engine from its record."""
        if self.position is None:
            raise LessonError(f"step {self.id!r} is a game, not a position")
        try:
            return replay(self.position).state
        except RecordError as exc:
            raise LessonError(f"step {self.id!r}: its position {exc}") from None

    def legal_names(self, state: State) -> list[str]:
        """The names of the learner's legal moves in ``state`` (a learner who plays chance
        throws the dice: every possible outcome)."""
        if self.learner == CHANCE:
            if not state.is_chance_node():
                return []
            return [state.action_to_string(a) for a, p in state.chance_outcomes() if p > 0]
        if self.learner not in state.acting_players() and not (
                self.learner == HOST and state.legal_actions_for(HOST)):
            return []
        return [state.action_to_string(a) for a in state.legal_actions_for(self.learner)]

    def offered(self, names: list[str]) -> list[str]:
        """The moves of ``names`` (legal ones) the faces offer: the step's ``choices`` in
        their order where it has them, else all of them."""
        if self.choices is None:
            return list(names)
        by_plain = {_plain(n): n for n in names}
        return [by_plain[_plain(c)] for c in self.choices if _plain(c) in by_plain]

    def is_right(self, name: str) -> bool:
        wanted = _plain(name)
        return any(_plain(e) == wanted for e in self.expect)

    def attempt(self, state: State, name: str) -> Attempt:
        """The learner's move ``name`` in ``state`` (the step's position): a right one is
        played with the board's answer (``state`` changes); a wrong or unknown one changes
        nothing and is answered with the step's hint."""
        if not self.is_right(name):
            legal = any(_plain(n) == _plain(name) for n in self.legal_names(state))
            return Attempt(False, legal)
        events = list(apply_move(state, Move(self.learner, name)))
        for move in self.answer:
            events += apply_move(state, move)
        return Attempt(True, True, events)


@dataclass
class Attempt:
    """What a try gave: right or not, whether it was a legal move at all, the events."""

    right: bool
    legal: bool
    events: list[Event] = field(default_factory=list)


@dataclass
class Lesson:
    """A game's lesson: its steps, in order."""

    game: str
    steps: list[Step]

    def step(self, number: int) -> Step:
        """Step ``number`` (from 1)."""
        if not 1 <= number <= len(self.steps):
            raise LessonError(f"the {self.game} lesson has steps 1 to {len(self.steps)}, "
                              f"not {number}")
        return self.steps[number - 1]


def _plain(name: str) -> str:
    return " ".join(name.split()).lower()


def _player(text: object, where: str) -> int:
    if not isinstance(text, str) or not (text in ("host", "chance") or (
            text.startswith("p") and text[1:].isdigit() and int(text[1:]) >= 1)):
        raise LessonError(f"{where}: a learner is 'p1', 'p2', ..., 'host' or 'chance', "
                          f"not {text!r}")
    if text in ("host", "chance"):
        return HOST if text == "host" else CHANCE
    return int(text[1:]) - 1


def _moves(lines: object, where: str) -> list[Move]:
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise LessonError(f"{where}: a list of record lines ('p1: <move>', 'chance: 3')")
    header = '[Game "-"]\n[Format 1]\n[Options {}]\n\n'
    try:
        return parse_record(header + "\n".join(lines) + "\n").moves if lines else []
    except RecordError as exc:
        raise LessonError(f"{where}: {exc.problem}") from None


def read_lesson(game: str, data: Mapping[str, Any]) -> Lesson:
    """A lesson from its JSON (checked for form; :func:`check_lesson` plays it)."""
    if data.get("format") != LESSON_FORMAT or not isinstance(data.get("steps"), list):
        raise LessonError(f"the {game} lesson is not a lesson of format {LESSON_FORMAT} "
                          "with a list of steps")
    steps: list[Step] = []
    for index, raw in enumerate(data["steps"], start=1):
        where = f"the {game} lesson's step {index}"
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise LessonError(f"{where} has no id")
        step = Step(raw["id"])
        if "play" in raw:
            play = raw["play"]
            if not isinstance(play, dict) or not isinstance(play.get("level"), str):
                raise LessonError(f"{where}: 'play' names a computer level")
            if "game" in play and not isinstance(play["game"], str):
                raise LessonError(f"{where}: 'play' names its game as text")
            step.play = Play(play["level"], dict(play.get("options") or {}),
                             _player(play.get("learner", "p1"), where),
                             dict(play["room"]) if isinstance(play.get("room"), dict) else None,
                             play.get("game"))
            step.learner = step.play.learner
        else:
            lines = raw.get("position")
            if not isinstance(lines, list):
                raise LessonError(f"{where} has no position (a record's lines)")
            try:
                step.position = parse_record("\n".join(lines) + "\n")
            except RecordError as exc:
                raise LessonError(f"{where}'s position: {exc}") from None
            step.learner = _player(raw.get("learner", "p1"), where)
            expect = raw.get("expect")
            if not isinstance(expect, list) or not expect or \
                    not all(isinstance(e, str) for e in expect):
                raise LessonError(f"{where}: 'expect' lists the right moves' names")
            step.expect = list(expect)
            step.answer = _moves(raw.get("answer", []), f"{where}'s answer")
            shows = raw.get("shows", [])
            if not isinstance(shows, list) or not all(isinstance(s, str) for s in shows):
                raise LessonError(f"{where}: 'shows' lists event kinds")
            step.shows = list(shows)
            wrong = raw.get("wrong")
            if wrong is not None and not isinstance(wrong, str):
                raise LessonError(f"{where}: 'wrong' is a move's name")
            step.wrong = wrong
            choices = raw.get("choices")
            if choices is not None and (not isinstance(choices, list) or not choices or
                                        not all(isinstance(c, str) for c in choices)):
                raise LessonError(f"{where}: 'choices' lists the names of the moves offered")
            step.choices = list(choices) if choices is not None else None
        steps.append(step)
    ids = [s.id for s in steps]
    if len(set(ids)) != len(ids):
        raise LessonError(f"the {game} lesson has two steps with one id")
    return Lesson(game, steps)


def load_lesson(game: str) -> Lesson:
    """The lesson ``game``'s package ships (``lessons/basics.json``)."""
    from raceday.core.discovery import asset_folder

    folder = asset_folder(game, "lessons")
    path = None if folder is None else folder / LESSON_FILE
    if path is None or not path.is_file():
        raise LessonError(f"{game} has no lesson yet")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise LessonError(f"the {game} lesson is not JSON: {exc}") from None
    return read_lesson(game, data)


def lesson_games() -> list[str]:
    """The games that ship a lesson."""
    from raceday.core.discovery import asset_folder, game_packages

    return [g for g in sorted(game_packages())
            if (folder := asset_folder(g, "lessons")) is not None
            and (folder / LESSON_FILE).is_file()]


def check_lesson(lesson: Lesson) -> list[str]:
    """Every problem of ``lesson`` played through its rules: a position its record does
    not build, an expected move that is not legal there or does not show what the step
    says, a learner with no move. An empty list: the lesson holds."""
    problems: list[str] = []
    for number, step in enumerate(lesson.steps, start=1):
        if step.play is not None:
            continue
        where = f"step {number} ({step.id})"
        try:
            state = step.start()
        except RacedayError as exc:
            problems.append(f"{where}: {exc}")
            continue
        legal = step.legal_names(state)
        if not legal:
            problems.append(f"{where}: {who_text(step.learner)} has no move here")
            continue
        for name in step.expect:
            trial = state.clone()
            try:
                tried = step.attempt(trial, name)
            except RacedayError as exc:
                problems.append(f"{where}: the expected move {name!r}: {exc}")
                continue
            kinds = {e.kind for e in tried.events}
            missing = [k for k in step.shows if k not in kinds]
            if missing:
                problems.append(f"{where}: {name!r} shows no {', '.join(missing)}")
        if not any(not step.is_right(n) for n in legal):
            problems.append(f"{where}: every move is right, so nothing is learnt")
        if step.choices is not None:
            problems += _choice_problems(step, legal, where)
    return problems


def _choice_problems(step: Step, legal: list[str], where: str) -> list[str]:
    """What is wrong with a step's ``choices``: one not legal, an expected or the wrong
    move left out, none to get wrong."""
    assert step.choices is not None
    problems: list[str] = []
    plain_legal = {_plain(n) for n in legal}
    offered = {_plain(c) for c in step.choices}
    problems += [f"{where}: the choice {c!r} is not a legal move here"
                 for c in step.choices if _plain(c) not in plain_legal]
    left_out = [e for e in step.expect if _plain(e) not in offered]
    if step.wrong is not None and _plain(step.wrong) not in offered:
        left_out.append(step.wrong)
    if left_out:
        problems.append(f"{where}: the choices leave out {', '.join(map(repr, left_out))}")
    if all(step.is_right(c) for c in step.choices):
        problems.append(f"{where}: every choice is right, so nothing is learnt")
    return problems


def a_wrong_move(step: Step, state: State) -> str | None:
    """The wrong move a test tries at ``step``: its ``wrong``, else the first move offered
    (legal, among its ``choices`` if it has them) that is not expected."""
    if step.wrong is not None:
        return step.wrong
    return next((n for n in step.offered(step.legal_names(state)) if not step.is_right(n)),
                None)


__all__ = ["Attempt", "Lesson", "LessonError", "Play", "Step", "a_wrong_move", "check_lesson",
           "lesson_games", "load_lesson", "read_lesson"]
