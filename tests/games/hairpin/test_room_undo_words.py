"""Hairpin's room: undo keeps the list of the moves before the one taken back, and an
illegal move is refused in words from the game's table (both languages)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from raceday.games.hairpin.room import HairpinRoom
from raceday.present import render
from raceday.rooms import Actor, RoomError


def handled(room: HairpinRoom, intent: dict[str, Any], rng: np.random.Generator) -> None:
    """The host's ``intent``, then the computer's paced answer as the timeline's ticks."""
    room.handle(Actor.host(), intent, rng)
    while room.next_tick() is not None:
        room.handle(Actor.timeline(), {"type": "tick"}, rng)


def test_undo_keeps_the_moves_before_the_one_taken_back() -> None:
    room = HairpinRoom.create({"variant": "short", "red": "human", "black": "easy"}, 1)
    rng = np.random.default_rng(4)
    handled(room, {"type": "start"}, rng)
    for _ in range(3):
        view = room.view(Actor.host())
        handled(room, {"type": "move", "action": view["moves"][0]["action"]}, rng)
    before = [e["ply"] for e in room.view(Actor.host())["recent"]]
    assert before == list(range(1, 7))  # three moves of Red, three answers of Black
    handled(room, {"type": "undo"}, rng)
    view = room.view(Actor.host())
    assert view["board"]["ply"] == 4
    assert [e["ply"] for e in view["recent"]] == [1, 2, 3, 4]
    handled(room, {"type": "undo"}, rng)
    assert [e["ply"] for e in room.view(Actor.host())["recent"]] == [1, 2]


def test_an_illegal_move_is_refused_in_both_languages() -> None:
    room = HairpinRoom.create({"variant": "short", "red": "human", "black": "human"}, 1)
    rng = np.random.default_rng(4)
    room.handle(Actor.host(), {"type": "start"}, rng)
    with pytest.raises(RoomError) as caught:
        room.handle(Actor.host(), {"type": "move", "action": 9999}, rng)
    message = caught.value.message
    assert message.key == "hairpin.refusal.illegal_move"
    assert str(caught.value).startswith("that move is not legal now; legal moves: ")
    japanese = render(message, "ja")
    assert "指せません" in japanese and message.params["names"] in japanese


def test_play_again_keeps_the_places_and_the_finale_names_the_colours() -> None:
    late = "..bbbb/r...b./r..rrr r 2-0 0-0 0-0 0 40"
    room = HairpinRoom.create({"variant": "short", "red": "human", "black": "human",
                               "position": late}, 1)
    rng = np.random.default_rng(2)
    handled(room, {"type": "start"}, rng)
    for _ in range(200):
        if room.finished():
            break
        view = room.view(Actor.host())
        handled(room, {"type": "move", "action": view["moves"][-1]["action"]}, rng)
    finale = room.view(Actor.host())["finale"]
    assert finale is not None and finale["again"]
    # a place without a name is its colour on the podium, in the reader's language
    whos = {render(p["who"], "ja", "hairpin") for p in finale["podium"]}
    assert whos == {"赤", "黒"}
    handled(room, {"type": "again"}, rng)
    view = room.view(Actor.host())
    assert view["phase"] == "playing" and view["board"]["text"].startswith(late.split(" ")[0])
    assert view["recent"] == [] and view["finale"] is None
    assert [p["kind"] for p in view["players"]] == ["human", "human"]
