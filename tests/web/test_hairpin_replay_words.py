"""A Hairpin room's replay words its moves as the phones do (``move.<kind>``, the sides by
their colour's word) in the reader's language, on the replay page and in the terminal's
``raceday replay --room``: never the rules' English move names in Japanese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from raceday.present import render
from raceday.present.replay import step_text
from raceday.web.replay import room_replay
from tests.cli.test_replay import replay_json
from tests.web.test_replay_frames import play_room

ENGLISH = re.compile(r"\b(charge|cruise|bump|pass|skip|enter|red|black|completes?|lap)\b",
                     re.IGNORECASE)


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("hairpin") / "rooms.sqlite"
    return db, play_room(db, "hairpin", seed=3)


def test_the_replay_page_words_moves_and_sides_in_japanese(room: tuple[Path, str]) -> None:
    db, code = room
    steps = room_replay(db, code)["steps"]
    moves = [s for s in steps if any(m["key"] == "event.move" for m in s["events"])]
    assert len(moves) > 4
    ja = [text for s in moves for text in step_text(s, "hairpin", "ja")]
    assert [text for text in ja if ENGLISH.search(text)] == []
    red, black = render("hp_red", "ja", "hairpin"), render("hp_black", "ja", "hairpin")
    assert all(text.startswith((red, black)) for text in ja if "：" in text)
    said = " ".join(ja)
    assert "チャージ" in said or "クルーズ" in said
    en = [text for s in moves for text in step_text(s, "hairpin", "en")]
    assert all(re.match(r"(Red|Black): ", text) for text in en if ": " in text)


def test_the_terminal_replay_words_them_alike(room: tuple[Path, str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    db, code = room
    doc = replay_json(capsys, code.lower(), "--room", "--db", str(db), "--lang", "ja")
    words = [w for step in doc["steps"] for w in step["words"]]
    moved = [w for w in words if "→" in w]
    assert len(moved) > 4
    assert [w for w in moved if ENGLISH.search(w)] == []
