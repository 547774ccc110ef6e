"""The facts a PISTARD room shows at the end: only riders that fell are marked "fell" (an
elimination's riders were eliminated, not fallen), and the team pursuit ranks the winning
team's riders first and gives both teams a time (the losers' counted short of their line,
docs/rules/pistard.md, "Our completion — the losers' time")."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from raceday.core.errors import OptionsError
from raceday.games.pistard.moves import action_from_dice
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.room import PistardRoom
from raceday.games.pistard.state import position_state as position
from raceday.present import render
from raceday.rooms import Actor, RoomError


def pick(view: dict[str, Any]) -> int:
    """A scripted rider: the move furthest ahead, the front of the grid, the first rider."""
    ch = view["choices"]
    if ch["kind"] == "move":
        if not ch["items"]:
            return int(ch["stay"]["action"])
        return int(max(ch["items"], key=lambda c: (c["ahead"], c["lane"]))["action"])
    if ch["kind"] == "place":
        return int(min(ch["items"], key=lambda c: (c["back"], -c["lane"]))["action"])
    return int(ch["items"][0]["action"])


def play_out(options: dict[str, Any], seed: int) -> PistardRoom:
    """A room of ``options`` played to its end: every human choice by :func:`pick` on the
    host screen, the computers' paced moves as the timeline's ticks."""
    room = PistardRoom.create(options, seed)
    rng = np.random.default_rng(seed)
    intent: dict[str, Any] = {"type": "start"}
    for _ in range(5000):
        room.handle(Actor.host(), intent, rng)
        while room.next_tick() is not None:
            room.handle(Actor.timeline(), {"type": "tick"}, rng)
        if room.finished():
            return room
        intent = {"type": "move", "action": pick(room.view(Actor.host()))}
    raise AssertionError("the race never ended")


def test_eliminated_riders_are_not_marked_fell() -> None:
    room = play_out({"variant": "elimination", "players": ["human", "easy", "medium"],
                     "riders_per_player": 1, "track": "short"}, 3)
    result = room.view(Actor.host())["result"]
    assert [r["out_heat"] for r in result["ranking"]] == [None, 2, 1]
    assert not any(r["fell"] for r in result["ranking"])


def test_a_sprinter_who_fell_is_marked_fell() -> None:
    # 11 in lane 1 hemmed in by 21 right in front, forced to move after two stand-stills,
    # throws four 1s: no move, he falls (as in test_variants)
    state = position([(11, 20, 1), (21, 21, 1)], variant="sprint", tokens=0)
    a = next(i for i, r in enumerate(state.riders) if r.ident == 11)
    state.stills[a] = 2
    state.to_move = [a]
    state.mover = 1 - a
    state.dice = None
    state.apply_action(action_from_dice((6, 6, 6, 6)))
    state.apply_action(state.stay_action())
    state.apply_action(action_from_dice((1, 1, 1, 1)))
    assert state.is_terminal()
    room = PistardRoom.create({"variant": "sprint", "players": ["human", "human"]}, 1)
    rows = room.result_view(state)["ranking"]
    assert [(r["rider"], r["fell"]) for r in rows] == [(21, False), (11, True)]


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_the_pursuit_ranks_the_winners_first_and_times_both_teams(seed: int) -> None:
    room = play_out({"variant": "pursuit", "players": ["medium", "human"],
                     "riders_per_player": 3, "track": "short"}, seed)
    view = room.view(Actor.host())
    result = view["result"]
    times = result["team_times"]
    assert len(times) == 2 and {t["team"] for t in times} == {0, 1}
    assert all(isinstance(t["time"], float) for t in times)
    if result["winner"] is None:
        assert times[0]["time"] == times[1]["time"]
        return
    winner = result["winner"]
    assert times[0]["team"] == winner and times[0]["crossed"]
    assert times[0]["time"] < times[1]["time"]
    loser = times[1]
    # the race ends in the round the winners' third rider crossed: the losers' count is
    # that round's, short of the line unless their third rider crossed in it too
    assert loser["rounds"] == times[0]["rounds"]
    assert loser["crossed"] == (loser["past"] >= 0)
    # the standings: every winning rider above every losing one, places by team
    rows = view["standings"]
    owners = [r["owner"] for r in rows]
    assert owners == sorted(owners, key=lambda o: o != winner)
    assert {r["place"] for r in rows if r["owner"] == winner} == {1}
    assert {r["place"] for r in rows if r["owner"] != winner} == {2}


def test_a_pursuit_team_short_of_its_line_is_timed_by_the_columns_to_go() -> None:
    state = position([(11, 60, 1), (12, 59, 2), (13, 58, 3), (21, 50, 1), (22, 47, 2),
                      (23, 45, 3)], variant="pursuit")
    length = state.track.length
    assert state.team_count(1) == (state.round, 45 - length)
    assert state.pursuit_time(1) == pytest.approx(state.round + (length - 45) / 7)


def test_refusals_are_message_keys() -> None:
    with pytest.raises(RoomError) as caught:
        PistardRoom.create({"track": "moon"}, 1)
    assert caught.value.message.key == "pistard.refusal.track"
    room = PistardRoom.create({"variant": "scratch", "players": ["human", "human"]}, 1)
    rng = np.random.default_rng(1)
    room.handle(Actor.host(), {"type": "start"}, rng)
    with pytest.raises(RoomError) as caught:
        room.handle(Actor.host(), {"type": "move", "action": 99_999}, rng)
    assert caught.value.message.key == "pistard.refusal.illegal_choice"
    assert "choose one of the" in str(caught.value)


@pytest.mark.parametrize(("options", "key", "ja"), [
    ({"variant": "ttt", "players": ["human"], "riders_per_player": 2},
     "pistard.misfit.riders", "1人あたりの選手は3〜6人"),
    ({"variant": "scratch", "players": ["human"] * 5, "riders_per_player": 3},
     "pistard.misfit.field", "合計2〜12人"),
    ({"laps": 3}, "pistard.misfit.laps", "ポイントレースだけ"),
])
def test_a_race_that_does_not_fit_is_refused_in_words_of_the_table(
        options: dict[str, Any], key: str, ja: str) -> None:
    with pytest.raises(RoomError) as caught:
        PistardRoom.create(options, 1)
    assert caught.value.message.key == key
    assert ja in render(caught.value.message, "ja")
    # the options' own check (the terminal's) says the same in English
    with pytest.raises(OptionsError) as said:
        PistardOptions.parse({k: v for k, v in options.items() if k != "players"}
                             | {"players": len(options.get("players", [0, 0]))})
    assert str(caught.value) in str(said.value)


def test_the_podium_shows_riders_and_play_again_keeps_the_places() -> None:
    room = play_out({"variant": "scratch", "players": ["human", "medium"],
                     "riders_per_player": 2, "track": "short"}, 4)
    view = room.view(Actor.host())
    ranking = view["result"]["ranking"]
    podium = view["finale"]["podium"]
    assert [p["place"] for p in podium] == [1, 2, 3]
    assert [render(p["detail"], "en", "pistard") for p in podium] == \
        [f"rider {r['rider']}" for r in ranking[:3]]
    # each named as the result table names him: "P2 computer (medium)", not "Computer
    # (medium)"; the person, who has no name here, "P1"
    said = {render(p["who"], "en") for p in podium}
    assert said <= {"P1", "P2 computer (medium)"} and "P2 computer (medium)" in said
    assert {render(p["who"], "ja") for p in podium} <= {"P1", "P2 コンピューター（ふつう）"}
    rng = np.random.default_rng(9)
    room.handle(Actor.host(), {"type": "again"}, rng)
    while room.next_tick() is not None:
        room.handle(Actor.timeline(), {"type": "tick"}, rng)
    again = room.view(Actor.host())
    assert again["phase"] == "racing" and again["finale"] is None and again["result"] is None
    assert [p["kind"] for p in again["players"]] == ["human", "medium"]
