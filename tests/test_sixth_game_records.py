"""The sixth game (tests/sixth_game, Twin Dice Dash, installed beside raceday) gets records
without a line of its own (#47): the arena writes its matches as records, ``raceday record
check`` plays them through its rules (sealed bets and all) and refuses a corrupted one at
its line, and ``raceday replay FILE`` shows every step from the first position."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sixth_game_install import GAME as NAME
from tests.sixth_game_install import installed, subprocess_env

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return installed(tmp_path_factory)


def raceday(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``raceday ARGS`` in a fresh process that sees the installed sixth game."""
    return subprocess.run([sys.executable, "-m", "raceday", *args], env=subprocess_env(site),
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.fixture(scope="module")
def matches(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two Twin Dice Dash games of the arena, saved as records in one file."""
    path = tmp_path_factory.mktemp("twindash") / "matches.txt"
    made = raceday(site, "arena", "--game", NAME, "--games", "2", "--seed", "6", "--save",
                   str(path), "--lang", "en")
    assert made.returncode == 0, made.stderr
    assert f"2 games written as records to {path}" in made.stdout
    return path


def test_the_plugin_records_check_through_its_rules(site: Path, matches: Path) -> None:
    text = matches.read_text(encoding="utf-8")
    assert text.count(f'[Game "{NAME}"]') == 2
    checked = raceday(site, "record", "check", str(matches), "--lang", "en")
    assert checked.returncode == 0, checked.stderr
    lines = checked.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith(f"{NAME}: ") for line in lines)
    assert "not finished" not in checked.stdout  # each match was played to its end


def test_a_corrupted_plugin_record_is_refused_at_its_line(site: Path, matches: Path,
                                                          tmp_path: Path) -> None:
    lines = matches.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines, start=1) if line.startswith("chance:"))
    lines[number - 1] = "chance: no such roll"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    checked = raceday(site, "record", "check", str(bad))
    assert checked.returncode == 2
    assert checked.stderr.startswith(f"{bad}:{number}: chance cannot play 'no such roll'")
    assert "Traceback" not in checked.stderr


def test_the_plugin_record_replays_step_by_step(site: Path, matches: Path) -> None:
    moves = [line for line in matches.read_text(encoding="utf-8").splitlines()
             if line[:1] in ("p", "c") and ":" in line and not line.startswith("[")]
    shown = raceday(site, "replay", str(matches), "--json", "--lang", "en")
    assert shown.returncode == 0, shown.stderr
    doc = json.loads(shown.stdout)
    assert doc["game"] == NAME and doc["total"] == len(moves) + 2  # + each first position
    steps = doc["steps"]
    assert [s["move"] for s in steps if "move" in s] == moves
    assert all(step["board"] for step in steps) and all("frame" in s for s in steps)
    plain = raceday(site, "replay", str(matches), "--all", "--delay", "0", "--lang", "en")
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.count(f" of {len(moves) + 2} ") == len(moves) + 2
