"""The full-screen view every terminal game plays and watches in: :class:`GameApp`.

Layout (one widget tree; the CSS moves the panels with the terminal's size)::

    title bar: the game's title · the keys that work now
    ┌ board ───────────────────────────────┐   narrow (under 120 columns): the log, the
    │ fixed; redrawn to its space           │   choices and the move list share a strip
    └───────────────────────────────────────┘   under the board.
    ┌ log ─────────┐┌ choices ┐┌ moves ────┐   wide (120 columns and more): they form a
    └──────────────┘└─────────┘└───────────┘   column right of an 80-column board.
    › the answer line (completion, password mode for secrets)
    status bar: whose turn, what to type

The game loop runs in a worker thread (``run_worker(..., thread=True)``) and talks to the view
through :class:`~raceday.terminal.tui.surface.FullScreenSurface`, which calls back into the
app with ``call_from_thread``. Keys: Enter answers; ↑/↓ walk the choices (the board shows the
highlighted one's preview); Tab completes the word or moves to the choice list; ctrl+z
answers ``undo`` where the prompt takes something back (``Prompt.undo``; the title bar then
offers it); ctrl+q quits (the game saves and says how to resume); ctrl+c interrupts
as it does line by line (one line, exit code 130). On the answer line every key is typed: a
word typed is a word, and ``u``, ``q`` or ``?`` alone, then Enter, are the universal words.
The single keys q, u, ? and space act at once only where nothing is being typed: in the
choice list, and in a watch (no prompt open). Enter on an empty line right after help
answers nothing (help is not an answer).
"""

from __future__ import annotations

import io
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from raceday.core.errors import RacedayError
from raceday.present.messages import render
from raceday.terminal import lineinput
from raceday.terminal.surface import HELP, Board, Prompt, Quit, universal_word
from raceday.terminal.tui.surface import FullScreenSurface
from raceday.terminal.wrapping import wrap_plain, wrapped

Main = Callable[[Any], "int | None"]

WIDE = 120  # columns from which the panels form a column right of the board
SLICE = 0.05  # seconds: how often a waiting loop looks at quit and pause
LOG_KEPT = 1000  # log entries kept to write again when the log changes width
STATUS_LINES = 2  # lines the status bar gives whose turn and a long prompt together
# The universal words offered for completion after a prompt's own words.
UNIVERSAL_WORDS = {"en": ["help", "undo", "quit"],
                   "ja": ["help", "undo", "quit", "ヘルプ", "取り消し", "やめる"]}


def prompt_line(prompt: Prompt) -> str:
    """A prompt's text for the status bar and the answer line's placeholder: plain, without
    the line-by-line prompt's trailing ``>`` or ``:`` (the answer line has its own caret)."""
    return Text.from_markup(prompt.text).plain.strip().rstrip(">›:：").rstrip()


def plain_text(renderable: RenderableType, width: int) -> str:
    """``renderable`` as plain text at ``width`` columns (markup read, no colour)."""
    out = Console(width=max(width, 1), file=io.StringIO(), color_system=None,
                  highlight=False, legacy_windows=False, force_terminal=False)
    with out.capture() as captured:
        out.print(renderable)
    return "\n".join(line.rstrip() for line in captured.get().splitlines())


class BoardView(ScrollableContainer, can_focus=False):
    """The fixed board: a Static in a container that scrolls only if a board overflows.
    Its resize redraws a board given as a function of its space."""

    def compose(self) -> ComposeResult:
        yield Static(id="board")

    def on_resize(self, event: events.Resize) -> None:
        app = self.app
        if isinstance(app, GameApp):
            app.redraw_board()


class GameLog(RichLog):
    """The log. RichLog wraps a line once, at the width it has when the line arrives, so a
    log that narrows (the choice list opening beside it) would crop what it already shows:
    this one keeps what it was given (the last :data:`LOG_KEPT` entries) and writes it all
    again when its width changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._given: list[RenderableType] = []
        self._laid_out_at = 0

    def say(self, content: RenderableType) -> None:
        content = wrapped(content)  # Japanese breaks between characters, never in a word
        self._given.append(content)
        if len(self._given) > LOG_KEPT:
            del self._given[: len(self._given) - LOG_KEPT]
        self.write(content)

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if width == self._laid_out_at:
            return
        first = self._laid_out_at == 0
        self._laid_out_at = width
        if first:
            return  # lines written before the first layout wait in RichLog and fit already
        self.clear()
        for content in self._given:
            self.write(content)
        self.scroll_end(animate=False)  # the latest line stays in view at the new width


class ChoiceList(OptionList):
    """The prompt's legal answers. Tab goes back to the answer line, and typing there
    carries on in the answer line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "app.focus_answer", show=False),
    ]

    async def _on_key(self, event: events.Key) -> None:
        app = self.app
        if not isinstance(app, GameApp) or not event.is_printable or event.character is None:
            return
        if app.shortcut(event.character, typing=False):
            event.stop()
            event.prevent_default()
            return
        if event.character != " ":
            event.stop()
            event.prevent_default()
            app.answer_input.focus()
            app.answer_input.insert_text_at_cursor(event.character)


class AnswerInput(Input):
    """The answer line: Tab accepts the completion (else moves to the choice list), ↑/↓
    walk the choices, and on an empty line q, u, ? and space are the view's keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "complete", show=False),
        Binding("up", "step_choice(-1)", show=False),
        Binding("down", "step_choice(1)", show=False),
    ]

    async def _on_key(self, event: events.Key) -> None:
        app = self.app
        if (not self.value and event.character and isinstance(app, GameApp)
                and app.shortcut(event.character, typing=True)):
            event.stop()
            event.prevent_default()

    _cycle: tuple[list[str], int] | None = None  # the answers Tab walks, and where

    def action_complete(self) -> None:
        """Tab: the first legal answer the whole line begins (words typed included), and
        at each Tab again the next one that fits; with nothing to complete (or an empty
        line), the choice list."""
        app = self.app
        if self.value and self.cursor_at_end and isinstance(app, GameApp):
            completed = self._completion(app.completion_words())
            if completed is not None and completed != self.value:
                self.value = completed
                self.cursor_position = len(completed)
                return
        if isinstance(app, GameApp) and app.choice_list.display and app.choice_list.option_count:
            app.choice_list.focus()
        else:
            self.screen.focus_next()

    def _completion(self, words: list[str]) -> str | None:
        typed = self.value
        if self._cycle is not None:
            fits, index = self._cycle
            if typed == fits[index] and len(fits) > 1:  # Tab again: the next that fits
                index = (index + 1) % len(fits)
                self._cycle = (fits, index)
                return fits[index]
        self._cycle = None
        fits = [w for w in words if w.casefold().startswith(typed.casefold())]
        if not fits:
            return None
        self._cycle = (fits, 0)
        return fits[0]

    def action_step_choice(self, step: int) -> None:
        app = self.app
        if isinstance(app, GameApp):
            app.step_choice(step, fill=True)


WidgetT = TypeVar("WidgetT", bound=Widget)


class OneWidget(Generic[WidgetT]):
    """An app's attribute that is its one widget of ``kind`` (with ``selector``, the one it
    picks), looked up at each read."""

    def __init__(self, kind: type[WidgetT], selector: str | None = None) -> None:
        self.kind = kind
        self.selector = selector

    def __get__(self, app: App[Any], owner: type[App[Any]] | None = None) -> WidgetT:
        if self.selector is None:
            return app.query_one(self.kind)
        return app.query_one(self.selector, self.kind)


class GameApp(App[int]):
    """A terminal game in full screen: ``main(surface)`` runs in a worker thread and plays
    through a :class:`FullScreenSurface`; the app returns main's exit code (see the module
    text for the layout and the keys)."""

    CSS = """
    Screen { layout: vertical; }
    #titlebar { dock: top; height: auto; max-height: 2; background: $primary;
                color: $text; }
    #title { width: 1fr; height: auto; text-style: bold; padding: 0 1; }
    #keys { width: auto; padding: 0 1; }
    #body { height: 1fr; }
    #board-view { height: 1fr; scrollbar-size: 1 1; }
    #board { width: auto; height: auto; }
    #strip { height: 8; layout: horizontal; }
    #log { width: 1fr; height: 1fr; border: round $primary; scrollbar-size: 1 1;
           padding: 0 1; overflow-y: auto; overflow-x: hidden; }
    #side { width: auto; height: 1fr; layout: horizontal; }
    #choices { width: 26; height: 1fr; border: round $secondary; scrollbar-size: 1 1; }
    #choices:focus { border: round $accent; }
    #moves { width: 22; height: 1fr; border: round $primary; scrollbar-size: 1 1;
             overflow-y: auto; }
    #footer { dock: bottom; height: auto; }
    #answer-row { height: 1; }
    #caret { width: 2; color: $accent; text-style: bold; }
    #answer { width: 1fr; }
    #status { height: auto; max-height: 3; background: $panel; color: $text;
              padding: 0 1; }
    Screen.-wide #strip { dock: right; width: 40; height: 1fr; layout: vertical; }
    Screen.-wide #log { width: 1fr; height: 1fr; }
    Screen.-wide #side { width: 1fr; height: 1fr; layout: vertical; }
    Screen.-wide #choices { width: 1fr; height: 1fr; }
    Screen.-wide #moves { width: 1fr; height: 1fr; }
    """

    ENABLE_COMMAND_PALETTE = False  # ctrl+p is no game's key

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", show=False),
        Binding("ctrl+q", "quit", show=False, priority=True),
        Binding("ctrl+c", "interrupt", show=False, priority=True),
        Binding("q", "key('q')", show=False),
        Binding("u", "key('u')", show=False),
        Binding("question_mark", "key('?')", show=False),
        Binding("space", "key(' ')", show=False),
        Binding("escape", "focus_answer", show=False),
    ]

    def __init__(self, main: Main, *, title: str, lang: str = "en") -> None:
        super().__init__()
        self.main = main
        self.game_title = title
        self.lang = lang
        self.surface = FullScreenSurface(self, lang)
        # state of the view (the app's thread only)
        self.waiting: Prompt | None = None  # the prompt the loop is blocked on
        self.prompts_opened = 0
        self.finished = False
        self.exit_code: int | None = None
        self.error: BaseException | None = None  # what main raised (run_game re-raises)
        self._board: Board | None = None
        self._preview: Board | None = None
        self._shown: RenderableType = ""
        self._status = ""
        self._status_line = ""
        self._moves: list[str] = []
        self._log_lines: list[str] = []
        self._log_entries: list[RenderableType] = []  # what the loop said, as it said it
        self._ending_from = 0  # the entries said since the last answer: how it ended
        # shared with the worker thread
        self._answers: queue.Queue[str] = queue.Queue()
        self._shut = threading.Event()
        self._quit_request = threading.Event()
        self._paused = threading.Event()
        self._quitting = False
        self._interrupted = threading.Event()  # ctrl+c: the loop's next call raises it
        self._after_help = False  # help was just shown and nothing typed since
        self.held_slices = 0  # slices the loop has waited while paused (tests watch it)
        self._worker: Worker[None] | None = None

    # -- words -----------------------------------------------------------------------------

    def word(self, key: str, **params: Any) -> str:
        return render(f"terminal.tui.{key}", self.lang, params=params)

    # -- building ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="titlebar"):
            yield Static(Text(self.game_title), id="title")
            yield Static(Text(self.word("keys.watch")), id="keys")
        with Vertical(id="body"):
            yield BoardView(id="board-view")
            with Horizontal(id="strip"):
                log = GameLog(id="log", wrap=True, markup=True, highlight=False,
                              min_width=20, auto_scroll=True)
                log.border_title = self.word("log")
                log.can_focus = False  # a click on it keeps typing on the answer line
                yield log
                with Horizontal(id="side"):
                    choices = ChoiceList(id="choices")
                    choices.border_title = self.word("choices")
                    choices.display = False
                    yield choices
                    moves = RichLog(id="moves", wrap=False, markup=False, highlight=False,
                                    min_width=10, auto_scroll=True)
                    moves.border_title = self.word("moves")
                    moves.can_focus = False
                    moves.display = False
                    yield moves
        with Vertical(id="footer"):
            with Horizontal(id="answer-row"):
                yield Static("›", id="caret")
                yield AnswerInput(id="answer", compact=True, select_on_focus=False)
            yield Static(id="status")

    board_static = OneWidget(Static, "#board")
    board_view = OneWidget(BoardView)
    log_widget = OneWidget(GameLog, "#log")
    choice_list = OneWidget(ChoiceList)
    moves_widget = OneWidget(RichLog, "#moves")
    answer_input = OneWidget(AnswerInput)

    def on_mount(self) -> None:
        self.title = self.game_title
        self._fit(self.size.width, self.size.height)
        self.answer_input.focus()
        if self.is_headless:  # tests and snapshots: the same cursor in every picture
            self.answer_input.cursor_blink = False
        self._show_bars()
        lineinput.read_in_full_screen(self.read_raw)
        self._worker = self.run_worker(self._run_main, name="game", thread=True,
                                       exit_on_error=False)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)
        self._show_bars()

    def _fit(self, width: int, height: int) -> None:
        wide = width >= WIDE
        self.screen.set_class(wide, "-wide")
        strip = self.query_one("#strip")
        # narrow: the strip under the board takes a third of the height (8 rows at 24),
        # between 5 rows on a small terminal and 14 on a tall one
        strip.styles.height = "1fr" if wide else max(5, min(14, height // 3))

    def on_unmount(self) -> None:
        self._shut.set()
        lineinput.read_in_full_screen(None)

    # -- the loop's side (called from the worker thread) -------------------------------------

    @property
    def closing(self) -> bool:
        worker = self._worker
        return self._shut.is_set() or (worker is not None and worker.is_cancelled)

    def _run_main(self) -> None:
        code, line = 0, ""
        try:
            result = self.main(self.surface)
            code = 0 if result is None else int(result)
        except Quit:
            code, self._quitting = 0, True
        except KeyboardInterrupt as exc:  # ctrl+c: run_app raises it again once the view is gone
            code, self.error, self._quitting = 130, exc, True
        except RacedayError as exc:
            code, self.error = 2, exc
            message = exc.message
            line = render(message, self.lang) if message is not None else str(exc)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception as exc:  # worded here, raised again by run_game
            exit_code = getattr(exc, "exit_code", None)
            if type(exc).__name__ == "Exit" and isinstance(exit_code, int):  # typer.Exit
                code = exit_code
            else:
                code, self.error = 1, exc
                line = f"{type(exc).__name__}: {exc}"
        if self.closing:
            self.exit_code = code
            return
        try:
            self.call_from_thread(self._finish, code, line)
        except RuntimeError:  # the app stopped meanwhile
            self.exit_code = code

    def read_raw(self, prompt: Prompt) -> str:
        """Open ``prompt`` and wait for its answer as typed (help, undo and quit included):
        what :func:`raceday.terminal.lineinput.ask` reads with while the view runs."""
        if threading.get_ident() == self._thread_id:
            raise RuntimeError("a prompt cannot wait on the full-screen view's own thread")
        self.surface._call(self.open_prompt, prompt)
        return self.wait_for_answer()

    def wait_for_answer(self) -> str:
        """Block until the player answers the open prompt; :class:`Quit` if the app closes."""
        while True:
            self.check_interrupt()
            if self.closing:
                raise Quit
            try:
                return self._answers.get(timeout=SLICE)
            except queue.Empty:
                continue

    def wait_pause(self, seconds: float) -> None:
        """Sleep ``seconds`` in small slices (paused time does not count); :class:`Quit` as
        soon as the player quits or the app closes."""
        remaining = seconds
        while True:
            self.check_interrupt()
            if self.closing or self._quit_request.is_set():
                self._quitting = True
                raise Quit
            if self._paused.is_set():
                self.held_slices += 1
                self._shut.wait(SLICE)
                continue
            if remaining <= 0:
                return
            start = time.monotonic()
            self._shut.wait(min(SLICE, remaining))
            remaining -= time.monotonic() - start

    def take_quit_request(self) -> bool:
        """Whether the player asked to quit while no prompt was open (then forgotten)."""
        if self._quit_request.is_set():
            self._quit_request.clear()
            self._quitting = True
            return True
        return False

    def note_quit(self) -> None:
        self._quitting = True

    # -- the view's side (the app's thread) ---------------------------------------------------

    def show_board(self, board: Board, status: str | None = None) -> None:
        """Show ``board``, and with it the status bar ``status`` when given (the same
        callback, so the same refresh: the bar never says the turn before the board's)."""
        self._board = board
        self._preview = None
        self.redraw_board()
        if status is not None:
            self.show_status(status)

    def redraw_board(self) -> None:
        board = self._preview if self._preview is not None else self._board
        if board is None:
            return
        if callable(board):
            size = self.board_view.scrollable_content_region.size
            if size.width <= 0 or size.height <= 0:
                return  # not laid out yet: the first resize draws it
            try:
                board = board(size.width, size.height)
            except Exception as exc:  # a board that cannot be drawn must not end the game
                board = Text(self.word("no_board", width=size.width, height=size.height,
                                       error=str(exc) or type(exc).__name__), style="red")
        self._shown = board
        self.board_static.update(board)

    def write_log(self, text: RenderableType) -> None:
        log = self.log_widget
        log.say(text)
        self._log_entries.append(text)
        if isinstance(text, str):
            plain = Text.from_markup(text).plain
        elif isinstance(text, Text):
            plain = text.plain
        else:
            plain = plain_text(text, max(log.scrollable_content_region.width, 80))
        self._log_lines.extend(plain.splitlines() or [""])

    def show_status(self, text: str) -> None:
        self._status = text
        self._show_bars()

    def show_moves(self, lines: list[str]) -> None:
        self._moves = lines
        moves = self.moves_widget
        moves.clear()
        for line in lines:
            moves.write(Text(line))
        moves.display = bool(lines)

    def open_prompt(self, prompt: Prompt) -> None:
        self.waiting = prompt
        self.prompts_opened += 1
        choices = self.choice_list
        choices.clear_options()
        choices.add_options([Option(Text(c.shown), id=str(i))
                             for i, c in enumerate(prompt.choices)])
        choices.highlighted = None
        choices.display = bool(prompt.choices)
        answer = self.answer_input
        answer.password = prompt.secret
        words = self.completion_words()
        answer.suggester = None if prompt.secret else SuggestFromList(words,
                                                                        case_sensitive=False)
        if self.focused is not choices:
            answer.focus()
        self._show_bars()

    def completion_words(self) -> list[str]:
        """What Tab completes to at the open prompt: its answers, then the universal words."""
        prompt = self.waiting
        if prompt is None or prompt.secret:
            return []
        return list(prompt.words) + [w for w in UNIVERSAL_WORDS.get(self.lang, [])
                                     if w not in prompt.words]

    def submit(self, text: str) -> None:
        """Answer the open prompt with ``text`` (typed, chosen, or a key's word)."""
        prompt = self.waiting
        if prompt is None:
            return
        self.waiting = None
        self._after_help = universal_word(text) == HELP
        shown = self.word("hidden") if prompt.secret else text
        self.log_widget.say(Text(f"› {shown}", style="dim"))
        self._log_lines.append(f"› {shown}")
        self._ending_from = len(self._log_entries)
        answer = self.answer_input
        answer.value = ""
        answer.password = False
        answer.placeholder = ""
        self.choice_list.clear_options()
        self.choice_list.display = False
        if self._preview is not None:
            self._preview = None
            self.redraw_board()
        if self.focused is self.choice_list:
            answer.focus()
        self._show_bars()
        self._answers.put(text)

    def _finish(self, code: int, line: str) -> None:
        self.finished = True
        self.exit_code = code
        self.waiting = None
        if line:  # shown here; not in the ending, since run_game raises it again
            error = self.word("error", text=line)
            self.log_widget.say(Text(error, style="bold red"))
            self._log_lines.append(error)
        if self._quitting:
            self.exit(result=code, return_code=code)
            return
        answer = self.answer_input
        answer.value = ""
        answer.placeholder = ""
        answer.disabled = True
        self.choice_list.display = False
        self._show_bars()

    def _show_bars(self) -> None:
        if self.finished:
            status, keys = self.word("close"), self.word("keys.done")
        elif self._paused.is_set():
            status, keys = self.word("paused"), self.word("keys.watch")
        elif self._quit_request.is_set() or self._interrupted.is_set():
            status, keys = self.word("stopping"), ""
        else:
            status = self._status
            if self.waiting is not None:
                status = self._prompt_bars(status, prompt_line(self.waiting))
            keys = self.word("keys.watch") if self.waiting is None else self.prompt_keys(
                self.waiting)
        self._status_line = status
        room = max(self.size.width - 2, 1)  # the bar's padding
        self.query_one("#status", Static).update(Text("\n".join(wrap_plain(status, room))))
        self.query_one("#keys", Static).update(Text(keys))

    def _prompt_bars(self, status: str, asked: str) -> str:
        """The status bar while ``asked`` is open; sets the answer line's placeholder.
        Whose turn comes first. A prompt that fits the answer line is its placeholder and
        stays in the bar only where both fit one line. A longer one (a sealed bid's terms)
        would be cut there: the bar says it whole instead, after whose turn where both fit
        :data:`STATUS_LINES` lines, else alone (it names the player), and the answer line
        says only what to do."""
        room = max(self.size.width - 2, 1)  # the bar's padding; the answer line's caret
        both = " · ".join(p for p in (status, asked) if p)
        answer = self.answer_input
        if cell_len(asked) <= room:
            answer.placeholder = asked or self.word("placeholder")
            return both if not status or cell_len(both) <= room else status
        answer.placeholder = self.word("placeholder")
        return both if len(wrap_plain(both, room)) <= STATUS_LINES else asked

    def prompt_keys(self, prompt: Prompt) -> str:
        """The keys the title bar offers at ``prompt`` (a view with keys of its own, such
        as the replay's, says its own)."""
        # the arrows choose only where there is a list to choose from, ctrl+z only where
        # something can be taken back
        keys = "keys.prompt" if prompt.choices else "keys.answer"
        return self.word(keys if prompt.undo else f"{keys}_no_undo")

    # -- choices ------------------------------------------------------------------------------

    def step_choice(self, step: int, *, fill: bool) -> None:
        """Move the choice highlight by ``step`` (the answer line shows it when ``fill``)."""
        choices = self.choice_list
        prompt = self.waiting
        if prompt is None or not choices.option_count:
            return
        current = choices.highlighted
        index = 0 if current is None and step > 0 else (
            choices.option_count - 1 if current is None else current + step)
        choices.highlighted = max(0, min(choices.option_count - 1, index))
        if fill and choices.highlighted is not None:
            answer = self.answer_input
            answer.value = prompt.choices[choices.highlighted].text
            answer.cursor_position = len(answer.value)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        prompt = self.waiting
        if prompt is None or not 0 <= event.option_index < len(prompt.choices):
            return
        preview = prompt.choices[event.option_index].preview
        if preview is not self._preview:
            self._preview = preview
            self.redraw_board()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        prompt = self.waiting
        if prompt is not None and 0 <= event.option_index < len(prompt.choices):
            self.submit(prompt.choices[event.option_index].text)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Typing a legal answer highlights it in the list (and previews it)."""
        prompt = self.waiting
        if prompt is None or event.input is not self.answer_input:
            return
        if event.value:
            self._after_help = False
        typed = event.value.strip().casefold()
        for index, choice in enumerate(prompt.choices):
            if choice.text.casefold() == typed:
                if self.choice_list.highlighted != index:
                    self.choice_list.highlighted = index
                return

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input is not self.answer_input:
            return
        if not event.value.strip() and self._after_help:
            self._after_help = False  # the help was read; an empty line answers nothing
            return
        self.submit(event.value)

    # -- keys ---------------------------------------------------------------------------------

    def shortcut(self, char: str, *, typing: bool) -> bool:
        """Act on the single-letter key ``char`` (q, u, ?, space); whether it did. The
        answer line (``typing``) asks only while no prompt is open (a watch); with a prompt
        open every key there is typed, so a word is never cut into a key and a rest."""
        if char not in ("q", "u", "?", " "):
            return False
        if self.finished:
            if char == "q":
                self.action_close()
            return True
        prompt = self.waiting
        if prompt is None:
            if char == "q":
                self.request_quit()
                return True
            if char == " ":
                self.toggle_pause()
                return True
            return char == "?" and not typing
        if char == " ":
            return False
        if typing or (char == "u" and not prompt.undo):
            return False
        self.submit({"q": "quit", "u": "undo", "?": "help"}[char])
        return True

    def action_key(self, char: str) -> None:
        self.shortcut(char, typing=False)

    def action_interrupt(self) -> None:
        """ctrl+c: the loop's next prompt, pause or drawing raises KeyboardInterrupt, so the
        game says what it kept in one line and the command exits 130, as line by line."""
        if self.finished:
            self.action_close()
            return
        self._interrupted.set()
        self._quitting = True
        self._show_bars()

    def check_interrupt(self) -> None:
        """Raise KeyboardInterrupt in the loop's thread once ctrl+c was pressed."""
        if self._interrupted.is_set():
            raise KeyboardInterrupt

    def action_undo(self) -> None:
        if self.waiting is not None and self.waiting.undo:
            self.submit("undo")

    async def action_quit(self) -> None:
        if self.finished or self.closing:
            self.action_close()
        elif self.waiting is not None:
            self.submit("quit")
        else:
            self.request_quit()

    def action_close(self) -> None:
        code = self.exit_code if self.exit_code is not None else 0
        self.exit(result=code, return_code=code)

    def action_focus_answer(self) -> None:
        if not self.answer_input.disabled:
            self.answer_input.focus()

    def request_quit(self) -> None:
        """Quit while no prompt is open: the loop's next pause or prompt raises Quit."""
        self._quit_request.set()
        self._paused.clear()
        self._show_bars()

    @property
    def paused(self) -> bool:
        return self._paused.is_set()

    def toggle_pause(self) -> None:
        if self._paused.is_set():
            self._paused.clear()
        else:
            self._paused.set()
        self._show_bars()

    def ending(self, limit: int = 20) -> list[RenderableType]:
        """What stays on the terminal once the view closes: the last board of a game that
        ran to its end, then what the loop said after the last answer (at most ``limit``
        entries: the result, or how to resume after a quit)."""
        shown: list[RenderableType] = []
        if self.finished and not self._quitting and self._board is not None:
            board = self._board
            if callable(board):
                board = board(min(self.size.width, 80) or 80, max(self.size.height - 4, 10))
            shown.append(board)
        shown.extend(self._log_entries[self._ending_from:][-limit:])
        return shown

    # -- reading the view (tests, screenshots) ------------------------------------------------

    def board_text(self) -> str:
        """The board shown now, as plain text."""
        width = self.board_view.scrollable_content_region.width or self.size.width
        return plain_text(self._shown, width)

    def log_text(self) -> str:
        """Everything the log said, as plain text (one line per line)."""
        return "\n".join(self._log_lines)

    def keys_text(self) -> str:
        """The keys the title bar offers now, as plain text."""
        return str(self.query_one("#keys", Static).render())

    def status_text(self) -> str:
        """The status bar now, as plain text."""
        return self._status_line

    def moves_text(self) -> list[str]:
        """The move list shown now."""
        return list(self._moves)
