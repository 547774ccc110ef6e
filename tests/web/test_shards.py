"""Shards: the rule that gives each room code one process, what a shard loads, makes and
refuses, and the Caddyfile that routes by the same rule (checked by Caddy's own parser)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient

from raceday.cli.main import GameGroup, run
from raceday.cli.main import app as cli_app
from raceday.web.app import create_app
from raceday.web.rooms import CODE_ALPHABET, NoSuchRoom, Rooms
from raceday.web.server import free_port
from raceday.web.shards import (
    MISROUTED_WS,
    ROOM_PREFIXES,
    Shard,
    caddyfile,
    owner,
    room_regexp,
)
from tests.cli.test_docs_commands import _command_lines
from tests.cli.test_docs_commands import (
    test_a_documented_command_line_parses_in_the_current_vocabulary as parses,
)
from tests.web.conftest import worded

CADDY = shutil.which("caddy") or "/usr/bin/caddy"


@pytest.mark.parametrize("count", [1, 2, 3, 7, 20])
def test_every_code_has_exactly_one_shard(count: int) -> None:
    shards = [Shard(k, count) for k in range(count)]
    assert "".join(sorted("".join(s.letters for s in shards))) == "".join(sorted(CODE_ALPHABET))
    for letter in CODE_ALPHABET:
        code = letter + "BCD"
        owners = [s.index for s in shards if s.owns(code)]
        assert owners == [owner(code, count)]
        assert owner(" " + code.lower() + " ", count) == owners[0]  # read as the server reads


def test_shard_text_is_checked() -> None:
    assert Shard.parse(" 1 / 3 ") == Shard(1, 3)
    assert str(Shard(0, 2)) == "0/2"
    for bad in ("2/2", "0/0", "0/21", "-1/2", "1", "a/b", "1/2/3", ""):
        with pytest.raises(ValueError):
            Shard.parse(bad)
    assert owner("AAAA", 2) is None and owner("", 2) is None  # no shard made such a code


def test_a_shard_makes_loads_and_serves_only_its_own_rooms(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    zero, one = Rooms(db, Shard(0, 2)), Rooms(db, Shard(1, 2))  # one file, two processes
    made = {0: [zero.create("derby", {})[0].code for _ in range(12)],
            1: [one.create("derby", {})[0].code for _ in range(12)]}
    for index, codes in made.items():
        assert all(Shard(index, 2).owns(c) for c in codes), codes
    # started again on the same file, each loads its own rooms and none of the other's
    again = {k: Rooms(db, Shard(k, 2)) for k in (0, 1)}
    assert sorted(again[0].rooms) == sorted(made[0])
    assert sorted(again[1].rooms) == sorted(made[1])
    assert len(Rooms(db).rooms) == 24  # one process alone keeps them all
    with pytest.raises(NoSuchRoom) as info:
        again[0].get(made[1][0])
    assert info.value.message is not None and info.value.message.key == "refusal.misrouted"
    with pytest.raises(NoSuchRoom) as info:
        again[0].get("AAAA")  # a code nobody could make: simply no such room
    assert info.value.message is not None and info.value.message.key == "refusal.no_room"
    for rooms in (zero, one, *again.values()):
        rooms.store.close()


def _room_paths(code: str) -> list[tuple[str, str]]:
    return [("GET", f"/host/{code}"), ("GET", f"/watch/{code}"), ("GET", f"/play/{code}"),
            ("GET", f"/api/rooms/{code}"), ("GET", f"/api/rooms/{code}/qr.svg"),
            ("POST", f"/api/rooms/{code}/join"), ("GET", f"/api/replay/room/{code}")]


def test_a_request_for_another_shards_room_is_refused_421(tmp_path: Path) -> None:
    db = tmp_path / "party.sqlite"
    with TestClient(create_app(db, shard=Shard(1, 2))) as tc:
        made = tc.post("/api/rooms", json={"game": "derby", "options": {}})
        assert made.status_code == 201
        mine = made.json()["code"]
        assert Shard(1, 2).owns(mine)
        theirs = "B" + mine[1:]  # B is shard 0's first letter
        assert tc.get(f"/api/rooms/{mine.lower()}").status_code == 200
        for method, path in _room_paths(theirs) + _room_paths(theirs.lower()):
            answer = tc.request(method, path, json={"name": "Aki"} if method == "POST" else None)
            assert answer.status_code == 421, (path, answer.status_code)
            text = worded(answer.json())
            assert theirs in text and "shard 0" in text, text
            assert answer.headers["content-security-policy"]  # the usual headers still
        with tc.websocket_connect(f"/ws/{theirs}") as ws:
            frame = ws.receive_json()
            assert frame["type"] == "error" and frame["fatal"] is True
            assert frame["words"]["key"] == "refusal.misrouted"
            with pytest.raises(Exception) as closed:
                ws.receive_json()
            assert getattr(closed.value, "code", None) == MISROUTED_WS
        # a code no shard could have made is not misrouted: there is simply no such room
        assert tc.get("/api/rooms/AAAA").status_code == 404
        assert tc.get("/api/games").status_code == 200  # what names no room is served


def test_caddyfile_routes_each_shards_letters(tmp_path: Path) -> None:
    upstreams = ["127.0.0.1:8001", "127.0.0.1:8002", "[::1]:8003"]
    text = caddyfile("party.example.org", upstreams, admin="off", bind="127.0.0.1")
    for index, upstream in enumerate(upstreams):
        letters = Shard(index, 3).letters
        assert f'"{room_regexp(letters)}"' in text
        pattern = re.compile(room_regexp(letters).removeprefix("(?i)"), re.IGNORECASE)
        for letter in CODE_ALPHABET:
            for prefix in ROOM_PREFIXES:
                path = f"/{prefix}/{letter.lower()}xyz"
                assert bool(pattern.match(path)) == (owner(letter, 3) == index), path
        assert f"reverse_proxy {upstream}\n" in text
    assert not re.compile(room_regexp(CODE_ALPHABET)[4:]).match("/api/rooms")  # a new room
    config = _adapt(tmp_path, text)
    assert config["admin"] == {"disabled": True}
    server = next(iter(config["apps"]["http"]["servers"].values()))
    found = json.dumps(server)
    for index, upstream in enumerate(upstreams):
        assert room_regexp(Shard(index, 3).letters) in found
        assert json.dumps({"dial": upstream}) in found
    assert server["listen"] == ["127.0.0.1:443"]


def _adapt(tmp_path: Path, text: str) -> dict[str, Any]:
    """Caddy's own reading of ``text`` (its JSON config); a refusal fails the test."""
    path = tmp_path / "Caddyfile"
    path.write_text(text, encoding="utf-8")
    home = tmp_path / "caddy-home"
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data")}
    done = subprocess.run([CADDY, "adapt", "--config", str(path), "--adapter", "caddyfile"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "not formatted" not in done.stderr  # what we write is what `caddy fmt` writes
    return dict(json.loads(done.stdout))


@pytest.mark.parametrize("args", [
    ["--site", "party.example.org"],  # no shard at all
    ["--site", "party.example.org", "--shard-address", "nowhere"],
    ["--site", "party.example.org", "--shard-address", "127.0.0.1:1", "--shard-address",
     "127.0.0.1:1"],
    ["--site", "two words", "--shard-address", "127.0.0.1:8001"],
    ["--site", "x.org", "--shard-address", "127.0.0.1:8001", "--bind", "localhost:80"],
    ["--site", "x.org", "--shard-address", "127.0.0.1:8001", "--admin", "sometimes"],
    ["--site", "x.org",
     *[a for p in range(21) for a in ("--shard-address", f"127.0.0.1:{8000 + p}")]],
    ["--site", "x.org", "--shard-address", "127.0.0.1:8001", "--out", "/no/such/folder/Caddyfile"],
])
def test_the_command_refuses_bad_input_in_one_line(args: list[str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["caddyfile", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_the_command_writes_the_file_whole(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "Caddyfile"
    out.write_text("old", encoding="utf-8")
    args = ["caddyfile", "--site", "party.example.org", "--shard-address", "127.0.0.1:8001",
            "--shard-address", "127.0.0.1:8002", "--out", str(out)]
    assert run(args) == 0
    assert out.read_text(encoding="utf-8") == caddyfile(
        "party.example.org", ["127.0.0.1:8001", "127.0.0.1:8002"])
    assert [p.name for p in tmp_path.iterdir()] == ["Caddyfile"]  # no temporary file left
    capsys.readouterr()
    assert run(args[:-2]) == 0
    printed = capsys.readouterr().out
    assert printed == out.read_text(encoding="utf-8")
    assert _adapt(tmp_path, printed)["apps"]["http"]["servers"]


GUIDE = Path(__file__).resolve().parents[2] / "docs" / "usage" / "scale-out.md"


def test_the_guide_shows_the_rule_the_code_keeps() -> None:
    rows = re.findall(r"^\| (\d+) \|(.*)\|$", GUIDE.read_text(encoding="utf-8"), re.M)
    checked = 0
    for count, cells in rows:
        shown = [c.replace(" ", "").strip("`") for c in cells.split("|")]
        shown = [c for c in shown if c and c != "everycode"]
        if int(count) > 1:
            assert shown == [Shard(k, int(count)).letters for k in range(int(count))], count
            checked += 1
    assert checked >= 2


@pytest.mark.parametrize(("number", "text"), _command_lines(GUIDE))
def test_the_guides_command_lines_parse(number: int, text: str) -> None:
    root = typer.main.get_command(cli_app)
    assert isinstance(root, GameGroup)
    parses(root, "docs/usage/scale-out.md", number, text)


@pytest.mark.parametrize("value", ["2/2", "0/0", "0/21", "half", "1/2/3", ""])
def test_serve_refuses_a_bad_shard_in_one_line(value: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "party.sqlite"
    assert run(["serve", "--port", str(free_port()), "--db", str(db), "--shard", value]) == 2
    out, err = capsys.readouterr()
    assert "--shard" in err and err.strip().count("\n") == 0, err
    assert out == "" and not db.exists()  # refused before anything is opened


def test_serve_as_a_shard_keeps_only_its_rooms(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from raceday.cli.serve import serve_command

    db = tmp_path / "party.sqlite"
    rooms = Rooms(db)
    codes = [rooms.create("derby", {})[0].code for _ in range(10)]
    rooms.store.close()
    mine = [c for c in codes if Shard(1, 2).owns(c)]
    serve_command("127.0.0.1", free_port(), db, shard="1/2", run=False)
    out = " ".join(capsys.readouterr().out.split())  # Rich wraps at the terminal's width
    kept = "room kept" if len(mine) == 1 else "rooms kept"
    assert f"({len(mine)} {kept})" in out
    assert "shard 1/2" in out and Shard(1, 2).letters in out
