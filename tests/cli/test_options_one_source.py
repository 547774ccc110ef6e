"""Options from one source: for every game found by discovery, the command line, the JSON
Schema that the browser's setup forms are built from, and the research parameters
(OpenSpiel, PettingZoo, Gymnasium) name the fields of the game's options model, with the
model's defaults; and a bad value is refused by the model on every face with its one line."""

from __future__ import annotations

from typing import Any

import pytest
import typer

from raceday.cli.main import run
from raceday.core.discovery import face, game_packages, has_face
from raceday.core.errors import OptionsError
from raceday.core.game import GameOptions
from raceday.core.registry import get_game
from raceday.research.params import model_params, options_from_params
from raceday.terminal.options import GivenOptions, OptionSpec, option_specs
from raceday.web.options_schema import options_schema

GAMES = sorted(game_packages())
WITH_ADAPTER = [g for g in GAMES if has_face(g, "adapter")]
# Every adapter declares its options model (pin one here only with a reason).
ADAPTERS_WITHOUT_A_MODEL: list[str] = []


def _model(game: str) -> type[GameOptions]:
    model: type[GameOptions] = get_game(game).Options
    return model


def _commands(game: str) -> dict[str, Any]:
    cli = face(game, "cli")
    assert cli is not None, f"{game} has no terminal commands"
    group = typer.main.get_command(cli.app)
    return dict(getattr(group, "commands", {}))


def _not_on_the_command_line(model: type[GameOptions]) -> set[str]:
    """Fields a command supplies itself (declared ``"cli": False`` on the field)."""
    return {f for f, info in model.model_fields.items()
            if isinstance(info.json_schema_extra, dict)
            and info.json_schema_extra.get("cli") is False}


def _cli_default(model: type[GameOptions], spec: OptionSpec, default: Any) -> Any:
    """The model's value for ``default`` given on the command line for ``spec``."""
    return getattr(GivenOptions(model, [spec], {spec.field: default}).parse(), spec.field)


@pytest.mark.parametrize("game", GAMES)
def test_the_command_line_takes_the_models_fields_with_its_defaults(game: str) -> None:
    model = _model(game)
    specs = option_specs(model)
    fields = {s.field for s in specs}
    assert fields | _not_on_the_command_line(model) == set(model.model_fields)
    carrying = {name: cmd for name, cmd in _commands(game).items()
                if getattr(cmd.callback, "options_model", None) is model}
    assert carrying, f"no {game} command takes the options of {model.__name__}"
    defaults = model()
    for name, cmd in carrying.items():
        params = {p.name: p for p in cmd.params}
        for spec in specs:
            param = params[spec.field]
            if spec.argument:
                assert param.param_type_name == "argument", (name, spec.field)
                continue
            assert spec.name in param.opts, (name, spec.field, param.opts)
            assert param.help == spec.help and spec.help, (name, spec.field)
            if param.default is not None:  # None: left to the model
                assert _cli_default(model, spec, param.default) == \
                    getattr(defaults, spec.field), (name, spec.field)


@pytest.mark.parametrize("game", GAMES)
def test_the_schema_names_the_models_fields_with_its_defaults(game: str) -> None:
    model = _model(game)
    schema = options_schema(game)
    properties = schema["properties"]
    assert set(properties) == set(model.model_fields)
    defaults = model()
    for field, prop in properties.items():
        info = model.model_fields[field]
        if info.default_factory is not None:
            assert "default" not in prop  # a table made at run time (a route)
            continue
        read = model.parse({field: prop["default"]}) if prop["default"] is not None else model()
        assert getattr(read, field) == getattr(defaults, field), field
        if info.description:
            assert prop["description"] == info.description


@pytest.mark.parametrize("game", WITH_ADAPTER)
def test_research_parameters_are_the_models_fields_with_its_defaults(game: str) -> None:
    adapter = face(game, "adapter").ADAPTER  # type: ignore[union-attr]
    model = adapter.options_model
    if model is None:
        assert game in ADAPTERS_WITHOUT_A_MODEL
        return
    assert game not in ADAPTERS_WITHOUT_A_MODEL, "its adapter has a model now: unpin it"
    plain = model_params(model)
    assert set(plain) == set(model.model_fields)
    assert {k: adapter.params[k] for k in plain} == plain
    assert model.parse(options_from_params(model, adapter.params)) == model()
    assert adapter.game_options(adapter.check_params({})) == model()


def test_only_the_pinned_adapters_lack_a_model() -> None:
    lacking = [g for g in WITH_ADAPTER if face(g, "adapter").ADAPTER.options_model is None]  # type: ignore[union-attr]
    assert lacking == [g for g in ADAPTERS_WITHOUT_A_MODEL if g in WITH_ADAPTER]


# One bad value, three faces, the model's one line each time.
BAD = [
    ("keirin", "riders", 5, ["keirin", "watch", "--riders", "5"],
     "option {name}: must be 6 to 9"),
    ("pistard", "tokens", 21, ["pistard", "simulate", "-n", "1", "--tokens", "21"],
     "option {name}: must be from 0 to 20, got 21"),
    ("hairpin", "variant", "turbo", ["hairpin", "show", "--variant", "turbo"],
     "option {name}: no such variant word: turbo"),
    ("wielersim", "board", 999, ["wielersim", "watch", "flanders", "small", "--board", "999"],
     "option {name}: must be from 0 to 255, got 999"),
    ("derby", "fall_rate", "2", ["derby", "watch", "--fall-rate", "2"],
     "option {name}: fall rate must be between 0 and 1/2"),
]


@pytest.mark.parametrize(("game", "field", "value", "argv", "words"), BAD)
def test_a_bad_value_is_the_models_refusal_on_every_face(
    game: str, field: str, value: Any, argv: list[str], words: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model = _model(game)
    with pytest.raises(OptionsError) as direct:
        model.parse({field: value})
    assert words.format(name=field) in str(direct.value)
    assert run(argv) == 2
    err = capsys.readouterr().err.strip()
    flag = next(s.name for s in option_specs(model) if s.field == field)
    assert "\n" not in err and words.format(name=flag) in err
    if game in WITH_ADAPTER and face(game, "adapter").ADAPTER.options_model is model:  # type: ignore[union-attr]
        with pytest.raises(OptionsError) as research:
            face(game, "adapter").ADAPTER.check_params({field: value})  # type: ignore[union-attr]
        assert str(research.value) == str(direct.value)
