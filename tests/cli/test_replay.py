"""``raceday replay``: a real save of every game, made through the game's own command with
a fixed seed, played back step by step in the terminal: as many steps as the save logged,
the board at the first and the last step (checked against what the rules rebuild, not
against a pinned picture), one step with --step, the words in Japanese, the --json shape,
a room from the server's database, and every refusal in one line with exit code 2 and
the database untouched."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from raceday.cli.main import run
from raceday.games.derby.rules import horse_name
from raceday.games.hairpin.rules import HairpinState
from raceday.games.hairpin.saves import final_state
from raceday.games.hairpin.saves import load as load_hairpin
from raceday.games.keirin.saved_night import BetSession
from raceday.games.wielersim.campaign import load_campaign
from raceday.present.messages import render
from raceday.store.sessions import SessionStore

PLAIN = ["--plain"]


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(["replay", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def replay_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = replay(capsys, *args, "--json")
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


# --- the saves -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saves(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database with a save of every game (made once for the module)."""
    import io
    from contextlib import redirect_stdout

    db = tmp_path_factory.mktemp("replay") / "saves.sqlite"
    commands = [
        (["keirin", "play", "-p", "Ann", "--save", "night", "--seed", "5"], 4),
        (["derby", "play", "-p", "Aki", "--computers", "2", "--races", "4", "--seed", "3",
          "--save", "party"], 300),
        (["hairpin", "play", "-p", "easy,easy", "--variant", "short", "--seed", "3",
          "--save", "duel"], 0),
        (["pistard", "watch", "-p", "easy,easy", "--seed", "2", "--save", "sprint"], 0),
        (["wielersim", "tour", "ronde-van-belgie", "small", "--seed", "3", "--auto",
          "--save", "tour"], 0),
    ]
    import sys

    for args, lines in commands:
        held = sys.stdin
        sys.stdin = io.StringIO("\n" * lines)
        try:
            with redirect_stdout(io.StringIO()):
                code = run([*args, "--db", str(db), "--delay", "0", *PLAIN])
        finally:
            sys.stdin = held
        assert code == 0, args
    return db


def test_list_shows_every_game_with_its_steps(saves: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = replay(capsys, "--list", "--db", str(saves), "--json")
    assert code == 0
    items = {i["name"]: i for i in json.loads(out)["replays"]}
    assert {i["game"] for i in items.values()} == {"keirin", "derby", "hairpin", "pistard",
                                                   "wielersim"}
    store = SessionStore(saves)
    assert items["night"]["steps"] == len(store.log("keirin", "night")) == 2
    assert items["party"]["steps"] == len(store.log("derby", "party"))
    assert items["tour"]["steps"] == len(store.log("wielersim", "tour"))
    duel = load_hairpin(store, "duel").record  # a Hairpin game is saved as its record
    assert items["duel"]["steps"] == len([m for m in duel.moves if m.who != "chance"])
    assert all(i["finished"] for i in items.values())
    code, table, _ = replay(capsys, "--list", "--db", str(saves))
    assert code == 0 and all(name in table for name in items)


def _rows(board: str) -> dict[str, str]:
    """A board's lines by their first word."""
    return {line.split()[0]: line for line in board.splitlines() if line.split()}


def test_keirin_night_replays_each_race_with_its_finish(saves: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    store = SessionStore(saves)
    log = store.log("keirin", "night")
    doc = replay_json(capsys, "night", "--db", str(saves))
    assert doc["source"] == "session" and doc["game"] == "keirin"
    assert doc["total"] == len(doc["steps"]) == len(log)
    riders = BetSession.load(store, "night").options.riders
    for step, entry in zip(doc["steps"], log, strict=True):
        rows = _rows(step["board"])
        for place, rider in enumerate(entry["ranking"], start=1):
            assert rows[f"R{rider}"].endswith(f"#{place}")  # each rider's place on the track
        assert len([k for k in rows if re.fullmatch(r"R\d+", k)]) == riders
        assert step["words"][1].startswith("Order: " + "-".join(map(str, entry["ranking"])))


def test_derby_party_steps_are_lots_and_races_with_the_track(
        saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = SessionStore(saves)
    log = store.log("derby", "party")
    doc = replay_json(capsys, "party", "--db", str(saves))
    assert doc["total"] == len(log)
    first, last = doc["steps"][0], doc["steps"][-1]
    lot = log[0]["auction"]
    assert first["auction"] == lot["post"]
    assert horse_name(lot["post"]) in first["board"]
    race = log[-1]["race"]
    rows = _rows(last["board"])
    winner = rows[str(race["first"])]
    assert horse_name(race["first"]) in winner and winner.endswith("1st")
    assert rows[str(race["second"])].endswith("2nd")


def test_hairpin_game_replays_move_by_move(saves: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    saved = load_hairpin(SessionStore(saves), "duel")  # the game's record
    moves = [m.name for m in saved.record.moves if m.who != "chance"]
    final = final_state(saved)
    doc = replay_json(capsys, "duel", "--db", str(saves))
    assert doc["total"] == len(moves) and doc["total"] > 1
    assert [s["move"] for s in doc["steps"]] == moves
    assert moves[0] in doc["steps"][0]["words"][0]
    last = doc["steps"][-1]["board"]
    laps = final.position.laps
    assert f"{laps[0]}/" in last and f"{laps[1]}/" in last  # the counters of the end
    assert "R" in doc["steps"][0]["board"] and "B" in doc["steps"][0]["board"]


def test_pistard_race_replays_decision_by_decision_with_the_board(
        saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The watched race's save is its record (every move, the dice's too): one step a
    rider's decision, ridden again by the rules, ending on the saved position (the boards
    square by square: tests/games/pistard/test_replay_terminal.py)."""
    from raceday.core.record import replay
    from raceday.games.pistard.replay import terminal_board
    from raceday.games.pistard.saves import load_race
    from raceday.present.terminal_replay import board_text

    saved = load_race(SessionStore(saves), "sprint")
    state: Any = saved.state()
    decisions = sum(move.who != "chance" for move in saved.record.moves)
    assert replay(saved.record).state.to_json() == state.to_json()
    doc = replay_json(capsys, "sprint", "--db", str(saves))
    assert doc["total"] == len(doc["steps"]) == decisions > 1
    last = doc["steps"][-1]
    winner = state.riders[state.ranking[0]].ident
    assert f"Rider {winner} wins" in last["words"]
    assert last["board"] == board_text(terminal_board(state, "en"))
    assert "lane 1" in doc["steps"][0]["board"]


def test_stage_race_replays_each_stage_with_its_result(saves: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    c = load_campaign(SessionStore(saves), "tour")
    doc = replay_json(capsys, "tour", "--db", str(saves), "--step", str(c.next_stage))
    assert doc["total"] == c.next_stage and len(doc["steps"]) == 1
    step = doc["steps"][0]
    record = c.records[-1]
    winner = c.peloton.riders[c.peloton.index_of(record["results"][0][0])]
    rows = [line.split() for line in step["board"].splitlines()]
    assert any(r[:1] == ["1"] and winner.name.split()[0] in r for r in rows)
    assert step["winner"] == winner.number
    leader = c.standings().gc[0][0]
    assert step["leader"] == leader


def test_step_prints_one_step_and_japanese_words(saves: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = replay(capsys, "night", "--db", str(saves), "--step", "2", "--lang", "ja")
    assert code == 0
    assert render("terminal.replay.step", "ja", params={"n": 2, "total": 2}) in out
    assert render("replay.race", "ja", "keirin", {"race": 2}) in out
    assert "Step" not in out and "R1" in out
    code, every, _ = replay(capsys, "night", "--db", str(saves))
    assert code == 0 and every.count("Step ") == 2  # piped: every step in order
    assert every.index("Step 1 of 2") < every.index("Step 2 of 2")


def test_json_shape(saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = replay_json(capsys, "duel", "--db", str(saves), "--step", "1", "--lang", "ja")
    assert set(doc) == {"source", "game", "name", "lang", "total", "steps"}
    assert doc["lang"] == "ja" and len(doc["steps"]) == 1
    step = doc["steps"][0]
    assert {"step", "words", "board"} <= set(step) and step["step"] == 1
    assert all(isinstance(w, str) for w in step["words"])
    assert render("side.red", "ja", "hairpin") in step["words"][0]
    assert "→" in step["words"][0] and "charge" not in step["words"][0]  # move.<kind> words


# --- refusals ---------------------------------------------------------------------------------
def _bytes(path: Path) -> bytes:
    return path.read_bytes()


def test_refusals_are_one_line_exit_2_and_write_nothing(saves: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    before = _bytes(saves)
    code, _, err = replay(capsys, "nigth", "--db", str(saves))
    assert code == 2 and "close names: night" in err and len(err.strip().splitlines()) == 1
    code, _, err = replay(capsys, "night", "--db", str(saves), "--step", "3")
    assert code == 2 and "--step must be from 1 to 2" in err
    code, _, err = replay(capsys, "ZZZZ", "--room", "--db", str(saves))
    assert code == 2 and "no rooms" in err
    assert _bytes(saves) == before and not Path(f"{saves}-journal").exists()
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
    held = _bytes(other)
    code, _, err = replay(capsys, "x", "--db", str(other))
    assert code == 2 and "not a raceday database" in err and _bytes(other) == held
    text = tmp_path / "text.sqlite"
    text.write_text("hello")
    code, _, err = replay(capsys, "x", "--db", str(text))
    assert code == 2 and "not a raceday database" in err and text.read_text() == "hello"
    missing = tmp_path / "missing.sqlite"
    code, _, err = replay(capsys, "x", "--db", str(missing))
    assert code == 2 and "no database" in err and not missing.exists()
    code, _, err = replay(capsys, "--db", str(saves))
    assert code == 2 and "--list" in err


# --- a room from the server's database ----------------------------------------------------------
@pytest.mark.parametrize("game", ["hairpin", "keirin", "pistard", "derby", "wielersim"])
def test_a_room_replays_from_the_servers_database(game: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from raceday.rooms import logic_class
    from tests.web.test_replay_frames import play_room

    db = tmp_path / "server.sqlite"
    code = play_room(db, game)
    with sqlite3.connect(db) as conn:
        (logged,) = conn.execute("SELECT COUNT(*) FROM room_events WHERE code = ?",
                                 (code,)).fetchone()
        (snapshot,) = conn.execute("SELECT state FROM rooms WHERE code = ?",
                                   (code,)).fetchone()
    before = _bytes(db)
    doc = replay_json(capsys, code.lower(), "--room", "--db", str(db))
    assert doc["source"] == "room" and doc["name"] == code and doc["total"] == logged
    assert doc["steps"][0]["board"] is None  # the lobby has no board
    last = doc["steps"][-1]["board"]
    logic: Any = logic_class(game).from_json(json.loads(snapshot))
    state = logic.state
    if game == "hairpin":
        laps = state.position.laps
        assert f"{laps[0]}/" in last and f"{laps[1]}/" in last
    elif game == "keirin":
        assert _rows(last)[f"R{state.last['ranking'][0]}"].endswith("#1")
        with sqlite3.connect(db) as conn:
            logged_events = [json.loads(e) for (e,) in conn.execute(
                "SELECT events FROM room_events WHERE code = ? ORDER BY seq", (code,))]
        placed = next(i for i, events in enumerate(logged_events)  # before the result
                      if any(e["type"] == "place" for e in events)
                      and not any(e["type"] == "result" for e in events))
        for e in logged_events[placed]:
            if e["type"] == "place":
                assert _rows(doc["steps"][placed]["board"])[f"R{e['rider']}"].endswith(
                    f"#{e['place']}")
    elif game == "pistard":  # the rebuilt end is the room's end, drawn as the terminal draws it
        from raceday.games.pistard.replay import terminal_board
        from raceday.present.terminal_replay import board_text

        assert last == board_text(terminal_board(state, "en"))
    elif game == "derby":
        race = state.ledger.history[-1]
        rows = _rows(last)
        assert rows[str(race.first)].endswith("1st") and rows[str(race.second)].endswith("2nd")
    else:
        winner = state.peloton.riders[state.results[0][0]]
        assert any(line.split()[:2] == ["1", winner.name.split()[0]]
                   for line in last.splitlines())
    other = "Q" if code[3] != "Q" else "R"  # a code one letter off: never the room's own
    code_no, _, err = replay(capsys, code[:3] + other, "--room", "--db", str(db))
    assert code_no == 2 and "there is no room" in err
    assert _bytes(db) == before


# --- the stepping loop (the same in line mode and full screen) -----------------------------------
class Scripted:
    """A surface answering from a script, keeping which step each board was drawn for."""

    full_screen = False

    def __init__(self, answers: list[str]) -> None:
        self.lang = "en"
        self.answers = answers
        self.shown: list[str] = []
        self.said: list[str] = []

    def board(self, board: Any) -> None:
        self.shown.append(str(board(80, 24) if callable(board) else board))

    def say(self, text: Any) -> None:
        self.said.append(str(text))

    def status(self, text: str) -> None:
        return None

    def moves(self, lines: Any) -> None:
        return None

    def pause(self, seconds: float) -> None:
        return None

    def ask(self, prompt: Any) -> str:
        from raceday.terminal.surface import Quit

        assert {c.text for c in prompt.choices} == {"next", "back", "play", "start", "end"}
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        if answer == "q":
            raise Quit
        return answer


def test_the_loop_steps_next_back_to_a_number_and_plays_to_the_end(saves: Path) -> None:
    from raceday.cli.replay import ReadOnlyStore, session_replay, stepping

    found = session_replay(ReadOnlyStore(saves), "hairpin", "duel", "en")
    total = len(found.steps)
    surface = Scripted(["", "b", "b", "3", "end", "n", "start", "play", "q"])
    assert stepping(found, 0, 0)(surface) == 0
    titles = [s for s in surface.said if s.startswith("───") or "Step " in s]
    steps = [int(re.search(r"Step (\d+) of", t).group(1))  # type: ignore[union-attr]
             for t in titles]
    # 1, next 2, back 1, back (stays: at the start), 3, end, next (stays), start, play 2..N
    assert steps == [1, 2, 1, 3, total, 1, *range(2, total + 1)]
    assert any("first step" in s for s in surface.said)
    assert any("last step" in s for s in surface.said)


def test_a_step_the_replay_does_not_have_is_named_not_answered_with_the_help(
        saves: Path) -> None:
    from raceday.cli.replay import ReadOnlyStore, session_replay, stepping

    found = session_replay(ReadOnlyStore(saves), "hairpin", "duel", "en")
    total = len(found.steps)
    surface = Scripted([str(total + 1), "0", "q"])
    assert stepping(found, 0, 0)(surface) == 0
    said = " ".join(surface.said)
    assert f"There is no step {total + 1}: this replay has steps 1 to {total}." in said
    assert "There is no step 0" in said
    assert "Enter, n or next" not in said  # not the help
    titles = [s for s in surface.said if "Step " in s]
    assert len(titles) == 1  # still at the first step


def test_full_screen_steps_with_the_board_fixed(saves: Path) -> None:
    import asyncio

    from raceday.cli.replay import ReadOnlyStore, replay_app, session_replay, stepping
    from raceday.terminal.tui.testing import (
        answer,
        wait_for,
        wait_for_prompt,
        wait_until_finished,
    )

    found = session_replay(ReadOnlyStore(saves), "hairpin", "duel", "en")
    moves = [s.facts["move"] for s in found.steps]
    total = len(moves)

    async def key(pilot: Any, app: Any, name: str) -> None:
        opened = app.prompts_opened
        await pilot.press(name)
        await wait_for(pilot, lambda: app.prompts_opened > opened, f"the prompt after {name}")

    async def scenario() -> None:
        app = replay_app(stepping(found, 0, 0), "replay", "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_prompt(pilot, app)
            assert "step 1 of" in app.status_text() and "R" in app.board_text()
            # the replay's own keys, not a game's (nothing to undo in a replay)
            assert "→ next" in app.keys_text() and "^Z" not in app.keys_text()
            await answer(pilot, app, "n")
            assert "step 2 of" in app.status_text() and moves[1] in app.log_text()
            await key(pilot, app, "end")
            assert f"step {total} of {total}" in app.status_text()
            await key(pilot, app, "left")
            assert f"step {total - 1} of" in app.status_text()
            await key(pilot, app, "home")
            await key(pilot, app, "right")
            assert "step 2 of" in app.status_text()
            await key(pilot, app, "space")  # play to the end (no pause between steps here)
            assert f"step {total} of {total}" in app.status_text()
            await pilot.press("x")  # with text in the answer line, keys edit it
            await pilot.press("left")
            assert f"step {total} of {total}" in app.status_text()
            await answer(pilot, app, "q")
            assert await wait_until_finished(pilot, app) == 0

    asyncio.run(scenario())


def test_a_pistard_save_with_its_actions_replays_decision_by_decision(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A save that keeps its start and every action applied (``start``, ``actions``:
    what a PISTARD save needs to replay step by step; the race here is ridden by the
    game's own engine and computer riders, and saved in that shape)."""
    import numpy as np

    from raceday.core.serialize import dumps_state
    from raceday.games.pistard.agents import make_agent
    from raceday.games.pistard.game import GAME
    from raceday.games.pistard.options import PistardOptions

    state = GAME.new_state(PistardOptions.parse({"players": 2}))
    start = dumps_state(state)
    rng = np.random.default_rng(4)
    agents = {0: make_agent("easy"), 1: make_agent("easy")}
    actions: list[list[Any]] = []
    decisions: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            draw = state.sample_chance(rng)
            actions.append([int(draw.outcome), None if draw.detail is None
                            else dict(draw.detail)])
            state.apply_action(draw.outcome, draw.detail)
        else:
            action = agents[state.current_player()].choose(state, rng)
            actions.append([int(action), None])
            state.apply_action(action)
            decisions.append(dumps_state(state))
    db = tmp_path / "pistard.sqlite"
    SessionStore(db).save("pistard", "race", {
        "state": dumps_state(state), "players": ["easy", "easy"],
        "rng": rng.bit_generator.state, "start": start, "actions": actions})
    doc = replay_json(capsys, "race", "--db", str(db))
    assert doc["total"] == len(decisions) > 1
    winner = state.riders[state.ranking[0]].ident
    assert f"Rider {winner} wins" in doc["steps"][-1]["words"]
    from raceday.games.pistard.replay import terminal_board
    from raceday.present.terminal_replay import board_text

    assert doc["steps"][-1]["board"] == board_text(terminal_board(state, "en"))
    # a log that is not this race's: the saved position, as one step
    SessionStore(db).save("pistard", "other", {
        "state": dumps_state(state), "players": ["easy", "easy"],
        "rng": rng.bit_generator.state, "start": start, "actions": actions[:-3]})
    assert replay_json(capsys, "other", "--db", str(db))["total"] == 1


def test_a_name_two_games_saved_is_named_with_its_game(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    from raceday.games.keirin.rules import KeirinOptions

    db = tmp_path / "two.sqlite"
    store = SessionStore(db)
    BetSession.new("dup", ["Ann"], KeirinOptions.parse({}), seed=1).save(store)
    start = HairpinState()
    store.save("hairpin", "dup", {"state": start.to_json(), "red": "human",
                                  "black": "easy", "undo": [], "rng": {}})
    code, _, err = replay(capsys, "dup", "--db", str(db))
    assert code == 2 and "hairpin/dup" in err and "keirin/dup" in err
    doc = replay_json(capsys, "hairpin/dup", "--db", str(db))
    assert doc["total"] == 1  # no moves saved: the position as saved, with its board
    assert doc["steps"][0]["words"] == [render("terminal.replay.saved_position", "en")]
    assert "0/" in doc["steps"][0]["board"]
    code, _, err = replay(capsys, "keirin/dup", "--db", str(db))
    assert code == 2 and "no step to replay yet" in err  # no race settled yet
