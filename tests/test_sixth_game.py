"""The proof of issue #31: a sixth game, Twin Dice Dash, lives in its own distribution
(tests/sixth_game) and gets every face of raceday by being installed beside it.

The suite pip-installs the distribution into a folder of its own (tests/sixth_game_install),
then shows that ``raceday --help`` lists it, that it plays and is watched in the terminal,
that its rules keep the protocol's promises (exact chance, sealed bets hidden, saves),
that it loads as an OpenSpiel game passing ``random_sim_test`` and as a PettingZoo
environment passing ``api_test``, that ``raceday print`` prints it, and that no file under
src/ names it. The browser room and its replay are in tests/browser/test_sixth_game_browser.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.sixth_game_install import GAME as NAME
from tests.sixth_game_install import PACKAGE, installed, on_path, play_a_room, subprocess_env

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return installed(tmp_path_factory)


@pytest.fixture(scope="module")
def game(site: Path) -> Iterator[Any]:
    """The sixth game's ``GAME``, found by raceday's discovery from the entry point."""
    with on_path(site):
        from raceday.core.registry import get_game

        yield get_game(NAME)


def raceday(site: Path | None, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``raceday ARGS`` in a fresh process (with the sixth game installed, unless None)."""
    return subprocess.run([sys.executable, "-m", "raceday", *args], input=stdin,
                          env=subprocess_env(site),
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def python(site: Path, code: str) -> subprocess.CompletedProcess[str]:
    """A Python script in a fresh process that sees the installed sixth game."""
    return subprocess.run([sys.executable, "-c", code], env=subprocess_env(site),
                          capture_output=True, text=True, timeout=600, cwd=ROOT)


def new_state(game: Any, **options: Any) -> Any:
    return game.new_state(options)


# --- found by discovery, and nowhere named --------------------------------------------
def test_raceday_help_lists_the_installed_game_and_only_then(site: Path) -> None:
    listed = raceday(site, "--help")
    assert listed.returncode == 0, listed.stderr
    assert "twindash" in listed.stdout and "sealed side bets" in listed.stdout
    bare = raceday(None, "--help")
    assert bare.returncode == 0, bare.stderr
    assert "twindash" not in bare.stdout and "hairpin" in bare.stdout


def test_every_face_is_found_from_the_package(game: Any, site: Path) -> None:
    from raceday.core import discovery

    assert discovery.game_packages()[NAME] == PACKAGE
    assert discovery.package_folder(NAME) == site / PACKAGE
    for face in ("cli", "room", "adapter", "printing"):
        assert discovery.has_face(NAME, face), face
        assert NAME in discovery.games_with(face)
    static = discovery.asset_folder(NAME, "static")
    messages = discovery.asset_folder(NAME, "messages")
    assert static is not None and (static / "twindash.js").is_file()
    assert messages is not None and {p.name for p in messages.iterdir()} >= {"en.json",
                                                                               "ja.json"}
    assert game.name == NAME and game.players == (2, 4)


def test_no_file_under_src_names_the_sixth_game() -> None:
    words = ("twindash", "twin dice", "raceday_twindash")
    naming = [str(path.relative_to(ROOT)) for path in (ROOT / "src").rglob("*")
              if path.is_file() and "__pycache__" not in path.parts
              and any(w in path.read_bytes().decode("utf-8", "replace").lower() for w in words)]
    assert naming == []


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_package_keeps_raceday_layers() -> None:
    """Its engine imports raceday's core alone; no module of it imports an application
    face (the command line, the web app, the interop wrappers)."""
    package = ROOT / "tests/sixth_game/src" / PACKAGE
    engine = {"rules", "game", "agents"}
    for path in sorted(package.glob("*.py")):
        raceday = {m for m in _imports(path) if m.split(".")[0] == "raceday"}
        own = {m for m in _imports(path) if m.split(".")[0] == PACKAGE}
        if path.stem in engine:
            assert all(m.startswith("raceday.core") for m in raceday), (path.name, raceday)
            assert all(m.split(".")[-1] in engine for m in own), (path.name, own)
        for face in ("raceday.cli", "raceday.web", "raceday.interop", "raceday.launch",
                     "raceday.warmup"):
            assert not any(m == face or m.startswith(face + ".") for m in raceday), path.name


# --- the rules keep the protocol's promises -------------------------------------------
def test_random_games_pass_raceday_invariant_harness(game: Any) -> None:
    from raceday.testing import check_random_games

    assert check_random_games(game, games=40, seed=31) == 40 * len(game.harness_configs)


def test_chance_is_exact_with_and_without_the_slipstream(game: Any) -> None:
    state = new_state(game)
    assert state.further_chances() == (Fraction(5, 12), Fraction(5, 12), Fraction(1, 6))
    state.squares = [3, 7]  # Red behind: two dice, the higher counts
    assert state.further_chances() == (Fraction(125, 216), Fraction(55, 216), Fraction(1, 6))
    state.apply_action_for(1, 0)
    state.apply_action_for(0, 0)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 36 and sum(outcomes.values()) == 1
    assert all(isinstance(p, Fraction) for p in outcomes.values())
    # Red keeps the higher of two dice: a 6 with chance 11/36, a 1 with chance 1/36
    sixes = sum(p for a, p in outcomes.items() if state.action_message(a).params["dice"][0] == 6)
    ones = sum(p for a, p in outcomes.items() if state.action_message(a).params["dice"][0] == 1)
    assert (sixes, ones) == (Fraction(11, 36), Fraction(1, 36))


def _bet(state: Any, player: int, runner: int, stake: int) -> None:
    """Seal ``player``'s bet, found by what the actions mean (never by their numbers)."""
    for action in state.legal_actions_for(player):
        message = state.action_message(action)
        if (stake == 0 and message.key == "action.pass") or (
                message.params.get("runner") == runner and message.params.get("stake") == stake):
            state.apply_action_for(player, action)
            return
    raise AssertionError(f"no bet of {stake} on runner {runner}")


def _roll(state: Any, red: int, blue: int) -> list[Any]:
    for outcome, _ in state.chance_outcomes():
        if state.action_message(outcome).params["dice"] == [red, blue]:
            events: list[Any] = state.apply_action(outcome)
            return events
    raise AssertionError(f"no roll {red}-{blue}")


@pytest.mark.parametrize(("blue_roll", "chips"), [(5, [5, 5]), (4, [8, 3])])
def test_worked_example_of_the_rules(game: Any, blue_roll: int, chips: list[int]) -> None:
    """RULES.md: Red on 4, Blue on 7, 5 chips each; Red backs Red for 3, Blue backs Blue
    for 2; Red (behind) keeps a 5, Blue rolls 5 (a tie, stakes back) or 4 (Red +3, Blue -2)."""
    state = new_state(game)
    state.squares = [4, 7]
    _bet(state, 1, runner=1, stake=2)  # sealed bets in any order
    _bet(state, 0, runner=0, stake=3)
    events = _roll(state, 5, blue_roll)
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["revealed", "slipstream"] and events[1]["runner"] == 0
    assert state.squares == [9, 7 + blue_roll]
    assert state.chips == chips
    settled = [e.kind for e in events if e.kind.startswith("bet_")]
    assert settled == (["bet_void", "bet_void"] if blue_roll == 5 else ["bet_won", "bet_lost"])


def test_worked_example_of_the_end(game: Any) -> None:
    """RULES.md: Red on 17 with 6 chips, Blue on 16 with 7, both pass; Red rolls 3, Blue
    keeps a 2: Red reaches the line ahead, takes the prize of 3 and wins 9 to 7."""
    state = new_state(game)
    state.squares, state.chips = [17, 16], [6, 7]
    _bet(state, 0, runner=0, stake=0)
    _bet(state, 1, runner=0, stake=0)
    events = _roll(state, 3, 2)
    assert state.is_terminal() and state.squares == [20, 18] and state.chips == [9, 7]
    prize = next(e for e in events if e.kind == "prize")
    assert (prize["runner"], prize["prize"], prize["chips"]) == (0, 3, 9)
    result = state.outcome()
    assert (result.winner, result.termination, result.winning_players) == (0, "money", (0,))
    assert result.scores == {0: 9, 1: 7} and state.returns() == [1.0, 0.0]


def test_level_runners_earn_no_prize_and_equal_purses_draw(game: Any) -> None:
    state = new_state(game, rounds=1)
    _bet(state, 0, runner=0, stake=2)
    _bet(state, 1, runner=0, stake=2)
    events = _roll(state, 4, 4)  # a tie: stakes back, runners level, no prize
    assert state.is_terminal() and not any(e.kind == "prize" for e in events)
    result = state.outcome()
    assert (result.winner, result.termination) == (None, "draw")
    assert state.returns() == [0.5, 0.5]


def test_three_players_race_three_runners(game: Any) -> None:
    """With ``players=3`` every player runs a runner and bets on which moves *furthest*:
    exact chances over 6^3 rolls, every runner behind the leader in the slipstream, a bet
    on a runner tied for furthest void and on any other lost (RULES.md, more players)."""
    state = new_state(game, players=3)
    level = state.further_chances()
    assert len(level) == 4 and sum(level) == 1 and level[0] == level[1] == level[2]
    state.squares = [2, 5, 5]  # Red alone behind: its two dice make it the favourite
    chances = state.further_chances()
    assert chances[0] > chances[1] == chances[2] and state.slipstream_runners() == [0]
    _bet(state, 2, runner=0, stake=0)
    _bet(state, 0, runner=2, stake=1)
    _bet(state, 1, runner=1, stake=2)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 216 and sum(outcomes.values()) == 1
    roll = next(a for a in outcomes if state.action_message(a).params["dice"] == [6, 6, 3])
    events = state.apply_action(roll)  # Red and Blue tie for furthest, Green is third
    assert [e["runner"] for e in events if e.kind == "slipstream"] == [0]
    assert state.squares == [8, 11, 8] and state.chips == [4, 5, 5]
    assert [e.kind for e in events if e.kind.startswith("bet_")] == ["bet_lost", "bet_void"]
    assert state.frame()["runners"][2]["name"] == {"key": "runner.2", "params": {}}


def test_the_richest_of_more_players_wins_and_shared_riches_draw(game: Any) -> None:
    state = new_state(game, players=4, rounds=1, prize=0)
    for player in range(4):
        _bet(state, player, runner=3, stake=2 if player == 1 else 0)
    outcome = next(a for a in dict(state.chance_outcomes())
                   if state.action_message(a).params["dice"] == [1, 2, 3, 6])
    state.apply_action(outcome)
    result = state.outcome()
    assert state.chips == [5, 7, 5, 5] and (result.winner, result.ranking) == (1, (1, 0, 2, 3))
    assert state.returns() == [0.0, 1.0, 0.0, 0.0]
    tied = new_state(game, players=3, rounds=1, prize=0)
    for player in range(3):
        _bet(tied, player, runner=0, stake=0)
    tied.apply_action(tied.chance_outcomes()[0][0])
    assert tied.outcome().winning_players == (0, 1, 2) and tied.outcome().winner is None


def test_the_bookie_beats_random_bets(game: Any) -> None:
    """The computer backs the runner the exact odds favour, so it should beat a random
    bettor. 400 fixed-seed games, seats alternating, a draw counting half: the lower end
    of the 99% Wilson interval of its share must be above 1/2 (measured: about 0.68)."""
    import math

    from raceday_twindash.agents import make_agent

    games, points = 400, 0.0
    for g in range(games):
        seat = g % 2
        agents = [make_agent("random"), make_agent("random")]
        agents[seat] = make_agent("bookie")
        result = game.play({}, agents, rng=31_000 + g).final_state.outcome()
        points += 0.5 if result.winner is None else float(result.winner == seat)
    share, z = points / games, 2.576
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) \
        / (1 + z * z / games)
    assert centre - spread > 0.5, share


def test_a_sealed_bet_is_seen_only_by_its_player(game: Any) -> None:
    one, other = new_state(game), new_state(game)
    _bet(one, 1, runner=0, stake=3)
    _bet(other, 1, runner=1, stake=1)
    assert one.acting_players() == [0] == other.acting_players()
    assert one.observation(0) == other.observation(0)
    assert one.observation(None) == other.observation(None)
    assert one.frame() == other.frame()
    assert str(one) == str(other)
    assert one.observation(1)["my_bet"] == {"runner": 0, "stake": 3}
    assert one.observation(1) != other.observation(1)
    assert one.observation(None)["sealed"] == [False, True]


def test_no_result_before_the_end(game: Any) -> None:
    from raceday.core.errors import GameNotOverError

    with pytest.raises(GameNotOverError, match="not over"):
        new_state(game).outcome()


def test_a_bet_out_of_turn_or_beyond_the_purse_is_refused(game: Any) -> None:
    from raceday.core.errors import IllegalActionError

    state = new_state(game, chips=1)
    assert len(state.legal_actions_for(0)) == 3  # pass, Red for 1, Blue for 1
    _bet(state, 0, runner=0, stake=1)
    with pytest.raises(IllegalActionError, match="not player 0's turn"):
        state.apply_action_for(0, 0)


def test_options_come_from_one_model_and_name_the_problem(game: Any) -> None:
    from raceday.core.errors import OptionsError

    with pytest.raises(OptionsError, match="length"):
        game.options({"length": 3})
    with pytest.raises(OptionsError, match="unknown Twin Dice Dash option 'laps'"):
        game.options({"laps": 3})


def test_saves_round_trip_and_bad_saves_are_named(game: Any) -> None:
    from raceday.core.errors import SaveFormatError
    from raceday.core.serialize import dumps_state, loads_state

    record = game.play({}, rng=7)
    assert loads_state(dumps_state(record.final_state)) == record.final_state
    middle = new_state(game)
    _bet(middle, 0, runner=1, stake=2)
    assert loads_state(dumps_state(middle)) == middle
    good = middle.to_json()
    three = new_state(game, players=3)
    _bet(three, 2, runner=0, stake=1)
    assert loads_state(dumps_state(three)) == three
    before_more_players = {k: v for k, v in good["course"].items() if k != "players"}
    assert game.state_from_json({**good, "course": before_more_players}) == middle
    for bad in ({**good, "round": 0}, {**good, "chips": [5]}, {**good, "extra": 1},
                {**good, "bets": [{"runner": 0, "stake": 9}, None]},
                {**good, "bets": [None, {"runner": 2, "stake": 1}]},
                {**good, "course": {**good["course"], "length": 0}},
                {**good, "course": {**good["course"], "players": 5}},
                {**three.to_json(), "squares": [0, 0]},
                {**good, "course": {"length": 20}}):
        with pytest.raises(SaveFormatError, match="twindash"):
            game.state_from_json(bad)


def test_events_are_facts_rendered_by_the_message_tables(game: Any) -> None:
    from raceday.present import describe_event, describe_outcome, render

    record = game.play({"length": 12}, rng=3)
    assert {e.kind for e in record.events} >= {"sealed", "revealed", "moved", "finished"}
    for lang in ("en", "ja"):
        for event in record.events:
            json.dumps(event.to_dict())  # JSON values only
            text = describe_event(NAME, event, lang)
            assert text != event.key and "{" not in text, (lang, event)
        result = describe_outcome(NAME, record.final_state.outcome(), lang)
        assert "{" not in result and "result." not in result
    assert render("runner.1", "ja", NAME) == "青"
    tables = [json.loads((ROOT / "tests/sixth_game/src/raceday_twindash/messages" /
                          f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja")]
    assert tables[0].keys() == tables[1].keys()
    slots = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
    assert [k for k in tables[0] if set(slots.findall(tables[0][k]))
            != set(slots.findall(tables[1][k]))] == []



# Every counted word of the plugin's tables: (key, the count, other parameters) -> English
# for 1 and for 2 (Japanese has no plural: both forms read the same).
COUNTED_CHIPS = [
    ("action.bet", "stake", {"name": "Red"}, "back Red for 1 chip", "back Red for 2 chips"),
    ("event.bet_won", "stake", {"player_name": "Red", "name": "Red", "chips": 6},
     "Red backed Red for 1 and wins 1 chip (now 6).",
     "Red backed Red for 2 and wins 2 chips (now 6)."),
    ("event.bet_lost", "stake", {"player_name": "Red", "name": "Blue", "chips": 4},
     "Red backed Blue for 1 and loses it (now 4).",
     "Red backed Blue for 2 and loses them (now 4)."),
    ("event.prize", "prize", {"name": "Red", "chips": 9},
     "Red is ahead at the end: its player takes the prize of 1 chip (now 9).",
     "Red is ahead at the end: its player takes the prize of 2 chips (now 9)."),
    ("result.money", "mine", {"name": "Red", "theirs": 0},
     "Red's player wins, the richest with 1 chip against 0 for the next.",
     "Red's player wins, the richest with 2 chips against 0 for the next."),
    ("result.draw", "chips", {}, "A draw: 1 chip each.", "A draw: 2 chips each."),
    ("ui.purse", "chips", {"square": 3, "length": 20}, "1 chip, square 3 of 20.",
     "2 chips, square 3 of 20."),
    ("print.track", "length", {}, "Track of 1 square", "Track of 2 squares"),
]


@pytest.mark.parametrize(("key", "count", "params", "one", "two"), COUNTED_CHIPS,
                         ids=[c[0] for c in COUNTED_CHIPS])
def test_a_count_of_one_reads_in_the_singular(game: Any, key: str, count: str,
                                              params: dict[str, Any], one: str,
                                              two: str) -> None:
    from raceday.present import render

    assert render(key, "en", NAME, {**params, count: 1}) == one
    assert render(key, "en", NAME, {**params, count: 2}) == two
    ja = [render(key, "ja", NAME, {**params, count: n}) for n in (1, 2)]
    assert key not in ja[0] and "{" not in ja[0] and ja[0] != ja[1]


def test_no_english_template_counts_chips_squares_or_rounds_without_forms(game: Any) -> None:
    from raceday.present.messages import PLURAL_FORM

    en = json.loads((ROOT / "tests/sixth_game/src/raceday_twindash/messages/en.json")
                    .read_text(encoding="utf-8"))
    counted = re.compile(r"\{(\w+)\} (?:chips|squares|rounds)\b")
    unformed = [k for k, text in en.items() if not PLURAL_FORM.search(k)
                and any(c not in {"theirs"} for c in counted.findall(text))]
    assert unformed == []
    for lang in ("en", "ja"):
        course = render_course(lang, chips=1)
        assert "{" not in course and not re.search(r"\b1 chips", course)


def render_course(lang: str, **options: Any) -> str:
    from raceday.present import render

    return render("ui.course", lang, NAME, {"length": 20, "rounds": 8, "chips": 5,
                                            "max_stake": 3, "prize": 3, **options})

# --- the room declaration (played in browsers in tests/browser) ------------------------
def test_the_room_keeps_bets_sealed_and_survives_a_restart(game: Any) -> None:
    import numpy as np

    from raceday.core.discovery import face
    from raceday.rooms import Actor, RoomError

    room_face = face(NAME, "room")
    assert room_face is not None
    room = room_face.LOGIC.create({"rounds": 3}, seed=5)
    for name in ("Aki", "Ben"):
        room.add_seat(name)
    rng = np.random.default_rng(5)
    room.handle(Actor.host(), {"type": "start"}, rng)
    bet = next(c["action"] for c in room.view(Actor.player(1))["me"]["choices"]
               if c["message"]["params"].get("stake") == 3)
    events = room.handle(Actor.player(1), {"type": "act", "action": bet}, rng)
    assert [e["type"] for e in events] == ["sealed"] and "stake" not in events[0]
    with pytest.raises(RoomError, match="not your turn"):
        room.handle(Actor.player(1), {"type": "act", "action": 0}, rng)
    with pytest.raises(RoomError, match="nothing to advance"):
        room.handle(Actor.host(), {"type": "advance"}, rng)
    saved = json.loads(json.dumps(room.to_json()))
    again = room_face.LOGIC.from_json(saved)
    for actor in (Actor.host(), Actor.spectator(), Actor.player(0), Actor.player(1)):
        assert again.view(actor) == room.view(actor)
    red = room.view(Actor.player(0))
    red["me"].pop("choices")  # Red's own choices (a stake of 3 among them) are not Blue's
    for view in (room.view(Actor.host()), room.view(Actor.spectator()), red):
        assert not re.search(r'"stake": 3\b', json.dumps(view))
    assert room.view(Actor.player(1))["me"]["observation"]["my_bet"]["stake"] == 3


def test_a_room_seats_two_to_four_and_three_seats_make_a_three_player_race(
        game: Any) -> None:
    """The room is created from the race the host chooses (its ``Options``, which has no
    ``players``); the seats taken at the start say how many play, from 2 to 4."""
    import numpy as np

    from raceday.core.discovery import face
    from raceday.rooms import Actor, RoomError
    from raceday.web.options_schema import options_schema

    logic = face(NAME, "room").LOGIC
    assert "players" not in options_schema(NAME, "room")["properties"]
    assert "players" in options_schema(NAME, "game")["properties"]
    with pytest.raises(RoomError, match="players"):
        logic.create({"players": 3}, seed=1)
    room = logic.create({"rounds": 1}, seed=2)
    rng = np.random.default_rng(2)
    room.add_seat("Aki")
    with pytest.raises(RoomError, match="at least 2"):
        room.handle(Actor.host(), {"type": "start"}, rng)
    for name in ("Ben", "Chi"):
        room.add_seat(name)
    room.handle(Actor.host(), {"type": "start"}, rng)
    view = room.view(Actor.host())
    assert view["observation"]["course"]["players"] == 3 and view["acting"] == [0, 1, 2]
    assert [r["id"] for r in view["frame"]["runners"]] == [0, 1, 2] and len(view["chances"]) == 4
    for seat in (2, 0, 1):
        room.handle(Actor.player(seat), {"type": "act", "action": 0}, rng)
    room.handle(Actor.host(), {"type": "advance"}, rng)
    assert room.finished() and len(room.view(Actor.host())["result"]["scores"]) == 3
    full = logic.create({}, seed=3)
    for name in ("A", "B", "C", "D"):
        full.add_seat(name)
    with pytest.raises(RoomError, match="full"):
        full.add_seat("E")


@pytest.fixture(scope="module")
def played_room(game: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A finished room of the sixth game on a server's database: (the file, its code)."""
    db = tmp_path_factory.mktemp("party") / "party.sqlite"
    return db, play_a_room(db)


def test_its_room_replay_names_the_games_own_board_drawer(
        game: Any, played_room: tuple[Path, str]) -> None:
    """A finished room's replay answer has a board at every step from the start and
    names the game's drawer module (its static/frame.js), which the server serves as
    JavaScript for the replay page to import (the page itself: the browser test)."""
    from fastapi.testclient import TestClient

    from raceday.web.app import create_app

    db, code = played_room
    with TestClient(create_app(db)) as client:
        data = client.get(f"/api/replay/room/{code}").json()
        assert data["game"] == NAME and data["board"] is True
        assert data["drawer"] == f"/games/{NAME}/static/frame.js"
        assert data["steps"][-1]["frame"]["runners"][0]["id"] == 0
        sealed = [e["params"] for step in data["steps"] for e in step["events"]
                  if e["key"] == "event.sealed"]
        # the seat's name ("Aki") fills a "name" only where a game's event has none: an
        # event's own name (here the runner's) is the game's, never replaced
        assert sealed and all(p["name"] == {"key": f"runner.{p['player']}", "params": {}}
                              for p in sealed)
        served = client.get(data["drawer"])
    assert served.status_code == 200
    assert "javascript" in served.headers["content-type"]
    assert "export function drawFrame" in served.text


def test_its_room_replays_in_the_terminal_with_its_board(
        site: Path, played_room: tuple[Path, str]) -> None:
    """``raceday replay --room`` draws the game's board (its replay face's room_boards:
    the lanes and purses after each step), in either language."""
    db, code = played_room
    done = raceday(site, "replay", code, "--room", "--db", str(db), "--delay", "0")
    assert done.returncode == 0, done.stderr
    lanes = re.findall(r"^(Red|Blue) +[·RB]+\|", done.stdout, flags=re.MULTILINE)
    assert {"Red", "Blue"} <= set(lanes), done.stdout[-800:]
    assert "chips, square" in done.stdout and "Red seals a bet." in done.stdout
    last = raceday(site, "replay", code, "--room", "--db", str(db), "--lang", "ja",
                   "--step", "6")
    assert last.returncode == 0, last.stderr
    assert "チップ" in last.stdout and "|" in last.stdout


# --- the terminal ---------------------------------------------------------------------
def test_plays_in_the_terminal_against_the_computer(site: Path) -> None:
    args = ("twindash", "play", "--blue", "bookie", "--seed", "11", "--rounds", "3",
            "--delay", "0")
    first = raceday(site, *args, stdin="2\n7\n1\n")
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert "You run Red." in out and "back Red for 1 chip\n" in out
    assert not re.search(r"\b1 chips", out)  # the plural forms: "1 chip", "2 chips"
    assert out.count("Red seals a bet.") == 3 and "Red backed Red for 1" in out
    assert "Blue backed Blue for 3" in out or "Blue backed Red for 3" in out
    assert "wins" in out or "draw" in out.lower()
    again = raceday(site, *args, stdin="2\n7\n1\n")
    assert again.stdout == out  # the same seed and the same bets: the same race


def test_at_a_terminal_it_opens_full_screen_and_plain_asks_line_by_line(
        site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a real terminal ``play`` opens the kit's full-screen view (the alternate screen,
    the board, the status bar asking the bet, the choices listed), and leaves the board and
    the result on the terminal when closed; ``--plain`` asks at the cursor instead."""
    from tests.pty_terminal import ESCAPES, LEAVE_ALTERNATE_SCREEN, RACEDAY, Terminal

    monkeypatch.setenv("PYTHONPATH", str(site))  # the terminal's command sees the game
    args = [str(RACEDAY), NAME, "play", "--blue", "bookie", "--seed", "11", "--rounds", "1",
            "--delay", "0"]
    term = Terminal(args)
    assert term.read_until("Your bet, Red"), term.text[-600:]
    assert b"\x1b[?1049h" in term.output
    assert term.read_until("1. pass (no bet)") and term.read_until("chips, square 0 of 20")
    mark = term.type("1\r")
    assert term.read_until("Press q to close", mark), term.text[-600:]
    assert term.press_until_exit("q") == 0
    after = ESCAPES.sub("", term.output.decode("utf-8", "replace")
                        .rsplit(LEAVE_ALTERNATE_SCREEN, 1)[-1])
    assert "Red rolls" in after and ("player wins" in after or "A draw" in after), after
    plain = Terminal([*args, "--plain"])
    assert plain.read_until("Your bet, Red"), plain.text[-600:]
    assert b"\x1b[?1049h" not in plain.output and "  1. pass (no bet)" in plain.text
    plain.type("1\r")
    assert plain.wait() == 0
    assert "Red seals a bet." in plain.text


def test_its_terminal_game_is_saved_as_a_record_and_resumed_from_the_file(
        site: Path, tmp_path: Path) -> None:
    """The terminal kit gives the plugin game the record: a game saved after one bet (the
    input ends), exported as a record file and resumed from it with the same later bets,
    ends move for move as the same game played without stopping."""
    db = tmp_path / "games.sqlite"
    args = ("twindash", "play", "--blue", "bookie", "--seed", "11", "--rounds", "3",
            "--delay", "0", "--db", str(db))
    whole = raceday(site, *args, "--save", "whole", stdin="2\n7\n1\n")
    assert whole.returncode == 0, whole.stderr
    cut = raceday(site, *args, "--save", "cut", stdin="2\n")
    assert cut.returncode == 2 and "input ended" in cut.stderr
    export = python(site, f"""
from raceday.store.records import load_game
from raceday.store.sessions import SessionStore
store = SessionStore({str(db)!r})
for name in ("whole", "cut"):
    text = load_game(store, "twindash", name).record.text()
    open({str(tmp_path)!r} + "/" + name + ".txt", "w").write(text)
""")
    assert export.returncode == 0, export.stderr
    cut_text = (tmp_path / "cut.txt").read_text()
    assert '[Result "*"]' in cut_text and "p1: " in cut_text
    resumed = raceday(site, "twindash", "play", "--resume", str(tmp_path / "cut.txt"),
                      "--delay", "0", "--db", str(db), "--save", "resumed", stdin="7\n1\n")
    assert resumed.returncode == 0, resumed.stderr
    assert whole.stdout.rsplit("\n", 3)[-2] == resumed.stdout.rsplit("\n", 3)[-2]  # result
    compare = python(site, f"""
from raceday.core.events import event_log_text
from raceday.core.record import replay
from raceday.store.records import load_game
from raceday.store.sessions import SessionStore
store = SessionStore({str(db)!r})
a, b = (load_game(store, "twindash", n).record for n in ("whole", "resumed"))
assert [m.text() for m in a.moves] == [m.text() for m in b.moves], "the same moves"
ra, rb = replay(a), replay(b)
assert ra.state.to_json() == rb.state.to_json()
log = lambda r: event_log_text([e for step in r.events for e in step])
assert log(ra) == log(rb)
assert a.result == b.result != "*"
print(len(a.moves))
""")
    assert compare.returncode == 0, compare.stderr
    assert int(compare.stdout) > 6
    wrong = raceday(site, "twindash", "play", "--resume", str(tmp_path / "nothing.txt"))
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr


def test_two_people_at_one_keyboard_and_in_japanese(site: Path) -> None:
    done = raceday(site, "twindash", "play", "--blue", "human", "--rounds", "1", "--seed", "2",
                   "--lang", "ja", stdin="1\n1\n")
    assert done.returncode == 0, done.stderr
    assert "キーボードを赤に渡してください" in done.stdout and "青が賭けを封印した" in done.stdout


def test_terminal_refuses_bad_input_with_one_line(site: Path) -> None:
    bad_length = raceday(site, "twindash", "play", "--length", "3")
    assert bad_length.returncode == 2
    assert "length" in bad_length.stderr and "Traceback" not in bad_length.stderr
    bad_seat = raceday(site, "twindash", "play", "--red", "nobody")
    assert bad_seat.returncode == 2 and "--red" in bad_seat.stderr
    typo = raceday(site, "twindash", "play", "--seed", "1", stdin="9\nabc\n３\n")
    assert typo.returncode == 2
    assert typo.stdout.count("Type one of the numbers shown.") == 2
    assert "digits 0-9" in typo.stdout and "input ended" in typo.stderr


def test_watch_two_computers_gives_the_same_race_for_the_same_seed(site: Path) -> None:
    runs = [raceday(site, "twindash", "watch", "--seed", "5", "--json") for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    doc = json.loads(runs[0].stdout)
    assert doc["termination"] in ("finish", "money", "draw")
    assert any(e["kind"] == "revealed" for e in doc["events"])


# --- the research frameworks ----------------------------------------------------------
def test_loads_as_an_openspiel_game_passing_random_sim_test(site: Path) -> None:
    done = python(site, """
import pyspiel
from raceday.interop import openspiel
game = openspiel.load_game("twindash")
pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
small = openspiel.load_game("twindash", length=6, rounds=2, chips=0)
pyspiel.random_sim_test(small, num_sims=5, serialize=True, verbose=False)
three = openspiel.load_game("twindash", players=3, rounds=3)
assert three.num_players() == 3 and three.max_chance_outcomes() == 216
pyspiel.random_sim_test(three, num_sims=5, serialize=True, verbose=False)
kind = game.get_type()
assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION, kind
assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC, kind
print("passed", game.num_players())
""")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "passed 2" in done.stdout


def test_openspiel_views_never_show_the_rivals_sealed_bet_in_any_round(site: Path) -> None:
    """In round 2, Blue's information state, observation and tensors must be the same
    whichever bet Red has sealed; Red's own must differ."""
    done = python(site, """
from raceday.interop import openspiel
game = openspiel.load_game("twindash")

def named(state, name):
    return next(a for a in state.legal_actions() if state.action_to_string(a) == name)

def round_two(red_bet):
    state = game.new_initial_state()
    for _ in range(2):
        state.apply_action(named(state, "pass"))
    roll = next(a for a, _ in state.chance_outcomes() if state.action_to_string(a) == "roll 3-3")
    state.apply_action(roll)
    state.apply_action(named(state, red_bet))
    return state

one, other = round_two("back 0 for 1"), round_two("back 1 for 3")
assert one.current_player() == 1
for view in ("information_state_string", "observation_string",
             "information_state_tensor", "observation_tensor"):
    assert getattr(one, view)(1) == getattr(other, view)(1), view
assert one.information_state_string(0) != other.information_state_string(0)
print("hidden")
""")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "hidden" in done.stdout


def test_loads_as_a_pettingzoo_environment_passing_api_test(site: Path) -> None:
    done = python(site, """
import warnings
warnings.simplefilter("ignore")
from pettingzoo.test import api_test, seed_test
from raceday.interop.pettingzoo import env
api_test(env("twindash"), num_cycles=60, verbose_progress=False)
api_test(env("twindash", rounds=2, chips=0), num_cycles=20, verbose_progress=False)
api_test(env("twindash", players=4, rounds=2), num_cycles=20, verbose_progress=False)
seed_test(lambda render_mode=None: env("twindash", render_mode=render_mode), num_cycles=30)
print("passed")
""")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "passed" in done.stdout


def test_the_arena_plays_its_computer_against_openspiels_bots(site: Path) -> None:
    done = raceday(site, "arena", "--game", "twindash", "--a", "bookie", "--b",
                   "openspiel-mcts:10", "--games", "4", "--seed", "3", "--option",
                   "rounds=3", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["game"] == "twindash" and summary["params"]["rounds"] == 3
    assert summary["a_wins"] + summary["b_wins"] + summary["draws"] == 4
    unknown = raceday(site, "arena", "--game", "twindash", "--a", "Nobody", "--games", "1")
    assert unknown.returncode == 2  # make_agent's OptionsError, worded by the game
    assert "unknown twindash computer player 'nobody'" in unknown.stderr
    more = raceday(site, "arena", "--game", "twindash", "--option", "players=3")
    assert more.returncode == 2 and "two agents" in more.stderr


# --- print and play -------------------------------------------------------------------
def test_prints_with_raceday_print(site: Path, tmp_path: Path) -> None:
    pdf = tmp_path / "twindash.pdf"
    done = raceday(site, "print", "twindash", "--out", str(pdf))
    assert done.returncode == 0, done.stderr
    assert pdf.read_bytes().startswith(b"%PDF")
    folder = tmp_path / "pages"
    folder.mkdir()
    svg = raceday(site, "print", "twindash", "--out", str(folder))
    assert svg.returncode == 0, svg.stderr
    pages = sorted(folder.glob("*.svg"))
    assert pages and all(p.read_text(encoding="utf-8").lstrip().startswith("<")
                         for p in pages)
    assert any("Twin Dice Dash" in p.read_text(encoding="utf-8") for p in pages)
    longest = raceday(site, "print", "twindash", "sheet", "--rounds", "30", "--out",
                      str(tmp_path / "sheet.svg"))
    assert longest.returncode == 0, longest.stderr
    sheet = next(tmp_path.glob("sheet*.svg")).read_text(encoding="utf-8")
    assert "Round sheet" in sheet and sheet.count(">30<") == 1  # the 30th round's row
    refused = raceday(site, "print", "twindash", "track", "--length", "3")
    assert refused.returncode == 2 and "length" in refused.stderr and "6 to 60" in refused.stderr
    assert "Traceback" not in refused.stderr
    misplaced = raceday(site, "print", "twindash", "track", "--rounds", "3")
    assert misplaced.returncode == 2 and "does not apply" in misplaced.stderr
