"""The full-screen :class:`~raceday.terminal.surface.Surface`: the game loop's side of a
:class:`~raceday.terminal.tui.app.GameApp`.

The loop runs in a worker thread. Every method hands its work to the app's thread with
``app.call_from_thread`` (Textual widgets are not thread-safe); :meth:`ask` then blocks on a
thread-safe queue until the player answers, and :meth:`pause` sleeps in small slices so that
quit and pause react at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rich.console import RenderableType
from rich.text import Text

from raceday.terminal.surface import (
    HELP,
    QUIT,
    UNDO,
    Board,
    Prompt,
    Quit,
    prompt_help,
    universal_word,
)


class View(Protocol):
    """What the surface needs of its app (a :class:`~raceday.terminal.tui.app.GameApp`),
    named here so this module does not import the app that imports it."""

    @property
    def closing(self) -> bool: ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any: ...

    def show_board(self, board: Board, status: str | None = None) -> None: ...

    def write_log(self, text: RenderableType) -> None: ...

    def show_status(self, text: str) -> None: ...

    def show_moves(self, lines: list[str]) -> None: ...

    def take_quit_request(self) -> bool: ...

    def check_interrupt(self) -> None: ...

    def open_prompt(self, prompt: Prompt) -> None: ...

    def wait_for_answer(self) -> str: ...

    def note_quit(self) -> None: ...

    def wait_pause(self, seconds: float) -> None: ...


class FullScreenSurface:
    """The surface a :class:`GameApp` gives its game loop (see the module text)."""

    full_screen = True

    def __init__(self, app: View, lang: str = "en") -> None:
        self.app = app
        self.lang = lang

    def _call(self, callback: Callable[..., Any], *args: Any) -> Any:
        """Run ``callback`` on the app's thread; :class:`Quit` once the app is closing."""
        self.app.check_interrupt()
        if self.app.closing:
            raise Quit
        try:
            return self.app.call_from_thread(callback, *args)
        except RuntimeError:  # the app stopped running under us
            raise Quit from None

    def board(self, board: Board, status: str | None = None) -> None:
        self._call(self.app.show_board, board, status)  # one call: one refresh for both

    def say(self, text: RenderableType) -> None:
        self._call(self.app.write_log, text)

    def status(self, text: str) -> None:
        self._call(self.app.show_status, text)

    def moves(self, lines: Sequence[str]) -> None:
        self._call(self.app.show_moves, list(lines))

    def ask(self, prompt: Prompt) -> str:
        while True:
            if self.app.take_quit_request():
                raise Quit
            self._call(self.app.open_prompt, prompt)
            answer = self.app.wait_for_answer().strip()
            word = universal_word(answer)
            if word == HELP:
                self._call(self.app.write_log, Text(prompt_help(prompt, self.lang)))
                continue
            if word == QUIT:
                self.app.note_quit()
                raise Quit
            return UNDO if word == UNDO else answer

    def pause(self, seconds: float) -> None:
        self.app.wait_pause(seconds)
