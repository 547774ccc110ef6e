"""A lesson's words and moves as both faces show them (``raceday learn`` and ``/learn``).

The lesson itself is data (:mod:`raceday.core.lesson`); this module words it in a language:
a step's title, idea, prompt, hint and reason (each given ``move``, the words of its first
expected move), the learner's legal moves with their labels, and what a move did.
"""

from __future__ import annotations

import importlib
from typing import Any

from raceday.core.discovery import agents_module, game_packages
from raceday.core.events import Event, Message
from raceday.core.lesson import WORDS, Lesson, Step
from raceday.core.protocol import CHANCE, HOST, Action, State
from raceday.present.messages import describe_action, describe_event, event_key, render

PLAY_WORDS = ("title", "idea", "prompt")


def lesson_key(game: str, part: str) -> str:
    """The key of the lesson's own words: ``title`` or ``intro``."""
    return f"{game}.lesson.{part}"


def step_parts(step: Step) -> tuple[str, ...]:
    """The words a step has: a position step all five, the play step its first three."""
    return PLAY_WORDS if step.play is not None else WORDS


def learner_actions(step: Step, state: State) -> list[tuple[str, Action]]:
    """The learner's moves the faces offer in ``state``: (name, action), the step's
    ``choices`` where it has them (in their order), else every legal move in the rules'
    order."""
    if step.learner == CHANCE:
        if not state.is_chance_node():
            return []
        actions = [a for a, p in state.chance_outcomes() if p > 0]
    elif step.learner in state.acting_players() or (
            step.learner == HOST and state.legal_actions_for(HOST)):
        actions = list(state.legal_actions_for(step.learner))
    else:
        actions = []
    named = {state.action_to_string(a): a for a in actions}
    return [(name, named[name]) for name in step.offered(list(named))]


def move_message(state: State, action: Action) -> Message:
    """What a move means (the message the game gives it)."""
    return state.action_message(action)


def move_words(step: Step, state: State, lang: str) -> str:
    """The words of the step's first expected move (the templates' ``move``)."""
    if not step.expect:
        return ""
    wanted = " ".join(step.expect[0].split()).lower()
    for name, action in learner_actions(step, state):
        if " ".join(name.split()).lower() == wanted:
            return describe_action(state, action, lang)
    return step.expect[0]


def step_words(lesson: Lesson, step: Step, lang: str, state: State | None = None
               ) -> dict[str, str]:
    """The step's words in ``lang`` (``title``, ``idea``, ``prompt``; a position step also
    ``hint`` and ``why``), ``move`` filled in from ``state`` (default: its position)."""
    if step.play is None and state is None:
        state = step.start()
    move = move_words(step, state, lang) if state is not None else ""
    return {part: render(step.key(lesson.game, part), lang, params={"move": move})
            for part in step_parts(step)}


def worded_events(game: str, events: list[Event]) -> list[Event]:
    """``events`` as a lesson words them: each passed through the ``lesson_event(event)``
    of the game's ``lesson_play`` module where it has one (facts that are codes, such as a
    side's or a move's name, become messages of the game's table), else as they are."""
    reword = getattr(lesson_module(game), "lesson_event", None)
    return list(events) if reword is None else [reword(e) for e in events]


def event_words(game: str, events: list[Event], lang: str) -> list[str]:
    """What a move and the board's answer did, one sentence an event (unworded ones left
    out)."""
    out = []
    for event in worded_events(game, events):
        text = describe_event(game, event, lang)
        if text and not text.startswith(f"{game}.event.") and not text.startswith("event."):
            out.append(text)
    return out


ANSWER_LINES = 12
"""The most lines a step's answer shows: a move that plays a whole race (Dice Derby's
betting) shows what the step is about and folds the rest."""
FOLDED = "learn_folded"  # "… 27 lines left out …"
ANSWER_KINDS = frozenset({"result"})  # shown in every step's answer, with its ``shows``


def answer_messages(game: str, step: Step, events: list[Event], lang: str = "en",
                    limit: int = ANSWER_LINES) -> list[Message]:
    """What a step's right move did, as messages of at most ``limit`` lines in ``lang``
    (an event's message is ``event.<kind>`` with its facts, worded as the lesson words
    them): every worded event where they fit; else the step's ``shows`` events and the result,
    then the first events in order while they fit, each run of the others folded into one
    ``learn_folded`` line that counts the lines it hides (a run of one line is shown)."""
    worded = [(Message(e.key, e.params), e.kind) for e in worded_events(game, events)]
    texts = [_said(game, m, lang) for m, _ in worded]
    shown = [i for i, text in enumerate(texts)
             if text and not text.startswith((f"{game}.event.", "event."))]
    size = {i: len(texts[i].splitlines()) or 1 for i in shown}
    if sum(size.values()) <= limit:
        return [worded[i][0] for i in shown]

    def cost(kept: set[int]) -> int:
        return sum(size[i] for i in kept) + len(_folded_runs(shown, kept))

    kept: set[int] = set()
    wanted = [i for i in shown if worded[i][1] in step.shows or worded[i][1] in ANSWER_KINDS]
    for i in wanted:  # what the step shows first
        if cost(kept | {i}) <= limit:
            kept.add(i)
    for i in shown:  # then the others from the start, while they fit
        if i in kept:
            continue
        if cost(kept | {i}) > limit:
            break
        kept.add(i)
    kept |= {run[0] for run in _folded_runs(shown, kept) if sum(size[j] for j in run) == 1}
    runs = {run[0]: run for run in _folded_runs(shown, kept)}  # (a line folds no line)
    out: list[Message] = []
    for i in shown:
        if i in kept:
            out.append(worded[i][0])
        elif i in runs:
            out.append(Message(FOLDED, {"n": sum(size[j] for j in runs[i])}))
    return out


def _folded_runs(shown: list[int], kept: set[int]) -> list[list[int]]:
    """The runs of consecutive shown events left out of ``kept``."""
    runs: list[list[int]] = []
    for position, i in enumerate(shown):
        if i in kept:
            continue
        if position and shown[position - 1] not in kept and runs:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _said(game: str, message: Message, lang: str) -> str:
    """An answer's message in ``lang``, an event's by its variant for a true fact."""
    return render(Message(event_key(game, message.key, message.params, lang), message.params),
                  lang, game)


def answer_words(game: str, step: Step, events: list[Event], lang: str = "en") -> list[str]:
    """:func:`answer_messages` as text in ``lang`` (the terminal's answer)."""
    return [_said(game, m, lang) for m in answer_messages(game, step, events, lang)]


def lesson_module(game: str) -> Any:
    """The game package's ``lesson_play`` module (its lesson's own terminal faces), or
    None where it has none."""
    package = game_packages().get(game)
    if package is None:
        return None
    try:
        return importlib.import_module(f"{package}.lesson_play")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.lesson_play":
            raise
        return None


def lesson_picture(game: str, state: State, lang: str) -> str:
    """A step's board as plain text in ``lang``: ``lesson_picture(state, lang)`` of the
    game's ``lesson_play`` module (every word from its message tables), else the text
    picture of the state's game."""
    from raceday.present.pictures import text_picture

    draw = getattr(lesson_module(game), "lesson_picture", None)
    return text_picture(state) if draw is None else str(draw(state, lang))


def own_first_game(game: str) -> Any:
    """The game's own first game of its lesson at the terminal, if it ships one:
    ``first_game(surface, play, lang)`` of its package's ``lesson_play`` module (Dice
    Derby's party, KEIRIN's betting night, a WielerSIM race), else None."""
    return getattr(lesson_module(game), "first_game", None)


def hint_level(game: str, level: str) -> str | None:
    """A computer level stronger than ``level`` whose move is shown as a hint in the first
    game: the game's first level (``LEVELS``) that is not ``level`` nor ``random``."""
    levels = list(getattr(agents_module(game), "LEVELS", ()) or ())
    return next((lv for lv in levels if lv not in (level, "random")), None)


__all__ = ["ANSWER_LINES", "PLAY_WORDS", "agents_module", "answer_messages", "answer_words",
           "event_words", "hint_level", "learner_actions",
           "lesson_key", "lesson_module", "lesson_picture", "move_message", "move_words",
           "step_parts", "step_words", "worded_events"]
