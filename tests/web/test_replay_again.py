"""Replays of a room played again: each finished game is its own replay, with its own
moves and winner; the room's link opens its latest finished game."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from raceday.web import replay as web_replay
from raceday.web import rooms as web_rooms
from tests.web.conftest import Client, serving
from tests.web.test_timeline import _toy_games, next_update, started_guess

__all__ = ["_toy_games"]  # the fixture that serves the kit's toy rooms as games


@pytest.fixture(autouse=True)
def _toy_finales(_toy_games: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replays read the toy rooms' finales by the same rules as the rooms."""
    monkeypatch.setattr(web_replay, "logic_class", web_rooms.logic_class)


def _play_to_the_end(aki: Client, ben: Client, guesses: tuple[int, int]) -> list[str]:
    """Both seats guess, the server's paced throw ends the game: its winners' names."""
    aki.send({"type": "act", "action": guesses[0]})
    acked = ben.send({"type": "act", "action": guesses[1]})
    ben.until(acked["seq"])
    finale = next_update(ben)["view"]["finale"]
    return sorted(p["name"] for p in finale["podium"] if p["place"] == 1)


def _keys(steps: list[dict[str, Any]]) -> set[str]:
    return {e["key"] for s in steps for e in s["events"]}


def test_each_game_of_a_room_played_again_is_its_own_replay(db: Path) -> None:
    with serving(db) as tc:
        code, host, seats = started_guess(tc)
        aki, ben = (Client(tc, code, s["token"]) for s in seats)
        first_winners = _play_to_the_end(aki, ben, (1, 2))
        again = host.send({"type": "again"})
        assert again["type"] == "ack"
        ben.until(again["seq"])
        between = tc.get("/api/replays").json()["rooms"]  # the second game is being played
        assert [(r["url"], r["number"]) for r in between] == [(f"/replay/room/{code}/1", 1)]
        assert tc.get(f"/api/replay/room/{code}/2").status_code == 409
        second_winners = _play_to_the_end(aki, ben, (3, 3))
        listed = tc.get("/api/replays").json()["rooms"]
        by_number = {r["number"]: r for r in listed if r["name"] == code}
        assert sorted(by_number) == [1, 2] and len(listed) == 2
        assert by_number[1]["url"] == f"/replay/room/{code}/1"
        assert by_number[2]["url"] == f"/replay/room/{code}"  # the old link: the latest game
        assert [w["name"] for w in by_number[1]["winners"]] == first_winners
        assert [w["name"] for w in by_number[2]["winners"]] == second_winners
        first = tc.get(f"/api/replay/room/{code}/1").json()
        second = tc.get(f"/api/replay/room/{code}").json()
        assert tc.get(f"/api/replay/room/{code}/2").json() == second
        assert [s["seq"] for s in first["steps"]] == list(range(1, again["seq"]))
        assert second["steps"][0]["seq"] == again["seq"]
        assert [s["seq"] for s in second["steps"]] == list(
            range(again["seq"], again["seq"] + len(second["steps"])))
        assert by_number[1]["steps"] == len(first["steps"])
        assert by_number[2]["steps"] == len(second["steps"])
        assert "event.joined" in _keys(first["steps"]) and "event.again" not in _keys(
            first["steps"])
        assert "event.again" in _keys(second["steps"]) and "event.joined" not in _keys(
            second["steps"])
        assert tc.get(f"/api/replay/room/{code}/3").status_code == 404
        assert tc.get(f"/api/replay/room/{code}/0").status_code == 404
    for number, winners in ((1, first_winners), (2, second_winners)):  # read here: the toys
        finale = web_replay.room_replay(db, code, number)["finale"]
        assert [p["name"] for p in finale["podium"] if p["place"] == 1] == winners


def test_a_file_from_before_the_games_table_still_lists_its_rooms(db: Path) -> None:
    with serving(db) as tc:
        code, _, seats = started_guess(tc)
        aki, ben = (Client(tc, code, s["token"]) for s in seats)
        _play_to_the_end(aki, ben, (1, 2))
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE room_games")
    listed = web_replay.finished_rooms(db)
    assert [(r["name"], r["number"], r["url"]) for r in listed] == [
        (code, 1, f"/replay/room/{code}")]
    assert web_replay.room_replay(db, code)["steps"][0]["seq"] == 1
