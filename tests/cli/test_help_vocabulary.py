"""Help without noise, over every command of every game and tool (#33).

The click tree is walked (every game and tool loaded, nested groups and hidden old
command names included), and each command's ``--help`` is rendered at 80 columns, as a
user at an 80-column terminal sees it. Each must: show no ``<bool>`` and no lowercase
``<type>`` placeholder; never join two long names (``--races,--simulations``); show its
arguments as UPPERCASE (``ROUTE``, ``[PELOTON]``); fit 80 columns; and show every option's
name whole (not broken across lines). The placeholders themselves are checked on the
parameters: none for a flag, one UPPERCASE word (or a|b|c choices, or a LOW..HIGH range)
for every value option.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer

from raceday.cli.main import GameGroup, app, run

WIDTH = 80


def _walk(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    yield path, command
    if isinstance(command, GameGroup):
        subs = {name: command._load(name) for name in [*command._games, *command._tools]}
    else:
        subs = getattr(command, "commands", None) or {}
    for name, sub in sorted(subs.items()):
        yield from _walk(sub, [*path, name])


COMMANDS = {" ".join(path): cmd for path, cmd in _walk(typer.main.get_command(app), [])}


def _help(path: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
          ) -> str:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    for name in ("TERMINAL_WIDTH", "FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS"):
        monkeypatch.delenv(name, raising=False)
    assert run([*path.split(), "--help"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def _usage(shown: str) -> str:
    """The usage line (joined if it wrapped)."""
    lines = shown.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("Usage:"))
    taken = []
    for line in lines[at:]:
        if not line.strip():
            break
        taken.append(line.strip())
    return " ".join(taken)


def test_every_command_is_walked() -> None:
    for expected in ("", "keirin play", "derby simulate", "hairpin match", "pistard watch",
                     "wielersim route import", "serve", "arena", "print", "warm-up"):
        assert expected in COMMANDS, expected


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_help_has_one_placeholder_style_and_fits_80_columns(
        path: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    command = COMMANDS[path]
    shown = _help(path, capsys, monkeypatch)
    where = f"raceday {path} --help:\n{shown}"
    assert "<bool>" not in shown, where
    assert not re.search(r"<[a-z][^>]*>", shown), where
    assert ",--" not in shown, where
    too_wide = [line for line in shown.splitlines() if len(line.rstrip()) > WIDTH]
    assert not too_wide, where
    usage = _usage(shown)
    pieces = usage.split(f"raceday {path}".rstrip(), 1)[1].split()
    for piece in pieces:
        if piece == "[OPTIONS]" or (piece in ("COMMAND", "[ARGS]...")
                                    and hasattr(command, "commands")):
            continue
        bare = piece.strip("[]").removesuffix("...")
        assert bare and bare == bare.upper() and "{" not in bare, f"{piece!r} in {where}"
    for param in command.params:
        if getattr(param, "hidden", False):
            continue
        for name in (*param.opts, *param.secondary_opts):
            if name.startswith("-"):
                assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", shown), \
                    f"{name} is not shown whole in {where}"


def _placeholder_ok(text: str) -> bool:
    return text == text.upper() or "|" in text or ".." in text or (
        any(ch.isupper() for ch in text) and not re.search(r"^[a-z]+$", text))


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_placeholders_are_none_for_flags_and_one_uppercase_word_otherwise(path: str) -> None:
    command = COMMANDS[path]
    for param in command.params:
        if param.param_type_name == "argument":
            assert param.metavar and param.metavar == param.metavar.upper(), \
                f"{path}: argument {param.name} shows {param.metavar!r}"
            continue
        if getattr(param, "is_flag", False):
            assert param.metavar == "", f"{path}: flag {param.opts[0]} shows {param.metavar!r}"
            continue
        assert param.metavar and _placeholder_ok(param.metavar), \
            f"{path}: {param.opts[0]} shows {param.metavar!r}"
        longs = [o for o in param.opts if o.startswith("--")]
        assert len(longs) <= 1, f"{path}: {longs} shown as one name"


def test_the_root_help_lists_every_game_without_placeholders(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    shown = _help("", capsys, monkeypatch)
    assert "--version" in shown and "<bool>" not in shown
    assert all(len(line.rstrip()) <= WIDTH for line in shown.splitlines())
    for game in ("keirin", "derby", "hairpin", "pistard", "wielersim", "serve", "arena"):
        assert re.search(rf"│ {game} ", shown), game
