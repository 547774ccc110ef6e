"""raceday.terminal.groups: options declared once as a dataclass reach a command as one
object, in the place of its parameter, beside a game's options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer
from typer.testing import CliRunner

from raceday.terminal.groups import option_group
from raceday.terminal.options import GIVEN, GivenOptions, game_options
from tests.cli.test_terminal_options import ToyOptions


@dataclass(frozen=True)
class Shown:
    """A made-up group of two options."""

    colour_name: Annotated[str | None, typer.Option("--colour-name", help="A name.")] = None
    loud: Annotated[bool, typer.Option("--loud", help="Say it loudly.")] = False


app = typer.Typer(add_completion=False)


@app.command()
@game_options(ToyOptions)
@option_group(Shown)
def race(first: Annotated[int, typer.Option("--first")] = 0, shown: Shown = GIVEN,
         toy: GivenOptions[ToyOptions] = GIVEN, last: Annotated[int, typer.Option("--last")] = 0,
         ) -> None:
    """Print what the command received."""
    typer.echo(f"{first} {shown!r} {toy.parse().laps_to_run} {last}")


def test_the_group_arrives_as_one_object_with_its_defaults_or_the_values_given() -> None:
    runner = CliRunner()
    given = runner.invoke(app, ["--loud", "--colour-name", "teal", "--first", "1", "-l", "4"])
    assert given.exit_code == 0, given.output
    assert given.output.strip() == "1 Shown(colour_name='teal', loud=True) 4 0"
    assert runner.invoke(app, []).output.strip() == "0 Shown(colour_name=None, loud=False) 3 0"


def test_the_groups_options_stand_where_its_parameter_stood_in_the_help() -> None:
    shown = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    order = [shown.index(flag) for flag in ("--first", "--colour-name", "--loud", "--laps",
                                            "--last")]
    assert order == sorted(order), shown
    assert "Say it loudly." in shown and "--shown" not in shown
