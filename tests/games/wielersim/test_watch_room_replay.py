"""A WielerSIM watch room replays with its film at every step: the frames are ridden again
from the room's saved options with the race's own generator (the room's code, not a copy
of its rules), so each step of the replay shows what every live screen was sent after that
step: the film, the frame, the ticker, the count of frames shown and, at the end, the
standings. A race played again with a new seed replays too (its ``started`` event names
the seed); a stage of a stage race is ridden again as it was."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from raceday.present.replay import step_text
from raceday.rooms import Actor
from raceday.web.replay import room_replay
from raceday.web.rooms import Rooms

RACE = {"route": "flat-stage", "peloton": "small", "seed": 5}
SCREEN = ("film", "frame", "ticker", "shown", "standings")
DUMP = re.compile(r"\w: [\[{(]|\w=|'\w+': |\"\w+\": ?|: null|\[\]")
Live = dict[int, dict[str, Any]]


def _screen(rooms: Rooms, code: str) -> dict[str, Any]:
    """What a watching phone of the room is sent of the film now (a JSON round trip, as
    the socket sends it)."""
    room = rooms.get(code)
    view = room.logic.view(Actor.spectator())
    sent: dict[str, Any] = json.loads(json.dumps({key: view[key] for key in SCREEN}))
    return sent


def play(db: Path, options: dict[str, Any], games: int = 1, skip_at: int | None = None
         ) -> tuple[str, Live]:
    """A watch room played to its end ``games`` times (the host's "play again" between),
    by the timeline's ticks, with a pause, a pace and (at turn ``skip_at``) the host's
    skip to the finish; returns its code and what the screens were sent after each logged
    step (by the step's number)."""
    rooms = Rooms(db)
    live: Live = {}
    try:
        room, _ = rooms.create("wielersim", options)
        code = room.code
        rooms.join(code, "Aki")

        def send(actor: Actor, intent: dict[str, Any]) -> None:
            rooms.apply(room, actor, intent)
            live[room.revision] = _screen(rooms, code)

        send(Actor.host(), {"type": "start"})
        send(Actor.host(), {"type": "pace", "seconds": 0.2})
        for _ in range(games):
            ticks = 0
            while not room.logic.finished():
                assert ticks < 2000, "the race did not end"
                if ticks == 2:
                    send(Actor.host(), {"type": "pause"})
                    send(Actor.host(), {"type": "resume"})
                if skip_at is not None and ticks == skip_at:
                    send(Actor.host(), {"type": "skip"})
                    continue
                send(Actor.timeline(), {"type": "tick"})
                ticks += 1
            if games > 1:
                games -= 1
                send(Actor.host(), {"type": "again"})
        return code, live
    finally:
        rooms.store.close()


def _frames(db: Path, code: str, games: int = 1) -> tuple[list[dict[str, Any]], list[Any]]:
    """The steps of a room's ``games`` replays one after the other (each game played again
    is a replay of its own: game 1, 2, ..., then the latest) and their frames."""
    steps = [s for n in range(1, games) for s in room_replay(db, code, n)["steps"]]
    steps += room_replay(db, code)["steps"]
    return steps, [s.get("frame") for s in steps]


def _started(steps: list[dict[str, Any]]) -> list[int]:
    return [i for i, s in enumerate(steps) if any(e["key"] == "event.started"
                                                  for e in s["events"])]


def test_every_step_of_a_watch_room_shows_what_the_live_screens_were_sent(
        tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code, live = play(db, RACE)
    replay = room_replay(db, code)
    steps = replay["steps"]
    (start,) = _started(steps)
    assert replay["board"] is True
    assert [s.get("frame") for s in steps[:start]] == [None] * start  # the lobby
    by_seq = {s["seq"]: s.get("frame") for s in steps}
    assert set(live) <= set(by_seq) and len(live) >= 10
    for seq, sent in live.items():
        assert by_seq[seq] == sent, f"step {seq} is not what the screens showed"
    first, last = steps[start]["frame"], steps[-1]["frame"]
    assert first == live[steps[start]["seq"]] and first["frame"] is None and first["film"]
    assert last == live[max(live)] and last["frame"]["finished"] and last["standings"]
    frames = [s["frame"]["frame"] for s in steps[start + 1:] if s["frame"]["frame"]]
    assert [f["turn"] for f in frames] == sorted(f["turn"] for f in frames)  # in order
    assert len({f["turn"] for f in frames}) >= 5  # the riders move from step to step


def test_a_skip_replays_to_the_finish_in_one_step(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code, live = play(db, RACE, skip_at=4)
    steps, frames = _frames(db, code)
    skipped = next(i for i, s in enumerate(steps)
                   if len([e for e in s["events"] if e["key"] == "event.film_frame"]) > 1)
    assert frames[skipped] == live[steps[skipped]["seq"]]
    assert frames[skipped] is not None and frames[skipped]["standings"]
    assert frames[skipped - 1] is not None and frames[skipped - 1]["shown"] == 4


def test_a_stage_of_a_stage_race_played_again_replays_both_races(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code, live = play(db, {**RACE, "stage": 2, "campaign": "Ronde", "title": "Stage 3"},
                      games=2)
    steps, frames = _frames(db, code, games=2)
    one, two = _started(steps)
    assert all(f is not None for f in frames[one:])
    for i, step in enumerate(steps[one:], start=one):
        assert frames[i] == live[step["seq"]]
    assert frames[two]["frame"] is None and frames[two - 1]["standings"]
    assert frames[two - 1] == frames[-1]  # the same stage, ridden again the same


def test_a_race_played_again_with_a_new_seed_replays_both_races(tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code, live = play(db, RACE, games=2)
    steps, frames = _frames(db, code, games=2)
    one, two = _started(steps)
    assert live[steps[one]["seq"]]["film"]["seed"] != live[steps[two]["seq"]]["film"]["seed"]
    for i, step in enumerate(steps[one:], start=one):  # each start names its seed
        assert frames[i] == live[step["seq"]]
        assert step_text(step, "wielersim")


def test_a_log_the_race_does_not_ride_stops_the_board_and_keeps_the_words(
        tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code, _ = play(db, RACE)
    with sqlite3.connect(db) as conn:  # a turn this race never rode
        seq, events = conn.execute(
            "SELECT seq, events FROM room_events WHERE code = ? AND events LIKE "
            "'%film_frame%' ORDER BY seq LIMIT 1 OFFSET 3", (code,)).fetchone()
        torn = [{**e, "turn": 99} for e in json.loads(events)]
        conn.execute("UPDATE room_events SET events = ? WHERE code = ? AND seq = ?",
                     (json.dumps(torn), code, seq))
    steps, frames = _frames(db, code)
    index = [s["seq"] for s in steps].index(seq)
    assert frames[index - 1] is not None
    assert frames[index:] == [None] * (len(steps) - index)
    assert all(step_text(s, "wielersim") for s in steps)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_watch_room_replay_reads_as_words_not_dumps(lang: str, tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code, _ = play(db, RACE, skip_at=6)
    steps = room_replay(db, code)["steps"]
    texts = [text for step in steps for text in step_text(step, "wielersim", lang)]
    assert len(texts) >= len(steps)
    bad = [t for t in texts if "{" in t or "}" in t or "null" in t or DUMP.search(t)
           or t in ("", "None")]
    assert bad == []
    turns = [t for t in texts if re.search(r"\d", t)]
    assert turns  # the turns are numbered in the reader's language


def test_a_race_whose_start_names_its_seed_replays_after_playing_again(
        tmp_path: Path) -> None:
    db = tmp_path / "rooms.sqlite"
    code, live = play(db, RACE, games=2)
    steps, _ = _frames(db, code, games=2)
    one, two = _started(steps)
    seeds = [live[steps[i]["seq"]]["film"]["seed"] for i in (one, two)]
    assert seeds[0] != seeds[1]
    with sqlite3.connect(db) as conn:  # each start names its race's seed, as the screens
        for i, seed in zip((one, two), seeds, strict=True):  # were told it
            events = json.loads(conn.execute(
                "SELECT events FROM room_events WHERE code = ? AND seq = ?",
                (code, steps[i]["seq"])).fetchone()[0])
            named = [{**e, "seed": seed} if e["type"] == "started" else e for e in events]
            conn.execute("UPDATE room_events SET events = ? WHERE code = ? AND seq = ?",
                         (json.dumps(named), code, steps[i]["seq"]))
    steps, frames = _frames(db, code, games=2)
    for i, step in enumerate(steps[one:], start=one):
        assert frames[i] == live[step["seq"]], f"step {step['seq']}"
    assert frames[two - 1]["standings"] != frames[-1]["standings"]  # two races, both drawn
