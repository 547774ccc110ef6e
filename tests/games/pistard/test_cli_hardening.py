"""Hardening of `raceday pistard`: checked options, hostile track files, no lost saves,
Ctrl-C, every variant with its defaults, and a results display whose numbers mean what
they say."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from raceday.cli.main import app, run
from raceday.core.errors import InputFileError
from raceday.core.events import Event
from raceday.core.play import play_game
from raceday.games.pistard.agents import make_agent
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.render import commentary, result_lines, standings
from raceday.games.pistard.replay import current_shape
from raceday.games.pistard.saves import load_race
from raceday.games.pistard.state import PistardState, position_state, with_word_facts
from raceday.games.pistard.track import MAX_FILE_BYTES, default_track, load_track
from raceday.games.pistard.variants import VARIANTS
from raceday.store.sessions import SessionStore
from raceday.terminal import lineinput
from raceday.terminal.surface import LineSurface

runner = CliRunner()

# Computer players for each variant when "play" is used to watch a race.
COMPUTERS = {"ttt": "medium", "sprint": "easy,medium", "pursuit": "easy,medium"}


def text_of(renderables: list[object]) -> str:
    console = Console(width=200, record=True, color_system=None)
    for r in renderables:
        console.print(r)
    return console.export_text()


# --- options --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "--seed", "-1"], "--seed"),
        (["play", "--delay", "inf"], "--delay"),
        (["play", "--delay", "nan"], "--delay"),
        (["play", "--delay", "-1"], "--delay"),
        (["play", "--players", ""], "--players is empty"),
        (["play", "--players", "e,e,e,e,e,e"], "2 to 5"),
        (["play", "--players", "human"], "2 to 5 players, got 1"),
        (["play", "--variant", "ttt", "--players", "m,m"], "exactly 1 player, got 2"),
        (["play", "--variant", "sprint", "--players", "e,e,e"], "exactly 2 players"),
        (["play", "--variant", "madison"], "unknown variant"),
        (["play", "--riders-per-player", "0"], "from 1 to 6"),
        (["play", "--riders-per-player", "-2"], "from 1 to 6"),
        (["play", "--riders-per-player", "7"], "from 1 to 6"),
        (["play", "--players", "h,m,m,m,m", "-k", "3"], "12 riders"),
        (["play", "--variant", "points", "--laps", "0"], "from 1 to 50"),
        (["play", "--variant", "points", "--laps", "51"], "from 1 to 50"),
        (["play", "--laps", "3"], "only be chosen for the points race"),
        (["play", "--tokens", "-1"], "from 0 to 20"),
        (["play", "--save", ""], "empty text"),
        (["play", "--save", "n" * 65], "at most 64"),
        (["play", "--resume=--db"], "needs a session's name"),
        (["play", "--resume", "a", "--save", "b"], "give one of them"),
        (["watch", "--resume", "nothing-saved"], "no saved pistard session named"),
        (["play", "--lang", "fr"], "must be en or ja"),
        (["play", "--track", ""], "empty text"),
        (["play", "--track", "/"], "is a directory"),
        (["play", "--track", "no/such/file.toml"], "neither a shipped track"),
        (["simulate", "-n", "0"], "from 1 to 100,000"),
        (["simulate", "-n", "-4"], "from 1 to 100,000"),
        (["simulate", "-n", "100001"], "from 1 to 100,000"),
        (["simulate", "--playouts", "0"], "from 1 to 10,000"),
        (["simulate", "--seed", "-1"], "--seed"),
        (["simulate", "--players", "human,easy"], "computers only"),
        (["simulate", "--variant", "ttt", "--players", "easy,easy"], "exactly 1 player"),
    ],
)
def test_bad_options_give_one_line_exit_2_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    db = tmp_path / "s.sqlite"
    argv = ["pistard", *args] + (["--db", str(db)] if args[0] == "play" else [])
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert len(err.strip().splitlines()) == 1, err
    assert not db.exists()  # every check ran before the store was opened


# --- track files ----------------------------------------------------------------------
def _write(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def test_random_bytes_are_not_a_track(tmp_path: Path) -> None:
    noise = np.random.default_rng(7).integers(0, 256, 4000, dtype=np.uint8).tobytes()
    path = _write(tmp_path, "noise.toml", b"\xff" + noise)
    with pytest.raises(InputFileError, match=r"noise\.toml: not a text file .*not UTF-8"):
        load_track(str(path))


def test_deeply_nested_toml_is_refused_without_recursion_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "deep.toml", b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    with pytest.raises(InputFileError, match=r"deep\.toml: .*nested too deeply"):
        load_track(str(path))


@pytest.mark.parametrize("content", [b"", b"   \n\n\t\n"])
def test_an_empty_file_says_it_is_empty(tmp_path: Path, content: bytes) -> None:
    path = _write(tmp_path, "empty.toml", content)
    with pytest.raises(InputFileError, match=r"empty\.toml: the file is empty"):
        load_track(str(path))


def test_a_huge_file_is_refused_after_reading_at_most_the_cap(tmp_path: Path) -> None:
    path = _write(tmp_path, "huge.toml", b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    with pytest.raises(InputFileError, match=r"huge\.toml: larger than 1 MB"):
        load_track(str(path))


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('rows = "YGBR"', "'rows' must be a list of strings"),
        ("rows = [1, 2, 3, 4]", "'rows' must be a list of strings"),
        ('name = 5\nrows = ["Y","G","B","R"]', "'name' must be a non-empty string"),
        ('lanes = "4"\nrows = ["Y","G","B","R"]', "'lanes' must be 4"),
        ("line = 1.5\nrows = " + json.dumps(default_track().to_json()["rows"]),
         "'line' must be a column"),
        ("line = true\nrows = " + json.dumps(default_track().to_json()["rows"]),
         "'line' must be a column"),
        ("[rows]\na = 1", "'rows' must be a list of strings"),
        ('speed = 3\nrows = ["Y","G","B","R"]', "unknown field(s) speed"),
        ("rows = [", "not valid TOML"),
    ],
)
def test_wrong_types_name_the_file_and_the_field(tmp_path: Path, toml: str,
                                                 needle: str) -> None:
    path = _write(tmp_path, "bad.toml", toml.encode())
    with pytest.raises(InputFileError) as info:
        load_track(str(path))
    assert str(info.value).startswith(str(path))
    assert needle in str(info.value)


def test_track_file_errors_reach_the_user_as_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "deep.toml", b"a = " + b"{b = " * 5000 + b"1" + b"}" * 5000)
    db = tmp_path / "s.sqlite"
    assert run(["pistard", "play", "--track", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "deep.toml" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not db.exists()


# --- saves, Ctrl-C --------------------------------------------------------------------
def _saved(db: Path, name: str) -> tuple[dict[str, object], int]:
    return SessionStore(db).load("pistard", name)


HUMAN_ARGS = ["pistard", "play", "--players", "human,medium", "--riders-per-player", "1",
              "--delay", "0"]


def test_a_new_game_never_overwrites_a_saved_one(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    first = runner.invoke(app, [*HUMAN_ARGS, "--seed", "9", "--db", str(db)],
                          input="2 4\n1\n")
    assert first.exit_code == 0, first.output
    before = _saved(db, "pistard")
    second = runner.invoke(app, [*HUMAN_ARGS, "--seed", "1", "--db", str(db)], input="1 1\n")
    assert second.exit_code == 0, second.output
    assert "already saved as 'pistard'; this one is saved as 'pistard-2'" in second.output
    assert _saved(db, "pistard") == before  # untouched, revision included
    assert _saved(db, "pistard-2")[0]["cache"] != before[0]["cache"]
    # the old game still resumes under its own name
    third = runner.invoke(app, [*HUMAN_ARGS, "--db", str(db), "--resume", "pistard"], input="")
    assert "resuming 'pistard'" in third.output
    # a name given with --save is used as given or refused, as in every game (#43)
    kept = _saved(db, "pistard-2")
    assert run([*HUMAN_ARGS, "--db", str(db), "--save", "pistard-2"]) == 2
    assert _saved(db, "pistard-2") == kept


def test_ctrl_c_at_a_prompt_prints_one_line_with_the_resume_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["2 4", "1"])

    def reader(prompt: object, **_kw: object) -> str:
        for answer in answers:
            return answer
        raise KeyboardInterrupt

    monkeypatch.setattr(lineinput, "ask", reader)
    db = tmp_path / "a folder" / "s.sqlite"
    code = run([*HUMAN_ARGS, "--seed", "9", "--db", str(db), "--save", "mine"])
    assert code == 130
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("interrupted: the race is saved as 'mine' as it stood in round")
    assert lines[0].endswith(
        f"; resume with: raceday pistard play --resume mine --db '{db}'")
    state = load_race(SessionStore(db), "mine").state()
    assert isinstance(state, PistardState) and state.round >= 1


def test_ctrl_c_while_watching_computers_keeps_the_round_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}

    def pause(_surface: LineSurface, _seconds: float) -> None:
        calls["n"] += 1
        if calls["n"] == 30:
            raise KeyboardInterrupt

    monkeypatch.setattr(LineSurface, "pause", pause)
    db = tmp_path / "s.sqlite"
    args = ["pistard", "play", "--players", "easy,medium", "--seed", "3", "--delay", "0",
            "--db", str(db)]
    assert run(args) == 130
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "resume with: raceday pistard play --resume pistard --db" in err
    saved_round = load_race(SessionStore(db), "pistard").state().round  # type: ignore[attr-defined]
    assert f"as it stood in round {saved_round}" in err and saved_round >= 1
    monkeypatch.setattr(LineSurface, "pause", lambda _surface, _s: None)
    assert run([*args, "--resume", "pistard"]) == 0
    out = capsys.readouterr().out
    assert f"resuming 'pistard': Scratch, round {saved_round}" in out and "wins" in out


# --- every variant with its defaults --------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_simulates_with_default_options(variant: str) -> None:
    result = runner.invoke(app, ["pistard", "simulate", "--variant", variant, "-n", "2",
                                 "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["races"] == 2 and data["stopped_by_round_cap"] == 0
    if variant == "ttt":
        # one team against the clock: a time, never a "win rate" of a lone team
        assert data["win_rate_by_level"] is None and data["win_rate_by_start_lane"] is None
        assert data["options"]["players"] == ["medium"]
        tt = data["team_time"]
        assert 57 / 7 <= tt["min"] <= tt["mean"] <= tt["max"] <= data["turns"]["max"]
        return
    levels = data["win_rate_by_level"]
    assert sum(v["wins"] for v in levels.values()) == 2
    if variant == "pursuit":
        assert data["win_rate_by_start_lane"] is None  # teams win, not starting lanes
    else:
        assert sum(v["wins"] for v in data["win_rate_by_start_lane"].values()) == 2


def test_team_time_trial_text_report_is_a_team_result() -> None:
    result = runner.invoke(app, ["pistard", "simulate", "--variant", "ttt", "-n", "2",
                                 "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "team time (rounds until the third rider is over the line" in result.output
    assert "win rate" not in result.output and "start lane" not in result.output


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_plays_with_computers_and_default_options(tmp_path: Path,
                                                                variant: str) -> None:
    result = runner.invoke(app, ["pistard", "play", "--variant", variant, "--players",
                                 COMPUTERS.get(variant, "easy,medium"), "--seed", "2",
                                 "--delay", "0", "--db", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "result" in out
    if variant == "ttt":
        assert "team time" in out and "the third rider crossed the line in turn" in out
        assert "place" not in out.split("result")[-1]
    elif variant == "pursuit":
        assert "wins the team pursuit" in out or "the teams tie" in out
    else:
        assert "wins the" in out and "1st" in out


def test_a_human_plays_the_team_time_trial_by_default(tmp_path: Path) -> None:
    script = "".join(f"{k} {lane}\n" for k, lane in ((1, 4), (1, 3), (2, 4), (2, 3)))
    result = runner.invoke(app, ["pistard", "play", "--variant", "ttt", "--seed", "2",
                                 "--delay", "0", "--db", str(tmp_path / "s.sqlite")],
                           input=script + "1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "team time" in result.output and "rounds: the third rider crossed" in result.output


# --- display --------------------------------------------------------------------------
def _finished(variant: str, players: int, seed: int = 5, **extra: int) -> PistardState:
    options = PistardOptions(variant=variant, players=players, **extra)  # type: ignore[arg-type]
    state = PistardState(options, default_track())
    agents = [make_agent("medium") for _ in range(players)]
    play_game(state, agents, np.random.default_rng(seed), max_steps=100_000)
    assert state.is_terminal()
    return state


def _rows(text: str) -> list[list[str]]:
    """The result table's rows (under its header's rule), cell by cell: its columns are
    at least two blanks apart, a cell's words one."""
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.strip().startswith("─"))
    return [re.split(r"\s{2,}", line.strip()) for line in lines[rule + 1:] if line.strip()]


def test_scratch_results_show_places_without_a_score_that_repeats_them() -> None:
    state = _finished("scratch", 2, riders_per_player=2)
    text = text_of(result_lines(state))
    winner = state.riders[state.ranking[0]]
    assert f"rider {winner.ident} (player {winner.owner + 1}) wins the scratch after " \
           f"{state.rounds_total} turns" in text
    assert "score" not in text and "1.0" not in text
    rows = _rows(text)
    assert [row[0] for row in rows] == ["1st", "2nd", "3rd", "4th"]
    assert [int(row[1]) for row in rows] == [state.riders[i].ident for i in state.ranking]


def test_points_results_show_the_points_and_laps() -> None:
    state = _finished("points", 2, riders_per_player=2, laps=2)
    text = text_of(result_lines(state))
    assert "points" in text and "laps gained/lost" in text
    rows = _rows(text)
    assert [int(r[3]) for r in rows] == [state.points[i] for i in state.ranking]
    assert f"with {state.points[state.ranking[0]]} points" in text


def test_elimination_results_say_in_which_heat_each_rider_went_out() -> None:
    state = _finished("elimination", 2, riders_per_player=2)
    text = text_of(result_lines(state))
    assert [r[3] for r in _rows(text)] == ["winner", "heat 3", "heat 2", "heat 1"]


def test_standings_never_show_a_negative_distance_to_go() -> None:
    state = position_state([(11, 59, 2), (21, 40, 3)], mover=21, dice=(1, 1, 1, 1))
    text = standings(state).plain
    assert "rider 11: lane 2, over the line, 3 past; player 1, tokens 0" in text
    assert "rider 21: lane 3,  16 to go; player 2, tokens 0" in text
    assert "-3" not in text


def logged(kind: str, facts: dict[str, object]) -> Event:
    """An event as the engine logs it (the variants' facts completed by the state)."""
    return Event(kind, with_word_facts(kind, facts))


def test_commentary_separates_riders_and_numbers() -> None:
    sprint = commentary(logged("sprint", {"lap": 2, "places": [[11, 1, 5], [21, 2, 3]]}))
    assert sprint == "lap 2 sprint — places 1, 2: riders 11, 21, points 5, 3"
    heat = commentary(logged("heat", {"heat": 1, "order": [11, 21, 12], "eliminated": 12,
                                      "stopped": False}))
    assert heat == "heat 1 finishing order 11, 21, 12: rider 12 is eliminated"
    result = commentary(logged("result", {"line": True, "ranking": [21, 11], "rounds": 12,
                                          "stopped": False, "scores": None}))
    assert result == "race over after 12 turns; finishing order 21, 11"
    for why in ("line", "race over"):  # a room's log before: a word, or older a sentence
        old = current_shape({"type": "result", "why": why, "ranking": [21, 11], "rounds": 12})
        assert commentary(Event("result", {k: v for k, v in old.items() if k != "type"})) \
            == result
    fall = commentary(logged("fall", {"rider": 21, "reason": "stand_stills", "round": 4}))
    assert fall == "rider 21 falls (three stand-stills in a row)"
    ttt = commentary(logged("result", {"ttt": True, "ranking": [11, 12], "rounds": 13}))
    assert ttt == "team time trial over after 13 turns"
    team = commentary(logged("team_time", {"team": 1, "rounds": 9, "past": 2}))
    assert team == "team 2's third rider is over the line after 9 turns"
    won = commentary(logged("result", {"tie": False, "team_won": True, "teams": [1, 0],
                                       "team": 2, "rounds": 9}))
    assert won == "team 2 wins the pursuit after 9 turns"
