"""The fast start of ``raceday --help`` (and of a bare ``raceday``, which shows the same).

The root help is a usage line, one sentence, two options and the list of games and tools.
Typer prints it with Rich, but importing Typer and building the command line costs more
than drawing it: a whole ``raceday --help`` took 1.6 to 2.6 times as long as importing
Typer and Rich and nothing else. So :func:`raceday.launch.main` answers a plain
``raceday --help`` here, with Rich alone and the same discovery of games and tools as the
full command line, drawing exactly what Typer's help renderer (``typer.rich_utils``,
Typer 0.29) draws: the same console (its theme, highlighters, ``TERMINAL_WIDTH``,
``FORCE_COLOR``, ``PY_COLORS``, ``GITHUB_ACTIONS`` and ``_TYPER_FORCE_DISABLE_TERMINAL``),
the same panels and tables, byte for byte (``tests/cli/test_startup_help.py`` compares
both in several widths and colour modes). Anything unusual (Typer's own switches in the
environment, a shell completion request) returns ``None`` and goes to the full command
line, which owns every other case.
"""

from __future__ import annotations

import os
import sys
from typing import Any, ClassVar

USAGE = "Usage: raceday [OPTIONS] COMMAND [ARGS]..."
ROOT_HELP = "Play, watch, simulate and price dice and racing tabletop games."
VERSION_HELP = "Show the version and exit."
# (long form, short form, placeholder shown, help) of the root's options, in Typer's order;
# flags show no placeholder (raceday.cli.main.tidy_help)
OPTIONS = (("--version", "-V", "", VERSION_HELP),
           ("--help", "", "", "Show this message and exit."))
# Environment variables that change how Typer itself behaves: left to the full command line
TYPER_SWITCHES = ("TYPER_USE_RICH", "TYPER_STANDARD_TRACEBACK", "_TYPER_STANDARD_TRACEBACK",
                  "_RACEDAY_COMPLETE", "_TYPER_COMPLETE_ARGS")


def commands() -> list[tuple[str, str]]:
    """(name, one-line help) of every command, as the root group lists them: the games in
    alphabetical order, then the tools that are not games."""
    from raceday.cli._tools import discover_tools
    from raceday.core.discovery import discover

    games = discover(with_module="cli")
    tools = {k: v for k, v in discover_tools().items() if k not in games}
    return [(name, games[name]) for name in sorted(games)] + \
        [(name, tools[name]) for name in sorted(tools)]


def _cleandoc(text: str) -> str:
    """:func:`inspect.cleandoc` for the one-line texts shown here (without importing
    :mod:`inspect`); a text of several lines is not one this module shows."""
    return text.expandtabs().strip()


def _console() -> Any:
    """The console Typer's help renderer prints with (``typer.rich_utils``)."""
    from rich.console import Console
    from rich.theme import Theme

    width = os.getenv("TERMINAL_WIDTH")
    force = True if (os.getenv("GITHUB_ACTIONS") or os.getenv("FORCE_COLOR")
                     or os.getenv("PY_COLORS")) else None
    if os.getenv("_TYPER_FORCE_DISABLE_TERMINAL"):
        force = False
    theme = Theme({"option": "bold cyan", "switch": "bold green",
                   "negative_option": "bold magenta", "negative_switch": "bold red",
                   "types": "bold yellow", "types_sep": "dim", "usage": "yellow"})
    return Console(theme=theme, highlighter=_highlighters()[0], color_system="auto",
                   force_terminal=force, width=int(width) if width else None, stderr=False)


def _highlighters() -> tuple[Any, Any, Any]:
    """Typer's option, negative-option and types highlighters."""
    from rich.highlighter import RegexHighlighter

    class OptionHighlighter(RegexHighlighter):
        highlights: ClassVar[list[str]] = [
            r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])",
            r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
            r"(?P<types>\<[^\>]+\>)",
            r"(?P<usage>Usage: )",
        ]

    class NegativeOptionHighlighter(RegexHighlighter):
        highlights: ClassVar[list[str]] = [
            r"(^|\W)(?P<negative_switch>\-\w+)(?![a-zA-Z0-9])",
            r"(^|\W)(?P<negative_option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
        ]

    class TypesHighlighter(RegexHighlighter):
        highlights: ClassVar[list[str]] = [
            r"^(?P<types_sep>(\[|<))",
            r"(?P<types_sep>\|)",
            r"(?P<types_sep>(\]|>))(\.\.\.)?$",
        ]

    return OptionHighlighter(), NegativeOptionHighlighter(), TypesHighlighter()


def _rich_text(text: str, highlighter: Any) -> Any:
    """Typer's ``_make_rich_text`` in its ``rich`` markup mode."""
    from rich.text import Text

    text = _cleandoc(text)
    if "\033[" in text:
        return highlighter(Text.from_ansi(text, style=""))
    return highlighter(Text.from_markup(text, style=""))


def print_help(listed: list[tuple[str, str]]) -> None:
    """Draw the root help of ``raceday`` listing ``listed`` commands, as Typer does."""
    from rich.align import Align
    from rich.columns import Columns
    from rich.console import Group
    from rich.padding import Padding
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    console = _console()
    options, negative, types = _highlighters()
    console.print(Padding(options(USAGE), 1), style="bold")
    console.print(Padding(Align(Group(_rich_text(ROOT_HELP, options)), pad=False),
                          (0, 1, 1, 1)))
    table_style: dict[str, Any] = {"show_lines": False, "leading": 0, "border_style": None,
                                   "row_styles": None, "pad_edge": False, "padding": (0, 1)}
    table = Table(highlight=True, show_header=False, expand=True, box=None, **table_style)
    for long, short, shown, text in OPTIONS:
        kind = Text(style="bold yellow", overflow="fold")
        kind.append(shown)
        table.add_row(options(long), options(short), negative(""), negative(""), types(kind),
                      Columns([_rich_text(text, options)]))
    console.print(Panel(table, border_style="dim", title="Options", title_align="left"))
    table = Table(highlight=False, show_header=False, expand=True, box=None, **table_style)
    table.add_column(style="bold cyan", no_wrap=True,
                     width=max((len(name) for name, _ in listed), default=0))
    table.add_column("Description", justify="left", no_wrap=False, ratio=10)
    for name, text in listed:
        table.add_row(Text(name), _rich_text(_cleandoc(text).split("\n\n")[0].strip(),
                                             options))
    if table.row_count:
        console.print(Panel(table, border_style="dim", title="Commands", title_align="left"))


def run(args: list[str]) -> int | None:
    """Answer ``raceday --help`` or a bare ``raceday`` (``args`` without the program name)
    and return the exit code, or ``None`` for anything else: the full command line then
    runs."""
    if args not in ([], ["--help"]) or any(os.getenv(name) is not None
                                           for name in TYPER_SWITCHES):
        return None
    width = os.getenv("TERMINAL_WIDTH")
    if width:
        try:
            int(width)
        except ValueError:
            return None  # Typer itself fails on it: the full command line shows how
    listed = commands()
    if any("\n" in text or "\t" in text for _, text in listed):
        return None
    try:  # an output that cannot encode the panels: the full command draws them in ASCII
        "".join(["╭─╮│╰╯", *(text for _, text in listed)]).encode(
            getattr(sys.stdout, "encoding", None) or "utf-8")
    except (LookupError, UnicodeError):
        return None
    try:
        print_help(listed)
        if args:  # --help: Typer's help callback echoes its (empty) return value
            sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return 1
    return 0
