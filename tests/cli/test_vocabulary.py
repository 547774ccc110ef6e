"""The one vocabulary (#33), applied by raceday.cli.main to every game and tool.

raceday is at 0.1.0, so it keeps no old spellings (#45): an old option or command name is
refused like any unknown one, by Click's own usage error (exit code 2, one line, no
traceback). The shared options are tested on a made-up tool (a module of its own, found
like a real tool). Help: every command's --help is checked in test_help_vocabulary.py.
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer

import raceday.cli.main as cli_main
from raceday.cli.main import run
from raceday.terminal.common import (
    DbOpt,
    LangOpt,
    PlayersOpt,
    ResumeOpt,
    SaveOpt,
    SeedOpt,
    player_names,
)

FAKE = "fakevocab"


def _fake_module() -> types.ModuleType:
    """A tool with a play command taking the shared options."""
    module = types.ModuleType(f"raceday.cli.{FAKE}")
    app = typer.Typer(add_completion=False)

    def play(players: PlayersOpt = None, save: SaveOpt = None, resume: ResumeOpt = None,
             db: DbOpt = None, seed: SeedOpt = None, lang: LangOpt = None,
             quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False) -> None:
        """Echo what was parsed."""
        typer.echo(json.dumps({"players": player_names(players), "save": save,
                               "resume": resume, "db": str(db) if db else None,
                               "seed": seed, "quiet": quiet}))

    app.command("play")(play)

    @app.command("count")
    def count(races: Annotated[int, typer.Option("--races", "-n")] = 1) -> None:
        typer.echo(json.dumps({"races": races}))

    module.app = app  # type: ignore[attr-defined]
    module.HELP = "A made-up tool for the vocabulary's tests."  # type: ignore[attr-defined]
    return module


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    """The made-up tool, discovered as ``raceday fakevocab``."""
    real = cli_main.discover_tools
    monkeypatch.setattr(cli_main, "discover_tools",
                        lambda: {**real(), FAKE: "A made-up tool."})
    monkeypatch.setitem(sys.modules, f"raceday.cli.{FAKE}", _fake_module())


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, list[str]]:
    code = run([FAKE, *argv])
    captured = capsys.readouterr()
    out = json.loads(captured.out) if code == 0 and captured.out.startswith("{") else \
        captured.out
    return code, out, captured.err.splitlines()


# --- the shared options, through the command line ---------------------------------------------


@pytest.mark.usefixtures("fake")
def test_the_shared_options_are_parsed_as_given(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "play", "-p", "Ann", "--players", "Bob", "--save", "night",
                          "--seed", "1", "-q")
    assert (code, err) == (0, [])
    assert out == {"players": ["Ann", "Bob"], "save": "night", "resume": None, "db": None,
                   "seed": 1, "quiet": True}
    assert _run(capsys, "count", "-n", "4")[1] == {"races": 4}


@pytest.mark.usefixtures("fake")
@pytest.mark.parametrize("argv", [["--resume", "g1"], ["--resume=g1"],
                                  ["--resume", "g1", "--save", "other"]])
def test_resume_name_passes_untouched(capsys: pytest.CaptureFixture[str],
                                      argv: list[str]) -> None:
    code, out, err = _run(capsys, "play", *argv)
    assert code == 0 and out["resume"] == "g1" and err == []


@pytest.mark.usefixtures("fake")
def test_a_bare_resume_without_any_name_is_refused_saying_it_needs_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "play", "--resume", "--db", "k.sqlite")
    assert code == 2
    assert len(err) == 1 and "--resume" in err[0] and "needs a session's name" in err[0]
    code, _, err = _run(capsys, "play", "--resume")
    assert code == 2 and "--resume" in err[0] and "requires an argument" in err[0]


def test_db_path_of_a_bare_resume_is_never_taken_as_a_name(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """`keirin play --resume --db k.sqlite` is refused, saying --resume needs a name (it
    took '--db' as the session's name before #33); nothing is created."""
    db = tmp_path / "k.sqlite"
    assert run(["keirin", "play", "--resume", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "--resume" in err and "needs a session's name" in err
    assert err.count("\n") == 1 and not db.exists()


# --- old spellings: none kept (#45) ------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["keirin", "simulate", "--simulations", "5", "--seed", "1", "--json"],  # now -n/--races
    ["keirin", "play", "--player", "Ann", "--list"],  # now -p/--players
    ["serve", "-p", "8123"],  # now --port
    ["caddyfile", "--site", "x.org", "--shard-address", "127.0.0.1:8001", "--output", "C"],
    ["keirin", "bet", "--list"],  # an old command name: now play
])
def test_an_old_spelling_is_refused_like_any_unknown_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        argv: list[str]) -> None:
    """What the removed rewriter used to accept with a note is Click's own usage error now:
    exit code 2, one 'error:' line naming the old spelling, no traceback, nothing run."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    assert run(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    old = next(w for w in argv if w in ("--simulations", "--player", "-p", "--output", "bet"))
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    assert ("No such option" in lines[0] or "No such command" in lines[0]) and old in lines[0]
    assert "Traceback" not in captured.err and "note:" not in captured.err
    assert captured.out == "" and list(tmp_path.iterdir()) == []


def test_print_and_arena_say_what_they_did_in_the_asked_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["print", "hairpin", "board", "--out", str(tmp_path / "b.pdf"),
                "--lang", "ja"]) == 0
    assert capsys.readouterr().out.strip() == f"1ページを {tmp_path / 'b.pdf'} に書きました"
    assert run(["print", "hairpin", "--out", str(tmp_path / "h.pdf")]) == 0
    assert capsys.readouterr().out.strip() == f"wrote 2 pages to {tmp_path / 'h.pdf'}"
    assert run(["arena", "--game", "hairpin", "-n", "2", "-s", "5", "--lang", "ja"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "シード 5" and lines[-1].startswith("引き分け: ")
    assert all("2局中" in line for line in lines[1:3])
