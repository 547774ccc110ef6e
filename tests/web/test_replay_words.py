"""Every replay step reads as words in both languages: no unfilled "{slot}", no raw
"field: value" dump, no bare message key — for each game's saved sessions and for room
databases written by the rooms before this change (the fixtures), replayed as finished."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from raceday.core.agents import RandomAgent
from raceday.core.serialize import dumps_state
from raceday.games.hairpin import GAME as HAIRPIN
from raceday.games.pistard import GAME as PISTARD
from raceday.present.replay import step_text
from raceday.store.sessions import SessionStore
from raceday.web.replay import room_replay, saved_sessions, session_replay
from tests.web.conftest import Client

SAVES = Path(__file__).parents[1] / "fixtures" / "saves"
ROOM_DATABASES = ("rooms_before_kit.sqlite", "derby/rooms_before_evening.sqlite",
                  "keirin/rooms_before_night.sqlite")
SESSION_DATABASES = ("derby/sessions_before_evening.sqlite",
                     "keirin/sessions_before_night.sqlite", "wielersim/campaigns.sqlite")
DUMP = re.compile(r"\w: [\[{(]|\w=|'\w+': |\"\w+\": ?")
BARE_KEY = re.compile(r"[a-z_]+(\.[a-z_]+)+")


def problems(texts: list[str]) -> list[str]:
    """The texts a reader should never see."""
    return [text for text in texts if "{" in text or "}" in text or DUMP.search(text)
            or BARE_KEY.fullmatch(text) or text in ("None", "null", "")]


def _copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / Path(name).name
    shutil.copy(SAVES / name, target)
    return target


def _all_words(replay: dict[str, Any]) -> list[str]:
    return [text for lang in ("en", "ja") for step in replay["steps"]
            for text in step_text(step, replay["game"], lang)]


@pytest.mark.parametrize("database", ROOM_DATABASES)
def test_every_room_replays_in_words(database: str, tmp_path: Path) -> None:
    path = _copy(database, tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE rooms SET finished = 1")
        codes = [c for (c,) in conn.execute("SELECT code FROM rooms")]
    assert codes
    for code in codes:
        replay = room_replay(path, code)
        words = _all_words(replay)
        assert len(words) >= 2 * len(replay["steps"])
        assert problems(words) == [], (code, replay["game"])


def _finished_hairpin_and_pistard(store: SessionStore) -> None:
    final = HAIRPIN.play(None, [RandomAgent(), RandomAgent()], rng=3).final_state
    store.save("hairpin", "done", {"state": final.to_json(), "red": "random",
                                   "black": "random", "undo": [], "rng": {}})
    state = PISTARD.new_state({"variant": "scratch", "players": 2}, seed=5)
    rng = np.random.default_rng(5)
    agents = [RandomAgent(), RandomAgent()]
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            state.apply_action(draw.outcome, draw.detail)
        else:
            state.apply_action(agents[state.current_player()].choose(state, rng))
    store.save("pistard", "done", {"state": dumps_state(state), "players": ["random"] * 2,
                                   "rng": {}})


@pytest.mark.parametrize("database", SESSION_DATABASES)
def test_every_saved_session_replays_in_words(database: str, tmp_path: Path) -> None:
    store = SessionStore(_copy(database, tmp_path))
    listed = saved_sessions(store)
    assert listed
    for item in listed:
        replay = session_replay(store, item["game"], item["name"])
        assert problems(_all_words(replay)) == [], item


def test_finished_games_replay_their_board_and_result_in_words(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "s.sqlite")
    _finished_hairpin_and_pistard(store)
    assert {(i["game"], i["name"]) for i in saved_sessions(store)} == {
        ("hairpin", "done"), ("pistard", "done")}
    for game in ("hairpin", "pistard"):
        replay = session_replay(store, game, "done")
        (step,) = replay["steps"]
        assert step["frame"]["game"] == game and step["board"]
        assert problems(_all_words(replay)) == [], game


def test_the_checks_catch_what_they_look_for() -> None:
    assert problems(["laps {n}/3", "positions — round: 8, riders: {'11': [0, 2]}",
                     "to_drop: [\"d10\"]", "result.disqualified", "None"]) == [
        "laps {n}/3", "positions — round: 8, riders: {'11': [0, 2]}", "to_drop: [\"d10\"]",
        "result.disqualified", "None"]
    assert problems(["Race 2", "Order: 3-1-7 (derny 11)", "1. A (12), 2. B (3)"]) == []


def test_a_games_board_drawing_module_is_offered_to_the_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from raceday.web import replay

    monkeypatch.setattr(replay, "asset_folder", lambda game, kind: tmp_path)
    assert replay.drawer("g") is None
    (tmp_path / "board.js").write_text("export function mount(root) {}\n", encoding="utf-8")
    assert replay.drawer("g") is None  # a room's board module without drawFrame
    (tmp_path / "frame.js").write_text("export function drawFrame(frame, el) {}\n",
                                       encoding="utf-8")
    assert replay.drawer("g") == "/games/g/static/frame.js"


def test_a_room_played_now_replays_in_words(db: Path) -> None:
    """A Hairpin room on today's room kit, played to the end from a late position."""
    from fastapi.testclient import TestClient

    from raceday.web.app import create_app
    from tests.web.test_hairpin_room import LATE, best_move

    with TestClient(create_app(db, burst=100_000, rate=100_000)) as tc:
        room = tc.post("/api/rooms", json={"game": "hairpin", "options": {
            "variant": "short", "red": "human", "black": "human", "position": LATE}}).json()
        host = Client(tc, room["code"], room["host_token"])
        try:
            assert host.send({"type": "start"})["type"] == "ack"
            for _ in range(200):
                if host.view["phase"] != "playing":
                    break
                answer = host.send({"type": "move", "action": best_move(host.view)})
                assert answer["type"] == "ack", answer
                host.until(answer["seq"])
        finally:
            host.close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rooms SET finished = 1")
    replay = room_replay(db, room["code"])
    words = _all_words(replay)
    assert len(replay["steps"]) > 3 and problems(words) == []
    assert any("3" in w for w in words[-3:])  # the result names the laps


def test_a_save_or_a_logged_event_that_cannot_be_read_is_refused_or_plain(
        tmp_path: Path) -> None:
    from raceday.core.errors import SaveFormatError

    store = SessionStore(tmp_path / "s.sqlite")
    store.save("derby", "torn", {"players": [{"name": "Aki"}]}, log_entry={"auction": {}})
    with pytest.raises(SaveFormatError, match="saved derby session 'torn' cannot be read"):
        session_replay(store, "derby", "torn")
    path = _copy("derby/rooms_before_evening.sqlite", tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE rooms SET finished = 1")
        conn.execute("UPDATE room_events SET events = ? WHERE code = 'VDFZ' AND seq = 1",
                     ('[{"type": "lot", "post": 1}]',))
    first = room_replay(path, "VDFZ")["steps"][0]
    assert first["events"] == [{"key": "event.lot", "params": {"post": 1}}]
