"""Entry point of the `raceday` command.

Games are discovered from the packages under ``raceday.games``; a game's commands
(``raceday.games.<game>.cli``) are imported only when that game is invoked, so
``raceday --help`` starts without loading numpy, numba or any rules.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from typer._click.core import Command, Context
from typer._click.exceptions import ClickException, UsageError
from typer.core import TyperCommand, TyperGroup
from typer.exceptions import Abort

from raceday import __version__
from raceday.cli._tools import discover_tools
from raceday.core.discovery import discover, game_packages
from raceday.core.errors import RacedayError

if TYPE_CHECKING:
    from rich.console import Console


class GameGroup(TyperGroup):
    """The root group: lists every game, imports a game's commands only when it runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._games = discover(with_module="cli")
        self._tools = {k: v for k, v in discover_tools().items() if k not in self._games}
        self._loaded: dict[str, Command] = {}

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
            self._load(args[0])
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


def _usage_line(exc: UsageError) -> str:
    """One line for a usage error, plus where to find help."""
    message = exc.format_message().strip().replace("\n", " ")
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


def run(argv: Sequence[str] | None = None) -> int:
    """Run the CLI on ``argv`` and return the exit code (0, 1, 2 or 130); never raises
    for user errors. Bad input prints one line on stderr and gives exit code 2."""
    command = typer.main.get_command(app)
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
        _err_console().print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
        return 2
    except Abort:  # input ended (EOF) where an answer was required
        _err_console().print("error: the input ended before the command had what it needed")
        return 2
    except KeyboardInterrupt:
        result = 130
    except BrokenPipeError:
        return 1
    code = result if isinstance(result, int) else 0
    if code == 130:
        from raceday.terminal.common import interrupt_reported

        if not interrupt_reported():
            _err_console().print("interrupted: nothing was saved")
    return code


def main() -> None:
    """The console script: run the CLI and exit with its code."""
    sys.exit(run())
