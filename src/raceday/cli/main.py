"""Entry point of the `raceday` command."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import typer
from rich.markup import escape

from raceday import __version__
from raceday.cli.common import err_console
from raceday.core.errors import RacedayError

GAME_COMMANDS = ("keirin", "derby", "hairpin", "pistard", "wielersim")

app = typer.Typer(
    name="raceday",
    help="Play, watch, simulate and price five dice and racing tabletop games.",
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
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Play, watch, simulate and price five dice and racing tabletop games."""


def _add_game_commands() -> None:
    # Each game's commands live in raceday.games.<game>.cli and expose `app` and `HELP`.
    for game in GAME_COMMANDS:
        module_name = f"raceday.games.{game}.cli"
        if importlib.util.find_spec(f"raceday.games.{game}") is None:
            continue
        if importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        app.add_typer(module.app, name=game, help=module.HELP)


_add_game_commands()


def main() -> None:
    """Run the CLI; user errors print one line and exit with code 2."""
    try:
        app()
    except RacedayError as exc:
        err_console.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
