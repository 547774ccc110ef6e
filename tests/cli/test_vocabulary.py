"""The one vocabulary (#33), applied by raceday.cli.main to every game and tool.

Old spellings: a module's OLD_SPELLINGS rewrite a command's argv before it is parsed, with
one note on stderr per old spelling and nothing of them in the help. The machinery is
tested on a made-up tool (a module of its own, found like a real tool), with a nested
group and an old command name, and on the real tools' spellings (serve's -p); the real
games' tables are checked for sense. Help: every command's --help is checked in
test_help_vocabulary.py.
"""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer

import raceday.cli.main as cli_main
from raceday.cli.main import GameGroup, rewrite_old_spellings, run, spellings_for
from raceday.terminal.common import (
    DbOpt,
    LangOpt,
    PlayersOpt,
    ResumeOpt,
    SaveOpt,
    SeedOpt,
    add_alias,
    player_names,
)

FAKE = "fakevocab"


def _fake_module() -> types.ModuleType:
    """A tool with a play command (the shared options), a count with two long names for
    one option, a nested 'route import', and an old command name 'go' for play."""
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
    add_alias(app, "go", "play", play)

    @app.command("count")
    def count(races: Annotated[int, typer.Option("--races", "--simulations", "-n")] = 1
              ) -> None:
        typer.echo(json.dumps({"races": races}))

    route = typer.Typer(add_completion=False)

    @route.command("import")
    def import_(track: str, peloton: Annotated[str | None, typer.Argument()] = None,
                save: SaveOpt = None) -> None:
        typer.echo(json.dumps({"track": track, "peloton": peloton, "save": save}))

    app.add_typer(route, name="route")
    module.app = app  # type: ignore[attr-defined]
    module.HELP = "A made-up tool for the vocabulary's tests."  # type: ignore[attr-defined]
    module.OLD_SPELLINGS = {  # type: ignore[attr-defined]
        "": {"-x": "--seed"},
        "play": {"--player": "--players", "--session": "--save", "--resume": "--save"},
        "route import": {"--name": "--save"},
    }
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


def _note(old: str, new: str) -> str:
    return f"note: {old} is now {new}; the old spelling goes in the next release"


# --- old spellings, through the command line -------------------------------------------------


@pytest.mark.usefixtures("fake")
@pytest.mark.parametrize("argv", [
    ["--player", "Ann", "--player", "Bob"],
    ["--player=Ann", "--players", "Bob"],
    ["--player", "Ann,Bob"],
])
def test_an_old_long_name_is_rewritten_with_one_note(
        capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = _run(capsys, "play", *argv)
    assert code == 0, err
    assert out["players"] == ["Ann", "Bob"]
    assert err == [_note("--player", "--players")]  # once, however often it was used


@pytest.mark.usefixtures("fake")
def test_an_old_short_name_is_rewritten_attached_or_not(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "play", "-x", "5")
    assert (code, out["seed"], err) == (0, 5, [_note("-x", "--seed")])
    code, out, err = _run(capsys, "play", "-x7", "-q")
    assert (code, out["seed"], out["quiet"]) == (0, 7, True)


@pytest.mark.usefixtures("fake")
def test_an_option_value_and_what_follows_the_separator_are_never_rewritten(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "play", "--db", "--player", "-p", "Ann")
    assert code == 0, err  # '--player' is --db's value here: a file of that name
    assert out["db"] == "--player" and out["players"] == ["Ann"] and err == []
    code, out, err = _run(capsys, "route", "import", "--", "--name")
    assert code == 0, err
    assert out["track"] == "--name" and err == []


@pytest.mark.usefixtures("fake")
def test_several_old_spellings_give_one_note_each_in_the_asked_language(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "play", "--player", "Ann", "--session", "night",
                          "-x", "1", "--lang", "ja")
    assert code == 0
    assert out == {"players": ["Ann"], "save": "night", "resume": None, "db": None,
                   "seed": 1, "quiet": False}
    assert len(err) == 3 and all(line.startswith("注意: ") for line in err)
    assert "--player" in err[0] and "--players" in err[0]
    assert "--session" in err[1] and "--save" in err[1]


@pytest.mark.usefixtures("fake")
@pytest.mark.parametrize(("argv", "resumed"), [
    (["--resume", "--save", "g1"], "g1"),
    (["--save", "g1", "--resume"], "g1"),
    (["--resume", "--session", "g1", "-p", "Ann"], "g1"),
    (["--save=g1", "--resume", "--db", "x.sqlite"], "g1"),
])
def test_the_old_bare_resume_takes_its_name_from_save(
        capsys: pytest.CaptureFixture[str], argv: list[str], resumed: str) -> None:
    code, out, err = _run(capsys, "play", *argv)
    assert code == 0, err
    assert out["resume"] == resumed and out["save"] is None  # resumed, not started anew
    assert err[-1] == ("note: --resume with --save NAME is now --resume NAME; the old form "
                       "goes in the next release")


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


@pytest.mark.usefixtures("fake")
def test_a_nested_command_and_an_old_command_name_get_their_spellings(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "route", "import", "track.gpx", "--name", "r1", "-x", "2")
    assert code == 2  # -x is not an option of route import: refused by the parser
    assert "-x" in err[-1]
    code, out, err = _run(capsys, "route", "import", "track.gpx", "--name=r1")
    assert code == 0 and out == {"track": "track.gpx", "peloton": None, "save": "r1"}
    assert err == [_note("--name", "--save")]
    code, out, err = _run(capsys, "go", "--player", "Ann")
    assert code == 0 and out["players"] == ["Ann"]
    assert sorted(err) == sorted(["note: 'go' is now 'play'", _note("--player", "--players")])
    code, out, err = _run(capsys, "go", "--lang", "ja")
    assert code == 0 and err == ["注意: 'go' は 'play' になりました"]


@pytest.mark.usefixtures("fake")
def test_a_second_long_name_becomes_an_old_spelling_of_the_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "count", "--simulations", "3")
    assert (code, out, err) == (0, {"races": 3}, [_note("--simulations", "--races")])
    assert _run(capsys, "count", "-n", "4")[1] == {"races": 4}


@pytest.mark.usefixtures("fake")
@pytest.mark.parametrize(("command", "old"), [
    (["play"], ["--player", "--session", "-x"]),
    (["route", "import"], ["--name"]),
    (["count"], ["--simulations", "-x"]),
])
def test_old_names_never_show_in_help(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch,
                                      command: list[str], old: list[str]) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert run([FAKE, *command, "--help"]) == 0
    shown = capsys.readouterr().out
    assert "Usage: raceday" in shown
    for name in old:
        assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", shown), name


@pytest.mark.usefixtures("fake")
def test_an_old_command_name_is_not_listed(capsys: pytest.CaptureFixture[str]) -> None:
    listed = re.findall(r"^│ (\w\S*) ", run_help(capsys, [FAKE]), flags=re.M)
    assert listed == ["play", "count", "route"]


def run_help(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert run([*argv, "--help"]) == 0
    return capsys.readouterr().out


# --- the rewriting itself ---------------------------------------------------------------------


def _command() -> Any:
    app = typer.Typer(add_completion=False)

    @app.command()
    def go(players: PlayersOpt = None, save: SaveOpt = None, resume: ResumeOpt = None,
           db: DbOpt = None,
           name: Annotated[str | None, typer.Option("--name", hidden=True)] = None) -> None:
        """A command."""

    return typer.main.get_command(app)


def test_a_hidden_option_under_an_old_name_is_rewritten_all_the_same() -> None:
    args, used = rewrite_old_spellings(["--name", "n1"], _command(), {"--name": "--save"})
    assert args == ["--save", "n1"] and used == [("--name", "--save")]


def test_an_old_name_that_is_still_an_option_or_whose_new_name_is_not_is_left_alone() -> None:
    command = _command()
    args, used = rewrite_old_spellings(["-p", "Ann", "--via", "x"], command,
                                       {"-p": "--db", "--via": "--nowhere"})
    assert args == ["-p", "Ann", "--via", "x"] and used == []


def test_spellings_for_merges_every_command_then_the_commands_own() -> None:
    table = {"": {"-x": "--seed", "--a": "--b"}, "play": {"--a": "--c"},
             "route import": {"--name": "--save"}, "watch": {"--w": "--v"}}
    assert spellings_for(table, ["play"]) == {"-x": "--seed", "--a": "--c"}
    assert spellings_for(table, ["route", "import"]) == {"-x": "--seed", "--a": "--b",
                                                         "--name": "--save"}
    assert spellings_for(table, ["race"], also="watch")["--w"] == "--v"
    assert spellings_for(table, []) == {"-x": "--seed", "--a": "--b"}


def test_a_malformed_table_is_a_programming_error() -> None:
    bad = types.SimpleNamespace(__name__="bad", OLD_SPELLINGS={"play": {"player": "--p"}})
    with pytest.raises(TypeError, match="OLD_SPELLINGS"):
        cli_main.spellings_of(bad)


# --- the real tools and games -----------------------------------------------------------------


def test_serve_p_is_an_old_spelling_of_port(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[int] = []
    monkeypatch.setattr("raceday.cli.serve.serve_command",
                        lambda host, port, db, **kw: called.append(port))
    assert run(["serve", "-p", "8123"]) == 0
    assert run(["serve", "-p8124"]) == 0
    assert called == [8123, 8124]
    assert capsys.readouterr().err.splitlines() == [_note("-p", "--port")] * 2
    assert "-p" not in run_help(capsys, ["serve"]).split()


def _every_module() -> dict[str, types.ModuleType]:
    import importlib

    group = typer.main.get_command(cli_main.app)
    assert isinstance(group, GameGroup)
    modules = {}
    for name in [*group._games, *group._tools]:
        group._load(name)
        where = (f"{cli_main.game_packages()[name]}.cli" if name in group._games
                 else f"raceday.cli.{name.replace('-', '_')}")
        modules[name] = importlib.import_module(where)
    return modules


def _leaves(command: Any, path: list[str]) -> dict[str, Any]:
    subs = getattr(command, "commands", None)
    if not subs:
        return {" ".join(path): command}
    found: dict[str, Any] = {}
    for name, sub in subs.items():
        found.update(_leaves(sub, [*path, name]))
    return found


def test_every_declared_old_spelling_makes_sense() -> None:
    """Each game's and tool's OLD_SPELLINGS name commands it has; a command's own entries
    map an old name that is no longer an option its help shows to one that is (so the
    rewrite applies);
    an entry for every command ("") reaches at least one command."""
    group = typer.main.get_command(cli_main.app)
    assert isinstance(group, GameGroup)
    checked = 0
    for name, module in _every_module().items():
        table = cli_main.spellings_of(module)
        leaves = _leaves(group._load(name), [])
        for key, pairs in table.items():
            if key:
                assert key in leaves or key.split()[-1] in {p.split()[-1] for p in leaves}, \
                    f"{name}: OLD_SPELLINGS names no command {key!r}"
            targets = [c for p, c in leaves.items()
                       if not key or p == key or p.split()[-1] == key]
            for old, new in pairs.items():
                lives = [c for c in targets
                         if any(new in prm.opts for prm in c.params)]
                assert lives, f"{name} {key!r}: {new} is no option of the command(s)"
                if key:
                    for c in targets:
                        assert all(old not in (*prm.opts, *prm.secondary_opts)
                                   for prm in c.params if not prm.hidden) \
                            or (old, new) == ("--resume", "--save"), \
                            f"{name} {key}: {old} is still an option"
                checked += 1
    assert checked >= 1  # serve's -p at least


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


@pytest.mark.parametrize(("game", "save", "players"), [
    ("hairpin", "--save", []),
    ("pistard", "--session", ["-p", "human,easy"]),
])
def test_a_real_games_old_bare_resume_goes_on_with_the_named_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        game: str, save: str, players: list[str]) -> None:
    """Hairpin's and PISTARD's old `--resume --save NAME` (or `--session NAME`) resumes
    NAME; no second game is started under NAME-2."""
    import io

    from raceday.store.sessions import SessionStore

    db = tmp_path / "s.sqlite"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert run([game, "play", save, "g1", "--db", str(db), "--plain", *players]) == 0
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert run([game, "play", "--resume", save, "g1", "--db", str(db), "--plain"]) == 0
    err = capsys.readouterr().err
    assert ("note: --resume with --save NAME is now --resume NAME; the old form goes in "
            "the next release") in err.splitlines()
    assert SessionStore(db).names(game) == ["g1"]


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
