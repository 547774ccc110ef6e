"""Entry point of the `raceday` command.

Games are discovered from the packages under ``raceday.games``; a game's commands
(``raceday.games.<game>.cli``) are imported only when that game is invoked, so
``raceday --help`` starts without loading numpy, numba or any rules.

One help style is applied here, once, to every game and tool when its module is loaded
(help without noise): a flag shows no placeholder; a value option shows one UPPERCASE
placeholder (its own ``metavar``, else one made from its type: N, X, SECONDS, PATH, NAME,
NAMES, a|b|c for choices, or its name); an argument shows as ``ROUTE`` when required and
``[PELOTON]`` when not. An option name not declared by a command is an unknown option:
Click's own usage error (exit code 2).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from typer._click.core import Command, Context
from typer._click.exceptions import BadParameter, ClickException, UsageError
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.exceptions import Abort

from raceday import __version__
from raceday.cli._tools import discover_tools
from raceday.core.discovery import discover, game_packages
from raceday.core.errors import RacedayError

if TYPE_CHECKING:
    from rich.console import Console


def argv_lang(args: Sequence[str]) -> str:
    """The language a command line asks for: its ``--lang`` (en or ja), else the locale's."""
    from raceday.terminal.common import resolve_lang

    lang = None
    for j, word in enumerate(args):
        if word == "--lang" and j + 1 < len(args):
            lang = args[j + 1]
        elif word.startswith("--lang="):
            lang = word.partition("=")[2]
    return resolve_lang(lang if lang in ("en", "ja") else None)


def _words(key: str, args: Sequence[str], **params: object) -> str:
    """A line of the command itself (not of a game) in the command line's language."""
    from raceday.present import render

    return render(f"terminal.cli.{key}", argv_lang(args), params=params)


def _error_text(exc: RacedayError, args: Sequence[str]) -> str:
    """A refusal in the command line's language when it carries its message key (raised
    with :func:`raceday.present.refusal`), else its English text."""
    lang = argv_lang(args)
    if exc.message is not None and lang != "en":
        from raceday.present import render

        return render(exc.message, lang)
    return str(exc)


# ---------------------------------------------------------------------------------------
# Help without noise: one placeholder style
# ---------------------------------------------------------------------------------------

NAMED = {"save": "NAME", "session": "NAME", "resume": "NAME", "name": "NAME",
         "players": "NAMES", "player": "NAMES"}
SECONDS = ("delay", "think", "timeout", "seconds")


class PlainArgument(TyperArgument):
    """An argument shown as ``ROUTE`` (required) or ``[PELOTON]`` (optional): no braces,
    no ``<str>`` type beside it."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if not self.required:
            name = f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


def placeholder(param: TyperOption | TyperArgument) -> str:
    """The one UPPERCASE placeholder of a value option or argument that names none: from
    its choices (a|b|c), its type (N, X, SECONDS, PATH) or its name (NAME, NAMES, else
    the name itself: ROUTE, VARIANT)."""
    desc = param.type_descriptor
    name = (param.name or "value").lower()
    if desc.choices is not None:
        return "|".join(str(getattr(c, "value", c)) for c in desc.choices)
    annotation = desc.annotation
    if desc.is_list:
        inner = getattr(annotation, "__args__", (str,))
        annotation = inner[0] if inner else str
    if desc.is_path or annotation is Path:
        return "PATH"
    if annotation is bool:
        return ""
    if annotation is int:
        return "N"
    if annotation is float:
        return "SECONDS" if any(w in name for w in SECONDS) else "X"
    return NAMED.get(name, name.upper())


def tidy_help(command: Command) -> None:
    """Give ``command`` and its subcommands the one placeholder style (see the module's
    docstring)."""
    help_option = command.get_help_option(Context(command))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if isinstance(param, TyperArgument):
            if param.metavar is None:
                param.metavar = placeholder(param).upper()
            param.__class__ = PlainArgument
            continue
        if not isinstance(param, TyperOption):
            continue
        if param.is_flag or param.count:
            param.metavar = ""
        elif param.metavar is None:
            param.metavar = placeholder(param)
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)


# ---------------------------------------------------------------------------------------
# The root group
# ---------------------------------------------------------------------------------------


class GameGroup(TyperGroup):
    """The root group: lists every game, imports a game's commands only when it runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._games = discover(with_module="cli")
        self._tools = {k: v for k, v in discover_tools().items() if k not in self._games}
        self._loaded: dict[str, Command] = {}
        tidy_help(self)

    def list_commands(self, ctx: Context) -> list[str]:
        return sorted(self._games) + sorted(self._tools)

    def _load(self, name: str) -> Command:
        if name not in self._loaded:
            where = (f"{game_packages()[name]}.cli" if name in self._games
                     else f"raceday.cli.{name.replace('-', '_')}")
            module = importlib.import_module(where)
            command = typer.main.get_command(module.app)
            command.name = name
            command.help = getattr(module, "HELP", command.help)
            tidy_help(command)
            self._loaded[name] = command
        return self._loaded[name]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        known = self._games.get(cmd_name, self._tools.get(cmd_name))
        if known is None:
            return None
        if cmd_name in self._loaded:
            return self._loaded[cmd_name]
        # Listing for help: a light stand-in that carries the one-line help.
        return TyperCommand(cmd_name, help=known)

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        if args and (args[0] in self._games or args[0] in self._tools):
            self._load(args[0])  # the game or tool runs: its real commands, not the stand-in
        return super().resolve_command(ctx, args)


app = typer.Typer(
    name="raceday",
    cls=GameGroup,
    help="Play, watch, simulate and price dice and racing tabletop games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"raceday {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", "-V", callback=_version, is_eager=True,
        help="Show the version and exit.",
    ),
) -> None:
    """Play, watch, simulate and price dice and racing tabletop games."""


def _plain_bad_value(exc: UsageError) -> str | None:
    """A value the command line's parser refused (a type it could not read: ``--laps x``)
    in the user's words, naming the option: ``--laps: it must be a whole number, got
    'x'`` instead of the validator's "Input should be a valid integer, unable to parse
    string as an integer". None for any other usage error."""
    cause = exc.__cause__
    param = getattr(exc, "param", None)
    if not isinstance(exc, BadParameter) or param is None or cause is None:
        return None
    from pydantic import ValidationError

    from raceday.core.game import plain_reason

    if not isinstance(cause, ValidationError) or not cause.errors():
        return None
    problem = cause.errors()[0]
    reason = plain_reason(problem)
    if reason is None:
        return None
    longs = [o for o in param.opts if o.startswith("--")] or list(param.opts)
    name = longs[0] if longs else (param.name or "value").upper()
    return f"{name}: {reason}, got {problem.get('input')!r}"


def _usage_line(exc: UsageError) -> str:
    """One line for a usage error, plus where to find help."""
    message = (_plain_bad_value(exc) or exc.format_message()).strip().replace("\n", " ")
    ctx = exc.ctx
    path = ctx.command_path if ctx is not None else "raceday"
    return f"error: {message} (try '{path} --help')"


def _err_console() -> Console:
    """The shared error console (imported with :mod:`raceday.terminal.common` when needed)."""
    from raceday.terminal.common import err_console

    return err_console


def _utf(stream: Any) -> bool:
    """Whether ``stream`` writes a Unicode encoding (every glyph raceday draws)."""
    import codecs

    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name.startswith(
            "utf")
    except LookupError:
        return False


def _prepare() -> None:
    """Before a run: only a command imports :mod:`raceday.terminal.common` (with Rich's
    progress bars), so the help starts without it; but an output that is not Unicode
    gets it at once (it lets such an output write ASCII stand-ins instead of failing).
    Forget an interruption reported by an earlier run in this process."""
    if not (_utf(sys.stdout) and _utf(sys.stderr)):
        import raceday.terminal.common  # noqa: F401
    common = sys.modules.get("raceday.terminal.common")
    if common is not None:
        common.interrupt_reported()


def run(argv: Sequence[str] | None = None, command: Command | None = None) -> int:
    """Run the CLI on ``argv`` and return the exit code (0, 1, 2 or 130); never raises
    for user errors. Bad input prints one line on stderr and gives exit code 2.
    ``command``: the CLI's click command when the caller keeps one (Typer builds it anew
    on every call: two thirds of a short command's time when a test runs thousands)."""
    command = command or typer.main.get_command(app)
    args = list(argv) if argv is not None else sys.argv[1:]
    _prepare()
    try:
        result = command.main(
            args=args,
            prog_name="raceday",
            standalone_mode=False,
        )
    except UsageError as exc:
        if not exc.format_message().strip():  # a group called bare: its help was shown
            return 0
        _err_console().print(escape(_usage_line(exc)), soft_wrap=True)
        return 2
    except ClickException as exc:
        _err_console().print(f"[bold red]error:[/] {escape(exc.format_message())}",
                             soft_wrap=True)
        return exc.exit_code
    except RacedayError as exc:
        _err_console().print(f"[bold red]{escape(_words('error', args))}[/] "
                             f"{escape(_error_text(exc, args))}", soft_wrap=True)
        return 2
    except Abort:  # input ended (EOF) where an answer was required
        _err_console().print(escape(f"{_words('error', args)} {_words('input_ended', args)}"),
                             soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        result = 130
    except BrokenPipeError:
        return 1
    code = result if isinstance(result, int) else 0
    if code == 130:
        from raceday.terminal.common import interrupt_reported

        if not interrupt_reported():
            _err_console().print(escape(_words("interrupted", args)), soft_wrap=True)
    return code


def main() -> None:
    """The console script: run the CLI and exit with its code."""
    sys.exit(run())
