"""The non-interactive commands speak --lang (#43): with ``--lang ja`` their headings, table
columns and summary lines are Japanese, from the same message tables as play and watch, and
none of the English words they printed before is left; with ``--lang en`` the English is as
it was. Machine words (move notation, agent and level names, numbers) stay as they are.

Each command runs in-process with its smallest arguments (the click command is built once).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from rich.cells import cell_len

from raceday.cli.main import app, run
from raceday.web.server import free_port

ROOT = typer.main.get_command(app)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
TABLE = re.compile(r"[┃│┏┡└]")  # a line of a table (a long sentence is left unwrapped)


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)


@pytest.fixture(scope="module")
def party(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from raceday.web.rooms import Rooms

    db = tmp_path_factory.mktemp("rooms") / "party.sqlite"
    rooms = Rooms(db)
    room, _ = rooms.create("derby", {})
    rooms.join(room.code, "Aki")
    rooms.store.close()
    return db


# command -> (its arguments, English words it printed, which --lang ja must not show)
COMMANDS: dict[str, tuple[list[str], list[str]]] = {
    "hairpin perft": (["hairpin", "perft", "-d", "2"], []),  # "perft(2) = 100" in English
    "hairpin show": (["hairpin", "show"], ["finish line", "to move", "laps", "Red", "Black"]),
    "hairpin levels": (["hairpin", "levels"], ["or an agent", "the former expert"]),
    "hairpin match": (["hairpin", "match", "-p", "random,greedy", "-n", "2", "--seed", "1"],
                      ["games", "wins", "losses", "draws", "score", "avg plies", "agent"]),
    "hairpin analyse": (["hairpin", "analyse", "--think", "0.02", "--lines", "1"],
                        ["Searched", "positions in", "Values are for", "move", "value",
                         "principal variation", "laps"]),
    "pistard track": (["pistard", "track", "short"],
                      ["squares a lap", "lane", "infield", "The lap runs", "yellow"]),
    "pistard simulate": (["pistard", "simulate", "-n", "2", "--seed", "1"],
                         ["races", "players", "start lane", "riders", "wins", "win rate",
                          "interval", "level", "seats", "race length", "throws"]),
    "warm-up": (["warm-up", "--only", "hairpin"],  # warm (or compiled here, if cold)
                ["kernels", "already warm", "compiled in", "ready"]),
}
ENGLISH = {  # what each command says in English, kept as it was
    "hairpin perft": ["perft(2) = 100"],
    "hairpin show": ["finish line", "Red to move"],
    "hairpin levels": ["--players (and --red/--black) also take: human, easy"],
    "hairpin match": ["random vs greedy: 2 games", "avg plies", "losses"],
    "hairpin analyse": ["Searched", "Values are for red, in spaces of race lead.",
                        "principal variation"],
    "pistard track": ["Short training track: 32 squares a lap", "lane 4", "infield"],
    "pistard simulate": ["PISTARD scratch: 2 races, players easy, medium", "start lane",
                         "win rate", "race length:"],
    "warm-up": ["kernels", "The computer players and simulators are ready."],
}


def _out(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert run(argv, command=ROOT) == 0
    return capsys.readouterr().out


def _check(said: str, english: list[str]) -> None:
    assert JAPANESE.search(said), said
    for word in english:
        assert not re.search(rf"\b{re.escape(word)}\b", said), (word, said)
    table = [line for line in said.splitlines() if TABLE.search(line)]  # rich laid it out
    assert all(cell_len(line) <= 80 for line in table), said


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_command_speaks_japanese_with_lang_ja(capsys: pytest.CaptureFixture[str],
                                                  name: str) -> None:
    argv, english = COMMANDS[name]
    _check(_out(capsys, [*argv, "--lang", "ja"]), english)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_command_keeps_its_english_with_lang_en(capsys: pytest.CaptureFixture[str],
                                                    name: str) -> None:
    said = " ".join(_out(capsys, [*COMMANDS[name][0], "--lang", "en"]).split())
    for words in ENGLISH[name]:
        assert words in said, (words, said)
    assert not JAPANESE.search(said)


def test_hairpin_keeps_its_notation_and_json_in_japanese(
        capsys: pytest.CaptureFixture[str]) -> None:
    said = _out(capsys, ["hairpin", "perft", "-d", "1", "--divide", "--lang", "ja"])
    assert "a1 cruise b1: 1" in said and "perft（深さ 1）＝ 10局面" in said
    assert '"nodes": 10' in _out(capsys, ["hairpin", "perft", "-d", "1", "--json",
                                          "--lang", "ja"])
    assert "a1 cruise b1" in _out(capsys, ["hairpin", "show", "--lang", "ja"])


def test_rooms_list_speaks_the_language_asked_for(capsys: pytest.CaptureFixture[str],
                                                  party: Path) -> None:
    japanese = _out(capsys, ["rooms", "list", "--db", str(party), "--lang", "ja"])
    _check(japanese, ["CODE", "GAME", "STATUS", "SEATS", "EVENTS", "room", "played"])
    head, row = japanese.splitlines()[:2]  # the row's columns end under the heading's
    assert cell_len(head.split("  最後のプレイ")[0]) == cell_len(row.rsplit("  ", 1)[0])
    english = _out(capsys, ["rooms", "list", "--db", str(party), "--lang", "en"])
    assert english.startswith("CODE   GAME       STATUS            SEATS EVENTS  LAST PLAY")
    assert "1 room, 1 being played" in english
    japanese = _out(capsys, ["rooms", "prune", "--older-than", "3", "--db", str(party),
                             "--lang", "ja"])
    _check(japanese, ["room", "older", "day"])


def test_caddyfile_says_what_it_wrote_in_japanese(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    argv = ["caddyfile", "--site", "x.example.org", "--shard-address", "127.0.0.1:8001",
            "-o", str(tmp_path / "Caddyfile")]
    _check(_out(capsys, [*argv, "--lang", "ja"]), ["wrote", "behind"])
    assert "wrote " in _out(capsys, [*argv, "--lang", "en"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_serve_says_its_startup_lines_in_the_language_asked_for(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str) -> None:
    from raceday.cli.serve import serve_command

    serve_command("127.0.0.1", free_port(), tmp_path / "a.sqlite", run=False, idle_close=3,
                  lang=lang)
    # without the database's path, whose folders (pytest's "popen-gw2") hold English
    said = " ".join(capsys.readouterr().out.replace(str(tmp_path), "").split())
    if lang == "ja":
        assert "開くアドレス" in said and "Ctrl-C で止まります" in said
        for word in ("database", "rooms left idle", "open", "only this computer", "Scan"):
            assert word not in said
    else:
        assert "raceday party — database" in said and "open http://127.0.0.1:" in said
        assert "rooms left idle for 3 hours close (replays stay)" in said
        assert "Scan the code or type the address on the big screen" in said


@pytest.mark.parametrize(("argv", "english"), [
    (["keirin", "simulate", "-n", "50", "--engine", "reference"], "racing"),
    (["derby", "simulate", "-n", "50"], "simulating races"),
    (["arena", "--game", "hairpin", "--option", "variant=short", "--games", "2"], "games"),
])
def test_progress_bars_are_labelled_in_the_language_asked_for(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str], english: str) -> None:
    from contextlib import contextmanager

    from raceday.terminal import common

    labels: list[str] = []
    real = common.progress_bar

    @contextmanager
    def recorded(description: str, total: int, *, enabled: bool = True):  # type: ignore[no-untyped-def]
        labels.append(description)
        with real(description, total, enabled=False) as bar:
            yield bar

    monkeypatch.setattr(common, "progress_bar", recorded)
    import raceday.cli.arena as arena

    monkeypatch.setattr(arena, "progress_bar", recorded)
    for lang in ("en", "ja"):
        assert run([*argv, "--seed", "1", "--lang", lang], command=ROOT) == 0
    capsys.readouterr()
    assert labels[0] == english
    assert labels[1] != english and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", labels[1])
