"""One vocabulary (#43): the table of options in docs/usage/terminal.md is the whole list.

The click command tree of ``raceday`` is walked (every game and tool loaded, hidden old
command names included), and every option a user can give must be a row of the table with
the same short form and the same placeholder: a new option, a second short form or another
placeholder for a name fails here until the table says it. So each name means one thing:
one row, one short form, one placeholder, a flag everywhere or a value everywhere. Every
command takes ``--lang``, and a few commands show that their words follow it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from raceday.cli.main import app, run
from tests.cli_tree import leaf_commands

DOC = Path(__file__).resolve().parents[2] / "docs" / "usage" / "terminal.md"
START, END = "<!-- option-table", "<!-- end of option-table -->"
FLAG = "—"
HOW_MANY = {"-n"}  # the one short form shared by several names: each is "how many"


ROOT = typer.main.get_command(app)
COMMANDS = {" ".join(path): command for path, command in leaf_commands(ROOT)}


def _table() -> dict[str, tuple[str, str, str]]:
    """The table's rows: option (its first long name) -> (its --no- form, short, placeholder)."""
    text = DOC.read_text(encoding="utf-8")
    body = text[text.index(START):text.index(END)]
    rows: dict[str, tuple[str, str, str]] = {}
    for line in body.splitlines():
        if not line.startswith("| `-"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        names = re.findall(r"`([^`]+)`", cells[0])
        short = " ".join(re.findall(r"`([^`]+)`", cells[1]))
        shown = re.findall(r"`([^`]+)`", cells[2])
        placeholder = shown[0].replace("\\|", "|") if shown else cells[2]
        assert names[0] not in rows, f"the table lists {names[0]} twice"
        rows[names[0]] = (" ".join(names[1:]), short, placeholder)
    return rows


TABLE = _table()


def _options() -> Iterator[tuple[str, Any]]:
    """Every option a user can give (hidden ones are not the vocabulary): (command, param)."""
    for path, command in COMMANDS.items():
        for param in command.params:
            if param.param_type_name == "option" and not getattr(param, "hidden", False):
                yield path, param


def _row_of(param: Any) -> tuple[str, tuple[str, str, str]]:
    longs = [o for o in param.opts if o.startswith("--")]
    shorts = " ".join(sorted(o for o in param.opts if not o.startswith("--")))
    placeholder = FLAG if param.is_flag or param.count else str(param.metavar)
    return longs[0], (" ".join(param.secondary_opts), shorts, placeholder)


def test_the_table_is_read() -> None:
    assert len(TABLE) > 50 and TABLE["--seed"] == ("", "-s", "N")
    assert TABLE["--ratings"] == ("--no-ratings", "", FLAG)
    assert TABLE["--lang"] == ("", "", "en|ja")


def _mismatches(options: Iterator[tuple[str, Any]]) -> list[str]:
    wrong = []
    for path, param in options:
        name, row = _row_of(param)
        if name not in TABLE:
            wrong.append(f"raceday {path}: {name} is not in the table of {DOC.name}")
        elif row != TABLE[name]:
            wrong.append(f"raceday {path}: {name} is {row}, the table says {TABLE[name]}")
    return wrong


def test_every_option_of_every_command_is_in_the_table_as_it_is_there() -> None:
    wrong = _mismatches(_options())
    assert not wrong, "\n".join(wrong)


def test_a_new_option_or_another_short_form_fails_the_check() -> None:
    made = typer.Typer(add_completion=False)

    @made.command()
    def made_up(frobnicate: int = typer.Option(1, "--frobnicate"),
                seed: int = typer.Option(0, "--seed", "-x", metavar="N")) -> None:
        """Never run."""

    command = typer.main.get_command(made)
    wrong = _mismatches(("made-up", param) for param in command.params)
    assert len(wrong) == 2 and "--frobnicate is not in the table" in wrong[0], wrong
    assert "--seed is" in wrong[1]


def test_every_row_of_the_table_is_an_option_of_some_command() -> None:
    used = {_row_of(param)[0] for _, param in _options()}
    assert set(TABLE) - used == set()


def test_a_short_form_stands_for_one_name() -> None:
    names: dict[str, set[str]] = defaultdict(set)
    for option, (_, short, _) in TABLE.items():
        for letter in short.split():
            names[letter].add(option)
    shared = {letter: found for letter, found in names.items() if len(found) > 1}
    assert set(shared) <= HOW_MANY, shared
    assert names["-n"] == {"--races", "--games"}


def test_an_option_is_a_flag_everywhere_or_a_value_everywhere() -> None:
    kinds: dict[str, set[bool]] = defaultdict(set)
    for _, param in _options():
        kinds[_row_of(param)[0]].add(bool(param.is_flag or param.count))
    assert {name for name, seen in kinds.items() if len(seen) > 1} == set()


# --- every command takes --lang -----------------------------------------------------------
def test_every_command_takes_lang() -> None:
    lacking = [path for path, command in COMMANDS.items()
               if not any("--lang" in param.opts for param in command.params)]
    assert lacking == []


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert run(list(argv), command=ROOT) == 0
    return capsys.readouterr().out


def test_keirin_odds_speaks_the_language_asked_for(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")
    english = _out(capsys, "keirin", "odds", "--riders", "6", "--top", "1")
    assert "KEIRIN exact odds" in english and "probability" in english
    japanese = _out(capsys, "keirin", "odds", "--riders", "6", "--top", "1", "--lang", "ja")
    assert "正確なオッズ" in japanese and "確率" in japanese and "単勝" in japanese
    assert "probability" not in japanese
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")  # the locale, as play and watch honour it
    assert "正確なオッズ" in _out(capsys, "keirin", "odds", "--riders", "6", "--top", "1")


def test_derby_odds_and_hairpin_levels_follow_the_locale(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    derby = _out(capsys, "derby", "odds")
    assert "単勝 — 正確な値" in derby and "Probability" not in derby
    assert "Probability" in _out(capsys, "derby", "odds", "--lang", "en")
    levels = _out(capsys, "hairpin", "levels")
    assert "アルファベータ探索" in levels and "alpha-beta search" not in levels


def test_the_levels_words_are_the_levels_own_descriptions(
        capsys: pytest.CaptureFixture[str]) -> None:
    from raceday.games.hairpin.agents import LEVELS, OLD_EXPERT

    shown = " ".join(_out(capsys, "hairpin", "levels", "--lang", "en").split())
    for level in [*LEVELS.values(), OLD_EXPERT]:
        assert f"{level.name} {level.description}" in shown


def test_a_simulation_says_its_seed_in_the_language_asked_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = _out(capsys, "keirin", "simulate", "--engine", "reference", "-n", "2", "--seed",
               "3", "--lang", "ja")
    assert "シード 3（--seed 3 で同じ数値がもう一度出ます）" in out
    assert "2着以内" in out and "平均レース長" in out and "top 2" not in out


def test_the_fast_start_of_keirin_odds_leaves_a_japanese_locale_to_the_full_command(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from raceday.games.keirin import quick

    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert quick.run(["keirin", "odds"]) is None  # the full command speaks Japanese
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert quick.run(["keirin", "odds", "--riders", "6", "--top", "1"]) == 0
    assert "KEIRIN exact odds" in capsys.readouterr().out
