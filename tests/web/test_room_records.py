"""Rooms are records, through the party server: a Hairpin game begun at the terminal
goes on in a browser room (``POST /api/rooms/from-record``, ``raceday serve --record``)
and finishes there, and the room's replay shows every move, the terminal's and the
room's; a record uploaded to the replay page is replayed through the rules; a rooms
database made by the code before records opens, its rooms go on and export as records."""

from __future__ import annotations

import json
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from raceday.core.record import check_text, parse_record
from raceday.games.hairpin.agents import make_agent
from raceday.rooms import Actor
from raceday.rooms.record import room_record_from_db
from raceday.terminal.session import GameSession
from raceday.web.app import create_app
from raceday.web.rooms import Rooms
from tests.web.conftest import Client, closing_sockets, join

FIXTURES = Path(__file__).parent.parent / "fixtures" / "rooms"
TEXT = {"Content-Type": "text/plain; charset=utf-8"}
SEATS = [{"name": "Aki", "player": "human"}, {"name": "Computer", "player": "easy"}]


def terminal_game(plies: int = 6, seed: int = 11) -> GameSession:
    """A short Hairpin game begun as the terminal plays it: Aki (red) takes the first
    legal move, the computer answers with its choice, chance from the session's seed."""
    session = GameSession.new("hairpin", {"variant": "short"}, seed=seed, seats=SEATS)
    computer = make_agent("easy")
    made = 0
    while made < plies:
        state = session.state
        if state.is_chance_node():
            session.draw()
            continue
        player = state.current_player()
        if player == 0:
            session.move(0, state.legal_actions()[0], undoable=True)
        else:
            session.move(player, session.think(computer).result(timeout=60))
        made += 1
    assert not session.state.is_terminal()
    return session


def played_to_the_end(session: GameSession) -> GameSession:
    """``session`` played on to its end (each side's last legal move)."""
    while not session.state.is_terminal():
        state = session.state
        if state.is_chance_node():
            session.draw()
        else:
            session.move(state.current_player(), state.legal_actions()[-1])
    return session


def query(db: Path) -> Any:
    def run(sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with closing(sqlite3.connect(db)) as conn:
            return conn.execute(sql, args).fetchall()
    return run


def best(view: dict[str, Any]) -> int:
    moves = view["moves"]
    laps = [m for m in moves if m["lap"] and m["decides"] != "loses"]
    return int((laps or moves)[-1]["action"])


def finish(phone: Client, host: Client) -> None:
    """The phone plays its side to the end; the computer answers on the timeline."""
    for _ in range(2000):
        if phone.view.get("phase") == "finished":
            return
        if phone.view.get("may_move"):
            answer = phone.send({"type": "move", "action": best(phone.view)})
            assert answer["type"] == "ack", answer
        elif host.view.get("thinking") or phone.view.get("thinking"):
            answer = host.send({"type": "skip"})  # the computer's move, now
            assert answer["type"] in ("ack", "error"), answer
            phone.until(host.seq)
        else:
            phone.receive()
    raise AssertionError("the game did not end")


def test_a_hairpin_game_begun_at_the_terminal_finishes_in_a_room(tmp_path: Path) -> None:
    session = terminal_game()
    text = session.record().text()
    check_text(text)
    terminal_moves = session.record().moves
    db = tmp_path / "party.sqlite"
    with closing_sockets(create_app(db, burst=100_000, rate=100_000)) as tc:
        made = tc.post("/api/rooms/from-record", content=text.encode(), headers=TEXT)
        assert made.status_code == 201, made.text
        room = made.json()
        code = room["code"]
        seat = join(tc, code, "Aki")  # the record's human seat: an open place for a phone
        host = Client(tc, code, room["host_token"])
        phone = Client(tc, code, seat["token"])
        assert host.view["phase"] == "lobby" and host.view["players"][1]["kind"] == "easy"
        assert host.send({"type": "start"})["type"] == "ack"
        phone.until(host.seq)
        # the room starts where the terminal stopped: the board has the terminal's plies
        assert phone.view["board"] == json.loads(json.dumps(session.state.frame()))
        finish(phone, host)
        host.close()
        phone.close()
        record = room_record_from_db(query(db), code)
        (done,) = check_text(record.text())
        assert done.state.is_terminal() and record.result != "*"
        assert record.moves[:len(terminal_moves)] == terminal_moves  # the terminal's moves
        room_moves = record.moves[len(terminal_moves):]
        assert any(m.player == 0 for m in room_moves) and any(m.player == 1 for m in room_moves)
        assert record.tags["Face"] == "room" and record.seats[0]["name"] == "Aki"
        replay = tc.get(f"/api/replay/room/{code}")
        assert replay.status_code == 200, replay.text
        steps = replay.json()["steps"]
    # the replay: the record's start, then each terminal move by name, then the room's log
    earlier = [s for s in steps if s["kind"] == "step"]
    assert [s["title"]["params"]["move"] for s in earlier[1:]] == \
        [m.name for m in terminal_moves]
    assert all("frame" in s for s in earlier)
    logged = [s for s in steps if s["kind"] == "events"]
    moved = [e for s in logged for e in s["events"] if e["key"] == "event.move"]
    player_moves = [m for m in room_moves if m.player >= 0]
    assert len(moved) == len(player_moves)  # every move the room made is a step's event
    assert any("frame" in s for s in logged)


def test_a_bad_record_is_refused_with_its_line(tmp_path: Path) -> None:
    text = terminal_game(plies=4).record().text()
    lines = text.splitlines()
    bad_line = next(i for i, line in enumerate(lines, 1) if line.startswith("p1:"))
    lines[bad_line - 1] = "p1: fly to the moon"
    bad = "\n".join(lines) + "\n"
    with closing_sockets(create_app(tmp_path / "a.sqlite")) as tc:
        for path in ("/api/rooms/from-record", "/api/replay/record"):
            r = tc.post(path, content=bad.encode(), headers=TEXT)
            assert r.status_code == 400, r.text
            assert f"line {bad_line}" in r.json()["error"]
            assert r.json()["words"]["key"] == "refusal.record_bad"
            assert r.json()["words"]["params"]["line"] == bad_line
        r = tc.post("/api/replay/record", content=b"\xff\xfe", headers=TEXT)
        assert r.status_code == 400 and r.json()["words"]["key"] == "refusal.record_not_text"
        r = tc.post("/api/replay/record", json={"text": text})  # JSON: not a record's body
        assert r.status_code == 415
        r = tc.post("/api/replay/record", content=b"x" * (300 * 1024), headers=TEXT)
        assert r.status_code == 413
        r = tc.post("/api/rooms/from-record", content=text.encode(),
                    headers={**TEXT, "Origin": "https://elsewhere.example"})
        assert r.status_code == 403  # another site's page may not make rooms here


def test_a_party_or_finished_record_opens_no_room(tmp_path: Path) -> None:
    session = played_to_the_end(terminal_game(plies=2))
    over = session.record().text()
    derby = over.replace('[Game "hairpin"]', '[Game "derby_evening"]')
    with closing_sockets(create_app(tmp_path / "a.sqlite")) as tc:
        r = tc.post("/api/rooms/from-record", content=over.encode(), headers=TEXT)
        assert r.status_code == 400 and r.json()["words"]["key"] == "refusal.record_over"
        r = tc.post("/api/rooms/from-record", content=derby.encode(), headers=TEXT)
        assert r.status_code == 400 and r.json()["words"]["key"] == "refusal.record_party"
        # the finished game replays on the replay page all the same
        r = tc.post("/api/replay/record", content=over.encode(), headers=TEXT)
        assert r.status_code == 200, r.text
        answer = r.json()
    assert answer["game"] == "hairpin" and answer["drawer"]
    assert len(answer["steps"]) == len(session.record().moves) + 1
    assert answer["steps"][-1]["lines"][-1]["key"] != "event.move"  # the result, last


def test_serve_record_opens_a_room_and_refuses_a_bad_one(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    from raceday.cli.main import run
    from raceday.cli.serve import serve_command
    from tests.web.test_hosting import free_port

    path = tmp_path / "begun.record"
    path.write_text(terminal_game(plies=4).record().text(), encoding="utf-8")
    db = tmp_path / "party.sqlite"
    serve_command("127.0.0.1", free_port(), db, run=False, record=path)
    out = capsys.readouterr().out
    rooms = Rooms(db)
    try:
        (room,) = rooms.rooms.values()
        assert room.code in out and f"host/{room.code}#host=" in out
        assert room.logic.resume_record is not None and room.logic.view(Actor.host())[
            "phase"] == "lobby"
    finally:
        rooms.store.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[-1] = "p2: nowhere"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = run(["serve", "--db", str(tmp_path / "b.sqlite"), "--port", str(free_port()),
                "--record", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and f"line {len(lines)}" in " ".join(err.split())
    assert "Traceback" not in err and not (tmp_path / "b.sqlite").exists()
    party = tmp_path / "evening.record"
    party.write_text(path.read_text(encoding="utf-8").replace(
        '[Game "hairpin"]', '[Game "derby_evening"]'), encoding="utf-8")
    code = run(["serve", "--db", str(tmp_path / "c.sqlite"), "--port", str(free_port()),
                "--record", str(party)])
    err = " ".join(capsys.readouterr().err.split())
    assert code == 2 and "cannot open a room" in err and "party" in err
    assert not (tmp_path / "c.sqlite").exists()


def test_a_rooms_database_of_the_code_before_records_opens_and_exports(tmp_path: Path
                                                                       ) -> None:
    codes = json.loads((FIXTURES / "codes.json").read_text())
    db = tmp_path / "old.sqlite"
    shutil.copy(FIXTURES / "rooms-3629d33.sqlite", db)
    for code in codes.values():  # each exports as a record the rules replay
        record = room_record_from_db(query(db), code)
        check_text(record.text())
        assert record.tags["Name"] == code and record.tags["Face"] == "room"
    # the snapshot stored mid-game: its record starts there (a Start tag), the two moves
    # logged after it follow
    midway = room_record_from_db(query(db), codes["hairpin_midway"])
    assert "Start" in midway.tags and len(midway.moves) == 2
    # a room whose log holds its whole game: every move known, no Start
    whole = room_record_from_db(query(db), codes["hairpin"])
    assert "Start" not in whole.tags and len([m for m in whole.moves if m.player >= 0]) >= 3
    derby = room_record_from_db(query(db), codes["derby"])
    assert derby.game == "derby_evening" and [m.name for m in derby.moves[:2]] == \
        ["bid 3000", "bid 2000"]
    # the rooms go on with today's server, and their records grow
    with closing_sockets(create_app(db, burst=100_000, rate=100_000)) as tc:
        host = Client(tc, codes["hairpin_midway"], None)
        assert host.view["phase"] == "playing"
        host.close()
    rooms = Rooms(db)
    try:
        room = rooms.get(codes["hairpin_midway"])
        view = room.logic.view(Actor.host())
        rooms.apply(room, Actor.host(), {"type": "move", "action": view["moves"][0]["action"]})
        room = rooms.get(codes["derby"])
        bidder = next(s for s in (0, 1)
                      if room.logic.view(Actor.player(s))["me"].get("may_bid"))
        rooms.apply(room, Actor.player(bidder), {"type": "bid", "amount": 3500})
    finally:
        rooms.store.close()
    grown = room_record_from_db(query(db), codes["hairpin_midway"])
    assert len(grown.moves) == 3 and grown.moves[:2] == midway.moves
    check_text(grown.text())
    derby_now = room_record_from_db(query(db), codes["derby"])
    assert derby_now.moves[:len(derby.moves)] == derby.moves
    assert f"p{bidder + 1}: bid 3500" in derby_now.text()
    check_text(derby_now.text())
    assert parse_record(grown.text()).tags["Start"] == midway.tags["Start"]
