"""The command lines shown in README.md and the tool guides speak the current vocabulary.

Every ``raceday ...`` line of a code block (``$ raceday ...`` in a transcript too) is
parsed by the command it names, without running it: the command exists, every option it
gives is one of that command's options (#33, #45).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer
from typer._click.exceptions import UsageError

from raceday.cli.main import GameGroup, app

ROOT = Path(__file__).resolve().parents[2]
DOCS = ["README.md", *(f"docs/usage/{name}.md" for name in (
    "browser", "party", "print", "predict", "research", "keirin-analysis", "hosting",
    "scale-out", "learn"))]


def _command_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, command line) of every raceday command in the code blocks."""
    found = []
    inside = False
    going_on: list[str] = []  # a command continued with a backslash
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.lstrip().startswith("```"):
            inside = not inside
            continue
        text = line.strip().removeprefix("$ ")
        if going_on:
            going_on.append(text)
            text = " ".join(going_on)
        if inside and text.startswith("raceday "):
            if text.endswith("\\"):
                going_on = [text[:-1].strip()]
                continue
            going_on = []
            found.append((number, re.split(r"\s+#\s", text, maxsplit=1)[0].strip()))
    return found


LINES = [(doc, number, text) for doc in DOCS for number, text in _command_lines(ROOT / doc)]


def test_the_documents_show_commands() -> None:
    assert len([line for line in LINES if line[0] == "README.md"]) >= 30


@pytest.fixture(scope="module")
def root() -> GameGroup:
    group = typer.main.get_command(app)
    assert isinstance(group, GameGroup)
    return group


@pytest.mark.parametrize(("doc", "number", "text"), LINES,
                         ids=[f"{doc}:{number}" for doc, number, _ in LINES])
def test_a_documented_command_line_parses_in_the_current_vocabulary(
        root: GameGroup, doc: str, number: int, text: str) -> None:
    words = shlex.split(text)[1:]
    if not words or words[0].startswith("-"):
        return  # raceday --help, raceday --version
    name, path, command = words[0], [], root._load(words[0])
    rest = words[1:]
    while hasattr(command, "commands") and rest and rest[0] in command.commands:
        path.append(rest[0])
        command = command.commands[rest.pop(0)]
    where = f"{doc}:{number}: {text}"
    assert not hasattr(command, "commands") or rest in ([], ["--help"]), where
    if hasattr(command, "commands"):
        return
    assert not command.hidden, f"a hidden command: {where}"
    try:
        command.make_context(" ".join([name, *path]), list(rest), resilient_parsing=True)
    except UsageError as exc:
        pytest.fail(f"{exc.format_message()}: {where}")
