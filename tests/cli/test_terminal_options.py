"""raceday.terminal.options: a command's options made from an options model (flags from the
field names or declared on the field, help from descriptions, defaults, ranges and choices
shown, switches for booleans, lists as comma-separated text), parsed by the model alone."""

from __future__ import annotations

from typing import ClassVar, Literal

import pytest
import typer
from pydantic import Field
from typer.testing import CliRunner

from raceday.core.errors import OptionsError
from raceday.core.game import GameOptions
from raceday.terminal.options import GIVEN, GivenOptions, game_options, option_specs


class ToyOptions(GameOptions):
    """A made-up game's options: one field of each kind."""

    game_title: ClassVar[str] = "Toy"

    laps_to_run: int = Field(3, ge=1, le=9, strict=True, description="Laps, 1 to 9.",
                             json_schema_extra={"cli": ["--laps", "-l"]})
    colour: Literal["red", "blue"] | None = Field(None, description="A colour.")
    fast: bool = Field(False, strict=True, description="Run fast.")
    points: tuple[int, ...] = Field((3, 1), min_length=1, description="Points.")
    seats: int | None = Field(None, description="Made by the command.",
                              json_schema_extra={"cli": False})


app = typer.Typer(add_completion=False)


@app.command()
@game_options(ToyOptions)
def race(toy: GivenOptions[ToyOptions] = GIVEN, name: str = "x") -> None:
    """Print the checked options."""
    options = toy.parse(seats=2)
    typer.echo(f"{name} {options.laps_to_run} {options.colour} {options.fast} "
               f"{options.points} {options.seats}")


def test_the_specs_follow_the_fields() -> None:
    specs = {s.field: s for s in option_specs(ToyOptions)}
    assert set(specs) == {"laps_to_run", "colour", "fast", "points"}  # seats: not on the CLI
    assert specs["laps_to_run"].flags == ("--laps", "-l") and specs["laps_to_run"].name == "--laps"
    assert specs["laps_to_run"].metavar == "1..9" and specs["laps_to_run"].default == 3
    assert specs["colour"].flags == ("--colour",) and specs["colour"].metavar == "red|blue"
    assert specs["fast"].flags == ("--fast/--no-fast",) and specs["fast"].cli_type is bool
    assert specs["points"].default == "3,1" and specs["points"].sequence
    assert specs["laps_to_run"].help == "Laps, 1 to 9."


def test_the_command_reads_its_options_through_the_model() -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["-l", "5", "--colour", "blue", "--fast", "--points", "4, 2,1"])
    assert done.exit_code == 0, done.output
    assert done.output.split() == ["x", "5", "blue", "True", "(4,", "2,", "1)", "2"]
    assert runner.invoke(app, []).output.split()[:4] == ["x", "3", "None", "False"]
    shown = runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    assert "--laps" in shown and "-l" in shown and "1..9" in shown and "red|blue" in shown
    assert "Laps, 1 to 9." in shown and "--no-fast" in shown and "--seats" not in shown


@pytest.mark.parametrize(("argv", "message"), [
    (["--laps", "10"], "Toy option --laps: must be from 1 to 9, got 10"),
    (["--colour", "green"], "Toy option --colour: must be one of 'red', 'blue'"),
    (["--points", "4,x"], "Toy option --points: value 2 must be a whole number, got 'x'"),
    (["--points", ""], "Toy option --points: value 1 must be a whole number, got ''"),
])
def test_a_refusal_is_the_models_one_line_naming_the_flag(argv: list[str], message: str
                                                          ) -> None:
    done = CliRunner().invoke(app, argv)
    assert isinstance(done.exception, OptionsError)
    assert str(done.exception).startswith(message) and "\n" not in str(done.exception)
