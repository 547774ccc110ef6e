"""The `raceday hairpin` commands, driven with scripted input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from raceday.cli.main import app
from raceday.core.errors import RacedayError
from raceday.games.hairpin.rules import HairpinState
from raceday.games.hairpin.saves import final_state, load
from raceday.store.sessions import SessionStore

runner = CliRunner()


def run(args: list[str], stdin: str | None = None) -> str:
    result = runner.invoke(app, ["hairpin", *args], input=stdin)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_perft_prints_the_pinned_count() -> None:
    assert "perft(4) = 7396" in run(["perft", "--depth", "4"])
    doc = json.loads(run(["perft", "-d", "2", "--divide", "--json", "--position",
                          "..bbb./..bb.r2/rrr... r 0-0 0-0 0-0"]))
    assert doc["nodes"] == 78 and doc["divide"]["f2 charge d2 bump"] == 1


def test_bad_options_are_user_errors() -> None:
    for args in (["perft", "-d", "0"], ["perft", "-d", "2", "--variant", "turbo"],
                 ["perft", "-d", "2", "--position", "nonsense"],
                 ["match", "--red", "genius", "--black", "easy"],
                 ["match", "--red", "human", "--black", "easy"]):
        result = runner.invoke(app, ["hairpin", *args])
        # either a checked option (usage error, exit 2) or an error the command raised
        usage_error = isinstance(result.exception, SystemExit) and result.exit_code == 2
        assert usage_error or isinstance(result.exception, RacedayError), args


def test_match_prints_a_table_and_json() -> None:
    out = run(["match", "--red", "greedy", "--black", "random", "-n", "4"])
    assert "greedy" in out and "avg plies" in out
    doc = json.loads(run(["match", "--red", "greedy", "--black", "random", "-n", "4",
                          "--json", "--seed", "3"]))
    assert doc["games"] == 4 and doc["a_wins"] + doc["b_wins"] + doc["draws"] == 4


def _saved(db: Path, name: str) -> HairpinState:
    return final_state(load(SessionStore(db), name))


def test_human_is_refused_bad_input_and_can_undo(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    out = run(["play", "--black", "greedy", "--db", str(db), "--save", "g"],
              "u\n0\nf9 fly\nb1 charge c1\n1\nu\n")
    assert "Refused: nothing to take back yet: no move of yours has been played." in out
    assert "choose a number from 1 to 10" in out
    assert "the racers on b1 can play: b1 cruise c1, b1 charge d1" in out
    assert "Undone" in out
    # EOF after the undo: saved back at the start, Red to move
    assert _saved(db, "g").position.ply == 0


def test_eof_saves_and_resume_continues(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    run(["play", "--black", "greedy", "--db", str(db), "--save", "g"], "a1 cruise b1\n")
    assert _saved(db, "g").position.ply == 2  # Red's move and Black's reply
    out = run(["play", "--db", str(db), "--resume", "g"], "1\nq\n")
    assert "Resuming 'g' at ply 2" in out and "Saved as 'g'" in out
    assert f"continue with: raceday hairpin play --resume g --db {db}" in out
    assert _saved(db, "g").position.ply == 4


def test_resume_of_a_missing_session_is_a_user_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["hairpin", "play", "--db", str(tmp_path / "s.sqlite"),
                                 "--resume", "nope"])
    assert isinstance(result.exception, RacedayError)


def test_a_human_plays_a_whole_game_against_expert(tmp_path: Path) -> None:
    # The human always takes the first listed action; the game runs to its end.
    out = run(["play", "--black", "expert", "--db", str(tmp_path / "s.sqlite"),
               "--delay", "0", "--think", "0.05"], "1\n" * 400)
    assert "Game over:" in out and "Black (expert) plays" in out
    assert _saved(tmp_path / "s.sqlite", "hairpin").is_terminal()


@pytest.mark.parametrize("variant", ["short+random", "derby+v1"])
def test_computer_games_in_variants_finish(tmp_path: Path, variant: str) -> None:
    out = run(["play", "--red", "greedy", "--black", "easy", "--variant", variant,
               "--db", str(tmp_path / "s.sqlite"), "--delay", "0"])
    assert "Game over:" in out


def test_show_draws_the_position_and_its_actions() -> None:
    out = run(["show", "--position", "bbbbr./....b./r.rrr. r 1-0 0-0 0-0"])
    assert "laps 1/5" in out and "e3 charge b1" in out and "R " in out
