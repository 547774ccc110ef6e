"""What a prompt is, and the words every prompt understands: the leaf the surfaces and the
input layer share (it imports nothing else of raceday.terminal, so neither imports the
other through it). :mod:`raceday.terminal.surface` re-exports all of it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.console import RenderableType

# A board: a Rich renderable, or a function of the space it gets (width, height) that draws
# one fitting it (a full-screen view calls it again on every resize).
Board = RenderableType | Callable[[int, int], RenderableType]

UNDO = "undo"
HELP = "help"
QUIT = "quit"
# What a person may type at any prompt of any game, in either language, and what it means.
UNIVERSAL: dict[str, str] = {
    "help": HELP, "?": HELP, "h": HELP, "？": HELP, "ヘルプ": HELP,
    "quit": QUIT, "exit": QUIT, "q": QUIT, "やめる": QUIT, "終了": QUIT,
    "undo": UNDO, "u": UNDO, "takeback": UNDO, "取り消し": UNDO, "戻す": UNDO,
}


def universal_word(text: str) -> str | None:
    """:data:`HELP`, :data:`QUIT` or :data:`UNDO` if ``text`` is one of the universal words
    (any case, surrounding blanks ignored), else None."""
    return UNIVERSAL.get(text.strip().lower())


class Quit(Exception):
    """The player asked to stop (typed ``quit``, or pressed q in a full-screen view). The
    game loop catches it, keeps what is saved and says how to resume."""


@dataclass(frozen=True)
class Choice:
    """One legal answer at a prompt: ``text`` is what choosing it answers (exactly what
    typing it would give), ``label`` how it is listed (defaults to ``text``), and ``preview``
    the board with this choice's target highlighted (a full-screen view shows it while the
    choice is selected)."""

    text: str
    label: str = ""
    preview: Board | None = None

    @property
    def shown(self) -> str:
        return self.label or self.text


@dataclass
class Prompt:
    """What :meth:`Surface.ask` was asked: the words before the cursor, the legal choices
    (listed and completed), further completions (words that are not a whole answer, like
    'win' or a rider's number), whether the answer is secret (never echoed, never kept in
    history), the help shown for ``help`` / ``?``, and the name of the history its answers
    are kept in at a terminal (one per kind of prompt, so Up recalls earlier tickets at a
    ticket prompt; empty: the prompt's text with its numbers blotted out), and whether the
    game takes something back with ``undo`` here (the full screen offers ctrl+z only then;
    the game refuses it while there is nothing to take back yet)."""

    text: str
    choices: Sequence[Choice] = ()
    completions: Sequence[str] = ()
    secret: bool = False
    help: str | None = None
    history: str = ""
    undo: bool = False
    words: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        seen = dict.fromkeys([c.text for c in self.choices] + list(self.completions))
        self.words = [w for w in seen if w]
