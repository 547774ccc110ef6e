"""Room replays draw the board: each logged step of a room played to the end carries the
frame its live screens drew (rebuilt on the server from the log by the game's own rules,
or from the race's logged facts), one frame a step from the start on, the last one the
room's final position; and no step of any game reads as a dump or an unfilled template.

:func:`play_room` plays a room of any game to its end in-process, as the server would
(ticks from the timeline, scripted seats); the browser tests and the screenshot scene use
it too."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from raceday.present.replay import step_text
from raceday.rooms import Actor, logic_class
from raceday.web.replay import room_replay
from raceday.web.rooms import Room, Rooms

ROOMS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "hairpin": ({"variant": "short", "red": "human", "black": "easy"}, ["Aki"]),
    "pistard": ({"variant": "scratch", "players": ["human", "easy"]}, ["Aki"]),
    "keirin": ({"races": 2, "riders": 6}, ["Aki", "Ben"]),
    "derby": ({"races": 4}, ["Aki", "Ben", "Chie"]),
    "wielersim": ({"route": "flat-stage", "peloton": "small", "seed": 3}, ["Aki"]),
}
DUMP = re.compile(r"\w: [\[{(]|\w=|'\w+': |\"\w+\": ?|: null|\[\]")


def _seat_intent(game: str, room: Room, seat: int, rng: np.random.Generator
                 ) -> dict[str, Any] | None:
    """What a scripted player at ``seat`` does now (None: nothing)."""
    logic: Any = room.logic
    if game in ("hairpin", "pistard"):
        state = logic.state
        if state.current_player() < 0 or logic.places.kinds[state.current_player()] != "human":
            return None
        actions = state.legal_actions()
        return {"type": "move", "action": int(actions[rng.integers(len(actions))])}
    me = logic.view(Actor.player(seat)).get("me") or {}
    if game == "keirin":
        if logic.phase() != "betting" or me.get("done", seat in logic.state.done):
            return None
        if not me.get("tickets") and seat == 0:
            return {"type": "ticket", "kind": "win", "riders": [1], "stake": 100}
        return {"type": "done"}
    if me.get("may_bid") and me.get("sealed_bid") is None:
        return {"type": "bid", "amount": [3000, 2000, 1000][seat] if seat < 3 else 0}
    if me.get("may_bet"):
        if not me["tickets"]:
            return {"type": "ticket", "kind": "win", "horses": ["d20"], "stake": 500}
        return {"type": "done"}
    if me.get("my_turn"):
        return {"type": "roll"}
    return None


def started_room(rooms: Rooms, game: str) -> Room:
    """A room of ``game`` made in ``rooms`` with the scripted players seated, started."""
    options, names = ROOMS[game]
    room, _ = rooms.create(game, options)
    for name in names:
        rooms.join(room.code, name)
    start: dict[str, Any] = {"type": "start"}
    if game == "derby":
        start["computers"] = 0
    rooms.apply(room, Actor.host(), start)
    return room


def play_room(db: Path, game: str, seed: int = 1, bound: int = 5000, games: int = 1) -> str:
    """A room of ``game`` played to its end on the server's database ``db`` (ticks as the
    timeline sends them, seats acting as scripted), ``games`` times in a row (the host's
    "play again"); returns its code."""
    names = ROOMS[game][1]
    rooms = Rooms(db)
    try:
        room = started_room(rooms, game)
        rng = np.random.default_rng(seed)
        for _ in range(bound):
            if room.logic.finished() and games > 1:
                games -= 1
                rooms.apply(room, Actor.host(), {"type": "again"})
            if room.logic.finished():
                break
            if getattr(room.logic, "next_tick", lambda: None)() is not None:
                rooms.apply(room, Actor.timeline(), {"type": "tick"})
                continue
            for seat in range(len(names)):
                intent = _seat_intent(game, room, seat, rng)
                if intent is not None:
                    rooms.apply(room, Actor.player(seat), intent)
                    break
            else:
                raise AssertionError(f"nobody can act in the {game} room")
        assert room.logic.finished(), f"the {game} room did not end"
        return room.code
    finally:
        rooms.store.close()


def _final_logic(db: Path, code: str) -> Any:
    with sqlite3.connect(db) as conn:
        game, state = conn.execute("SELECT game, state FROM rooms WHERE code = ?",
                                   (code,)).fetchone()
    return logic_class(game).from_json(json.loads(state))


@pytest.mark.parametrize("game", ["hairpin", "pistard"])
def test_a_turn_room_replays_the_live_board_at_every_step(game: str, tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, game)
    replay = room_replay(db, code)
    steps = replay["steps"]
    started = next(i for i, s in enumerate(steps)
                   if any(e["key"] == "event.started" for e in s["events"]))
    frames = [s.get("frame") for s in steps]
    assert replay["board"] is True
    assert replay["drawer"] == f"/games/{game}/static/frame.js"  # the page imports it
    assert frames[:started] == [None] * started  # the lobby has no board
    assert all(f is not None for f in frames[started:])  # one frame a step from the start
    logic = _final_logic(db, code)
    first = logic.new_state().frame()
    last = logic.state.frame()
    for frame, live in ((frames[started], first), (frames[-1], last)):
        assert {k: v for k, v in frame.items() if k in live} == {
            k: v for k, v in live.items() if k != "grid"}
    moved = sum(a != b for a, b in zip(frames[started:], frames[started + 1:], strict=False))
    assert moved >= len(frames[started:]) // 2  # the board changes as the game goes


def test_a_pistard_frame_carries_the_track_the_room_draws(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, "pistard", seed=2)
    frame = room_replay(db, code)["steps"][-1]["frame"]
    track = _final_logic(db, code).view(Actor.host())["track"]
    assert frame["track"] == track and frame["riders"]


def test_a_keirin_room_replays_the_track_of_every_race_step(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, "keirin")
    steps = room_replay(db, code)["steps"]
    frames = [s.get("frame") for s in steps]
    first = next(i for i, f in enumerate(frames) if f is not None)
    assert all(f is not None for f in frames[first:])
    assert frames[first]["positions"] == {} and frames[first]["race"] == 1
    logic = _final_logic(db, code)
    last_race = logic.view(Actor.host())["last"]
    final = frames[-1]
    assert final["phase"] == "over" and final["ranking"] == last_race["ranking"]
    assert final["positions"] == {str(r): s for r, s in
                                  enumerate(last_race["positions"], start=1)}
    assert {f["race"] for f in frames[first:]} == {1, 2}
    lineups = [f for f in frames[first:] if f["derny"] is not None]
    assert len(lineups) == 2 and all(len(f["positions"]) == 6 for f in lineups)


def test_a_log_that_cannot_be_followed_keeps_its_words(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, "hairpin", seed=3)
    with sqlite3.connect(db) as conn:  # a move nobody could have made
        seq, events = conn.execute("SELECT seq, events FROM room_events WHERE code = ? AND "
                                   "events LIKE '%\"move\"%' ORDER BY seq LIMIT 1 OFFSET 5",
                                   (code,)).fetchone()
        torn = [{**e, "to": "a1", "from": "a1", "action": "a1 fly a1"} for e in
                json.loads(events)]
        conn.execute("UPDATE room_events SET events = ? WHERE code = ? AND seq = ?",
                     (json.dumps(torn), code, seq))
    steps = room_replay(db, code)["steps"]
    index = [s["seq"] for s in steps].index(seq)
    assert steps[index - 1].get("frame") is not None
    assert all("frame" not in s for s in steps[index:])
    assert all(step_text(s, "hairpin") for s in steps)


@pytest.mark.parametrize("game", sorted(ROOMS))
def test_no_step_of_a_room_played_now_reads_as_a_dump(game: str, tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, game, seed=4)
    replay = room_replay(db, code)
    texts = [text for lang in ("en", "ja") for step in replay["steps"]
             for text in step_text(step, game, lang)]
    assert len(texts) >= 2 * len(replay["steps"])
    bad = [t for t in texts if "{" in t or "}" in t or DUMP.search(t) or t in ("", "None")]
    assert bad == []


def test_a_derby_room_replays_the_track_of_every_round(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, "derby")
    steps = room_replay(db, code)["steps"]
    frames = [s.get("frame") for s in steps]
    first = next(i for i, f in enumerate(frames) if f is not None)
    assert all(f is not None for f in frames[first:])
    assert set(frames[first]["furlongs"].values()) == {0}
    settled = [e for s in steps for e in s["events"] if e["key"].startswith("event.settled")]
    races = [f for f in frames[first:] if f["finished"]]
    assert {f["race"] for f in races} == {1, 2, 3, 4} == {s["params"]["race"] for s in settled}
    last = _final_logic(db, code).view(Actor.host())["last"]
    assert frames[-1]["places"] == last["places"] and frames[-1]["furlongs"] == last["furlongs"]
    assert frames[-1]["owners"]  # the auction's buyers are named under their horses
    players = _final_logic(db, code).view(Actor.host())["players"]
    by_name = {p["name"]: p["colour"] for p in players}
    # and run in the colours the live race gave them
    assert frames[-1]["colours"] == {h: by_name[n] for h, n in frames[-1]["owners"].items()}
    rounds = [f["round"] for f in frames[first:] if f["race"] == 2 and not f["finished"]]
    assert rounds == sorted(rounds) and len(set(rounds)) >= 3  # one round a step


def test_a_room_replay_names_the_computer_and_ends_on_its_podium(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, "hairpin", seed=5)
    replay = room_replay(db, code)
    ticks = [s["who"] for s in replay["steps"] if s["who"]["kind"] == "timeline"]
    assert ticks and all(w == {"kind": "timeline", "level": "easy"} for w in ticks)
    assert replay["finale"] == _final_logic(db, code).finale()
    assert {p["name"] for p in replay["finale"]["podium"]} >= {"Aki"}


@pytest.mark.parametrize(("database", "code"), [
    ("rooms_before_kit.sqlite", "MQLQ"), ("rooms_before_kit.sqlite", "RQWT"),
    ("keirin/rooms_before_night.sqlite", "WBPZ"), ("derby/rooms_before_evening.sqlite", "VDFZ")])
def test_rooms_saved_before_today_replay_their_board_too(
        database: str, code: str, tmp_path: Path) -> None:
    import shutil

    db = tmp_path / "old.sqlite"
    shutil.copy(Path(__file__).parents[1] / "fixtures" / "saves" / database, db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rooms SET finished = 1")
    steps = room_replay(db, code)["steps"]
    frames = [s.get("frame") for s in steps]
    first = next(i for i, f in enumerate(frames) if f is not None)
    assert all(f is not None for f in frames[first:]) and len(frames) - first >= 4


@pytest.mark.parametrize("game", ["hairpin", "keirin"])
def test_a_room_played_again_replays_both_games(game: str, tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, game, seed=6, games=2)
    steps = room_replay(db, code)["steps"]
    again = next(i for i, s in enumerate(steps)
                 if any(e["key"] == "event.again" for e in s["events"]))
    frames = [s.get("frame") for s in steps]
    first = next(i for i, f in enumerate(frames) if f is not None)
    assert all(f is not None for f in frames[first:])
    logic = _final_logic(db, code)
    if game == "hairpin":
        assert frames[again] == logic.new_state().frame()  # the second game starts afresh
        assert frames[-1] == logic.state.frame()
    else:
        assert frames[again]["positions"] == {} and frames[-1]["phase"] == "over"


def test_a_wielersim_watch_room_replays_its_film_at_every_step(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code = play_room(db, "wielersim")
    replay = room_replay(db, code)
    steps = replay["steps"]
    frames = [s.get("frame") for s in steps]
    first = next(i for i, f in enumerate(frames) if f is not None)
    assert replay["board"] is True and all(f is not None for f in frames[first:])
    assert any(e["key"] == "event.started" for e in steps[first]["events"])
    assert frames[first]["frame"] is None and frames[first]["shown"] == 0  # the start line
    view = _final_logic(db, code).view(Actor.host())
    assert {k: frames[-1][k] for k in ("film", "frame", "ticker", "shown", "standings")} == \
        json.loads(json.dumps({k: view[k] for k in ("film", "frame", "ticker", "shown",
                                                    "standings")}))
    shown = [f["shown"] for f in frames[first:]]
    assert shown == list(range(len(shown)))  # one turn of the film a tick
