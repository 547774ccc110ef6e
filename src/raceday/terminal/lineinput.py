"""The one input layer under every prompt: :func:`ask`.

At a terminal (standard input and output are terminals, TERM is not dumb) it reads with
prompt_toolkit: the line can be edited (arrows, Home/End, Ctrl-A/E/K/W…), Up and Down walk
the earlier answers to the same kind of prompt, and Tab completes the prompt's legal words
and the universal ones (help, undo, quit). Secret answers are typed without echo and never
kept in a history. From a pipe or a script it reads plain lines, exactly as before, so tests
and scripts keep working; the end of the input is EOFError in both.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.input import Input
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.output import Output
    from rich.console import Console

    from raceday.terminal.prompts import Prompt

# The universal words (raceday.terminal.surface.UNIVERSAL) offered by Tab after a prompt's
# own words, in both languages.
COMPLETED_UNIVERSAL = ("help", "undo", "quit", "ヘルプ", "取り消し", "やめる")


def at_terminal() -> bool:
    """Whether a person is at a terminal that can edit a line: standard input and output
    are terminals, and TERM is not dumb."""
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def plain_message(prompt: Prompt) -> str:
    """The prompt's words without Rich markup (prompt_toolkit shows text as it is)."""
    return Text.from_markup(prompt.text).plain


def history_name(prompt: Prompt) -> str:
    """The kind of ``prompt`` its history is kept under: its ``history`` name, else its
    words with numbers blotted out ('R3 ticket> ' and 'R4 ticket> ' share one)."""
    return prompt.history or re.sub(r"\d+", "#", plain_message(prompt).strip())


class LineReader:
    """prompt_toolkit sessions, one per kind of prompt (so each kind has its own history),
    on the terminal or on the ``input``/``output`` given (tests give a pipe)."""

    def __init__(self, input: Input | None = None, output: Output | None = None) -> None:
        self.input = input
        self.output = output
        self._sessions: dict[str, PromptSession[str]] = {}
        self._secret: PromptSession[str] | None = None

    def session(self, prompt: Prompt) -> PromptSession[str]:
        """The session ``prompt`` reads with: its kind's, or the one for secrets (whose
        history keeps nothing)."""
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import DummyHistory, InMemoryHistory

        if prompt.secret:
            if self._secret is None:
                self._secret = PromptSession(history=DummyHistory(), input=self.input,
                                             output=self.output, is_password=True)
            return self._secret
        name = history_name(prompt)
        if name not in self._sessions:
            self._sessions[name] = PromptSession(history=InMemoryHistory(),
                                                 input=self.input, output=self.output)
        return self._sessions[name]

    def read(self, prompt: Prompt) -> str:
        """One answer to ``prompt``; EOFError at the end of input (Ctrl-D on an empty
        line), KeyboardInterrupt on Ctrl-C."""
        from prompt_toolkit.completion import WordCompleter

        session = self.session(prompt)
        if prompt.secret:
            return session.prompt(plain_message(prompt), is_password=True,
                                  set_exception_handler=False)
        words = list(prompt.words) + [w for w in COMPLETED_UNIVERSAL if w not in prompt.words]
        # the whole line is matched (sentence): "a1 c" completes to "a1 charge b1" and
        # "a1 cruise b1", not to the answers that begin with "c"
        completer = WordCompleter(words, ignore_case=True, sentence=True)
        return session.prompt(plain_message(prompt), completer=completer,
                              complete_while_typing=False, is_password=False,
                              key_bindings=_tab_bindings(),
                              # an error in the loop is asyncio's to report: prompt_toolkit's
                              # own handler waits for Enter, forever on a pipe at its end
                              set_exception_handler=False)


def _tab_bindings() -> KeyBindings:
    """Tab completes at once when one word fits (prompt_toolkit's own Tab completes in the
    background, so a quick Tab then Enter would send the half word); with several it opens
    the menu (Tab again walks it)."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.key_binding import KeyBindings

    bindings = KeyBindings()

    @bindings.add("tab")
    def _complete(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if buffer.complete_state is not None:
            buffer.complete_next()
            return
        if buffer.completer is not None:
            fits = list(buffer.completer.get_completions(
                buffer.document, CompleteEvent(completion_requested=True)))
            if len(fits) == 1:
                buffer.apply_completion(fits[0])
                return
        buffer.start_completion(insert_common_part=True)

    return bindings


_terminal_reader: LineReader | None = None

# While a full-screen view runs, the reader that answers prompts in it (a raw reader: the
# words help/undo/quit come back as typed). Set and cleared by the view.
_full_screen_reader: Callable[[Prompt], str] | None = None


def read_in_full_screen(reader: Callable[[Prompt], str] | None) -> None:
    """Let ``reader`` answer every :func:`ask` while a full-screen view runs (None: the
    terminal again), so a prompt a loop reads directly (``read_line``, ``ask_yes_no``)
    opens in the view instead of fighting it for the terminal."""
    global _full_screen_reader
    _full_screen_reader = reader


# Lines for the terminal said while a full-screen view owns it (it would swallow them):
# the view's runner prints them once the view has closed.
_after_view: list[str] = []


def say_after_view(line: str) -> bool:
    """Keep ``line`` for the terminal until the full-screen view closes, if one runs;
    whether it was kept (else the caller prints it now)."""
    if _full_screen_reader is None:
        return False
    _after_view.append(line)
    return True


def take_after_view() -> list[str]:
    """The lines kept by :func:`say_after_view` (and forget them)."""
    lines = list(_after_view)
    _after_view.clear()
    return lines


def terminal_reader() -> LineReader:
    """The reader of the real terminal (its histories last as long as the program)."""
    global _terminal_reader
    if _terminal_reader is None:
        _terminal_reader = LineReader()
    return _terminal_reader


def ask(prompt: Prompt, console: Console | None = None) -> str:
    """One answer to ``prompt``: in the full-screen view while one runs, else edited at a
    terminal, else a plain line from ``console`` (default: the shared console); EOFError
    at the end of input."""
    from raceday.terminal.consoles import console as shared_console

    if _full_screen_reader is not None:
        return _full_screen_reader(prompt)
    if at_terminal():
        return terminal_reader().read(prompt)
    out = console or shared_console
    if prompt.secret and sys.stdin.isatty():  # output piped, a person typing: no echo
        import getpass

        return getpass.getpass(plain_message(prompt))
    return out.input(prompt.text)
