"""``raceday learn``: a game taught by doing, step by step, in the terminal (docs/usage/learn.md).

Each step of the game's lesson (:mod:`raceday.core.lesson`) shows its title and idea, the
board (the game's text picture of the step's position, built by its rules), the prompt and
the learner's legal moves as a numbered menu. A wrong move gets the hint (try again); the
right one is played with the board's answer, worded, and the reason follows. The last step
is a first game against the easiest computer, where ``hint`` shows what a stronger one
would play (a game whose package has a ``lesson_play`` module plays its own first game
there, e.g. a Dice Derby party with a hint before each bid and ticket). ``quit`` leaves
the lesson; the step reached is kept in a small file in the user's data folder, and the
next ``raceday learn GAME`` resumes there.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from raceday.core.lesson import Lesson, LessonError, Step, lesson_games, load_lesson
from raceday.present import render
from raceday.terminal.common import LangOpt, PlainOpt, console, print_json, resolve_lang

HELP = ("Learn a game by playing it: short steps on real positions, then a first game."
        "\n\n"
        "Each step shows one idea, the board and your legal moves as a numbered menu: type "
        "the number of the move the prompt asks for. A wrong move gets a hint; the right one "
        "is played and explained. The last step is a game against the easiest computer "
        "(type hint on your turn). quit leaves the lesson, and the next run resumes at the "
        "same step. Without GAME: the games that have a lesson.")

app = typer.Typer(help=HELP, add_completion=False)

PROGRESS_FILE = "lessons.json"


class LearnError(LessonError):
    """A lesson that cannot be given (no such game or step): one line, exit code 2."""


def words(key: str, lang: str, **params: Any) -> str:
    return render(f"terminal.learn.{key}", lang, params=params)


# --- progress: the step reached, per game, on this device ---------------------------------
def progress_path() -> Path:
    """The file that keeps the step each lesson was left at (the user's data folder)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("raceday", appauthor=False)) / PROGRESS_FILE


def read_progress() -> dict[str, int]:
    """The step each lesson was left at (an unreadable file counts as none)."""
    try:
        data = json.loads(progress_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, int)}


def keep_progress(game: str, number: int | None) -> None:
    """Keep ``number`` as the step ``game``'s lesson resumes at (None: finished, forget)."""
    from raceday.core.serialize import atomic_write_text

    kept = read_progress()
    if number is None:
        kept.pop(game, None)
    else:
        kept[game] = number
    # a read-only home: the lesson goes on, only the place is not kept
    with contextlib.suppress(OSError):
        atomic_write_text(progress_path(), json.dumps(kept, indent=1, sort_keys=True) + "\n")


# --- the lesson as data -----------------------------------------------------------------
def the_lesson(game: str) -> Lesson:
    """``game``'s lesson, or a refusal that names the games that have one."""
    known = lesson_games()
    if game not in known:
        raise LearnError(f"there is no lesson for {game!r}; lessons: {', '.join(known)}")
    return load_lesson(game)


def step_json(lesson: Lesson, number: int, lang: str, frames: bool) -> dict[str, Any]:
    """One step as JSON: its number, id, words and (``frames``) its position's frame and the
    learner's moves."""
    from raceday.present.lessons import learner_actions, step_words

    step = lesson.step(number)
    out: dict[str, Any] = {"number": number, "id": step.id, "play": step.play is not None}
    out["words"] = step_words(lesson, step, lang)
    if step.play is not None:
        out["level"] = step.play.level
        out["options"] = dict(step.play.options)
        if step.play.game is not None:
            out["game"] = step.play.game
    elif frames:
        state = step.start()
        out["expect"] = list(step.expect)
        out["frame"] = state.frame()
        out["moves"] = [{"name": name, "message": state.action_message(action).to_json()}
                        for name, action in learner_actions(step, state)]
    return out


# --- the walk -----------------------------------------------------------------------------
def _board(state: Any, game: str, lang: str) -> Text:
    """The board as text in ``lang``: the lesson's own picture where the game's
    ``lesson_play`` module draws one, else the picture of the state's game, else of the
    lesson's game (a KEIRIN night or a Derby evening is a game of its own the lesson's
    package draws)."""
    from raceday.core.discovery import face
    from raceday.present.lessons import lesson_module, lesson_picture

    if getattr(lesson_module(game), "lesson_picture", None) is not None:
        return Text(lesson_picture(game, state, lang))
    draw = getattr(face(game, "picture"), "text_picture", None)
    if face(state.game_name, "picture") is None and draw is not None:
        return Text(str(draw(state)))
    return Text(lesson_picture(game, state, lang))


def _menu(step: Step, state: Any, lang: str) -> list[tuple[str, str]]:
    from raceday.present.lessons import learner_actions
    from raceday.present.messages import describe_action

    return [(name, describe_action(state, action, lang))
            for name, action in learner_actions(step, state)]


def _chosen(answer: str, menu: list[tuple[str, str]]) -> str | None:
    """The move an answer names: its number in the menu, or the move's own name."""
    text = answer.strip()
    if text.isdigit() and 1 <= int(text) <= len(menu):
        return menu[int(text) - 1][0]
    plain = " ".join(text.split()).lower()
    return next((name for name, _ in menu if " ".join(name.split()).lower() == plain), None)


def walk(surface: Any, lesson: Lesson, first: int, lang: str) -> int:
    """Walk ``lesson`` from step ``first`` on ``surface``; the step reached is kept."""
    from raceday.present.lessons import answer_words, step_words
    from raceday.terminal.surface import Choice, Prompt, Quit

    total = len(lesson.steps)
    number = first
    try:
        if first == 1:
            surface.say(Text(render(f"{lesson.game}.lesson.title", lang), style="bold"))
            surface.say(render(f"{lesson.game}.lesson.intro", lang))
        while number <= total:
            keep_progress(lesson.game, number)
            step = lesson.step(number)
            said = step_words(lesson, step, lang)
            surface.say(Text(words("step", lang, n=number, total=total, title=said["title"]),
                             style="bold"))
            if step.play is not None:
                surface.say(said["idea"])
                play_first_game(surface, lesson, step, said["prompt"], lang)
                number += 1
                continue
            state = step.start()
            surface.board(_board(state, lesson.game, lang),
                          status=words("status", lang, n=number, total=total))
            surface.say(said["idea"])
            menu = _menu(step, state, lang)
            for index, (_, label) in enumerate(menu, start=1):
                surface.say(f"  {index}. {label}")
            while True:
                prompt = Prompt(said["prompt"] + " ",
                                choices=[Choice(str(i), f"{i}. {label}")
                                         for i, (_, label) in enumerate(menu, start=1)],
                                help=words("help", lang), history="learn")
                name = _chosen(surface.ask(prompt), menu)
                if name is None:
                    surface.say(words("not_a_number", lang))
                    continue
                tried = step.attempt(state, name)
                if not tried.right:
                    surface.say(Text(words("hint", lang, hint=said["hint"]), style="yellow"))
                    continue
                for line in answer_words(lesson.game, step, tried.events, lang):
                    surface.say(f"  {line}")  # at most ANSWER_LINES: a race's rolls fold
                surface.board(_board(state, lesson.game, lang))
                surface.say(Text(words("why", lang, why=said["why"]), style="green"))
                break
            number += 1
            if number <= total:
                surface.ask(Prompt(words("next", lang) + " ", help=words("help", lang),
                                   history="learn"))
    except (Quit, EOFError):
        keep_progress(lesson.game, min(number, total))
        surface.say(words("left", lang, n=number, command=f"raceday learn {lesson.game}"))
        return 0
    keep_progress(lesson.game, None)
    surface.say(Text(words("done", lang), style="bold"))
    return 0


def play_first_game(surface: Any, lesson: Lesson, step: Step, prompt_text: str,
                    lang: str) -> None:
    """The last step: a game against the step's computer level, the learner choosing from
    the menu; ``hint`` shows what a stronger level would play. A game with no computer
    players (or no seat for the learner) is named by the command that plays it."""
    import numpy as np

    from raceday.core.registry import get_game
    from raceday.present.lessons import agents_module, event_words, hint_level, own_first_game
    from raceday.present.messages import describe_action, describe_result
    from raceday.terminal.surface import Choice, Prompt

    assert step.play is not None
    own = own_first_game(lesson.game)
    if own is not None:  # the game's own table: a Dice Derby party, a KEIRIN night, ...
        surface.say(prompt_text)
        own(surface, step.play, lang)
        return
    make = getattr(agents_module(lesson.game), "make_agent", None)
    if make is None or step.learner < 0:
        surface.say(words("play_next", lang, command=play_command(lesson.game)))
        return
    state = get_game(lesson.game).new_state(dict(step.play.options))
    rng = np.random.default_rng()
    computer = make(step.play.level)
    stronger_level = hint_level(lesson.game, step.play.level)
    stronger = make(stronger_level) if stronger_level else None
    surface.say(prompt_text)
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            events = state.apply_action(draw.outcome, draw.detail)
        elif state.current_player() == step.learner:
            surface.board(_board(state, lesson.game, lang))
            menu = _menu(step, state, lang)
            for index, (_, label) in enumerate(menu, start=1):
                surface.say(f"  {index}. {label}")
            choices = [Choice(str(i), f"{i}. {label}") for i, (_, label) in
                       enumerate(menu, start=1)]
            while True:
                answer = surface.ask(Prompt(words("your_move", lang) + " ", choices=choices,
                                            completions=["hint"], help=words("play_help", lang),
                                            history="learn"))
                if answer.strip().lower() == "hint" and stronger is not None:
                    action = stronger.choose(state.clone(), rng)
                    surface.say(words("suggest", lang, move=describe_action(state, action,
                                                                            lang)))
                    continue
                name = _chosen(answer, menu)
                if name is None:
                    surface.say(words("not_a_number", lang))
                    continue
                break
            from raceday.core.record import Move, apply_move

            events = apply_move(state, Move(step.learner, name))
        elif state.current_player() >= 0:
            events = state.apply_action(computer.choose(state, rng))
        else:  # a move of the host's (a party game's): not a game for this table
            surface.say(words("play_next", lang, command=play_command(lesson.game)))
            return
        for line in event_words(lesson.game, events, lang):
            surface.say(f"  {line}")
    surface.board(_board(state, lesson.game, lang))
    surface.say(Text(describe_result(state, lang), style="bold"))


def play_command(game: str) -> str:
    """The command that plays ``game`` at the terminal: ``raceday GAME play`` where the
    game has one, else its help."""
    import importlib

    from raceday.core.discovery import game_packages

    try:
        module = importlib.import_module(f"{game_packages()[game]}.cli")
        commands = getattr(typer.main.get_command(module.app), "commands", {})
    except (ImportError, KeyError, AttributeError):
        commands = {}
    return f"raceday {game} play" if "play" in commands else f"raceday {game} --help"


# --- the command --------------------------------------------------------------------------
@app.command(name="learn")
def learn(
    game: Annotated[str | None, typer.Argument(
        help="The game to learn (without it: the games that have a lesson).",
        show_default=False)] = None,
    list_steps: Annotated[bool, typer.Option(
        "--list", help="List the lesson's steps (numbered titles), then stop.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the lesson as JSON: with --list its steps; alone every step "
        "with its position's frame and the learner's moves.")] = False,
    step: Annotated[int | None, typer.Option(
        "--step", metavar="N", help="Start at step N (default: where you left off, else 1).",
        show_default=False)] = None,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Learn a game by playing it, step by step."""
    said_in = resolve_lang(lang)
    if game is None:
        games = lesson_games()
        if as_json:
            print_json({"games": [{"game": g, "title": render(f"{g}.lesson.title", said_in)}
                                  for g in games]})
            return
        console.print(words("games", said_in), markup=False, highlight=False)
        for name in games:
            console.print(f"  {name}: {render(f'{name}.lesson.title', said_in)}",
                          markup=False, highlight=False)
        return
    lesson = the_lesson(game.strip().lower())
    total = len(lesson.steps)
    if step is not None and not 1 <= step <= total:
        raise LearnError(f"the {lesson.game} lesson has steps 1 to {total}, not {step}")
    if as_json:
        numbers = range(1, total + 1)
        print_json({"game": lesson.game,
                    "title": render(f"{lesson.game}.lesson.title", said_in),
                    "intro": render(f"{lesson.game}.lesson.intro", said_in),
                    "steps": [step_json(lesson, n, said_in, frames=not list_steps)
                              for n in numbers]})
        return
    if list_steps:
        from raceday.present.lessons import step_words

        for number, each in enumerate(lesson.steps, start=1):
            title = step_words(lesson, each, said_in)["title"]
            console.print(f"{number}. {title}", markup=False, highlight=False)
        return
    first = step if step is not None else read_progress().get(lesson.game, 1)
    first = first if 1 <= first <= total else 1
    if first > 1 and step is None:
        console.print(words("resumed", said_in, n=first, total=total), markup=False,
                      highlight=False)
    from raceday.terminal.tui import run_command

    run_command(lambda surface: walk(surface, lesson, first, said_in),
                title=render(f"{lesson.game}.lesson.title", said_in), lang=said_in,
                plain=plain)
