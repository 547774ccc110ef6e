"""The one face every terminal game talks to: a :class:`Surface`.

A game's play or watch loop never prints or reads on its own. It shows its board with
:meth:`Surface.board`, writes its log with :meth:`Surface.say`, says whose turn it is and what
to type with :meth:`Surface.status`, keeps a move list with :meth:`Surface.moves`, and reads
every answer with :meth:`Surface.ask`. Two surfaces implement it:

- :class:`LineSurface` (this module): line-oriented output on the console, answers through
  the shared input layer (:mod:`raceday.terminal.lineinput`: line editing, history and
  completion at a terminal; plain lines from a pipe). Piped and ``--plain`` runs use it, so
  scripts and tests keep working.
- ``raceday.terminal.tui.FullScreenSurface``: a Textual full-screen view with a fixed board,
  a status bar, a scrolling log, a move list and a choice list (keyboard or mouse); the loop
  runs in a worker thread and :meth:`ask` waits for the player's answer.

Every prompt understands the same four words (:data:`UNIVERSAL`): ``help`` and ``?`` show the
prompt's help and ask again (the surface does that itself); ``quit`` raises :class:`Quit`
(the loop saves what it has and says how to resume); ``undo`` comes back to the loop as the
answer :data:`UNDO`, which takes back what the game allows, or answers with a worded refusal.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import Protocol

from rich.console import Console, RenderableType
from rich.text import Text

from raceday.present.messages import render
from raceday.terminal.prompts import HELP as HELP
from raceday.terminal.prompts import QUIT as QUIT
from raceday.terminal.prompts import UNDO as UNDO
from raceday.terminal.prompts import UNIVERSAL as UNIVERSAL
from raceday.terminal.prompts import Board as Board
from raceday.terminal.prompts import Choice as Choice
from raceday.terminal.prompts import Prompt as Prompt
from raceday.terminal.prompts import Quit as Quit
from raceday.terminal.prompts import universal_word as universal_word
from raceday.terminal.wrapping import wrapped


class Surface(Protocol):
    """Where a terminal game shows itself and reads its answers (see the module text)."""

    lang: str
    full_screen: bool

    def board(self, board: Board, status: str | None = None) -> None:
        """Show ``board`` as the board now (line mode prints it; full screen replaces the
        fixed board). A ``status`` given with it is the status bar of that board, shown in
        the same refresh (as :meth:`status` would), so the bar never lags the board."""

    def say(self, text: RenderableType) -> None:
        """One entry of the log (a line of commentary, a result, a refusal)."""

    def status(self, text: str) -> None:
        """Whose turn it is and what to type (full screen: the status bar; line mode:
        printed only when it changes)."""

    def moves(self, lines: Sequence[str]) -> None:
        """The move list so far (full screen: its panel; line mode: not shown)."""

    def ask(self, prompt: Prompt) -> str:
        """The player's answer, stripped. ``help``/``?`` are answered here and asked again;
        ``quit`` raises :class:`Quit`; ``undo`` returns :data:`UNDO`. EOFError when the input
        ends (a script that ran out)."""
        ...

    def pause(self, seconds: float) -> None:
        """Wait between steps of a race (watch); may raise :class:`Quit` in full screen."""


def prompt_help(prompt: Prompt, lang: str) -> str:
    """The help for ``prompt``: its own, else the legal choices; with the universal words."""
    lines = [prompt.help] if prompt.help else []
    if prompt.choices and not prompt.help:
        shown = ", ".join(c.text for c in prompt.choices[:24])
        more = "…" if len(prompt.choices) > 24 else ""
        lines.append(render("terminal.help.choices", lang, params={"choices": shown + more}))
    lines.append(render("terminal.help.universal", lang))
    return "\n".join(lines)


def refusal_line(reason: str, lang: str) -> Text:
    """A refused answer, worded alike in every game and both views: ``Refused: why`` (ja
    ``受け付けません：why``), its first word in red, then the reason as the game words it."""
    head = render("terminal.refused", lang)
    return Text.assemble((head, "bold red"), "" if head.endswith("：") else " ", reason)


class LineSurface:
    """The line-oriented surface: boards and log lines printed in order on ``console``,
    answers read through :func:`raceday.terminal.lineinput.ask` (editing, history and
    completion at a terminal)."""

    full_screen = False

    def __init__(self, console: Console | None = None, lang: str = "en") -> None:
        from raceday.terminal.consoles import console as shared_console

        self.console = console or shared_console
        self.lang = lang
        self._status = ""

    def board(self, board: Board, status: str | None = None) -> None:
        if callable(board):
            board = board(self.console.width, self.console.height)
        self.console.print(board)
        if status is not None:
            self.status(status)

    def say(self, text: RenderableType) -> None:
        # a Text marked no_wrap (a command to copy, a path) stays one line for the terminal
        # to wrap, instead of being cut into lines at the console's width; other text
        # breaks between words, never inside one (Japanese included: see wrapping)
        self.console.print(wrapped(text), soft_wrap=isinstance(text, Text) and bool(text.no_wrap))

    def status(self, text: str) -> None:
        if text and text != self._status:
            self.console.print(text, markup=False, highlight=False)
        self._status = text

    def moves(self, lines: Sequence[str]) -> None:
        return None

    def ask(self, prompt: Prompt) -> str:
        from raceday.terminal import lineinput

        while True:
            answer = lineinput.ask(prompt, console=self.console).strip()
            word = universal_word(answer)
            if word == HELP:
                if not sys.stdin.isatty():  # a scripted answer is not echoed: end the line
                    self.console.print()
                self.console.print(wrapped(prompt_help(prompt, self.lang), markup=False),
                                   highlight=False)
                continue
            if word == QUIT:
                raise Quit
            return UNDO if word == UNDO else answer

    def pause(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


def wants_full_screen(plain: bool = False) -> bool:
    """Whether play and watch open the full-screen view: only with a real terminal on both
    standard input and output, not asked for ``--plain``, and not a dumb terminal (or
    ``RACEDAY_PLAIN`` set in the environment)."""
    if plain or os.environ.get("RACEDAY_PLAIN") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()
